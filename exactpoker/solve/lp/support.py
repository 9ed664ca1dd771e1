"""The exact finish of the zero-sum solver: an exact linear system on a guessed support.

On a given support, each player's realization plan is determined by its
weights at the information sets where it mixes.  Those few unknowns solve an
exact linear system: the opponent is indifferent between the actions it mixes
(continuation values follow the opponent's support by backward induction),
and the weights of each mixed information set add up to the weight of the
sequence leading to it.  At a degenerate vertex the opponent's unused but
equally good actions complete the system, as a basis is completed in the
simplex method.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from flint import fmpq, fmpq_mat

from exactpoker.core.compiled import PlayerLayout
from exactpoker.errors import DegenerateSystemError
from exactpoker.solve.algebra.linear import independent_rows

__all__ = ["solve_on_support"]

_SUPPORT_TOLERANCE = 1e-6
_TIGHT_TOLERANCE = 1e-6


def solve_on_support(
    own: PlayerLayout,
    own_float: np.ndarray,
    other: PlayerLayout,
    other_float: np.ndarray,
    own_index: np.ndarray,
    other_index: np.ndarray,
    values: np.ndarray,
) -> list[Fraction]:
    """Exact realization plan of ``own`` on the support read from the float guide.

    The unknowns are the weights of ``own``'s sequences at information sets
    where it mixes; every other supported sequence inherits the weight of the
    sequence leading to it.  The equations: the opponent is indifferent among
    the actions it mixes, and each mixed set's weights add up to its parent's.
    """
    other_support = _support(other, other_float)
    unknown_of, represent = _unknowns(own, _support(own, own_float))
    width = 1 + len(unknown_of)
    # g[t] = the opponent's payoff coefficient of its sequence t, affine in the unknowns
    column = np.array([represent.get(int(s), -1) for s in range(own.num_sequences)], dtype=np.int64)
    cols_of_entries = column[own_index]
    used = cols_of_entries >= 0
    g = np.zeros((other.num_sequences, width), dtype=object)
    np.add.at(g, (other_index[used], cols_of_entries[used]), values[used].astype(object))

    guide = np.zeros(width)
    guide[0] = 1.0
    for s, col in unknown_of.items():
        guide[col] = own_float[s]
    required: list[list[int]] = []
    optional: list[list[int]] = []
    # the opponent's indifference, with continuation values along its support
    worth: dict[int, np.ndarray] = {}
    for infoset in reversed(range(other.num_infosets)):
        seqs = list(other.infoset_sequences(infoset))
        supported = [t for t in seqs if t in other_support]
        if not supported:
            continue
        scores = {
            t: g[t] + sum((worth[j] for j in other.children[t] if j in worth), np.zeros(width, dtype=object))
            for t in seqs
        }
        anchor = scores[supported[0]]
        worth[infoset] = anchor
        anchor_float = float(np.dot(anchor.astype(np.float64), guide))
        for t in seqs:
            if t == supported[0]:
                continue
            row = list(scores[t] - anchor)
            if t in other_support:
                required.append(row)
            elif abs(float(np.dot(scores[t].astype(np.float64), guide)) - anchor_float) <= _TIGHT_TOLERANCE * (
                1.0 + abs(anchor_float)
            ):
                optional.append(row)  # unused but (nearly) as good: a candidate basis row
    # each mixed set's weights add up to its parent's weight
    for infoset in range(own.num_infosets):
        mixed = [s for s in own.infoset_sequences(infoset) if s in unknown_of]
        if mixed:
            row = [0] * width
            for s in mixed:
                row[unknown_of[s]] += 1
            row[represent[own.parent_sequence(infoset)]] -= 1
            required.append(row)
    solution = _solve_affine(required, optional, width)
    weights = [Fraction(0)] * own.num_sequences
    for s, col in represent.items():
        weights[s] = Fraction(1) if col == 0 else solution[col - 1]
    return weights


def _unknowns(own: PlayerLayout, own_support: set[int]) -> tuple[dict[int, int], dict[int, int]]:
    """The unknowns: each mixed sequence's column; and ``represent[s]``, the column carrying ``x_s`` (0: the constant 1).

    A supported sequence at an information set where ``own`` plays one action inherits its parent's column.
    """
    unknown_of: dict[int, int] = {}
    represent: dict[int, int] = {0: 0}
    for infoset in range(own.num_infosets):
        parent = own.parent_sequence(infoset)
        supported = [s for s in own.infoset_sequences(infoset) if s in own_support]
        if parent not in represent or not supported:
            continue
        if len(supported) == 1:
            represent[supported[0]] = represent[parent]
        else:
            for s in supported:
                unknown_of[s] = 1 + len(unknown_of)
                represent[s] = unknown_of[s]
    return unknown_of, represent


def _support(layout: PlayerLayout, weights: np.ndarray) -> set[int]:
    """Sequences with clearly positive weight, relative to the weight of their parent."""
    support = {0}
    for infoset in range(layout.num_infosets):
        parent = layout.parent_sequence(infoset)
        if parent not in support:
            continue
        for s in layout.infoset_sequences(infoset):
            if weights[s] > _SUPPORT_TOLERANCE * max(1.0, weights[parent]):
                support.add(s)
    return support


def _solve_affine(required: list[list[int]], optional: list[list[int]], width: int) -> list[Fraction]:
    """Solve ``row[0] + sum_k row[k] u_k = 0`` for the unique ``u``, or raise.

    All ``required`` rows must hold.  When they leave freedom (a degenerate
    vertex of the LP), ``optional`` rows, the opponent's unused but equally
    good actions, complete the system, as a basis is completed in the
    simplex: first all of them at once (they all hold at the guide's vertex),
    and if that is inconsistent, one at a time in order, each kept when it
    raises the rank (:func:`~exactpoker.solve.algebra.linear.independent_rows`).
    """
    unknowns = width - 1
    if optional:
        try:
            solution = _unique_solution(required + optional, width)
        except DegenerateSystemError:
            solution = None
        if solution is not None:
            return solution
    if required and _rank(required, 0) > _rank(required, 1):
        raise DegenerateSystemError("the support's equations are inconsistent")
    rows = required + optional
    chosen = independent_rows([row[1:width] for row in rows])[:unknowns]
    if len(chosen) < unknowns:
        raise DegenerateSystemError(f"the support's equations leave {unknowns - len(chosen)} degree(s) of freedom")
    return _unique_solution([rows[i] for i in chosen], width)  # type: ignore[return-value]


def _rank(rows: list[list[int]], first: int) -> int:
    """The rank of ``rows`` from column ``first`` on (0: with the constant, 1: the unknowns only)."""
    if len(rows[0]) <= first:
        return 0
    return fmpq_mat(len(rows), len(rows[0]) - first, [int(v) for row in rows for v in row[first:]]).rref()[1]


def _unique_solution(rows: list[list[int]], width: int) -> list[Fraction] | None:
    """The unique solution, ``None`` if the system leaves freedom; raises if it is inconsistent."""
    unknowns = width - 1
    if unknowns == 0:
        if any(any(row) for row in rows):
            raise DegenerateSystemError("the support's equations are inconsistent")
        return []
    if not rows:
        return None
    reduced, rank = fmpq_mat(len(rows), width, [int(v) for row in rows for v in (*row[1:], -row[0])]).rref()
    pivots = [next(c for c in range(width) if reduced[r, c] != 0) for r in range(rank)]
    if unknowns in pivots:
        raise DegenerateSystemError("the support's equations are inconsistent")
    if rank < unknowns:
        return None
    return [_fraction(reduced[r, unknowns]) for r in range(unknowns)]


def _fraction(value: fmpq) -> Fraction:
    return Fraction(int(value.p), int(value.q))
