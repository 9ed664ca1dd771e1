"""Proved isolating boxes of square rational polynomial systems (Krawczyk's test, exactpoker.solve.algebra.krawczyk)."""

import dataclasses
import math
from fractions import Fraction

import pytest
from flint import arb, ctx as flint_ctx, fmpq, fmpq_mpoly_ctx
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from exactpoker.errors import CertificationError
from exactpoker.solve.algebra.krawczyk import BallPolynomial, KrawczykError, decimal_string, exact_value, isolate, refine

ONE = fmpq_mpoly_ctx.get(("x",), "lex")
TWO = fmpq_mpoly_ctx.get(("x", "y"), "lex")


def _sqrt_digits(a: int, places: int) -> str:
    """sqrt(a) rounded to ``places`` decimals, from exact integer arithmetic."""
    scaled = math.isqrt(a * 10 ** (2 * places + 2))
    rounded = (scaled + 5) // 10
    text = str(rounded).rjust(places + 1, "0")
    return text[:-places] + "." + text[-places:]


def test_square_root_of_two_to_many_digits():
    (x,) = ONE.gens()
    box = isolate([x * x - 2], ONE, [1.4], digits=40)
    (lo, hi), = box.intervals()
    assert lo * lo < 2 < hi * hi and box.digits >= 40
    assert box.decimals(40) == [_sqrt_digits(2, 40) + "±1e-40"]
    assert box.verify()


def test_refine_gives_more_digits_inside_the_box():
    (x,) = ONE.gens()
    box = isolate([x * x - 2], ONE, [1.4], digits=20)
    finer = refine(box, 300)
    (lo, hi), = finer.intervals()
    (outer_lo, outer_hi), = box.intervals()
    assert outer_lo <= lo and hi <= outer_hi and finer.digits >= 300
    assert finer.decimals(300)[0].startswith(_sqrt_digits(2, 300)[:-1])
    assert refine(box, 5) is box


def test_two_by_two_system_isolates_the_chosen_root():
    """x^2 + y^2 = 1, x = y: two roots; the one next to the point is isolated (and only it)."""
    x, y = TWO.gens()
    equations = [x * x + y * y - 1, x - y]
    box = isolate(equations, TWO, [0.7, 0.7], digits=30)
    for lo, hi in box.intervals():
        assert 0 < lo and 2 * lo * lo < 1 < 2 * hi * hi
    other = isolate(equations, TWO, [-0.7, -0.7], digits=30)
    assert all(hi < 0 for _, hi in other.intervals())


def test_singular_zero_is_refused():
    """A double root (singular Jacobian at the zero) gets no isolating box."""
    (x,) = ONE.gens()
    with pytest.raises(KrawczykError):
        isolate([(x - 1) * (x - 1)], ONE, [1.001])
    x, y = TWO.gens()
    with pytest.raises(KrawczykError, match="singular"):  # a curve of zeros: singular everywhere on it
        isolate([x - y, 2 * x - 2 * y], TWO, [0.5, 0.5])


def test_non_square_system_and_bad_digits_are_refused():
    x, y = TWO.gens()
    with pytest.raises(KrawczykError):
        isolate([x - y], TWO, [0.5, 0.5])
    with pytest.raises(KrawczykError):
        isolate([x - y, x + y - 1], TWO, [0.5, 0.5], digits=0)
    assert issubclass(KrawczykError, CertificationError)


def test_perturbed_box_fails_the_test():
    """verify() re-runs Krawczyk's test: a box shifted off the zero fails it."""
    x, y = TWO.gens()
    box = isolate([x * y - 2, x + y - 3], TWO, [0.9, 2.1], digits=25)
    assert box.verify()
    shifted = dataclasses.replace(box, centres=tuple(c + 3 * r for c, r in zip(box.centres, box.radii)))
    assert not shifted.verify()
    wider = dataclasses.replace(box, radii=tuple(Fraction(1, 2) for _ in box.radii))  # holds the other root too
    assert not wider.verify()


def test_decimal_string_refuses_too_many_places():
    assert decimal_string((Fraction(1, 3), Fraction(1, 10**12)), 10) == "0.3333333333±1e-10"
    assert decimal_string((Fraction(-2, 3), Fraction(0)), 3) == "-0.667±1e-3"
    with pytest.raises(KrawczykError):
        decimal_string((Fraction(1, 3), Fraction(1, 10**5)), 10)


@settings(deadline=None, max_examples=25)
@given(st.fractions(min_value=Fraction(1, 100), max_value=100, max_denominator=1000))
def test_property_square_roots(a):
    """x^2 = a: the box's exact endpoints bracket sqrt(a), whatever the rational a."""
    assume(math.isqrt(a.numerator) ** 2 != a.numerator or math.isqrt(a.denominator) ** 2 != a.denominator)
    (x,) = ONE.gens()
    box = isolate([x * x - fmpq(a.numerator, a.denominator)], ONE, [math.sqrt(a)], digits=25)
    (lo, hi), = box.intervals()
    assert lo * lo < a < hi * hi and hi - lo < Fraction(1, 10**25)


@settings(deadline=None, max_examples=25)
@given(st.fractions(min_value=0, max_value=1, max_denominator=50), st.fractions(min_value=2, max_value=3,
                                                                                  max_denominator=50))
def test_property_rational_root_inside_the_box(r, s):
    """x y = r s, x + y = r + s: the box next to (r, s) contains the exact root (r, s)."""
    x, y = TWO.gens()
    equations = [x * y - fmpq(r.numerator, r.denominator) * fmpq(s.numerator, s.denominator),
                 x + y - fmpq((r + s).numerator, (r + s).denominator)]
    box = isolate(equations, TWO, [float(r) + 1e-6, float(s) - 1e-6], digits=20)
    (xl, xh), (yl, yh) = box.intervals()
    assert xl < r < xh and yl < s < yh


@settings(deadline=None, max_examples=25)
@given(st.lists(st.tuples(st.fractions(min_value=-5, max_value=5, max_denominator=30),
                          st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=6),
       st.fractions(min_value=-2, max_value=2, max_denominator=30), st.fractions(min_value=-2, max_value=2,
                                                                                  max_denominator=30))
def test_property_ball_evaluation_encloses_the_exact_value(terms, a, b):
    """A polynomial on exact balls encloses its exact rational value (and its gradient likewise)."""
    x, y = TWO.gens()
    poly = sum((fmpq(c.numerator, c.denominator) * x**i * y**j for c, i, j in terms), TWO.constant(0))
    point = [fmpq(a.numerator, a.denominator), fmpq(b.numerator, b.denominator)]
    compiled = BallPolynomial(poly)

    def encloses(ball, value):
        return abs(Fraction(int(value.p), int(value.q)) - exact_value(ball)) <= exact_value(ball, "rad")

    with flint_ctx.workprec(64):
        balls = [arb(v) for v in point]
        assert encloses(compiled(balls), poly(*point))
        for v, derivative in compiled.gradient.items():
            assert encloses(derivative(balls), poly.derivative(TWO.names()[v])(*point))
