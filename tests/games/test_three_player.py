"""Three-player poker with a finite deck (seed 000, section 4, "Finite deck"; the paper's FastMNE)."""

import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.certify import verify
from exactpoker.cli import main
from exactpoker.core import BehaviourProfile
from exactpoker.errors import CertificationError, InvalidParameterError
from exactpoker.games.papers import three_player as tp
from exactpoker.core.evaluate import float_gains
from exactpoker.core.support_system import FREE, gap_polynomials
from exactpoker.solve.algebra.polynomial_system import Family, unit_box_corners
from exactpoker.solve.nplayer import indifference as ind
from exactpoker.solve.nplayer import support_search
from exactpoker.solve.structure.ordered_games import OrderedModel, ordered_game
from tests.strategies import bets, probabilities

F = Fraction


def profiles(result):
    return [[list(eq.strategies[name]) for name in ("I", "II", "III")] for eq in result.equilibria]


def as_fractions(rows):
    return [[F(str(v)) for v in row] for row in rows]


# -- published values (seed 000, section 4) ------------------------------------------------


def test_fastmne_4_1():
    """FastMNE(4,1): values (1/24, -1/48, -1/48), P = [2/3,0,0,1], Q = R = [0,0,1/4,1]."""
    result = tp.equilibrium(4, 1)
    assert all(eq.certified for eq in result.equilibria)
    assert [str(v) for v in result.equilibria[0].values] == ["1/24", "-1/48", "-1/48"]
    found = [as_fractions(p) for p in profiles(result)]
    assert [[F(2, 3), 0, 0, 1], [0, 0, F(1, 4), 1], [0, 0, F(1, 4), 1]] in found
    # I's bluff may sit on card 1 or card 2: a segment of equilibria, both end points returned
    assert [[0, F(2, 3), 0, 1], [0, 0, F(1, 4), 1], [0, 0, F(1, 4), 1]] in found
    assert result.details["segment"] and result.details["II equals III"]


def test_fastmne_10_2():
    """FastMNE(10,2): values (106/1125, -53/1125, -53/1125), P = [16/19,0,...,0,1], Q = R = [0*6, 3/25, 1, 1, 1]."""
    result = tp.equilibrium(10, 2)
    assert [str(v) for v in result.equilibria[0].values] == ["106/1125", "-53/1125", "-53/1125"]
    q = [0] * 6 + [F(3, 25), 1, 1, 1]
    assert [[F(16, 19)] + [0] * 8 + [1], q, q] in [as_fractions(p) for p in profiles(result)]


def test_fastmne_65_2_printed_profile_is_exact_and_its_value_is_not_974_8121():
    """FastMNE(65,2): the printed profile is an exact equilibrium; the printed value 974/8121 is not its value.

    The exact value is 402733/3357900; 974/8121 is its best rational
    approximation with a denominator below 10^4 (Maple's float NLP, converted back).
    """
    P = [1] * 8 + [F(14, 23)] + [0] * 45 + [1] * 11
    Q = [0] * 42 + [F(189, 205)] + [1] * 22
    certificate = tp.certify_profile(65, 2, P, Q, Q)
    assert certificate.holds
    value = certificate.payoffs[0]
    assert value == F(402733, 3357900) != F(974, 8121)
    assert certificate.payoffs[1] == certificate.payoffs[2] == -value / 2
    assert value.limit_denominator(10**4 - 1) == F(974, 8121)


@pytest.mark.slow
def test_fastmne_65_2_is_found():
    """FastMNE(65,2) located from the continuous cut points: the paper's profile, exactly."""
    result = tp.equilibrium(65, 2)
    eq = result.equilibria[0]
    assert eq.values[0] == F(402733, 3357900)
    assert eq.strategies["I"][8] == F(14, 23) and eq.strategies["II"][42] == F(189, 205)
    assert result.details["II equals III"]


