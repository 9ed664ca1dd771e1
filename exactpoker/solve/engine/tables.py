"""How a certified profile is laid out in a result: the ``strategies`` and ``labelled_strategies`` tables.

A front end may give its own layout (a Gambit behaviour profile for a ``.efg``
file, OpenSpiel's information-state strings); :func:`infoset_tables` is the
default, and :func:`labelled_tables` the game's own names for every front end.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

from exactpoker.core.compiled import CompiledGame, SequenceLayout
from exactpoker.core.profile import BehaviourProfile

__all__ = ["Tables", "infoset_tables", "labelled_tables", "labelled_layouts"]

#: Formats a certified profile as the result's ``strategies`` table.
Tables = Callable[[CompiledGame, BehaviourProfile], Mapping[str, Any]]


def infoset_tables(compiled: CompiledGame, profile: BehaviourProfile) -> dict[str, dict[str, list[Fraction]]]:
    """Per player name, ``{information set name: [probability of each action]}`` in layout order."""
    return {
        name: {key: list(probs) for key, probs in profile.by_infoset(compiled, p).items()}
        for p, name in enumerate(compiled.player_names)
    }


def labelled_tables(compiled: CompiledGame, profile: BehaviourProfile) -> dict[str, dict[str, dict[str, Any]]]:
    """Per player name, per information set, ``{action name: probability}``: the game's own names.

    The names are the front end's (a Gambit file's information-set and action
    labels, OpenSpiel's ``information_state_string`` and ``action_to_string``,
    the poker language's labels); the result's ``labelled_strategies``.
    """
    return labelled_layouts(compiled.player_names, compiled.layouts, profile)


def labelled_layouts(names: Sequence[str], layouts: Sequence[SequenceLayout], profile: BehaviourProfile
                     ) -> dict[str, dict[str, dict[str, Any]]]:
    """:func:`labelled_tables` from the players' names and layouts alone (a seed paper's rules on a structured
    path: ``"1:open": {"check": 2/3, "bet": 1/3}``)."""
    return {name: {layout.infoset_name(i): dict(zip(layout.infoset_actions(i), profile.strategies[p][i]))
                   for i in range(layout.num_infosets)}
            for p, (name, layout) in enumerate(zip(names, layouts))}
