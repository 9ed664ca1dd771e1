"""The most simple poker game of the Euler notes (seed 004): game, matrix games, piecewise value, CLI, claims."""

import json
import math
from fractions import Fraction

import numpy as np
import pytest
import scipy.optimize
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.certify import verify_matrix_game
from exactpoker.cli import main
from exactpoker.claims import catalog, check
from exactpoker.errors import InvalidParameterError
from exactpoker.games.papers import simple_poker as sp
from exactpoker.algebraic import RealAlgebraic
from exactpoker.solve.parametric.matrix_game import SYMBOL, parametric_value
from exactpoker.solve.lp.simplex import solve_matrix_game

r = SYMBOL
stakes = st.fractions(min_value=Fraction(1, 8), max_value=Fraction(12), max_denominator=8)


def notes_play(c1, c2, t1, t2, A, B):
    """The notes' play(): gain as seen from the first player (written out independently of the game tree)."""
    if t1[c1 - 1] == 0:
        return -A
    if t2[c2 - 1] == 0:
        return A
    return (A + B) if c1 > c2 else (-(A + B) if c1 < c2 else 0)


def notes_matrix(m, A, B, tactics):
    """The notes' makeR, but rows = player I (the transpose of the notes' R)."""
    return [[sum((Fraction(notes_play(c1, c2, t1, t2, A, B)) for c1 in range(1, m + 1) for c2 in range(1, m + 1)),
                 Fraction(0)) / m**2 for t2 in tactics] for t1 in tactics]


# -- published values (seed 004) ---------------------------------------------------------


def test_tactics_in_the_notes_order():
    """makeT(3): binary order, card 1 the most significant digit."""
    assert sp.tactics(3).tolist() == [[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 0, 0], [1, 0, 1], [1, 1, 0],
                                      [1, 1, 1]]
    assert sp.threshold_tactics(3).tolist() == [[1, 1, 1], [0, 1, 1], [0, 0, 1]]


def test_result_matrix_m2():
    """Seed 004, first section: 'fraction R' (the notes' R is the transpose: columns are player I)."""
    R = [list(col) for col in zip(*sp.matrix(2, 1, 1))]
    assert [[str(v) for v in row] for row in R] == [
        ["-1", "0", "0", "1"], ["-1", "-1/4", "-3/4", "0"], ["-1", "1/4", "-1/4", "1"], ["-1", "0", "-1", "0"]]
    assert R[2][2] == Fraction(-1, 4)  # both play [1,0]


def test_m2_fair_with_equal_stakes():
    """Seed 004: A = B = 1, the game is fair; [1,1] for both is optimal (and unique for player I)."""
    r1 = sp.solve(2, 1, 1)
    assert r1.value == 0 and r1.equilibria[0].certified
    assert sp.weight_range(2, 1, 1, "I", "[1,1]") == (1, 1)
    assert -sp.guaranteed(2, 1, 1, "II", {"[1,1]": 1}).checks[0].best_response == 0


def test_m2_bet_2():
    """Seed 004, 'Different Stakes': A = 1, B = 2 -> -1/4 with tactic [0,1] for both."""
    result = sp.solve(2, 1, 2)
    assert result.value == sympy.Rational(-1, 4) and result.equilibria[0].values[1] == sympy.Rational(1, 4)
    for player in ("I", "II"):
        certificate = sp.guaranteed(2, 1, 2, player, {"[0,1]": 1})
        other = 1 if player == "I" else 0
        assert -certificate.checks[other].best_response == (Fraction(-1, 4) if player == "I" else Fraction(1, 4))


def test_m2_bet_1_9_and_3():
    """Seed 004: B = 1.9 -> -0.225 = -9/40 holding always; B = 3 -> -1/4 with [0,1]; the B = 1.9 matrix."""
    assert sp.solve(2, 1, "1.9").value == sympy.Rational(-9, 40)
    assert sp.weight_range(2, 1, "19/10", "I", "[1,1]") == (1, 1)
    assert sp.solve(2, 1, 3).value == sympy.Rational(-1, 4)
    assert sp.weight_range(2, 1, 3, "I", "[0,1]") == (1, 1)
    R = [list(col) for col in zip(*sp.matrix(2, 1, "19/10"))]
    assert R[1] == [-1, Fraction(-1, 4), Fraction(-39, 40), Fraction(-9, 40)]
    assert R[2] == [-1, Fraction(19, 40), Fraction(-1, 4), Fraction(49, 40)]


