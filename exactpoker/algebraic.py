"""Exact real algebraic numbers, for equilibria that are not rational.

Some equilibria of the three-player games (seed 000 section 4, seed 001,
seed 003) have probabilities that are roots of polynomials, not fractions.
This module represents them exactly, in the spirit of DESIGN.md's "an algebraic
number is a minimal polynomial plus an isolating interval":

* a :class:`RealNumberField` is ``Q(theta)`` for one real root ``theta`` of an
  irreducible rational polynomial, pinned down by a rational interval that
  contains no other root;
* an :class:`AlgebraicNumber` is an element of such a field, stored as a
  rational polynomial in ``theta`` of degree below the field's degree
  (a python-flint ``flint.fmpq_poly``).

Arithmetic (``+ - * /`` and powers) is exact polynomial arithmetic modulo the
minimal polynomial; rationals (``int``, :class:`~fractions.Fraction`) mix in
freely.  Equality is exact (the representation is canonical).  Order is exact
too: the sign of a nonzero element is found by evaluating its polynomial on an
arb ball around ``theta`` (python-flint), refining the isolating interval by
exact bisection until the ball excludes zero.  Because every operation the
exact certificate (:mod:`exactpoker.certify`) performs on probabilities is one
of these, ``certify.verify`` certifies profiles whose entries are algebraic
numbers of one field exactly as it does rational ones.

Several algebraic numbers that live in different fields are brought into one
with :func:`common_field` (sympy's primitive element).  Numbers that only need
to be *ordered*, whatever their polynomials (the real roots of several
polynomials, breakpoints of a piecewise function), are :class:`RealAlgebraic`
s, found by :func:`real_roots`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import total_ordering
from typing import Iterable, Union

import flint

from exactpoker.lazy import is_instance, lazy

sympy = lazy("sympy")

__all__ = [
    "RealNumberField",
    "AlgebraicNumber",
    "RealAlgebraic",
    "real_roots",
    "rational_between",
    "common_field",
    "is_exact_number",
    "to_fmpq",
    "fmpq_to_fraction",
]

Rational = Union[int, Fraction]


def to_fmpq(value: Rational) -> flint.fmpq:
    """An exact rational (int or Fraction) as python-flint's ``fmpq``."""
    value = Fraction(value)
    return flint.fmpq(value.numerator, value.denominator)


def fmpq_to_fraction(value: object) -> Fraction:
    """A rational with integer ``p`` and ``q`` (python-flint's ``fmpq``, a sympy ``Rational``) as a Fraction."""
    return Fraction(int(value.p), int(value.q))


