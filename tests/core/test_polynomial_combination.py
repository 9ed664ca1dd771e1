"""Exact identities ``g = sum h_i e_i`` that prove a left-out gain zero at a box's zero (issue 27, kuhn3 (12, 2)).

The unit tests use hand-made polynomials; the game test is a three-player game
built by hand whose equilibrium is irrational (``sqrt(8569)``) and whose first
decision's indifference is the later decision's times ``1 - x``: the box's
certificate needs a multiplier of degree 1 there.  The box is cross-checked
against the closed form (an independent method).
"""

from fractions import Fraction

import pytest
import sympy
from flint import fmpq_mpoly_ctx
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.boxes import IsolatingBox
from exactpoker.certify_balls import certify_box
from exactpoker.core.tree import Chance, GameTree, Move, Terminal, compile_tree
from exactpoker.polynomial_combination import find_combination
from exactpoker.solve.algebra.krawczyk import isolate
from exactpoker.core.support_system import gain_polynomials
from exactpoker.solve.nplayer.square_system import free_columns

CTX = fmpq_mpoly_ctx.get(("x", "y", "z"), "lex")
X, Y, Z = CTX.gens()
ONE = CTX.from_dict({(0, 0, 0): 1})


def test_a_multiplier_of_degree_one_is_found_and_checked():
    e1, e2 = X * Y - 2 * Z + 1, Y * Z - X
    target = e1 - X * e2
    assert find_combination(target, [e1, e2], degree=0) is None
    found = find_combination(target, [e1, e2])
    assert found is not None and found.holds([e1, e2])
    assert found.multipliers == (ONE, -X) and found.used() == [0, 1]


def test_constant_multiples_are_found_first_and_zero_is_a_combination():
    e1, e2 = X * Y - 2 * Z + 1, Y * Z - X
    found = find_combination(3 * e1 - e2 / 2, [e1, e2])
    assert found.multipliers == (3 * ONE, -ONE / 2)
    assert find_combination(CTX.from_dict({}), [e1, e2]).used() == []


def test_a_polynomial_not_in_the_ideal_is_refused():
    e1, e2 = X * Y - Z, Y - X * Z  # both vanish at the origin, so e1 + 1 does not: no combination exists
    assert find_combination(e1 + 1, [e1, e2], degree=2) is None
    assert find_combination(X, [e1, e2]) is None  # X is not zero on the common zero (1, 1, 1)


def test_a_combination_whose_products_cancel_outside_the_target():
    """The products are reached through shared monomials: z e1 brings z*y, which z e2 cancels."""
    e1, e2 = X + Y, Y
    found = find_combination(Z * X, [e1, e2])
    assert found is not None and found.holds([e1, e2])


def test_holds_needs_one_multiplier_per_equation():
    e1, e2 = X * Y, Y * Z
    found = find_combination(X * Y, [e1, e2])
    assert found.holds([e1, e2]) and not found.holds([e1])


_coefficients = st.integers(-3, 3)
_linear = st.tuples(_coefficients, _coefficients, _coefficients, _coefficients)
_multilinear = st.lists(_coefficients, min_size=8, max_size=8)


def _poly_linear(c):
    return c[0] * X + c[1] * Y + c[2] * Z + c[3]


def _poly_multilinear(c):
    monomials = [(a, b, d) for a in (0, 1) for b in (0, 1) for d in (0, 1)]
    return CTX.from_dict({m: v for m, v in zip(monomials, c) if v})


@settings(max_examples=40, deadline=None)
@given(st.lists(_multilinear, min_size=1, max_size=3), st.lists(_linear, min_size=3, max_size=3))
def test_every_combination_of_degree_one_is_found(equations, multipliers):
    es = [_poly_multilinear(c) for c in equations]
    target = sum((_poly_linear(h) * e for h, e in zip(multipliers, es)), CTX.from_dict({}))
    found = find_combination(target, es)
    assert found is not None and found.holds(es)


@settings(max_examples=40, deadline=None)
@given(st.lists(_multilinear, min_size=1, max_size=3), st.lists(_linear, min_size=3, max_size=3),
       st.integers(1, 5))
