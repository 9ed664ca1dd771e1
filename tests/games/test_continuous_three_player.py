"""Three-player poker with a continuous deck (seed 000, section 4, "Extension of von Neumann's continuous model")."""

import json
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.cli import main
from exactpoker.continuous import three_player as ct
from exactpoker.errors import InvalidParameterError

A, B, C, b = ct.A, ct.B, ct.C, ct.b


def test_equations_a_b_c_come_out_of_the_integrals():
    """Eq. A, B, C as printed (left minus right), derived by sympy integration from the rules."""
    eqs = ct.equations()
    assert sympy.expand(eqs["A"] - ((3 * A**2 - 1) - (3 * C**2 + b * C**2 - b - 1))) == 0
    assert sympy.expand(eqs["B"] - ((3 * B**2 - 1) - (-2 * b * C * B + 3 * b * B**2 + 3 * B**2 - b - 1))) == 0
    assert sympy.expand(eqs["C"] - ((-A + B - 1) - (2 * b * C * A + 3 * C * A - b * A - A - b + b * B + B - 1))) == 0


def test_optimal_2_published_decimals():
    """Optimal(2): A = 0.137058194328370, B = 0.829422249795391, C = 0.641304115985175, value 0.122557074714865.

    The printed numbers are Maple floats: B is the exact cut rounded, A, C and the
    value are off by 1 to 4 units in the 15th decimal.  The exact digits are asserted.
    """
    s = ct.solve(2, 50)
    d = s.decimals()
    assert d["A"].startswith("0.13705819432836892413431990250325979996131488145444"[:40])
    assert d["B"].startswith("0.82942224979539070745470591767368104731687762618979"[:40])
    assert d["C"].startswith("0.64130411598517887862235668519380830617012491515668"[:40])
    assert d["value"].startswith("0.12255707471486868673777879827615020925501028158578"[:40])
    for name, printed in {"A": "0.137058194328370", "B": "0.829422249795391", "C": "0.641304115985175",
                          "value": "0.122557074714865"}.items():
        assert abs(float(getattr(s, name)) - float(printed)) < 5e-15
    assert round(float(s.B), 15) == 0.829422249795391
    assert 0 < s.A < s.C < s.B < 1  # exact comparisons of algebraic numbers
    assert sympy.degree(s.minimal_polynomial_C, C) == 8


def test_digits_are_certified_balls():
    s = ct.solve(2, 80)
    ball = s.C.enclosure(80)
    assert ball.rad() < 10**-80
    assert s.decimals()["C"][:50] == ct.solve(2, 50).decimals()["C"][:50]


@settings(max_examples=4, deadline=None)
@given(bet=st.fractions(min_value=Fraction(1, 4), max_value=Fraction(8), max_denominator=6))
def test_cut_points_satisfy_equations_and_order(bet):
    s = ct.solve(bet, 20)
    assert 0 < s.A < s.C < s.B < 1
    for eq in ct.equations().values():
        residual = sympy.N(eq.subs({A: s.A.to_sympy() if not isinstance(s.A, Fraction) else s.A,
                                    B: s.B.to_sympy() if not isinstance(s.B, Fraction) else s.B,
                                    C: s.C.to_sympy() if not isinstance(s.C, Fraction) else s.C, b: bet}), 30)
        assert abs(residual) < 1e-25


def test_best_bet():
    """b* ~ 2.07 (exactly: the root near 2.0723786 of a degree-37 polynomial), maximal value 0.12259069926...

    The paper's 0.122590664136184 is Player I's value at b = 2.07 (Maple float), not at b*.
    """
    best = ct.best_bet(50)
    d = best.decimals()
    assert d["b*"].startswith("2.07237857639528221793580160876905266")
    assert d["value"].startswith("0.12259069926065632314616781724149932")
    assert sympy.degree(best.minimal_polynomial_b, b) == 37
    at_207 = ct.solve(Fraction(207, 100), 30)
    assert abs(float(at_207.value) - 0.122590664136184) < 5e-15
    assert float(best.value) > float(at_207.value)


@pytest.mark.parametrize("bet", [0, -1, 1.5, "x"])
def test_bad_bet(bet):
    with pytest.raises(InvalidParameterError):
        ct.solve(bet)


def test_bad_digits():
    with pytest.raises(InvalidParameterError):
        ct.solve(2, 0)


def test_cli_continuous_json(capsys):
    assert main(["three", "continuous", "--b", "2", "--digits", "20", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["cuts"]["B"].startswith("0.829422249795390707")
