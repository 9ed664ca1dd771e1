"""Exact sign checks of rational functions on a half-line (used by the continuous certificates)."""

from __future__ import annotations

import sympy

__all__ = ["nonnegative_for_positive"]


def nonnegative_for_positive(expr: sympy.Expr, var: sympy.Symbol, strict: bool = False) -> bool:
    """Whether the rational function ``expr`` of ``var`` is >= 0 (> 0 if ``strict``) for every ``var > 0``.

    Numerator and denominator are polynomials; if neither has a positive real
    root (found exactly by sympy's real-root isolation), the sign is the same
    on the whole half-line, and one rational sample point decides it.
    """
    expr = sympy.cancel(sympy.together(expr))
    if expr == 0:
        return not strict
    numerator, denominator = sympy.fraction(expr)
    for part in (numerator, denominator):
        if any(root > 0 for root in sympy.real_roots(sympy.Poly(part, var))):
            return False
    return bool(expr.subs(var, 1) > 0)
