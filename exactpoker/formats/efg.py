"""Gambit's extensive-form text format (``.efg``, version 2): reader and export.

Reading (:func:`read_efg`): any finite extensive game -- chance nodes ``c``
with exact probabilities (non-negative, summing to one, else a one-line error
naming the node), personal nodes ``p``, terminal nodes ``t``, outcomes shared
by number (an outcome on an inner node is added to every leaf below it, as in
Gambit), players' labels.  Numbers are exact (:mod:`~exactpoker.formats.gambit_text`).
The result's strategies are laid out as a Gambit behaviour profile
(:func:`efg_tables`, :func:`gambit_profile`): per player, in the file's player
order, a list over the player's information sets in the order of their numbers,
each the action probabilities in the file's action order.

Export: :func:`write_efg` writes any :class:`~exactpoker.core.tree.GameTree`;
:func:`to_efg` writes a betting game of the papers.  For :func:`to_efg` the tree starts with one chance node that deals every possible deal with its
exact probability; below each deal the betting tree is repeated, with each
decision in the information set ``(player, own card, node label)``.  Payoffs
are the exact rationals of each leaf.  Open the file in Gambit (or
``pygambit.read_efg``) to use its solvers on the same game.
"""

from __future__ import annotations

import itertools
import os
from fractions import Fraction

from dataclasses import dataclass
from typing import Any, Mapping

from exactpoker.core.compiled import CompiledGame
from exactpoker.core.game import BettingGame, Decision, Node, Outcome
from exactpoker.core.profile import BehaviourProfile
from exactpoker.core.tree import Chance, GameTree, Move, Terminal, TreeNode, paused_gc, unchecked
from exactpoker.errors import InvalidGameError
from exactpoker.formats import LoadedGame
from exactpoker.formats.gambit_text import TokenReader
from exactpoker.numbers import exact_str

__all__ = ["read_efg", "write_efg", "to_efg", "efg_tables", "numbered_order", "gambit_profile", "escaped"]


def _quote(text: str) -> str:
    return '"' + text.replace('"', "'") + '"'


