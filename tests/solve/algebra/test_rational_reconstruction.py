"""Rational reconstruction modulo a prime, then exact: it finds P / Q through enough values, or says None."""

from __future__ import annotations

from fractions import Fraction as F

from flint import fmpq, fmpq_poly
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.solve.algebra.rational_reconstruction import reconstruct

coefficients = st.lists(st.integers(-10**6, 10**6), min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(coefficients, coefficients, st.integers(0, 3))
def test_a_rational_function_is_found_from_enough_values(numerator, denominator, extra):
    p, q = fmpq_poly(numerator), fmpq_poly(denominator)
    if q.is_zero():
        q = fmpq_poly([1])
    enough = 2 * max(p.degree(), q.degree(), 0) + 2 + extra  # then P / Q is the only one of its degrees
    points = [F(k, 3) for k in range(1, 60) if q(fmpq(k, 3)) != 0][:enough]
    values = [p(fmpq(t.numerator, t.denominator)) / q(fmpq(t.numerator, t.denominator)) for t in points]
    found = reconstruct(points, values)
    assert found is not None
    P, Q = found
    assert P * q == p * Q  # the same function
    assert Q.denom() == 1 and Q.numer().content() == 1


def test_too_few_values_for_the_function_give_none_or_a_function_through_them():
    points = [F(k) for k in range(1, 4)]
    values = [fmpq(1, k * k + 1) for k in range(1, 4)]  # 1 / (r^2 + 1) needs 4 values
    found = reconstruct(points, values)
    if found is not None:  # then it interpolates the three values with deg P + deg Q < 3
        P, Q = found
        assert all(P(fmpq(int(t))) == v * Q(fmpq(int(t))) for t, v in zip(points, values))
