"""Exact solves with a sparse square integer matrix, block by block in block triangular form.

The basis matrices of sequence-form LPs are very sparse and break into many
small diagonal blocks and one large one.  The block triangular form is found
as Duff and Reid do it (I. S. Duff, J. K. Reid, "An implementation of
Tarjan's algorithm for the block triangularization of a matrix", ACM TOMS 4,
1978): a maximum transversal puts nonzeros on the diagonal
(``scipy.sparse.csgraph.maximum_bipartite_matching``), then the strongly
connected components of the matrix's graph are the diagonal blocks
(``scipy.sparse.csgraph.connected_components``), taken in topological order.
Only the pattern is computed in floating point; every block is solved
exactly, and the solves with ``K`` and ``K^T`` go forward and backward
through the same blocks.  A small block is solved densely by python-flint
(``fmpq_mat.solve``).  A large one gets exact sparse LU factors
(:class:`_SparseLU`), computed in the row and column order that SuperLU
chooses in floating point (``scipy.sparse.linalg.splu`` with the COLAMD
fill-reducing column order: Davis, Gilbert, Larimore and Ng, ACM TOMS 30,
2004), so the exact factors stay as sparse as the float ones; where that
order meets an exactly zero pivot, the block is solved densely instead.
"""

from __future__ import annotations

from graphlib import TopologicalSorter

import numpy as np
from flint import fmpq, fmpq_mat

from exactpoker.errors import DegenerateSystemError
from exactpoker.lazy import lazy

sp = lazy("scipy.sparse")
csgraph = lazy("scipy.sparse.csgraph")
sparse_linalg = lazy("scipy.sparse.linalg")

__all__ = ["BlockTriangular"]

_ZERO = fmpq(0)
_DENSE_LIMIT = 40  # blocks up to this size are solved densely


