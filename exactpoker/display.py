"""How exact numbers are shown: the exact value first, and a decimal reading beside an irrational one.

Exact answers can be long (a degree-8 ``CRootOf`` expression is hundreds of
characters), so every irrational number printed also gets a decimal reading:
``exact ≈ 0.1234567890`` in text, and a parallel ``approx`` object of decimal
strings in JSON (see ``exactpoker/schema/result.json``).  The digits shown are
correct: an :class:`~exactpoker.algebraic.AlgebraicNumber` is evaluated in arb
ball arithmetic around its isolating interval (the digits are certified), and
another sympy number by sympy's ``evalf``, which raises its working precision
until the requested digits are accurate; both are computed to ten more digits
than shown and rounded once.  Rationals are exact and get no
reading; a float is never printed as if it were exact.

>>> from fractions import Fraction
>>> import sympy
>>> shown(Fraction(2, 9)), shown(sympy.sqrt(2))
('2/9', 'sqrt(2) ≈ 1.414213562')
"""

from __future__ import annotations

from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any, Mapping

from exactpoker.algebraic import AlgebraicNumber
from exactpoker.lazy import is_instance
from exactpoker.numbers import exact_str

__all__ = ["DIGITS", "is_irrational", "decimal", "shown", "approx_table", "has_irrational"]

#: Significant digits of a decimal reading.
DIGITS = 10


def is_irrational(value: object) -> bool:
    """True for an exact number that is not rational (an algebraic number, a sympy expression such as ``sqrt(2)``).

    Symbolic expressions with free symbols (formulas in ``b``) are not numbers and give False.
    """
    if isinstance(value, AlgebraicNumber):
        return not value.is_rational
    if is_instance(value, "sympy", "Basic"):
        return bool(value.is_number) and not value.is_Rational
    return False


def decimal(value: object, digits: int = DIGITS) -> str:
    """A decimal string of an exact number, correct in the ``digits`` significant digits shown.

    Rationals are rounded exactly; algebraic numbers are evaluated in arb ball
    arithmetic (certified); other sympy numbers by ``evalf``.  Anything else
    (a string that already is a certified decimal, ``None``) is returned as it is.
    """
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value  # type: ignore[return-value]
    if isinstance(value, (int, Fraction)):
        return _rational_decimal(Fraction(value), digits)
    if isinstance(value, AlgebraicNumber):
        if value.is_rational:
            return _rational_decimal(value.to_fraction(), digits)
        return _rounded(value.digits(digits + _GUARD), digits)
    if is_instance(value, "sympy", "Basic") and value.is_number:
        if value.is_Rational:
            return _rational_decimal(Fraction(int(value.p), int(value.q)), digits)
        return _rounded(str(value.evalf(digits + _GUARD)), digits)
    return str(value)


#: Extra digits computed before rounding to the digits shown (the last digit of a short evaluation can be off by one).
_GUARD = 10


def _rounded(text: str, digits: int) -> str:
    """A decimal string computed to more digits, rounded (half even) to ``digits`` significant digits."""
    with localcontext() as context:
        context.prec = digits
        return str(+Decimal(text.replace("e", "E")))


def _rational_decimal(value: Fraction, digits: int) -> str:
    """``value`` correctly rounded to ``digits`` significant digits (exact decimal division)."""
    if value.denominator == 1:
        return str(value.numerator)
    with localcontext() as context:
        context.prec = digits
        return str(Decimal(value.numerator) / Decimal(value.denominator))


def shown(value: object, digits: int = DIGITS) -> str:
    """The exact value as text, with ``≈ decimal`` after it when it is irrational."""
    text = exact_str(value) if isinstance(value, (Fraction, int)) and not isinstance(value, bool) else str(value)
    return f"{text} ≈ {decimal(value, digits)}" if is_irrational(value) else text


def has_irrational(table: Any) -> bool:
    """Whether a nested table (mappings, lists) holds an irrational number."""
    if isinstance(table, Mapping):
        return any(has_irrational(v) for v in table.values())
    if isinstance(table, (list, tuple)):
        return any(has_irrational(v) for v in table)
    return is_irrational(table)


def approx_table(table: Any, digits: int = DIGITS) -> Any:
    """The same nested table with every number replaced by its decimal string (``None`` kept)."""
    if isinstance(table, Mapping):
        return {str(k): approx_table(v, digits) for k, v in table.items()}
    if isinstance(table, (list, tuple)):
        return [approx_table(v, digits) for v in table]
    return decimal(table, digits)
