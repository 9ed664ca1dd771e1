"""The exact equilibrium certificate.

A profile is a Nash equilibrium exactly when no player can gain by deviating.
For each player this module computes, in exact rational arithmetic and from
the compiled game alone, the player's payoff under the profile and the value of
a best response to the others (backward induction over the player's own
information sets).  The profile is certified when the two are equal for every
player.  Like a max-flow test that checks the cut against the flow, this check
never imports a solver, so a bug in a solver cannot also hide here.

Where a player's regret is positive, :func:`best_deviation` says where the
profile fails: the fewest information sets, met from the root down, at which a
switch to an optimal action of the same backward induction turns the
player's strategy into a best response (checked: its payoff is the
best-response value).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from exactpoker.core.compiled import CompiledGame
from exactpoker.core.evaluate import best_response, sequence_values
from exactpoker.core.profile import BehaviourProfile, realization_weights
from exactpoker.errors import CertificationError
from exactpoker.numbers import exact_str

__all__ = ["PlayerCheck", "Certificate", "Deviation", "verify", "best_deviation", "verify_matrix_game"]


@dataclass(frozen=True)
class PlayerCheck:
    """One player's side of the certificate."""

    player: str
    payoff: Fraction
    best_response: Fraction

    @property
    def regret(self) -> Fraction:
        """How much the player could gain by deviating (exactly 0 at an equilibrium)."""
        return self.best_response - self.payoff

    def to_dict(self) -> dict[str, str]:
        return {
            "player": self.player,
            "payoff": exact_str(self.payoff),
            "best_response": exact_str(self.best_response),
            "regret": exact_str(self.regret),
        }


@dataclass(frozen=True)
class Certificate:
    """Every player's payoff and best-response value, computed exactly.

    ``scope`` says against which deviations: ``"all strategies"`` for the
    full game, or a description of a restricted strategy set.
    """

    checks: tuple[PlayerCheck, ...]
    scope: str = "all strategies"

    @property
    def holds(self) -> bool:
        """True when every player's regret is exactly zero."""
        return all(check.regret == 0 for check in self.checks)

    @property
    def max_regret(self) -> Fraction:
        return max(check.regret for check in self.checks)

    @property
    def payoffs(self) -> tuple[Fraction, ...]:
        return tuple(check.payoff for check in self.checks)

    def to_dict(self) -> dict[str, object]:
        return {"holds": self.holds, "scope": self.scope, "players": [c.to_dict() for c in self.checks]}


def verify(compiled: CompiledGame, profile: BehaviourProfile) -> Certificate:
    """Check ``profile`` exactly against every unilateral deviation.

    Parameters
    ----------
    compiled : CompiledGame
        The game.
    profile : BehaviourProfile
        Exact behaviour strategies for every player.

    Returns
    -------
    Certificate
        ``certificate.holds`` is true exactly when ``profile`` is a Nash
        equilibrium of ``compiled``.
    """
    weights = [profile.realization(compiled, p) for p in range(compiled.num_players)]
    checks = []
    for p, layout in enumerate(compiled.layouts):
        values = sequence_values(compiled, p, weights)
        best, _ = best_response(layout, values)
        checks.append(PlayerCheck(compiled.player_names[p], values.value(weights[p]), best))
    return Certificate(tuple(checks))


@dataclass(frozen=True)
class Deviation:
    """Where one player's strategy fails: a best response to the others that differs from it as little as it can.

    ``changes`` maps an information set (the player's layout index) to the
    action (index) played there instead; everywhere else the player keeps
    the profile's strategy.  ``payoff`` is what the changed strategy earns:
    the best-response value, checked when the deviation is made.
    """

    player: int
    changes: dict[int, int]
    payoff: Fraction


def best_deviation(compiled: CompiledGame, profile: BehaviourProfile, player: int) -> Deviation:
    """The profile's strategy of ``player`` turned into a best response at the fewest information sets.

    Backward induction (:func:`~exactpoker.core.evaluate.best_response`)
    gives each information set's optimal actions against the others'
    strategies.  Going down from the root, an information set that the
    changed strategy reaches and at which the profile plays a non-optimal
    action with positive probability is switched to its first optimal
    action; an information set it does not reach is left alone.  The changed
    strategy then plays only optimal actions wherever it goes, so it is a best
    response: its payoff, computed exactly, must equal the best-response
    value (else :class:`~exactpoker.errors.CertificationError`).  A player
    with zero regret gets no changes.
    """
    layout = compiled.layouts[player]
    weights = [profile.realization(compiled, p) for p in range(compiled.num_players)]
    values = sequence_values(compiled, player, weights)
    best, optimal = best_response(layout, values)
    own = profile.strategies[player]
    reached = [False] * layout.num_sequences
    reached[0] = True
    changes: dict[int, int] = {}
    for infoset in range(layout.num_infosets):  # parents before children (SequenceLayout)
        if not reached[layout.parent_sequence(infoset)]:
            continue
        sequences = layout.infoset_sequences(infoset)
        played = [a for a, prob in enumerate(own[infoset]) if prob > 0]
        if set(played) <= set(optimal[infoset]):
            for a in played:
                reached[sequences[a]] = True
        else:
            changes[infoset] = optimal[infoset][0]
            reached[sequences[changes[infoset]]] = True
    changed = tuple(
        tuple(Fraction(int(a == changes[i])) for a in range(len(dist))) if i in changes else dist
        for i, dist in enumerate(own))
    payoff = values.value(realization_weights(layout, changed))
    if payoff != best:
        raise CertificationError(f"best_deviation(): the changed strategy of player {player} earns {payoff}, "
                                 f"not the best-response value {best}")
    return Deviation(player, changes, payoff)


def verify_matrix_game(
    matrix: Sequence[Sequence[int]],
    row_strategy: Sequence[Fraction],
    column_strategy: Sequence[Fraction],
    denominator: int = 1,
    *,
    names: tuple[str, str] = ("I", "II"),
    scope: str = "all strategies",
) -> Certificate:
    """Check a mixed profile of a zero-sum matrix game exactly.

    ``matrix[i][j] / denominator`` is the row player's payoff.  The row
    player's best response is the best row against the column mixture, the
    column player's the best column against the row mixture.
    """
    rows, cols = len(matrix), len(matrix[0])
    against_cols = [sum((Fraction(int(matrix[i][j])) * column_strategy[j] for j in range(cols) if column_strategy[j]),
                        Fraction(0)) for i in range(rows)]
    against_rows = [sum((Fraction(int(matrix[i][j])) * row_strategy[i] for i in range(rows) if row_strategy[i]),
                        Fraction(0)) for j in range(cols)]
    payoff = sum((p * v for p, v in zip(row_strategy, against_cols)), Fraction(0)) / denominator
    return Certificate(
        (
            PlayerCheck(names[0], payoff, max(against_cols) / denominator),
            PlayerCheck(names[1], -payoff, -min(against_rows) / denominator),
        ),
        scope,
    )
