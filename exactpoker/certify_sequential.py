"""A stricter exact certificate: optimal play at every own information set.

:func:`exactpoker.certify.verify` checks Nash equilibrium: no player gains by
deviating.  That says nothing about a player's choices at information sets
their *own* earlier play never reaches (a player who always bets card 1 at
node 1 of seed 003 may do anything at node 4 and still be at a Nash
equilibrium), so it admits the "spurious solutions with non-credible threats"
that seed 003 (section 3) removes by differentiating once more: the gain of an
action is taken *counterfactually*, weighted by the other players' chances of
reaching the information set but not by the player's own.

:func:`verify_sequential` computes, exactly and from the compiled game alone,
each information set's counterfactual action values against the others'
strategies (backward induction over the player's own later choices as
played), and requires every action played with positive probability to be
optimal there.  This implies that the profile is a Nash equilibrium (so the
Nash certificate is included) and that each player's play is optimal in each
of their own subgames given the others' strategies.  At information sets that
the *other* players never reach all actions are worth 0, and nothing is
required (as in the seed's condition (1)).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterable

from exactpoker.certify import Certificate, PlayerCheck, verify
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.evaluate import counterfactual_values, sequence_values
from exactpoker.core.profile import BehaviourProfile

__all__ = ["SequentialCertificate", "verify_sequential"]

SCOPE = "all strategies, and optimal at every own information set (counterfactual values; seed 003 section 3)"


@dataclass(frozen=True)
class SequentialCertificate(Certificate):
    """The Nash certificate plus the information sets where a played action is not optimal.

    ``violations`` lists ``(player, information set, action)`` for every action
    played with positive probability whose counterfactual value is below the
    best at its information set; the certificate holds when there are none
    and every regret is 0.
    """

    violations: tuple[tuple[str, str, str], ...] = ()

    @property
    def holds(self) -> bool:
        return super().holds and not self.violations

    def to_dict(self) -> dict[str, object]:
        result = super().to_dict()
        result["violations"] = [list(v) for v in self.violations]
        return result


def _restricted_best(compiled: CompiledGame, profile: BehaviourProfile, player: int, forced: set[int],
                     table: list[tuple[Any, ...]]) -> tuple[Fraction, Fraction]:
    """The player's payoff and best-response value when the ``forced`` information sets keep their play."""
    layout = compiled.layouts[player]
    strategy = profile.strategies[player]
    best: list[Any] = [0] * layout.num_infosets
    played: list[Any] = [0] * layout.num_infosets
    for infoset in reversed(range(layout.num_infosets)):
        # the counterfactual values with the best (rather than played) continuation below
        gains = [table[infoset][a] - sum((played[j] for j in layout.children[s]), Fraction(0))
                 + sum((best[j] for j in layout.children[s]), Fraction(0))
                 for a, s in enumerate(layout.infoset_sequences(infoset))]
        mix = strategy[infoset]
        played[infoset] = sum((p * v for p, v in zip(mix, table[infoset]) if p), Fraction(0))
        best[infoset] = (sum((p * v for p, v in zip(mix, gains) if p), Fraction(0)) if infoset in forced
                         else max(gains))
    weights = [profile.realization(compiled, q) for q in range(compiled.num_players)]
    root_values = sequence_values(compiled, player, weights)
    root = root_values.numerators[0] * Fraction(1, root_values.denominator)
    top = layout.children[0]
    return (root + sum((played[j] for j in top), Fraction(0)), root + sum((best[j] for j in top), Fraction(0)))


def verify_sequential(compiled: CompiledGame, profile: BehaviourProfile,
                      forced: Iterable[tuple[int, int]] = ()) -> SequentialCertificate:
    """The Nash certificate of :func:`exactpoker.certify.verify` plus optimality at every information set.

    Parameters
    ----------
    compiled, profile
        The game and the exact profile.
    forced : iterable of (player, infoset)
        Information sets whose play is part of the game's rules (a restricted
        game such as seed 003's SKP, where card 1 never bets or calls): they
        are not checked, and best responses keep their play.

    Returns
    -------
    SequentialCertificate
        ``holds`` is true exactly when no player gains by deviating (within
        the restriction) and, at every information set not forced, every
        action played with positive probability has the largest
        counterfactual value.
    """
    fixed = set(forced)
    nash = verify(compiled, profile)
    checks = list(nash.checks)
    violations = []
    for p, layout in enumerate(compiled.layouts):
        table = counterfactual_values(compiled, profile, p)
        own_forced = {i for q, i in fixed if q == p}
        if own_forced:
            payoff, best_value = _restricted_best(compiled, profile, p, own_forced, table)
            checks[p] = PlayerCheck(compiled.player_names[p], payoff, best_value)
        for infoset, action_values in enumerate(table):
            if infoset in own_forced:
                continue
            best = max(action_values)
            for a, (value, prob) in enumerate(zip(action_values, profile.strategies[p][infoset])):
                if prob and value < best:
                    violations.append((compiled.player_names[p], layout.infoset_name(infoset),
                                       layout.infoset_actions(infoset)[a]))
    scope = SCOPE if not fixed else SCOPE + f"; {len(fixed)} information sets forced by the rules"
    return SequentialCertificate(tuple(checks), scope, tuple(violations))
