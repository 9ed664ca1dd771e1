"""The sequence-form linear program of a two-player zero-sum game.

Koller, Megiddo and von Stengel (1996).  With ``A`` player I's payoff matrix in
sequence form (``u_I = x^T A y``), ``E x = e`` and ``F y = f`` the realization
constraints of the two players, player I's problem is

.. math::

    \\max_{x, q} \\; f^T q \\quad \\text{s.t.} \\quad F^T q - A^T x \\le 0,\\;
    E x = e,\\; x \\ge 0,\\; q \\text{ free},

and the multipliers of its inequality rows are player II's realization plan
``y``.  Row 0 of ``E`` (and ``F``) says that the empty sequence has weight 1;
row ``1 + I`` says that the actions at information set ``I`` share the weight
of the sequence leading to it.  For von Neumann poker this is exactly the
paper's card-by-card LP (VN-I, seed 000 section 2); in general it has one
constraint per sequence instead of one per pure strategy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from exactpoker.core.compiled import CompiledGame, PlayerLayout
from exactpoker.lazy import lazy

sp = lazy("scipy.sparse")

__all__ = ["SequenceFormLP", "SparseEntries", "StandardLP", "realization_entries", "realization_matrix",
           "payoff_numerators", "sequence_form_lp", "standard_lp"]


@dataclass(frozen=True)
class SparseEntries:
    """A sparse matrix as its entries: coordinates sorted by row, then column, each at most once.

    What the float guide asks of the sequence-form matrices (a product with a
    vector, the transpose, the columns for HiGHS) without ``scipy.sparse``,
    whose import is a third of a small game's whole solve (issue 42, item 8).
    The products add in the order ``scipy.sparse`` does (each row's entries
    by column), so the floats are the same to the last bit.
    """

    rows: np.ndarray
    cols: np.ndarray
    values: np.ndarray
    shape: tuple[int, int]

    @classmethod
    def of(cls, rows: np.ndarray, cols: np.ndarray, values: np.ndarray, shape: tuple[int, int]) -> "SparseEntries":
        """The matrix with ``values`` at ``(rows, cols)``, repeated coordinates added."""
        rows, cols = np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64)
        keys, where = np.unique(rows * shape[1] + cols, return_inverse=True)
        values = np.asarray(values)
        summed = np.zeros(len(keys), dtype=values.dtype)
        np.add.at(summed, where, values)
        return cls(keys // shape[1], keys % shape[1], summed, shape)

    @property
    def T(self) -> "SparseEntries":  # noqa: N802  (the name numpy and scipy give the transpose)
        return SparseEntries.of(self.cols, self.rows, self.values, (self.shape[1], self.shape[0]))

    def __neg__(self) -> "SparseEntries":
        return SparseEntries(self.rows, self.cols, -self.values, self.shape)

    def __matmul__(self, vector: np.ndarray) -> np.ndarray:
        return np.bincount(self.rows, weights=self.values * vector[self.cols], minlength=self.shape[0])

    def astype(self, dtype: type) -> "SparseEntries":
        return SparseEntries(self.rows, self.cols, self.values.astype(dtype), self.shape)

    def toarray(self) -> np.ndarray:
        dense = np.zeros(self.shape, dtype=self.values.dtype)
        dense[self.rows, self.cols] = self.values
        return dense


def realization_entries(layout: PlayerLayout) -> SparseEntries:
    """``E`` with ``E x = e``: rows (root, one per information set), one column per sequence.

    Row ``1 + i`` holds ``-1`` at information set ``i``'s parent sequence and
    ``+1`` at each of its own sequences (every sequence but the empty one is
    some information set's action: ``layout.sequence_infoset``).
    """
    infosets, sequences = layout.num_infosets, layout.num_sequences
    parents = np.fromiter((layout.parent_sequence(i) for i in range(infosets)), np.int64, infosets)
    owners = np.asarray(layout.sequence_infoset[1:], dtype=np.int64)
    rows = np.concatenate([[0], 1 + np.arange(infosets, dtype=np.int64), 1 + owners])
    cols = np.concatenate([[0], parents, np.arange(1, sequences, dtype=np.int64)])
    vals = np.concatenate([[1], np.full(infosets, -1, dtype=np.int64), np.ones(sequences - 1, dtype=np.int64)])
    return SparseEntries.of(rows, cols, vals, (1 + infosets, sequences))


def realization_matrix(layout: PlayerLayout) -> sp.csr_matrix:
    """:func:`realization_entries` as a ``scipy.sparse`` matrix (the paths that go on to sparse algebra)."""
    entries = realization_entries(layout)
    return sp.csr_matrix((entries.values, (entries.rows, entries.cols)), shape=entries.shape, dtype=np.int64)


def payoff_numerators(compiled: CompiledGame, player: int) -> list[list[int]]:
    """Player ``player``'s sequence-form payoff matrix of a two-player game, exact integers over ``D``.

    Entry ``[s][t]`` (``s`` player 0's sequence, ``t`` player 1's) times
    ``1 / compiled.denominator`` is ``player``'s payoff weight, so that
    ``u_player = x^T M y / D``.
    """
    first, second = compiled.layouts
    matrix = [[0] * second.num_sequences for _ in range(first.num_sequences)]
    for (s, t), coefficient in zip(compiled.sequences.tolist(), compiled.coefficients[:, player].tolist()):
        matrix[s][t] += int(coefficient)
    return matrix


@dataclass(frozen=True)
class SequenceFormLP:
    """Player I's sequence-form LP with integer data (payoffs scaled by ``D``).

    Variables are ``x`` (player I's sequences) followed by ``q`` (one per row
    of ``F``); the objective maximizes ``q_0``, which equals ``D`` times the
    game value at the optimum.
    """

    payoff: SparseEntries  # A, scaled by the compiled denominator
    E: SparseEntries
    F: SparseEntries
    denominator: int

    @property
    def num_x(self) -> int:
        return self.E.shape[1]

    @property
    def num_q(self) -> int:
        return self.F.shape[0]


def sequence_form_lp(compiled: CompiledGame) -> SequenceFormLP:
    """Build the sequence-form LP of a two-player zero-sum compiled game."""
    rows, cols, vals = compiled.payoff_matrix()
    first, second = compiled.layouts
    payoff = SparseEntries.of(rows, cols, vals.astype(np.float64) if vals.dtype == object else vals,
                              (first.num_sequences, second.num_sequences))
    return SequenceFormLP(payoff, realization_entries(first), realization_entries(second), compiled.denominator)


@dataclass(frozen=True)
class StandardLP:
    """An LP with exact integer data: ``max c^T v`` s.t. ``M v <= b`` (first ``num_ineq`` rows), ``M v = b`` (the rest).

    ``v_j >= 0`` for ``j < num_nonneg``; the later variables are free.  The
    matrix is kept as exact Python integers, column by column, so nothing is
    lost however large the payoffs are; :meth:`csc` gives a floating-point
    copy for a float solver.
    """

    columns: Sequence[dict[int, int]]  # column j: row -> entry (a tuple, or built on first use)
    rhs: tuple[int, ...]
    cost: dict[int, int]
    num_ineq: int
    num_nonneg: int
    floats: tuple[np.ndarray, np.ndarray, np.ndarray] | None = field(default=None, compare=False, repr=False)

    @property
    def num_rows(self) -> int:
        return len(self.rhs)

    @property
    def num_cols(self) -> int:
        return len(self.columns)

    def csc(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The constraint matrix in floating point, compressed by column: ``(starts, row indices, values)``."""
        if self.floats is not None:
            return self.floats
        starts = np.zeros(self.num_cols + 1, dtype=np.int64)
        starts[1:] = np.cumsum([len(col) for col in self.columns])
        rows = np.fromiter((i for col in self.columns for i in col), dtype=np.int32, count=int(starts[-1]))
        values = np.fromiter((float(v) for col in self.columns for v in col.values()), dtype=np.float64,
                             count=int(starts[-1]))
        return starts, rows, values


def standard_lp(compiled: CompiledGame) -> StandardLP:
    """Player I's sequence-form LP (the module docstring) as a :class:`StandardLP`.

    Variables: ``x`` (player I's sequences, ``>= 0``) then ``q`` (one per row
    of ``F``, free); rows: one ``F^T q - A^T x <= 0`` per player II sequence,
    then ``E x = e``.  The objective ``q_0`` is ``D`` times the game value, and
    the multipliers of the first rows are player II's realization plan.

    The matrix is assembled as integer arrays (a stable sort by column keeps
    each column's entries in the compiled game's order: ``-A^T`` first, then
    ``E``), and its floating-point copy for HiGHS is kept with it.
    """
    rows, cols, vals = compiled.payoff_matrix()
    first, second = compiled.layouts
    num_x, num_y = first.num_sequences, second.num_sequences
    kept = vals != 0
    e, f = realization_entries(first), realization_entries(second)
    column = np.concatenate([rows[kept], e.cols, num_x + f.rows]).astype(np.int64)
    row = np.concatenate([cols[kept], num_y + e.rows, f.cols]).astype(np.int64)
    value = np.concatenate([-vals[kept], e.values.astype(vals.dtype), f.values.astype(vals.dtype)])
    order = np.argsort(column, kind="stable")
    column, row, value = column[order], row[order], value[order]
    num_cols = num_x + 1 + second.num_infosets
    starts = np.searchsorted(column, np.arange(num_cols + 1)).astype(np.int64)
    num_rows = num_y + 1 + first.num_infosets
    rhs = tuple(1 if i == num_y else 0 for i in range(num_rows))
    floats = (starts, row.astype(np.int32), value.astype(np.float64))
    return StandardLP(_Columns(starts, row, value), rhs, {num_x: 1}, num_y, num_x, floats)


class _Columns(Sequence):
    """A :class:`StandardLP`'s exact columns (``{row: entry}`` each), built from its arrays on first use.

    The float solve reads the arrays and the exact finish usually reconstructs
    the vertex from them (:mod:`exactpoker.solve.lp.reconstruct`): the dicts are
    only made when an exact solve of the basis or a pivot asks for a column.
    """

    def __init__(self, starts: np.ndarray, rows: np.ndarray, values: np.ndarray) -> None:
        self.starts, self.rows, self.values = starts, rows, values

    @cached_property
    def _built(self) -> tuple[dict[int, int], ...]:
        row_list, value_list = self.rows.tolist(), self.values.tolist()
        if self.values.dtype == object:  # Python integers already, unless numpy's slipped in
            value_list = [int(v) for v in value_list]
        bounds = self.starts.tolist()
        return tuple(dict(zip(row_list[a:b], value_list[a:b])) for a, b in zip(bounds[:-1], bounds[1:]))

    def __len__(self) -> int:
        return len(self.starts) - 1

    def __getitem__(self, j):  # type: ignore[no-untyped-def]  # an index or a slice, as a tuple's
        return self._built[j]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]  # like the tuple of dicts it stands for: dicts are unhashable