def escaped(text: str) -> str:
    """``text`` as a quoted string of Gambit's formats (a quote or backslash escaped by a backslash)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _deals(game: BettingGame) -> list[tuple[int, ...]]:
    cards = range(1, game.deck.cards + 1)
    deals = itertools.product(cards, repeat=game.num_players)
    if game.deck.replacement:
        return list(deals)
    return [d for d in deals if len(set(d)) == game.num_players]


def to_efg(game: BettingGame) -> str:
    """The game as the text of a Gambit ``.efg`` file."""
    deals = _deals(game)
    probability = exact_str(Fraction(1, len(deals)))
    players = " ".join(_quote(name) for name in game.player_names)
    params = ", ".join(f"{k}={exact_str(v) if isinstance(v, (int, Fraction)) else v}" for k, v in game.parameters)
    lines = [f"EFG 2 R {_quote(f'{game.name}({params})')} {{ {players} }}", '""', ""]
    branches = " ".join(f"{_quote(','.join(map(str, d)))} {probability}" for d in deals)
    lines.append(f'c "deal" 1 "deal" {{ {branches} }} 0')
    infosets: dict[tuple[int, int, str], int] = {}  # numbered per player in the order first met
    counts = [0] * game.num_players
    outcome_count = [0]

    def emit(node: Node, cards: tuple[int, ...]) -> None:
        if isinstance(node, Outcome):
            outcome_count[0] += 1
            payoffs = ", ".join(exact_str(v) for v in node.payoffs(cards))
            lines.append(f't "" {outcome_count[0]} "" {{ {payoffs} }}')
            return
        assert isinstance(node, Decision)
        key = (node.player, cards[node.player], node.label)
        number = infosets.get(key)
        if number is None:
            counts[node.player] += 1
            number = infosets[key] = counts[node.player]
        name = f"{game.player_names[node.player]}: card {cards[node.player]}, {node.label}"
        actions = " ".join(_quote(a) for a in node.action_names)
        lines.append(f"p \"\" {node.player + 1} {number} {_quote(name)} {{ {actions} }} 0")
        for _, child in node.actions:
            emit(child, cards)

    for deal in deals:
        emit(game.root, deal)
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- reading


#: One node line of the file before the tree is built: its kind ("c", "p" or "t"), the index of its
#: first token, its name, the player (1-based; 0 for chance and terminal nodes), the information set's
#: number and the outcome's number.
_Record = tuple[str, int, str, int, int, int]
_Outcomes = dict[int, tuple[str, tuple[Fraction, ...]]]
_NODE = "a node ('c', 'p' or 't')"


@dataclass
class _Infoset:
    name: str
    actions: list[str]
    probabilities: list[Fraction]  # chance information sets only
    texts: tuple[str, ...]  # a player's: the tokens between the braces where the actions were given


def read_efg(text: str, source: str = "<efg>") -> LoadedGame:
    """The extensive game in the ``.efg`` text ``text``.

    Reading is linear in the size of the text: one regular-expression pass
    for the tokens (:mod:`~exactpoker.formats.gambit_text`), one pass over
    them for the node records, one pass over the records for the tree.
    Outcomes whose payoffs are written alike share one payoff tuple, and
    leaves with the same payoffs one :class:`~exactpoker.core.tree.Terminal`.

    Raises
    ------
    InvalidGameError
        At malformed text (``source:line:column: expected ...``), an
        information set or outcome used before it is defined, a chance node
        whose probabilities are negative or do not sum to one, or an outcome
        with the wrong number of payoffs.  Imperfect recall is refused when the
        tree is compiled, naming the information set.
    """
    reader = TokenReader(text, source)
    title, labels = reader.header("EFG", 2)
    if reader.at("string"):
        reader.string()  # the comment
    with paused_gc():
        records, infosets, outcomes = _read_records(reader, len(labels))
        reader.release()
        names = tuple(label or str(i + 1) for i, label in enumerate(labels))
        if len(set(names)) != len(names):
            names = tuple(str(i + 1) for i in range(len(labels)))
        keys = _infoset_keys(infosets)
        root = _build(records, infosets, outcomes, keys, len(labels), reader)
    tree = GameTree(title or os.path.basename(source), names, root, (("file", source),))
    numbers: list[list[int]] = [[] for _ in labels]
    for player, number in infosets:
        if player:
            numbers[player - 1].append(number)
    order = tuple(tuple(keys[(p + 1, n)] for n in sorted(mine)) for p, mine in enumerate(numbers))
    return LoadedGame(tree, _EfgTables(order), source)


def _read_records(
    reader: TokenReader, players: int
) -> tuple[list[_Record], dict[tuple[int, int], _Infoset], _Outcomes]:
    records: list[_Record] = []
    infosets: dict[tuple[int, int], _Infoset] = {}
    outcomes: _Outcomes = {}
    payoffs: dict[tuple[str, ...], tuple[Fraction, ...]] = {}  # by their texts: one tuple for outcomes written alike
    tokens = reader.tokens
    while tokens[reader.position]:
        start = reader.position
        kind = tokens[start]
        if kind not in ("c", "p", "t"):
            raise reader.expected(_NODE)
        reader.position += 1
        name = reader.string("the node's name")
        player = infoset = 0
        if kind != "t":
            if kind == "p":
                at = reader.position
                player = reader.integer("the player's number")
                if not 1 <= player <= players:
                    raise reader.error(f"player {player} does not exist; players are 1..{players}", at)
            at = reader.position
            infoset = reader.integer("the information set's number")
            _read_infoset(reader, infosets, (player, infoset), kind == "c", at)
        at = reader.position
        outcome = reader.integer("the outcome's number")
        _read_outcome(reader, outcomes, payoffs, outcome, players, at)
        records.append((kind, start, name, player, infoset, outcome))
    if not records:
        raise reader.error("the game has no nodes")
    return records, infosets, outcomes


def _read_infoset(
    reader: TokenReader, infosets: dict[tuple[int, int], _Infoset], key: tuple[int, int], chance: bool, at: int
) -> None:
    name = reader.optional_string()
    known = infosets.get(key)
    if chance and reader.at("{"):
        texts: tuple[str, ...] = ()
        actions, probabilities = _chance_branches(reader)
    else:
        found = None if chance else reader.optional_braced()
        if found is None:
            if known is None:
                raise reader.error(f"information set {key[1]} is used before its actions are given", at)
            return
        start, texts = found
        if known is not None and texts == known.texts:
            return  # the actions again, written the same
        actions, probabilities = reader.strings_at(start, texts, "an action's name"), []
    if known is None:
        infosets[key] = _Infoset(name or "", actions, probabilities, texts)
    elif known.actions != actions:
        raise reader.error(f"information set {key[1]} was given other actions before ({known.actions})", at)


def _chance_branches(reader: TokenReader) -> tuple[list[str], list[Fraction]]:
    """``{ "name" probability ... }``: the names and the probabilities."""
    reader.symbol("{")
    actions: list[str] = []
    probabilities: list[Fraction] = []
    while not reader.at("}"):
        actions.append(reader.string("an action's name"))
        probabilities.append(reader.number("the action's probability"))
    reader.symbol("}")
    return actions, probabilities


def _read_outcome(reader: TokenReader, outcomes: _Outcomes, payoffs: dict[tuple[str, ...], tuple[Fraction, ...]],
                  number: int, players: int, at: int) -> None:
    if number < 0:
        raise reader.error("an outcome number must be >= 0", at)
    name = reader.optional_string()
    found = reader.optional_braced()
    if found is None:
        if number != 0 and number not in outcomes:
            raise reader.error(f"outcome {number} is used before its payoffs are given", at)
        return
    start, texts = found
    values = payoffs.get(texts)
    if values is None:
        values = reader.fractions_at(start, texts, "a payoff")
    if len(values) != players:
        raise reader.error(f"outcome {number} has {len(values)} payoffs for {players} players", start - 1)
    if number == 0:
        raise reader.error("outcome 0 means 'no outcome' and cannot have payoffs", at)
    if number not in outcomes:
        outcomes[number] = (name or "", payoffs.setdefault(texts, values))


def _infoset_keys(infosets: Mapping[tuple[int, int], _Infoset]) -> dict[tuple[int, int], str]:
    """Each information set's key in the tree: its name where that is unique for the player, else ``#number``."""
    counts: dict[tuple[int, str], int] = {}
    for (player, _), info in infosets.items():
        counts[(player, info.name)] = counts.get((player, info.name), 0) + 1
    keys = {}
    for (player, number), info in infosets.items():
        unique = info.name and counts[(player, info.name)] == 1
        keys[(player, number)] = info.name if unique else (f"{info.name} #{number}" if info.name else f"#{number}")
    return keys


