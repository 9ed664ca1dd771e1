"""The exact system of one support of an N-player game, in realization weights (sequence form).

Support enumeration (Porter, Nudelman and Shoham, "Simple search methods for
finding a Nash equilibrium", Games and Economic Behavior 63, 2008, sec. 2; for
the sequence form of an extensive game, von Stengel, "Efficient computation of
behavior strategies", GEB 14, 1996, sec. 4) fixes, for every player, the
actions played with positive probability at each information set the player's
own support reaches (:data:`PlayerSupport`).  On a support the unknowns are
realization weights: at an information set with support ``S`` reached by the
sequence ``sigma``, the weights of ``S[1:]`` are unknowns and that of ``S[0]``
is ``r(sigma)`` minus their sum; an information set with one supported action
passes its parent's weight on.  Every weight is then a linear form in the
player's own unknowns, and player ``p``'s payoff coefficient of a sequence,

.. math::  c_p(s) = \\sum_{e:\\, s_{e,p} = s} c_{e,p} \\prod_{q \\ne p} r_q(s_{e,q}),

is **multilinear** in the unknowns (the forms of different players share no
unknown), with integer coefficients.  A profile on the support is a Nash
equilibrium exactly when (backward induction over the player's own sets):

* **indifference**: at every reached set, the supported actions have equal
  counterfactual value (continuations along the support);
* **best response**: every unsupported action at a reached set, with every
  pure continuation below it, is worth at most that value;
* **positivity**: every supported sequence has weight ``> 0``.

Polynomials are :data:`~exactpoker.solve.algebra.box_exclusion.Multilinear` dicts
(bit ``k`` of a monomial: unknown ``k``), so the box-exclusion proofs apply as
they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import prod
from typing import Iterator, Sequence

from exactpoker.algebraic import AlgebraicNumber
from exactpoker.core.compiled import CompiledGame, SequenceLayout
from exactpoker.core.profile import BehaviourProfile
from exactpoker.errors import InvalidParameterError
from exactpoker.solve.algebra.roots import Exact
from exactpoker.solve.algebra.box_exclusion import Multilinear

__all__ = ["PlayerSupport", "SupportKey", "SupportSystem", "player_supports", "support_count", "build_system",
           "poly_value", "MAX_CONDITIONS"]

#: Per information set, the actions played with positive probability (``()``: not reached by own play).
PlayerSupport = tuple[tuple[int, ...], ...]
#: One :data:`PlayerSupport` per player.
SupportKey = tuple[PlayerSupport, ...]

#: Most best-response conditions one support may generate (pure continuations below unsupported actions).
MAX_CONDITIONS = 20_000


def _subsets(size: int) -> list[tuple[int, ...]]:
    """The nonempty subsets of ``range(size)``, smallest first."""
    return [c for k in range(1, size + 1) for c in combinations(range(size), k)]


def player_supports(layout: SequenceLayout) -> Iterator[PlayerSupport]:
    """Every support of one player: a nonempty action set at each set its own support reaches."""
    chosen: list[tuple[int, ...]] = []

    def walk(infoset: int, reached: frozenset[int]) -> Iterator[PlayerSupport]:
        if infoset == layout.num_infosets:
            yield tuple(chosen)
            return
        sequences = layout.infoset_sequences(infoset)
        options = _subsets(len(sequences)) if layout.parent_sequence(infoset) in reached else [()]
        for actions in options:
            chosen.append(actions)
            yield from walk(infoset + 1, reached | {sequences[a] for a in actions})
            chosen.pop()

    yield from walk(0, frozenset({0}))


def support_count(layout: SequenceLayout) -> int:
    """How many supports :func:`player_supports` yields (counted, not listed)."""
    below = [1] * layout.num_sequences  # supports of the sets below each sequence
    for infoset in reversed(range(layout.num_infosets)):
        sequences = layout.infoset_sequences(infoset)
        ways = sum(prod(below[sequences[a]] for a in subset) for subset in _subsets(len(sequences)))
        below[layout.parent_sequence(infoset)] *= ways
    return below[0]


def _times(a: Multilinear, b: Multilinear) -> Multilinear:
    """The product of two polynomials in disjoint unknowns (multilinear again)."""
    out: Multilinear = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            out[ma | mb] = out.get(ma | mb, 0) + ca * cb
    return {m: c for m, c in out.items() if c}


def _plus(a: Multilinear, b: Multilinear, sign: int = 1) -> Multilinear:
    out = dict(a)
    for m, c in b.items():
        out[m] = out.get(m, 0) + sign * c
    return {m: c for m, c in out.items() if c}


def poly_value(poly: Multilinear, values: Sequence[Exact]) -> Exact:
    """The exact value of a multilinear polynomial at ``values`` (Fractions, or algebraic numbers of one field)."""
    total: Exact = Fraction(0)
    for m, c in poly.items():
        term: Exact = Fraction(c)
        k = 0
        while m >> k:
            if m >> k & 1:
                term = term * values[k]
            k += 1
        total = total + term
    return total


@dataclass(frozen=True)
class SupportSystem:
    """The exact system of one support (module docstring).

    Attributes
    ----------
    support : SupportKey
    layouts : tuple of SequenceLayout
        The game's layouts (to read behaviour probabilities back).
    variables : tuple of (int, int)
        ``(player, sequence)`` whose realization weight each unknown is.
    weights : tuple of tuple of (Multilinear or None)
        Per player and sequence, its weight as a linear form (``None``: weight 0).
    equations : tuple of Multilinear
        The indifference equations ``= 0`` (identically zero ones left out).
    positive : tuple of Multilinear
        The weights of supported sequences, each required ``> 0`` (constants left out).
    conditions : tuple of Multilinear
        The best-response conditions, each required ``>= 0``.
    """

    support: SupportKey
    layouts: tuple[SequenceLayout, ...]
    variables: tuple[tuple[int, int], ...]
    weights: tuple[tuple[Multilinear | None, ...], ...]
    equations: tuple[Multilinear, ...]
    positive: tuple[Multilinear, ...]
    conditions: tuple[Multilinear, ...]

    def names(self, compiled: CompiledGame) -> list[str]:
        """A readable name per unknown: ``r[player:information set:action]``."""
        out = []
        for p, s in self.variables:
            layout = compiled.layouts[p]
            infoset = layout.sequence_infoset[s]
            action = layout.infoset_actions(infoset)[s - layout.infoset_sequences(infoset)[0]]
            out.append(f"r[{compiled.player_names[p]}:{layout.infoset_name(infoset)}:{action}]")
        return out

    def behaviour(self, values: Sequence[Exact]) -> tuple[tuple[tuple[Exact, ...], ...], ...]:
        """Behaviour probabilities ``r(s) / r(parent)`` from the unknowns' values; unreached sets play their first action."""
        strategies = []
        for layout, forms in zip(self.layouts, self.weights):
            weights = [Fraction(0) if f is None else _simplified(poly_value(f, values)) for f in forms]
            rows = []
            for infoset in range(layout.num_infosets):
                sequences = layout.infoset_sequences(infoset)
                parent = weights[layout.parent_sequence(infoset)]
                if parent == 0:
                    rows.append(tuple(Fraction(int(a == 0)) for a in range(len(sequences))))
                else:
                    rows.append(tuple(_simplified(weights[s] / parent) for s in sequences))
            strategies.append(tuple(rows))
        return tuple(strategies)

    def profile(self, values: Sequence[Exact]) -> BehaviourProfile:
        """The :class:`BehaviourProfile` of :meth:`behaviour`."""
        return BehaviourProfile(self.behaviour(values))