class RealNumberField:
    """``Q(theta)``: ``theta`` is the unique root of ``minimal_polynomial`` in ``(low, high)``.

    Parameters
    ----------
    minimal_polynomial : sequence of rationals, sympy expression or flint.fmpq_poly
        The coefficients, constant term first, or a sympy polynomial
        expression in one symbol.  It must be irreducible over the rationals.
    low, high : rational
        An interval with exactly one real root of the polynomial, not at its
        ends.

    Raises
    ------
    ValueError
        If the polynomial is reducible or the interval does not isolate one
        root.
    """

    def __init__(self, minimal_polynomial: object, low: Rational, high: Rational) -> None:
        poly = _as_fmpq_poly(minimal_polynomial)
        poly = poly / poly.leading_coefficient()
        _content, factors = poly.factor()
        if poly.degree() < 1 or len(factors) != 1 or factors[0][1] != 1:
            raise ValueError(f"RealNumberField(): minimal_polynomial must be irreducible; got {poly}")
        self.minimal_polynomial: flint.fmpq_poly = poly
        self.degree: int = poly.degree()
        self._low, self._high = Fraction(low), Fraction(high)
        if not self._low < self._high:
            raise ValueError(f"RealNumberField(): need low < high; got {low}, {high}")
        if self._sign_at(self._low) * self._sign_at(self._high) >= 0 or self._count_roots() != 1:
            raise ValueError(
                f"RealNumberField(): ({low}, {high}) must contain exactly one root of {poly}, not at its ends"
            )

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def from_sympy(cls, number: sympy.Expr) -> tuple["RealNumberField", "AlgebraicNumber"]:
        """The field ``Q(number)`` of a real algebraic sympy number, and ``number`` in it."""
        number = sympy.nsimplify(number) if isinstance(number, sympy.Float) else sympy.sympify(number)
        x = sympy.Dummy("x")
        poly = sympy.Poly(sympy.minimal_polynomial(number, x), x)
        for (low, high), _multiplicity in poly.intervals():
            low, high = Fraction(str(low)), Fraction(str(high))
            if low == high:
                continue  # a rational root: degree one, handled below
            if _contains(number, low, high):
                field = cls(poly.all_coeffs()[::-1], low, high)
                return field, field.generator
        # Degree one (or a root hit exactly by an interval end): a rational number.
        value = sympy.Rational(sympy.nsimplify(number))
        field = cls([-value.p, value.q], Fraction(value.p, value.q) - 1, Fraction(value.p, value.q) + 1)
        return field, field.generator

    @property
    def generator(self) -> "AlgebraicNumber":
        """``theta`` itself."""
        return AlgebraicNumber(self, flint.fmpq_poly([0, 1]))

    def element(self, coefficients: Iterable[Rational]) -> "AlgebraicNumber":
        """``sum(c_k theta^k)`` for the given coefficients, constant term first."""
        return AlgebraicNumber(self, flint.fmpq_poly([to_fmpq(c) for c in coefficients]))

    # -- the root -------------------------------------------------------------------------------

    @property
    def interval(self) -> tuple[Fraction, Fraction]:
        """The current isolating interval (it only shrinks)."""
        return self._low, self._high

    def _sign_at(self, point: Fraction) -> int:
        return _sign_at(self.minimal_polynomial, point)

    def _count_roots(self) -> int:
        """The number of real roots in ``(low, high)``: flint's isolating intervals, or Sturm where one straddles an end."""
        inside = 0
        for left, right in _isolating_intervals(self.minimal_polynomial):
            if self._low < left and right < self._high:
                inside += 1
            elif not (right <= self._low or left >= self._high):
                x = sympy.Symbol("x")
                poly = sympy.Poly([_to_sympy_rational(c) for c in reversed(self.minimal_polynomial.coeffs())], x)
                return poly.count_roots(_to_sympy_rational(self._low), _to_sympy_rational(self._high))
        return inside

    def refine(self) -> None:
        """Halve the isolating interval (exact bisection on the sign of the polynomial)."""
        middle = (self._low + self._high) / 2
        sign = self._sign_at(middle)
        if sign == 0:  # only possible in degree one: theta is rational
            self._low = self._high = middle
            return
        if sign == self._sign_at(self._low):
            self._low = middle
        else:
            self._high = middle

    def enclosure(self, precision: int) -> flint.arb:
        """An arb ball that contains ``theta``, at ``precision`` bits."""
        old = flint.ctx.prec
        flint.ctx.prec = precision
        try:
            middle = (self._low + self._high) / 2
            return flint.arb(to_fmpq(middle), to_fmpq((self._high - self._low) / 2))
        finally:
            flint.ctx.prec = old

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RealNumberField):
            return NotImplemented
        if self is other:
            return True
        if self.minimal_polynomial != other.minimal_polynomial:
            return False
        low, high = max(self._low, other._low), min(self._high, other._high)
        return low < high and RealNumberField._interval_has_root(self, low, high)

    def _interval_has_root(self, low: Fraction, high: Fraction) -> bool:
        # Both intervals isolate one root each; they name the same root iff it lies in their overlap.
        a, b = self._sign_at(low), self._sign_at(high)
        return a == 0 or b == 0 or a != b

    def __hash__(self) -> int:
        return hash(str(self.minimal_polynomial))

    def __repr__(self) -> str:
        return f"RealNumberField({self.minimal_polynomial}, root in [{self._low}, {self._high}])"

    def root_sympy(self) -> sympy.Expr:
        """``theta`` as an exact sympy number (radicals when sympy finds them, else a CRootOf)."""
        x = sympy.Symbol("x")
        poly = sympy.Poly([_to_sympy_rational(c) for c in reversed(self.minimal_polynomial.coeffs())], x)
        if self.degree == 1:
            return -poly.all_coeffs()[1] / poly.all_coeffs()[0]
        index = poly.count_roots(-sympy.oo, _to_sympy_rational(self._low))
        return sympy.rootof(poly, index, radicals=self.degree <= 2)


