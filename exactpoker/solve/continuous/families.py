"""When the equilibrium found is one member of a family, and what the family looks like.

Zero-sum continuous poker games often have many optimal strategies with one
value (von Neumann's game: II may call anywhere in ``[A, B]`` with the right
total; continuous Kuhn poker: which of the lowest hands bluff).  Two traces
of a family are read off the certified solution:

* **ties**: on an interval a player's actions earn the same at every hand
  (the certificate's identically-zero differences), while the strategy plays
  only some of them there.  Moving probability between tied actions on that
  interval leaves the player's own payoff unchanged; the opponents' payoffs
  depend on it only through the *measures* of the actions on the interval
  (and on its parts below their own cut points), which their indifference
  conditions fix.  Each tie is reported with those measures.
* **free unknowns**: a cut point (or a probability) with no equation of its
  own, fixed by the engine at a simple rational near its reading
  (:func:`~exactpoker.solve.continuous.system.fix_free`); the certificate
  holds at that value, and other values give other members as long as it
  still holds.

Only the member returned is certified; the family around it is described,
not enumerated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy

from exactpoker.solve.continuous.attempt import SolvedShape
from exactpoker.solve.continuous.model import BettingModel

__all__ = ["TieRun", "FamilyTraces", "describe_family"]


@dataclass(frozen=True)
class TieRun:
    """``player`` earns the same with every action of ``actions`` at every hand of ``[start, end]``."""

    player: str
    label: str
    actions: tuple[str, ...]
    played: tuple[str, ...]
    start: Any
    end: Any
    measures: tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class FamilyTraces:
    """The traces of a family around the certified member (module docstring)."""

    ties: tuple[TieRun, ...]
    free: tuple[tuple[str, Any], ...]


def describe_family(model: BettingModel, solved: SolvedShape, cut_names: dict[sympy.Symbol, str]) -> FamilyTraces | None:
    """The ties and free unknowns of ``solved``, or ``None`` when it has neither."""
    profile = solved.profile
    runs: list[list[Any]] = []  # [infoset, tied actions, played actions, first interval, last interval]
    for tie in solved.certificate.ties:
        last = runs[-1] if runs else None
        if last is not None and (last[0], last[1], last[4]) == (tie.infoset, tie.actions, tie.interval - 1):
            last[2], last[4] = tuple(sorted(set(last[2]) | set(tie.played))), tie.interval
        else:
            runs.append([tie.infoset, tie.actions, tie.played, tie.interval, tie.interval])
    ties = []
    for h, actions, played, first, last in runs:
        infoset = model.infosets[h]
        measures = tuple((infoset.actions[a], sum((profile.behaviour[h][i][a] * (profile.breaks[i + 1] - profile.breaks[i])
                                                   for i in range(first, last + 1)), 0)) for a in actions)
        ties.append(TieRun(model.player_names[infoset.player], infoset.label,
                           tuple(infoset.actions[a] for a in actions), tuple(infoset.actions[a] for a in played),
                           profile.breaks[first], profile.breaks[last + 1], measures))
    free = tuple((cut_names.get(symbol, str(symbol)), value) for symbol, value in solved.fixed.items())
    if not ties and not free:
        return None
    return FamilyTraces(tuple(ties), free)

