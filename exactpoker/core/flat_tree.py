"""A game tree as integer arrays (post-order), for whole-array passes over every node.

Range dominance (:mod:`exactpoker.solve.structure.dominance`, seed 003 section 2) needs
only each node's children, each decision's mover and information set, and
each leaf's payoffs; it reads them level by level as numpy arrays.  A
:class:`FlatTree` holds exactly that, and comes from either

* :func:`flatten`, a walk of an explicit :class:`~exactpoker.core.tree.GameTree`
  (shared subtrees read once), or
* a compiler that walks a game's rules in depth-first order without building
  the tree (:func:`~exactpoker.core.poker_compile.flat_poker`), through a
  :class:`FlatTreeBuilder`: children are added before their parent, so every
  node's number is known when its parent is added.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Mapping, Sequence

import numpy as np

from exactpoker.core.tree import GameTree, Move, Terminal, TreeNode

__all__ = ["FlatTree", "FlatTreeBuilder", "flatten"]


@dataclass(frozen=True, eq=False)
class FlatTree:
    """A game tree's distinct nodes as integer arrays, children before parents (post-order).

    Attributes
    ----------
    num_players : int
    start, child : numpy.ndarray
        Node ``n``'s children, in action (or outcome) order, are
        ``child[start[n]:start[n + 1]]``; chance outcomes of probability 0 are left out.
    height : numpy.ndarray
        0 at a leaf, else one more than the highest child.
    player, infoset : numpy.ndarray
        A decision's mover and information-set number (-1 elsewhere).
    infosets : tuple of (int, str)
        Information set number ``i`` is ``infosets[i]``, ``(player, name)``.
    leaves, leaf_ranks : numpy.ndarray
        The leaves, and ``(len(leaves), num_players)``: their payoffs as ranks
        among all the leaves' distinct payoffs (exact: ranks order as the rationals do).
    """

    num_players: int
    start: np.ndarray
    child: np.ndarray
    height: np.ndarray
    player: np.ndarray
    infoset: np.ndarray
    infosets: tuple[tuple[int, str], ...]
    leaves: np.ndarray
    leaf_ranks: np.ndarray

    def ranges(self) -> tuple[np.ndarray, np.ndarray]:
        """``(low, high)``, ``(nodes, players)``: the lowest and highest payoff rank at the leaves below each node."""
        low = np.zeros((len(self.height), self.num_players), dtype=np.int64)
        low[self.leaves] = self.leaf_ranks
        high = low.copy()
        for level in range(1, int(self.height.max(initial=0)) + 1):
            nodes = np.flatnonzero(self.height == level)
            counts = self.start[nodes + 1] - self.start[nodes]
            firsts = np.cumsum(counts) - counts  # where each node's children begin among ``kids``
            kids = self.child[np.repeat(self.start[nodes] - firsts, counts) + np.arange(counts.sum())]
            low[nodes] = np.minimum.reduceat(low[kids], firsts)
            high[nodes] = np.maximum.reduceat(high[kids], firsts)
        return low, high

    def moves_by_arity(self) -> dict[int, np.ndarray]:
        """The decision nodes, grouped by their number of actions."""
        moves = np.flatnonzero(self.player >= 0)
        arity = self.start[moves + 1] - self.start[moves]
        return {int(a): moves[arity == a] for a in np.unique(arity)}

    def children_of(self, nodes: np.ndarray, arity: int) -> np.ndarray:
        """``(len(nodes), arity)``: the children of decision nodes with ``arity`` actions each, in action order."""
        return self.child[self.start[nodes][:, None] + np.arange(arity)]

    def relabelled(self, renames: Sequence[Mapping[str, str]]) -> FlatTree:
        """This tree with player ``p``'s information set ``name`` renamed ``renames[p][name]`` (others kept).

        Two information sets given one name become one, as
        :func:`~exactpoker.solve.structure.abstraction.relabel_infosets` merges them in a tree.
        """
        numbers: dict[tuple[int, str], int] = {}
        new = [numbers.setdefault((p, renames[p].get(name, name)), len(numbers)) for p, name in self.infosets]
        infoset = np.array(new + [-1], dtype=np.int64)[self.infoset]  # -1 (no information set) stays -1
        return replace(self, infoset=infoset, infosets=tuple(numbers))


class FlatTreeBuilder:
    """A :class:`FlatTree` node by node, children first: each ``add`` returns the new node's number."""

    def __init__(self, num_players: int) -> None:
        self.num_players = num_players
        self.start: list[int] = [0]
        self.child: list[int] = []
        self.player: list[int] = []
        self.infoset: list[int] = []
        self.infosets: dict[tuple[int, str], int] = {}
        self.leaves: dict[int, tuple[Fraction, ...]] = {}

    def leaf(self, payoffs: tuple[Fraction, ...]) -> int:
        """A leaf paying ``payoffs`` (one per player)."""
        here = self._add((), -1, -1)
        self.leaves[here] = payoffs
        return here

    def chance(self, children: Sequence[int]) -> int:
        """A chance node over ``children`` (its outcomes of positive probability, in order)."""
        return self._add(children, -1, -1)

    def move(self, player: int, name: str, children: Sequence[int]) -> int:
        """A decision of ``player`` in information set ``name``, ``children`` in action order."""
        return self._add(children, player, self.infosets.setdefault((player, name), len(self.infosets)))

    def _add(self, children: Sequence[int], player: int, infoset: int) -> int:
        self.child.extend(children)
        self.start.append(len(self.child))
        self.player.append(player)
        self.infoset.append(infoset)
        return len(self.player) - 1

    def build(self) -> FlatTree:
        """The arrays of the nodes added so far."""
        start, child = np.array(self.start, dtype=np.int64), np.array(self.child, dtype=np.int64)
        leaves = list(self.leaves.values())
        return FlatTree(self.num_players, start, child, _heights(start, child), np.array(self.player, dtype=np.int64),
                        np.array(self.infoset, dtype=np.int64), tuple(self.infosets),
                        np.array(list(self.leaves), dtype=np.int64), _ranks(leaves, self.num_players))


