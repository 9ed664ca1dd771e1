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
exactly with python-flint (``fmpq_mat.solve``), and the solves with ``K``
and ``K^T`` go forward and backward through the same blocks.
"""

from __future__ import annotations

from graphlib import TopologicalSorter

import numpy as np
import scipy.sparse as sp
from flint import fmpq, fmpq_mat
from scipy.sparse.csgraph import connected_components, maximum_bipartite_matching

from exactpoker.errors import DegenerateSystemError

__all__ = ["BlockTriangular"]

_ZERO = fmpq(0)


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
        self.columns = [{i: fmpq(v) for i, v in col.items() if v} for col in columns]
        self.rows: list[dict[int, fmpq]] = [{} for _ in range(n)]
        for j, col in enumerate(self.columns):
            for i, v in col.items():
                self.rows[i][j] = v
        self.blocks = self._blocks() if n else []

    def _blocks(self) -> list[tuple[list[int], list[int], fmpq_mat]]:
        """Diagonal blocks ``(rows, columns, exact block)``, each depending only on earlier ones."""
        n = self.size
        entries = [(i, j) for i, row in enumerate(self.rows) for j in row]
        pattern = sp.csr_matrix(
            (np.ones(len(entries)), ([i for i, _ in entries], [j for _, j in entries])), shape=(n, n)
        )
        match = maximum_bipartite_matching(pattern, perm_type="column")  # row i <-> column match[i]
        if np.any(match < 0):
            raise DegenerateSystemError("the basis matrix is structurally singular")
        owner = np.empty(n, dtype=np.int64)
        owner[match] = np.arange(n)  # the row matched to each column
        # row i's equation involves the unknown of column j, owned by row owner[j]
        graph = sp.csr_matrix(
            (np.ones(len(entries)), ([i for i, _ in entries], [owner[j] for _, j in entries])), shape=(n, n)
        )
        count, label = connected_components(graph, directed=True, connection="strong")
        members: list[list[int]] = [[] for _ in range(count)]
        for i, b in enumerate(label.tolist()):
            members[b].append(i)
        needs = TopologicalSorter({b: set() for b in range(count)})
        for i, j in entries:
            if label[i] != label[owner[j]]:
                needs.add(int(label[i]), int(label[owner[j]]))
        blocks = []
        for b in needs.static_order():
            rows = members[b]
            cols = [int(match[i]) for i in rows]
            blocks.append((rows, cols, self._dense(rows, cols)))
        return blocks

    def _dense(self, rows: list[int], cols: list[int]) -> fmpq_mat:
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
        x: list[fmpq] = [_ZERO] * self.size
        for rows, cols, block in self.blocks:
            inside = set(cols)
            local = []
            for i in rows:
                total = fmpq(rhs[i])
                for j, v in self.rows[i].items():
                    if j not in inside and x[j]:
                        total -= v * x[j]
                local.append(total)
            for j, value in zip(cols, _solve(block, local)):
                x[j] = value
        return x

    def solve_transpose(self, rhs: list[object]) -> list[fmpq]:
        """``w`` with ``K^T w = rhs`` (``rhs`` by column, ``w`` by row)."""
        w: list[fmpq] = [_ZERO] * self.size
        for rows, cols, block in reversed(self.blocks):
            inside = set(rows)
            local = []
            for j in cols:
                total = fmpq(rhs[j])
                for i, v in self.columns[j].items():
                    if i not in inside and w[i]:
                        total -= v * w[i]
                local.append(total)
            for i, value in zip(rows, _solve(block.transpose(), local)):
                w[i] = value
        return w


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
