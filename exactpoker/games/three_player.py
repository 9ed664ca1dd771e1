"""Three-player poker with a finite deck: the rules.

Seed 000 (Krityakierne, Thanatipanonda and Zeilberger, "von Neumann and Newman Pokers with Finite Decks", 2024),
section 4, "Finite deck".  Cards ``1..n``; each of three players gets a different card and antes 1.  Player I
checks (the three cards are compared, the highest wins the pot of 3) or bets ``b``.  Players II and III then call
(put in ``b``) or fold, neither seeing the other's choice: both decisions carry one label, so II's and III's
information sets depend on their own card only.  The players still in compare cards; the highest wins the pot.
The paper's procedure (FastMNE) and tables are :mod:`exactpoker.games.papers.three_player`.
"""

from __future__ import annotations

from exactpoker.core import BettingGame, Decision, Deck, Outcome
from exactpoker.numbers import parse_int, parse_positive

__all__ = ["NAME", "PLAYERS", "OPEN", "FACING", "game"]

NAME = "three-player"
PLAYERS = ("I", "II", "III")
OPEN, FACING = "open", "facing bet"


def game(n: int, b: object) -> BettingGame:
    """The betting game: cards ``1..n`` without replacement, ante 1, bet ``b``."""
    n = parse_int(n, "n", 3, hint="three players need three different cards")
    bet = parse_positive(b, "b")

    def showdown(calls_ii: bool, calls_iii: bool) -> Outcome:
        contributions = (1 + bet, 1 + bet if calls_ii else 1, 1 + bet if calls_iii else 1)
        active = (0,) + ((1,) if calls_ii else ()) + ((2,) if calls_iii else ())
        return Outcome(contributions, active)

    def third(calls_ii: bool) -> Decision:
        return Decision(2, FACING, (("fold", showdown(calls_ii, False)), ("call", showdown(calls_ii, True))))

    second = Decision(1, FACING, (("fold", third(False)), ("call", third(True))))
    root = Decision(0, OPEN, (("check", Outcome((1, 1, 1), (0, 1, 2))), ("bet", second)))
    return BettingGame(NAME, Deck(n), root, PLAYERS, (("n", n), ("b", bet)))
