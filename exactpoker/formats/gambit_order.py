"""A game as Gambit numbers it: information sets in Gambit's order, and the reduced strategic form.

Gambit lists a player's information sets in the order they first appear in
the ``.efg`` file, which is the tree's preorder (a node, then its children
left to right); :func:`~exactpoker.formats.efg.write_efg` numbers them in that
order too, so a game written by ``exactpoker convert`` and read by Gambit has
the same order.  :func:`infoset_order` gives it for any game the engine
compiled from a tree, as indices into the compiled game's layouts.

Gambit's behaviour profiles (``NE,...`` lines of ``gambit-lcp`` on an
extensive game, ``MixedBehaviorProfile``) list, player after player, each
information set in that order and each action in the file's order
(:func:`behaviour_numbers`).  Its mixed profiles of an extensive game are over
the *reduced* strategic form (:func:`reduced_strategies`): a strategy chooses
an action at every information set its own earlier choices do not rule out;
it is labelled by the action numbers (1-based) in Gambit's order, ``*`` where
it is ruled out (``"12*"``), and the strategies come in the order of their
labels read as an odometer, the last information set changing fastest.  This is
what ``pygambit``'s ``game.strategies`` and ``Game.to_nfg()`` give.

References
----------
The Gambit Project, "Game representation formats" and "Representation of
strategies", https://gambitproject.readthedocs.io; D. Koller, N. Megiddo and
B. von Stengel, "Efficient computation of equilibria for extensive two-person
games", Games and Economic Behavior 14 (1996): the reduced strategic form.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator, Sequence

from exactpoker.algebraic import AlgebraicNumber
from exactpoker.core.compiled import CompiledGame, SequenceLayout
from exactpoker.core.profile import BehaviourProfile, behaviour_from_plan
from exactpoker.core.tree import GameTree, Move
from exactpoker.errors import InvalidGameError, InvalidParameterError
from exactpoker.numbers import exact_str

__all__ = ["infoset_order", "behaviour_numbers", "behaviour_profile", "ne_line", "ReducedStrategy",
           "reduced_strategies", "count_reduced", "mixed_profile"]


def infoset_order(tree: GameTree, compiled: CompiledGame) -> tuple[tuple[int, ...], ...]:
    """Per player, ``compiled``'s information sets (layout indices) in Gambit's order: first met in preorder.

    ``compiled`` is ``tree`` compiled (its layouts name the information sets
    by the tree's keys; a seed paper's card game, whose layout names them
    ``"card:label"``, as :meth:`~exactpoker.core.game.BettingGame.tree` keys them).

    Raises
    ------
    InvalidGameError
        If the tree and the compiled game do not have the same information sets.
    """
    index = [{layout.infoset_name(i): i for i in range(layout.num_infosets)} for layout in compiled.layouts]
    order: list[list[int]] = [[] for _ in compiled.layouts]
    seen: set[tuple[int, str]] = set()
    for node in tree.nodes():
        if isinstance(node, Move) and (node.player, node.infoset) not in seen:
            seen.add((node.player, node.infoset))
            found = index[node.player].get(node.infoset)
            if found is None:
                raise InvalidGameError(f"{tree.name}: information set {node.infoset!r} of the tree is not in the "
                                       "compiled game")
            order[node.player].append(found)
    for p, layout in enumerate(compiled.layouts):
        if len(order[p]) != layout.num_infosets:
            raise InvalidGameError(f"{tree.name}: player {compiled.player_names[p]} has {layout.num_infosets} "
                                   f"information sets compiled, {len(order[p])} in the tree")
    return tuple(tuple(mine) for mine in order)


def behaviour_numbers(profile: BehaviourProfile, order: Sequence[Sequence[int]]) -> list[object]:
    """The profile as Gambit lists a behaviour profile: players, information sets in ``order``, actions."""
    return [prob for p, mine in enumerate(order) for infoset in mine for prob in profile.strategies[p][infoset]]


def ne_line(profile: BehaviourProfile, order: Sequence[Sequence[int]]) -> str:
    """The profile as Gambit's tools print an equilibrium: ``NE,`` and the exact rationals, comma separated.

    Raises
    ------
    InvalidParameterError
        If a probability is irrational: Gambit's lines hold rationals (or
        rounded decimals, which would not be this profile); the JSON output
        keeps the exact algebraic numbers and their certified decimals.
    """
    numbers = [x.to_fraction() if isinstance(x, AlgebraicNumber) and x.is_rational else x
               for x in behaviour_numbers(profile, order)]
    irrational = next((x for x in numbers if not isinstance(x, (int, Fraction))), None)
    if irrational is not None:
        from exactpoker.display import decimal

        raise InvalidParameterError(
            f"--format gambit: the equilibrium is irrational (a probability ≈ {decimal(irrational, 12)}); "
            "Gambit's NE lines hold rationals, and rounded decimals would not be this equilibrium: use --json "
            "(exact algebraic numbers, certified decimals under approx)")
    return "NE," + ",".join(exact_str(x) for x in numbers)


def behaviour_profile(compiled: CompiledGame, order: Sequence[Sequence[int]],
                      numbers: Sequence[Fraction]) -> BehaviourProfile:
    """The inverse of :func:`behaviour_numbers` (``numbers`` of the right length, in Gambit's order)."""
    position = 0
    strategies = []
    for p, layout in enumerate(compiled.layouts):
        strategy: list[tuple[Fraction, ...]] = [()] * layout.num_infosets
        for infoset in order[p]:
            width = len(layout.infoset_actions(infoset))
            strategy[infoset] = tuple(numbers[position:position + width])
            position += width
        strategies.append(tuple(strategy))
    return BehaviourProfile(tuple(strategies))


@dataclass(frozen=True)
class ReducedStrategy:
    """One strategy of the reduced strategic form: Gambit's label and the player's sequences it plays."""

    label: str
    sequences: tuple[int, ...]


def reduced_strategies(layout: SequenceLayout, order: Sequence[int], names: bool = False
                       ) -> Iterator[ReducedStrategy]:
    """Every reduced strategy of the player of ``layout``, in Gambit's order (module docstring).

    ``order`` lists the player's information sets in Gambit's order; an
    information set comes after the one that holds its parent sequence (a
    preorder does).  With ``names`` (a player with one information set: a
    strategic-form game read from ``.nfg``) each strategy is labelled by its
    action's name instead of its number.
    """
    chosen = [-1] * len(order)  # per position: the action's index, -1 where ruled out ("*")
    position = {infoset: k for k, infoset in enumerate(order)}
    parent_position = [position.get(_owner(layout, layout.parent_sequence(i)), -1) for i in order]
    parent_action = [_action_of(layout, layout.parent_sequence(i)) for i in order]

    def reset(start: int) -> None:
        for k in range(start, len(order)):
            q = parent_position[k]
            open_ = q < 0 or chosen[q] == parent_action[k]
            chosen[k] = 0 if open_ else -1

    reset(0)
    while True:
        yield _strategy(layout, order, chosen, names)
        k = len(order) - 1
        while k >= 0 and (chosen[k] < 0 or chosen[k] == len(layout.infoset_actions(order[k])) - 1):
            k -= 1
        if k < 0:
            return
        chosen[k] += 1
        reset(k + 1)


def _owner(layout: SequenceLayout, sequence: int) -> int:
    """The information set a sequence ends at (-1 for the empty sequence)."""
    return layout.sequence_infoset[sequence] if sequence else -1


def _action_of(layout: SequenceLayout, sequence: int) -> int:
    """The index of a sequence's last action in its information set (-1 for the empty sequence)."""
    return sequence - layout.infoset_sequences(layout.sequence_infoset[sequence]).start if sequence else -1


def _strategy(layout: SequenceLayout, order: Sequence[int], chosen: Sequence[int], names: bool) -> ReducedStrategy:
    if names:
        label = layout.infoset_actions(order[0])[chosen[0]]
    else:
        label = "".join("*" if a < 0 else str(a + 1) for a in chosen)
    sequences = tuple(layout.infoset_sequences(infoset)[a] for infoset, a in zip(order, chosen) if a >= 0)
    return ReducedStrategy(label, sequences)


def count_reduced(layout: SequenceLayout) -> int:
    """How many reduced strategies the player has (without listing them).

    A sequence is worth the product, over the information sets that follow
    it, of the sum of their actions' worth; the empty sequence's worth is the
    count.
    """
    worth = [1] * layout.num_sequences
    following: dict[int, list[int]] = {}
    for infoset in range(layout.num_infosets):
        following.setdefault(layout.parent_sequence(infoset), []).append(infoset)
    for infoset in reversed(range(layout.num_infosets)):  # children after parents: backwards is bottom up
        for s in layout.infoset_sequences(infoset):
            worth[s] = math.prod(sum(worth[t] for t in layout.infoset_sequences(i)) for i in following.get(s, ()))
    return math.prod(sum(worth[s] for s in layout.infoset_sequences(i)) for i in following.get(0, ()))


def mixed_profile(compiled: CompiledGame, order: Sequence[Sequence[int]],
                  numbers: Sequence[Fraction]) -> BehaviourProfile:
    """The behaviour profile of a mixed profile over the reduced strategic form (Kuhn's theorem).

    ``numbers`` lists, player after player, the probability of each reduced
    strategy in Gambit's order; each player's realization plan is the mixture
    of the strategies' plans, and its behaviour strategy follows
    (:func:`~exactpoker.core.profile.behaviour_from_plan`: an information set
    the mixture never reaches gets its first action, which changes no payoff).
    """
    position = 0
    strategies = []
    for p, layout in enumerate(compiled.layouts):
        plan = [Fraction(0)] * layout.num_sequences
        plan[0] = Fraction(1)
        for strategy in reduced_strategies(layout, order[p]):
            weight = numbers[position]
            position += 1
            if weight:
                for s in strategy.sequences:
                    plan[s] += weight
        strategies.append(behaviour_from_plan(layout, plan))
    return BehaviourProfile(tuple(strategies))
