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
its equilibrium to the full rules (:func:`~exactpoker.solve.structure.restricted_lift.lift_by_names`:
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
from typing import TYPE_CHECKING, Any

from exactpoker import guard
from exactpoker.certify import Certificate, verify
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.profile import BehaviourProfile
from exactpoker.errors import CertificationError
from exactpoker.games.liars_dice_compile import CALL
from exactpoker.numbers import exact_str
from exactpoker.results import Equilibrium, SolveResult
from exactpoker.solve.engine.dispatch import infoset_tables, labelled_tables, solve_compiled
from exactpoker.solve.engine.loaded import LoadedGame
from exactpoker.solve.structure.restricted_lift import lift_by_names

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.games.liars_dice import LiarsDice

__all__ = ["LiftedSolution", "loaded_game", "solve_without_hopeless_bids"]


@dataclass(frozen=True)
class LiftedSolution:
    """An equilibrium of the full rules found on the game without the hopeless bids.

    ``game`` is the full rules (every bid), ``reduced`` the solve of the game
    without the hopeless bids, ``compiled`` the full game's sequence form,
    ``profile`` the lifted equilibrium (a profile of ``compiled``) and
    ``certificate`` its exact check on the full game (it holds).  (Prose, not
    an Attributes section: the names would clash with
    :class:`~exactpoker.results.Equilibrium`'s in the docs' cross-references.)
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

    def result(self) -> SolveResult:
        """The solve's result on the full rules (``exactpoker solve``'s JSON): the lifted equilibrium with its
        certificate, and ``details.hopeless_bids`` (:meth:`notes`)."""
        tables = infoset_tables(self.compiled, self.profile)
        equilibrium = Equilibrium.from_certificate(self.certificate, tables, self.profile,
                                                   labelled=labelled_tables(self.compiled, self.profile))
        left_out = ", ".join(f"{count}x{face}" for count, face in self.game.hopeless_bids())
        note = (f"solved without the bids that can never hold ({left_out}); the equilibrium, lifted to the full "
                "rules (those bids never made, a call right after one), is certified on the full game")
        details = {"players": "2", "zero_sum": True,
                   "sequences": [str(layout.num_sequences) for layout in self.compiled.layouts],
                   "hopeless_bids": self.notes()}
        return SolveResult(self.compiled.game.name, {key: str(value) for key, value in self.game.parameters},
                           f"{self.reduced.method}, without the hopeless bids, lifted", (equilibrium,), (note,),
                           details)

    def notes(self) -> dict[str, Any]:
        """JSON-ready (``details.hopeless_bids``): the bids left out, both games' sizes, the smaller game's value
        and method; the certificate on the full game is the equilibrium's own."""
        return {
            "left_out": [f"{count}x{face}" for count, face in self.game.hopeless_bids()],
            "bids": {"full": len(self.game.bids()), "solved": len(self.game.bids()) - len(self.game.hopeless_bids())},
            "sequences": {"full": [str(layout.num_sequences) for layout in self.compiled.layouts],
                          "solved": [str(n) for n in self.reduced.details.get("sequences", [])]},
            "solved_value": exact_str(Fraction(str(self.reduced.equilibria[0].values[0]))),
            "method": self.reduced.method,
        }


def solve_without_hopeless_bids(game: LiarsDice, full_game: CompiledGame | None = None,
                                **options: Any) -> LiftedSolution:
    """Solve ``game`` without its hopeless bids, lift the equilibrium and certify it on the full rules.

    ``full_game`` is the full rules' sequence form if already made
    (:meth:`~exactpoker.games.liars_dice.LiarsDice.compiled`); ``options`` go
    to :func:`~exactpoker.solve.engine.dispatch.solve_compiled` for the smaller game.

    Raises
    ------
    ResourceLimitError
        If the estimated memory of solving the smaller game is over the limit.
    CertificationError
        If the lifted profile is not an equilibrium of the full game (then no
        value is claimed).
    """
    full = replace(game, possible_bids=False)
    solved = replace(game, possible_bids=True)
    size = solved.size()
    guard.require(guard.compiled_game(sum(size.sequences), size.terminals),
                  f"library:{solved.name} ({sum(size.sequences)} sequences, {size.terminals} payoff entries)")
    smaller = solved.compiled()
    reduced = solve_compiled(smaller, **options)
    compiled = full.compiled() if full_game is None else full_game
    lifted = lift_by_names(compiled, smaller, reduced.equilibria[0].profile, CALL)
    certificate = verify(compiled, lifted)
    if not certificate.holds:
        raise CertificationError(
            f"{full.name}: the equilibrium without the hopeless bids, lifted to the full rules, fails the exact "
            f"check (max regret {certificate.max_regret}); no value is claimed")
    return LiftedSolution(full, reduced, compiled, lifted, certificate)



def loaded_game(game: "LiarsDice", source: str) -> LoadedGame:
    """The rules ready for the engine (:meth:`~exactpoker.games.liars_dice.LiarsDice.loaded_game`, which
    ``exactpoker solve 'library:dice(...)'`` and :func:`~exactpoker.solve.engine.dispatch.solve_game` both ask): the
    sequence form straight from the rules, and, when the rules have hopeless bids, the solve without them
    (:attr:`~exactpoker.solve.engine.loaded.LoadedGame.solve`).

    Raises
    ------
    ResourceLimitError
        If the estimated memory of the solve (:func:`exactpoker.guard.array_game_solve`, or
        :func:`exactpoker.guard.compiled_game` with hopeless bids, counted from the rules) or of the full rules'
        arrays is over the limit, before anything is made.
    """
    size = replace(game, possible_bids=True).size()  # the game the solve runs on
    without = ", without the bids that can never hold" if game.hopeless_bids() else ""
    # without hopeless bids the solve is the engine's on the arrays alone; with them the full rules' arrays
    # and certificate come on top, so the general estimate stays
    estimate = (guard.compiled_game if game.hopeless_bids() else guard.array_game_solve)(
        sum(size.sequences), size.terminals)
    guard.require(estimate, f"solve {source} ({sum(size.sequences)} sequences, {size.terminals} payoff entries{without})")
    compiled = game.compiled()
    if not game.hopeless_bids():
        return LoadedGame(compiled.game, source=source, compiled=compiled, solve_memory=estimate)
    return LoadedGame(compiled.game, source=source, compiled=compiled,
                      solve=lambda: solve_without_hopeless_bids(game, compiled).result())