def test_a_nonzero_constant_at_a_common_zero_is_never_a_combination(equations, multipliers, shift):
    es = [_poly_multilinear([0] + c[1:]) for c in equations]  # no constant terms: all vanish at the origin
    target = sum((_poly_linear(h) * e for h, e in zip(multipliers, es)), CTX.from_dict({})) + shift
    assert find_combination(target, es, degree=2) is None


# -- a hand-made game: three players, an irrational equilibrium, a dependent indifference --------------------

#: u[(a1, a2, a3)]: the payoffs of a 2x2x2 game whose only equilibrium is mixed and irrational (found by
#: enumerating all 27 supports): Q = (-87 + sqrt(8569))/10, y = (197 - sqrt(8569))/378, z = (95 - sqrt(8569))/4.
U = {(0, 0, 0): (3, 1, -3), (0, 0, 1): (-2, 2, 2), (0, 1, 0): (1, -3, 1), (0, 1, 1): (1, 0, -3),
     (1, 0, 0): (-2, -3, 1), (1, 0, 1): (3, -2, -1), (1, 1, 0): (0, -2, 1), (1, 1, 1): (-3, 1, -1)}
ROOT = sympy.sqrt(8569)
Q, Y_STAR, Z_STAR = (-87 + ROOT) / 10, (197 - ROOT) / 378, (95 - ROOT) / 4


def _rest(a):
    """Players 2 and 3 choose without seeing player 1's card or action."""
    return Move(1, "2", tuple((f"b{b}", Move(2, "3", tuple((f"c{c}", Terminal(U[a, b, c])) for c in (0, 1))))
                              for b in (0, 1)))


def dependent_game() -> GameTree:
    """Player 1 holds card a or b.  With b it plays p or q once; with a it may play q at once or pass to a second
    decision ``a|p`` between p and q.  The gain at ``a`` is the gain at ``b`` times ``1 - x(a|p)``."""
    card_a = Move(0, "a", (("p", Move(0, "a|p", (("p", _rest(0)), ("q", _rest(1))))), ("q", _rest(1))))
    card_b = Move(0, "b", (("p", _rest(0)), ("q", _rest(1))))
    return GameTree("dependent", ("1", "2", "3"),
                    Chance((("a", Fraction(1, 2), card_a), ("b", Fraction(1, 2), card_b)), "deal"))


@pytest.fixture(scope="module")
def game():
    return compile_tree(dependent_game())


def test_the_dependent_gain_needs_a_multiplier_of_degree_one(game):
    """Variables: 0 = a, 1 = a|p, 2 = b, 3 = player 2, 4 = player 3.  With x(a) and x(b) pinned, the box's
    unknowns are x(a|p), y, z and its equations the gains of b, 2, 3; the gain of a is left out."""
    x_a, x_b = Fraction(1, 4), Fraction(1, 2)
    x_c = (2 * Q - x_b - x_a) / (1 - x_a)  # player 1's total q-probability is Q
    exact = {1: x_c, 3: Y_STAR, 4: Z_STAR}
    x = [x_a, Fraction(0), x_b, Fraction(0), Fraction(0)]
    unknowns, rows = [1, 3, 4], [2, 3, 4]
    system = gain_polynomials(game, x, unknowns)
    ctx, gains = system.ctx, list(system.gains)
    a, b, c = gains[0], gains[2], gains[1]
    assert find_combination(a, [gains[r] for r in rows], degree=0) is None
    box = isolate([gains[r] for r in rows], ctx, [float(exact[k]) for k in unknowns], digits=30)
    certificate, full = certify_box(game, x, unknowns, rows, box)
    assert certificate.holds and certificate.identities == (0, 1)
    identity = dict(zip(certificate.identities, certificate.combinations))
    assert identity[0].holds([gains[r] for r in rows]) and identity[1].holds([gains[r] for r in rows])
    assert identity[0].multipliers[0] == 1 - ctx.gens()[0]  # g(a) = (1 - x(a|p)) g(b)
    assert (a - (1 - ctx.gens()[0]) * b).is_zero() and (c - b).is_zero()
    for k, (lo, hi) in zip(unknowns, box.intervals()):  # the closed form lies in the box: independent routes
        value = sympy.Rational(str(sympy.N(exact[k], 80)))
        assert lo <= value <= hi
    assert [full[0], full[2]] == [x_a, x_b]


