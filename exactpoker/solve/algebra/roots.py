"""Exact real roots of univariate polynomials, and polynomial algebra over one real number field.

Generic helpers for the polynomial systems of the three-player games (seed 000
section 4, and any game whose indifference equations are not linear):

* :func:`real_roots` isolates the real roots of a rational polynomial and
  returns each one exactly, as a :class:`~fractions.Fraction` (rational roots)
  or the generator of a :class:`~exactpoker.algebraic.RealNumberField` (one
  field per irreducible factor, pinned by an isolating interval); digits of
  those are then certified with python-flint ball arithmetic
  (:meth:`~exactpoker.algebraic.AlgebraicNumber.digits`);
* :func:`evaluate` evaluates a rational polynomial (sympy, in several
  variables) at exact points of one field;
* :func:`gcd` is Euclid's algorithm for univariate polynomials whose
  coefficients lie in one field, which recovers the remaining coordinates of
  a solution from the univariate eliminant ("back-substitution by gcd");
* :func:`minimal_polynomial` gives the minimal polynomial of a field element.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping, Sequence, Union

import sympy
from flint import fmpq, fmpq_poly

from exactpoker import algebraic
from exactpoker.algebraic import AlgebraicNumber, RealAlgebraic

__all__ = ["Exact", "real_roots", "evaluate", "gcd", "minimal_polynomial"]

Exact = Union[Fraction, AlgebraicNumber]


def _fmpq_poly(poly: sympy.Poly) -> fmpq_poly:
    return fmpq_poly([fmpq(int(sympy.Rational(c).p), int(sympy.Rational(c).q)) for c in reversed(poly.all_coeffs())])


def real_roots(poly: sympy.Poly | fmpq_poly, low: Fraction | None = None, high: Fraction | None = None) -> list[Exact]:
    """The real roots of a univariate rational polynomial, exactly, in increasing order.

    Each is a Fraction or the generator of its :class:`RealNumberField` (see
    :func:`exactpoker.algebraic.real_roots`).  With ``low``/``high`` only roots
    in ``[low, high]`` are returned.
    """
    flint_poly = poly if isinstance(poly, fmpq_poly) else _fmpq_poly(poly)
    return [root.field_element() for root in algebraic.real_roots(flint_poly)
            if (low is None or not root < RealAlgebraic.rational(Fraction(low)))
            and (high is None or not RealAlgebraic.rational(Fraction(high)) < root)]


def evaluate(expr: sympy.Expr, point: Mapping[sympy.Symbol, Exact | int]) -> Exact:
    """The rational polynomial ``expr`` at ``point`` (exact; all irrational values in one field)."""
    symbols = list(point)
    poly = sympy.Poly(expr, *symbols) if symbols else None
    if poly is None:
        value = sympy.Rational(expr)
        return Fraction(int(value.p), int(value.q))
    total: Exact = Fraction(0)
    powers: dict[tuple[sympy.Symbol, int], Exact] = {}
    for monomial, coefficient in poly.terms():
        term: Exact = Fraction(int(coefficient.p), int(coefficient.q))
        for symbol, power in zip(symbols, monomial):
            if power:
                key = (symbol, power)
                if key not in powers:
                    powers[key] = Fraction(point[symbol]) ** power if not isinstance(point[symbol], AlgebraicNumber) \
                        else point[symbol] ** power
                term = term * powers[key]
        total = total + term
    return total


def _trim(coefficients: list[Exact]) -> list[Exact]:
    while coefficients and coefficients[0] == 0:
        coefficients = coefficients[1:]
    return coefficients


def gcd(f: Sequence[Exact], g: Sequence[Exact]) -> list[Exact]:
    """Monic gcd of two polynomials given by coefficients (highest degree first) in one field."""
    a, b = _trim(list(f)), _trim(list(g))
    while b:
        while len(a) >= len(b):
            factor = a[0] / b[0]
            a = _trim([ai - factor * bi for ai, bi in zip(a, b + [Fraction(0)] * (len(a) - len(b)))])
            if not a:
                break
        a, b = b, a
    return [c / a[0] for c in a]


def minimal_polynomial(number: Exact, symbol: sympy.Symbol) -> sympy.Expr:
    """The monic minimal polynomial of ``number`` over the rationals, in ``symbol``."""
    if isinstance(number, Fraction):
        return symbol - sympy.Rational(number.numerator, number.denominator)
    if number.is_rational:
        return symbol - sympy.Rational(number.to_fraction().numerator, number.to_fraction().denominator)
    field = number.field
    if number.polynomial == fmpq_poly([0, 1]):  # the generator itself
        return sum((sympy.Rational(int(c.p), int(c.q)) * symbol**k
                    for k, c in enumerate(field.minimal_polynomial.coeffs())), sympy.Integer(0))
    t = sympy.Dummy("t")
    modulus = sum((sympy.Rational(int(c.p), int(c.q)) * t**k for k, c in enumerate(field.minimal_polynomial.coeffs())),
                  sympy.Integer(0))
    element = sum((sympy.Rational(int(c.p), int(c.q)) * t**k for k, c in enumerate(number.polynomial.coeffs())),
                  sympy.Integer(0))
    characteristic = sympy.Poly(sympy.resultant(modulus, symbol - element, t), symbol)
    for factor, _m in characteristic.factor_list()[1]:
        coefficients = [sympy.Rational(c) for c in factor.all_coeffs()]
        value: Exact = Fraction(0)
        for c in coefficients:
            value = value * number + Fraction(int(c.p), int(c.q))
        if value == 0:
            return sympy.Poly(factor, symbol).monic().as_expr()
    raise ArithmeticError("minimal_polynomial(): no factor of the characteristic polynomial vanishes")  # pragma: no cover
