"""Liar's Dice without the bids that can never hold, its equilibrium certified on the full rules.

Under the stairs rule a player's ``k`` dice count at most ``k + 1`` for a face
(a stair), so with ``N > 2`` dice in all the bids of more than ``N + 2`` dice
(of the ``2N`` the rule allows) never hold
(:meth:`~exactpoker.games.liars_dice.LiarsDice.hopeless_bids`): with 4 sides
and two dice against one, 18 bids become 15.  Whoever makes such a bid loses 1
if it is called, the least payoff of the game, and every other action is worth
at least -1; so one expects an equilibrium in which nobody makes them and the
opponent calls right after one.

:func:`solve_without_hopeless_bids` therefore solves the smaller game (the
same rules without those bids: ``LiarsDice(..., possible_bids=True)``), lifts
its equilibrium to the full rules (:func:`~exactpoker.solve.restricted_lift.lift_by_names`:
the hopeless bids get probability 0, and every information set only the full
game has, each after a hopeless bid, calls) and certifies the lifted profile
on the full game's sequence form (:meth:`~exactpoker.games.liars_dice.LiarsDice.compiled`,
:func:`exactpoker.certify.verify`: every deviation of either player, the
hopeless bids included).  The argument above is only the reason to try; the
exact check is the proof, and the value is returned only when it holds.

References
----------
T. D. Ahle, "snyd: an analysis of the end game of Liar's Dice",
github.com/thomasahle/snyd (``snyd_or.py``: the rules and the tables).
B. von Stengel, "Efficient computation of behavior strategies", Games and
Economic Behavior 14 (1996): the sequence form the certificate runs on.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from exactpoker.certify import Certificate, verify
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.profile import BehaviourProfile
from exactpoker.errors import CertificationError
from exactpoker.games.liars_dice import CALL, LiarsDice
from exactpoker.numbers import exact_str
from exactpoker.results import SolveResult
from exactpoker.solve.dispatch import solve_compiled
from exactpoker.solve.restricted_lift import lift_by_names

__all__ = ["LiftedSolution", "solve_without_hopeless_bids"]


@dataclass(frozen=True)
class LiftedSolution:
    """An equilibrium of the full rules found on the game without the hopeless bids.

    Attributes
    ----------
    game : LiarsDice
        The full rules (every bid).
    reduced : SolveResult
        The solve of the game without the hopeless bids.
    compiled : CompiledGame
        The full game's sequence form.
    profile : BehaviourProfile
        The lifted equilibrium, a profile of :attr:`compiled`.
    certificate : Certificate
        Its exact check on the full game (it holds).
    """

    game: LiarsDice
    reduced: SolveResult
    compiled: CompiledGame
    profile: BehaviourProfile
    certificate: Certificate

    @property
    def value(self) -> Fraction:
        """Player 1's value of the full game."""
        return self.certificate.payoffs[0]

    def notes(self) -> dict[str, Any]:
        """JSON-ready: the bids left out, both games' sizes and the full game's certificate."""
        reduced = self.reduced.equilibria[0]
        return {
            "hopeless_bids": [f"{count}x{face}" for count, face in self.game.hopeless_bids()],
            "bids": {"full": len(self.game.bids()), "solved": len(self.game.bids()) - len(self.game.hopeless_bids())},
            "sequences": {"full": [layout.num_sequences for layout in self.compiled.layouts],
                          "solved": [int(n) for n in self.reduced.details.get("sequences", [])]},
            "solved_value": exact_str(Fraction(str(reduced.values[0]))),
            "full_game_certificate": self.certificate.to_dict(),
            "method": self.reduced.method,
        }


def solve_without_hopeless_bids(game: LiarsDice, **options: Any) -> LiftedSolution:
    """Solve ``game`` without its hopeless bids, lift the equilibrium and certify it on the full rules.

    ``options`` go to :func:`~exactpoker.solve.dispatch.solve_compiled` for the
    smaller game.

    Raises
    ------
    CertificationError
        If the lifted profile is not an equilibrium of the full game (then no
        value is claimed).
    """
    full = replace(game, possible_bids=False)
    smaller = replace(game, possible_bids=True).compiled()
    reduced = solve_compiled(smaller, **options)
    compiled = full.compiled()
    lifted = lift_by_names(compiled, smaller, reduced.equilibria[0].profile, CALL)
    certificate = verify(compiled, lifted)
    if not certificate.holds:
        raise CertificationError(
            f"{full.name}: the equilibrium without the hopeless bids, lifted to the full rules, fails the exact "
            f"check (max regret {certificate.max_regret}); no value is claimed")
    return LiftedSolution(full, reduced, compiled, lifted, certificate)

