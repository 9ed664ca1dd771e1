"""Any finite game with perfect recall, as an explicit tree, and its compiler.

This is the general front door to the exact core.  A :class:`GameTree` is a
tree of :class:`Chance` nodes (exact probabilities, anywhere in the tree),
:class:`Move` nodes (a player chooses an action at a named information set)
and :class:`Terminal` nodes (exact payoffs, one per player).  Every front end
that reads a game from somewhere builds one: the poker language of
:mod:`exactpoker.core.poker`, Gambit's ``.efg``/``.nfg`` readers and the
OpenSpiel walker.  :func:`compile_tree` turns it into the same
:class:`~exactpoker.core.compiled.CompiledGame` (von Stengel's sequence form,
integer payoffs over one common denominator) that the card games of the
papers compile to, so every solver and the certificate work on it unchanged.
The poker language also compiles straight from its rules
(:func:`~exactpoker.core.poker_compile.compile_poker`, sharing this module's
layout builder and entry sums); its compiled game's tree is a
:class:`LazyTree`, built only when read.

Information sets are keyed by a string per player.  Perfect recall is
checked: every node of an information set must be reached after the same own
sequence of the player (the last own information set and action), and must
offer the same actions.  A violation raises
:class:`~exactpoker.errors.InvalidGameError` naming the information set.

References
----------
D. Koller, N. Megiddo, B. von Stengel, "Efficient computation of equilibria
for extensive two-person games", Games and Economic Behavior 14 (1996).
"""

from __future__ import annotations

import gc
import itertools
import math
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Iterator, Union

import numpy as np

from exactpoker import progress
from exactpoker.core.compiled import CompiledGame, TreeLayout
from exactpoker.errors import InvalidGameError
from exactpoker.numbers import exact_str, to_fraction

__all__ = ["Chance", "Move", "Terminal", "TreeNode", "GameTree", "LazyTree", "compile_tree", "map_terminals",
           "rebuild_tree", "unchecked", "paused_gc"]

_INT64_SAFE = 2**62


@dataclass(frozen=True, eq=False)
class Terminal:
    """A leaf: each player's exact payoff."""

    payoffs: tuple[Fraction, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "payoffs", tuple(to_fraction(v, "Terminal payoff") for v in self.payoffs))


@dataclass(frozen=True, eq=False)
class Chance:
    """A chance node: ``outcomes`` lists ``(name, probability, subtree)``.

    Probabilities are exact, non-negative and sum to exactly one; ``label``
    names the node in error messages.
    """

    outcomes: tuple[tuple[str, Fraction, "TreeNode"], ...]
    label: str = "chance"

    def __post_init__(self) -> None:
        if not self.outcomes:
            raise InvalidGameError(f"chance node {self.label!r}: needs at least one outcome")
        outcomes = []
        for name, prob, child in self.outcomes:
            p = to_fraction(prob, f"chance node {self.label!r}: probability of {name!r}")
            if p < 0:
                raise InvalidGameError(f"chance node {self.label!r}: probability of {name!r} is negative ({exact_str(p)})")
            outcomes.append((str(name), p, child))
        total = sum((p for _, p, _ in outcomes), Fraction(0))
        if total != 1:
            raise InvalidGameError(
                f"chance node {self.label!r}: probabilities must sum to 1; they sum to {exact_str(total)}"
            )
        object.__setattr__(self, "outcomes", tuple(outcomes))


@dataclass(frozen=True, eq=False)
class Move:
    """A decision of ``player`` (0-based) at information set ``infoset``.

    ``actions`` lists ``(name, subtree)``.  All nodes with the same
    ``(player, infoset)`` form one information set: the player cannot tell
    them apart, so they must offer the same action names.
    """

    player: int
    infoset: str
    actions: tuple[tuple[str, "TreeNode"], ...]

    def __post_init__(self) -> None:
        if not self.actions:
            raise InvalidGameError(f"information set {self.infoset!r}: needs at least one action")
        names = [name for name, _ in self.actions]
        if len(set(names)) != len(names):
            raise InvalidGameError(f"information set {self.infoset!r}: action names repeat: {names}")

    @property
    def action_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.actions)


TreeNode = Union[Chance, Move, Terminal]


