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
game (``tests/core/test_poker_compile.py`` compiles both and compares them by name).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from exactpoker.core.compiled import PlayerLayout, TreeLayout
from exactpoker.core.compiler import card_sequence_form, compile_layouts
from exactpoker.core.game import BettingGame, Decision, Deck, Node, Outcome
from exactpoker.core.poker import Betting, Deal, PokerGame, View, _State, high_card
from exactpoker.core.poker_plan import PlanCard, PlanDecision, PlanEnd, Planner
from exactpoker.errors import InvalidGameError

__all__ = ["CardTables", "card_game", "one_card_refusal", "card_tables", "compile_cards", "first_seen_cards"]


def card_game(game: PokerGame) -> BettingGame | None:
    """``game`` as a one-card betting game (module docstring), or ``None`` when it is not one."""
    if one_card_refusal(game) is not None:
        return None
    first = game.steps[0]
    deck = game.deck
    plan = Planner(game).step(0, _State.start(game))
    for _ in range(game.players):  # the deal: one card to each player in seat order
        if not isinstance(plan, PlanCard):  # pragma: no cover - the first step deals to every player
            return None
        plan = plan.child
    return BettingGame(game.name, Deck(len(deck.cards), first.replacement), _node(plan),
                       tuple(game.player_names), game.parameters)  # type: ignore[arg-type]


def one_card_refusal(game: PokerGame) -> str | None:
    """Why ``game`` is not a one-card betting game (module docstring), in a few words; ``None`` when it is one."""
    steps = game.steps
    first = steps[0]
    if not (isinstance(first, Deal) and first.hole == 1 and first.board == 0):
        return "its first step must deal one hole card to each player and no board card"
    if not all(isinstance(step, Betting) for step in steps[1:]):
        return "it deals cards after the first betting starts (a board card or more hole cards)"
    if len(game.deck.suits) != 1 or any(count != 1 for count in game.deck.counts):
        return "its deck has cards of equal rank (suits or copies), so hands can tie"
    if game.payoff is not None:
        return "its payoffs are its own (payoff=), not the pot to the highest card"
    if game.rake:
        return "it has a rake"
    if game.view != View():
        return "its players see more or less than their own card and the betting (a custom View)"
    if game.ranking not in (None, high_card):
        return "its ranking is not the highest card"
    return None


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
        label = "/".join(plan.state.history)  # the poker label's betting part: rounds split by "/"
        return Decision(plan.player, label, tuple((name, _node(child)) for name, child in zip(plan.actions,
                                                                                                plan.children)))
    if isinstance(plan, PlanEnd):
        state = plan.state
        return Outcome(tuple(Fraction(c) for c in state.contributions), state.active, showdown=True)
    raise AssertionError(f"a deal inside the betting: {plan!r}")  # pragma: no cover - only Betting follows


class CardTables:
    """How a one-card poker game's information sets are numbered by the tree compiler, from its rules.

    Attributes
    ----------
    rules : BettingGame
        :func:`card_game` of the poker game.
    layouts : tuple of TreeLayout
        Each player's information sets as :func:`~exactpoker.core.tree.compile_tree`
        numbers them in the poker game's tree: card by card in the order the
        deals first give the player each card (:func:`first_seen_cards`), each
        card's labels in the rules' order, named ``card|label``.
    infosets : tuple of dict
        Per player, each information set's name -> ``(card, label)``.
    positions : tuple of numpy.ndarray
        Per player, card ``c``'s place in that order at index ``c - 1``.
    """

    def __init__(self, game: PokerGame, rules: BettingGame) -> None:
        deck = rules.deck
        names = [card.name for card in game.deck.cards]
        layouts, infosets, positions = [], [], []
        for p, layout in enumerate(compile_layouts(rules)):
            order = first_seen_cards(deck.cards, rules.num_players, p, deck.replacement)
            tree_layout, keys = _tree_layout(layout, order, names)
            layouts.append(tree_layout)
            infosets.append(keys)
            place = np.empty(deck.cards, dtype=np.int64)
            place[np.array(order) - 1] = np.arange(deck.cards)
            positions.append(place)
        self.rules = rules
        self.layouts: tuple[TreeLayout, ...] = tuple(layouts)
        self.infosets: tuple[dict[str, tuple[int, str]], ...] = tuple(infosets)
        self.positions = tuple(positions)


def card_tables(game: PokerGame) -> CardTables | None:
    """:class:`CardTables` of ``game``, or ``None`` when it is not a one-card betting game."""
    rules = card_game(game)
    return None if rules is None else CardTables(game, rules)


def compile_cards(game: PokerGame, tables: CardTables, max_leaves: int
                  ) -> tuple[tuple[TreeLayout, ...], np.ndarray, np.ndarray, int]:
    """The sequence form of a one-card poker game from its rules, vectorised over the deals.

    The card-game compiler (:func:`~exactpoker.core.compiler.card_sequence_form`)
    evaluates every leaf of the betting for all deals at once; its entries come
    in the tree compiler's order over the tree compiler's denominator, and each
    sequence is renumbered from card by card to the tree's order
    (:class:`CardTables`), so the arrays are exactly
    ``compile_tree(game.tree())``'s (``tests/core/test_poker_compile.py``).

    Raises
    ------
    InvalidGameError
        When the tree has more than ``max_leaves`` leaves, as the tree compiler.
    """
    rules = tables.rules
    if rules.num_deals * betting_leaves(rules.root) > max_leaves:
        raise InvalidGameError(
            f"{game.name}: the tree has more than {max_leaves} leaves, the limit of the exact tree compiler")
    layouts, sequences, coefficients, denominator = card_sequence_form(rules, first_reached=True)
    renumbered = np.empty_like(sequences)
    for p, layout in enumerate(layouts):
        renumbered[:, p] = _renumbered(sequences[:, p], layout, tables.positions[p])
    return tables.layouts, renumbered, coefficients, denominator


def betting_leaves(node: Node) -> int:
    """The leaves of a betting tree."""
    if isinstance(node, Decision):
        return sum(betting_leaves(child) for _, child in node.actions)
    return 1


def _renumbered(sequences: np.ndarray, layout: PlayerLayout, positions: np.ndarray) -> np.ndarray:
    """Card-by-card sequence numbers (card ``c``'s block at ``1 + (c - 1) w``) moved to the blocks' places."""
    width = layout.actions_per_card
    card, within = np.divmod(np.maximum(sequences - 1, 0), width)
    return np.where(sequences > 0, 1 + positions[card] * width + within, 0)


def _tree_layout(layout: PlayerLayout, order: list[int], names: list[str]
                 ) -> tuple[TreeLayout, dict[str, tuple[int, str]]]:
    """One player's information sets card by card in ``order`` (each card's labels in the rules' order), as the
    tree compiler numbers them, and each one's ``(card, label)``."""
    width = layout.actions_per_card
    keys, actions, parents = [], [], []
    infosets: dict[str, tuple[int, str]] = {}
    for position, card in enumerate(order):
        base = 1 + position * width
        for label, acts in zip(layout.labels, layout.actions):
            key = f"{names[card - 1]}|{label}"
            keys.append(key)
            actions.append(acts)
            infosets[key] = (card, label)
        for parent in layout.parent:
            parents.append(0 if parent is None else base + layout.offsets[parent[0]] + parent[1])
    return TreeLayout(tuple(keys), tuple(actions), tuple(parents)), infosets