@total_ordering
class AlgebraicNumber:
    """An exact element of a :class:`RealNumberField`; see the module docstring."""

    __slots__ = ("field", "polynomial")

    def __init__(self, field: RealNumberField, polynomial: flint.fmpq_poly) -> None:
        self.field = field
        self.polynomial = polynomial % field.minimal_polynomial if polynomial.degree() >= field.degree else polynomial

    # -- conversion -----------------------------------------------------------------------------

    def _coerce(self, other: object) -> flint.fmpq_poly | None:
        if isinstance(other, AlgebraicNumber):
            if other.field is not self.field and other.field != self.field:
                raise ValueError("algebraic numbers of different fields: bring them together with common_field()")
            return other.polynomial
        if isinstance(other, (int, Fraction)) and not isinstance(other, bool):
            return flint.fmpq_poly([to_fmpq(other)])
        if is_instance(other, "sympy", "Rational"):
            return flint.fmpq_poly([flint.fmpq(int(other.p), int(other.q))])
        return None

    @property
    def is_rational(self) -> bool:
        return self.polynomial.degree() <= 0

    def to_fraction(self) -> Fraction:
        """The value as a Fraction; raises ``ValueError`` if it is irrational."""
        if not self.is_rational:
            raise ValueError(f"{self} is not rational")
        coeffs = self.polynomial.coeffs()
        return fmpq_to_fraction(coeffs[0]) if coeffs else Fraction(0)

    def to_sympy(self) -> sympy.Expr:
        """The exact value as a sympy number."""
        theta = self.field.root_sympy()
        value = sum((_to_sympy_rational(c) * theta**k for k, c in enumerate(self.polynomial.coeffs())), sympy.Integer(0))
        return sympy.radsimp(sympy.expand(value)) if self.field.degree <= 2 else value

    def enclosure(self, digits: int = 20) -> flint.arb:
        """An arb ball around the value whose radius is below ``10**-digits``."""
        precision = max(64, int(digits * 3.33) + 20)
        while True:
            ball = self._evaluate(precision)
            if ball.rad() < flint.arb(10) ** (-digits):
                return ball
            self.field.refine()
            precision += 32

    def digits(self, digits: int = 50) -> str:
        """A decimal string of the value, correct in all ``digits`` significant digits shown by arb."""
        return self.enclosure(digits + 5).str(digits, radius=False)

    def _evaluate(self, precision: int) -> flint.arb:
        theta = self.field.enclosure(precision)
        old = flint.ctx.prec
        flint.ctx.prec = precision
        try:
            total = flint.arb(0)
            for c in reversed(self.polynomial.coeffs()):
                total = total * theta + flint.arb(c)
            return total
        finally:
            flint.ctx.prec = old

    def sign(self) -> int:
        """-1, 0 or 1, exactly."""
        if self.polynomial.is_zero():
            return 0
        precision = 64
        for _ in range(10_000):
            ball = self._evaluate(precision)
            if ball > 0:
                return 1
            if ball < 0:
                return -1
            self.field.refine()
            precision += 16
        raise ArithmeticError(f"could not decide the sign of {self}")  # pragma: no cover

    # -- arithmetic -----------------------------------------------------------------------------

    def _make(self, polynomial: flint.fmpq_poly) -> "AlgebraicNumber":
        return AlgebraicNumber(self.field, polynomial)

    def __add__(self, other: object) -> "AlgebraicNumber":
        p = self._coerce(other)
        return NotImplemented if p is None else self._make(self.polynomial + p)

    __radd__ = __add__

    def __sub__(self, other: object) -> "AlgebraicNumber":
        p = self._coerce(other)
        return NotImplemented if p is None else self._make(self.polynomial - p)

    def __rsub__(self, other: object) -> "AlgebraicNumber":
        p = self._coerce(other)
        return NotImplemented if p is None else self._make(p - self.polynomial)

    def __mul__(self, other: object) -> "AlgebraicNumber":
        p = self._coerce(other)
        return NotImplemented if p is None else self._make(self.polynomial * p)

    __rmul__ = __mul__

    def inverse(self) -> "AlgebraicNumber":
        if self.polynomial.is_zero():
            raise ZeroDivisionError("division by an algebraic zero")
        gcd, s, _t = self.polynomial.xgcd(self.field.minimal_polynomial)
        return self._make(s / gcd.leading_coefficient()) if gcd.degree() == 0 else self._make(s)

    def __truediv__(self, other: object) -> "AlgebraicNumber":
        p = self._coerce(other)
        if p is None:
            return NotImplemented
        return self * self._make(p).inverse()

    def __rtruediv__(self, other: object) -> "AlgebraicNumber":
        p = self._coerce(other)
        return NotImplemented if p is None else self._make(p) * self.inverse()

    def __pow__(self, exponent: int) -> "AlgebraicNumber":
        if not isinstance(exponent, int):
            return NotImplemented
        base = self if exponent >= 0 else self.inverse()
        result = self._make(flint.fmpq_poly([1]))
        for _ in range(abs(exponent)):
            result = result * base
        return result

    def __neg__(self) -> "AlgebraicNumber":
        return self._make(-self.polynomial)

    def __pos__(self) -> "AlgebraicNumber":
        return self

    def __abs__(self) -> "AlgebraicNumber":
        return -self if self.sign() < 0 else self

    # -- comparison -----------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        p = self._coerce(other)
        return NotImplemented if p is None else self.polynomial == p

    def __lt__(self, other: object) -> bool:
        p = self._coerce(other)
        return NotImplemented if p is None else self._make(self.polynomial - p).sign() < 0

    def __hash__(self) -> int:
        if self.is_rational:
            return hash(self.to_fraction())
        return hash((str(self.polynomial), self.field))

    def __bool__(self) -> bool:
        return not self.polynomial.is_zero()

    def __float__(self) -> float:
        return float(self.enclosure(20).mid())

    def __str__(self) -> str:
        if self.is_rational:
            value = self.to_fraction()
            return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
        return str(self.to_sympy())

    def __repr__(self) -> str:
        return f"AlgebraicNumber({self}, ~{float(self):.15g})"


