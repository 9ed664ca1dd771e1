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
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from exactpoker.core.compiled import CompiledGame, SequenceLayout

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.core.profile import BehaviourProfile

__all__ = ["SequenceValues", "sequence_values", "backward_values", "counterfactual_values", "float_gains",
           "best_response", "layout_tree"]


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


def backward_values(layout: SequenceLayout, own: Sequence[Any], continuation: Sequence[Sequence[Any]], zero: Any
                    ) -> tuple[list[tuple[Any, ...]], list[Any]]:
    """Every action's counterfactual value and every information set's worth, by backward induction.

    ``own[s]`` is the coefficient ``c_p(s)`` of each own sequence (any number type: exact numbers, floats,
    polynomials); ``continuation[i][a]`` is how the player continues at information set ``i`` (its behaviour
    probabilities as played, or an indicator of one action).  An action's value is its sequence's coefficient
    plus the worth of the information sets that follow it; an information set's worth is its actions' values
    weighted by its continuation.  An information set's followers come after it in index order.

    Returns ``(values, worth)``: ``values[i]`` the tuple of action values at information set ``i``.
    """
    worth: list[Any] = [zero] * layout.num_infosets
    values: list[tuple[Any, ...]] = [()] * layout.num_infosets
    for infoset in reversed(range(layout.num_infosets)):
        action_values = tuple(own[s] + sum((worth[j] for j in layout.children[s]), zero)
                              for s in layout.infoset_sequences(infoset))
        values[infoset] = action_values
        worth[infoset] = sum((w * v for w, v in zip(continuation[infoset], action_values) if w), zero)
    return values, worth


def counterfactual_values(compiled: CompiledGame, profile: "BehaviourProfile", player: int
                          ) -> list[tuple[Any, ...]]:
    """For each information set of ``player``, the counterfactual value of each action (exact).

    The value of an action is the player's payoff from the play that follows it (their own later choices as
    in ``profile``), weighted by the other players' realization probabilities and not by the player's own, in
    the units of the game's payoffs (seed 003 section 3).
    """
    weights = [profile.realization(compiled, q) for q in range(compiled.num_players)]
    values = sequence_values(compiled, player, weights)
    scale = Fraction(1, values.denominator)
    own = [c * scale for c in values.numerators]
    table, _worth = backward_values(compiled.layouts[player], own, profile.strategies[player], Fraction(0))
    return table


def float_gains(compiled: CompiledGame, behaviour: Sequence[Sequence[float]]) -> list[np.ndarray]:
    """Per player and information set: the counterfactual value of the last action minus the first (floats).

    ``behaviour[p][i]`` is the probability of the last action at player ``p``'s two-action information set
    ``i``.  Values are weighted by the others' reach, not by the player's own, so a gain is zero exactly where
    the player may mix, whether or not the set is reached.  The same walk as the exact gains
    (:mod:`exactpoker.core.support_system`), in floating point: a guide only.
    """
    weights = []
    for layout, x in zip(compiled.layouts, behaviour):
        plan = np.zeros(layout.num_sequences)
        plan[0] = 1.0
        for infoset in range(layout.num_infosets):
            first, last = layout.infoset_sequences(infoset)
            parent = plan[layout.parent_sequence(infoset)]
            plan[first], plan[last] = parent * (1.0 - x[infoset]), parent * x[infoset]
        weights.append(plan)
    coefficients = compiled.coefficients.astype(np.float64) / compiled.denominator
    gains = []
    for p, layout in enumerate(compiled.layouts):
        factor = coefficients[:, p].copy()
        for q in range(compiled.num_players):
            if q != p:
                factor *= weights[q][compiled.sequences[:, q]]
        own = np.bincount(compiled.sequences[:, p], weights=factor, minlength=layout.num_sequences)
        x = np.asarray(behaviour[p], float)
        values, _worth = backward_values(layout, own.tolist(), [(1.0 - v, v) for v in x], 0.0)
        gains.append(np.array([last - first for first, last in values]))
    return gains


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
    tree = layout_tree(layout)
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


def layout_tree(layout: SequenceLayout) -> "_Tree":
    """The layout's information sets by level of its own sequence tree (:class:`_Tree`), made once a layout."""
    return _trees.get(layout) or _trees.setdefault(layout, _Tree.of(layout))


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