class BlockTriangular:
    """A square exact sparse matrix ``K``, ready for :meth:`solve` and :meth:`solve_transpose`.

    Parameters
    ----------
    columns : list of dict
        Column ``j`` of ``K`` as ``{row: entry}``; rows and columns are
        numbered ``0..n-1``.

    Raises
    ------
    DegenerateSystemError
        If ``K`` is structurally singular (no transversal); a numerically
        singular block raises it when solved.
    """

    def __init__(self, columns: list[dict[int, object]]) -> None:
        n = len(columns)
        self.size = n
        # integers stay Python integers (flint multiplies and divides them with fmpq exactly); others become fmpq
        self.columns = [{i: v if type(v) is int else fmpq(v) for i, v in col.items() if v} for col in columns]
        self.rows: list[dict[int, fmpq | int]] = [{} for _ in range(n)]
        for j, col in enumerate(self.columns):
            for i, v in col.items():
                self.rows[i][j] = v
        if n <= _DENSE_LIMIT:  # one dense block: no ordering needed
            self.blocks = [(list(range(n)), list(range(n)), _Dense(self._dense(list(range(n)), list(range(n)))))]
        else:
            self.blocks = self._blocks()

    def _blocks(self) -> list[tuple[list[int], list[int], "_Scalar | _Dense | _SparseLU"]]:
        """Diagonal blocks ``(rows, columns, exact block)``, each depending only on earlier ones."""
        n = self.size
        counts = np.fromiter((len(row) for row in self.rows), np.int64, n)
        at_row = np.repeat(np.arange(n, dtype=np.int64), counts)
        at_col = np.fromiter((j for row in self.rows for j in row), np.int64, int(counts.sum()))
        ones = np.ones(len(at_row))
        pattern = sp.csr_matrix((ones, (at_row, at_col)), shape=(n, n))
        match = csgraph.maximum_bipartite_matching(pattern, perm_type="column")  # row i <-> column match[i]
        if np.any(match < 0):
            raise DegenerateSystemError("the basis matrix is structurally singular")
        owner = np.empty(n, dtype=np.int64)
        owner[match] = np.arange(n)  # the row matched to each column
        # row i's equation involves the unknown of column j, owned by row owner[j]
        needed = owner[at_col]
        graph = sp.csr_matrix((ones, (at_row, needed)), shape=(n, n))
        count, label = csgraph.connected_components(graph, directed=True, connection="strong")
        order = np.argsort(label, kind="stable")
        bounds = np.searchsorted(label[order], np.arange(count + 1)).tolist()
        members, partner = order.tolist(), match.tolist()
        blocks = []
        for b in _dependency_order(count, label[at_row], label[needed]):
            rows = members[bounds[b]:bounds[b + 1]]
            cols = [partner[i] for i in rows]
            blocks.append((rows, cols, self._factor(rows, cols)))
        return blocks

    def _factor(self, rows: list[int], cols: list[int]) -> "_Scalar | _Dense | _SparseLU":
        if len(rows) == 1:  # most blocks of a sequence-form basis: one unknown, one equation
            return _Scalar(self.rows[rows[0]][cols[0]])
        if len(rows) > _DENSE_LIMIT:
            at = {j: k for k, j in enumerate(cols)}
            local = [{at[j]: fmpq(v) for j, v in self.rows[i].items() if j in at} for i in rows]
            try:
                return _SparseLU(local)
            except ZeroDivisionError:  # the float order met an exact zero pivot
                pass
        return _Dense(self._dense(rows, cols))

    def _dense(self, rows: list[int], cols: list[int]) -> fmpq_mat:
        """The block as a dense exact matrix."""
        at = {j: k for k, j in enumerate(cols)}
        entries = [_ZERO] * (len(rows) * len(cols))
        for r, i in enumerate(rows):
            for j, v in self.rows[i].items():
                k = at.get(j)
                if k is not None:
                    entries[r * len(cols) + k] = v
        return fmpq_mat(len(rows), len(cols), entries)

    def solve(self, rhs: list[object]) -> list[fmpq]:
        """``x`` with ``K x = rhs`` (``rhs`` by row, ``x`` by column)."""
        return self._substitute(rhs, transpose=False)

    def solve_transpose(self, rhs: list[object]) -> list[fmpq]:
        """``w`` with ``K^T w = rhs`` (``rhs`` by column, ``w`` by row)."""
        return self._substitute(rhs, transpose=True)

    def _substitute(self, rhs: list[object], *, transpose: bool) -> list[fmpq]:
        """Block substitution through the block triangular form: forward on ``K``, backward on ``K^T``.

        Each block's equations (rows of ``K``, or columns for ``K^T``) lose the
        terms of unknowns already known; a 1 x 1 block is then one division,
        a larger one its own exact solve.
        """
        lines = self.columns if transpose else self.rows
        unknown: list[fmpq] = [_ZERO] * self.size
        for rows, cols, block in (reversed(self.blocks) if transpose else self.blocks):
            equations, unknowns = (cols, rows) if transpose else (rows, cols)
            if isinstance(block, _Scalar):  # most blocks: one equation, one unknown, not yet known
                (e,), (u,) = equations, unknowns
                total = fmpq(rhs[e])
                for k, v in lines[e].items():
                    if unknown[k]:
                        total -= v * unknown[k]
                unknown[u] = total / block.entry
                continue
            inside = set(unknowns)
            local = []
            for e in equations:
                total = fmpq(rhs[e])
                for k, v in lines[e].items():
                    if k not in inside and unknown[k]:
                        total -= v * unknown[k]
                local.append(total)
            solved = block.solve_transpose(local) if transpose else block.solve(local)
            for u, value in zip(unknowns, solved):
                unknown[u] = value
        return unknown


class _Scalar:
    """A 1 x 1 block: its entry (nonzero, the transversal put it on the diagonal); solved inline by one division."""

    def __init__(self, entry: "fmpq | int") -> None:
        self.entry = entry


class _Dense:
    """A small block, solved by python-flint."""

    def __init__(self, block: fmpq_mat) -> None:
        self.block = block

    def solve(self, rhs: list[fmpq]) -> list[fmpq]:
        return _solve(self.block, rhs)

    def solve_transpose(self, rhs: list[fmpq]) -> list[fmpq]:
        return _solve(self.block.transpose(), rhs)


