"""The polynomial system of a support: every gain and indifference of an N-player game, exactly (the one builder).

For any number of players, player ``p``'s payoff is linear in their own realization weights,
``u_p = sum_s c_p(s) r_p(s)``, with

.. math::  c_p(s) = \\frac{1}{D} \\sum_{e:\\, s_{e,p} = s} c_{e,p} \\prod_{q \\ne p} r_q(s_{e,q})

(the compiled game's integer payoff entries over its denominator ``D``).  When some of the others' weights are
unknowns, ``c_p(s)`` is a polynomial; backward induction over ``p``'s own information sets
(:func:`exactpoker.core.evaluate.backward_values`) then gives every action's *counterfactual* value -- weighted
by the others' reach, with ``p``'s own later play as given -- and the gains and indifference equations of a
support are differences of such values.  This module builds them, in python-flint's ``fmpq_mpoly``, in the two
ways the engine writes a support:

* **behaviour variables** (:func:`gain_polynomials`, games whose information sets have two actions): variable
  ``k`` is the probability of the last action at information set ``k`` (player by player, in layout order); the
  unknowns are some of them, the rest exact.  Its gain is the value of the last action minus the first (seed
  003, section 3: the derivative of the owner's payoff divided by the owner's own reach).  The N-player exact
  finish, its isolating-box certificate (:mod:`exactpoker.certify_balls`), the indifference solver of the
  three-player games and a support's symbolic family read these.
* **realization weights** (:func:`support_system`, any number of actions): support enumeration's system
  (Porter, Nudelman and Shoham 2008, sec. 2; von Stengel 1996, sec. 4 for the sequence form): at an information
  set with supported actions ``S`` reached by ``sigma`` the weights of ``S[1:]`` are unknowns and ``S[0]``'s is
  ``r(sigma)`` minus their sum; indifference between supported actions, best response against every pure
  continuation below an unsupported one, positivity of supported weights.  ``--all`` decides these.

Payoff entries whose weights involve no unknown are summed in exact integers first (:func:`entry_sums`), so only
entries below an unknown cost polynomial arithmetic.
"""

from __future__ import annotations

import math
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import prod
from typing import Any, Iterator, Sequence, Union

import numpy as np
from flint import fmpq, fmpq_mpoly, fmpq_mpoly_ctx

from exactpoker.core.compiled import CompiledGame, SequenceLayout
from exactpoker.core.evaluate import backward_values
from exactpoker.core.profile import BehaviourProfile
from exactpoker.errors import DegenerateSystemError, InvalidGameError, InvalidParameterError

__all__ = ["entry_sums", "GainPolynomials", "gain_polynomials", "as_sympy", "as_multilinear",
           "FREE", "Support", "Ties", "IndifferenceSystem", "symbolic_behaviour", "gap_polynomials",
           "PlayerSupport", "SupportKey", "SupportSystem", "player_supports", "support_count", "support_system",
           "MAX_CONDITIONS"]

#: Per information set, the actions played with positive probability (``()``: not reached by own play).
PlayerSupport = tuple[tuple[int, ...], ...]
#: One :data:`PlayerSupport` per player.
SupportKey = tuple[PlayerSupport, ...]

#: Most best-response conditions one support may generate (pure continuations below unsupported actions).
MAX_CONDITIONS = 20_000


# -- the payoff entries, summed exactly where no unknown is involved ------------------------------------------


def _unique_rows(columns: list[np.ndarray], sizes: list[int]) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """The distinct rows of ``columns`` (the first ``>= 0``, the others ``>= -1`` and below ``sizes``) and each row's index.

    Rows are coded as one int64 (mixed radix) when that fits, which sorts far faster than rows; otherwise
    ``numpy.unique`` on the rows.
    """
    radix = [size + 1 for size in sizes]
    if int(columns[0].max() + 1) * math.prod(radix) < 2**62:
        code = columns[0].astype(np.int64)
        for column, base in zip(columns[1:], radix):
            code = code * base + (column + 1)
        unique, inverse = np.unique(code, return_inverse=True)
        rows = []
        for value in unique.tolist():
            digits = []
            for base in reversed(radix):
                value, digit = divmod(value, base)
                digits.append(digit - 1)
            rows.append((value, *reversed(digits)))
        return rows, inverse.ravel()
    unique, inverse = np.unique(np.stack(columns, axis=1), axis=0, return_inverse=True)
    return [tuple(row) for row in unique.tolist()], inverse.ravel()


