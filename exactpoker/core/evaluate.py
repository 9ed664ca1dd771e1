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
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import numpy as np

from exactpoker.core.compiled import CompiledGame, PlayerLayout

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
    if not all(isinstance(w, (int, Fraction)) for w in weights):
        return np.array(list(weights), dtype=object), 1
    scale = math.lcm(*(w.denominator for w in weights))  # ints and Fractions both have numerator and denominator
    ints = np.array([w.numerator * (scale // w.denominator) for w in weights], dtype=object)
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


def best_response(layout: PlayerLayout, values: SequenceValues) -> tuple[Fraction, list[tuple[int, ...]]]:
    """Value of a best response and, per information set, the optimal actions.

    Backward induction over the player's own information sets: an
    information set is worth the best, over its actions, of the action's own
    coefficient plus the worth of the information sets that follow it.

    Returns
    -------
    value : Fraction
        The best-response payoff.
    optimal : list of tuple of int
        For each information set, the indices of the actions that attain the
        maximum (ties are all kept, so pure best responses can be enumerated).
    """
    c = values.numerators
    worth: list[int] = [0] * layout.num_infosets
    optimal: list[tuple[int, ...]] = [()] * layout.num_infosets
    children = layout.children
    for infoset in reversed(range(layout.num_infosets)):
        scores = [c[s] + sum(worth[j] for j in children[s]) for s in layout.infoset_sequences(infoset)]
        best = max(scores)
        worth[infoset] = best
        optimal[infoset] = tuple(a for a, score in enumerate(scores) if score == best)
    total = c[0] + sum(worth[j] for j in children[0])
    return total / Fraction(values.denominator), optimal