def _simplified(value: Exact) -> Exact:
    """A rational algebraic number as a Fraction."""
    if isinstance(value, AlgebraicNumber) and value.is_rational:
        return value.to_fraction()
    return value


def _linear_weights(layout: SequenceLayout, support: PlayerSupport, first: int
                    ) -> tuple[list[Multilinear | None], list[int]]:
    """Each sequence's weight as a linear form; unknowns numbered from ``first``; the sequences they weigh."""
    forms: list[Multilinear | None] = [None] * layout.num_sequences
    forms[0] = {0: 1}
    owned: list[int] = []
    for infoset, actions in enumerate(support):
        parent = forms[layout.parent_sequence(infoset)]
        if parent is None or not actions:
            continue
        sequences = layout.infoset_sequences(infoset)
        rest: Multilinear = {}
        for a in actions[1:]:
            bit = 1 << (first + len(owned))
            owned.append(sequences[a])
            forms[sequences[a]] = {bit: 1}
            rest[bit] = 1
        forms[sequences[actions[0]]] = _plus(parent, rest, -1)
    return forms, owned


def _coefficients(compiled: CompiledGame, player: int, weights: Sequence[Sequence[Multilinear | None]]
                  ) -> dict[int, Multilinear]:
    """``c_p(s)`` for every sequence of ``player`` reached with others' weights not identically 0."""
    out: dict[int, Multilinear] = {}
    others = [q for q in range(compiled.num_players) if q != player]
    cache: dict[tuple[int, ...], Multilinear | None] = {}
    for row, coefficient in zip(compiled.sequences.tolist(), compiled.coefficients[:, player].tolist()):
        if not coefficient:
            continue
        key = tuple(row[q] for q in others)
        if key not in cache:
            product: Multilinear | None = {0: 1}
            for q in others:
                form = weights[q][row[q]]
                product = None if form is None or product is None else _times(product, form)
            cache[key] = product
        product = cache[key]
        if product is not None:
            s = row[player]
            out[s] = _plus(out.get(s, {}), {m: int(coefficient) * c for m, c in product.items()})
    return out