def entry_sums(compiled: CompiledGame, p: int, numbers: Sequence[Sequence[Fraction | None]]
               ) -> dict[tuple[Any, ...], Fraction]:
    """Player ``p``'s payoff entries summed exactly, grouped by own sequence and the others' unknown weights.

    ``numbers[q][s]`` is player ``q``'s exact weight at sequence ``s``, or ``None`` where it is a polynomial.
    Key ``(s, (q, s_q), ...)``: ``p``'s sequence ``s`` and, for each other player ``q`` whose weight at ``s_q``
    is a polynomial, that sequence; value: the sum over the entries of the key of coefficient times the others'
    exact weights, over ``D``, so each key costs one polynomial product.  Each player's exact weights are
    integers over one common denominator ``d_q`` (``d_q`` itself stands for a polynomial weight); the sums are
    taken in int64 when they provably fit, else in Python integers.
    """
    others = [q for q in range(compiled.num_players) if q != p]
    chosen = np.nonzero(np.asarray(compiled.coefficients[:, p] != 0))[0]
    if not len(chosen):
        return {}
    rows = compiled.sequences[chosen]
    scale, bound = compiled.denominator, int(np.abs(compiled.coefficients[chosen, p]).max()) * len(chosen)
    keys = [rows[:, p]]
    integers = []
    for q in others:
        d = math.lcm(1, *(v.denominator for v in numbers[q] if v is not None))
        ints = [d if v is None else int(v * d) for v in numbers[q]]
        scale *= d
        bound *= max(abs(v) for v in ints)
        integers.append(ints)
        is_polynomial = np.array([v is None for v in numbers[q]], dtype=bool)
        keys.append(np.where(is_polynomial[rows[:, q]], rows[:, q], -1))  # -1: an exact weight
    kind = np.int64 if bound < 2**62 else object
    product = compiled.coefficients[chosen, p].astype(kind)
    for q, ints in zip(others, integers):
        product = product * np.array(ints, dtype=kind)[rows[:, q]]
    unique, inverse = _unique_rows(keys, [len(numbers[q]) for q in others])
    totals = np.zeros(len(unique), dtype=product.dtype)
    np.add.at(totals, inverse, product)
    grouped: dict[tuple[Any, ...], Fraction] = {}
    for (own, *sequences), total in zip(unique, totals.tolist()):
        if total:
            polynomial = tuple((q, sequence) for q, sequence in zip(others, sequences) if sequence >= 0)
            grouped[(own, *polynomial)] = Fraction(int(total), scale)
    return grouped


def _coefficients(compiled: CompiledGame, p: int, numbers: Sequence[Sequence[Fraction | None]],
                  polynomials: Sequence[Sequence[fmpq_mpoly | None]], ctx: fmpq_mpoly_ctx) -> list[fmpq_mpoly]:
    """``c_p(s)`` for every own sequence ``s`` as a polynomial (:func:`entry_sums`, then one product a key)."""
    own = [ctx.constant(0)] * compiled.layouts[p].num_sequences
    for (s, *unknown), total in entry_sums(compiled, p, numbers).items():
        term = ctx.constant(fmpq(total.numerator, total.denominator))
        for q, sequence in unknown:
            term = term * polynomials[q][sequence]
        own[s] = own[s] + term
    return own


# -- behaviour variables --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GainPolynomials:
    """Every variable's counterfactual gain and every player's payoff, as polynomials in the unknowns.

    ``ctx`` names the unknowns ``x<k>`` (``k`` the variable); ``gains[k]`` is variable ``k``'s gain (value of the
    last action minus the first), ``payoffs[p]`` player ``p``'s expected payoff.
    """

    ctx: fmpq_mpoly_ctx
    gains: tuple[fmpq_mpoly, ...]
    payoffs: tuple[fmpq_mpoly, ...]


def _check_two_actions(compiled: CompiledGame) -> None:
    for p, layout in enumerate(compiled.layouts):
        for infoset in range(layout.num_infosets):
            if len(layout.infoset_sequences(infoset)) != 2:
                raise InvalidGameError(f"gain_polynomials(): information set {layout.infoset_name(infoset)!r} of "
                                       f"player {compiled.player_names[p]} has more than two actions")


