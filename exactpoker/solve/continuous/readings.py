"""Finite-deck readings: the same rules on cards ``1..n``, solved exactly, read per information set and card.

The seeds found their continuous answers this way (seed 000, section 1:
"if n is a multiple of 9 ... check if n/9 < i <= 7n/9"; section 4: "guided by
the data generated from the finite deck model").  :func:`read_deck` solves
:meth:`~exactpoker.core.continuous_deck.ContinuousGame.on_cards` through the
project's one public entry (:func:`exactpoker.solve.solve_game`: the O(n)
card-order paths for the seed games, the exact LP for two-player zero-sum
games, the N-player finish for more players), every equilibrium certified
there, and keeps each information set's probabilities card by card as floats:
card ``k`` stands for the hands ``((k - 1)/n, k/n)``.  Floats only shape the
hypotheses; they never enter an answer.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from exactpoker.core.continuous_deck import ContinuousGame
from exactpoker.solve.continuous.model import BettingModel

__all__ = ["Reading", "read_deck", "read_decks", "default_decks"]


@dataclass(frozen=True)
class Reading:
    """One finite deck's equilibrium: ``tables[h]`` is an ``n x actions`` array of probabilities, card by card."""

    cards: int
    tables: tuple[np.ndarray, ...]
    values: tuple[float, ...]
    exact_values: tuple[object, ...]
    method: str
    seconds: float


def read_deck(game: ContinuousGame, model: BettingModel, cards: int) -> Reading:
    """Solve ``game`` on ``cards`` cards exactly (:func:`~exactpoker.solve.solve_game`) and read it (module docstring)."""
    from exactpoker.solve import solve_game

    started = time.perf_counter()
    result = solve_game(game.on_cards(cards))
    equilibrium = result.equilibria[0]
    tables = [np.full((cards, len(infoset.actions)), np.nan) for infoset in model.infosets]
    for p, name in enumerate(model.player_names):
        for key, probs in equilibrium.exact_strategies[name].items():
            card, label = key.split(":", 1)
            tables[model.index(p, label)][int(card) - 1] = [float(v) for v in probs]
    for table in tables:  # a set never filled (unreachable) plays its first action
        table[np.isnan(table[:, 0])] = np.eye(table.shape[1])[0]
    values = tuple(float(v) for v in equilibrium.exact_values)
    return Reading(cards, tuple(tables), values, tuple(equilibrium.exact_values), result.method,
                   time.perf_counter() - started)


def default_decks(players: int) -> tuple[int, ...]:
    """The deck sizes read by default: large enough that a run of hands of width 1/30 spans several cards, small
    enough that the exact finite solve stays in seconds (two players: the LP; more: the N-player finish)."""
    return (60, 120, 180) if players == 2 else (12, 18, 24)


def read_decks(game: ContinuousGame, model: BettingModel, sizes: "tuple[int, ...]") -> tuple[list[Reading], list[str]]:
    """:func:`read_deck` for every size; a deck whose exact finite solve fails (the N-player finish can miss an
    equilibrium) is left out and its failure reported in the second list."""
    from exactpoker.errors import CertificationError, DegenerateSystemError

    readings, failures = [], []
    for cards in sizes:
        try:
            readings.append(read_deck(game, model, cards))
        except (CertificationError, DegenerateSystemError) as error:
            failures.append(f"n = {cards}: {error}")
    return readings, failures
