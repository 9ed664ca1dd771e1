"""A poker-language game's card structure, read from its rules (no tree, no deal walked).

:func:`~exactpoker.core.poker_cards.card_game` recognises a
:class:`~exactpoker.core.poker.PokerGame` that is a one-card betting game
(seed 000's kind: one card each from ``1..n``, the same betting below every
deal, the pot to the highest card) and writes its rules.
:func:`detect_poker_game` gives them as a
:class:`~exactpoker.solve.structure.card_structure.DetectedGame`, as
:func:`~exactpoker.solve.structure.card_structure.detect_betting_game` does for an
explicit tree, so the structured paths answer in the poker language's own
information sets (``"K|cb"``), laid out in the order
:func:`~exactpoker.core.poker_compile.compile_poker` numbers them.  Reading the
rules costs the betting tree once, not ``n**k`` deals: a von Neumann poker of
a thousand cards written in the poker language reaches the O(n) path at once.
"""

from __future__ import annotations

from typing import Callable

from exactpoker.core.game import BettingGame
from exactpoker.core.poker import PokerGame
from exactpoker.core.poker_cards import CardTables, betting_leaves, card_game
from exactpoker.core.poker_compile import lazy_tree
from exactpoker.solve.structure.card_structure import DetectedGame, TreeLayouts

__all__ = ["detect_poker_game"]


def detect_poker_game(game: PokerGame, *, accept: Callable[[BettingGame], bool] | None = None
                      ) -> DetectedGame | None:
    """The one-card betting game ``game`` is, with the poker language's information sets, or ``None``.

    Parameters
    ----------
    game : PokerGame
    accept : callable, optional
        Asked about the rules first; ``False`` gives ``None`` (e.g.
        :func:`~exactpoker.solve.engine.structured.has_structure`: only games with a
        structured path).
    """
    rules = card_game(game)
    if rules is None or (accept is not None and not accept(rules)):
        return None
    tables = CardTables(game, rules)
    return DetectedGame(rules, TreeLayouts(lazy_tree(game), tables.layouts), tables.infosets,
                        rules.num_deals * betting_leaves(rules.root), source="poker rules")
