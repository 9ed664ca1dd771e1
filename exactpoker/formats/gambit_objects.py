"""pygambit's objects in the exact pipeline: a ``pygambit.Game`` as a game, its profiles as exact profiles.

A ``pygambit.Game`` is read through its own text (``Game.to_efg()`` for a
game tree, ``Game.to_nfg()`` for a table) by :func:`~exactpoker.formats.efg.read_efg`
or :func:`~exactpoker.formats.nfg.read_nfg`: numbers exactly as Gambit writes
them (rationals, or decimals read as written).

A ``MixedBehaviorProfile`` (``game.mixed_behavior_profile()``, an equilibrium
of ``pygambit.nash``) becomes a
:class:`~exactpoker.core.profile.BehaviourProfile` information set by
information set, matched by Gambit's numbering (the number of an information
set in ``to_efg()`` is its place in ``player.infosets``; a game not read from
Gambit's text by Gambit's order of its tree); a
``MixedStrategyProfile`` through each strategy's actions
(``strategy.action(infoset)``) and Kuhn's theorem.  Probabilities are read as
exact rationals (``Rational`` as it is, a float or ``Decimal`` as its decimal
text, see :mod:`exactpoker.formats.profiles`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

from exactpoker.core.profile import BehaviourProfile, behaviour_from_plan
from exactpoker.errors import InvalidParameterError
from exactpoker.formats import LoadedGame
from exactpoker.formats.profile_game import ProfileGame
from exactpoker.lazy import is_instance

__all__ = ["read_pygambit", "is_pygambit_profile", "pygambit_profile"]


def read_pygambit(game: Any) -> LoadedGame:
    """The ``pygambit.Game`` ``game`` as a loaded game (its ``.efg`` or ``.nfg`` text read exactly)."""
    source = f"pygambit:{game.title or 'game'}"
    if game.is_tree:
        from exactpoker.formats.efg import read_efg

        return read_efg(game.to_efg(), source=source)
    from exactpoker.formats.nfg import read_nfg

    return read_nfg(game.to_nfg(), source=source)


def is_pygambit_profile(value: object) -> bool:
    """Whether ``value`` is a pygambit mixed behaviour or mixed strategy profile (pygambit not imported)."""
    return is_instance(value, "pygambit", "MixedBehaviorProfile", "MixedStrategyProfile")


def pygambit_profile(game: ProfileGame, profile: Any, exact: Callable[[object, str], Fraction]) -> BehaviourProfile:
    """A pygambit profile of the game being checked, as an exact behaviour profile.

    ``exact`` reads one probability (``exact(value, where)``), as the
    ``--decimals`` rule says.  A game read from Gambit's text (a ``.efg``
    file, a ``pygambit.Game``) is matched by Gambit's numbers
    (``efg_tables(loaded).order``); any other game by Gambit's order of its tree
    (what ``pygambit.read_efg`` gives for the file ``exactpoker convert``
    writes, :mod:`~exactpoker.formats.gambit_order`).

    Raises
    ------
    InvalidParameterError
        If the profile's game has other players or information sets.
    """
    compiled = game.compiled
    players = list(profile.game.players)
    if len(players) != compiled.num_players:
        raise InvalidParameterError(f"PROFILE: the pygambit profile's game has {len(players)} players; "
                                    f"this game has {compiled.num_players}")
    if not profile.game.is_tree:  # a table: one information set a player, the strategies its actions
        rows = [[exact(profile[s], f"strategy {s.label!r}") for s in player.strategies] for player in players]
        return BehaviourProfile(tuple((tuple(row),) for row in rows))
    strategies = []
    for p, (player, layout) in enumerate(zip(players, compiled.layouts)):
        infosets = list(player.infosets)
        if len(infosets) != layout.num_infosets:
            raise InvalidParameterError(f"PROFILE: player {player.label!r} has {len(infosets)} information sets in "
                                        f"the pygambit game, {layout.num_infosets} in this game")
        mine = _gambit_numbering(game, p)
        if is_instance(profile, "pygambit", "MixedStrategyProfile"):
            strategies.append(_mixed_strategy(profile, player, infosets, layout, mine, exact))
            continue
        strategy: list[tuple[Fraction, ...]] = [()] * layout.num_infosets
        for index, infoset in zip(mine, infosets):
            strategy[index] = tuple(exact(profile[a], f"information set {infoset.label!r}, action {a.label!r}")
                                    for a in infoset.actions)
        strategies.append(tuple(strategy))
    return BehaviourProfile(tuple(strategies))


def _gambit_numbering(game: ProfileGame, player: int) -> list[int]:
    """The player's information sets (layout indices) in the order of Gambit's ``player.infosets``."""
    from exactpoker.formats.efg import numbered_order

    numbered = numbered_order(game.loaded)
    if numbered is not None:
        return [game.infoset_index(player)[key] for key in numbered[player]]
    return list(game.order()[player])


def _mixed_strategy(profile: Any, player: Any, infosets: list[Any], layout: Any, mine: list[int],
                    exact: Callable[[object, str], Fraction]) -> tuple[tuple[Fraction, ...], ...]:
    """A player's mixed strategy over Gambit's reduced strategies, as the behaviour strategy of its plan."""
    plan = [Fraction(0)] * layout.num_sequences
    plan[0] = Fraction(1)
    for strategy in player.strategies:
        weight = exact(profile[strategy], f"strategy {strategy.label!r}")
        if not weight:
            continue
        for index, infoset in zip(mine, infosets):
            action = strategy.action(infoset)
            if action is not None:
                position = list(infoset.actions).index(action)
                plan[layout.infoset_sequences(index)[position]] += weight
    return behaviour_from_plan(layout, plan)
