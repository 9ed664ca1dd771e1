"""The size of a poker-language game's tree, counted without building it.

:func:`tree_size` counts the nodes, leaves, information sets and sequences of
the :class:`~exactpoker.core.tree.GameTree` that
:meth:`PokerGame.tree() <exactpoker.core.poker.PokerGame.tree>` would build,
so that a guard (:mod:`exactpoker.guard`) can refuse a game too large for the
memory before any of it exists (``library:leduc(ranks=1000)``,
``library:ladder(n=100000)``).

How: the betting does not depend on the cards, only the number of deals does.
The builder's own betting rules (:class:`~exactpoker.core.poker._Builder`)
run once over a *skeleton* in which every deal is one chance node carrying its
number of outcomes ``k``; the count then walks the skeleton with the number of
deal paths ``M`` (each deal multiplies it by ``k``) and, per player, the
number of card combinations the player may have seen ``m_p`` (their own cards
and the board, ``c_p`` cards: the falling product ``D (D - 1) ...`` of ``c_p``
factors): a decision node of player ``p`` stands for ``M`` tree nodes and at
most ``min(m_p, M)`` information sets.  A deal without replacement of the
``j``-th card has at most ``min(D, S - j)`` outcomes (``D`` distinct cards,
``S`` cards in all): exact for a deck of distinct cards, an upper bound with
copies, so the counts are exact or slightly above.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from exactpoker.core.poker import Deal, PokerGame, _Builder, _State
from exactpoker.core.tree import Chance, Move, Terminal, TreeNode

__all__ = ["TreeSize", "tree_size"]


@dataclass(frozen=True)
class TreeSize:
    """Counts of a game tree: all nodes, leaves, and per player information sets and sequences."""

    nodes: int
    terminals: int
    infosets: tuple[int, ...]
    sequences: tuple[int, ...]


class _Skeleton(_Builder):
    """The builder with every deal replaced by one chance node that records its outcome count."""

    _LEAF = Terminal(())

    def deal(self, index: int, step: Deal, targets: list[int], state: _State) -> TreeNode:
        if not targets:
            return self.step(index + 1, state)
        target, rest = targets[0], targets[1:]
        dealt = len(state.board) + sum(map(len, state.hands))
        distinct = len(self.game.deck.counts)
        outcomes = distinct if step.replacement else min(distinct, self.game.deck.size - dealt)
        if target < 0:
            hands, board = state.hands, state.board + (0,)
        else:
            hands, board = state.hands[:target] + (state.hands[target] + (0,),) + state.hands[target + 1:], state.board
        after = _State(state.counts, hands, board, state.contributions, state.active, state.history)
        name = f"{target} {outcomes} {int(step.replacement)}"
        return Chance(((name, Fraction(1), self.deal(index, step, rest, after)),))

    def label(self, state: _State, player: int) -> str:
        return ""

    def end(self, state: _State) -> Terminal:
        return self._LEAF


def tree_size(game: PokerGame) -> TreeSize:
    """The counts of ``game.tree()`` (see the module docstring), in time proportional to its betting tree."""
    root = _Skeleton(game).step(0, _State.start(game))
    players, distinct, size = game.players, len(game.deck.counts), game.deck.size
    terminals = inner = 0
    infosets, sequences = [0] * players, [0] * players
    # (node, deal paths M, per player (combinations seen m_p, cards seen c_p))
    stack: list[tuple[TreeNode, int, tuple[tuple[int, int], ...]]] = [(root, 1, ((1, 0),) * players)]
    while stack:
        node, paths, seen = stack.pop()
        if isinstance(node, Terminal):
            terminals += paths
        elif isinstance(node, Chance):
            inner += paths
            name, _, child = node.outcomes[0]
            target, outcomes, replacement = map(int, name.split())
            seen = tuple((m * (distinct if replacement else min(distinct, size - c)), c + 1) if target in (-1, p)
                         else (m, c) for p, (m, c) in enumerate(seen))
            stack.append((child, paths * outcomes, seen))
        else:
            assert isinstance(node, Move)
            inner += paths
            sets = min(seen[node.player][0], paths)
            infosets[node.player] += sets
            sequences[node.player] += sets * len(node.actions)
            stack.extend((child, paths, seen) for _, child in node.actions)
    return TreeSize(inner + terminals, terminals, tuple(infosets), tuple(1 + s for s in sequences))