def test_m3():
    """Seed 004, 'Three Card Values': A = B = 1 -> -1/9 ([0,1,1]); A = 1, B = 2 -> -1/6, 3/4 [0,1,1] + 1/4 [1,1,1]."""
    assert sp.solve(3, 1, 1).value == sympy.Rational(-1, 9)
    assert -sp.guaranteed(3, 1, 1, "I", {"[0,1,1]": 1}).checks[1].best_response == Fraction(-1, 9)
    result = sp.solve(3, 1, 2)
    assert result.value == sympy.Rational(-1, 6)
    assert result.details["mixtures"]["I"] == {"[0,1,1]": sympy.Rational(3, 4), "[1,1,1]": sympy.Rational(1, 4)}
    assert sp.weight_range(3, 1, 2, "I", "[0,1,1]") == (Fraction(3, 4), Fraction(3, 4))  # the only optimum


def test_threshold_published():
    """Seed 004, 'More Card Values': threshold tactics."""
    result = sp.solve(3, 1, 2, threshold=True)
    assert result.value == sympy.Rational(-1, 6)
    assert result.details["mixtures"]["I"] == {"t=1": sympy.Rational(1, 4), "t=2": sympy.Rational(3, 4)}
    assert sp.solve(10, 1, 1, threshold=True).value == sympy.Rational(-8, 75)  # -0.10666...
    assert sp.solve(10, 1, 10, threshold=True).value == sympy.Rational(-67, 100)
    assert sp.solve(10, 1, 100, threshold=True).value == sympy.Rational(-81, 100) == -sympy.Rational(9, 10) ** 2
    # the notes' printed mixtures are optimal (other optimal mixtures exist)
    for bet, mixture in ((1, {"t=1": "5/9", "t=4": "4/9"}), (10, {"t=8": "3/4", "t=9": "1/4"}), (100, {"t=10": 1})):
        value = Fraction(str(sp.solve(10, 1, bet, threshold=True).value))
        assert -sp.guaranteed(10, 1, bet, "I", mixture).checks[1].best_response == value
    assert sp.weight_range(10, 1, 1, "I", "t=1", threshold=True) == (0, Fraction(5, 9))
    assert sp.matrix(10, 1, 1, threshold=True)[9][9] == Fraction(-81, 100)


def test_piecewise_m2_m3():
    """Seed 004's plots, exactly: m = 2 and m = 3 (the notes call the m = 3 curve on [1, 4] quadratic: it is not)."""
    pieces = [(str(s), None if e is None else str(e), v) for s, e, v in sp.piecewise_value(2).value_pieces()]
    assert pieces == [("0", "1", 0), ("1", "2", (1 - r) / 4), ("2", None, sympy.Rational(-1, 4))]
    three = sp.piecewise_value(3).value_pieces()
    assert [str(s) for s, _, _ in three] == ["0", "1/2", "1", "4"]
    assert sympy.cancel(three[2][2] - (-2 * r**2 + 3 * r - 4) / (9 * (r + 2))) == 0
    assert not three[2][2].is_polynomial(r)


def test_piecewise_m10_threshold():
    """Beyond the notes: m = 10, threshold tactics; fair up to B/A = 1/9, -81/100 from B/A = 18 = 2(m - 1) on."""
    pv = sp.piecewise_value(10, threshold=True)
    assert [str(b) for b in pv.breakpoints()] == ["1/9", "2/9", "3/7", "1/2", "6/7", "4/3", "2", "3", "14/3", "8", "18"]
    assert pv.value_at(1) == sympy.Rational(-8, 75) and pv.value_at(10) == sympy.Rational(-67, 100)
    assert pv.value_pieces()[-1][2] == sympy.Rational(-81, 100)


def test_piecewise_first_and_last_breakpoints():
    """Fair up to B/A = 1/(m - 1); both hold only with the top card from B/A = 2(m - 1) on (value -(m-1)^2/m^2)."""
    for m in (2, 3, 5):
        pv = sp.piecewise_value(m, threshold=True)
        first, last = pv.breakpoints()[0], pv.breakpoints()[-1]
        assert first.to_sympy() == sympy.Rational(1, m - 1) and pv.value_pieces()[0][2] == 0
        assert last.to_sympy() == 2 * (m - 1) and pv.value_pieces()[-1][2] == -sympy.Rational((m - 1) ** 2, m**2)


def test_claims_of_seed_004():
    """Every claim of the notes recomputed.

    Two are contradicted: m = 2 'losing A/4' for 1 < B/A < 2 (it is (B - A)/4), and the m = 3 'quadratic'.
    """
    cache: dict = {}
    verdicts = {claim.id: check(claim, cache).verdict for claim in catalog("004")}
    assert len(verdicts) > 50
    assert {k for k, v in verdicts.items() if v == "disagrees"} == {"004-plot-m2-disadvantage", "004-m3-quadratic"}
    assert all(v in ("exact", "rounding") for k, v in verdicts.items()
               if k not in ("004-plot-m2-disadvantage", "004-m3-quadratic"))