def _sign_at(poly: flint.fmpq_poly, point: Fraction) -> int:
    value = poly(to_fmpq(point))
    return (value > 0) - (value < 0)


@dataclass(frozen=True)
class RealAlgebraic:
    """A real algebraic number on its own: a rational, or the only root of an irreducible polynomial in ``(lower, upper)``.

    Unlike :class:`AlgebraicNumber` (an element of one field, for arithmetic),
    these compare with each other whatever their polynomials: breakpoints of
    piecewise functions, roots of several eliminants.  :meth:`field_element`
    turns one into a field element for arithmetic.

    ``index`` is the root's position among the polynomial's real roots (for
    sympy's ``CRootOf``).  Comparisons are exact (isolating intervals are
    refined until they separate).
    """

    lower: Fraction
    upper: Fraction
    poly: flint.fmpq_poly | None = None
    index: int = 0

    @classmethod
    def rational(cls, value: Fraction) -> "RealAlgebraic":
        return cls(value, value)

    @property
    def is_rational(self) -> bool:
        return self.poly is None

    def refined(self) -> "RealAlgebraic":
        """The same number with its isolating interval halved."""
        if self.poly is None:
            return self
        mid = (self.lower + self.upper) / 2
        if _sign_at(self.poly, mid) == _sign_at(self.poly, self.lower):
            return RealAlgebraic(mid, self.upper, self.poly, self.index)
        return RealAlgebraic(self.lower, mid, self.poly, self.index)

    def same(self, other: "RealAlgebraic") -> bool:
        if self.poly is None or other.poly is None:
            return self.poly is None and other.poly is None and self.lower == other.lower
        return self.poly == other.poly and self.index == other.index

    def separated(self, other: "RealAlgebraic") -> tuple["RealAlgebraic", "RealAlgebraic"]:
        """Both numbers refined until their intervals are disjoint (they must differ)."""
        a, b = self, other
        while not (a.upper < b.lower or b.upper < a.lower):
            if a.is_rational and b.is_rational:
                break
            a, b = a.refined(), b.refined()
        return a, b

    def __lt__(self, other: "RealAlgebraic") -> bool:
        if self.same(other):
            return False
        a, b = self.separated(other)
        return a.upper < b.lower if not (a.is_rational and b.is_rational) else a.lower < b.lower

    def vanishes(self, poly: flint.fmpq_poly) -> bool:
        """Whether ``poly`` is zero at this number (exact)."""
        if self.poly is None:
            return poly(to_fmpq(self.lower)) == 0
        return (poly % self.poly) == 0

    def to_sympy(self) -> sympy.Expr:
        if self.poly is None:
            return sympy.Rational(self.lower.numerator, self.lower.denominator)
        coeffs = [fmpq_to_fraction(c) for c in self.poly.coeffs()]
        expr = sum((sympy.Rational(c.numerator, c.denominator) * sympy.Symbol("x")**k for k, c in enumerate(coeffs)), sympy.S(0))
        return sympy.CRootOf(expr, self.index)

    def __float__(self) -> float:
        approx = self
        while approx.upper - approx.lower > Fraction(1, 2**60):
            approx = approx.refined()
        return float((approx.lower + approx.upper) / 2)

    def __str__(self) -> str:
        return str(self.to_sympy())

    def field_element(self) -> "Fraction | AlgebraicNumber":
        """The number for exact arithmetic: a Fraction, or the generator of its :class:`RealNumberField`."""
        if self.poly is None:
            return self.lower
        return RealNumberField(self.poly, self.lower, self.upper).generator