def test_a_gain_left_out_beside_its_multiple_is_proved_with_a_nonzero_factor(game):
    """The other choice of equations: the gain of a, (1 - x(a|p)) g(b), is in the system and g(b) is left out.
    No combination gives g(b), but (1 - x(a|p)) g(b) is one; 1 - x(a|p) is nonzero on the box."""
    x = [Fraction(1, 4), Fraction(0), Fraction(1, 2), Fraction(0), Fraction(0)]
    unknowns, rows = [1, 3, 4], [0, 3, 4]
    system = gain_polynomials(game, x, unknowns)
    ctx, gains = system.ctx, list(system.gains)
    system = [gains[r] for r in rows]
    assert find_combination(gains[2], system, degree=2) is None
    box = isolate(system, ctx, [0.4851, 0.2763, 0.6078], digits=30)
    certificate, _ = certify_box(game, x, unknowns, rows, box)
    assert certificate.identities == (1, 2)
    for combination in certificate.combinations:
        assert combination.factor == 1 - ctx.gens()[0] and combination.holds(system)


def test_a_factor_is_tried_only_when_no_combination_exists():
    e1, e2 = (1 - X) * Y, Z
    assert find_combination(Y, [e1, e2]) is None
    found = find_combination(Y, [e1, e2], factors=[X, 1 - X])
    assert found.factor == 1 - X and found.multipliers == (ONE, 0 * ONE) and found.holds([e1, e2])
    assert find_combination(e1 + Z, [e1, e2], factors=[X]).factor is None


def test_without_the_identity_the_ball_alone_cannot_decide(game):
    """The left-out gain's ball on the box contains 0 (it is 0 at the zero); only the identity decides it."""
    from exactpoker.boxes import BallPolynomial

    x = [Fraction(1, 4), Fraction(0), Fraction(1, 2), Fraction(0), Fraction(0)]
    system = gain_polynomials(game, x, [1, 3, 4])
    ctx, gains = system.ctx, list(system.gains)
    box = isolate([gains[r] for r in (2, 3, 4)], ctx, [0.4851, 0.2763, 0.6078], digits=30)
    assert isinstance(box, IsolatingBox)
    from flint import ctx as flint_ctx

    with flint_ctx.workprec(box.bits()):
        assert BallPolynomial(gains[0], gradient=False)(box.balls()).contains(0)


def test_free_columns_split_off_the_unknowns_no_equation_involves():
    e = [X * Y - 1, CTX.from_dict({}), Y - 2]
    assert free_columns(e, [0, 1], [10, 11, 12]) == ([0, 1], [10, 11, 12], [])  # not square without z: kept
    assert free_columns(e, [0, 2], [10, 11, 12]) == ([0, 2], [10, 11], [12])  # two equations in x, y; z is free
    assert free_columns([Y - 1, CTX.from_dict({}), X], [0, 1], [10, 11, 12]) == ([0], [11], [10, 12])
    zero = CTX.from_dict({})
    assert free_columns([zero, zero, zero], [0, 1, 2], [10, 11, 12]) == ([], [], [10, 11, 12])


def test_the_game_solved_by_the_engine_agrees_with_the_closed_form(game, monkeypatch):
    """The N-player finish: algebraic (degree 2), and, with minimal polynomials turned off, an isolating box
    whose identities state each left-out gain's proof; both give the closed form's values."""
    from exactpoker.solve.nplayer import finish as support_solve
    from exactpoker.solve.nplayer.pipeline import solve_n_player

    algebraic = solve_n_player(game)
    assert algebraic.stage == "algebraic, degree 2"
    (_, y), = algebraic.profile.strategies[1]
    assert abs(float(y) - float(Y_STAR)) < 1e-12
    monkeypatch.setattr(support_solve, "ALGEBRAIC_DEGREE", 1)
    boxed = solve_n_player(game)
    assert boxed.stage == "isolating box"
    described = boxed.box_details()
    assert described["identities"] and all(i["combination"] for i in described["identities"])
    (_, y_ball), = boxed.profile.strategies[1]
    assert abs(float(y_ball.mid) - float(Y_STAR)) < 1e-25