def gain_polynomials(compiled: CompiledGame, x: Sequence[Any], unknowns: Sequence[int],
                     tied: dict[int, int] | None = None) -> GainPolynomials:
    """Every variable's gain and every player's payoff as polynomials in the ``unknowns`` (module docstring).

    Parameters
    ----------
    compiled : CompiledGame
        A game whose information sets have two actions.
    x : sequence
        Every variable's exact value (Fractions); ignored at the unknowns and the tied variables.
    unknowns : sequence of int
        The variables that are unknowns, in the order of ``ctx``'s generators ``x<k>``.
    tied : dict, optional
        ``variable -> unknown``: variables that share an unknown's value (e.g. symmetric players playing alike).

    The last few systems are kept: the finishes ask for the same one more than once.
    """
    tied = dict(tied or {})
    fixed = tuple(Fraction(v) for k, v in enumerate(x) if k not in set(unknowns) and k not in tied)
    key = (id(compiled), tuple(unknowns), tuple(sorted(tied.items())), fixed)
    if key in _CACHE and _CACHE[key][0]() is compiled:
        _CACHE.move_to_end(key)
    else:
        _CACHE[key] = (weakref.ref(compiled), _gain_polynomials(compiled, x, unknowns, tied))
        if len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return _CACHE[key][1]


#: The last systems asked for (the support corrections go back and forth between a few), with their games
#: (weakly: the cache does not keep a game alive).
_CACHE: "OrderedDict[tuple[Any, ...], tuple[weakref.ref[CompiledGame], GainPolynomials]]" = OrderedDict()
_CACHE_SIZE = 8


def _gain_polynomials(compiled: CompiledGame, x: Sequence[Any], unknowns: Sequence[int],
                      tied: dict[int, int]) -> GainPolynomials:
    _check_two_actions(compiled)
    ctx = fmpq_mpoly_ctx.get(tuple(f"x{k}" for k in unknowns), "lex")
    generator = dict(zip(unknowns, ctx.gens()))
    generator.update({k: generator[u] for k, u in tied.items()})

    def const(value: Fraction) -> fmpq_mpoly:
        return ctx.constant(fmpq(value.numerator, value.denominator))

    entries = [generator[k] if k in generator else const(Fraction(v)) for k, v in enumerate(x)]
    # realization weights: exact numbers where no unknown is on the path, polynomials (None as number) below one
    numbers, weights, k = [], [], 0
    for layout in compiled.layouts:
        number: list[Fraction | None] = [Fraction(0)] * layout.num_sequences
        w: list[fmpq_mpoly | None] = [None] * layout.num_sequences
        number[0] = Fraction(1)
        for infoset in range(layout.num_infosets):
            parent = layout.parent_sequence(infoset)
            passive, aggressive = layout.infoset_sequences(infoset)
            if number[parent] is None or k + infoset in generator:
                above = w[parent] if number[parent] is None else const(number[parent])
                w[passive], w[aggressive] = above * (1 - entries[k + infoset]), above * entries[k + infoset]
                number[passive] = number[aggressive] = None
            else:
                value = Fraction(x[k + infoset])
                number[passive], number[aggressive] = number[parent] * (1 - value), number[parent] * value
        numbers.append(number)
        weights.append(w)
        k += layout.num_infosets
    gains: list[fmpq_mpoly] = []
    payoffs: list[fmpq_mpoly] = []
    k = 0
    for p, layout in enumerate(compiled.layouts):
        own = _coefficients(compiled, p, numbers, weights, ctx)
        continuation = [(1 - entries[k + i], entries[k + i]) for i in range(layout.num_infosets)]
        values, worth = backward_values(layout, own, continuation, ctx.constant(0))
        gains += [last - first for first, last in values]
        payoffs.append(own[0] + sum((worth[j] for j in layout.children[0]), ctx.constant(0)))
        k += layout.num_infosets
    return GainPolynomials(ctx, tuple(gains), tuple(payoffs))


