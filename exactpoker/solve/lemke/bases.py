"""The basis of a revised Lemke path: a sparse LU factorization updated by eta vectors, in floats or exactly.

The revised simplex method (Dantzig and Orchard-Hays, "The product form for
the inverse in the simplex method", Mathematical Tables and Other Aids to
Computation 8, 1954; Chvátal, *Linear Programming*, 1983, ch. 7 and 24) keeps
no tableau: it keeps the basis matrix ``B`` factorized, solves ``B d = a`` for
the entering column ("FTRAN") and ``B^T u = e_i`` for a row of ``B^-1``
("BTRAN"), and after a pivot in row ``r`` with ``d = B^-1 a`` records the
*eta* vector ``d``: the new basis is ``B E`` with ``E`` the identity whose
column ``r`` is ``d``, so ``(B E)^-1 = E^-1 B^-1``.  Every ``refactor_every``
pivots the basis is factorized afresh.  :class:`FloatBasis` factorizes with
SuperLU (``scipy.sparse.linalg.splu``, COLAMD column order); :class:`ExactBasis`
with the exact block triangular form of
:class:`~exactpoker.solve.lp.sparse_exact.BlockTriangular`, its vectors sparse
dictionaries of python-flint rationals.

The columns are those of Lemke's system ``I w - M z - d z0 = q``
(:class:`~exactpoker.solve.lemke.sparse.SparseLCP`): variable ``i < n`` is
``w_i``, ``n + j`` is ``z_j``, ``2 n`` is the artificial ``z0``.  Both
classes offer the same operations, so one path-following loop
(:func:`exactpoker.solve.lemke.sparse.follow`) drives either; their ratio tests
implement the lexicographic rule (the least ``(x_i, B^-1_i) / d_i``
lexicographically over the rows with ``d_i > 0``), which makes Lemke's path
unique and finite on degenerate games -- exactly in :class:`ExactBasis`, with
tolerances as a guide in :class:`FloatBasis`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

import numpy as np
from flint import fmpq

from exactpoker.errors import DegenerateSystemError
from exactpoker.lazy import lazy
from exactpoker.solve.lp.sparse_exact import BlockTriangular

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.solve.lemke.sparse import SparseLCP

sp = lazy("scipy.sparse")
sparse_linalg = lazy("scipy.sparse.linalg")

__all__ = ["FloatBasis", "ExactBasis", "REFACTOR_EVERY"]

#: Pivots between two fresh factorizations of the basis.
REFACTOR_EVERY = 40

_ZERO = fmpq(0)


class FloatBasis:
    """A basis of Lemke's system in floating point: SuperLU factors and an eta file (a guide only).

    Parameters
    ----------
    lcp : SparseLCP
        The problem.
    basic : list of int
        The basic variable of each row (modified in place by :meth:`replace`).
    tol : float
        Pivot and tie tolerance.

    Raises
    ------
    DegenerateSystemError
        If the basis is singular in floating point.
    """

    exact = False

    def __init__(self, lcp: "SparseLCP", basic: list[int], tol: float = 1e-9,
                 refactor_every: int = REFACTOR_EVERY) -> None:
        self.lcp, self.basic, self.tol, self.refactor_every = lcp, basic, tol, refactor_every
        self.refactor()

    def refactor(self) -> None:
        """Factorize the basis afresh; forget the eta file."""
        matrix = self.lcp.float_system[:, self.basic]
        try:
            self.lu = sparse_linalg.splu(matrix, permc_spec="COLAMD")
        except RuntimeError:
            raise DegenerateSystemError("the float basis of Lemke's path is singular") from None
        self.etas: list[tuple[int, np.ndarray, np.ndarray, float]] = []

    def ftran(self, column: dict[int, int]) -> np.ndarray:
        """``B^-1 a`` for the column ``a`` (``{row: entry}``)."""
        a = np.zeros(self.lcp.n)
        for i, v in column.items():
            a[i] = v
        y = self.lu.solve(a)
        for r, index, values, pivot in self.etas:
            yr = y[r] / pivot
            if yr:
                y[index] -= values * yr
            y[r] = yr
        return y

    def btran(self, rows: np.ndarray) -> np.ndarray:
        """Rows ``rows`` of ``B^-1``, one per row of the result (all solved at once)."""
        v = np.zeros((self.lcp.n, len(rows)))
        v[rows, np.arange(len(rows))] = 1.0
        for r, index, values, pivot in reversed(self.etas):
            v[r] = (v[r] - values @ v[index]) / pivot
        return self.lu.solve(v, trans="T").T

    def values(self) -> np.ndarray:
        """The basic solution ``B^-1 q``."""
        return self.ftran(dict(enumerate(self.lcp.q)))

    def replace(self, row: int, d: np.ndarray, var: int, x: np.ndarray) -> np.ndarray:
        """Pivot ``var`` (``d = B^-1 a``) into ``row``; the new basic solution (recomputed at a refactor)."""
        t = x[row] / d[row]
        x = x - t * d
        x[row] = t
        self.basic[row] = var
        nonzero = np.flatnonzero(d)
        nonzero = nonzero[nonzero != row]
        self.etas.append((row, nonzero, d[nonzero], float(d[row])))
        if len(self.etas) >= self.refactor_every:
            self.refactor()
            return self.values()
        return x

    def choose_row(self, x: np.ndarray, d: np.ndarray) -> int | None:
        """The leaving row by the lexicographic ratio test, with tolerances; ``None`` on a ray."""
        rows = np.flatnonzero(d > self.tol * max(1.0, float(np.abs(d).max())))
        if not len(rows):
            return None
        ratios = np.maximum(x[rows], 0.0) / d[rows]
        best = ratios.min()
        tied = rows[ratios <= best + self.tol * (1 + abs(best))]
        if len(tied) > 1:
            tied = self._lexicographic(tied, d)
        return int(tied[0])

    def _lexicographic(self, tied: np.ndarray, d: np.ndarray) -> np.ndarray:
        """The tied rows whose ``B^-1`` row over ``d_i`` is lexicographically least (within the tolerance)."""
        table = self.btran(tied) / d[tied][:, None]
        tol = self.tol * np.maximum(1.0, np.abs(table).max(axis=0))  # relative to each column's size
        for j in np.flatnonzero(np.ptp(table, axis=0) > tol):
            column = table[:, j]
            keep = column <= column.min() + tol[j]
            table, tied = table[keep], tied[keep]
            if len(tied) == 1:
                break
        return tied


class ExactBasis:
    """A basis of Lemke's system in exact rational arithmetic: block triangular exact LU and an exact eta file.

    Vectors ``d = B^-1 a`` are sparse (``{row: fmpq}``); the basic solution is
    a list of ``fmpq``, updated exactly at every pivot.

    Raises
    ------
    DegenerateSystemError
        If the basis is singular.
    """

    exact = True

    def __init__(self, lcp: "SparseLCP", basic: list[int], refactor_every: int = REFACTOR_EVERY) -> None:
        self.lcp, self.basic, self.refactor_every = lcp, basic, refactor_every
        self.refactor()

    def refactor(self) -> None:
        """Factorize the basis afresh, exactly; forget the eta file."""
        self.factor = BlockTriangular([self.lcp.column(var) for var in self.basic])
        self.etas: list[tuple[int, dict[int, fmpq]]] = []

    def ftran(self, column: dict[int, int]) -> dict[int, fmpq]:
        """``B^-1 a`` for the column ``a`` (``{row: entry}``), as ``{row: value}`` without zeros."""
        y = self.factor.solve([column.get(i, 0) for i in range(self.lcp.n)])
        for r, d in self.etas:
            yr = y[r] / d[r]
            if yr:
                for i, v in d.items():
                    if i != r:
                        y[i] -= v * yr
            y[r] = yr
        return {i: v for i, v in enumerate(y) if v}

    def btran(self, row: int) -> list[fmpq]:
        """Row ``row`` of ``B^-1``."""
        v = [_ZERO] * self.lcp.n
        v[row] = fmpq(1)
        for r, d in reversed(self.etas):
            total = v[r]
            for i, value in d.items():
                if i != r and v[i]:
                    total -= value * v[i]
            v[r] = total / d[r]
        return self.factor.solve_transpose(v)

    def values(self) -> list[fmpq]:
        """The basic solution ``B^-1 q``."""
        d = self.ftran(dict(enumerate(self.lcp.q)))
        return [d.get(i, _ZERO) for i in range(self.lcp.n)]

    def replace(self, row: int, d: dict[int, fmpq], var: int, x: list[fmpq]) -> list[fmpq]:
        """Pivot ``var`` (``d = B^-1 a``) into ``row``; the new basic solution, exactly."""
        t = x[row] / d[row]
        for i, v in d.items():
            x[i] -= t * v
        x[row] = t
        self.basic[row] = var
        self.etas.append((row, d))
        if len(self.etas) >= self.refactor_every:
            self.refactor()
        return x

    def choose_row(self, x: Sequence[fmpq], d: dict[int, fmpq]) -> int | None:
        """The leaving row by the lexicographic ratio test, exactly; ``None`` on a ray."""
        best: fmpq | None = None
        tied: list[int] = []
        for i, v in d.items():
            if v > 0:
                ratio = x[i] / v
                if best is None or ratio < best:
                    best, tied = ratio, [i]
                elif ratio == best:
                    tied.append(i)
        if not tied:
            return None
        if len(tied) == 1:
            return tied[0]
        return min(tied, key=lambda i: [v / d[i] for v in self.btran(i)])
