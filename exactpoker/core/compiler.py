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

__all__ = ["card_sequence_form", "compile_game", "compile_layouts"]

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
    layouts, sequences, coefficients, denominator = card_sequence_form(game)
    return CompiledGame(game=game, layouts=tuple(layouts), sequences=sequences, coefficients=coefficients,
                        denominator=denominator)


def card_sequence_form(game: BettingGame, *, first_reached: bool = False
                       ) -> tuple[list[PlayerLayout], np.ndarray, np.ndarray, int]:
    """The layouts, entries (``sequences``, ``coefficients``) and ``denominator`` of ``game``'s sequence form.

    By default the entries are sorted by their sequences and the denominator is
    the number of deals times the payoffs' common scale.  With
    ``first_reached`` they come in the order a depth-first walk of the game
    tree (deal by deal, the betting in order) first reaches them, over the
    least common denominator of the entries: the order and the denominator of
    :func:`~exactpoker.core.tree.compile_tree` (the numbering of the sequences
    stays card by card).
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
    # the walk's position of (leaf l, deal d), the d-th deal's l-th leaf; the keys run leaf by leaf
    positions = (np.arange(len(deals), dtype=np.int64)[None, :] * len(leaves)
                 + np.arange(len(leaves), dtype=np.int64)[:, None]).ravel() if first_reached else None
    sequences, coefficients = _aggregate(np.concatenate(keys), np.concatenate(numerators), strides, positions)
    denominator = len(deals) * scale
    if first_reached:
        coefficients, denominator = _lowest_terms(coefficients, denominator)
    return layouts, sequences, coefficients, denominator


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


def _aggregate(keys: np.ndarray, numerators: np.ndarray, strides: list[int], positions: np.ndarray | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
    """Sum the numerators of entries with the same sequence tuple; drop all-zero entries.

    The entries come sorted by key, or with ``positions`` (each key's place in
    a walk) in the order their keys are first met.
    """
    unique, inverse = np.unique(keys, return_inverse=True)
    inverse = inverse.ravel()
    bound = int(np.abs(numerators).max(initial=0)) * len(keys)
    dtype = np.int64 if bound < _INT64_SAFE else object
    totals = np.zeros((len(unique), numerators.shape[1]), dtype=dtype)
    np.add.at(totals, inverse, numerators.astype(dtype))
    keep = np.any(totals != 0, axis=1)
    unique, totals = unique[keep], totals[keep]
    if positions is not None:
        first = np.full(len(keep), np.iinfo(np.int64).max, dtype=np.int64)
        np.minimum.at(first, inverse, positions)
        order = np.argsort(first[keep], kind="stable")
        unique, totals = unique[order], totals[order]
    sequences = np.empty((len(unique), len(strides)), dtype=np.int64)
    rest = unique.copy()
    for p in reversed(range(len(strides))):
        sequences[:, p] = rest // strides[p]
        rest = rest % strides[p]
    return sequences, totals


def _lowest_terms(coefficients: np.ndarray, denominator: int) -> tuple[np.ndarray, int]:
    """The entries over the least common denominator of their reduced fractions, typed as the tree compiler's:
    64-bit integers when the largest numerator times the number of entries stays below 2^62, else Python ints."""
    flat = [int(v) for v in coefficients.ravel()] if coefficients.dtype == object else None
    divisor = math.gcd(denominator, *flat) if flat is not None else math.gcd(
        denominator, int(np.gcd.reduce(coefficients.ravel())) if coefficients.size else 0)
    reduced = coefficients // divisor if divisor > 1 else coefficients
    bound = int(np.abs(reduced).max(initial=0))
    dtype = np.int64 if bound < _INT64_SAFE // max(1, len(reduced)) else object
    return reduced.astype(dtype), denominator // divisor
