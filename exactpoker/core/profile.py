"""Behaviour strategy profiles with exact probabilities.

A :class:`BehaviourProfile` gives, for every player, information set and
action, an exact probability: a :class:`fractions.Fraction`, or an
:class:`~exactpoker.algebraic.AlgebraicNumber` (all of one field) when an
equilibrium is irrational.  Realization
weights (the sequence-form view used by the payoff formula of
:mod:`exactpoker.core.compiled`) are derived from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, Sequence

from exactpoker.core.compiled import CompiledGame, PlayerLayout, SequenceLayout
from exactpoker.errors import InvalidParameterError
from exactpoker.algebraic import AlgebraicNumber
from exactpoker.numbers import to_fraction

__all__ = ["BehaviourProfile", "realization_weights", "behaviour_from_plan"]

Strategy = tuple[tuple[Fraction, ...], ...]  # [infoset][action]


def realization_weights(layout: PlayerLayout, strategy: Strategy) -> list[Fraction]:
    """Realization weight of each of the player's sequences under ``strategy``."""
    weights = [Fraction(0)] * layout.num_sequences
    weights[0] = Fraction(1)
    # Parents precede children in sequence order only within one card, and a
    # parent's label precedes its child's, so visiting labels in order works.
    zero = Fraction(0)
    for infoset in range(layout.num_infosets):
        parent = weights[layout.parent_sequence(infoset)]
        for s, prob in zip(layout.infoset_sequences(infoset), strategy[infoset]):
            # exact shortcuts for the common pure choices: parent * 0 and parent * 1 need no Fraction product
            weights[s] = zero if not (parent and prob) else parent if prob == 1 else parent * prob
    return weights


def behaviour_from_plan(layout: SequenceLayout, plan: Sequence[Fraction]) -> Strategy:
    """The behaviour strategy of a realization plan (Kuhn 1953; von Stengel 1996, section 3).

    At an information set reached with weight ``r > 0`` each action has
    probability ``plan[sequence] / r``; an information set the plan never
    reaches gets its first action (any choice there gives the same plan).
    """
    strategy = []
    for infoset in range(layout.num_infosets):
        sequences = layout.infoset_sequences(infoset)
        reach = plan[layout.parent_sequence(infoset)]
        if reach > 0:
            strategy.append(tuple(Fraction(plan[s]) / reach for s in sequences))
        else:
            strategy.append(tuple(Fraction(int(a == 0)) for a in range(len(sequences))))
    return tuple(strategy)


