"""von Neumann poker with a finite deck: the rules.

Seed 000 (Krityakierne, Thanatipanonda and Zeilberger, "von Neumann and Newman
Pokers with Finite Decks", 2024), sections 1 and 2.  Cards ``1..n`` are dealt
to players I and II without replacement; both ante 1.  Player I checks (the
higher card wins the pot of 2) or bets ``b``; player II then folds (I wins 1)
or calls (the higher card wins ``b + 1``).  ``b`` may be any positive rational.

The paper's procedures (``vnNE``, ``vnMNE``, ``MNE``, ``vnMNEv``) and tables
are in :mod:`exactpoker.games.papers.von_neumann`; any game is solved by
:func:`exactpoker.solve.solve_game` (``solve_game(game(n, b))`` takes the
card-by-card LP its structure allows).
"""

from __future__ import annotations

from exactpoker.core import BettingGame, CompiledGame, Decision, Deck, Outcome, compile_game
from exactpoker.numbers import parse_int, parse_positive

__all__ = ["NAME", "OPEN", "RESPOND", "game", "compiled"]

NAME = "von-neumann"
#: The decision labels: player I's first move, player II facing a bet.
OPEN, RESPOND = "open", "facing a bet"


def game(n: int, b: object) -> BettingGame:
    """The betting game: cards ``1..n`` without replacement, ante 1, bet ``b``."""
    n = parse_int(n, "n", 2)
    bet = parse_positive(b, "b")
    fold = Outcome((1 + bet, 1), (0,))
    call = Outcome((1 + bet, 1 + bet), (0, 1))
    respond = Decision(1, RESPOND, (("fold", fold), ("call", call)))
    root = Decision(0, OPEN, (("check", Outcome((1, 1), (0, 1))), ("bet", respond)))
    return BettingGame(NAME, Deck(n), root, ("I", "II"), (("n", n), ("b", bet)))


def compiled(n: int, b: object) -> CompiledGame:
    """The compiled game (exact sequence-form payoffs)."""
    return compile_game(game(n, b))
