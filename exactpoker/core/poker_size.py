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

:func:`suit_isomorphic_size` counts the same game's information sets and
sequences after merging those that a permutation of the suits maps onto each
other (Gilpin and Sandholm's lossless abstraction, JACM 2007, for the suit
symmetry alone): the size :func:`exactpoker.solve.structure.abstraction.abstraction_size`
finds on the built game, for games too large to build (Rhode Island Hold'em).

The skeleton itself is the game's betting tree, which grows exponentially in
the players and raises (ten-player Leduc): ``tree_size(game, max_decisions=K)``
stops building it after ``K`` decisions and raises
:class:`~exactpoker.errors.ResourceLimitError` (every one of them stands for at
least one node of the tree, so the tree is at least that large), so a guard
answers in about a second whatever the rules.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

from exactpoker.core.poker import CardDeck, Deal, PokerGame, _Builder, _State
from exactpoker.core.tree import Chance, Move, Terminal, TreeNode
from exactpoker.errors import InvalidParameterError, ResourceLimitError

__all__ = ["TreeSize", "tree_size", "suit_isomorphic_size", "view_classes", "BettingTooLarge"]


class BettingTooLarge(ResourceLimitError):
    """The betting tree alone has more decisions than :func:`tree_size` was allowed to count."""

    def __init__(self, game: PokerGame, decisions: int) -> None:
        self.reason = (f"its betting alone has more than {decisions:,} decision points (each one at least one node "
                       "of the game tree, for every deal): too large to count, let alone solve exactly; choose "
                       "fewer players or raises")
        super().__init__(f"{game.name}: {self.reason}")
        self.decisions = decisions


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

    def __init__(self, game: PokerGame, max_decisions: int | None = None) -> None:
        super().__init__(game)
        self.max_decisions = max_decisions
        self.decisions = 0

    def decision(self, state: _State, player: int, actions: tuple[tuple[str, TreeNode], ...]) -> TreeNode:
        self.decisions += 1
        if self.max_decisions is not None and self.decisions > self.max_decisions:
            raise BettingTooLarge(self.game, self.max_decisions)
        return super().decision(state, player, actions)

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


def tree_size(game: PokerGame, max_decisions: int | None = None) -> TreeSize:
    """The counts of ``game.tree()`` (see the module docstring), in time proportional to its betting tree.

    Raises
    ------
    BettingTooLarge
        If the betting tree has more than ``max_decisions`` decisions (``None``: no bound).
    """
    root = _Skeleton(game, max_decisions).step(0, _State.start(game))
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


def suit_isomorphic_size(game: PokerGame, *, suits_together: bool = False) -> TreeSize:
    """Information sets and sequences of ``game.tree()`` once suit-isomorphic ones are merged, counted from the rules.

    Parameters
    ----------
    game : PokerGame
        A deck of distinct cards (ranks times suits, no copies).  A player's
        own cards count as a set, the board in the order dealt (exact for one
        own card, as in Leduc and Rhode Island Hold'em).
    suits_together : bool
        False: the ranking ignores suits, so the suits of each rank may be
        permuted independently (Leduc: what the automorphism search finds on
        the built game).  True: suits matter together (flushes, as in Rhode
        Island Hold'em), so only one permutation of all suits at once.

    Returns
    -------
    TreeSize
        ``infosets`` and ``sequences`` per player after the merge; ``nodes`` and
        ``terminals`` of the full tree (:func:`tree_size`).
    """
    if any(count != 1 for count in game.deck.counts):
        raise InvalidParameterError("suit_isomorphic_size(): the deck must hold distinct cards (suits, no copies)")
    full = tree_size(game)
    root = _Skeleton(game).step(0, _State.start(game))
    classes: dict[tuple[int, int], int] = {}
    infosets, sequences = [0] * game.players, [0] * game.players
    # (node, deal paths, per player (own cards seen, board cards seen))
    stack: list[tuple[TreeNode, int, tuple[tuple[int, int], ...]]] = [(root, 1, ((0, 0),) * game.players)]
    while stack:
        node, paths, seen = stack.pop()
        if isinstance(node, Chance):
            name, _, child = node.outcomes[0]
            target, outcomes, _ = map(int, name.split())
            seen = tuple((own + (target == p), board + (target == -1)) for p, (own, board) in enumerate(seen))
            stack.append((child, paths * outcomes, seen))
        elif isinstance(node, Move):
            view = seen[node.player]
            if view not in classes:
                classes[view] = view_classes(game.deck, *view, suits_together=suits_together)
            sets = min(classes[view], paths)
            infosets[node.player] += sets
            sequences[node.player] += sets * len(node.actions)
            stack.extend((child, paths, seen) for _, child in node.actions)
    return TreeSize(full.nodes, full.terminals, tuple(infosets), tuple(1 + s for s in sequences))


def view_classes(deck: CardDeck, own: int, board: int, *, suits_together: bool = False) -> int:
    """How many views (a set of ``own`` cards, then ``board`` cards in order) are distinct up to suit permutations.

    Counted by listing every view once in a canonical form: suits renamed in
    the order they first appear (per rank unless ``suits_together``), the own
    cards in the order that gives the least form.
    """
    cards = [(card.rank, card.suit) for card in deck.cards]
    forms = set()
    for hole in itertools.combinations(range(len(cards)), own):
        rest = [c for c in range(len(cards)) if c not in hole]
        for shown in itertools.permutations(rest, board):
            forms.add(min(_renamed([cards[c] for c in order + shown], suits_together)
                          for order in itertools.permutations(hole)))
    return len(forms)


def _renamed(view: list[tuple[int, int]], together: bool) -> tuple[tuple[int, int], ...]:
    """``view`` with its suits renamed 0, 1, ... in order of first appearance (within each rank unless ``together``)."""
    names: dict[tuple[int, int], int] = {}
    used: dict[int, int] = {}
    renamed = []
    for rank, suit in view:
        group = -1 if together else rank
        key = (group, suit)
        if key not in names:
            names[key] = used.get(group, 0)
            used[group] = names[key] + 1
        renamed.append((rank, names[key]))
    return tuple(renamed)