def _build(
    records: list[_Record],
    infosets: Mapping[tuple[int, int], _Infoset],
    outcomes: _Outcomes,
    keys: Mapping[tuple[int, int], str],
    players: int,
    reader: TokenReader,
) -> TreeNode:
    """The tree from the node records in preorder: one pass, no recursion (trees may be deep).

    ``waiting`` holds the inner nodes whose children are still to come: the
    record, its number of children, the children so far, the payoff
    accumulated down to them (an outcome on an inner node is added to every
    leaf below it) and, for a chance node, its label (naming its place in the
    file, looked up in file order).  A node is made as soon as its last child is.
    """
    zero = (Fraction(0),) * players
    leaves: dict[int, Terminal] = {}  # by the id of the payoff tuple (held by the leaf)
    made = _InnerNodes(infosets, keys, reader)
    waiting: list[tuple[_Record, int, list[TreeNode], tuple[Fraction, ...], str]] = []
    root: TreeNode | None = None
    for record in records:
        kind, start, name, player, infoset, outcome = record
        if root is not None:
            raise reader.error("the tree is complete; this node has no parent", start)
        total = waiting[-1][3] if waiting else zero
        if outcome:
            own = outcomes[outcome][1]
            total = own if total is zero else tuple(a + b for a, b in zip(total, own))
        if kind != "t":
            info = infosets[(player, infoset)]
            if not info.actions:
                raise reader.error("a node needs at least one action", start)
            label = f"{name or info.name or 'chance'} ({reader.where(start)})" if kind == "c" else ""
            waiting.append((record, len(info.actions), [], total, label))
            continue
        node: TreeNode | None = leaves.get(id(total))
        if node is None:
            node = leaves[id(total)] = unchecked(Terminal, total)
        while waiting:
            parent, count, children, _, label = waiting[-1]
            children.append(node)
            if len(children) < count:
                break
            waiting.pop()
            node = made.node(parent, children, label)
        if not waiting:
            root = node
    if root is None:
        raise reader.error("the file ends before the tree is complete")
    return root


