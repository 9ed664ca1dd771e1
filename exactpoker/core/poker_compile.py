"""The poker language compiled straight from its rules into the sequence form, without building the tree.

:func:`compile_poker` gives exactly what
``compile_tree(game.tree())`` gives (:func:`~exactpoker.core.tree.compile_tree`,
Koller, Megiddo and von Stengel's sequence form): the same layouts, the same
payoff entries in the same order, the same common denominator.  It walks the
same depth-first order (chance outcomes in card order, actions in order) but
creates no tree node:

* the betting does not depend on the cards, so the builder's own betting
  rules (:class:`~exactpoker.core.poker._Builder`) run once over a *plan*: the
  game with every dealt card left out, each decision and each end of the hand
  remembering its contributions, players in and history, each deal one step
  per card dealt;
* the plan is then walked once per deal, with the cards: every decision is
  labelled by the builder's own :meth:`~exactpoker.core.poker._Builder.label`
  and numbered in first-visit order with the perfect-recall checks of
  :func:`~exactpoker.core.tree.compile_tree`, every end of the hand paid by the
  builder's own :meth:`~exactpoker.core.poker._Builder.end`, and its reach
  probability (a reduced integer fraction) times its payoffs added to the
  entry of the players' last sequences, as in ``compile_tree``.

The compiled game's ``game`` is a :class:`~exactpoker.core.tree.LazyTree`:
the few consumers that need the tree's nodes (the constant-sum test, Lemke's
costs) build it the first time they read it; every other path never does.
Range dominance reads the tree as integer arrays
(:class:`~exactpoker.core.flat_tree.FlatTree`): :func:`flat_poker` gives them
by the same walk of the plan (:class:`_PlanWalk`), each node added children
first instead of accumulated into the sequence form, and the compiled game's
``flat`` calls it on demand.

References
----------
D. Koller, N. Megiddo, B. von Stengel, "Efficient computation of equilibria
for extensive two-person games", Games and Economic Behavior 14 (1996)
(the sequence form); H. W. Kuhn (1950), Southey et al. (2005) for the games
of :mod:`exactpoker.core.poker`.
"""

from __future__ import annotations

import math
from typing import Any

from exactpoker import progress
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.flat_tree import FlatTree, FlatTreeBuilder
from exactpoker.core.poker import PokerGame, _Builder, _State
from exactpoker.core.poker_cards import card_tables, compile_cards
from exactpoker.core.poker_plan import PlanCard, PlanDecision, Planner
from exactpoker.core.tree import LazyTree, Terminal, _Entries, _LayoutBuilder, _over_one_denominator, paused_gc

__all__ = ["compile_poker", "flat_poker", "lazy_tree"]


def compile_poker(game: PokerGame, *, max_leaves: int = 5_000_000) -> CompiledGame:
    """Compile ``game`` into exact sequence-form payoffs straight from its rules (module docstring).

    The result equals ``compile_tree(game.tree(), max_leaves=max_leaves)``
    array by array; its ``game`` is a :class:`~exactpoker.core.tree.LazyTree`
    of ``game.tree()`` and its ``flat`` gives that tree's arrays from the
    rules (:func:`flat_poker`).

    Raises
    ------
    InvalidGameError
        As :func:`~exactpoker.core.tree.compile_tree` does: an information set
        (a ``View(key=...)``) that offers different actions or breaks perfect
        recall, a ``payoff`` of the wrong length, more than ``max_leaves``
        leaves.
    """
    tables = card_tables(game)
    if tables is not None:  # a one-card game: vectorised over the deals (poker_cards.compile_cards)
        progress.stage("compiling the sequence form (one card each, all deals at once)")
        layouts, sequences, coefficients, denominator = compile_cards(game, tables, max_leaves)
    else:
        with paused_gc():
            walk = _SequenceWalk(game, max_leaves)
            progress.stage("compiling the sequence form", unit="leaves")
            walk.walk((1, 1, (0,) * game.players))
            layouts = tuple(b.layout() for b in walk.builders)  # type: ignore[assignment]
            sequences, coefficients, denominator = walk.entries.arrays()
    return CompiledGame(lazy_tree(game), layouts, sequences, coefficients, denominator,  # type: ignore[arg-type]
                        flat=lambda: flat_poker(game))