class _PlayerConditions:
    """Indifference and best-response polynomials of one player (backward induction over its own sets)."""

    def __init__(self, layout: SequenceLayout, support: PlayerSupport, c: dict[int, Multilinear]) -> None:
        self.layout, self.support, self.c = layout, support, c
        self.equations: list[Multilinear] = []
        self.conditions: list[Multilinear] = []
        self._value: dict[int, Multilinear] = {}

    def value(self, infoset: int) -> Multilinear:
        """The counterfactual value of a reached set: its first supported action, along the support."""
        if infoset not in self._value:
            sequences = self.layout.infoset_sequences(infoset)
            self._value[infoset] = self.along(sequences[self.support[infoset][0]])
        return self._value[infoset]

    def along(self, sequence: int) -> Multilinear:
        total = self.c.get(sequence, {})
        for child in self.layout.children[sequence]:
            total = _plus(total, self.value(child))
        return total

    def pure(self, sequence: int) -> list[Multilinear]:
        """The value of ``sequence`` with each pure continuation below it."""
        found = [self.c.get(sequence, {})]
        for child in self.layout.children[sequence]:
            options = [v for s in self.layout.infoset_sequences(child) for v in self.pure(s)]
            found = [_plus(a, b) for a in found for b in options]
            if len(found) > MAX_CONDITIONS:
                raise InvalidParameterError(
                    f"support enumeration: more than {MAX_CONDITIONS} pure continuations below one action at "
                    f"{self.layout.infoset_name(child)!r}; the game is too large for this method")
        return found

    def build(self) -> None:
        for infoset, actions in enumerate(self.support):
            if not actions:
                continue
            sequences = self.layout.infoset_sequences(infoset)
            anchor = self.value(infoset)
            for a in actions[1:]:
                gap = _plus(self.along(sequences[a]), anchor, -1)
                if gap:
                    self.equations.append(gap)
            for a in range(len(sequences)):
                if a not in actions:
                    for deviation in self.pure(sequences[a]):
                        condition = _plus(anchor, deviation, -1)
                        if any(m or c < 0 for m, c in condition.items()):  # not a nonnegative constant
                            self.conditions.append(condition)
            if len(self.conditions) > MAX_CONDITIONS:
                raise InvalidParameterError(f"support enumeration: more than {MAX_CONDITIONS} best-response "
                                            f"conditions on one support; the game is too large for this method")


def build_system(compiled: CompiledGame, support: SupportKey) -> SupportSystem:
    """The indifference, positivity and best-response polynomials of ``support`` (module docstring)."""
    weights, variables = [], []
    for p, (layout, own) in enumerate(zip(compiled.layouts, support)):
        forms, owned = _linear_weights(layout, own, len(variables))
        weights.append(tuple(forms))
        variables += [(p, s) for s in owned]
    equations: list[Multilinear] = []
    conditions: list[Multilinear] = []
    for p, (layout, own) in enumerate(zip(compiled.layouts, support)):
        player = _PlayerConditions(layout, own, _coefficients(compiled, p, weights))
        player.build()
        equations += player.equations
        conditions += player.conditions
    positive = [f for forms in weights for f in forms if f is not None and any(m for m in f)]  # constants: 1
    return SupportSystem(support, tuple(compiled.layouts), tuple(variables), tuple(weights),
                         _unique(equations), _unique(positive), _unique(conditions))


def _unique(polys: Sequence[Multilinear]) -> tuple[Multilinear, ...]:
    seen, out = set(), []
    for poly in polys:
        key = tuple(sorted(poly.items()))
        if key not in seen:
            seen.add(key)
            out.append(poly)
    return tuple(out)