def _arb_fraction(value: flint.arb) -> Fraction:
    mantissa, exponent = value.mid().man_exp()
    return Fraction(int(mantissa)) * Fraction(2) ** int(exponent)


def _isolating_intervals(factor: flint.fmpq_poly) -> list[tuple[Fraction, Fraction]]:
    """Isolating intervals of the real roots of an irreducible ``factor`` of degree >= 2, in increasing order.

    python-flint's ``complex_roots`` returns one ball per root, each known to
    hold exactly one; a real root comes back with an exactly zero imaginary
    part, and the real segment of its ball (slightly widened to a rational
    interval) then isolates it.
    """
    numerator = factor.numer()
    old = flint.ctx.prec
    try:
        flint.ctx.prec = 64
        while True:
            balls = [c for c, _m in numerator.complex_roots()]
            if all(c.imag == 0 or not c.imag.contains(0) for c in balls):
                break
            flint.ctx.prec *= 2
        intervals = []
        for c in balls:
            if c.imag == 0:
                mid, rad = _arb_fraction(c.real), _arb_fraction(flint.arb(c.real.rad()))
                rad = rad + rad / 4 + Fraction(1, 2**flint.ctx.prec)
                intervals.append((mid - rad, mid + rad))
        return sorted(intervals)
    finally:
        flint.ctx.prec = old


def real_roots(poly: flint.fmpq_poly) -> list[RealAlgebraic]:
    """The distinct real roots of ``poly``, exactly, in increasing order (one :class:`RealAlgebraic` each).

    Factoring and root isolation are python-flint's.
    """
    roots = []
    _, factors = poly.factor()
    for factor, _ in factors:
        monic = factor / factor.leading_coefficient()
        if monic.degree() == 1:
            roots.append(RealAlgebraic.rational(-fmpq_to_fraction(monic.coeffs()[0])))
            continue
        for index, (low, high) in enumerate(_isolating_intervals(monic)):
            roots.append(RealAlgebraic(low, high, monic, index))
    return sorted(roots)


