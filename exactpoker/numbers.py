"""Exact numbers at the API boundary.

Inside the library rationals are :class:`fractions.Fraction` (and python-flint
types in hot paths); results hand out sympy numbers so they print as ``2/21``
and drop straight into sympy.  Floats are never accepted as exact input: a
user who means one half writes ``1/2``, ``"1/2"`` or ``"0.5"`` (a decimal string
is read exactly).
"""

from __future__ import annotations

import numbers
from fractions import Fraction

from exactpoker.algebraic import AlgebraicNumber
from exactpoker.errors import InvalidParameterError
from exactpoker.lazy import is_instance, lazy

sympy = lazy("sympy")

__all__ = ["to_fraction", "to_sympy", "exact_str", "parse_positive", "parse_int"]


def to_fraction(value: object, name: str) -> Fraction:
    """Read ``value`` as an exact rational; ``name`` is used in the error message.

    Accepts ``int``, :class:`~fractions.Fraction`, sympy rationals, numpy
    integers and strings such as ``"5/2"`` or ``"2.5"``.  Rejects floats,
    booleans and anything else with an :class:`InvalidParameterError`.
    """
    if isinstance(value, bool):
        raise InvalidParameterError(f"{name} must be an exact number; got {value!r}")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, numbers.Integral):
        return Fraction(int(value))
    if is_instance(value, "sympy", "Rational"):
        return Fraction(int(value.p), int(value.q))
    if isinstance(value, str):
        try:
            return Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            raise InvalidParameterError(
                f"{name} must be a rational number such as 2, 5/2 or 2.5; got {value!r}"
            ) from None
    if isinstance(value, float):
        raise InvalidParameterError(
            f"{name} must be exact (an int, a Fraction or a string like '5/2'); got the float {value!r}"
        )
    if is_instance(value, "sympy", "Basic"):
        raise InvalidParameterError(f"{name} must be a rational number; got {value}")
    raise InvalidParameterError(f"{name} must be a number; got {value!r}")


def parse_positive(value: object, name: str) -> Fraction:
    """An exact rational that must be > 0."""
    number = to_fraction(value, name)
    if number <= 0:
        raise InvalidParameterError(f"{name} must be > 0; got {exact_str(number)}")
    return number


def parse_int(value: object, name: str, minimum: int, maximum: int | None = None, hint: str = "") -> int:
    """An integer in ``[minimum, maximum]``; ``hint`` is added to the error message."""
    upper = "" if maximum is None else f" and <= {maximum}"
    try:
        number = to_fraction(value, name)
    except InvalidParameterError:
        raise InvalidParameterError(
            f"{name} must be an integer >= {minimum}{upper}; got {value!r}" + (f" ({hint})" if hint else "")
        ) from None
    if number.denominator != 1 or number < minimum or (maximum is not None and number > maximum):
        raise InvalidParameterError(
            f"{name} must be an integer >= {minimum}{upper}; got {exact_str(number)}" + (f" ({hint})" if hint else "")
        )
    return int(number)


def to_sympy(value: "Fraction | int | AlgebraicNumber") -> sympy.Expr:
    """The sympy number equal to ``value`` (a Rational, or an exact algebraic expression)."""
    if isinstance(value, AlgebraicNumber):
        return value.to_sympy()
    value = Fraction(value)
    return sympy.Rational(value.numerator, value.denominator)


def exact_str(value: object) -> str:
    """``"p/q"``, ``"0"`` or ``"1"``: the exact string used in JSON output."""
    if isinstance(value, (Fraction, int)):
        value = Fraction(value)
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return str(value)
