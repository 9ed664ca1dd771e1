"""Gambit's strategic-form text format (``.nfg``, version 1), read as a :class:`GameTree`.

:func:`read_nfg` reads both payload forms of the format:

* the payoff list: for every contingency (player 1's strategy changing
  fastest) the payoffs of all players;
* the outcome list: ``{ { "name" payoffs } ... }`` followed by one outcome
  number per contingency (0 = every payoff zero).

Strategies are given by name (``{ { "a" "b" } { "x" "y" } }``) or by count
(``{ 2 3 }``, named ``1``, ``2``, ...).  The game becomes a tree of
simultaneous moves: the players move in turn, each at one information set
where earlier moves are not seen, so the ordinary exact pipeline solves it.
Results give each player's mixed strategy as ``{strategy: probability}`` in
file order (:func:`gambit_mixed` turns that into the nested list of
``pygambit``'s ``mixed_strategy_profile``).

References
----------
The Gambit Project, "Game representation formats", https://gambitproject.readthedocs.io
(the ``.nfg`` file format section).
"""

from __future__ import annotations

import math
import os
from fractions import Fraction
from typing import Any, Mapping

from exactpoker.core.compiled import CompiledGame
from exactpoker.core.profile import BehaviourProfile
from exactpoker.core.tree import GameTree, Move, Terminal, TreeNode, paused_gc, unchecked
from exactpoker.formats import LoadedGame
from exactpoker.formats.gambit_text import TokenReader

__all__ = ["read_nfg", "gambit_mixed", "MAX_CONTINGENCIES"]

#: The largest number of contingencies (product of strategy counts) read.
MAX_CONTINGENCIES = 1_000_000


def read_nfg(text: str, source: str = "<nfg>") -> LoadedGame:
    """The strategic game in the ``.nfg`` text ``text``.

    Raises
    ------
    InvalidGameError
        At malformed text (``source:line:column: expected ...``), a wrong
        number of payoffs or outcome numbers, an unknown outcome number, or a
        game with more than :data:`MAX_CONTINGENCIES` contingencies.
    """
    reader = TokenReader(text, source)
    title, labels = reader.header("NFG", 1)
    strategies = _read_strategies(reader, len(labels))
    if reader.at("string"):
        reader.string()  # the comment
    size = math.prod(len(s) for s in strategies)
    if size > MAX_CONTINGENCIES:
        raise reader.error(f"the game has {size} contingencies; at most {MAX_CONTINGENCIES} are read")
    payoffs = _read_payoffs(reader, len(labels), size)
    reader.end()
    names = tuple(label or str(i + 1) for i, label in enumerate(labels))
    if len(set(names)) != len(names):
        names = tuple(str(i + 1) for i in range(len(labels)))
    root = _simultaneous_tree(strategies, payoffs)
    tree = GameTree(title or os.path.basename(source), names, root, (("file", source),))
    return LoadedGame(tree, _mixed_tables, source)


def _read_strategies(reader: TokenReader, players: int) -> list[list[str]]:
    reader.symbol("{")
    strategies: list[list[str]] = []
    while not reader.at("}"):
        at = reader.position
        if reader.at("{"):
            names = reader.strings_in_braces("a strategy's name")
        else:
            count = reader.integer("a number of strategies or '{'")
            names = [""] * count
        if not names:
            raise reader.error("a player needs at least one strategy", at)
        unique = all(names) and len(set(names)) == len(names)
        strategies.append(names if unique else [str(i + 1) for i in range(len(names))])
    if len(strategies) != players:
        raise reader.error(f"expected strategies for {players} players, found {len(strategies)}")
    reader.symbol("}")
    return strategies


def _read_payoffs(reader: TokenReader, players: int, size: int) -> list[tuple[Fraction, ...]]:
    """The payoff vector of every contingency, player 1's strategy changing fastest."""
    if not reader.at("{"):
        at = reader.position
        values = reader.numbers_to_end("a payoff")
        if len(values) != size * players:
            raise reader.error(f"expected {size * players} payoffs ({size} contingencies x {players} players), "
                               f"found {len(values)}", at)
        return [tuple(values[i * players:(i + 1) * players]) for i in range(size)]
    reader.symbol("{")
    outcomes: list[tuple[Fraction, ...]] = [(Fraction(0),) * players]
    while not reader.at("}"):
        reader.symbol("{")
        reader.string("the outcome's name")
        at = reader.position
        vector = []
        while not reader.at("}"):
            vector.append(reader.number("a payoff"))
        if len(vector) != players:
            raise reader.error(f"outcome {len(outcomes)} has {len(vector)} payoffs for {players} players", at)
        reader.symbol("}")
        outcomes.append(tuple(vector))
    reader.symbol("}")
    result = []
    for _ in range(size):
        at = reader.position
        number = reader.integer("an outcome number")
        if not 0 <= number < len(outcomes):
            raise reader.error(f"outcome {number} does not exist; outcomes are 0..{len(outcomes) - 1}", at)
        result.append(outcomes[number])
    return result


def _simultaneous_tree(strategies: list[list[str]], payoffs: list[tuple[Fraction, ...]]) -> TreeNode:
    """Player 1 moves, then player 2 without seeing it, ...; leaves are the contingencies' payoffs.

    The nodes are made unchecked: the strategies are non-empty and distinct
    (:func:`_read_strategies`) and the payoffs exact fractions; contingencies
    with one outcome of the file share one leaf.
    """
    strides = [math.prod(len(s) for s in strategies[:p]) for p in range(len(strategies))]
    leaves: dict[int, TreeNode] = {}  # by the id of the payoff tuple (held by ``payoffs``)

    def node(player: int, index: int) -> TreeNode:
        if player == len(strategies):
            leaf = leaves.get(id(payoffs[index]))
            if leaf is None:
                leaf = leaves[id(payoffs[index])] = unchecked(Terminal, payoffs[index])
            return leaf
        return unchecked(Move, player, "strategy", tuple(
            (name, node(player + 1, index + s * strides[player])) for s, name in enumerate(strategies[player])
        ))

    with paused_gc():
        return node(0, 0)


def _mixed_tables(compiled: CompiledGame, profile: BehaviourProfile) -> dict[str, dict[str, Fraction]]:
    """Per player, ``{strategy: probability}`` in file order."""
    result = {}
    for p, name in enumerate(compiled.player_names):
        layout = compiled.layouts[p]
        probabilities = profile.by_infoset(compiled, p)["strategy"]
        result[name] = dict(zip(layout.actions[0], probabilities))
    return result


def gambit_mixed(strategies: Mapping[str, Any]) -> list[list[Fraction]]:
    """A result's ``strategies`` of an ``.nfg`` game as the nested list ``pygambit``'s
    ``game.mixed_strategy_profile(data=...)`` takes (players, strategies)."""
    return [list(table.values()) for table in strategies.values()]
