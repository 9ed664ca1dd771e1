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
costs, range dominance) build it the first time they read it; every other path
never does.

References
----------
D. Koller, N. Megiddo, B. von Stengel, "Efficient computation of equilibria
for extensive two-person games", Games and Economic Behavior 14 (1996)
(the sequence form); H. W. Kuhn (1950), Southey et al. (2005) for the games
of :mod:`exactpoker.core.poker`.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from exactpoker import progress
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.poker import Deal, PokerGame, _Builder, _State
from exactpoker.core.tree import LazyTree, _Entries, _LayoutBuilder, _over_one_denominator, paused_gc

__all__ = ["compile_poker"]


class _Decide(NamedTuple):
    """A decision of the plan: ``state`` has the betting (its cards are left out), ``children`` one per action."""

    state: _State
    player: int
    actions: tuple[str, ...]
    children: tuple[Any, ...]


class _Card(NamedTuple):
    """One card dealt in the plan: to player ``target`` (-1: the board), then ``child``."""

    target: int
    replacement: bool
    child: Any


class _End(NamedTuple):
    """An end of the hand in the plan (``state`` has the betting, its cards left out)."""

    state: _State


class _Planner(_Builder):
    """The builder with every card left out: decisions, deals and ends become plan entries."""

    def deal(self, index: int, step: Deal, targets: list[int], state: _State) -> Any:
        if not targets:
            return self.step(index + 1, state)
        return _Card(targets[0], step.replacement, self.deal(index, step, targets[1:], state))

    def decision(self, state: _State, player: int, actions: tuple[tuple[str, Any], ...]) -> _Decide:
        return _Decide(state, player, tuple(name for name, _ in actions), tuple(child for _, child in actions))

    def end(self, state: _State) -> Any:
        return _End(state)


def compile_poker(game: PokerGame, *, max_leaves: int = 5_000_000) -> CompiledGame:
    """Compile ``game`` into exact sequence-form payoffs straight from its rules (module docstring).

    The result equals ``compile_tree(game.tree(), max_leaves=max_leaves)``
    array by array; its ``game`` is a :class:`~exactpoker.core.tree.LazyTree`
    of ``game.tree()``.

    Raises
    ------
    InvalidGameError
        As :func:`~exactpoker.core.tree.compile_tree` does: an information set
        (a ``View(key=...)``) that offers different actions or breaks perfect
        recall, a ``payoff`` of the wrong length, more than ``max_leaves``
        leaves.
    """
    with paused_gc():
        walk = _Walk(game, max_leaves)
        progress.stage("compiling the sequence form", unit="leaves")
        walk.visit(walk.planner.step(0, _State.start(game)), 1, 1, (0,) * game.players,
                   game.deck.counts, ((),) * game.players, ())
        layouts = tuple(b.layout() for b in walk.builders)
        sequences, coefficients, denominator = walk.entries.arrays()
    tree = LazyTree(game.name, game.player_names, lambda: game.tree().root, game.parameters)  # type: ignore[arg-type]
    return CompiledGame(tree, layouts, sequences, coefficients, denominator)  # type: ignore[arg-type]


class _Walk:
    """The plan walked once per deal, in ``compile_tree``'s depth-first order, accumulating the sequence form."""

    def __init__(self, game: PokerGame, max_leaves: int) -> None:
        self.planner = _Planner(game)
        self.builders = [_LayoutBuilder(game.name, name) for name in game.player_names]  # type: ignore[union-attr]
        self.entries = _Entries(game.name, game.players, max_leaves)
        # Without ``payoff=``, a leaf's payoffs (over one denominator) follow from its contributions and winners.
        self.payoffs: "dict[Any, tuple[tuple[int, ...], int]] | None" = {} if game.payoff is None else None

    def visit(self, node: Any, num: int, den: int, last: tuple[int, ...], counts: tuple[int, ...],
              hands: tuple[tuple[int, ...], ...], board: tuple[int, ...]) -> None:
        """``node`` of the plan reached with probability ``num / den`` after ``last``, these cards dealt."""
        kind = type(node)
        if kind is _Decide:
            betting = node.state
            state = _State(counts, hands, board, betting.contributions, betting.active, betting.history)
            player = node.player
            builder = self.builders[player]
            first = builder.firsts[builder.visit(self.planner.label(state, player), node.actions, last[player])]
            before, after = last[:player], last[player + 1:]
            for a, child in enumerate(node.children):
                self.visit(child, num, den, before + (first + a,) + after, counts, hands, board)
        elif kind is _Card:
            self.deal(node, num, den, last, counts, hands, board)
        else:
            self.leaf(node.state, num, den, last, counts, hands, board)

    def deal(self, node: _Card, num: int, den: int, last: tuple[int, ...], counts: tuple[int, ...],
             hands: tuple[tuple[int, ...], ...], board: tuple[int, ...]) -> None:
        """One card to ``node.target``: each distinct card left with probability (copies left) / (cards left)."""
        left, target = sum(counts), node.target
        for card, count in enumerate(counts):
            if count == 0:
                continue
            dealt = counts if node.replacement else counts[:card] + (count - 1,) + counts[card + 1:]
            g = math.gcd(count, left)
            n, d = num * (count // g), den * (left // g)
            g = math.gcd(n, d)
            if target < 0:
                self.visit(node.child, n // g, d // g, last, dealt, hands, board + (card,))
            else:
                held = hands[:target] + (hands[target] + (card,),) + hands[target + 1:]
                self.visit(node.child, n // g, d // g, last, dealt, held, board)

    def leaf(self, betting: _State, num: int, den: int, last: tuple[int, ...], counts: tuple[int, ...],
             hands: tuple[tuple[int, ...], ...], board: tuple[int, ...]) -> None:
        """An end of the hand: the builder's leaf, its payoffs times the reach added to the entry of ``last``."""
        self.entries.count()
        if self.payoffs is None:
            over = self._over(_State(counts, hands, board, betting.contributions, betting.active, betting.history))
        else:
            key = (betting.contributions, self.planner.pot_winners(hands, board, betting.active))
            over = self.payoffs.get(key)  # type: ignore[assignment]
            if over is None:
                over = self.payoffs[key] = self._over(
                    _State(counts, hands, board, betting.contributions, betting.active, betting.history))
        self.entries.add(last, num, den, over)

    def _over(self, state: _State) -> tuple[tuple[int, ...], int]:
        """The builder's leaf at ``state``: its payoffs over one denominator."""
        return _over_one_denominator(_Builder.end(self.planner, state).payoffs)
