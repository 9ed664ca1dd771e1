"""Rules -> model: a one-card betting game's tree read as information sets and leaves.

With a continuous deck (:mod:`exactpoker.core.continuous_deck`) a player who
moves knows their hand ``x`` in ``[0, 1]`` and the decision's label, so an
information set is a pair ``(player, label)`` holding one decision per hand.
Every leaf of the betting tree is reached by a sequence of steps
``(information set, action)`` and pays: each player's contribution is lost,
and the pot goes to the highest hand among the players still in
(``showdown``), or is shared equally among them (antes returned).  That is all
the engine needs: :mod:`~exactpoker.solve.continuous.payoffs` integrates these
leaves against piecewise-constant strategies.

:func:`parametric_model` gives the same model with contributions affine in a
symbol (a bet, an ante, a pot): the rules are read at two rational values of
the parameter and interpolated, and checked at a third.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Sequence

import sympy

from exactpoker.core.game import BettingGame, Decision, Node, Outcome
from exactpoker.errors import InvalidGameError

__all__ = ["InfoSet", "Leaf", "BettingModel", "betting_model", "parametric_model"]


@dataclass(frozen=True)
class InfoSet:
    """A player's decision at one label: one choice among ``actions`` per hand."""

    player: int
    label: str
    actions: tuple[str, ...]


@dataclass(frozen=True)
class Leaf:
    """An end of the betting: the steps ``(information set, action)`` from the root, and how it pays."""

    steps: tuple[tuple[int, int], ...]
    contributions: tuple[sympy.Expr, ...]
    active: tuple[int, ...]
    showdown: bool


@dataclass(frozen=True)
class BettingModel:
    """A one-card betting game as information sets and leaves (module docstring)."""

    name: str
    player_names: tuple[str, ...]
    infosets: tuple[InfoSet, ...]
    leaves: tuple[Leaf, ...]
    #: the parameters (name -> value, or the symbol of :func:`parametric_model`), for display
    parameters: tuple[tuple[str, object], ...] = ()

    @property
    def num_players(self) -> int:
        return len(self.player_names)

    def infosets_of(self, player: int) -> list[int]:
        return [h for h, infoset in enumerate(self.infosets) if infoset.player == player]

    def index(self, player: int, label: str) -> int:
        """The information set of ``player`` at ``label``."""
        for h, infoset in enumerate(self.infosets):
            if infoset.player == player and infoset.label == label:
                return h
        raise KeyError((player, label))

    def exact(self) -> "BettingModel":
        """The same model with every contribution a :class:`~fractions.Fraction` (for field arithmetic).

        Raises
        ------
        ValueError
            If a contribution still holds a parameter symbol.
        """
        leaves = tuple(Leaf(leaf.steps, tuple(_fraction(c) for c in leaf.contributions), leaf.active, leaf.showdown)
                       for leaf in self.leaves)
        return BettingModel(self.name, self.player_names, self.infosets, leaves, self.parameters)

    def name_of(self, h: int) -> str:
        infoset = self.infosets[h]
        return f"{self.player_names[infoset.player]}:{infoset.label}"


def _fraction(value: sympy.Expr) -> Fraction:
    if not value.is_Rational:
        raise ValueError(f"a contribution depends on a parameter: {value}")
    return Fraction(int(value.p), int(value.q))


def betting_model(rules: BettingGame) -> BettingModel:
    """The model of ``rules`` (its tree walked once; perfect recall checked).

    Raises
    ------
    InvalidGameError
        If one label of a player offers different actions, or a player could
        reach an information set by two different histories of their own moves.
    """
    builder = _Builder(rules.num_players)
    builder.walk(rules.root, (), tuple(() for _ in range(rules.num_players)))
    return BettingModel(rules.name, rules.player_names, tuple(builder.infosets), tuple(builder.leaves),
                        rules.parameters)