def as_sympy(poly: fmpq_mpoly, symbols: Sequence[Any], scale: int = 1) -> Any:
    """``scale * poly`` as a sympy expression, generator ``i`` of its context written ``symbols[i]``."""
    import sympy

    terms = []
    for exponents, coefficient in poly.terms():
        term = sympy.Rational(int(coefficient.p) * scale, int(coefficient.q))
        for symbol, e in zip(symbols, exponents):
            if e:
                term = term * symbol**e
        terms.append(term)
    return sympy.Add(*terms)


def as_multilinear(poly: fmpq_mpoly, scale: int = 1) -> dict[int, int]:
    """``scale * poly`` as a monomial-bitmask dictionary (bit ``i``: generator ``i``), integer coefficients.

    Raises ``ValueError`` if a coefficient is not an integer after scaling or a degree exceeds 1.
    """
    out: dict[int, int] = {}
    for exponents, coefficient in poly.terms():
        value = Fraction(int(coefficient.p) * scale, int(coefficient.q))
        if value.denominator != 1 or max(exponents, default=0) > 1:
            raise ValueError("as_multilinear(): not a multilinear polynomial with integer coefficients")
        out[sum(1 << i for i, e in enumerate(exponents) if e)] = int(value)
    return out


# -- behaviour supports: each variable at 0, at 1 or free -----------------------------------------------------


#: Marks a free behaviour variable in a :data:`Support`.
FREE = None
#: Per player, per information set: ``0``, ``1`` or :data:`FREE`.
Support = tuple[tuple[Union[int, None], ...], ...]
#: ``(player, infoset) -> (player, infoset)``: free sets that must share another's probability.
Ties = dict[tuple[int, int], tuple[int, int]]


@dataclass(frozen=True)
class IndifferenceSystem:
    """The unknowns, their symbols, and one equation per free information set of a behaviour support.

    ``variables[i]`` is the ``(player, infoset)`` whose probability is ``symbols[i]``; ``aliases`` maps every
    free ``(player, infoset)`` to the index of its symbol (tied sets share one).
    """

    variables: tuple[tuple[int, int], ...]
    symbols: tuple[Any, ...]
    equations: tuple[Any, ...]
    aliases: tuple[tuple[tuple[int, int], int], ...] = ()

    def value_map(self, values: Sequence[Any]) -> dict[tuple[int, int], Any]:
        """``(player, infoset) -> value`` for every free set, from values of :attr:`symbols`."""
        return {key: values[index] for key, index in self.aliases}


def symbolic_behaviour(support: Support, ties: Ties) -> tuple[list[list[Any]], list[tuple[int, int]], list[Any],
                                                               dict[tuple[int, int], int]]:
    """Each player's behaviour as sympy values (a symbol ``x_p_h`` per free set, tied sets sharing one).

    Returns ``(behaviour, variables, symbols, aliases)`` as :class:`IndifferenceSystem` names them.
    """
    import sympy

    values: list[list[Any]] = []
    variables, symbols, alias = [], [], {}
    for p, row in enumerate(support):
        for infoset, fixed in enumerate(row):
            key = (p, infoset)
            if fixed is FREE and ties.get(key, key) == key:
                alias[key] = len(symbols)
                variables.append(key)
                symbols.append(sympy.Symbol(f"x_{p}_{infoset}"))
    for p, row in enumerate(support):
        for infoset, fixed in enumerate(row):
            key = (p, infoset)
            if fixed is FREE and key not in alias:
                if support[ties[key][0]][ties[key][1]] is not FREE:
                    raise DegenerateSystemError(f"tied information sets {key} and {ties[key]} must both be free")
                alias[key] = alias[ties[key]]
        values.append([symbols[alias[(p, h)]] if f is FREE else sympy.Integer(f) for h, f in enumerate(row)])
    return values, variables, symbols, alias