@dataclass(frozen=True, eq=False)
class GameTree:
    """A finite extensive game.

    Parameters
    ----------
    name : str
        An identifier used in results and JSON.
    player_names : tuple of str
        One per player, in player order.
    root : TreeNode
        The tree.
    parameters : tuple of (str, object)
        What the game was built from, for display and JSON only.
    """

    name: str
    player_names: tuple[str, ...]
    root: TreeNode
    parameters: tuple[tuple[str, object], ...] = field(default=())

    @property
    def num_players(self) -> int:
        return len(self.player_names)

    def __post_init__(self) -> None:
        if not self.player_names:
            raise InvalidGameError(f"{self.name}: a game needs at least one player")

    def nodes(self) -> Iterator[TreeNode]:
        """Every node, depth first."""
        stack: list[TreeNode] = [self.root]
        while stack:
            node = stack.pop()
            yield node
            if isinstance(node, Chance):
                stack.extend(child for _, _, child in reversed(node.outcomes))
            elif isinstance(node, Move):
                stack.extend(child for _, child in reversed(node.actions))


class LazyTree(GameTree):
    """A :class:`GameTree` whose nodes are built by ``build()`` the first time :attr:`root` is read.

    A compiler that reads a game's rules directly, never its tree, gives the
    compiled game one of these: the few consumers that need the nodes (the
    constant-sum test, Lemke's costs; range dominance when the compiled game
    has no ``flat`` arrays) build them once, and every other path never pays
    for them (time and memory).
    """

    def __init__(self, name: str, player_names: tuple[str, ...], build: "Callable[[], TreeNode]",
                 parameters: tuple[tuple[str, object], ...] = ()) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "player_names", tuple(player_names))
        object.__setattr__(self, "parameters", parameters)
        object.__setattr__(self, "_build", build)
        self.__post_init__()

    def __getattr__(self, attribute: str) -> TreeNode:
        # Called only when ``attribute`` is not set: ``root`` before its first use.
        if attribute != "root":
            raise AttributeError(attribute)
        with paused_gc():
            root = self._build()
        object.__setattr__(self, "root", root)
        return root

    @property
    def built(self) -> bool:
        """Whether :attr:`root` has been built."""
        return "root" in self.__dict__


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while a large acyclic tree is built or walked.

    Building or walking millions of tree objects triggers collections that
    each traverse all of them (a 10-30x slowdown); none of them is garbage.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class _LayoutBuilder:
    """Collects one player's information sets in first-visit order, checking perfect recall."""

    def __init__(self, game: str, player: str) -> None:
        self.game, self.player = game, player
        self.names: list[str] = []
        self.actions: list[tuple[str, ...]] = []
        self.parents: list[int] = []
        self.firsts: list[int] = []
        self.index: dict[str, int] = {}
        self.next_sequence = 1

    def visit(self, infoset: str, actions: tuple[str, ...], parent: int) -> int:
        """The number of information set ``infoset`` (offering ``actions``, reached after the player's own
        sequence ``parent``); checks it against earlier visits."""
        found = self.index.get(infoset)
        if found is None:
            found = len(self.names)
            self.index[infoset] = found
            self.names.append(infoset)
            self.actions.append(actions)
            self.parents.append(parent)
            self.firsts.append(self.next_sequence)
            self.next_sequence += len(actions)
            return found
        if self.actions[found] != actions:
            raise InvalidGameError(
                f"{self.game}: information set {infoset!r} of player {self.player} offers different actions "
                f"at different nodes ({list(self.actions[found])} and {list(actions)})"
            )
        if self.parents[found] != parent:
            raise InvalidGameError(
                f"{self.game}: information set {infoset!r} of player {self.player} is reached after "
                f"different own moves ({self._describe(self.parents[found])} and {self._describe(parent)}): "
                "the game does not have perfect recall"
            )
        return found

    def _describe(self, sequence: int) -> str:
        if sequence == 0:
            return "no earlier move"
        for i, first in enumerate(self.firsts):
            if first <= sequence < first + len(self.actions[i]):
                return f"{self.actions[i][sequence - first]!r} at {self.names[i]!r}"
        raise AssertionError(sequence)  # pragma: no cover

    def layout(self) -> TreeLayout:
        return TreeLayout(tuple(self.names), tuple(self.actions), tuple(self.parents))


def map_terminals(game: GameTree, payoffs: Callable[[tuple[Fraction, ...]], tuple[object, ...]]) -> GameTree:
    """The same game with every leaf's payoffs replaced by ``payoffs(old payoffs)`` (shared subtrees stay shared)."""
    return rebuild_tree(game, leaf=lambda node: Terminal(payoffs(node.payoffs)))


