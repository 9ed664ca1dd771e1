"""The certificate: no information set gains by any action at any hand in ``[0, 1]``, decided exactly.

Given a game's model and a profile whose cut points and probabilities are
exact numbers of one field, :func:`certify` recomputes from the rules every
action's counterfactual payoff at every hand of every information set
(:func:`~exactpoker.solve.continuous.payoffs.action_values`, exact
piecewise polynomials in the hand) and checks on every interval between
consecutive break points (all the players' cut points together):

* every action played there earns at least as much as every other action at
  every hand of the interval (the exact sign of the polynomial difference,
  :func:`~exactpoker.solve.continuous.signs.nonnegative_on`);
* actions played together (a mixed interval) earn the same at every hand
  (their difference is identically zero).

It also checks that the break points are ordered in ``[0, 1]`` and the
probabilities are probabilities.  It reads nothing of how the profile was
found (no equation of the system is reused).

Why it proves an equilibrium: a player's strategy is a best response iff at
almost every hand it is optimal in the player's decision problem at that
hand.  The check above is optimality at every information set with the
player's own later behaviour as continuation (counterfactual values); from
the last decisions backwards this makes the whole strategy a best response
at every hand (the one-shot deviation principle of a finite tree with
perfect recall), including at decisions the player's own strategy never
reaches.  The ties it meets (an action not played whose payoff equals the
played one's on a whole interval) are kept: they are where the equilibrium
may belong to a family (:mod:`~exactpoker.solve.continuous.families`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from exactpoker.solve.continuous.model import BettingModel
from exactpoker.solve.continuous.payoffs import all_action_values, subtract, values
from exactpoker.solve.continuous.profile import PiecewiseProfile
from exactpoker.solve.continuous.signs import is_zero, nonnegative_on

__all__ = ["Tie", "ContinuousCertificate", "certify", "SCOPE"]

SCOPE = ("every hand of every information set: each action's expected payoff (a piecewise polynomial in the hand, "
         "integrated exactly from the rules) compared by exact signs on every interval between consecutive cut points")


@dataclass(frozen=True)
class Tie:
    """Actions of one information set that earn the same at every hand of an elementary interval."""

    infoset: int
    interval: int
    actions: tuple[int, ...]
    played: tuple[int, ...]


@dataclass(frozen=True)
class ContinuousCertificate:
    """What :func:`certify` checked, and whether it holds."""

    holds: bool
    intervals: int = 0
    comparisons: int = 0
    decided_by: tuple[str, ...] = ()
    failures: tuple[str, ...] = ()
    ties: tuple[Tie, ...] = field(default=(), repr=False)
    values: tuple[Any, ...] = field(default=(), repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {"holds": self.holds, "scope": SCOPE, "kind": "exact signs of piecewise-polynomial payoff differences",
                "intervals": self.intervals, "comparisons": self.comparisons,
                "decided_by": list(self.decided_by)}


def _well_formed(model: BettingModel, profile: PiecewiseProfile) -> list[str]:
    problems = []
    breaks = profile.breaks
    if breaks[0] != 0 or breaks[-1] != 1 or any(breaks[i] > breaks[i + 1] for i in range(len(breaks) - 1)):
        problems.append("the cut points are not ordered in [0, 1]")
    for h, rows in enumerate(profile.behaviour):
        for i, probs in enumerate(rows):
            if any(p < 0 for p in probs) or sum(probs) != 1 or len(probs) != len(model.infosets[h].actions):
                problems.append(f"{model.name_of(h)}: not a probability vector on interval {i}")
    return problems


def certify(model: BettingModel, profile: PiecewiseProfile) -> ContinuousCertificate:
    """Check ``profile`` against every deviation at every hand (module docstring); ``model`` with exact contributions."""
    failures = _well_formed(model, profile)
    if failures:
        return ContinuousCertificate(False, failures=tuple(failures))
    comparisons, decided, ties = 0, set(), []
    nonempty = [i for i in range(profile.intervals) if profile.breaks[i] < profile.breaks[i + 1]]
    table = all_action_values(model, profile)
    for player in range(model.num_players):
        for h in model.infosets_of(player):
            actions = range(len(model.infosets[h].actions))
            for i in nonempty:
                low, high = profile.breaks[i], profile.breaks[i + 1]
                played = tuple(a for a in actions if profile.behaviour[h][i][a] > 0)
                best = table[(h, played[0])][i]
                tied = list(played)
                for a in actions:
                    if a == played[0]:
                        continue
                    gap = subtract(best, table[(h, a)][i])
                    comparisons += 1
                    if a in played:
                        if not is_zero(gap):
                            failures.append(f"{model.name_of(h)}: mixed actions earn differently on "
                                            f"[{float(low):.6g}, {float(high):.6g}]")
                        continue
                    ok, how = nonnegative_on(gap, low, high)
                    decided.add(how)
                    if not ok:
                        failures.append(f"{model.name_of(h)}: {model.infosets[h].actions[a]} gains on "
                                        f"[{float(low):.6g}, {float(high):.6g}] ({how})")
                    elif is_zero(gap):
                        tied.append(a)
                if len(tied) > len(played):
                    ties.append(Tie(h, i, tuple(sorted(tied)), played))
    if failures:
        return ContinuousCertificate(False, len(nonempty), comparisons, tuple(sorted(decided)), tuple(failures))
    return ContinuousCertificate(True, len(nonempty), comparisons, tuple(sorted(decided)), (), tuple(ties),
                                 tuple(values(model, profile)))

