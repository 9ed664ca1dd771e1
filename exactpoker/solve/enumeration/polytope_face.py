"""A face of a polyhedron ``{z >= 0 : A z = b}`` held at one vertex by an exact simplex tableau.

The face is the polyhedron with some coordinates held at 0 (``forced``: they
never enter the basis).  The tableau is ``det * B^{-1} A`` and ``det * B^{-1} b``
in integers, kept by fraction-free pivots (Edmonds 1967; the pivot of
:func:`exactpoker.solve.enumeration.vertices.fraction_free_pivot`).  Each
question about the face is a small linear program solved exactly by the
primal simplex method with Bland's rule, which cannot cycle however degenerate
the face is (Bland, "New finite pivoting rules for the simplex method",
Math. Oper. Res. 2, 1977):

* :meth:`Face.force` -- minimise ``z_k`` and hold it at 0 (False: ``z_k > 0``
  on the whole face);
* :meth:`Face.raises` / :meth:`Face.is_point` -- maximise a sum of coordinates
  that are 0 at the vertex held (0 everywhere: the face is that vertex alone);
* :meth:`Face.positive_everywhere` -- the coordinates that no point of the face
  sets to 0.

:func:`face_vertices` lists every vertex of a face by the lexicographic
enumeration of :func:`exactpoker.solve.enumeration.vertices.vertices`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Sequence

import numpy as np
from flint import fmpq_mat

from exactpoker.solve.algebra.linear import independent_rows
from exactpoker.solve.enumeration.vertices import first_feasible_basis, fraction_free_pivot, vertices

__all__ = ["Face", "Point", "face_vertices"]

Point = tuple[Fraction, ...]


class Face:
    """A face ``{z >= 0 : A z = b, z_k = 0 for k in forced}`` at one of its vertices (module docstring)."""

    __slots__ = ("T", "rhs", "det", "basic", "forced", "witnesses", "stuck", "required")

    def __init__(self, T: np.ndarray, rhs: np.ndarray, det: int, basic: list[int], forced: int = 0,
                 witnesses: tuple[int, ...] = (), stuck: int = 0, required: int = 0) -> None:
        self.T, self.rhs, self.det, self.basic, self.forced = T, rhs, det, basic, forced
        #: the positive coordinates (bit masks) of points known to lie in the face; and coordinates known > 0 on it
        self.witnesses, self.stuck = witnesses, stuck
        #: coordinates that the points sought have > 0 (never forced; see :meth:`require`)
        self.required = required

    @classmethod
    def of(cls, A: Sequence[Sequence[int]], b: Sequence[int]) -> "Face":
        """The polyhedron ``{z >= 0 : A z = b}`` itself (``A`` integers of full row rank, ``b >= 0``)."""
        return cls(*first_feasible_basis(A, b))

    def copy(self) -> "Face":
        """An independent face (a pivot builds new arrays, so the arrays are shared until one pivots)."""
        return Face(self.T, self.rhs, self.det, list(self.basic), self.forced, self.witnesses, self.stuck,
                    self.required)

    @property
    def width(self) -> int:
        return int(self.T.shape[1])

    def _pivot(self, row: int, column: int) -> None:
        self.T, self.rhs, self.det = fraction_free_pivot(self.T, self.rhs, self.det, row, column)
        self.basic[row] = column

    def positive(self) -> int:
        """The bit mask of the coordinates > 0 at the vertex held."""
        return sum(1 << c for c, v in zip(self.basic, self.rhs) if v)

    def values(self) -> dict[int, Fraction]:
        """The vertex held, as its nonzero coordinates."""
        return {c: Fraction(int(v), int(self.det)) for c, v in zip(self.basic, self.rhs) if v}

    def point(self) -> Point:
        """The vertex held, exactly."""
        values = self.values()
        return tuple(values.get(j, Fraction(0)) for j in range(self.width))

    def _free_nonbasic(self) -> list[int]:
        basic = set(self.basic)
        return [j for j in range(self.width) if not (self.forced >> j & 1) and j not in basic]

    def _ratio_row(self, column: int) -> int | None:
        """Bland's leaving row: least ``rhs_i / T_ij`` over ``T_ij > 0``, ties to the least basic index; None: a ray."""
        best = None
        for i in np.flatnonzero(self.T[:, column] > 0).tolist():
            if best is None:
                best = i
                continue
            left, right = self.rhs[i] * self.T[best, column], self.rhs[best] * self.T[i, column]
            if left < right or (left == right and self.basic[i] < self.basic[best]):
                best = i
        return best

    def force(self, column: int) -> bool:
        """Hold ``z_column`` at 0; False when every point of the face has it > 0, or it is required > 0 (the face
        is then unusable)."""
        if self.required >> column & 1:
            return False
        if column in self.basic:
            row = self.basic.index(column)
            while self.rhs[row] > 0:  # minimise z_column: its own row is the objective
                entering = next((j for j in self._free_nonbasic() if self.T[row, j] > 0), None)
                if entering is None:
                    return False
                leaving = self._ratio_row(entering)
                if self.rhs[leaving] * self.T[row, entering] == self.rhs[row] * self.T[leaving, entering]:
                    leaving = row  # z_column reaches 0 at this step: it leaves
                self._pivot(leaving, entering)
                if leaving == row:
                    break
            if self.basic[row] == column:  # basic at 0: out by a degenerate pivot where a free column allows one
                entering = next((j for j in self._free_nonbasic() if self.T[row, j] != 0), None)
                if entering is not None:
                    self._pivot(row, entering)
        self.forced |= 1 << column
        self.witnesses = tuple(w for w in self.witnesses if not w >> column & 1)
        return True

    def raises(self, targets: int) -> bool:
        """Whether a point of the face has a coordinate of the mask ``targets`` > 0 (maximise their sum).

        Degenerate pivots may change the basis; the vertex held stays the same.
        """
        if self.positive() & targets:
            return True
        while True:
            rows = [i for i, c in enumerate(self.basic) if targets >> c & 1]
            entering = next((j for j in self._free_nonbasic()
                             if self.det * (targets >> j & 1) - self.T[rows, j].sum() > 0), None)
            if entering is None:
                return False
            leaving = self._ratio_row(entering)
            if leaving is None or self.rhs[leaving] > 0:
                return True
            self._pivot(leaving, entering)

    def require(self, column: int) -> bool:
        """Seek only points with ``z_column > 0``; False when the face has none.

        The points of a face with given coordinates > 0 are not a face, but
        they exist exactly when each of those coordinates is > 0 at some point
        (the mean of such points has them all > 0), which is what is checked.
        """
        self.required |= 1 << column
        return self.required_possible()

    def required_possible(self) -> bool:
        """Whether some point of the face has every required coordinate > 0."""
        need = self.required & ~self.positive()
        for witness in self.witnesses:
            need &= ~witness
        while need:
            column = (need & -need).bit_length() - 1
            if not self.copy().raises(1 << column):
                return False
            need &= ~(1 << column)
        return True

    def is_point(self) -> bool:
        """Whether the face is the vertex held alone."""
        free = self._free_nonbasic()
        return not free or not self.raises(sum(1 << j for j in free))

    def positive_everywhere(self, among: int) -> int:
        """The coordinates of the mask ``among`` that are > 0 at every point of the face.

        A coordinate whose row has no positive entry in a free column is > 0
        from its row alone; any other is minimised (on a copy), and every vertex
        reached that way shows more coordinates that can be 0.  Both kinds of
        knowledge pass to the faces forced from this one: a coordinate > 0 on a
        face is > 0 on its faces, and a point found stays a witness of the
        coordinates it has at 0 while none of its positive ones is forced.
        """
        among_all, among = among, among & ~self.stuck
        free = np.ones(self.width, dtype=bool)
        free[[j for j in range(self.width) if self.forced >> j & 1]] = False
        free[self.basic] = False
        lowered = (self.T[:, free] > 0).any(axis=1).tolist() if free.any() else [False] * len(self.basic)
        can_be_zero = ~self.positive()
        for witness in self.witnesses:
            can_be_zero |= ~witness
        stuck = 0
        screen = _FloatScreen(self, free)
        for row, column in enumerate(self.basic):
            if not (among >> column & 1) or can_be_zero >> column & 1:
                continue
            if not lowered[row]:
                stuck |= 1 << column
                continue
            seen = screen.reaches_zero(row)
            if isinstance(seen, int):  # floats found a point with it at 0: not > 0 everywhere (or so it seems)
                can_be_zero |= ~seen
                self.witnesses += (seen,)
                continue
            if seen is not None and self.certifies_positive(column, seen):
                stuck |= 1 << column
                continue
            probe = self.copy()
            if probe.force(column):
                can_be_zero |= ~probe.positive()
                self.witnesses += (probe.positive(),)
            else:
                stuck |= 1 << column
        self.stuck |= stuck
        return self.stuck & among_all

    def certifies_positive(self, column: int, basis: list[int]) -> bool:
        """Whether ``basis`` proves ``z_column > 0`` on the whole face, exactly.

        With ``B'`` that basis (``column`` in it), every point of the face has
        ``z_column = (B'^{-1} b)_r - sum_j (B'^{-1} A)_rj z_j`` over the columns
        ``j`` outside ``B'``; if that constant is > 0 and every coefficient of a
        free column is <= 0 (forced ones are 0), ``z_column`` is > 0 everywhere,
        whether or not ``B'`` is feasible.  The row is ``u^T [T | rhs]`` with
        ``M^T u = e_r``, ``M = T[:, B']`` (``= det B^{-1} B'``).
        """
        M = fmpq_mat([[int(self.T[i, c]) for c in basis] for i in range(len(basis))]).transpose()
        unit = fmpq_mat(len(basis), 1, [int(c == column) for c in basis])
        try:
            u = M.solve(unit)
        except ZeroDivisionError:  # a singular basis from the floats: no proof
            return False
        scale = math.lcm(*(int(u[i, 0].q) for i in range(len(basis))))
        weights = np.array([int(u[i, 0] * scale) for i in range(len(basis))], dtype=object)
        row, value = weights @ self.T, weights @ self.rhs
        if value <= 0:
            return False
        outside = set(basis)
        return all(row[j] <= 0 for j in range(self.width) if j not in outside and not self.forced >> j & 1)

    def implicit_zeros(self) -> int:
        """The free coordinates that are 0 at every point of the face (its implicit equalities), as a bit mask."""
        can_be_positive = self.positive()
        zeros = 0
        for j in range(self.width):
            if self.forced >> j & 1 or can_be_positive >> j & 1:
                continue
            if self.copy().raises(1 << j):
                can_be_positive |= 1 << j
            else:
                zeros |= 1 << j
        return zeros


