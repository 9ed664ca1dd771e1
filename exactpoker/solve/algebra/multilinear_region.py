"""The set where multilinear inequalities hold in the open unit box, described exactly.

Seed 001 (Nash--Shapley) section 6: where some behaviour coefficients are
free (their discriminants vanish identically), the equilibrium points form a
region of several parameters, cut out by inequalities ``g >= 0`` that are
multilinear in those parameters.  A multilinear polynomial's range on a box
is the range of its values at the box's vertices, so, exactly and in
rational arithmetic:

* a condition that is ``>= 0`` at every vertex of the current box holds on
  all of it and is dropped; one that is ``< 0`` at every vertex empties it;
* a condition in one unknown (after its factors ``x_k`` and ``1 - x_k`` are
  divided out: they are ``> 0`` in the open box,
  :func:`~exactpoker.solve.algebra.box_exclusion.without_face_factors`) is a bound
  ``x_k >= r`` or ``x_k <= r`` and shrinks the box;

repeated until nothing changes (:func:`box_region`).  What is left is a box
with rational sides and the conditions it does not settle: the region is
exactly their common solution set in the box.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from math import gcd
from typing import Sequence

from exactpoker.solve.algebra.box_exclusion import Multilinear, without_face_factors

__all__ = ["Region", "box_region", "value_at"]


@dataclass(frozen=True)
class Region:
    """``{x in [low, high] : g(x) >= 0 for every g in conditions}``, the closure of a region of the open box.

    ``low`` and ``high`` are exact bounds per unknown; ``conditions`` are the
    multilinear inequalities the box does not settle (integer coefficients,
    without common factors).
    """

    low: tuple[Fraction, ...]
    high: tuple[Fraction, ...]
    conditions: tuple[Multilinear, ...]

    def corners(self) -> list[tuple[Fraction, ...]]:
        """The box's vertices that meet every condition (each one once)."""
        found = []
        for corner in product(*zip(self.low, self.high)):
            if corner not in found and all(value_at(g, corner) >= 0 for g in self.conditions):
                found.append(corner)
        return found

    def centre(self) -> tuple[Fraction, ...]:
        return tuple((lo + hi) / 2 for lo, hi in zip(self.low, self.high))

    def contains(self, point: Sequence[Fraction]) -> bool:
        """Whether ``point`` lies in the box and meets every condition (exactly)."""
        return (all(lo <= x <= hi for lo, x, hi in zip(self.low, point, self.high))
                and all(value_at(g, point) >= 0 for g in self.conditions))


def value_at(poly: Multilinear, point: Sequence[Fraction]) -> Fraction:
    """The exact value of a multilinear polynomial at a point."""
    total = Fraction(0)
    for m, c in poly.items():
        term = Fraction(c)
        for k, x in enumerate(point):
            if m >> k & 1:
                term *= x
        total += term
    return total


def _vertex_values(poly: Multilinear, low: Sequence[Fraction], high: Sequence[Fraction]) -> list[Fraction]:
    return [value_at(poly, corner) for corner in product(*zip(low, high))]


def _normalised(poly: Multilinear) -> Multilinear:
    divisor = 0
    for c in poly.values():
        divisor = gcd(divisor, int(c))
    return {m: int(c) // divisor for m, c in poly.items()} if divisor > 1 else poly


def _single_unknown(poly: Multilinear) -> int | None:
    """The unknown ``k`` if ``poly`` is ``c0 + c1 x_k`` with ``c1 != 0``, else None."""
    used = 0
    for m in poly:
        used |= m
    if used and used & (used - 1) == 0:
        return used.bit_length() - 1
    return None


def box_region(n: int, conditions: Sequence[Multilinear], max_unknowns: int = 16) -> Region | None:
    """The region of the open box ``(0, 1)^n`` where every ``g >= 0``, its closure as a :class:`Region`.

    Returns None when the region is proved empty: a condition is negative on
    the whole box, or the bounds leave no point of the *open* box (a bound
    ``x_k >= 1`` or ``x_k <= 0``, or crossing bounds).  A returned region may
    still be empty when its remaining conditions exclude every point; its
    :meth:`Region.corners` and :meth:`Region.centre` are candidates to show
    it is not.  ``conditions`` must have integer coefficients.
    """
    if n > max_unknowns:
        raise ValueError(f"n must be at most {max_unknowns} (the vertices are enumerated), got {n}")
    low, high = [Fraction(0)] * n, [Fraction(1)] * n
    pending = [_normalised(without_face_factors(n, {m: int(c) for m, c in g.items() if c})) for g in conditions]
    pending = [g for g in pending if g]
    changed = True
    while changed:
        changed = False
        left = []
        for g in pending:
            values = _vertex_values(g, low, high)
            if min(values) >= 0:
                continue
            if max(values) < 0:
                return None
            k = _single_unknown(g)
            if k is None:
                if g not in left:
                    left.append(g)
                continue
            c0, c1 = Fraction(g.get(0, 0)), Fraction(g[1 << k])
            if c1 > 0:
                low[k] = max(low[k], -c0 / c1)
            else:
                high[k] = min(high[k], -c0 / c1)
            if low[k] > high[k] or low[k] >= 1 or high[k] <= 0:
                return None
            changed = True
        pending = left
    return Region(tuple(low), tuple(high), tuple(pending))
