"""Exact evaluation of a compiled game against fixed opponents.

Given every other player's realization weights, player ``p``'s payoff is
linear in their own weights: ``u_p = sum_s c_p(s) r_p(s)``.  This module
computes the coefficients ``c_p(s)`` exactly (integer numerators over one
denominator) and the value of a best response by backward induction over
``p``'s own information sets.  It is the arithmetic under the certificate and
under best-response enumeration.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import numpy as np

from exactpoker.core.compiled import CompiledGame, SequenceLayout

__all__ = ["SequenceValues", "sequence_values", "best_response"]


@dataclass(frozen=True)
class SequenceValues:
    """``c_p(s) = numerators[s] / denominator`` for each of player ``p``'s sequences.

    The numerators are integers when the other players' weights are rational,
    and :class:`~exactpoker.algebraic.AlgebraicNumber` s when some are not.
    """

    player: int
    numerators: tuple[int, ...]
    denominator: int

    def value(self, weights: Sequence[Fraction]) -> Fraction:
        """The player's payoff when they play the realization plan ``weights``."""
        total = sum((c * w for c, w in zip(self.numerators, weights) if c and w), Fraction(0))
        return total / Fraction(self.denominator)


def _integer_weights(weights: Sequence[Fraction]) -> tuple[np.ndarray, int]:
    """Rational weights as integers over one scale; algebraic weights as they are (scale 1)."""
    if not all(issubclass(kind, (int, Fraction)) for kind in {type(w) for w in weights}):
        return np.array(list(weights), dtype=object), 1
    ratios = [w.as_integer_ratio() for w in weights]  # ints and Fractions both have it
    scale = math.lcm(*{d for _, d in ratios})
    ints = np.empty(len(ratios), dtype=object)
    ints[:] = [n if d == scale else n * (scale // d) for n, d in ratios]
    return ints, scale


def sequence_values(
    compiled: CompiledGame, player: int, weights: Sequence[Sequence[Fraction] | None]
) -> SequenceValues:
    """Exact coefficients of player ``player``'s payoff in their own realization weights.

    Parameters
    ----------
    compiled : CompiledGame
    player : int
    weights : sequence
        Realization weights of every player; the entry of ``player`` itself is
        ignored (pass ``None``).
    """
    factor = compiled.coefficients[:, player].astype(object)
    denominator = compiled.denominator
    for q in range(compiled.num_players):
        if q == player:
            continue
        ints, scale = _integer_weights(weights[q])  # type: ignore[arg-type]
        factor = factor * ints[compiled.sequences[:, q]]
        denominator *= scale
    totals = np.zeros(compiled.layouts[player].num_sequences, dtype=object)
    np.add.at(totals, compiled.sequences[:, player], factor)
    return SequenceValues(player, tuple(totals.tolist()), denominator)


def best_response(layout: SequenceLayout, values: SequenceValues) -> tuple[Fraction, list[tuple[int, ...]]]:
    """Value of a best response and, per information set, the optimal actions.

    Backward induction over the player's own information sets: an
    information set is worth the best, over its actions, of the action's own
    coefficient plus the worth of the information sets that follow it.  The
    information sets are taken level by level from the deepest (their depth
    in the player's own sequence tree), each level at once as arrays: in
    64-bit integers when the sum of the coefficients' sizes proves that no
    partial sum overflows (every worth and score is a sum of distinct
    coefficients), as Python numbers (exact integers or algebraic numbers)
    otherwise.

    Returns
    -------
    value : Fraction
        The best-response payoff.
    optimal : list of tuple of int
        For each information set, the indices of the actions that attain the
        maximum (ties are all kept, so pure best responses can be enumerated).
    """
    c = values.numerators
    small = {type(v) for v in c} <= {int} and sum(map(abs, c)) < 2**62
    scores = np.array(c, dtype=np.int64 if small else object)
    tree = _trees.get(layout) or _trees.setdefault(layout, _Tree.of(layout))
    worth = np.zeros(layout.num_infosets, dtype=scores.dtype)
    for infosets, sequences, starts in tree.levels:  # deepest first; the children's worth is already in scores
        worth[infosets] = np.maximum.reduceat(scores[sequences], starts)
        np.add.at(scores, tree.parents[infosets], worth[infosets])
    optimal_at = np.flatnonzero(np.asarray(scores[1:] == worth[tree.owners], dtype=bool)) + 1
    optimal: list[list[int]] = [[] for _ in range(layout.num_infosets)]
    at = optimal_at - 1
    for infoset, action in zip(tree.owners[at].tolist(), (optimal_at - tree.firsts_of[at]).tolist()):
        optimal[infoset].append(action)
    total = scores[0].item() if small else scores[0]
    return total / Fraction(values.denominator), [tuple(actions) for actions in optimal]


#: Each layout's :class:`_Tree`, made once (a certificate asks for each player's best response twice or more).
_trees: "weakref.WeakKeyDictionary[SequenceLayout, _Tree]" = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class _Tree:
    """A player's information sets by level of their own sequence tree, ready for :func:`best_response`.

    ``levels`` lists, deepest first, each level's information sets, their
    sequences (grouped by information set) and where each group starts;
    ``owners[s - 1]`` is sequence ``s``'s information set and ``firsts_of[s - 1]``
    that information set's first sequence.
    """

    parents: np.ndarray
    owners: np.ndarray
    firsts_of: np.ndarray
    levels: tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]

    @classmethod
    def of(cls, layout: SequenceLayout) -> "_Tree":
        count = layout.num_infosets
        parents = np.fromiter((layout.parent_sequence(i) for i in range(count)), np.int64, count)
        owners = np.asarray(layout.sequence_infoset[1:], dtype=np.int64)
        widths = np.bincount(owners, minlength=count)
        firsts = np.zeros(count, dtype=np.int64)
        changes = np.flatnonzero(np.r_[True, owners[1:] != owners[:-1]]) if len(owners) else owners
        firsts[owners[changes]] = 1 + changes  # an information set's sequences are consecutive
        depth = np.zeros(count, dtype=np.int64)
        below_root = parents > 0
        while True:  # an information set is one deeper than the one its parent sequence belongs to
            deeper = np.where(below_root, depth[owners[np.maximum(parents, 1) - 1]] + 1, 0)
            if np.array_equal(deeper, depth):
                break
            depth = deeper
        levels = []
        for d in range(int(depth.max(initial=-1)), -1, -1):
            infosets = np.flatnonzero(depth == d)
            sizes = widths[infosets]
            starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
            sequences = np.repeat(firsts[infosets] - starts, sizes) + np.arange(int(sizes.sum()))
            levels.append((infosets, sequences, starts))
        return cls(parents, owners, firsts[owners], tuple(levels))
