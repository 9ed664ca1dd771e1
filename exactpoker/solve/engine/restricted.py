"""A game solved on the smaller game its rules declare, its equilibrium lifted and certified on the full game.

Rules may declare a :class:`~exactpoker.core.restriction.Restriction`: the
same rules without actions that can never help (Liar's Dice under the stairs
rule with more than two dice: the bids that can never hold, whoever makes one
loses 1 if it is called, the least payoff of the game).  Under the default
options :func:`~exactpoker.solve.engine.dispatch.solve_game` solves the
smaller game, and :func:`lifted_result` lifts its equilibrium to the full game
(:func:`~exactpoker.solve.structure.restricted_lift.lift_by_names`: a
left-out action gets probability 0, every information set only the full game
has plays the fallback action) and certifies the lifted profile on the full
game's sequence form (:func:`exactpoker.certify.verify`: every deviation of
every player, the left-out actions included).  The argument for leaving the
actions out is only the reason to try; the exact check is the proof, and the
result is returned only when it holds.

The rules are asked, never called back: they give their sequence form
(:meth:`~exactpoker.solve.engine.loaded.CompilingRules.compiled`), their
solve's memory estimate and the restriction (data); the engine does the rest.

References
----------
B. von Stengel, "Efficient computation of behavior strategies", Games and
Economic Behavior 14 (1996): the sequence form the certificate runs on.
"""

from __future__ import annotations

from fractions import Fraction
from exactpoker.certify import verify
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.restriction import Restriction
from exactpoker.errors import CertificationError
from exactpoker.numbers import exact_str
from exactpoker.results import Equilibrium, SolveResult, snake_case
from exactpoker.solve.engine.tables import Tables, labelled_tables
from exactpoker.solve.structure.restricted_lift import lift_by_names

__all__ = ["lifted_result"]


def lifted_result(full: CompiledGame, smaller: CompiledGame, reduced: SolveResult, restriction: Restriction,
                  tables: Tables) -> SolveResult:
    """The equilibrium ``reduced`` found on ``smaller``, lifted to ``full`` and certified there.

    Raises
    ------
    CertificationError
        If the lifted profile is not an equilibrium of the full game (then no
        value is claimed).
    """
    lifted = lift_by_names(full, smaller, reduced.equilibria[0].profile, restriction.fallback)
    certificate = verify(full, lifted)
    if not certificate.holds:
        raise CertificationError(
            f"{full.game.name}: the equilibrium without {restriction.what}, lifted to the full rules, fails the "
            f"exact check (max regret {certificate.max_regret}); no value is claimed")
    equilibrium = Equilibrium.from_certificate(certificate, tables(full, lifted), lifted,
                                               labelled=labelled_tables(full, lifted))
    note = (f"solved without {restriction.what} ({', '.join(restriction.left_out)}); the equilibrium, lifted to "
            f"the full rules ({restriction.lifted}), is certified on the full game")
    details = {"players": full.num_players, "zero_sum": full.is_zero_sum, "sequences": _sizes(full),
               snake_case(restriction.name): _restriction_details(restriction, reduced, full)}
    return SolveResult(full.game.name, dict(full.game.parameters),
                       f"{reduced.method}, without the {restriction.name}, lifted", (equilibrium,), (note,), details)


def _restriction_details(restriction: Restriction, reduced: SolveResult, full: CompiledGame) -> dict[str, object]:
    """What was left out, both games' sizes, the smaller game's value and method (the certificate is the
    equilibrium's own, on the full game)."""
    return {
        "left_out": list(restriction.left_out),
        restriction.counted: {"full": restriction.total, "solved": restriction.total - len(restriction.left_out)},
        "sequences": {"full": [str(n) for n in _sizes(full)],
                      "solved": [str(n) for n in reduced.details.get("sequences", [])]},
        "solved_value": exact_str(Fraction(str(reduced.equilibria[0].values[0]))),
        "method": reduced.method,
    }


def _sizes(compiled: CompiledGame) -> list[int]:
    return [layout.num_sequences for layout in compiled.layouts]