def rebuild_tree(game: GameTree, *, leaf: "Callable[[Terminal], Terminal] | None" = None,
                 infoset: "Callable[[Move], str] | None" = None) -> GameTree:
    """``game`` with each leaf replaced by ``leaf(leaf)`` and each decision node's information set renamed
    ``infoset(node)``.

    One walk; a subtree shared in ``game`` stays shared, and a subtree in which
    nothing changes is ``game``'s own.  The rebuilt inner nodes keep their
    actions and probabilities, which passed their checks when ``game`` was
    built, so they are not checked again.  A :class:`LazyTree` not built yet
    gives a :class:`LazyTree` too: it builds ``game`` and rebuilds it the
    first time its root is read.
    """
    if isinstance(game, LazyTree) and not game.built:
        return LazyTree(game.name, game.player_names, lambda: _rebuilt(game.root, leaf, infoset), game.parameters)
    with paused_gc():
        return GameTree(game.name, game.player_names, _rebuilt(game.root, leaf, infoset), game.parameters)


def _rebuilt(root: TreeNode, leaf: "Callable[[Terminal], Terminal] | None",
             infoset: "Callable[[Move], str] | None") -> TreeNode:
    """The walk of :func:`rebuild_tree` from ``root``."""
    done: dict[int, TreeNode] = {}

    def rebuild(node: TreeNode) -> TreeNode:
        key = id(node)
        found = done.get(key)
        if found is not None:
            return found
        if isinstance(node, Terminal):
            found = node if leaf is None else leaf(node)
        elif isinstance(node, Chance):
            outcomes = tuple((name, p, rebuild(child)) for name, p, child in node.outcomes)
            same = all(new[2] is old[2] for new, old in zip(outcomes, node.outcomes))
            found = node if same else unchecked(Chance, outcomes, node.label)
        else:
            actions = tuple((name, rebuild(child)) for name, child in node.actions)
            name = node.infoset if infoset is None else infoset(node)
            same = name == node.infoset and all(new[1] is old[1] for new, old in zip(actions, node.actions))
            found = node if same else unchecked(Move, node.player, name, actions)
        done[key] = found
        return found

    return rebuild(root)


def unchecked(kind: type, *values: object) -> TreeNode:
    """A :class:`Chance`, :class:`Move` or :class:`Terminal` of these field values, without its checks.

    For builders whose nodes are right by construction (the probabilities
    exact fractions summing to one, the action names distinct, the payoffs a
    tuple of exact fractions): a rebuilt node whose original passed them, the
    poker builder's, or the ``.efg`` reader's once it has checked an
    information set (:mod:`exactpoker.formats.efg`).
    """
    node = object.__new__(kind)
    for name, value in zip(kind.__dataclass_fields__, values):  # type: ignore[attr-defined]
        object.__setattr__(node, name, value)
    return node  # type: ignore[return-value]


def compile_tree(game: GameTree, *, max_leaves: int = 5_000_000) -> CompiledGame:
    """Compile ``game`` into exact sequence-form payoffs.

    Walks the tree once.  Each leaf contributes ``probability * payoff`` to the
    entry of the players' last sequences on the way to it; entries with the
    same sequences are added, and everything is put over one common
    denominator.

    Raises
    ------
    InvalidGameError
        If a node names a player out of range, a leaf has the wrong number of
        payoffs, an information set offers different actions in different
        places or breaks perfect recall, or the tree has more than
        ``max_leaves`` leaves.
    """
    with paused_gc():
        return _compile(game, max_leaves)