def flatten(tree: GameTree) -> FlatTree:
    """``tree`` as a :class:`FlatTree`: one iterative depth-first walk, each shared subtree read once."""
    built = FlatTreeBuilder(tree.num_players)
    position: dict[int, int] = {}
    stack: list[tuple[TreeNode, bool]] = [(tree.root, False)]
    while stack:
        node, expanded = stack.pop()
        if id(node) in position:
            continue
        kind = type(node)
        if kind is Terminal:
            kids = ()
        elif kind is Move:
            kids = [c for _, c in node.actions]
        else:
            kids = [c for _, prob, c in node.outcomes if prob > 0]
        if kids and not expanded:
            stack.append((node, True))
            stack.extend((c, False) for c in kids if id(c) not in position)
            continue
        below = [position[id(c)] for c in kids]
        if kind is Terminal:
            position[id(node)] = built.leaf(node.payoffs)
        elif kind is Move:
            position[id(node)] = built.move(node.player, node.infoset, below)
        else:
            position[id(node)] = built.chance(below)
    return built.build()


def _heights(start: np.ndarray, child: np.ndarray) -> np.ndarray:
    """Each node's height (0 at a leaf, else one more than its highest child), one whole-array pass per level."""
    inner = np.flatnonzero(start[1:] > start[:-1])
    height = np.zeros(len(start) - 1, dtype=np.int64)
    while len(inner):  # the inner nodes' children are consecutive in ``child``: one segment each
        raised = 1 + np.maximum.reduceat(height[child], start[inner])
        if np.array_equal(raised, height[inner]):
            break
        height[inner] = raised
    return height


def _ranks(payoffs: list[tuple[Fraction, ...]], players: int) -> np.ndarray:
    """Each leaf's payoffs as their ranks among all the leaves' distinct payoffs (increasing)."""
    rank = {value: i for i, value in enumerate(sorted({v for row in payoffs for v in row}))}
    return np.array([[rank[v] for v in row] for row in payoffs], dtype=np.int64).reshape(len(payoffs), players)