# -- properties ---------------------------------------------------------------------------


@settings(deadline=None, max_examples=15)
@given(m=st.integers(1, 3), ante=stakes, bet=stakes)
def test_full_game_against_brute_force(m, ante, bet):
    """m <= 3: the matrix equals the notes' play() summed by hand; the value is its minimax value."""
    tactics = sp.tactics(m).tolist()
    by_hand = notes_matrix(m, ante, bet, tactics)
    assert sp.matrix(m, ante, bet) == by_hand
    result = sp.solve(m, ante, bet)
    mixes = {name: [Fraction(str(result.details["mixtures"][name].get(sp.tactic_name(t), 0))) for t in tactics]
             for name in ("I", "II")}
    scale = math.lcm(*(v.denominator for row in by_hand for v in row))
    certificate = verify_matrix_game([[int(v * scale) for v in row] for row in by_hand], mixes["I"], mixes["II"], scale)
    assert certificate.holds and certificate.payoffs[0] == Fraction(str(result.value))
    # and an independent float LP agrees
    k = len(tactics)
    M = np.array([[float(v) for v in row] for row in by_hand])
    lp = scipy.optimize.linprog(np.r_[np.zeros(k), -1], A_ub=np.c_[-M.T, np.ones(k)], b_ub=np.zeros(k),
                                A_eq=[np.r_[np.ones(k), 0]], b_eq=[1], bounds=[(0, None)] * k + [(None, None)])
    assert abs(-lp.fun - float(result.value)) < 1e-9


@settings(deadline=None, max_examples=15)
@given(m=st.integers(1, 5), ante=stakes, bet=stakes)
def test_threshold_game_solves_the_full_game(m, ante, bet):
    """Best replies can always be thresholds: the threshold game's equilibrium is certified in the full game."""
    thr = sp.solve(m, ante, bet, threshold=True)
    eq = thr.equilibria[0]
    assert eq.certified and eq.certificate.scope == "all strategies"
    assert thr.details["matrix certificate"]["holds"]
    if m <= 4:
        assert sp.solve(m, ante, bet).value == thr.value


@settings(deadline=None, max_examples=15)
@given(m=st.integers(1, 6), ante=stakes, bet=stakes, more=stakes, scale=stakes)
def test_value_monotone_bounded_and_homogeneous(m, ante, bet, more, scale):
    """The first player is at a disadvantage that grows with B/A, limited by -(m-1)^2/m^2 A (seed 004)."""
    value = sp.solve(m, ante, bet, threshold=True).value
    assert value <= 0
    assert sp.solve(m, ante, bet + more, threshold=True).value <= value
    assert value >= -sympy.Rational((m - 1) ** 2, m**2) * sympy.Rational(ante.numerator, ante.denominator)
    assert sp.solve(m, ante * scale, bet * scale, threshold=True).value == value * sympy.Rational(
        scale.numerator, scale.denominator)
    if bet >= 2 * (m - 1) * ante:
        assert value == -sympy.Rational((m - 1) ** 2, m**2) * sympy.Rational(ante.numerator, ante.denominator)


@settings(deadline=None, max_examples=6)
@given(m=st.integers(2, 4), ratio=st.fractions(min_value=0, max_value=10, max_denominator=6))
def test_piecewise_value_matches_point_solves(m, ratio):
    """The piecewise formula at a rational r equals the exact solve at B/A = r (full game, and at breakpoints)."""
    pv = sp.piecewise_value(m)
    for point in [ratio] + [b.lower for b in pv.breakpoints() if b.is_rational]:
        if point > 0:
            assert pv.value_at(point) == sp.solve(m, 1, point).value
    assert [v for *_, v in pv.value_pieces()] == [v for *_, v in sp.piecewise_value(m, threshold=True).value_pieces()]


small = st.integers(-3, 3)


@settings(deadline=None, max_examples=10)
@given(st.lists(small, min_size=9, max_size=9), st.lists(small, min_size=9, max_size=9),
       st.fractions(min_value=-3, max_value=3, max_denominator=7))