@pytest.mark.slow
def test_large_deck_that_the_guide_misses_is_found_on_the_cut_shapes():
    """n = 57, b = 1/2: no support near the continuous guide certifies; a cut shape does (I mixes card 7, II and III card 24)."""
    n, b = 57, F(1, 2)
    model = OrderedModel(ordered_game(tp.game(n, b)))
    alike = {(2, h): (1, h) for h in range(n)}
    with pytest.raises(CertificationError):
        support_search.locate_equilibrium(model, tp._continuous_guide(n, b), ties=alike)
    result = tp.equilibrium(n, b)
    eq = result.equilibria[0]
    assert eq.certified and result.details["II equals III"] and result.details["family dimension"] == 0
    assert [h for h, v in enumerate(eq.strategies["I"]) if 0 < v < 1] == [6]
    assert [h for h, v in enumerate(eq.strategies["II"]) if 0 < v < 1] == [23]


@pytest.mark.parametrize("n, b", [(20, F(1, 2)), (41, F(2)), (100, F(10))])
def test_cut_shapes(n, b):
    """Every listed support: I bets below a cut and above a later one, II = III call above a cut; each cut pure or on one free card."""
    shapes = list(tp._cut_supports(n, b, radius=3))
    assert len(set(shapes)) == len(shapes) > 100
    for raises, calls, calls_iii in shapes:
        assert calls == calls_iii
        free_bets = [h for h, v in enumerate(raises) if v is FREE]
        free_calls = [h for h, v in enumerate(calls) if v is FREE]
        assert len(free_bets) <= 2 and len(free_calls) <= 1
        pure = [v for v in calls if v is not FREE]
        assert pure == sorted(pure)
        runs = "".join(str(v) for v in raises if v is not FREE)
        assert runs.strip("1") == "0" * runs.count("0") and "0" in runs  # 1...1 0...0 1...1


def test_large_bet_family_of_unreached_calls():
    """n = 13, b = 20: I never bets, so II and III are indifferent everywhere: a 12-dimensional family, its certified corners listed."""
    result = tp.equilibrium(13, 20)
    assert result.details["family dimension"] == 12
    assert result.equilibria and all(eq.certified for eq in result.equilibria)
    assert all(v == 0 for eq in result.equilibria for v in eq.strategies["I"])


@settings(max_examples=40, deadline=None)
@given(st.data(), st.integers(1, 5))
def test_box_corners_are_the_brute_force_vertices(data, m):
    """Corners of {offset + D t} in [0, 1]^m: flint's batched solve = one sympy solve per tight choice."""
    import sympy
    from itertools import combinations, product

    d = data.draw(st.integers(1, min(m, 3)))
    small = st.fractions(min_value=-2, max_value=2, max_denominator=3)
    offset = data.draw(st.lists(st.fractions(min_value=0, max_value=1, max_denominator=4), min_size=m, max_size=m))
    directions = [data.draw(st.lists(small, min_size=d, max_size=d)) for _ in range(m)]
    expected = set()
    for chosen in combinations(range(m), d):
        block = sympy.Matrix([[directions[i][j] for j in range(d)] for i in chosen])
        if block.det() == 0:
            continue
        for bounds in product((0, 1), repeat=d):
            t = block.solve(sympy.Matrix([b - offset[i] for b, i in zip(bounds, chosen)]))
            point = tuple(offset[i] + sum(directions[i][j] * t[j] for j in range(d)) for i in range(m))
            if all(0 <= v <= 1 for v in point):
                expected.add(tuple(F(str(v)) for v in point))
    parameters = sympy.symbols(f"t0:{d}")
    parametrisation = tuple(sympy.Rational(o.numerator, o.denominator)
                            + sum(sympy.Rational(c.numerator, c.denominator) * t for c, t in zip(row, parameters))
                            for o, row in zip(offset, directions))
    family = Family(tuple(sympy.symbols(f"x0:{m}")), (), d, tuple(parameters), parametrisation)
    assert unit_box_corners(family) == tuple(sorted(expected))


# -- properties ---------------------------------------------------------------------------