def gap_polynomials(compiled: CompiledGame, support: Support, ties: Ties | None = None,
                    infosets: Sequence[tuple[int, int]] | None = None
                    ) -> tuple[dict[tuple[int, int], Any], list[Any], IndifferenceSystem]:
    """The gains of a behaviour support (:func:`gain_polynomials`) as sympy polynomials in its free variables.

    ``infosets`` lists the ``(player, infoset)`` wanted (default: the free ones).  The game's common
    denominator is dropped (the gains are scaled by it, a positive constant), so the coefficients are integers
    and signs and roots are exact.
    """
    _check_two_actions(compiled)
    _behaviour, variables, symbols, alias = symbolic_behaviour(support, ties or {})
    offsets = [0]
    for layout in compiled.layouts:
        offsets.append(offsets[-1] + layout.num_infosets)
    unknowns = [offsets[p] + h for p, h in variables]
    tied = {offsets[p] + h: unknowns[index] for (p, h), index in alias.items() if (p, h) not in variables}
    x = [Fraction(0 if fixed is FREE else fixed) for row in support for fixed in row]
    system = gain_polynomials(compiled, x, unknowns, tied)
    wanted = list(alias) if infosets is None else list(infosets)
    gaps = {(p, h): as_sympy(system.gains[offsets[p] + h], symbols, compiled.denominator) for p, h in wanted}
    return gaps, symbols, IndifferenceSystem(tuple(variables), tuple(symbols), (), tuple(alias.items()))


# -- realization weights (support enumeration) ---------------------------------------------------------------


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


@dataclass(frozen=True)
class SupportSystem:
    """The exact system of one support in realization weights (module docstring).

    Polynomials are monomial-bitmask dictionaries with integer coefficients (bit ``k``: unknown ``k``), the
    payoffs scaled by the game's denominator ``D`` (a positive constant: signs and zeros are the same).

    Attributes
    ----------
    support : SupportKey
    layouts : tuple of SequenceLayout
        The game's layouts (to read behaviour probabilities back).
    variables : tuple of (int, int)
        ``(player, sequence)`` whose realization weight each unknown is.
    weights : tuple of tuple of (dict or None)
        Per player and sequence, its weight as a linear form (``None``: weight 0).
    equations : tuple of dict
        The indifference equations ``= 0`` (identically zero ones left out).
    positive : tuple of dict
        The weights of supported sequences, each required ``> 0`` (constants left out).
    conditions : tuple of dict
        The best-response conditions, each required ``>= 0``.
    """

    support: SupportKey
    layouts: tuple[SequenceLayout, ...]
    variables: tuple[tuple[int, int], ...]
    weights: tuple[tuple[dict[int, int] | None, ...], ...]
    equations: tuple[dict[int, int], ...]
    positive: tuple[dict[int, int], ...]
    conditions: tuple[dict[int, int], ...]

    def names(self, compiled: CompiledGame) -> list[str]:
        """A readable name per unknown: ``r[player:information set:action]``."""
        out = []
        for p, s in self.variables:
            layout = compiled.layouts[p]
            infoset = layout.sequence_infoset[s]
            action = layout.infoset_actions(infoset)[s - layout.infoset_sequences(infoset)[0]]
            out.append(f"r[{compiled.player_names[p]}:{layout.infoset_name(infoset)}:{action}]")
        return out

    def behaviour(self, values: Sequence[Any]) -> tuple[tuple[tuple[Any, ...], ...], ...]:
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

    def profile(self, values: Sequence[Any]) -> BehaviourProfile:
        """The :class:`BehaviourProfile` of :meth:`behaviour`."""
        return BehaviourProfile(self.behaviour(values))


def poly_value(poly: dict[int, int], values: Sequence[Any]) -> Any:
    """The exact value of a monomial-bitmask polynomial at ``values`` (Fractions, or algebraic numbers of one field)."""
    total: Any = Fraction(0)
    for m, c in poly.items():
        term: Any = Fraction(c)
        k = 0
        while m >> k:
            if m >> k & 1:
                term = term * values[k]
            k += 1
        total = total + term
    return total


def _simplified(value: Any) -> Any:
    """A rational algebraic number as a Fraction."""
    if getattr(value, "is_rational", False) and hasattr(value, "to_fraction"):
        return value.to_fraction()
    return value


def _linear_weights(layout: SequenceLayout, support: PlayerSupport, ctx: fmpq_mpoly_ctx, first: int
                    ) -> tuple[list[fmpq_mpoly | None], list[int]]:
    """Each sequence's weight as a linear form in the unknowns numbered from ``first``; the sequences they weigh."""
    gens = ctx.gens()
    forms: list[fmpq_mpoly | None] = [None] * layout.num_sequences
    forms[0] = ctx.constant(1)
    owned: list[int] = []
    for infoset, actions in enumerate(support):
        parent = forms[layout.parent_sequence(infoset)]
        if parent is None or not actions:
            continue
        sequences = layout.infoset_sequences(infoset)
        rest = ctx.constant(0)
        for a in actions[1:]:
            unknown = gens[first + len(owned)]
            owned.append(sequences[a])
            forms[sequences[a]] = unknown
            rest = rest + unknown
        forms[sequences[actions[0]]] = parent - rest
    return forms, owned


