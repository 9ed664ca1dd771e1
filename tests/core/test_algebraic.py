"""Exact real algebraic numbers (exactpoker.algebraic) and the certificate on irrational profiles."""

from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.algebraic import AlgebraicNumber, RealNumberField, common_field
from exactpoker.certify import verify
from exactpoker.core import BehaviourProfile
from exactpoker.games import von_neumann
from exactpoker.solve.enumeration.pure import strategic_form

SQRT2_FIELD, SQRT2 = RealNumberField.from_sympy(sympy.sqrt(2))
rationals = st.fractions(min_value=-5, max_value=5, max_denominator=50)


def in_sqrt2(a: Fraction, b: Fraction) -> AlgebraicNumber:
    return a + b * SQRT2


def sympy_value(number: AlgebraicNumber) -> sympy.Expr:
    return number.to_sympy()


@settings(deadline=None, max_examples=60)
@given(a=rationals, b=rationals, c=rationals, d=rationals)
def test_field_arithmetic_matches_sympy(a, b, c, d):
    x, y = in_sqrt2(a, b), in_sqrt2(c, d)
    sx, sy = sympy_value(x), sympy_value(y)
    assert sympy.simplify(sympy_value(x + y) - (sx + sy)) == 0
    assert sympy.simplify(sympy_value(x * y) - sx * sy) == 0
    assert sympy.simplify(sympy_value(x - y) - (sx - sy)) == 0
    if y:
        assert sympy.simplify(sympy_value(x / y) - sx / sy) == 0
        assert (x / y) * y == x


@settings(deadline=None, max_examples=60)
@given(a=rationals, b=rationals, c=rationals, d=rationals)
def test_order_is_exact(a, b, c, d):
    """Comparisons agree with 60-digit arithmetic, and equal numbers compare equal."""
    x, y = in_sqrt2(a, b), in_sqrt2(c, d)
    difference = sympy.N(sympy_value(x) - sympy_value(y), 60)
    assert (x < y) == (difference < 0) or difference == 0
    assert (x == y) == (a == c and b == d)
    assert x - x == 0 and not (x < x)


def test_quartic_root_to_many_digits():
    """The positive root of A^4+18A^3+3A^2-10A-3 (the polynomial Nash-Shapley print for A1)."""
    field = RealNumberField([-3, -10, 3, 18, 1], 0, 1)
    theta = field.generator
    assert theta**4 + 18 * theta**3 + 3 * theta**2 - 10 * theta - 3 == 0
    digits = theta.digits(40)
    assert digits.startswith("0.78212332710146")
    assert sympy.N(field.root_sympy(), 45).__str__().startswith(digits[:38])


def test_field_rejects_bad_input():
    with pytest.raises(ValueError, match="irreducible"):
        RealNumberField([-1, 0, 1], 0, 2)  # x^2 - 1 = (x - 1)(x + 1)
    with pytest.raises(ValueError, match="exactly one root"):
        RealNumberField([-2, 0, 1], -2, 2)
    with pytest.raises(ValueError, match="different fields"):
        _ = SQRT2 + RealNumberField.from_sympy(sympy.sqrt(3))[1]


def test_common_field_holds_each_number():
    field, (r2, r3, third) = common_field([sympy.sqrt(2), sympy.sqrt(3), sympy.Rational(1, 3)])
    assert field.degree == 4
    assert r2 * r2 == 2 and r3 * r3 == 3 and third == Fraction(1, 3)
    assert r2 < r3 and r2 > 0


probability_pairs = st.tuples(st.fractions(0, 1, max_denominator=20), st.fractions(-1, 1, max_denominator=20))


def as_probability(pair: tuple[Fraction, Fraction]) -> AlgebraicNumber:
    """a + b sqrt2 clipped into [0, 1] by scaling b."""
    a, b = pair
    value = in_sqrt2(a, b * Fraction(1, 8))
    return value if 0 <= value <= 1 else in_sqrt2(a, 0)


