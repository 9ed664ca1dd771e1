"""A smaller game that rules may declare: the same rules without actions that can never help.

Rules that know some of their actions are never worth taking (Liar's Dice's
bids that can never hold, :meth:`~exactpoker.games.liars_dice.LiarsDice.restriction`)
declare the game without them as a :class:`Restriction`: data only, no
solving.  The engine solves the smaller game, lifts its equilibrium to the full
game by names (a left-out action gets probability 0, an information set only
the full game has plays :attr:`Restriction.fallback`) and certifies the
lifted profile on the full game (:mod:`exactpoker.solve.engine.restricted`):
the reason to leave the actions out is only the reason to try, the exact check
on the full game is the proof.

References
----------
B. von Stengel, "Efficient computation of behavior strategies", Games and
Economic Behavior 14 (1996): the sequence form the certificate runs on.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Restriction"]


@dataclass(frozen=True)
class Restriction:
    """The rules' smaller game and the words that describe it in the result.

    ``rules`` are the smaller game's rules (anything
    :func:`~exactpoker.solve.engine.dispatch.solve_game` takes); ``fallback``
    the action played, with probability 1, at every information set only the
    full game has (each reached through a left-out action); ``left_out`` the
    left-out actions by name; ``what`` says in words which actions those are,
    ``lifted`` how the lifted profile plays them, ``name`` names them in the
    result's method and as its ``details`` key (snake_case); ``counted`` is
    what ``total`` counts in the full game (e.g. 18 ``"bids"``, of which
    ``left_out`` are dropped).
    """

    rules: object
    fallback: str
    left_out: tuple[str, ...]
    what: str
    lifted: str
    name: str
    counted: str
    total: int
