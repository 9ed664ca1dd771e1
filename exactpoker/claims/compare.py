"""How a printed claim relates to the exact value exactpoker computes.

Verdicts:

``exact``
    The printed value is the computed one (rationals equal, symbolic
    expressions simplify to the same thing, structures equal).
``rounding``
    The printed value is a decimal, and the exact value rounded to nearest,
    or truncated, at the printed number of digits gives it.
``approximation``
    The printed value is a fraction that is not the exact value but is its
    best rational approximation with a denominator no larger than the printed
    one (typical of floating-point results converted back to fractions).
``disagrees``
    Anything else.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

import sympy

__all__ = ["compare", "VERDICTS"]

VERDICTS = ("exact", "rounding", "approximation", "disagrees")


def compare(printed: Any, computed: Any, *, up_to_positive_factor: bool = False, parameters: tuple[str, ...] = ("P", "a", "b", "t")) -> str:
    """The verdict for one printed value against the computed one.

    With ``up_to_positive_factor`` a printed expression is ``exact`` when it is
    the computed one times a factor that depends only on the game's
    ``parameters`` and is positive for all their (positive) values.
    """
    if isinstance(printed, (bool, int)) or isinstance(printed, (list, dict)):
        return "exact" if printed == computed else "disagrees"
    if isinstance(computed, sympy.Basic) and computed.free_symbols:
        names = {symbol.name: symbol for symbol in computed.free_symbols}
        expression = sympy.sympify(printed, locals=names)
        if up_to_positive_factor:
            ratio = sympy.cancel(expression / computed)
            constant = all(symbol.name in parameters for symbol in ratio.free_symbols)
            return "exact" if constant and bool(ratio.is_positive) else "disagrees"
        difference = sympy.simplify(expression - computed)
        return "exact" if difference == 0 else "disagrees"
    exact = _as_number(computed)
    if exact is None:
        return "exact" if printed == computed else "disagrees"
    text = str(printed).strip()
    if "." in text or "e" in text.lower():
        return _decimal_verdict(text, exact)
    value = Fraction(text)
    if value == exact:
        return "exact"
    if isinstance(exact, Fraction) and exact.limit_denominator(value.denominator) == value:
        return "approximation"
    return "disagrees"


def _as_number(value: Any) -> Fraction | sympy.Expr | None:
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return Fraction(value)
    if isinstance(value, sympy.Rational):
        return Fraction(int(value.p), int(value.q))
    if isinstance(value, sympy.Expr) and value.is_number:
        return value
    if isinstance(value, str):
        try:
            return Fraction(value)
        except ValueError:
            return None
    return None


def _decimal_verdict(text: str, exact: Fraction | sympy.Expr) -> str:
    """``rounding`` when the printed decimal is the exact value rounded to nearest or truncated."""
    try:
        printed = Decimal(text)
    except InvalidOperation:
        return "disagrees"
    places = -printed.as_tuple().exponent  # digits after the point
    unit = sympy.Rational(1, 10**places) if places > 0 else sympy.Integer(10 ** (-places))
    shown = Fraction(printed)
    if isinstance(exact, Fraction) and shown == exact:
        return "exact"
    value = sympy.Rational(exact.numerator, exact.denominator) if isinstance(exact, Fraction) else exact
    difference = value - sympy.Rational(shown.numerator, shown.denominator)
    nearest = bool(sympy.N(abs(difference) - unit / 2, 60) <= 0)
    truncated = bool(sympy.N(abs(value), 60) >= abs(shown)) and bool(sympy.N(abs(difference) - unit, 60) < 0) and (
        shown == 0 or bool(sympy.N(value, 60) * shown > 0)
    )
    return "rounding" if nearest or truncated else "disagrees"