def _compile(game: GameTree, max_leaves: int) -> CompiledGame:
    k = game.num_players
    builders = [_LayoutBuilder(game.name, name) for name in game.player_names]
    entries = _Entries(game.name, k, max_leaves)
    payoffs: dict[int, tuple[tuple[int, ...], int]] = {}  # id(leaf) -> its payoffs over one denominator
    # Depth first with an explicit stack: (node, reach probability as a reduced
    # numerator and denominator, last sequence per player).
    stack: list[tuple[TreeNode, int, int, tuple[int, ...]]] = [(game.root, 1, 1, (0,) * k)]
    progress.stage("compiling the sequence form", unit="leaves")
    while stack:
        node, num, den, last = stack.pop()
        if isinstance(node, Terminal):
            entries.count()
            if len(node.payoffs) != k:
                raise InvalidGameError(
                    f"{game.name}: a terminal node has {len(node.payoffs)} payoffs for {k} players"
                )
            if num == 0:
                continue
            over = payoffs.get(id(node))
            if over is None:
                over = payoffs[id(node)] = _over_one_denominator(node.payoffs)
            entries.add(last, num, den, over)
        elif isinstance(node, Chance):
            for _, q, child in reversed(node.outcomes):
                n, d = num * q.numerator, den * q.denominator
                g = math.gcd(n, d)
                stack.append((child, n // g, d // g, last))
        elif isinstance(node, Move):
            if not (isinstance(node.player, int) and 0 <= node.player < k):
                raise InvalidGameError(
                    f"{game.name}: information set {node.infoset!r} belongs to player {node.player!r}; "
                    f"players are 0..{k - 1}"
                )
            builder = builders[node.player]
            infoset = builder.visit(node.infoset, node.action_names, last[node.player])
            first = builder.firsts[infoset]
            for a in reversed(range(len(node.actions))):
                moved = last[: node.player] + (first + a,) + last[node.player + 1 :]
                stack.append((node.actions[a][1], num, den, moved))
        else:
            raise InvalidGameError(f"{game.name}: not a tree node: {node!r}")
    layouts = tuple(b.layout() for b in builders)
    sequences, coefficients, denominator = entries.arrays()
    return CompiledGame(game, layouts, sequences, coefficients, denominator)  # type: ignore[arg-type]


class _Entries:
    """The sequence form's payoff entries, summed exactly per tuple of the players' last sequences.

    Entries keep the order in which their tuples were first reached (the
    order of the compiled game's ``sequences``); each leaf adds its reach
    probability (a reduced ``num / den``) times its payoffs (integers over one
    denominator) in integers, per denominator, so nothing is reduced until
    :meth:`arrays`.
    """

    def __init__(self, game: str, k: int, max_leaves: int) -> None:
        self.game, self.k, self.max_leaves = game, k, max_leaves
        self.leaves = 0
        # per last-sequence tuple, {denominator: [numerator per player]}
        self.keys: dict[tuple[int, ...], dict[int, list[int]]] = {}

    def count(self) -> None:
        """One more leaf: the progress counter, and the limit on leaves."""
        self.leaves += 1
        if self.leaves % 1024 == 0:
            progress.advance(1024)
        if self.leaves > self.max_leaves:
            raise InvalidGameError(
                f"{self.game}: the tree has more than {self.max_leaves} leaves, the limit of the exact tree compiler"
            )

    def add(self, last: tuple[int, ...], num: int, den: int, over: tuple[tuple[int, ...], int]) -> None:
        """A leaf reached with probability ``num / den`` after ``last``, paying ``over[0][p] / over[1]``."""
        by_denominator = self.keys.get(last)
        if by_denominator is None:
            by_denominator = self.keys[last] = {}
        values = over[0]
        entry = by_denominator.get(den * over[1])
        if entry is None:
            by_denominator[den * over[1]] = [num * v for v in values]
        else:
            for p in range(self.k):
                entry[p] += num * values[p]

    def arrays(self) -> tuple[np.ndarray, np.ndarray, int]:
        """``sequences``, ``coefficients`` and ``denominator`` of the compiled game (:func:`_integer_entries`)."""
        return _integer_entries(self.keys, self.k)


def _over_one_denominator(values: tuple[Fraction, ...]) -> tuple[tuple[int, ...], int]:
    """Exact ``values`` as integer numerators over their least common denominator."""
    common = math.lcm(1, *(v.denominator for v in values))
    return tuple(v.numerator * (common // v.denominator) for v in values), common


def _integer_entries(entries: dict[tuple[int, ...], dict[int, list[int]]], k: int) -> tuple[np.ndarray, np.ndarray, int]:
    """The entries as integer numerators over their least common denominator; all-zero entries dropped.

    ``entries[seqs]`` maps denominators to numerators (one per player) whose
    quotients add up to the entry.  All arithmetic is in integers: the
    common denominator of every term, then the greatest common divisor of it
    and every numerator taken out, which leaves the least common denominator
    of the entries' reduced fractions.
    """
    denominators = {d for by_denominator in entries.values() for d in by_denominator}
    common = math.lcm(1, *denominators)
    scales = {d: common // d for d in denominators}
    kept, numerators = [], []
    for seqs, by_denominator in entries.items():
        if len(by_denominator) == 1:  # most entries: one term
            [(d, values)] = by_denominator.items()
            row = [v * scales[d] for v in values]
        else:
            row = [0] * k
            for d, values in by_denominator.items():
                scale = scales[d]
                for p in range(k):
                    row[p] += values[p] * scale
        if any(row):
            kept.append(seqs)
            numerators.append(row)
    flat = list(itertools.chain.from_iterable(numerators))
    divisor = math.gcd(common, *flat)
    bound = max(max(flat, default=0), -min(flat, default=0)) // divisor
    if divisor > 1:
        numerators = [[v // divisor for v in row] for row in numerators]
    dtype = np.int64 if bound < _INT64_SAFE // max(1, len(numerators)) else object
    sequences = np.array(kept, dtype=np.int64).reshape(len(kept), k)
    coefficients = np.array(numerators, dtype=dtype).reshape(len(kept), k)
    return sequences, coefficients, common // divisor