def test_parametric_value_random_3x3(base, slope, point):
    """A generic parametric 3 x 3 game: the formula at a rational point equals the exact LP value there."""
    M0 = [base[0:3], base[3:6], base[6:9]]
    M1 = [slope[0:3], slope[3:6], slope[6:9]]
    pv = parametric_value(M0, M1, lower=-3, upper=3)
    at = [[a + point * b for a, b in zip(ra, rb)] for ra, rb in zip(M0, M1)]
    assert pv.value_at(point) == sympy.Rational(solve_matrix_game(at).value)


def test_parametric_value_algebraic_breakpoint():
    """A breakpoint that is irrational: the root (-5 - sqrt(33))/4 of 2 r^2 + 5 r - 1, left and right formulas meet."""
    pv = parametric_value([[1, 3, 3], [-3, 2, 0], [-1, 2, 3]], [[-1, 2, -2], [0, -2, -2], [-2, 2, -2]],
                          lower=-3, upper=3)
    first = pv.breakpoints()[0]
    assert not first.is_rational
    assert sympy.simplify(first.to_sympy() - (-5 - sympy.sqrt(33)) / 4) == 0
    (_, _, left), (_, _, right) = pv.value_pieces()[:2]
    assert sympy.simplify((left - right).subs(r, (-5 - sympy.sqrt(33)) / 4)) == 0
    assert abs(float(first) + (5 + 33**0.5) / 4) < 1e-12
    assert RealAlgebraic.rational(Fraction(-3)) < first < RealAlgebraic.rational(Fraction(-2))


# -- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, kwargs, name",
    [
        ((0, 1, 1), {}, "m"),
        (("x", 1, 1), {}, "m"),
        ((Fraction(5, 2), 1, 1), {}, "m"),
        ((2, 0, 1), {}, "ante"),
        ((2, -1, 1), {}, "ante"),
        ((2, 1, 0), {}, "bet"),
        ((2, 1, "two"), {}, "bet"),
        ((2, 1.5, 1), {}, "ante"),
        ((2, 1, None), {}, "bet"),
        ((sp.MAX_FULL_CARDS + 1, 1, 1), {}, "m"),
        ((sp.MAX_THRESHOLD_CARDS + 1, 1, 1), {"threshold": True}, "m"),
    ],
)
def test_bad_input_names_the_parameter(args, kwargs, name):
    with pytest.raises(InvalidParameterError, match=rf"^{name} must"):
        sp.solve(*args, **kwargs)


def test_bad_mixtures():
    with pytest.raises(InvalidParameterError, match="sum to 1"):
        sp.guaranteed(2, 1, 1, "I", {"[1,1]": "1/2"})
    with pytest.raises(InvalidParameterError, match="player"):
        sp.guaranteed(2, 1, 1, "III", {"[1,1]": 1})
    with pytest.raises(InvalidParameterError, match="tactic"):
        sp.weight_range(2, 1, 1, "I", "[1,1,1]")


# -- the command line -----------------------------------------------------------------------


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_json_shape(capsys):
    status, out, _ = run(capsys, "simple", "--m", "3", "--ante", "1", "--bet", "2", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["game"] == "simple" and data["params"] == {"m": "3", "ante": "1", "bet": "2"}
    [eq] = data["equilibria"]
    assert eq["values"] == ["-1/6", "1/6"] and eq["certified"] is True
    assert eq["strategies"]["I"] == ["1/4", "1", "1"]
    assert data["details"]["mixtures"]["I"] == {"[0,1,1]": "3/4", "[1,1,1]": "1/4"}


def test_cli_text_threshold_and_piecewise(capsys):
    status, out, _ = run(capsys, "simple", "--m", "10", "--ante", "1", "--bet", "10", "--threshold")
    assert status == 0 and "-67/100" in out and "optimal mixture of I" in out
    status, out, _ = run(capsys, "simple", "--m", "2", "--ante", "1", "--bet", "1", "--piecewise", "--json")
    data = json.loads(out)
    assert status == 0 and data["piecewise"]["breakpoints"] == ["1", "2"]
    assert data["piecewise"]["pieces"][1] == {"from": "1", "to": "2", "value": "1/4 - r/4"}


@pytest.mark.parametrize(
    "argv, word",
    [
        (["--m", "0", "--ante", "1", "--bet", "1"], "m must"),
        (["--m", "3", "--ante", "0", "--bet", "1"], "ante must"),
        (["--m", "3", "--ante", "1", "--bet", "-2"], "bet must"),
        (["--m", "3", "--ante", "1", "--bet", "x"], "bet must"),
        (["--m", "20", "--ante", "1", "--bet", "1"], "threshold"),
    ],
)
def test_cli_bad_input_exit_2(capsys, argv, word):
    status, out, err = run(capsys, "simple", *argv)
    assert status == 2 and out == "" and word in err and "Traceback" not in err
