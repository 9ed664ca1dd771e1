"""Integer multilinear polynomials on a box of 0/1 coordinates: their vertex values and strict signs, exactly.

A multilinear polynomial (degree at most one in each variable) attains its
range over a box at the box's vertices.  Seed 001 (Nash--Shapley) section 6
decides condition (C) case by case on such boxes: some coordinates fixed at 0
or 1, some free in ``[0, 1]``, some known to lie in the *open* interval
``(0, 1)``.  This module holds the generic part:

* :func:`bitmask_poly`: a sympy polynomial as ``{monomial bitmask: integer}``;
* :func:`vertex_values`: every polynomial's value at every vertex of the box
  (fixed coordinates substituted, a subset-sum transform,
  :func:`~exactpoker.solve.algebra.open_box.vertex_sums`), integer arithmetic only;
* :func:`positive_on_open_box`: whether a polynomial is ``> 0`` on the box
  whose interior coordinates are open.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import sympy

from exactpoker.solve.algebra.open_box import vertex_sums

__all__ = ["Poly", "bitmask_poly", "vertex_values", "positive_on_open_box"]

#: A multilinear polynomial with integer coefficients: monomial bitmask over the variables -> coefficient.
Poly = dict[int, int]


def bitmask_poly(expr: sympy.Expr, symbols: Sequence[sympy.Symbol]) -> Poly:
    """``expr`` (integer coefficients, multilinear in ``symbols``) as ``{bitmask: coefficient}``; bit ``k`` is ``symbols[k]``."""
    poly = sympy.Poly(expr, *symbols)
    result: Poly = {}
    for exponents, coefficient in poly.terms():
        mask = sum(1 << k for k, e in enumerate(exponents) if e)
        result[mask] = result.get(mask, 0) + int(coefficient)
    return result


def vertex_values(polys: Sequence[Poly], zeros: int, ones: int, interior: int = 0) -> list[np.ndarray]:
    """Each polynomial's value at every vertex of the box (the bits of ``zeros``/``ones`` fixed, the rest 0/1).

    Each array has one axis of length 2 per free coordinate that is not in
    ``interior`` (the first axis) and one per free coordinate in ``interior``
    (the second): shape ``(2^u, 2^i)``; all the arrays share the same
    vertices (the free coordinates of any of the polynomials).
    """
    reduced = []
    free = 0
    for poly in polys:
        r: Poly = {}
        for mask, c in poly.items():
            if mask & zeros:
                continue
            m = mask & ~ones
            r[m] = r.get(m, 0) + c
        reduced.append(r)
        for m in r:
            free |= m
    coordinates = range(free.bit_length())
    bits = [k for k in coordinates if free >> k & 1 and not interior >> k & 1]
    bits += [k for k in coordinates if free >> k & 1 and interior >> k & 1]
    inner = sum(1 for k in bits if interior >> k & 1)
    size = 1 << len(bits)
    values = []
    for r in reduced:
        table = np.zeros(size, dtype=object if len(bits) > 20 else np.int64)
        for m, c in r.items():
            compact = sum(1 << j for j, k in enumerate(bits) if m >> k & 1)
            table[compact] += c
        vertex_sums(table)
        values.append(table.reshape(1 << inner, -1).T)  # the interior bits are the high ones
    return values


def positive_on_open_box(values: np.ndarray) -> bool:
    """Whether a multilinear polynomial is ``> 0`` on the box whose interior coordinates are open.

    ``values`` has shape ``(2^u, 2^i)`` (:func:`vertex_values`).  At a point
    of the open interior box every interior vertex has a positive weight, so
    the polynomial is positive there when, for each vertex of the other
    coordinates, its values are ``>= 0`` with one ``> 0``; a point with the
    other coordinates inside their box is a mixture of those.
    """
    return bool(np.all(values >= 0) and np.all(values.max(axis=1) > 0))
