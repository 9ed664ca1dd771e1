"""The exact core: game descriptions, their compiler, and strategy profiles.

Games come as card games of the papers (:class:`BettingGame` with its
:class:`Deck` of cards ``1..n``), as explicit trees (:mod:`exactpoker.core.tree`),
or in the public poker language (:class:`PokerGame` with a :class:`CardDeck`,
:class:`Deal` and :class:`Betting` steps; :mod:`exactpoker.core.poker`, compiled
straight from its rules by :func:`compile_poker`).
"""

from exactpoker.core.compiled import CompiledGame, PlayerLayout
from exactpoker.core.compiler import compile_game
from exactpoker.core.game import BettingGame, Decision, Deck, Outcome
from exactpoker.core.poker import (
    Betting,
    Card,
    CardDeck,
    Deal,
    PokerGame,
    Situation,
    View,
    high_card,
    pairs_then_high_card,
)
from exactpoker.core.poker_compile import compile_poker
from exactpoker.core.profile import BehaviourProfile, realization_weights

__all__ = [
    "BettingGame",
    "Decision",
    "Deck",
    "Outcome",
    "CompiledGame",
    "PlayerLayout",
    "compile_game",
    "BehaviourProfile",
    "realization_weights",
    "PokerGame",
    "CardDeck",
    "Card",
    "Deal",
    "Betting",
    "View",
    "Situation",
    "high_card",
    "pairs_then_high_card",
    "compile_poker",
]
