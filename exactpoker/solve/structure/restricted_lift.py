"""A profile of a game with some actions left out, lifted to the full game by names.

A game whose rules leave out actions that can never help (Liar's Dice's bids
that never hold, :mod:`exactpoker.solve.engine.restricted`) is smaller to solve;
its equilibrium becomes a profile of the full game by matching information
sets and actions by name: a kept action has its probability, a left-out one
probability 0, and an information set the smaller game does not have (one
reached only through a left-out action) plays a given fallback action.  The
lifted profile is *not* an equilibrium by construction: the caller certifies
it on the full game (:func:`exactpoker.certify.verify`).

References
----------
B. von Stengel, "Efficient computation of behavior strategies", Games and
Economic Behavior 14 (1996): behaviour strategies on the sequence form's
information sets, the objects matched here.
"""

from __future__ import annotations

from fractions import Fraction

from exactpoker.core.compiled import CompiledGame
from exactpoker.core.profile import BehaviourProfile
from exactpoker.errors import InvalidGameError

__all__ = ["lift_by_names"]

_ZERO, _ONE = Fraction(0), Fraction(1)


def lift_by_names(full: CompiledGame, reduced: CompiledGame, profile: BehaviourProfile,
                  fallback: str) -> BehaviourProfile:
    """``profile`` of ``reduced`` as a profile of ``full`` (see the module docstring).

    Parameters
    ----------
    full, reduced : CompiledGame
        The game and the game with some actions left out; their information
        sets and actions are matched by name.
    profile : BehaviourProfile
        A profile of ``reduced``.
    fallback : str
        The action played, with probability 1, at every information set of
        ``full`` that ``reduced`` does not have.

    Raises
    ------
    InvalidGameError
        If an information set of ``reduced`` is missing from ``full`` or has
        an action ``full`` does not offer there, or ``fallback`` is not an
        action of an information set it must be played at.
    """
    if len(full.layouts) != len(reduced.layouts):
        raise InvalidGameError("lift_by_names(): the two games have different numbers of players")
    strategies = []
    for p, (big, small) in enumerate(zip(full.layouts, reduced.layouts)):
        where = {big.infoset_name(i): i for i in range(big.num_infosets)}
        rows: list[tuple[Fraction, ...] | None] = [None] * big.num_infosets
        for j, probabilities in enumerate(profile.strategies[p]):
            name = small.infoset_name(j)
            i = where.get(name)
            kept = dict(zip(small.infoset_actions(j), probabilities))
            if i is None or not set(kept) <= set(big.infoset_actions(i)):
                raise InvalidGameError(f"lift_by_names(): information set {name!r} of player {p} or one of its "
                                       "actions is not in the full game")
            rows[i] = tuple(kept.get(action, _ZERO) for action in big.infoset_actions(i))
        pure: dict[tuple[str, ...], tuple[Fraction, ...]] = {}
        for i, row in enumerate(rows):
            if row is None:
                actions = big.infoset_actions(i)
                if fallback not in actions:
                    raise InvalidGameError(f"lift_by_names(): {fallback!r} is not an action of "
                                           f"{big.infoset_name(i)!r}, which only the full game has")
                row = pure.get(actions) or pure.setdefault(
                    actions, tuple(_ONE if action == fallback else _ZERO for action in actions))
                rows[i] = row
        strategies.append(tuple(rows))
    return BehaviourProfile(tuple(strategies))  # type: ignore[arg-type]
