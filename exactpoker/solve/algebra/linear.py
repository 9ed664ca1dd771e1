"""Exact linear algebra over Q that more than one stage needs: a maximal set of independent rows."""

from __future__ import annotations

from typing import Sequence

from flint import fmpq_mat

__all__ = ["independent_rows"]


def independent_rows(rows: Sequence[Sequence[int]]) -> list[int]:
    """The rows, in order, that each raise the rank (a greedy basis of the row space), by one exact ``rref``.

    They are the pivot columns of the reduced echelon form of the transposed matrix (python-flint's
    ``fmpq_mat.rref``).
    """
    if not rows or not rows[0]:
        return []
    width = len(rows[0])
    reduced, rank = fmpq_mat(width, len(rows), [int(row[k]) for k in range(width) for row in rows]).rref()
    pivots, column = [], 0
    for r in range(rank):
        while reduced[r, column] == 0:
            column += 1
        pivots.append(column)
    return pivots