def _simplest_between(lo: Fraction, hi: Fraction) -> Fraction:
    """A rational with a small denominator strictly between ``lo < hi`` (continued fractions)."""
    whole = math.floor(lo)
    if whole + 1 < hi:  # an integer lies strictly inside: take the one nearest to 0
        if lo < 0 < hi:
            return Fraction(0)
        return Fraction(math.ceil(hi) - 1) if hi <= 0 else Fraction(whole + 1)
    if lo == whole:  # x = whole + 1/y with y in (1/(hi - whole), oo)
        return whole + 1 / Fraction(math.floor(1 / (hi - whole)) + 1)
    return whole + 1 / _simplest_between(1 / (hi - whole), 1 / (lo - whole))


def rational_between(a: RealAlgebraic, b: RealAlgebraic | None) -> Fraction:
    """A simple rational strictly between ``a < b`` (``b = None``: infinity)."""
    if b is None:
        return Fraction(math.floor(a.upper) + 1)
    a, b = a.separated(b)
    lo = a.upper
    hi = b.lower
    return _simplest_between(lo, hi)


def common_field(numbers: Iterable[sympy.Expr]) -> tuple[RealNumberField, list[AlgebraicNumber]]:
    """One field holding all the given real algebraic sympy numbers, and each of them in it.

    Uses sympy's primitive element theorem (:func:`sympy.polys.numberfields.primitive_element`)
    and expresses each number as a polynomial in the primitive element.
    """
    numbers = [sympy.sympify(n) for n in numbers]
    irrational = [n for n in numbers if not n.is_Rational]
    if not irrational:
        field, _ = RealNumberField.from_sympy(sympy.Integer(0))
        return field, [field.element([Fraction(int(n.p), int(n.q))]) for n in numbers]
    x = sympy.Dummy("x")
    _minpoly, weights = sympy.primitive_element(irrational, x)
    primitive = sympy.Add(*[w * n for w, n in zip(weights, irrational)])
    field, _theta = RealNumberField.from_sympy(primitive)
    results = []
    for n in numbers:
        if n.is_Rational:
            results.append(field.element([Fraction(int(n.p), int(n.q))]))
            continue
        expressed = sympy.to_number_field(n, primitive)
        results.append(field.element([Fraction(int(c.p), int(c.q)) for c in reversed(expressed.coeffs())]))
    return field, results


def is_exact_number(value: object) -> bool:
    """True for the exact number types the library accepts as probabilities."""
    return isinstance(value, (int, Fraction, AlgebraicNumber)) and not isinstance(value, bool)


def _as_fmpq_poly(poly: object) -> flint.fmpq_poly:
    if isinstance(poly, flint.fmpq_poly):
        return poly
    if is_instance(poly, "sympy", "Expr"):
        symbols = sorted(poly.free_symbols, key=str)
        if len(symbols) != 1:
            raise ValueError(f"RealNumberField(): need a polynomial in one symbol; got {poly}")
        coeffs = sympy.Poly(poly, symbols[0]).all_coeffs()[::-1]
        return flint.fmpq_poly([to_fmpq(Fraction(int(c.p), int(c.q))) for c in map(sympy.Rational, coeffs)])
    return flint.fmpq_poly([to_fmpq(Fraction(str(c)) if is_instance(c, "sympy", "Rational") else Fraction(c)) for c in poly])


def _to_sympy_rational(value: flint.fmpq | Fraction) -> sympy.Rational:
    if isinstance(value, Fraction):
        return sympy.Rational(value.numerator, value.denominator)
    return sympy.Rational(int(value.p), int(value.q))


def _contains(number: sympy.Expr, low: Fraction, high: Fraction) -> bool:
    value = sympy.N(number, 50)
    return sympy.Rational(low.numerator, low.denominator) <= value <= sympy.Rational(high.numerator, high.denominator)
