"""Compile a :class:`~exactpoker.core.game.BettingGame` into exact sequence-form payoffs.

The betting tree is small (a few dozen leaves) while the deal space is large
(``n (n-1)`` deals for two players), so the compiler walks the tree once and
evaluates each leaf for *all* deals at once with numpy integer arithmetic:

1. :func:`_walk` lists the leaves, each with every player's last own
   ``(label, action)`` on the way to it;
2. :func:`_deals` lists every deal as a row of cards;
3. :func:`_leaf_numerators` gives each player's payoff numerator at a leaf for
   every deal (pot share minus contribution, over a common denominator);
4. :func:`_aggregate` adds up entries that share the same tuple of sequences.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from exactpoker.core.compiled import CompiledGame, PlayerLayout
from exactpoker.core.game import BettingGame, Decision, Node, Outcome
from exactpoker.core.tree import _LayoutBuilder
from exactpoker.errors import InvalidGameError

__all__ = ["compile_game", "compile_layouts"]

_INT64_SAFE = 2**62


@dataclass(frozen=True)
class _Leaf:
    outcome: Outcome
    last_moves: tuple[tuple[int, int] | None, ...]  # per player: (label index, action index)


def compile_game(game: BettingGame) -> CompiledGame:
    """Compile ``game`` into exact sequence-form payoffs.

    Raises
    ------
    InvalidGameError
        If the tree names a player out of range, gives one information set two
        different action lists, breaks perfect recall, or an outcome's
        contributions do not match the number of players.
    """
    layouts, leaves = _walk(game)
    deals = _deals(game)
    scale = _payoff_scale(game, leaves)
    strides = _strides(layouts)

    keys, numerators = [], []
    for leaf in leaves:
        key = np.zeros(len(deals), dtype=np.int64)
        for p, layout in enumerate(layouts):
            move = leaf.last_moves[p]
            if move is not None:
                label, action = move
                seq = 1 + (deals[:, p].astype(np.int64) - 1) * layout.actions_per_card + layout.offsets[label] + action
                key += seq * strides[p]
        keys.append(key)
        numerators.append(_leaf_numerators(leaf.outcome, deals, scale, game.num_players))
    sequences, coefficients = _aggregate(np.concatenate(keys), np.concatenate(numerators), strides)
    return CompiledGame(
        game=game,
        layouts=tuple(layouts),
        sequences=sequences,
        coefficients=coefficients,
        denominator=len(deals) * scale,
    )


def compile_layouts(game: BettingGame) -> tuple[PlayerLayout, ...]:
    """The players' sequence layouts alone: what :func:`compile_game` gives without the ``O(n^2)`` deals."""
    return tuple(_walk(game)[0])


def _walk(game: BettingGame) -> tuple[list[PlayerLayout], list[_Leaf]]:
    """List the leaves and build each player's label layout, checking the tree.

    The labels are numbered, and perfect recall checked, by the tree
    compiler's own layout builder (:func:`~exactpoker.core.tree.compile_tree`):
    a card game's labels are the information sets of any one card.
    """
    k = game.num_players
    builders = [_LayoutBuilder(game.name, name) for name in game.player_names]
    moves: list[list[tuple[int, int] | None]] = [[None] for _ in range(k)]  # label-space sequence -> (label, action)
    leaves: list[_Leaf] = []

    def visit(node: Node, last: tuple[int, ...]) -> None:
        if isinstance(node, Outcome):
            if len(node.contributions) != k or any(not 0 <= a < k for a in node.active):
                raise InvalidGameError(f"{game.name}: an outcome does not match {k} players: {node}")
            leaves.append(_Leaf(node, tuple(moves[p][s] for p, s in enumerate(last))))
            return
        if not isinstance(node, Decision) or not 0 <= node.player < k:
            raise InvalidGameError(f"{game.name}: bad node {node!r}")
        p = node.player
        builder = builders[p]
        index = builder.visit(node.label, node.action_names, last[p])
        first = builder.firsts[index]
        if first == len(moves[p]):  # a new label: its sequences
            moves[p].extend((index, a) for a in range(len(node.actions)))
        for a, (_, child) in enumerate(node.actions):
            visit(child, last[:p] + (first + a,) + last[p + 1 :])

    visit(game.root, (0,) * k)
    layouts = [
        PlayerLayout(tuple(b.names), tuple(b.actions), tuple(moves[p][s] for s in b.parents), game.deck.cards)
        for p, b in enumerate(builders)
    ]
    return layouts, leaves


