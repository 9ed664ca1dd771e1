"""Continuous von Neumann poker (seed 000, section 1, "The von Neumann advice")."""

from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings

from exactpoker.continuous import von_neumann as continuous
from tests.strategies import bets

b = continuous.b


def test_closed_forms_of_seed_000_section_1():
    s = continuous.solve_symbolic()
    assert s.certified
    assert sympy.simplify(s.A - b / ((b + 4) * (b + 1))) == 0
    assert sympy.simplify(s.B - (b**2 + 4 * b + 2) / ((b + 4) * (b + 1))) == 0
    assert sympy.simplify(s.C - b * (b + 3) / ((b + 4) * (b + 1))) == 0
    assert sympy.simplify(s.value - b / ((b + 4) * (b + 1))) == 0


def test_bet_two_of_seed_000_section_1():
    s = continuous.solve(2)
    assert (s.A, s.B, s.C, s.value) == (sympy.Rational(1, 9), sympy.Rational(7, 9), sympy.Rational(5, 9), sympy.Rational(1, 9))
    assert "0 < x < 1/9 or 7/9 < x < 1" in s.advice()


def test_best_bet_is_two_with_value_one_ninth():
    assert continuous.best_bet() == (2, sympy.Rational(1, 9))


def test_certificate_rejects_wrong_cuts():
    """The engine's certificate at every hand holds at (A, B, C) and fails with A halved."""
    from exactpoker.games import von_neumann
    from exactpoker.solve.continuous.certificate import certify
    from exactpoker.solve.continuous.model import betting_model

    model = betting_model(von_neumann.game(3, 2)).exact()
    cuts = {"A": Fraction(1, 9), "C": Fraction(5, 9), "B": Fraction(7, 9)}
    bet, check, fold, call = (0, 1), (1, 0), (1, 0), (0, 1)

    def profile(a):
        from exactpoker.solve.continuous.profile import PiecewiseProfile
        return PiecewiseProfile((0, a, cuts["C"], cuts["B"], 1), ((bet, check, check, bet), (fold, fold, call, call)))

    assert certify(model, profile(cuts["A"])).holds
    assert not certify(model, profile(cuts["A"] / 2)).holds


@settings(deadline=None, max_examples=4)
@given(bet=bets)
def test_random_rational_bets(bet):
    s = continuous.solve(bet)
    assert s.certified
    assert 0 < s.A < s.C < s.B < 1
    assert 0 < s.value < 1
    assert s.value == sympy.Rational(bet.numerator, bet.denominator) / ((bet + 4) * (bet + 1))


@pytest.mark.parametrize("bad, match", [(0, "b must be > 0"), (-2, "b must be > 0"), (0.5, "exact"), ("two", "rational")])
def test_bad_bet(bad, match):
    with pytest.raises(ValueError, match=match):
        continuous.solve(bad)


def test_decimal_string_is_read_exactly():
    assert continuous.solve("0.5").b == sympy.Rational(1, 2)
    assert continuous.solve(Fraction(1, 2)).value == sympy.Rational(1, 2) / (sympy.Rational(9, 2) * sympy.Rational(3, 2))