def lazy_tree(game: PokerGame) -> LazyTree:
    """``game.tree()``, built the first time its nodes are read: the ``game`` of what is made from the rules."""
    return LazyTree(game.name, game.player_names, lambda: game.tree().root, game.parameters)  # type: ignore[arg-type]


def flat_poker(game: PokerGame) -> FlatTree:
    """``game.tree()`` as a :class:`~exactpoker.core.flat_tree.FlatTree`, straight from the rules (no tree node).

    The same walk of the plan as :func:`compile_poker`: every decision with
    the builder's own label, every chance node over its cards left, every end
    of the hand with the builder's own payoffs; ends with the same
    contributions and winners are one leaf, as the builder shares them.
    Range dominance (:func:`~exactpoker.solve.structure.dominance.range_dominated`)
    gives the same verdicts on these arrays as on the tree's.
    """
    with paused_gc():
        walk = _FlatWalk(game)
        walk.walk(None)
        return walk.built.build()


class _PlanWalk:
    """The plan walked once per deal in ``compile_tree``'s depth-first order (chance outcomes in card order, actions
    in order), with the cards; each node gives what a subclass makes of it (:meth:`decide`, :meth:`chance`,
    :meth:`reached`), from what reaches it (``reach``: :meth:`dealt` says what reaches each card)."""

    def __init__(self, game: PokerGame) -> None:
        self.game = game
        self.planner = Planner(game)
        # Without ``payoff=``, a leaf's payoffs follow from its contributions and winners: one ending per pair.
        self.endings: "dict[Any, Any] | None" = {} if game.payoff is None else None

    def walk(self, reach: Any) -> Any:
        """The whole plan from the start of the hand, nothing dealt yet."""
        game = self.game
        return self.visit(self.planner.step(0, _State.start(game)), reach, game.deck.counts, ((),) * game.players, ())

    def visit(self, node: Any, reach: Any, counts: tuple[int, ...], hands: tuple[tuple[int, ...], ...],
              board: tuple[int, ...]) -> Any:
        """``node`` of the plan, these cards dealt."""
        kind = type(node)
        if kind is PlanDecision:
            betting = node.state
            state = _State(counts, hands, board, betting.contributions, betting.active, betting.history)
            return self.decide(node, self.planner.label(state, node.player), reach, counts, hands, board)
        if kind is PlanCard:
            return self.deal(node, reach, counts, hands, board)
        return self.leaf(node.state, reach, counts, hands, board)

    def deal(self, node: PlanCard, reach: Any, counts: tuple[int, ...], hands: tuple[tuple[int, ...], ...],
             board: tuple[int, ...]) -> Any:
        """One card to ``node.target``: each distinct card left (with probability copies left / cards left)."""
        left, target = sum(counts), node.target
        below = []
        for card, count in enumerate(counts):
            if count == 0:
                continue
            dealt = counts if node.replacement else counts[:card] + (count - 1,) + counts[card + 1:]
            if target < 0:
                below.append(self.visit(node.child, self.dealt(reach, count, left), dealt, hands, board + (card,)))
            else:
                held = hands[:target] + (hands[target] + (card,),) + hands[target + 1:]
                below.append(self.visit(node.child, self.dealt(reach, count, left), dealt, held, board))
        return self.chance(below)

    def leaf(self, betting: _State, reach: Any, counts: tuple[int, ...], hands: tuple[tuple[int, ...], ...],
             board: tuple[int, ...]) -> Any:
        """An end of the hand: the builder's leaf (:meth:`ending`, once per contributions and winners), reached."""
        if self.endings is None:
            return self.reached(self._ending(betting, counts, hands, board), reach)
        key = (betting.contributions, self.planner.pot_winners(hands, board, betting.active))
        found = self.endings.get(key)
        if found is None:
            found = self.endings[key] = self._ending(betting, counts, hands, board)
        return self.reached(found, reach)

    def _ending(self, betting: _State, counts: tuple[int, ...], hands: tuple[tuple[int, ...], ...],
                board: tuple[int, ...]) -> Any:
        state = _State(counts, hands, board, betting.contributions, betting.active, betting.history)
        return self.ending(_Builder.end(self.planner, state))

    def decide(self, node: PlanDecision, label: str, reach: Any, counts: tuple[int, ...],
               hands: tuple[tuple[int, ...], ...], board: tuple[int, ...]) -> Any:  # pragma: no cover - abstract
        """A decision labelled ``label``: its children are ``self.visit(child, ..., counts, hands, board)``."""
        raise NotImplementedError

    def dealt(self, reach: Any, count: int, left: int) -> Any:  # pragma: no cover - abstract
        """What reaches a card of ``count`` copies among ``left`` cards, from ``reach``."""
        raise NotImplementedError

    def chance(self, below: list[Any]) -> Any:  # pragma: no cover - abstract
        """A chance node whose outcomes gave ``below``."""
        raise NotImplementedError

    def ending(self, terminal: Terminal) -> Any:  # pragma: no cover - abstract
        """What the builder's leaf ``terminal`` gives (computed once per distinct leaf without ``payoff=``)."""
        raise NotImplementedError

    def reached(self, ending: Any, reach: Any) -> Any:  # pragma: no cover - abstract
        """A leaf giving ``ending``, reached with ``reach``."""
        raise NotImplementedError