def _deals(game: BettingGame) -> np.ndarray:
    """Every deal as a row of cards (1-based), all equally likely."""
    n, k = game.deck.cards, game.num_players
    grid = np.indices((n,) * k, dtype=np.int32).reshape(k, -1).T + 1
    if game.deck.replacement:
        return grid
    distinct = np.ones(len(grid), dtype=bool)
    for a in range(k):
        for b in range(a + 1, k):
            distinct &= grid[:, a] != grid[:, b]
    return grid[distinct]


def _payoff_scale(game: BettingGame, leaves: list[_Leaf]) -> int:
    """The factor that makes every payoff an integer.

    The lcm of the contributions' denominators makes each pot an integer; the
    lcm of the possible numbers of sharers, *times* that, makes every share of
    it one (an lcm of the two would not: a pot of 3/2 shared by two).
    """
    stakes, sharers = 1, 1
    for leaf in leaves:
        for c in leaf.outcome.contributions:
            stakes = math.lcm(stakes, c.denominator)
        splits = leaf.outcome.showdown is False or game.deck.replacement
        if splits:
            sharers = math.lcm(sharers, *range(1, len(leaf.outcome.active) + 1))
    return stakes * sharers


def _leaf_numerators(outcome: Outcome, deals: np.ndarray, scale: int, k: int) -> np.ndarray:
    """Each player's payoff times ``scale`` at this leaf, for every deal (shape (deals, k))."""
    contrib = [int(c * scale) for c in outcome.contributions]
    pot = sum(contrib)
    active = list(outcome.active)
    if not outcome.showdown or len(active) == 1:
        winners = np.ones((len(deals), len(active)), dtype=bool)
    else:
        best = deals[:, active].max(axis=1)
        winners = deals[:, active] == best[:, None]
    count = winners.sum(axis=1)
    share = pot // count  # exact: scale carries every possible split
    result = np.empty((len(deals), k), dtype=np.int64)
    for p in range(k):
        result[:, p] = -contrib[p]
    for column, p in enumerate(active):
        result[:, p] += np.where(winners[:, column], share, 0)
    return result


def _strides(layouts: list[PlayerLayout]) -> list[int]:
    strides, stride = [], 1
    for layout in layouts:
        strides.append(stride)
        stride *= layout.num_sequences
    if stride >= _INT64_SAFE:
        raise InvalidGameError("game too large to index its sequence tuples in 64-bit integers")
    return strides


def _aggregate(keys: np.ndarray, numerators: np.ndarray, strides: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Sum the numerators of entries with the same sequence tuple; drop all-zero entries."""
    unique, inverse = np.unique(keys, return_inverse=True)
    bound = int(np.abs(numerators).max(initial=0)) * len(keys)
    dtype = np.int64 if bound < _INT64_SAFE else object
    totals = np.zeros((len(unique), numerators.shape[1]), dtype=dtype)
    np.add.at(totals, inverse.ravel(), numerators.astype(dtype))
    keep = np.any(totals != 0, axis=1)
    unique, totals = unique[keep], totals[keep]
    sequences = np.empty((len(unique), len(strides)), dtype=np.int64)
    rest = unique.copy()
    for p in reversed(range(len(strides))):
        sequences[:, p] = rest // strides[p]
        rest = rest % strides[p]
    return sequences, totals