@settings(deadline=None, max_examples=15)
@given(n=st.integers(2, 4), data=st.data())
def test_certificate_on_irrational_profiles_matches_brute_force(n, data):
    """With probabilities in Q(sqrt 2), the certificate's values equal the strategic-form brute force."""
    g = von_neumann.compiled(n, 2)
    bet = [as_probability(data.draw(probability_pairs)) for _ in range(n)]
    call = [as_probability(data.draw(probability_pairs)) for _ in range(n)]
    certificate = verify(g, BehaviourProfile.from_tables(g, [{"open": bet}, {"facing a bet": call}]))
    rows, cols, m1, _ = strategic_form(g)

    def weight(pattern, probs):
        total = SQRT2_FIELD.element([1])
        for k in range(n):
            total = total * (probs[k] if pattern[k] else 1 - probs[k])
        return total

    row_weights = [weight(r, bet) for r in rows]
    col_weights = [weight(c, call) for c in cols]
    against_cols = [sum((int(m1[i, j]) * col_weights[j] for j in range(len(cols))), Fraction(0)) for i in range(len(rows))]
    against_rows = [sum((int(m1[i, j]) * row_weights[i] for i in range(len(rows))), Fraction(0)) for j in range(len(cols))]
    first, second = certificate.checks
    assert first.best_response == max(against_cols) / g.denominator
    assert second.best_response == -min(against_rows) / g.denominator
    assert first.payoff == sum((w * v for w, v in zip(row_weights, against_cols)), Fraction(0)) / g.denominator
    assert first.regret >= 0 and second.regret >= 0
    assert np.isclose(float(first.payoff), float(sum(float(w) * float(v) for w, v in zip(row_weights, against_cols)) / g.denominator))


def test_rational_profile_in_a_field_certifies_like_fractions():
    g = von_neumann.compiled(3, 1)
    third = SQRT2 * 0 + Fraction(1, 3)
    profile = BehaviourProfile.from_tables(g, [{"open": [third, 0, 1]}, {"facing a bet": [0, third, 1]}])
    certificate = verify(g, profile)
    assert certificate.holds
    assert certificate.payoffs[0] == Fraction(1, 18)


def test_real_roots_order_across_polynomials_and_become_field_elements():
    """Roots of different polynomials compare exactly; a root turns into a field element for arithmetic."""
    import flint

    from exactpoker.algebraic import real_roots

    roots = sorted(real_roots(flint.fmpq_poly([-2, 0, 1])) + real_roots(flint.fmpq_poly([-3, 0, 1]))
                   + real_roots(flint.fmpq_poly([-3, 2])))
    assert [round(float(r), 6) for r in roots] == [-1.732051, -1.414214, 1.414214, 1.5, 1.732051]
    root2 = roots[2].field_element()
    assert root2 * root2 == 2 and root2 > 0
    assert roots[3].field_element() == Fraction(3, 2)


def test_results_with_algebraic_numbers_render_exactly():
    """An equilibrium whose numbers are algebraic turns into sympy numbers and exact JSON strings."""
    import json

    from exactpoker.results import Equilibrium

    g = von_neumann.compiled(3, 1)
    third = SQRT2 * 0 + Fraction(1, 3)
    profile = BehaviourProfile.from_tables(g, [{"open": [third, 0, 1]}, {"facing a bet": [0, third, 1]}])
    strategies = {"I": [third, 0, SQRT2 - 1], "II": [0, third, 1]}
    eq = Equilibrium.from_certificate(verify(g, profile), strategies, profile)
    assert eq.values[0] == sympy.Rational(1, 18)
    assert eq.strategies["I"][2] == sympy.sqrt(2) - 1
    assert json.loads(json.dumps(eq.to_dict()))["strategies"]["I"] == ["1/3", "0", "-1 + sqrt(2)"]
