"""Exact numbers at the API boundary.

Inside the library rationals are :class:`fractions.Fraction` (and python-flint
types in hot paths); results hand out sympy numbers so they print as ``2/21``
and drop straight into sympy.  Floats are never accepted as exact input: a
user who means one half writes ``1/2``, ``"1/2"`` or ``"0.5"`` (a decimal string
is read exactly).
"""

from __future__ import annotations

import numbers
import re
from fractions import Fraction

from exactpoker.algebraic import AlgebraicNumber
from exactpoker.errors import InvalidParameterError
from exactpoker.lazy import is_instance, lazy

sympy = lazy("sympy")

__all__ = ["to_fraction", "to_sympy", "exact_str", "parse_positive", "parse_int", "MAX_PARAMETER", "MAX_EXPONENT"]

#: The largest numerator or denominator of a positive parameter (bet, ante, pot) and the largest
#: integer parameter without a smaller limit of its own (deck size, Newman's bet): the float guides
#: (HiGHS, numpy) lose larger numbers, and no game that large can be solved anyway.
MAX_PARAMETER = 10**12

#: The largest decimal exponent read from a string (``"1e400"``); a larger one would take hours to expand.
MAX_EXPONENT = 1000

_EXPONENT = re.compile(r"[eE]\s*([+-]?\d+)\s*$")


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
        exponent = _EXPONENT.search(value)
        if exponent and abs(int(exponent.group(1))) > MAX_EXPONENT:
            raise InvalidParameterError(
                f"{name} must be a rational number such as 2, 5/2 or 2.5, with a decimal exponent of at most "
                f"{MAX_EXPONENT}; got {_shown(value)}"
            )
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


def _shown(value: object) -> str:
    """``value`` for an error message: its exact string, shortened when longer than 30 characters."""
    number = isinstance(value, (Fraction, int))
    text = exact_str(value) if number else repr(value)
    if len(text) <= 30:
        return text
    unit = "digits" if number and Fraction(value).denominator == 1 else "characters"  # type: ignore[arg-type]
    return f"{text[:6]}...({len(text)} {unit})"


def _bound(limit: int) -> str:
    """``10^12`` for a power of ten, else the integer."""
    power = len(str(limit)) - 1
    return f"10^{power}" if limit == 10**power and power > 6 else str(limit)


def parse_positive(value: object, name: str, limit: int = MAX_PARAMETER) -> Fraction:
    """An exact rational > 0 whose numerator and denominator are at most ``limit`` (:data:`MAX_PARAMETER`).

    >>> parse_positive("5/2", "b")
    Fraction(5, 2)
    >>> parse_positive("1e30", "b")
    Traceback (most recent call last):
    ...
    exactpoker.errors.InvalidParameterError: b must be a rational p/q > 0 with p and q at most 10^12; got 100000...(31 digits)
    """
    number = to_fraction(value, name)
    if number <= 0:
        raise InvalidParameterError(f"{name} must be > 0; got {_shown(number)}")
    if number.numerator > limit or number.denominator > limit:
        raise InvalidParameterError(
            f"{name} must be a rational p/q > 0 with p and q at most {_bound(limit)}; got {_shown(number)}"
        )
    return number


def parse_int(value: object, name: str, minimum: int, maximum: int | None = None, hint: str = "") -> int:
    """An integer in ``[minimum, maximum]`` (``maximum`` defaults to :data:`MAX_PARAMETER`).

    ``hint`` is added to the error message; the message names the upper limit
    when one was given or the value passed the default one.
    """
    limit = MAX_PARAMETER if maximum is None else maximum
    tail = f" ({hint})" if hint else ""
    try:
        number = to_fraction(value, name)
    except InvalidParameterError:
        upper = "" if maximum is None else f" and <= {_bound(maximum)}"
        raise InvalidParameterError(
            f"{name} must be an integer >= {minimum}{upper}; got {_shown(value)}{tail}"
        ) from None
    if number.denominator != 1 or number < minimum or number > limit:
        upper = "" if maximum is None and number <= limit else f" and <= {_bound(limit)}"
        raise InvalidParameterError(f"{name} must be an integer >= {minimum}{upper}; got {_shown(number)}{tail}")
    return int(number)


def to_sympy(value: "Fraction | int | AlgebraicNumber") -> sympy.Expr:
    """The sympy number equal to ``value`` (a Rational, or an exact algebraic expression)."""
    if isinstance(value, AlgebraicNumber):
        return value.to_sympy()
    value = Fraction(value)
    return sympy.Rational(value.numerator, value.denominator)


def exact_str(value: object) -> str:
    """``"p/q"``, ``"0"`` or ``"1"``: the exact string used in JSON output."""
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, Fraction):  # read its parts: no new Fraction (hundreds of thousands in a big table)
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return str(value)
