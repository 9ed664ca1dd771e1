"""Proof that a multilinear system has no solution in the open unit box: bisection, contraction, blow-up charts.

Seed 001 (Nash--Shapley) section 6: on a case of condition (C) the interior
coefficients solve ``Delta_u = 0`` (multilinear, integer coefficients) in the
open box ``(0, 1)^n``, subject to the inequalities ``Delta_v >= 0`` or
``<= 0`` of the other coefficients wherever their situation arises.  This
module proves that no point satisfies them, by three means:

* **bisection** (:func:`excluded_by_boxes`): a multilinear polynomial's range
  on a box is the range of its values at the box's vertices.  A sub-box goes
  when one equation keeps one strict sign on it, or a condition fails on all
  of it.  The vertex values are floats with a proved bound on the rounding
  error (Higham, *Accuracy and Stability of Numerical Algorithms*, 2002,
  sec. 3.1), so a sign decided is a sign proved;
* **contraction** (:func:`_contracted`): along one coordinate a multilinear
  polynomial is, at each vertex of the other coordinates, a straight line, and
  at any point of the box a mixture of those lines with positive weights; a
  slab of the box where all the lines of one equation keep one strict sign
  holds no zero and is cut off before the box is split (an interval
  consistency step in the manner of interval Newton methods);
* **blow-up charts** (:func:`excluded_by_charts`): when the equations vanish
  on a whole family of points of a face ``x_i = c_i, x_j = c_j`` *outside*
  the open box, no sub-box touching that face can ever be cut off.  With
  ``y = |x - c|`` the open box is covered by two charts, ``y_i = s y_j`` and
  ``y_j = s y_i`` with ``s`` in ``[0, 1]``; on the first every equation that
  vanishes on the face is ``y_i g + y_j h = y_j (s g + h)`` and is divided by
  ``y_j > 0`` (the second is the same with ``i`` and ``j`` exchanged).  The
  charts' systems are multilinear again, in one more unknown, and the face
  is spread out so that bisection can clear it (the blow-up of algebraic
  geometry, e.g. Cox, Little and O'Shea, *Ideals, Varieties, and
  Algorithms*, ch. 8).

``False`` from any of them means "not proved", never "there is a solution".
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

__all__ = ["Multilinear", "Condition", "without_face_factors", "excluded_by_boxes", "vanishing_faces", "face_charts", "excluded_by_charts"]

Multilinear = dict[int, int]  # monomial bitmask over the unknowns -> integer coefficient
#: ``(r, g)``: ``g >= 0`` is required wherever ``r > 0``.
Condition = tuple[Multilinear, Multilinear]

#: Rounds of contraction on one box before it is split.
CONTRACTION_ROUNDS = 24
#: A round that cuts less than this fraction of the box's widest side ends its contraction.
SMALLEST_CUT = 1e-3
#: Faces tried by :func:`excluded_by_charts`, most vanishing equations first.
MAX_FACES = 3


class _VertexTable:
    """Polynomials' values at every vertex of a box at once, with a proved bound on the rounding error.

    The monomials of all the polynomials are evaluated at the ``2^n``
    vertices (a product of at most ``n`` corner coordinates, each in
    ``[0, 1]``), then one matrix product with the coefficients gives every
    value.  Whatever the order of the sums, a value errs by at most
    ``gamma_k`` times the sum of its ``|coefficients|`` (``k = n + M + 1``,
    ``M`` the number of monomials; ``gamma_k = k u / (1 - k u)``,
    ``u = 2^-53``; doubled for safety).
    """

    def __init__(self, n: int, polys: Sequence[Multilinear]) -> None:
        self.n = n
        monomials = sorted({m for p in polys for m in p})
        index = {m: i for i, m in enumerate(monomials)}
        self.coefficients = np.zeros((len(monomials), len(polys)))
        size = np.zeros(len(polys))
        for j, p in enumerate(polys):
            for m, c in p.items():
                self.coefficients[index[m], j] = float(c)
                size[j] += abs(float(c))
        self.uses = [np.array([m >> j & 1 == 1 for m in monomials], dtype=bool) for j in range(n)]
        k = n + len(monomials) + 1
        unit = 2.0**-53
        self.error = 2 * k * unit / (1 - k * unit) * size * (1 + 4 * len(polys) * unit)
        self.vertices = np.arange(1 << n)

    def values(self, low: np.ndarray, high: np.ndarray) -> np.ndarray:
        """The computed values, one row per vertex (bit ``j`` of the row: coordinate ``j`` at ``high``)."""
        corners = np.where((self.vertices[:, None] >> np.arange(self.n)) & 1 == 1, high[None, :], low[None, :])
        monomials = np.ones((len(self.vertices), self.coefficients.shape[0]))
        for j in range(self.n):
            monomials[:, self.uses[j]] *= corners[:, j:j + 1]
        return monomials @ self.coefficients

    def signs(self, values: np.ndarray) -> np.ndarray:
        """Per polynomial: +1 / -1 if proved > 0 / < 0 on the closed box, else 0."""
        return np.where(values.min(axis=0) > self.error, 1, 0) - np.where(values.max(axis=0) < -self.error, 1, 0)


#: Slack, in fractions of a side, left on each cut for the rounding of a line's root.
_ROOT_SLACK = 1e-9


def _first_crossing(start: np.ndarray, end: np.ndarray, crossing: np.ndarray, reduce: str) -> float:
    """The first (``"min"``) or last (``"max"``) root in ``[0, 1]`` of the lines from ``start`` to ``end``."""
    roots = start[crossing] / (start[crossing] - end[crossing])
    return float(roots.min() if reduce == "min" else roots.max())


def _contracted(values: np.ndarray, error: np.ndarray, low: np.ndarray, high: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray] | None:
    """The box with the slabs cut off that hold no zero of an equation; None if nothing is left.

    ``values`` are the equations' computed vertex values and ``error`` their
    bounds.  Along coordinate ``k`` (position ``t`` in ``[0, 1]``) each
    equation is, at every point, a mixture of the lines joining its values at
    the vertex pairs ``(v, t = 0)``, ``(v, t = 1)``; the lines shifted up by
    the error bound lie above the true ones.  Where all shifted lines are
    < 0, so is the equation: from ``t = 0`` up to the first root of a shifted
    line (when all are < 0 at ``t = 0``), or from the last root to ``t = 1``.
    Likewise for > 0.  Every cut rests on the values at the given box's
    vertices, so all coordinates are cut from one evaluation.
    """
    upper, lower = values + error, values - error
    rows = np.arange(len(values))
    new_low, new_high = low.copy(), high.copy()
    for k in range(len(low)):
        width = high[k] - low[k]
        if width <= 0:
            continue
        at_low = rows[(rows >> k) & 1 == 0]
        at_high = at_low | (1 << k)
        up0, up1, lo0, lo1 = upper[at_low], upper[at_high], lower[at_low], lower[at_high]
        negative0, negative1 = up0.max(axis=0) < 0, up1.max(axis=0) < 0
        positive0, positive1 = lo0.min(axis=0) > 0, lo1.min(axis=0) > 0
        if np.any(negative0 & negative1) or np.any(positive0 & positive1):
            return None
        start, stop = 0.0, 1.0
        for q in np.flatnonzero(negative0):
            start = max(start, _first_crossing(up0[:, q], up1[:, q], up1[:, q] >= 0, "min") - _ROOT_SLACK)
        for q in np.flatnonzero(positive0):
            start = max(start, _first_crossing(lo0[:, q], lo1[:, q], lo1[:, q] <= 0, "min") - _ROOT_SLACK)
        for q in np.flatnonzero(negative1):
            stop = min(stop, _first_crossing(up0[:, q], up1[:, q], up0[:, q] >= 0, "max") + _ROOT_SLACK)
        for q in np.flatnonzero(positive1):
            stop = min(stop, _first_crossing(lo0[:, q], lo1[:, q], lo0[:, q] <= 0, "max") + _ROOT_SLACK)
        if start > stop:
            return None
        # the rounding of low + width * t errs by at most 3 units in the last place: 1e-15 more keeps it safe
        if start > 0:
            new_low[k] = max(low[k], low[k] + width * start - 1e-15)
        if stop < 1:
            new_high[k] = min(high[k], low[k] + width * stop + 1e-15)
        if new_low[k] > new_high[k]:
            return None
    return new_low, new_high


def without_face_factors(n: int, poly: Multilinear) -> Multilinear:
    """``poly`` divided by its factors ``x_k`` and ``1 - x_k``: the same sign at every point of the open box.

    A multilinear ``p0 + x_k p1`` that vanishes on the face ``x_k = 0`` is
    ``x_k p1``; one that vanishes on ``x_k = 1`` is ``(1 - x_k) (-p1)``.  Both
    factors are > 0 inside, but vanish on a face, where no sub-box touching it
    could otherwise be given a strict sign.
    """
    for k in range(n):
        if not poly:
            break
        with_k = {m & ~(1 << k): c for m, c in poly.items() if m >> k & 1}
        without_k = {m: c for m, c in poly.items() if not m >> k & 1}
        if not without_k:
            poly = with_k
        elif all(without_k.get(m, 0) == -c for m, c in with_k.items()) and len(without_k) == len(with_k):
            poly = {m: -c for m, c in with_k.items()}
    return poly


def excluded_by_boxes(n: int, equations: Sequence[Multilinear], conditions: Sequence[Condition],
                      budget: int = 2000) -> bool:
    """Whether bisection with contraction proves no point of the open box solves ``equations`` and ``conditions``.

    ``conditions`` are pairs ``(r, g)``: ``g >= 0`` is required where ``r > 0``.
    ``budget`` caps the number of sub-boxes examined; False means "not proved".
    """
    equations = [without_face_factors(n, p) for p in equations if p]
    conditions = [(without_face_factors(n, r), without_face_factors(n, g)) for r, g in conditions]
    table = _VertexTable(n, [*equations, *(r for r, _ in conditions), *(g for _, g in conditions)])
    e, c = len(equations), len(conditions)
    stack = [(np.zeros(n), np.ones(n))]
    for _ in range(budget):
        if not stack:
            return True
        box = _shrunk(table, e, c, *stack.pop())
        if box is not None:
            low, high = box
            j = int(np.argmax(high - low))
            middle = (low[j] + high[j]) / 2
            upper, lower = high.copy(), low.copy()
            upper[j], lower[j] = middle, middle
            stack += [(low, upper), (lower, high)]
    return not stack


def _shrunk(table: _VertexTable, e: int, c: int, low: np.ndarray, high: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray] | None:
    """The box after contraction (until a cut is small or after :data:`CONTRACTION_ROUNDS`), None if excluded.

    The table's first ``e`` polynomials are the equations, then the ``c``
    reaches ``r`` and the ``c`` conditions ``g`` of the pairs ``(r, g)``.
    """
    for _ in range(CONTRACTION_ROUNDS):
        values = table.values(low, high)
        signs = table.signs(values)
        if np.any(signs[:e] != 0) or np.any((signs[e:e + c] > 0) & (signs[e + c:] < 0)):
            return None
        cut = _contracted(values[:, :e], table.error[:e], low, high)
        if cut is None:
            return None
        cut_width = np.max((high - low) - (cut[1] - cut[0]))
        low, high = cut
        if cut_width < SMALLEST_CUT * np.max(high - low):
            break
    return low, high


def _restricted(poly: Multilinear, face: tuple[int, int, int, int]) -> Multilinear:
    """``poly`` on the face ``x_i = c_i, x_j = c_j`` (``face = (i, j, c_i, c_j)``)."""
    i, j, ci, cj = face
    out: Multilinear = {}
    for m, c in poly.items():
        if (m >> i & 1 and not ci) or (m >> j & 1 and not cj):
            continue
        rest = m & ~(1 << i) & ~(1 << j)
        out[rest] = out.get(rest, 0) + c
    return {m: c for m, c in out.items() if c}


def vanishing_faces(n: int, equations: Sequence[Multilinear]) -> list[tuple[int, int, int, int]]:
    """The faces ``x_i = c_i, x_j = c_j`` on which two or more equations vanish identically, most first."""
    counted = []
    for i in range(n):
        for j in range(i + 1, n):
            for ci in (0, 1):
                for cj in (0, 1):
                    face = (i, j, ci, cj)
                    count = sum(1 for p in equations if p and not _restricted(p, face))
                    if count >= 2:
                        counted.append((-count, face))
    return [face for _, face in sorted(counted)]


def _flipped(poly: Multilinear, k: int) -> Multilinear:
    """``poly`` with ``x_k`` replaced by ``1 - x_k`` (still multilinear)."""
    out: Multilinear = {}
    for m, c in poly.items():
        if m >> k & 1:
            rest = m & ~(1 << k)
            out[rest] = out.get(rest, 0) + c
            out[m] = out.get(m, 0) - c
        else:
            out[m] = out.get(m, 0) + c
    return {m: c for m, c in out.items() if c}


def face_charts(n: int, equations: Sequence[Multilinear], face: tuple[int, int, int, int]
                ) -> tuple[list[Multilinear], list[Multilinear]]:
    """The equations of the two blow-up charts of ``face = (i, j, c_i, c_j)``, in ``n + 1`` unknowns (``s`` last).

    With ``y_k = |x_k - c_k|``: the first chart is ``y_i = s y_j``, the second
    ``y_j = s y_i``; each adds that equation and divides the equations that
    vanish on the face by ``y_j`` (by ``y_i``).  Every zero of ``equations``
    in the open box gives a zero of one chart in ``[0, 1]^(n + 1)``, with the
    same ``x`` (so conditions on ``x`` carry over unchanged).
    """
    i, j, ci, cj = face
    s = n

    def in_y(poly: Multilinear) -> Multilinear:  # x -> y and back: the same involution
        for k, c in ((i, ci), (j, cj)):
            if c:
                poly = _flipped(poly, k)
        return poly

    def chart(small: int, large: int) -> list[Multilinear]:
        out = []
        for poly in equations:
            if _restricted(poly, face):
                out.append(poly)
                continue
            divided: Multilinear = {}
            for m, c in in_y(poly).items():  # y_small g + y_large h, y_small = s y_large: divide by y_large
                key = (m & ~(1 << small)) | (1 << s) if m >> small & 1 else m & ~(1 << large)
                divided[key] = divided.get(key, 0) + c
            out.append(in_y({m: c for m, c in divided.items() if c}))
        out.append(in_y({1 << small: 1, (1 << large) | (1 << s): -1}))
        return out

    return chart(i, j), chart(j, i)


def excluded_by_charts(n: int, equations: Sequence[Multilinear], conditions: Sequence[Condition],
                       budget: int = 2000) -> bool:
    """Whether, for one of the faces of :func:`vanishing_faces`, bisection excludes both blow-up charts.

    Tries at most :data:`MAX_FACES` faces, each chart with ``budget`` sub-boxes.
    """
    for face in vanishing_faces(n, equations)[:MAX_FACES]:
        if all(excluded_by_boxes(n + 1, chart, conditions, budget) for chart in face_charts(n, equations, face)):
            return True
    return False
