"""A poker-language game's card structure, read from its rules (no tree, no deal walked).

:func:`~exactpoker.core.poker_cards.card_game` recognises a
:class:`~exactpoker.core.poker.PokerGame` that is a one-card betting game
(seed 000's kind: one card each from ``1..n``, the same betting below every
deal, the pot to the highest card) and writes its rules.
:func:`detect_poker_game` gives them as a
:class:`~exactpoker.solve.card_structure.DetectedGame`, as
:func:`~exactpoker.solve.card_structure.detect_betting_game` does for an
explicit tree, so the structured paths answer in the poker language's own
information sets (``"K|cb"``), laid out in the order
:func:`~exactpoker.core.poker_compile.compile_poker` numbers them.  Reading the
rules costs the betting tree once, not ``n**k`` deals: a von Neumann poker of
a thousand cards written in the poker language reaches the O(n) path at once.
"""

from __future__ import annotations

from typing import Callable

from exactpoker.core.compiled import PlayerLayout, TreeLayout
from exactpoker.core.compiler import compile_layouts
from exactpoker.core.game import BettingGame, Decision, Node
from exactpoker.core.poker import PokerGame
from exactpoker.core.poker_cards import card_game, first_seen_cards
from exactpoker.core.tree import LazyTree
from exactpoker.solve.card_structure import DetectedGame, TreeLayouts

__all__ = ["detect_poker_game"]


def detect_poker_game(game: PokerGame, *, accept: Callable[[BettingGame], bool] | None = None
                      ) -> DetectedGame | None:
    """The one-card betting game ``game`` is, with the poker language's information sets, or ``None``.

    Parameters
    ----------
    game : PokerGame
    accept : callable, optional
        Asked about the rules first; ``False`` gives ``None`` (e.g.
        :func:`~exactpoker.solve.structured.has_structure`: only games with a
        structured path).
    """
    rules = card_game(game)
    if rules is None or (accept is not None and not accept(rules)):
        return None
    deck = rules.deck
    names = [card.name for card in game.deck.cards]
    layouts, infosets = [], []
    for p, layout in enumerate(compile_layouts(rules)):
        order = first_seen_cards(deck.cards, rules.num_players, p, deck.replacement)
        tree_layout, keys = _tree_layout(layout, order, names)
        layouts.append(tree_layout)
        infosets.append(keys)
    deals = deck.cards ** rules.num_players if deck.replacement else _falling(deck.cards, rules.num_players)
    tree = LazyTree(game.name, tuple(game.player_names), lambda: game.tree().root,  # type: ignore[arg-type]
                    game.parameters)
    return DetectedGame(rules, TreeLayouts(tree, tuple(layouts)), tuple(infosets), deals * _leaves(rules.root),
                        source="poker rules")


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


def _leaves(node: Node) -> int:
    """The leaves of the betting tree."""
    if isinstance(node, Decision):
        return sum(_leaves(child) for _, child in node.actions)
    return 1


def _falling(n: int, k: int) -> int:
    """``n (n - 1) ... (n - k + 1)``: the deals of distinct cards."""
    result = 1
    for i in range(k):
        result *= n - i
    return result
