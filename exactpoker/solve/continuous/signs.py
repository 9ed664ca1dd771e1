"""Exact signs of a polynomial in the hand on an interval: is ``D(x) >= 0`` for every ``x`` in ``[lo, hi]``?

The coefficients and the end points are exact numbers of one field
(rationals, or :class:`~exactpoker.algebraic.AlgebraicNumber` s of the cut
points' field), so every sign below is decided exactly:

* degree 0 and 1 (two players): the values at both end points;
* degree 2 (three players): the end points, and the vertex ``-c_1 / (2 c_2)``
  when the parabola opens upwards and the vertex lies inside;
* degree 3 and more: the end points, then Sturm's theorem on the polynomial
  (with a root at an end point divided out exactly) counts its distinct
  roots inside; none means one sign throughout.  A polynomial that touches
  zero inside the interval without changing sign is not decided (reported
  as such: the certificate fails rather than guess).
"""

from __future__ import annotations

from typing import Any, Sequence

from exactpoker.solve.continuous.payoffs import Poly, evaluate

__all__ = ["trim", "is_zero", "nonnegative_on"]


def trim(p: Sequence[Any]) -> Poly:
    """``p`` without its zero leading coefficients."""
    coefficients = list(p)
    while coefficients and coefficients[-1] == 0:
        coefficients.pop()
    return tuple(coefficients)


def is_zero(p: Sequence[Any]) -> bool:
    return not trim(p)


def nonnegative_on(p: Sequence[Any], low: Any, high: Any) -> tuple[bool, str]:
    """Whether ``p >= 0`` on ``[low, high]`` (``low < high``), and how it was decided (module docstring)."""
    poly = trim(p)
    if not poly:
        return True, "identically zero"
    if evaluate(poly, low) < 0 or evaluate(poly, high) < 0:
        return False, "negative at an end point"
    if len(poly) <= 2:
        return True, "end points (linear)"
    if len(poly) == 3:
        c0, c1, c2 = poly
        if c2 > 0:
            vertex = -c1 / (2 * c2)
            if low < vertex < high and evaluate(poly, vertex) < 0:
                return False, "negative at the vertex"
        return True, "end points and vertex (quadratic)"
    return _sturm_nonnegative(poly, low, high)


def _divide_root(p: Poly, root: Any) -> Poly:
    """``p / (x - root)`` for a root of ``p`` (synthetic division, exact)."""
    quotient: list[Any] = []
    carry: Any = 0
    for c in reversed(p[1:]):
        carry = carry * root + c
        quotient.append(carry)
    return tuple(reversed(quotient))


def _sturm_nonnegative(p: Poly, low: Any, high: Any) -> tuple[bool, str]:
    while evaluate(p, low) == 0:  # x - low > 0 inside: the sign is the quotient's
        p = trim(_divide_root(p, low))
    while evaluate(p, high) == 0:  # x - high < 0 inside
        p = trim(tuple(-c for c in _divide_root(p, high)))
    if evaluate(p, low) < 0 or evaluate(p, high) < 0:
        return False, "negative next to an end point"
    roots = _sign_changes(_sturm_chain(p), low) - _sign_changes(_sturm_chain(p), high)
    if roots:
        return False, f"not decided: {roots} roots inside (Sturm)"
    return True, "end points and Sturm's theorem (no root inside)"


def _derivative(p: Poly) -> Poly:
    return tuple(k * c for k, c in enumerate(p) if k)


def _remainder(p: Poly, q: Poly) -> Poly:
    p = list(p)
    while len(p) >= len(q) and p:
        factor = p[-1] / q[-1]
        shift = len(p) - len(q)
        for k, c in enumerate(q):
            p[shift + k] = p[shift + k] - factor * c
        p = list(trim(p[:-1]))
    return tuple(p)


def _sturm_chain(p: Poly) -> list[Poly]:
    chain = [p, trim(_derivative(p))]
    while chain[-1]:
        chain.append(tuple(-c for c in _remainder(chain[-2], chain[-1])))
    return chain[:-1]


def _sign_changes(chain: list[Poly], x: Any) -> int:
    signs = [v for v in (evaluate(q, x) for q in chain) if v != 0]
    return sum(1 for a, b in zip(signs, signs[1:]) if (a > 0) != (b > 0))