class _Builder:
    def __init__(self, players: int) -> None:
        self.players = players
        self.infosets: list[InfoSet] = []
        self.index: dict[tuple[int, str], int] = {}
        self.own_history: dict[int, tuple[tuple[int, int], ...]] = {}
        self.leaves: list[Leaf] = []

    def walk(self, node: Node, steps: tuple[tuple[int, int], ...],
             own: tuple[tuple[tuple[int, int], ...], ...]) -> None:
        if isinstance(node, Outcome):
            if len(node.contributions) != self.players:
                raise InvalidGameError(f"an outcome lists {len(node.contributions)} contributions for "
                                       f"{self.players} players")
            contributions = tuple(sympy.Rational(c.numerator, c.denominator) for c in node.contributions)
            self.leaves.append(Leaf(steps, contributions, node.active, node.showdown))
            return
        h = self._infoset(node, own[node.player])
        for a, (_name, child) in enumerate(node.actions):
            mine = own[node.player] + ((h, a),)
            self.walk(child, steps + ((h, a),), own[:node.player] + (mine,) + own[node.player + 1:])

    def _infoset(self, node: Decision, history: tuple[tuple[int, int], ...]) -> int:
        key = (node.player, node.label)
        if key not in self.index:
            self.index[key] = len(self.infosets)
            self.infosets.append(InfoSet(node.player, node.label, node.action_names))
            self.own_history[self.index[key]] = history
        h = self.index[key]
        if self.infosets[h].actions != node.action_names:
            raise InvalidGameError(f"label {node.label!r} of player {node.player}: actions "
                                   f"{self.infosets[h].actions} and {node.action_names} differ")
        if self.own_history[h] != history:
            raise InvalidGameError(f"label {node.label!r} of player {node.player} is reached after different "
                                   f"moves of the player's own (no perfect recall)")
        return h


def parametric_model(build: Callable[..., BettingGame], symbols: "sympy.Symbol | Sequence[sympy.Symbol]",
                     points: Sequence[object]) -> BettingModel:
    """The model with every contribution affine in the parameters ``symbols``, read from the rules.

    With one symbol, ``points`` are three rational values: ``build(value)``
    is read at the first two and interpolated, and checked at the third.
    With ``k`` symbols, ``points`` are ``k + 2`` tuples of values: a base
    point, one point moving each parameter alone, and a check point;
    ``build(*values)`` gives the rules.

    Raises
    ------
    InvalidGameError
        If the rules' trees differ between the points, or a contribution is not affine in the parameters.
    """
    names = [symbols] if isinstance(symbols, sympy.Symbol) else list(symbols)
    tuples = [tuple(p) if isinstance(p, (tuple, list)) else (p,) for p in points]
    models = [betting_model(build(*values)) for values in tuples]
    first = models[0]
    if any(m.infosets != first.infosets or [leaf.steps for leaf in m.leaves] != [leaf.steps for leaf in first.leaves]
           for m in models):
        raise InvalidGameError(f"{first.name}: the betting tree changes with the parameters {names}")
    base = [sympy.Rational(Fraction(v).numerator, Fraction(v).denominator) for v in tuples[0]]
    leaves = []
    for k, leaf in enumerate(first.leaves):
        affine = []
        for player, c0 in enumerate(leaf.contributions):
            expr = c0
            for j, symbol in enumerate(names):
                moved = sympy.Rational(Fraction(tuples[j + 1][j]).numerator, Fraction(tuples[j + 1][j]).denominator)
                slope = (models[j + 1].leaves[k].contributions[player] - c0) / (moved - base[j])
                expr = expr + slope * (symbol - base[j])
            affine.append(sympy.expand(expr))
        check = models[-1].leaves[k]
        at = dict(zip(names, (sympy.Rational(Fraction(v).numerator, Fraction(v).denominator) for v in tuples[-1])))
        if any(a.subs(at) != c for a, c in zip(affine, check.contributions)) or \
                any((m.leaves[k].active, m.leaves[k].showdown) != (leaf.active, leaf.showdown) for m in models):
            raise InvalidGameError(f"{first.name}: a contribution is not affine in {names}")
        leaves.append(Leaf(leaf.steps, tuple(affine), leaf.active, leaf.showdown))
    by_name = {str(symbol): symbol for symbol in names}
    parameters = tuple((k, by_name.get(k, v)) for k, v in first.parameters)
    return BettingModel(first.name, first.player_names, first.infosets, tuple(leaves), parameters)