@dataclass(frozen=True)
class BehaviourProfile:
    """Exact action probabilities: ``strategies[player][infoset][action]``."""

    strategies: tuple[Strategy, ...]

    @classmethod
    def from_tables(
        cls, compiled: CompiledGame, tables: Sequence[Mapping[str, Sequence[object]]]
    ) -> "BehaviourProfile":
        """Build a profile from per-label, per-card tables (see :meth:`from_layout_tables`)."""
        return cls.from_layout_tables(compiled.layouts, tables)

    @classmethod
    def from_layout_tables(
        cls, layouts: Sequence[PlayerLayout], tables: Sequence[Mapping[str, Sequence[object]]]
    ) -> "BehaviourProfile":
        """Build a profile from per-label, per-card tables.

        Parameters
        ----------
        layouts : sequence of PlayerLayout
            The game's layouts (``compiled.layouts``, or
            :func:`exactpoker.core.compiler.compile_layouts` without the payoffs).
        tables : sequence of mapping
            One mapping per player from node label to a list over cards
            ``1..n``.  Each item is either one number, the probability of the
            node's last action (two-action nodes), or a sequence with one
            probability per action.  Labels a player never reaches may be
            left out; they default to the first action.
        """
        strategies = []
        for p, layout in enumerate(layouts):
            table = tables[p]
            unknown = set(table) - set(layout.labels)
            if unknown:
                raise InvalidParameterError(
                    f"BehaviourProfile.from_tables(): player {p} has no node(s) {sorted(unknown)}"
                )
            strategy: list[tuple[Fraction, ...]] = []
            for infoset in range(layout.num_infosets):
                card, label = layout.infoset_card_label(infoset)
                names = layout.actions[label]
                column = table.get(layout.labels[label])
                if column is None:
                    strategy.append((Fraction(1),) + (Fraction(0),) * (len(names) - 1))
                    continue
                strategy.append(_distribution(column[card - 1], len(names), layout.labels[label], card))
            strategies.append(tuple(strategy))
        return cls(tuple(strategies))

    @classmethod
    def from_infosets(
        cls, compiled: CompiledGame, tables: Sequence[Mapping[str, Sequence[object]]]
    ) -> "BehaviourProfile":
        """Build a profile from each player's ``{information set name: [probability per action]}``.

        Names are those of :meth:`~exactpoker.core.compiled.SequenceLayout.infoset_name`
        (for a tree, the game's own keys).  Information sets left out default
        to the first action.
        """
        strategies = []
        for p, layout in enumerate(compiled.layouts):
            table = dict(tables[p])
            names = [layout.infoset_name(i) for i in range(layout.num_infosets)]
            unknown = set(table) - set(names)
            if unknown:
                raise InvalidParameterError(
                    f"BehaviourProfile.from_infosets(): player {p} has no information set(s) {sorted(unknown)[:5]}"
                )
            strategy: list[tuple[Fraction, ...]] = []
            for infoset, name in enumerate(names):
                size = len(layout.infoset_actions(infoset))
                item = table.get(name)
                if item is None:
                    strategy.append((Fraction(1),) + (Fraction(0),) * (size - 1))
                else:
                    strategy.append(_distribution(list(item), size, name, None))
            strategies.append(tuple(strategy))
        return cls(tuple(strategies))

    @classmethod
    def from_plans(cls, compiled: CompiledGame, plans: Sequence[Sequence[Fraction]]) -> "BehaviourProfile":
        """The profile of one realization plan per player (:func:`behaviour_from_plan`)."""
        return cls(tuple(behaviour_from_plan(layout, plan) for layout, plan in zip(compiled.layouts, plans)))

    def by_infoset(self, compiled: CompiledGame, player: int) -> dict[str, tuple[Fraction, ...]]:
        """``{information set name: action probabilities}`` of ``player``, in layout order."""
        layout = compiled.layouts[player]
        return {layout.infoset_name(i): self.strategies[player][i] for i in range(layout.num_infosets)}

    def realization(self, compiled: CompiledGame, player: int) -> list[Fraction]:
        """Realization weights of ``player``'s sequences."""
        return realization_weights(compiled.layouts[player], self.strategies[player])

    def table(self, compiled: CompiledGame, player: int, label: str) -> list[tuple[Fraction, ...]]:
        """The action distribution at ``label`` for each card ``1..n``."""
        layout = compiled.layouts[player]
        index = layout.labels.index(label)
        return [self.strategies[player][layout.infoset(card, index)] for card in range(1, layout.cards + 1)]

    def last_action_table(self, compiled: CompiledGame, player: int, label: str) -> list[Fraction]:
        """Probability of the last (aggressive) action at ``label`` for each card."""
        return [dist[-1] for dist in self.table(compiled, player, label)]

    @property
    def is_pure(self) -> bool:
        return all(prob in (0, 1) for strat in self.strategies for dist in strat for prob in dist)


def _probability(value: object) -> Fraction | AlgebraicNumber:
    return value if isinstance(value, AlgebraicNumber) else to_fraction(value, "probability")


def _distribution(item: object, size: int, label: str, card: int | None) -> tuple[Fraction, ...]:
    where = f"node {label!r}" + ("" if card is None else f", card {card}")
    if isinstance(item, (list, tuple)):
        probs = tuple(_probability(x) for x in item)
        if len(probs) != size:
            raise InvalidParameterError(f"BehaviourProfile: {where}: expected {size} probabilities; got {len(probs)}")
    else:
        if size != 2:
            raise InvalidParameterError(
                f"BehaviourProfile: node {label!r} has {size} actions; give one probability per action"
            )
        last = _probability(item)
        probs = (1 - last, last)
    if any(p < 0 for p in probs) or sum(probs) != 1:
        raise InvalidParameterError(
            f"BehaviourProfile: {where}: probabilities must be >= 0 and sum to 1; "
            f"got {[str(p) for p in probs]}"
        )
    return probs