class _SequenceWalk(_PlanWalk):
    """The walk accumulating the sequence form: ``reach`` is ``(num, den, last)``, the probability ``num / den``
    of the cards dealt and each player's last sequence."""

    def __init__(self, game: PokerGame, max_leaves: int) -> None:
        super().__init__(game)
        self.builders = [_LayoutBuilder(game.name, name) for name in game.player_names]  # type: ignore[union-attr]
        self.entries = _Entries(game.name, game.players, max_leaves)

    def decide(self, node: PlanDecision, label: str, reach: Any, counts: tuple[int, ...],
               hands: tuple[tuple[int, ...], ...], board: tuple[int, ...]) -> None:
        """Numbered in first-visit order with ``compile_tree``'s perfect-recall checks; each action's sequence."""
        num, den, last = reach
        player = node.player
        builder = self.builders[player]
        first = builder.firsts[builder.visit(label, node.actions, last[player])]
        before, after, visit = last[:player], last[player + 1:], self.visit
        for a, child in enumerate(node.children):
            visit(child, (num, den, before + (first + a,) + after), counts, hands, board)

    def dealt(self, reach: Any, count: int, left: int) -> Any:
        num, den, last = reach
        g = math.gcd(count, left)
        n, d = num * (count // g), den * (left // g)
        g = math.gcd(n, d)
        return n // g, d // g, last

    def chance(self, below: list[Any]) -> None:
        return None

    def ending(self, terminal: Terminal) -> tuple[tuple[int, ...], int]:
        return _over_one_denominator(terminal.payoffs)

    def reached(self, ending: Any, reach: Any) -> None:
        """The leaf's payoffs times the reach added to the entry of the players' last sequences."""
        entries = self.entries
        entries.count()
        num, den, last = reach
        entries.add(last, num, den, ending)


class _FlatWalk(_PlanWalk):
    """The walk adding every node to a :class:`~exactpoker.core.flat_tree.FlatTreeBuilder`, children first; each
    node gives its number (``reach`` is unused)."""

    def __init__(self, game: PokerGame) -> None:
        super().__init__(game)
        self.built = FlatTreeBuilder(game.players)

    def decide(self, node: PlanDecision, label: str, reach: Any, counts: tuple[int, ...],
               hands: tuple[tuple[int, ...], ...], board: tuple[int, ...]) -> int:
        below = [self.visit(child, reach, counts, hands, board) for child in node.children]
        return self.built.move(node.player, label, below)

    def dealt(self, reach: Any, count: int, left: int) -> Any:
        return reach

    def chance(self, below: list[Any]) -> int:
        return self.built.chance(below)

    def ending(self, terminal: Terminal) -> int:
        return self.built.leaf(terminal.payoffs)

    def reached(self, ending: Any, reach: Any) -> int:
        return ending