class _FloatScreen:
    """The face's tableau in floats, to find quickly a point where a coordinate is 0 (a screen, never a proof).

    :meth:`Face.positive_everywhere` only ever *skips* an exact test on what
    this finds: a wrong answer here can cost a missed cut, never an equilibrium
    (a coordinate is declared > 0 everywhere only by the exact simplex).
    """

    TOLERANCE = 1e-9
    MAX_PIVOTS = 60

    def __init__(self, face: Face, free: np.ndarray) -> None:
        scale = float(face.det)
        self.T = face.T.astype(float) / scale
        self.rhs = face.rhs.astype(float) / scale
        self.basic = list(face.basic)
        self.free = free
        self.forced = face.forced

    def reaches_zero(self, row: int) -> int | list[int] | None:
        """Minimise the basic coordinate of ``row`` (Bland's rule).  Returns the positive coordinates (a bit
        mask) of a point reached where it is 0; or, where it seems > 0 everywhere, the basis at the minimum
        (a list of columns: :meth:`Face.certifies_positive` checks it exactly); or None (no clear answer)."""
        T, rhs, basic, free = self.T.copy(), self.rhs.copy(), list(self.basic), self.free.copy()
        tol = self.TOLERANCE
        for _ in range(self.MAX_PIVOTS):
            if rhs[row] <= tol:
                return sum(1 << c for c, v in zip(basic, rhs) if v > tol)
            candidates = np.flatnonzero(free & (T[row] > tol))
            if not candidates.size:
                return basic
            j = int(candidates[0])
            column = T[:, j].copy()
            ratios = np.full(len(rhs), np.inf)
            positive = column > tol
            ratios[positive] = np.maximum(rhs[positive], 0.0) / column[positive]
            i = int(np.argmin(ratios))
            if ratios[row] <= ratios[i] + tol:
                i = row
            pivot_row, pivot_rhs = T[i] / column[i], rhs[i] / column[i]
            T -= np.outer(column, pivot_row)
            T[i] = pivot_row
            rhs -= column * pivot_rhs
            rhs[i] = pivot_rhs
            free[j] = False
            free[basic[i]] = not (self.forced >> basic[i] & 1)
            basic[i] = j
            if i == row:
                return sum(1 << c for c, v in zip(basic, rhs) if v > tol)
        return None


def face_vertices(A: Sequence[Sequence[int]], b: Sequence[int], face: Face, *, what: str) -> list[Point]:
    """Every vertex of ``face`` (a non-empty face of ``{z >= 0 : A z = b}``), in all coordinates.

    The columns held at 0 on the face, forced or implicitly, are dropped and so
    are dependent rows: what is left has a point with every coordinate > 0, so
    its lexicographic perturbation is feasible and
    :func:`~exactpoker.solve.enumeration.vertices.vertices` applies (with its
    limit on bases, named by ``what``).
    """
    width = face.width
    dropped = face.forced | face.implicit_zeros()
    kept = [j for j in range(width) if not dropped >> j & 1]
    reduced = [[row[j] for j in kept] for row in A]
    rows = independent_rows(reduced)
    if not rows:  # every coordinate is 0 on the face: it is the origin alone
        return [tuple(Fraction(0) for _ in range(width))]
    found = vertices([reduced[i] for i in rows], [b[i] for i in rows], what=what)
    out = []
    for point in found.points:
        z = [Fraction(0)] * width
        for j, value in zip(kept, point):
            z[j] = value
        out.append(tuple(z))
    return out