class _InnerNodes:
    """Makes the inner nodes of :func:`_build`, checking each information set's actions (and a chance
    set's probabilities) once, at its first node made; the others are made unchecked."""

    def __init__(self, infosets: Mapping[tuple[int, int], _Infoset], keys: Mapping[tuple[int, int], str],
                 reader: TokenReader) -> None:
        self.infosets, self.keys, self.reader = infosets, keys, reader
        self.checked: set[tuple[int, int]] = set()

    def node(self, record: _Record, children: list[TreeNode], label: str) -> TreeNode:
        kind, start, _, player, infoset, _ = record
        info = self.infosets[(player, infoset)]
        first = (player, infoset) not in self.checked
        self.checked.add((player, infoset))
        if kind == "c":
            outcomes = tuple(zip(info.actions, info.probabilities, children))
            return Chance(outcomes, label) if first else unchecked(Chance, outcomes, label)
        key = self.keys[(player, infoset)]
        if first and len(set(info.actions)) != len(info.actions):
            raise InvalidGameError(f"{self.reader.where(start)}: information set {key!r} repeats an action name: "
                                   f"{info.actions}")
        return unchecked(Move, player - 1, key, tuple(zip(info.actions, children)))


@dataclass(frozen=True)
class _EfgTables:
    """Strategies as a Gambit behaviour profile: per player, information sets in number order."""

    order: tuple[tuple[str, ...], ...]

    def __call__(self, compiled: CompiledGame, profile: BehaviourProfile) -> dict[str, list[list[Fraction]]]:
        result = {}
        for p, name in enumerate(compiled.player_names):
            by_key = profile.by_infoset(compiled, p)
            result[name] = [list(by_key[key]) for key in self.order[p] if key in by_key]
        return result


def efg_tables(loaded: LoadedGame) -> _EfgTables:
    """The strategies layout of a game read by :func:`read_efg`."""
    assert isinstance(loaded.tables, _EfgTables)
    return loaded.tables


def numbered_order(loaded: LoadedGame) -> tuple[tuple[str, ...], ...] | None:
    """Per player, the information-set keys of a game read by :func:`read_efg` in the order of their numbers
    in the file (``None`` for a game read otherwise)."""
    return loaded.tables.order if isinstance(loaded.tables, _EfgTables) else None


def gambit_profile(strategies: Mapping[str, Any]) -> list[list[list[Fraction]]]:
    """A result's ``strategies`` of an ``.efg`` game as the nested list ``pygambit``'s
    ``game.mixed_behavior_profile(data=...)`` takes (players, information sets, actions).

    The information sets are in the order of their numbers in the file.
    ``pygambit`` lists them in the order they first appear in the file; the
    two agree whenever the numbers follow first appearance (as in every file
    Gambit writes); otherwise match them by label.
    """
    return [[list(row) for row in table] for table in strategies.values()]


# ----------------------------------------------------------------------------- writing


def write_efg(tree: GameTree) -> str:
    """Any :class:`~exactpoker.core.tree.GameTree` as the text of a Gambit ``.efg`` file.

    Information sets are numbered per player in the order they are first met
    (depth first); each chance node has its own information set.  Reading the
    text back with :func:`read_efg` gives the same game with the same
    information-set keys.
    """
    players = " ".join(escaped(name) for name in tree.player_names)
    lines = [f"EFG 2 R {escaped(tree.name)} {{ {players} }}", '""', ""]
    numbers: dict[tuple[int, str], int] = {}
    counts = [0] * tree.num_players
    chance_count = outcome_count = 0
    for node in tree.nodes():
        if isinstance(node, Terminal):
            outcome_count += 1
            payoffs = ", ".join(exact_str(v) for v in node.payoffs)
            lines.append(f't "" {outcome_count} "" {{ {payoffs} }}')
        elif isinstance(node, Chance):
            chance_count += 1
            branches = " ".join(f"{escaped(name)} {exact_str(p)}" for name, p, _ in node.outcomes)
            lines.append(f'c "" {chance_count} "" {{ {branches} }} 0')
        else:
            key = (node.player, node.infoset)
            if key in numbers:
                lines.append(f'p "" {node.player + 1} {numbers[key]} 0')
                continue
            counts[node.player] += 1
            numbers[key] = counts[node.player]
            actions = " ".join(escaped(a) for a in node.action_names)
            lines.append(f'p "" {node.player + 1} {numbers[key]} {escaped(node.infoset)} {{ {actions} }} 0')
    return "\n".join(lines) + "\n"
