"""Nash--Shapley three-person poker: the rules.

Seed 001 (J. F. Nash and L. S. Shapley, "A Simple Three-Person Poker Game", Annals of Mathematics Studies 24,
1950), section 3.  Two kinds of cards, High and Low, in equal numbers, from a deck so large that the eight deals
are equally likely (``Deck(2, replacement=True)``: card 1 is Low, card 2 is High; equal cards split the pot).
Everybody antes ``a``.  Player 1, then 2, then 3 may open with a bet ``b`` or pass; once someone has opened,
the other two in rotation call (bet ``b``) or fold.  Three passes return the antes.  A player who passes may
still have to answer a later opening (player 1 after ``PB`` or ``PPB``), so a player moves up to twice.  A
situation is named by the bids so far (``B`` open or call, ``P`` pass or fold).  The paper's payoffs,
discriminants, cases and equilibrium points are :mod:`exactpoker.games.papers.nash_shapley`.
"""

from __future__ import annotations

from fractions import Fraction

from exactpoker.core import BettingGame, CompiledGame, Decision, Deck, Outcome, compile_game
from exactpoker.numbers import parse_positive

__all__ = ["NAME", "PLAYERS", "LOW", "HIGH", "OPEN", "game", "compiled", "node", "stakes_game"]

NAME = "nash-shapley"
PLAYERS = ("1", "2", "3")
LOW, HIGH = 1, 2
OPEN = "-"  # player 1's first situation: nothing has happened yet


def node(history: str, ante: Fraction, bet: Fraction) -> Decision | Outcome:
    """The subtree after the bids ``history`` (``B`` = open or call, ``P`` = pass or fold)."""
    if "B" not in history:
        if len(history) == 3:
            return Outcome((ante,) * 3, (0, 1, 2), showdown=False)  # passed out: antes returned
        label = history or OPEN
        return Decision(
            len(history), label, (("pass", node(history + "P", ante, bet)), ("bet", node(history + "B", ante, bet)))
        )
    opener = history.index("B")
    answers = history[opener + 1 :]
    if len(answers) == 2:
        betting = sorted([opener] + [(opener + 1 + k) % 3 for k, bid in enumerate(answers) if bid == "B"])
        contributions = tuple(ante + (bet if p in betting else 0) for p in range(3))
        return Outcome(contributions, tuple(betting))
    player = (opener + 1 + len(answers)) % 3
    return Decision(
        player, history, (("fold", node(history + "P", ante, bet)), ("call", node(history + "B", ante, bet)))
    )


def stakes_game(ante: Fraction, bet: Fraction) -> BettingGame:
    """The betting game at these stakes, unchecked (the paper's payoffs are linear in them: ``(1, 0)``, ``(0, 1)``)."""
    return BettingGame(NAME, Deck(2, replacement=True), node("", ante, bet), PLAYERS, (("a", ante), ("b", bet)))


def game(a: object, b: object) -> BettingGame:
    """The betting game with ante ``a > 0`` and bet ``b > 0`` (section 3)."""
    return stakes_game(parse_positive(a, "a"), parse_positive(b, "b"))


def compiled(a: object, b: object) -> CompiledGame:
    """The compiled game (exact sequence-form payoffs)."""
    return compile_game(game(a, b))
