"""von Neumann poker with a finite deck: every published value of seed 000, sections 1 and 2."""

from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.games.papers import von_neumann
from tests.strategies import bets

F = Fraction


def _sets(result):
    def cards(probs):
        return [k + 1 for k, p in enumerate(probs) if p == 1]

    return sorted([cards(eq.strategies["I"]), cards(eq.strategies["II"])] for eq in result.equilibria)


# -- vnNE: all pure Nash equilibria (section 1, "Vanilla approach") ----------------------------


def test_vnNE_2_2():
    r = von_neumann.pure_equilibria(2, 2)
    assert _sets(r) == [[[], [2]], [[2], [2]]]
    assert {eq.values[0] for eq in r.equilibria} == {0}


def test_vnNE_3_2():
    assert _sets(von_neumann.pure_equilibria(3, 2)) == [[[], [3]], [[3], [3]]]


@pytest.mark.parametrize("n", [4, 5, 6])
def test_vnNE_empty(n):
    r = von_neumann.pure_equilibria(n, 2)
    assert r.equilibria == ()
    assert "no pure Nash equilibrium" in r.notes


def test_vnNE_7_2():
    r = von_neumann.pure_equilibria(7, 2)
    assert _sets(r) == [[[1, 6, 7], [3, 6, 7]], [[1, 6, 7], [4, 6, 7]], [[1, 6, 7], [5, 6, 7]]]
    assert {eq.values[0] for eq in r.equilibria} == {sympy.Rational(2, 21)}


def test_vnNE_8_2():
    r = von_neumann.pure_equilibria(8, 2)
    assert _sets(r) == [[[1, 7, 8], [4, 7, 8]], [[1, 7, 8], [5, 7, 8]], [[1, 7, 8], [6, 7, 8]]]
    assert {eq.values[0] for eq in r.equilibria} == {sympy.Rational(3, 28)}


def test_vnNE_9_2():
    sets = _sets(von_neumann.pure_equilibria(9, 2))
    assert len(sets) == 7
    assert {tuple(s1) for s1, _ in sets} == {(1, 8, 9)}
    assert all(len(s2) == 4 for _, s2 in sets)
    assert [6, 7, 8, 9] in [s2 for _, s2 in sets]


def test_every_pure_equilibrium_is_certified():
    for eq in von_neumann.pure_equilibria(8, 3).equilibria:
        assert eq.certificate.holds and eq.certificate.scope == "all strategies"


# -- restricted (interval) strategies (section 1) ------------------------------------------


