"""The "most simple poker game" of the Euler Math Toolbox notes: the rules.

Seed 004 (Euler Math Toolbox notes, "Most Simple Poker Game").  Two players
are each dealt a card value ``1..m`` *independently* (ties are possible), both
put in the ante ``A``, and each player, knowing only their own card, holds
(sets, puts in the bet ``B``) or passes.  The notes' ``play`` function:

- player I passes: I loses ``A`` (whatever II does);
- I holds, II passes: I wins ``A``;
- both hold: the higher card wins ``A + B``; equal cards pay 0.

The description below is exactly that: I's decision, then II's decision
under *both* of I's actions with one label, so II does not see I's choice
(a simultaneous move; after I passes II's choice changes nothing).

The notes' tactics, matrix ``R``, ``game(R)`` and the value over ``B/A`` are in
:mod:`exactpoker.games.papers.simple_poker`; any game is solved by
:func:`exactpoker.solve.solve_game`.
"""

from __future__ import annotations

from fractions import Fraction

from exactpoker.core import BettingGame, CompiledGame, Decision, Deck, Outcome, compile_game
from exactpoker.numbers import parse_int, parse_positive

__all__ = ["NAME", "CHOOSE", "game", "compiled"]

NAME = "simple"
#: Both players' decision label.
CHOOSE = "hold or pass"


def _stakes(ante: object, bet: object) -> tuple[Fraction, Fraction]:
    """The ante ``A > 0`` and the bet ``B > 0`` as exact rationals (``ValueError`` names the parameter)."""
    return parse_positive(ante, "ante"), parse_positive(bet, "bet")


def game(m: int, ante: object = 1, bet: object = 1) -> BettingGame:
    """The betting game: card values ``1..m`` dealt with replacement, ante ``A``, bet ``B``."""
    m = parse_int(m, "m", 1)
    a, b = _stakes(ante, bet)
    lose = Outcome((a, a), (1,))  # I passes: II takes the antes
    after_pass = Decision(1, CHOOSE, (("pass", lose), ("hold", lose)))
    after_hold = Decision(
        1, CHOOSE, (("pass", Outcome((a, a), (0,))), ("hold", Outcome((a + b, a + b), (0, 1))))
    )
    root = Decision(0, CHOOSE, (("pass", after_pass), ("hold", after_hold)))
    return BettingGame(NAME, Deck(m, replacement=True), root, ("I", "II"), (("m", m), ("ante", a), ("bet", b)))


def compiled(m: int, ante: object = 1, bet: object = 1) -> CompiledGame:
    """The compiled game (exact sequence-form payoffs)."""
    return compile_game(game(m, ante, bet))