def swap(profile: BehaviourProfile) -> BehaviourProfile:
    one, two, three = profile.strategies
    return BehaviourProfile((one, three, two))


@settings(max_examples=8, deadline=None)
@given(n=st.integers(3, 7), b=st.sampled_from([F(1, 2), F(1), F(3, 2), F(2), F(3)]))
def test_equilibria_are_certified_zero_sum_and_symmetric_in_ii_iii(n, b):
    result = tp.equilibrium(n, b)
    g = tp.compiled(n, b)
    for eq in result.equilibria:
        assert verify(g, eq.profile).holds
        assert sum(eq.values) == 0
        assert verify(g, swap(eq.profile)).holds  # swapping II and III maps equilibria to equilibria


@settings(max_examples=5, deadline=None)
@given(n=st.integers(3, 6), b=st.sampled_from([F(1), F(2)]), seed=st.integers(0, 10**6))
def test_exact_gap_polynomials_match_the_float_gaps(n, b, seed):
    """The exact indifference polynomials, evaluated at a profile, equal the float guide's action gaps."""
    rng = np.random.default_rng(seed)
    g = tp.compiled(n, b)
    rows = [[F(int(k), 8) for k in rng.integers(0, 9, n)] for _ in range(3)]
    gaps = float_gains(g, [np.array([float(v) for v in row]) for row in rows])
    support = tuple(tuple(FREE for _ in range(n)) for _ in range(3))
    exact, symbols, system = gap_polynomials(g, support)
    point = {symbols[i]: rows[p][h] for (p, h), i in system.aliases}
    for (p, h), gap in exact.items():
        assert abs(float(gap.subs(point)) / g.denominator - gaps[p][h]) < 1e-12


def test_untied_search_finds_an_asymmetric_equilibrium():
    """Without Q = R the solver may return II and III playing differently (n = 4, b = 1), still certified."""
    g = tp.compiled(4, 1)
    located = support_search.locate_equilibrium(g, ind.fictitious_play(g))
    assert located.certificate.holds
    assert sum(located.certificate.payoffs) == 0


# -- bad input and CLI ----------------------------------------------------------------------


@pytest.mark.parametrize("n, b", [(2, 1), (0, 1), ("x", 1), (4, 0), (4, -1), (4, 1.5)])
def test_bad_input(n, b):
    with pytest.raises(InvalidParameterError):
        tp.equilibrium(n, b)


def test_bad_printed_profile_length():
    with pytest.raises(InvalidParameterError, match="P must list 4"):
        tp.certify_profile(4, 1, [0], [0, 0, 0, 1], [0, 0, 0, 1])


@pytest.mark.parametrize("bad", [F(3, 2), -1])
def test_printed_profile_outside_zero_one(bad):
    with pytest.raises(InvalidParameterError, match="Q must list probabilities between 0 and 1"):
        tp.certify_profile(4, 1, [0, 0, 0, 1], [0, 0, bad, 1], [0, 0, 0, 1])


@settings(max_examples=20, deadline=None)
@given(st.data(), st.integers(3, 7), bets)
def test_printed_profile_certificate_is_verify_on_the_compiled_game(data, n, b):
    """certify_profile (prefix sums over the order of the cards) = verify on the n^3 deals."""
    P, Q, R = (data.draw(st.lists(probabilities, min_size=n, max_size=n)) for _ in range(3))
    g = tp.compiled(n, b)
    assert tp.certify_profile(n, b, P, Q, R) == verify(g, ind.profile_from_behaviour(g, [P, Q, R]))


def test_cli_mixed_json(capsys):
    assert main(["three", "mixed", "--n", "4", "--b", "1", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["game"] == "three-player"
    assert payload["equilibria"][0]["values"] == ["1/24", "-1/48", "-1/48"]
    assert all(eq["certified"] for eq in payload["equilibria"])


def test_cli_bad_input(capsys):
    assert main(["three", "mixed", "--n", "2", "--b", "1"]) == 2
    assert "n must be" in capsys.readouterr().err