class _PlayerConditions:
    """Indifference and best-response polynomials of one player (backward induction over its own sets)."""

    def __init__(self, layout: SequenceLayout, support: PlayerSupport, c: list[fmpq_mpoly]) -> None:
        self.layout, self.support, self.c = layout, support, c
        self.equations: list[fmpq_mpoly] = []
        self.conditions: list[fmpq_mpoly] = []
        # the value of a reached set is its first supported action's, along the support
        continuation = [tuple(int(a == actions[0]) for a in range(len(layout.infoset_sequences(i)))) if actions
                        else (0,) * len(layout.infoset_sequences(i)) for i, actions in enumerate(support)]
        self.values, self.worth = backward_values(layout, c, continuation, c[0] - c[0])

    def pure(self, sequence: int) -> list[fmpq_mpoly]:
        """The value of ``sequence`` with each pure continuation below it."""
        found = [self.c[sequence]]
        for child in self.layout.children[sequence]:
            options = [v for s in self.layout.infoset_sequences(child) for v in self.pure(s)]
            found = [a + b for a in found for b in options]
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
            anchor = self.worth[infoset]
            for a in actions[1:]:
                gap = self.values[infoset][a] - anchor
                if not gap.is_zero():
                    self.equations.append(gap)
            for a in range(len(sequences)):
                if a not in actions:
                    for deviation in self.pure(sequences[a]):
                        condition = anchor - deviation
                        if not (condition.is_constant() and _number(condition) >= 0):
                            self.conditions.append(condition)
            if len(self.conditions) > MAX_CONDITIONS:
                raise InvalidParameterError(f"support enumeration: more than {MAX_CONDITIONS} best-response "
                                            f"conditions on one support; the game is too large for this method")


def support_system(compiled: CompiledGame, support: SupportKey) -> SupportSystem:
    """The indifference, positivity and best-response polynomials of ``support`` (module docstring)."""
    count = sum(len(actions) - 1 for own in support for actions in own if actions)
    ctx = fmpq_mpoly_ctx.get(tuple(f"r{k}" for k in range(count)), "lex")
    forms, variables = [], []
    for p, (layout, own) in enumerate(zip(compiled.layouts, support)):
        player_forms, owned = _linear_weights(layout, own, ctx, len(variables))
        forms.append(player_forms)
        variables += [(p, s) for s in owned]
    numbers = [[_constant(f) for f in player_forms] for player_forms in forms]
    equations: list[fmpq_mpoly] = []
    conditions: list[fmpq_mpoly] = []
    for p, (layout, own) in enumerate(zip(compiled.layouts, support)):
        player = _PlayerConditions(layout, own, _coefficients(compiled, p, numbers, forms, ctx))
        player.build()
        equations += player.equations
        conditions += player.conditions
    scale = compiled.denominator
    positive = [f for player_forms in forms for f in player_forms if f is not None and not f.is_constant()]
    weights = tuple(tuple(None if f is None else as_multilinear(f) for f in player_forms) for player_forms in forms)
    return SupportSystem(support, tuple(compiled.layouts), tuple(variables), weights,
                         _unique(equations, scale), _unique(positive, 1), _unique(conditions, scale))


def _constant(form: fmpq_mpoly | None) -> Fraction | None:
    """A weight that is a number (0 where the sequence is not played), or None for a polynomial weight."""
    if form is None:
        return Fraction(0)
    return _number(form) if form.is_constant() else None


def _number(constant: fmpq_mpoly) -> Fraction:
    """A constant polynomial's value."""
    if constant.is_zero():
        return Fraction(0)
    value = constant.leading_coefficient()
    return Fraction(int(value.p), int(value.q))


def _unique(polys: Sequence[fmpq_mpoly], scale: int) -> tuple[dict[int, int], ...]:
    seen, out = set(), []
    for poly in polys:
        multilinear = as_multilinear(poly, scale)
        key = tuple(sorted(multilinear.items()))
        if key not in seen:
            seen.add(key)
            out.append(multilinear)
    return tuple(out)