class _SparseLU:
    """Exact sparse LU factors ``K[rows[p], cols[k]] = (L U)[p, k]`` in SuperLU's order.

    ``L`` is unit lower triangular, kept by column; ``U`` upper triangular,
    kept by row.  Gaussian elimination in that fixed order (no exact
    pivoting: an exactly zero pivot raises ``ZeroDivisionError``).
    """

    def __init__(self, rows: list[dict[int, fmpq]]) -> None:
        n = len(rows)
        entries = [(i, j, float(v)) for i, row in enumerate(rows) for j, v in row.items()]
        pattern = sp.csc_matrix(
            ([v for _, _, v in entries], ([i for i, _, _ in entries], [j for _, j, _ in entries])), shape=(n, n)
        )
        try:
            lu = sparse_linalg.splu(pattern, permc_spec="COLAMD")
        except RuntimeError:  # singular in floating point: no order to borrow
            raise ZeroDivisionError("no float LU order") from None
        self.row_of = np.empty(n, dtype=np.int64)
        self.row_of[lu.perm_r] = np.arange(n)  # permuted row p is row row_of[p]
        self.col_of = np.empty(n, dtype=np.int64)
        self.col_of[lu.perm_c] = np.arange(n)  # permuted column k is column col_of[k]
        position = {int(j): k for k, j in enumerate(self.col_of)}
        work = [{position[j]: v for j, v in rows[int(i)].items()} for i in self.row_of]
        below: list[set[int]] = [set() for _ in range(n)]  # rows that may hold column k under the diagonal
        for p, row in enumerate(work):
            for k in row:
                if k < p:
                    below[k].add(p)
        self.lower: list[dict[int, fmpq]] = [{} for _ in range(n)]
        for k in range(n):
            pivot_row = work[k]
            pivot = pivot_row.get(k)
            if not pivot:
                raise ZeroDivisionError("zero pivot")
            for p in sorted(below[k]):
                row = work[p]
                entry = row.pop(k, None)
                if not entry:
                    continue
                factor = entry / pivot
                self.lower[k][p] = factor
                for c, v in pivot_row.items():
                    if c <= k:
                        continue
                    updated = row.get(c, _ZERO) - factor * v
                    if updated:
                        row[c] = updated
                        if c < p:
                            below[c].add(p)
                    else:
                        row.pop(c, None)
        self.upper = work

    def solve(self, rhs: list[fmpq]) -> list[fmpq]:
        n = len(rhs)
        y = [fmpq(rhs[int(i)]) for i in self.row_of]
        for k in range(n):
            if y[k]:
                for p, factor in self.lower[k].items():
                    y[p] -= factor * y[k]
        z = [_ZERO] * n
        for k in reversed(range(n)):
            total = y[k]
            for c, v in self.upper[k].items():
                if c > k and z[c]:
                    total -= v * z[c]
            z[k] = total / self.upper[k][k]
        x = [_ZERO] * n
        for k, j in enumerate(self.col_of):
            x[int(j)] = z[k]
        return x

    def solve_transpose(self, rhs: list[fmpq]) -> list[fmpq]:
        n = len(rhs)
        t = [fmpq(rhs[int(j)]) for j in self.col_of]
        for k in range(n):  # U^T t' = t, U^T lower triangular
            t[k] /= self.upper[k][k]
            if t[k]:
                for c, v in self.upper[k].items():
                    if c > k:
                        t[c] -= v * t[k]
        for k in reversed(range(n)):  # L^T w = t', L^T unit upper triangular
            for p, factor in self.lower[k].items():
                if t[p]:
                    t[k] -= factor * t[p]
        w = [_ZERO] * n
        for p, i in enumerate(self.row_of):
            w[int(i)] = t[p]
        return w


def _dependency_order(count: int, needing: np.ndarray, needed: np.ndarray) -> list[int]:
    """The blocks ``0..count-1`` in an order where block ``needed[e]`` comes before ``needing[e]`` (every ``e``).

    SciPy's strong components (Pearce's variant of Tarjan's algorithm) are
    numbered as they are completed, so a component comes after every one it
    reaches: label order already is such an order, which is checked here for
    every dependency at once; otherwise (a SciPy that numbers them another
    way) the order is a topological sort of the condensed graph.
    """
    across = needing != needed
    needing, needed = needing[across], needed[across]
    if not np.any(needed > needing):
        return list(range(count))
    pairs = np.unique(np.stack([needing, needed], axis=1), axis=0)
    sorter = TopologicalSorter({b: set() for b in range(count)})
    for b, before in pairs.tolist():
        sorter.add(b, before)
    return list(sorter.static_order())


def _solve(block: fmpq_mat, rhs: list[fmpq]) -> list[fmpq]:
    if block.nrows() == 1:
        if block[0, 0] == 0:
            raise DegenerateSystemError("the basis matrix is singular")
        return [rhs[0] / block[0, 0]]
    try:
        solution = block.solve(fmpq_mat(len(rhs), 1, rhs))
    except ZeroDivisionError:
        raise DegenerateSystemError("the basis matrix is singular") from None
    return [solution[k, 0] for k in range(len(rhs))]
