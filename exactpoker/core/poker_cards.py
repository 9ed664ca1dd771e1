"""A poker-language game that is a one-card betting game, read as one from its rules.

The papers' card games (seed 000: von Neumann, Newman and three-player poker)
are :class:`~exactpoker.core.game.BettingGame` rules: cards ``1..n``, one to
each player, every deal equally likely, and one betting tree below every deal
whose leaves pay the pot to the highest card still in.  A
:class:`~exactpoker.core.poker.PokerGame` is one of them exactly when

* its first step deals one hole card to every player and no board card, and no
  later step deals;
* its deck has ``n`` distinct ranks, one card each (no suits, no copies), so a
  card is its rank and the cards are ``1..n`` from the lowest;
* the pot goes to the highest card still in (the default ranking), with no
  rake, no ``payoff=`` and the default :class:`~exactpoker.core.poker.View`
  (a player knows their card and the betting).

:func:`card_game` then writes the betting tree once from the rules' card-free
plan (:mod:`exactpoker.core.poker_compile`), each decision labelled by its
betting history as the poker language labels it, so a player's information
set ``"K|cb"`` is the rules' card ``K`` and label ``cb``.  The two describe one
game (``tests/test_poker_cards.py`` compiles both and compares them by name).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from exactpoker.core.game import BettingGame, Decision, Deck, Node, Outcome
from exactpoker.core.poker import Betting, Deal, PokerGame, View, high_card
from exactpoker.core.poker import _State
from exactpoker.core.poker_plan import PlanCard, PlanDecision, PlanEnd, Planner

__all__ = ["card_game", "card_label", "first_seen_cards"]


def card_game(game: PokerGame) -> BettingGame | None:
    """``game`` as a one-card betting game (module docstring), or ``None`` when it is not one."""
    steps = game.steps
    first = steps[0]
    if not (isinstance(first, Deal) and first.hole == 1 and first.board == 0):
        return None
    if not all(isinstance(step, Betting) for step in steps[1:]):
        return None
    deck = game.deck
    if len(deck.suits) != 1 or any(count != 1 for count in deck.counts):
        return None
    if game.payoff is not None or game.rake or game.view != View() or game.ranking not in (None, high_card):
        return None
    plan = Planner(game).step(0, _State.start(game))
    for _ in range(game.players):  # the deal: one card to each player in seat order
        if not isinstance(plan, PlanCard):  # pragma: no cover - the first step deals to every player
            return None
        plan = plan.child
    return BettingGame(game.name, Deck(len(deck.cards), first.replacement), _node(plan),
                       tuple(game.player_names), game.parameters)  # type: ignore[arg-type]


def card_label(history: tuple[str, ...]) -> str:
    """The rules' label of a decision after ``history`` (one string per round): the poker label's betting part."""
    return "/".join(history)


def first_seen_cards(cards: int, players: int, player: int, replacement: bool) -> list[int]:
    """The cards ``1..cards`` in the order ``player`` is first dealt them when the deals run in card order.

    The poker tree deals seat by seat, each seat's card over the cards left in
    deck order, so deals run lexicographically: with replacement every seat
    sees ``1, 2, ...``; without, seat ``p`` first gets ``p + 1`` (the seats
    before it hold ``1..p``), then every higher card, then ``p, p - 1, ..., 1``
    as each is freed by the seats before it.  This is the order in which the
    tree compiler numbers the player's information sets.
    """
    if replacement:
        return list(range(1, cards + 1))
    return list(range(player + 1, cards + 1)) + list(range(player, 0, -1))


def _node(plan: Any) -> Node:
    """The betting tree below the deal, from the card-free plan."""
    if isinstance(plan, PlanDecision):
        label = card_label(plan.state.history)
        return Decision(plan.player, label, tuple((name, _node(child)) for name, child in zip(plan.actions,
                                                                                                plan.children)))
    if isinstance(plan, PlanEnd):
        state = plan.state
        return Outcome(tuple(Fraction(c) for c in state.contributions), state.active, showdown=True)
    raise AssertionError(f"a deal inside the betting: {plan!r}")  # pragma: no cover - only Betting follows
