"""``--over``'s walk from piece to piece by exact pivots, against the sample-point method (two independent ways
of finding each basis), and the windowed search of a piece's end against isolating every root.

Where the LP has several optimal bases (Kuhn on [2, 8], Leduc) the two methods may pick different ones, so
the *bases'* pieces may differ; the value as a piecewise function (its formulas and exact breakpoints) may not.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from flint import fmpq_poly
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.algebraic import RealAlgebraic, real_roots, to_fmpq
from exactpoker.core.parametric import ParametricGame, compile_parametric
from exactpoker.games.library import parametric
from exactpoker.games.papers import von_neumann
from exactpoker.solve.parametric.game import ParametricSolution, solve_over
from exactpoker.solve.parametric.sign_intervals import _may_have_root, largest_interval

POINTS = [Fraction(1), Fraction(2), Fraction(3)]


def _both(game, lower, upper) -> tuple[ParametricSolution, ParametricSolution]:
    return solve_over(game, lower, upper), solve_over(game, lower, upper, walk=False)


def _same_value(walked: ParametricSolution, sampled: ParametricSolution) -> None:
    assert [(str(s), str(e), v) for s, e, v in walked.value_pieces()] == \
        [(str(s), str(e), v) for s, e, v in sampled.value_pieces()]
    for left, right in zip(walked.pieces, walked.pieces[1:]):
        assert left.end.same(right.start)
    assert all(p.certificate.holds for p in walked.pieces)


def test_kuhn_walk_equals_sample_points():
    walked, sampled = _both(compile_parametric(parametric("kuhn", "bet"), POINTS), Fraction(1, 4), 8)
    _same_value(walked, sampled)
    assert [str(b) for b in walked.breakpoints()] == ["1", "2"]


@pytest.mark.parametrize("n", [3, 4])
def test_von_neumann_walk_equals_sample_points(n):
    game = compile_parametric(ParametricGame("vn", "b", lambda b: von_neumann.compiled(n, b), degree=1), POINTS)
    _same_value(*_both(game, Fraction(1, 2), 5))


def test_the_walk_finds_the_pieces_after_the_first():
    """Kuhn in the bet on [1/4, 8]: the first piece from a sample point, the other two by exact pivots."""
    from exactpoker.solve.parametric.lp import piecewise_lp, sequence_form_poly_lp

    game = compile_parametric(parametric("kuhn", "bet"), POINTS)
    lp = sequence_form_poly_lp(game.layouts, {key[:2]: polys[0] for key, polys in game.entries.items()})
    pieces = piecewise_lp(lp, Fraction(1, 4), 8)
    assert [p.found_by for p in pieces] == ["sample", "walk", "walk"]
    assert [p.sample for p in pieces] == [1, Fraction(3, 2), 3]


@pytest.mark.slow
def test_leduc_two_ranks_walk_equals_sample_points():
    game = compile_parametric(parametric("leduc(suits=false,ranks=2)", "bet2"),
                              [Fraction(5, 2), Fraction(3), Fraction(7, 2)])
    walked, sampled = _both(game, 2, 4)
    _same_value(walked, sampled)
    assert [str(b) for b in walked.breakpoints()] == ["CRootOf(x**3 + 16*x**2 + 20*x - 150, 2)", "3"]


# -- the end of a piece: probes and Descartes' rule against every root ---------------------------------


def _poly(roots: list[Fraction], sign: int) -> fmpq_poly:
    poly = fmpq_poly([sign])
    for r in roots:
        poly *= fmpq_poly([to_fmpq(-r), 1])
    return poly


@settings(max_examples=60, deadline=None)
@given(st.lists(st.fractions(-4, 4, max_denominator=7), min_size=1, max_size=6),
       st.fractions(-5, 5, max_denominator=5), st.fractions(Fraction(1, 9), 3, max_denominator=9))
def test_descartes_never_drops_a_polynomial_with_a_root(roots, lower, width):
    upper = lower + width
    inside = any(lower < r < upper for r in roots)
    assert _may_have_root(_poly(roots, 1), lower, upper) or not inside


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.lists(st.fractions(-3, 3, max_denominator=5), min_size=1, max_size=3),
                          st.sampled_from([1, -1])), min_size=1, max_size=5),
       st.fractions(-3, 3, max_denominator=11))
def test_largest_interval_equals_every_root_walked(factored, t):
    """The interval of conditions ``p >= 0`` around ``t``: the cells between all real roots, walked outwards."""
    polys = [_poly(roots, sign) for roots, sign in factored]
    polys = [p for p in polys if p(to_fmpq(t)) > 0]
    if not polys:
        return
    lower, upper = RealAlgebraic.rational(Fraction(-4)), RealAlgebraic.rational(Fraction(4))
    start, end = largest_interval(polys, [], t, lower, upper)
    roots = sorted({r.lower for p in polys for r in real_roots(p)} | {Fraction(-4), Fraction(4)})

    def holds(q: Fraction) -> bool:
        return all(p(to_fmpq(q)) >= 0 for p in polys)

    above = [r for r in roots if r > t]
    expected_end = next((a for a, b in zip([t] + above, above) if not holds((a + b) / 2)), above[-1])
    below = [r for r in reversed(roots) if r < t]
    expected_start = next((b for b, a in zip([t] + below, below) if not holds((a + b) / 2)), below[-1])
    assert start.is_rational and end.is_rational and (start.lower, end.lower) == (expected_start, expected_end)


@pytest.mark.slow
def test_leduc_three_ranks_walk_equals_sample_points():
    """Leduc (3 ranks, no suits) in the second bet on [4, 41/10]: pieces of width ~0.01 with algebraic ends; the
    value equals the point LP of the game built at a rational bet."""
    from exactpoker.core.tree import compile_tree
    from exactpoker.formats import load_game
    from exactpoker.solve import solve_game

    game = compile_parametric(parametric("leduc(suits=false)", "bet2"), [Fraction(7, 2), Fraction(4), Fraction(9, 2)])
    walked, sampled = _both(game, 4, Fraction(41, 10))
    _same_value(walked, sampled)
    assert len(walked.pieces) >= 2 and any(p.found_by == "walk" for p in walked.pieces)
    for bet in [Fraction(4), Fraction(81, 20), Fraction(41, 10)]:
        assert walked.value_at(bet) == solve_game(compile_tree(load_game(f"library:leduc(suits=false,bet2={bet})").tree)).value