@pytest.mark.parametrize("n", [9, 18, 27])
def test_restricted_multiple_of_nine(n):
    r = von_neumann.restricted_equilibria(n, 2)
    assert (n // 9 + 1, 7 * n // 9, 5 * n // 9 + 1) in r.details["pure cuts"]
    assert r.value == sympy.Rational(1, 9)


@pytest.mark.parametrize(
    "n, value", [(22, F(17, 154)), (23, F(28, 253)), (24, F(61, 552)), (25, F(11, 100)), (26, F(36, 325))]
)
def test_restricted_values(n, value):
    r = von_neumann.restricted_equilibria(n, 2)
    assert all(eq.values[0] == value for eq in r.equilibria)
    assert all(eq.certificate.holds for eq in r.equilibria)
    assert r.equilibria[-1].certificate.scope.startswith("interval strategies")


# -- slow and fast LPs (section 2) ------------------------------------------------------------


def test_MNE_4_2_value_and_paper_mixture():
    r = von_neumann.equilibrium(4, 2, method="strategic")
    assert r.value == sympy.Rational(1, 12)
    # the paper's mixture: I plays {4} and {1,4} with 1/2 each; II plays {4} and {2,4} with 1/2 each
    certificate = von_neumann.check_profile(4, 2, [F(1, 2), 0, 0, 1], [0, F(1, 2), 0, 1])
    assert certificate.holds and certificate.payoffs[0] == F(1, 12)


def test_vnMNE_3_1():
    eq = von_neumann.equilibrium(3, 1).equilibria[0]
    assert eq.values[0] == sympy.Rational(1, 18)
    assert eq.strategies == {"I": [sympy.Rational(1, 3), 0, 1], "II": [0, sympy.Rational(1, 3), 1]}


def test_vnMNE_9_2_is_pure():
    eq = von_neumann.equilibrium(9, 2).equilibria[0]
    assert eq.values[0] == sympy.Rational(1, 9)
    assert eq.profile.is_pure
    assert von_neumann.check_profile(9, 2, [1, 0, 0, 0, 0, 0, 0, 1, 1], [0, 0, 0, 0, 0, 1, 1, 1, 1]).holds


def test_vnMNE_18_2():
    assert von_neumann.equilibrium(18, 2).value == sympy.Rational(1, 9)
    bet = [1, 1] + [0] * 12 + [1] * 4
    call = [0] * 10 + [1] * 8
    assert von_neumann.check_profile(18, 2, bet, call).holds


def test_vnMNE_28_4():
    eq = von_neumann.equilibrium(28, 4).equilibria[0]
    assert eq.values[0] == sympy.Rational(113, 1134)
    bet = [1, 1, F(2, 3)] + [0] * 21 + [1] * 4
    call = [0] * 19 + [F(1, 3)] + [1] * 8
    certificate = von_neumann.check_profile(28, 4, bet, call)
    assert certificate.holds and certificate.payoffs[0] == F(113, 1134)


def test_advice_spells_out_the_strategy():
    text = von_neumann.advice(von_neumann.equilibrium(3, 1))
    assert "1/18" in text
    assert "bet with probability 1/3 and check with probability 2/3" in text


# -- cross-checks between independent methods ------------------------------------------------


@settings(deadline=None, max_examples=15)
@given(n=st.integers(2, 6), b=bets)
def test_fast_and_slow_lp_agree(n, b):
    fast = von_neumann.equilibrium(n, b)
    slow = von_neumann.equilibrium(n, b, method="strategic")
    exact = von_neumann.equilibrium(n, b, method="simplex")
    assert fast.value == slow.value == exact.value
    for r in (fast, slow, exact):
        assert r.equilibria[0].certificate.holds


@settings(deadline=None, max_examples=25)
@given(n=st.integers(2, 40), b=bets)
def test_fast_lp_is_certified_and_bounded(n, b):
    eq = von_neumann.equilibrium(n, b).equilibria[0]
    assert eq.certificate.holds
    assert -1 <= eq.values[0] <= b + 1
    assert eq.values[0] + eq.values[1] == 0
    assert all(isinstance(v, sympy.Rational) for v in eq.strategies["I"] + eq.strategies["II"])


@settings(deadline=None, max_examples=10)
@given(n=st.integers(2, 7), b=bets)
def test_pure_equilibria_value_equals_game_value(n, b):
    """A pure equilibrium of a zero-sum game is optimal: its value is the LP value."""
    pure = von_neumann.pure_equilibria(n, b)
    if pure.equilibria:
        value = von_neumann.equilibrium(n, b).value
        assert all(eq.values[0] == value for eq in pure.equilibria)


def test_value_tends_to_the_continuous_value():
    value = von_neumann.equilibrium(300, 2).value
    assert abs(value - sympy.Rational(1, 9)) < sympy.Rational(1, 300)


# -- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: von_neumann.equilibrium(1, 2), "n must be an integer >= 2"),
        (lambda: von_neumann.equilibrium(5, 0), "b must be > 0"),
        (lambda: von_neumann.equilibrium(5, -1), "b must be > 0"),
        (lambda: von_neumann.equilibrium(5, 0.5), "b must be exact"),
        (lambda: von_neumann.equilibrium(5, "x"), "b must be a rational"),
        (lambda: von_neumann.equilibrium(F(5, 2), 2), "n must be an integer"),
        (lambda: von_neumann.equilibrium(10, 2, method="strategic"), "use --method fast or structured"),
        (lambda: von_neumann.pure_equilibria(40, 2), "vn mixed"),
        (lambda: von_neumann.equilibrium(5, 2, method="magic"), "method must be"),
    ],
)
def test_bad_input_names_the_parameter(call, match):
    with pytest.raises(ValueError, match=match):
        call()
