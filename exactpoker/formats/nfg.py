"""Gambit's strategic-form text format (``.nfg``, version 1), read as a :class:`GameTree`, and written.

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

:func:`write_nfg` writes any game tree's reduced strategic form
(:mod:`~exactpoker.formats.gambit_order`: Gambit's strategies, labels and
order) in the payoff-list form, each contingency's payoffs the exact expected
payoffs over chance; a game of more than :data:`MAX_CONTINGENCIES`
contingencies is refused before anything is listed.

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

import numpy as np

from exactpoker.core.compiled import CompiledGame
from exactpoker.core.profile import BehaviourProfile
from exactpoker.core.tree import GameTree, Move, Terminal, TreeNode, compile_tree, paused_gc, unchecked
from exactpoker.errors import ResourceLimitError
from exactpoker.formats import LoadedGame
from exactpoker.formats.efg import escaped
from exactpoker.formats.gambit_order import ReducedStrategy, count_reduced, infoset_order, reduced_strategies
from exactpoker.formats.gambit_text import TokenReader
from exactpoker.numbers import exact_str

__all__ = ["read_nfg", "write_nfg", "gambit_mixed", "strategic_size", "MAX_CONTINGENCIES"]

#: The largest number of contingencies (product of strategy counts) read or written.
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


# ----------------------------------------------------------------------------- writing


def strategic_size(compiled: CompiledGame) -> list[int]:
    """Each player's number of reduced strategies (:func:`~exactpoker.formats.gambit_order.count_reduced`)."""
    return [count_reduced(layout) for layout in compiled.layouts]


def write_nfg(tree: GameTree, compiled: CompiledGame | None = None, *,
              max_contingencies: int = MAX_CONTINGENCIES) -> str:
    """The reduced strategic form of ``tree`` as the text of a Gambit ``.nfg`` file (module docstring).

    ``compiled`` is ``tree`` compiled, if the caller has it.  A player with
    one information set (a game read from ``.nfg``) keeps its actions' names
    as strategy labels; other players get Gambit's labels (``"12*"``).

    Raises
    ------
    ResourceLimitError
        If the strategic form has more than ``max_contingencies``
        contingencies (the product of the players' strategy counts), naming them.
    """
    compiled = compile_tree(tree) if compiled is None else compiled
    counts = strategic_size(compiled)
    size = math.prod(counts)
    if size > max_contingencies:
        raise ResourceLimitError(
            f"{tree.name}: the strategic form has {_count(size)} contingencies ({' x '.join(map(_count, counts))} "
            f"reduced strategies), more than {max_contingencies} are written; convert to .efg instead")
    order = infoset_order(tree, compiled)
    strategies = [list(reduced_strategies(layout, order[p], names=layout.num_infosets == 1))
                  for p, layout in enumerate(compiled.layouts)]
    players = " ".join(escaped(name) for name in tree.player_names)
    lines = [f"NFG 1 R {escaped(tree.name)} {{ {players} }}", "",
             "{ " + " ".join("{ " + " ".join(escaped(s.label) for s in mine) + " }" for mine in strategies) + " }",
             '""', ""]
    table = _payoff_table(compiled, strategies)
    denominator = Fraction(compiled.denominator)
    for row in table:
        lines.append(" ".join(exact_str(Fraction(int(v)) / denominator) for v in row))
    return "\n".join(lines) + "\n"


def _count(number: int) -> str:
    return str(number) if number < 10**12 else f"about 10^{len(str(number)) - 1}"


def _payoff_table(compiled: CompiledGame, strategies: list[list[ReducedStrategy]]) -> np.ndarray:
    """Integer payoff numerators (over ``compiled.denominator``): one row per contingency, player 1 fastest.

    A pure strategy's realization plan is 1 on its sequences, so a
    contingency earns the sum of the coefficients of the entries whose
    sequences all belong to its strategies; each entry adds its coefficients
    to every contingency of the strategies that hold its sequences.
    """
    sizes = [len(mine) for mine in strategies]
    strides = [math.prod(sizes[:p]) for p in range(len(sizes))]
    holders = []  # per player, per sequence: the flat offsets of the strategies that play it
    for p, (layout, mine) in enumerate(zip(compiled.layouts, strategies)):
        lists: list[list[int]] = [[] for _ in range(layout.num_sequences)]
        for k, strategy in enumerate(mine):
            for s in (0,) + strategy.sequences:
                lists[s].append(k * strides[p])
        holders.append([np.array(found, dtype=np.int64) for found in lists])
    coefficients = compiled.coefficients
    exact = coefficients.dtype == object or int(np.abs(coefficients).sum()) >= 2**62
    table = np.zeros((math.prod(sizes), compiled.num_players), dtype=object if exact else np.int64)
    for entry, sequences in enumerate(compiled.sequences.tolist()):
        flat = np.zeros(1, dtype=np.int64)
        for p, s in enumerate(sequences):
            flat = (flat[:, None] + holders[p][s][None, :]).ravel()
        table[flat] += coefficients[entry]
    return table
