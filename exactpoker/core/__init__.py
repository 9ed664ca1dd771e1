"""The exact core: game descriptions, their compiler, and strategy profiles."""

from exactpoker.core.compiled import CompiledGame, PlayerLayout
from exactpoker.core.compiler import compile_game
from exactpoker.core.game import BettingGame, Decision, Deck, Outcome
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
]
