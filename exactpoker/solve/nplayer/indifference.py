"""Exact equilibria of N-player games on a guessed support: indifference equations.

For games with more than two players there is no linear program: the
equilibrium conditions are polynomial.  This module follows the papers' own
route (seed 000 section 4, the Fast NLP of three-player poker) but exactly:

1. a **support** fixes every behaviour variable (the probability of the last
   action of a two-action information set) at ``0``, at ``1``, or leaves it
   *free*;
2. :func:`indifference_system` writes, for every free variable, the exact
   polynomial equation "the owner of that information set is indifferent
   between its two actions", from the compiled payoffs alone;
3. :func:`solve_support` solves that system exactly (a lex Groebner basis in
   shape position: a univariate polynomial, its real roots as exact rationals
   or :class:`~exactpoker.algebraic.AlgebraicNumber` s, and back-substitution)
   and keeps the solutions inside ``[0, 1]``; a system with a curve of
   solutions is reported as such (:class:`Segment` callers handle it);
4. :func:`~exactpoker.solve.nplayer.support_search.locate_equilibrium` searches the support: it starts from a guess (a
   caller's, or :func:`float_guide`'s smoothed fictitious play), solves,
   certifies with :func:`exactpoker.certify.verify`, and where the
   certificate fails moves the support by the floating-point action gaps at
   the candidate, until a certified equilibrium appears.

Nothing here knows which game it is solving.  Games whose information sets
all have two actions are supported (every game of seeds 000, 001 and 003).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, product
from math import comb
from typing import Sequence, Union

import numpy as np
import sympy

from exactpoker.algebraic import AlgebraicNumber, fmpq_to_fraction, to_fmpq
from exactpoker.certify import Certificate, verify
from exactpoker.core.compiled import CompiledGame, PlayerLayout
from exactpoker.core.profile import BehaviourProfile
from exactpoker.errors import DegenerateSystemError, InvalidGameError
from exactpoker.solve.algebra.roots import evaluate, real_roots

__all__ = [
    "FREE",
    "Support",
    "ExactNumber",
    "Segment",
    "SupportSolution",
    "check_two_actions",
    "CompiledModel",
    "as_model",
    "symbolic_behaviour",
    "float_gaps",
    "float_guide",
    "indifference_system",
    "solve_support", "shape_position",
    "profile_from_behaviour",
    "behaviour_of",
]

#: Marks a free behaviour variable in a :data:`Support`.
FREE = None
#: Per player, per information set: ``0``, ``1`` or :data:`FREE`.
Support = tuple[tuple[Union[int, None], ...], ...]
ExactNumber = Union[Fraction, AlgebraicNumber]


def check_two_actions(compiled: CompiledGame, solver: str = "indifference solver", hint: str = "") -> None:
    """Raise :class:`InvalidGameError` unless every decision has exactly two actions (the message names ``solver``)."""
    for p, layout in enumerate(compiled.layouts):
        for infoset in range(layout.num_infosets):
            actions = layout.infoset_actions(infoset)
            if len(actions) != 2:
                raise InvalidGameError(
                    f"{solver}: information set {layout.infoset_name(infoset)!r} of player "
                    f"{compiled.player_names[p]} has {len(actions)} actions ({', '.join(actions)}); only two-action "
                    f"decisions are supported{hint}"
                )


# -- floating point: action gaps and the guide ----------------------------------------------


def _float_realization(layout: PlayerLayout, x: np.ndarray) -> np.ndarray:
    weights = np.zeros(layout.num_sequences)
    weights[0] = 1.0
    for infoset in range(layout.num_infosets):
        first, last = layout.infoset_sequences(infoset)
        parent = weights[layout.parent_sequence(infoset)]
        weights[first], weights[last] = parent * (1.0 - x[infoset]), parent * x[infoset]
    return weights


def float_gaps(compiled: CompiledGame, behaviour: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Per player and information set: value of the last action minus the first (floats).

    Values are counterfactual (weighted by the others' reach probabilities,
    not by the player's own), so a gap is zero exactly where the player may
    mix, whether or not the set is reached.
    """
    weights = [_float_realization(layout, np.asarray(x, float)) for layout, x in zip(compiled.layouts, behaviour)]
    coefficients = compiled.coefficients.astype(np.float64) / compiled.denominator
    gaps = []
    for p, layout in enumerate(compiled.layouts):
        factor = coefficients[:, p].copy()
        for q in range(compiled.num_players):
            if q != p:
                factor *= weights[q][compiled.sequences[:, q]]
        c = np.bincount(compiled.sequences[:, p], weights=factor, minlength=layout.num_sequences)
        worth = np.zeros(layout.num_infosets)
        gap = np.zeros(layout.num_infosets)
        x = np.asarray(behaviour[p], float)
        for infoset in reversed(range(layout.num_infosets)):
            first, last = layout.infoset_sequences(infoset)
            v0 = c[first] + sum(worth[j] for j in layout.children[first])
            v1 = c[last] + sum(worth[j] for j in layout.children[last])
            gap[infoset] = v1 - v0
            worth[infoset] = (1.0 - x[infoset]) * v0 + x[infoset] * v1
        gaps.append(gap)
    return gaps


def float_guide(compiled: "CompiledGame | CompiledModel", iterations: int = 400,
                start: Sequence[np.ndarray] | None = None) -> list[np.ndarray]:
    """An approximate equilibrium by smoothed fictitious play (floats; a guide only).

    Each round every player moves a step ``1/(t+2)`` towards a softened best
    response (a logistic function of the action gaps whose temperature falls
    with ``t``).  Nothing is claimed about convergence: the exact solve and
    the certificate decide.
    """
    model = as_model(compiled)
    x = [np.full(size, 0.5) for size in model.sizes] if start is None else [np.asarray(s, float).copy() for s in start]
    scale = model.scale or 1.0
    for t in range(iterations):
        gaps = model.float_gaps(x)
        temperature = scale * 0.05 / (1 + t) ** 0.75
        step = 1.0 / (t + 2)
        for p in range(len(model.sizes)):
            target = 0.5 * (1 + np.tanh(np.clip(gaps[p] / (2 * temperature), -50, 50)))
            x[p] = (1 - step) * x[p] + step * target
    return x


# -- the model of a game the support search works on ------------------------------------------


class CompiledModel:
    """What the support search needs of a game, from its compiled form (any tree with two actions per set).

    The same interface as :class:`exactpoker.solve.structure.ordered_games.OrderedModel`,
    which computes it in O(n) for games decided by the order of the cards:
    ``scale`` (the size of a gap), ``sizes`` (information sets per player), :meth:`float_gaps`, :meth:`gap_polynomials`
    and :meth:`certify`.
    """

    def __init__(self, compiled: CompiledGame) -> None:
        check_two_actions(compiled)
        self.compiled = compiled
        self.scale = float(np.abs(compiled.coefficients).max()) / compiled.denominator
        self.sizes = tuple(layout.num_infosets for layout in compiled.layouts)

    def float_gaps(self, behaviour: Sequence[np.ndarray]) -> list[np.ndarray]:
        return float_gaps(self.compiled, behaviour)

    def gap_polynomials(self, support: Support, ties: Ties | None = None,
                        infosets: Sequence[tuple[int, int]] | None = None
                        ) -> tuple[dict[tuple[int, int], sympy.Expr], list[sympy.Symbol], IndifferenceSystem]:
        return gap_polynomials(self.compiled, support, ties, infosets)

    def certify(self, behaviour: Sequence[Sequence[ExactNumber]]) -> tuple[BehaviourProfile, Certificate]:
        profile = profile_from_behaviour(self.compiled, behaviour)
        return profile, verify(self.compiled, profile)


def as_model(game: "CompiledGame | CompiledModel") -> "CompiledModel":
    """``game`` itself if it is a model already, else the :class:`CompiledModel` of the compiled game."""
    return CompiledModel(game) if isinstance(game, CompiledGame) else game


# -- exact: the system on a support ----------------------------------------------------------


Ties = dict[tuple[int, int], tuple[int, int]]


@dataclass(frozen=True)
class IndifferenceSystem:
    """The unknowns, their symbols, and one equation per free information set.

    ``variables[i]`` is the ``(player, infoset)`` whose probability is
    ``symbols[i]``; ``aliases`` maps every free ``(player, infoset)`` to the
    index of its symbol (tied sets share one).
    """

    variables: tuple[tuple[int, int], ...]
    symbols: tuple[sympy.Symbol, ...]
    equations: tuple[sympy.Expr, ...]
    aliases: tuple[tuple[tuple[int, int], int], ...] = ()

    def value_map(self, values: Sequence[ExactNumber]) -> dict[tuple[int, int], ExactNumber]:
        """``(player, infoset) -> value`` for every free set, from values of :attr:`symbols`."""
        return {key: values[index] for key, index in self.aliases}


def symbolic_behaviour(
    support: Support, ties: Ties
) -> tuple[list[list[sympy.Expr]], list[tuple[int, int]], list[sympy.Symbol], dict[tuple[int, int], int]]:
    values: list[list[sympy.Expr]] = []
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


def _symbolic_realization(layout: PlayerLayout, x: list[sympy.Expr]) -> list[sympy.Expr]:
    weights: list[sympy.Expr] = [sympy.Integer(0)] * layout.num_sequences
    weights[0] = sympy.Integer(1)
    for infoset in range(layout.num_infosets):
        first, last = layout.infoset_sequences(infoset)
        parent = weights[layout.parent_sequence(infoset)]
        weights[first], weights[last] = sympy.expand(parent * (1 - x[infoset])), sympy.expand(parent * x[infoset])
    return weights


def _subtree_sequences(layout: PlayerLayout, infoset: int) -> list[int]:
    found, stack = [], [infoset]
    while stack:
        h = stack.pop()
        for s in layout.infoset_sequences(h):
            found.append(s)
            stack.extend(layout.children[s])
    return found


def _coefficient_polynomials(
    compiled: CompiledGame, player: int, wanted: list[int], realizations: list[list[sympy.Expr]]
) -> dict[int, sympy.Expr]:
    """``c_p(s)`` for the sequences ``wanted`` of ``player``, as polynomials in the others' free variables.

    The entries are grouped by the *distinct* realization polynomials of the
    other players (few: all but a handful of variables are fixed), so the
    sympy work does not grow with the size of the deck.
    """
    chosen = np.zeros(compiled.layouts[player].num_sequences, dtype=bool)
    chosen[wanted] = True
    mask = chosen[compiled.sequences[:, player]]
    keys = compiled.sequences[mask, player]
    classes: list[list[sympy.Expr]] = []
    for q in range(compiled.num_players):
        if q == player:
            continue
        distinct: dict[sympy.Expr, int] = {}
        ids = np.array([distinct.setdefault(w, len(distinct)) for w in realizations[q]], dtype=np.int64)
        classes.append(list(distinct))
        keys = keys * len(distinct) + ids[compiled.sequences[mask, q]]
    unique, inverse = np.unique(keys, return_inverse=True)
    coefficients = compiled.coefficients[mask, player]
    totals = np.zeros(len(unique), dtype=coefficients.dtype)
    np.add.at(totals, inverse.ravel(), coefficients)
    terms: dict[int, list[sympy.Expr]] = {s: [] for s in wanted}
    sizes = [len(c) for c in classes]
    for key, total in zip(unique.tolist(), totals.tolist()):
        if total == 0:
            continue
        term = sympy.Integer(int(total))
        for q_index in reversed(range(len(classes))):
            key, cls = divmod(key, sizes[q_index])
            term *= classes[q_index][cls]
        terms[key].append(term)
    polys = {s: sympy.Add(*found) for s, found in terms.items()}
    return polys


def gap_polynomials(
    compiled: CompiledGame, support: Support, ties: Ties | None = None, infosets: Sequence[tuple[int, int]] | None = None
) -> tuple[dict[tuple[int, int], sympy.Expr], list[sympy.Symbol], IndifferenceSystem]:
    """Exact action gaps (last minus first, counterfactual) as polynomials in the free variables.

    ``infosets`` lists the ``(player, infoset)`` wanted (default: the free
    ones).  The common denominator of the compiled game is dropped, so the
    gaps are scaled by a positive constant: their signs and roots are exact.
    """
    check_two_actions(compiled)
    ties = ties or {}
    behaviour, variables, symbols, alias = symbolic_behaviour(support, ties)
    wanted_sets = list(alias) if infosets is None else list(infosets)
    realizations = [_symbolic_realization(layout, x) for layout, x in zip(compiled.layouts, behaviour)]
    by_player: dict[int, list[int]] = {}
    for p, infoset in wanted_sets:
        by_player.setdefault(p, []).append(infoset)
    gap_of: dict[tuple[int, int], sympy.Expr] = {}
    for p, sets in by_player.items():
        layout = compiled.layouts[p]
        wanted = sorted({s for h in sets for s in _subtree_sequences(layout, h)})
        c = _coefficient_polynomials(compiled, p, wanted, realizations)
        worth: dict[int, sympy.Expr] = {}

        def value(h: int) -> sympy.Expr:
            if h not in worth:
                first, last = layout.infoset_sequences(h)
                v0 = c.get(first, 0) + sum((value(j) for j in layout.children[first]), sympy.Integer(0))
                v1 = c.get(last, 0) + sum((value(j) for j in layout.children[last]), sympy.Integer(0))
                gap_of[(p, h)] = sympy.expand(v1 - v0)
                worth[h] = sympy.expand((1 - behaviour[p][h]) * v0 + behaviour[p][h] * v1)
            return worth[h]

        for h in sets:
            value(h)
    system = IndifferenceSystem(tuple(variables), tuple(symbols), (), tuple(alias.items()))
    return {key: gap_of[key] for key in wanted_sets}, symbols, system


def indifference_system(compiled: "CompiledGame | CompiledModel", support: Support, ties: Ties | None = None
                        ) -> IndifferenceSystem:
    """The exact indifference equations of the free variables of ``support``.

    For a free variable at information set ``h`` of player ``p`` the equation
    says that ``p``'s counterfactual values of the two actions at ``h`` are
    equal; later own decisions of ``p`` enter with their (fixed or free)
    behaviour probabilities.  ``ties`` maps a free ``(player, infoset)`` to
    another whose probability it must share (e.g. to look for equilibria in
    which two symmetric players play alike); both equations are kept.
    """
    gaps, _symbols, system = as_model(compiled).gap_polynomials(support, ties)
    equations = tuple(dict.fromkeys(g for g in gaps.values() if g != 0))
    return IndifferenceSystem(system.variables, system.symbols, equations, system.aliases)


# -- exact: solving the system -----------------------------------------------------------------


@dataclass(frozen=True)
class Segment:
    """A family of solutions: the system on this support is not zero-dimensional.

    When the Groebner basis is linear the family is a polytope (the affine
    solution set cut by ``[0, 1]`` for every variable); ``dimension`` is its
    dimension and ``vertices`` its corners (rational points, each a candidate
    equilibrium).  For a non-linear family, or one with more than
    :data:`MAX_CORNER_CHOICES` choices of tight bounds, ``vertices`` is empty.
    """

    system: IndifferenceSystem
    groebner: tuple[sympy.Expr, ...]
    dimension: int
    vertices: tuple[tuple[Fraction, ...], ...]


#: A linear family's corners are enumerated only up to this many choices of tight bounds (``C(m, d) 2^d``).
MAX_CORNER_CHOICES = 1 << 20


def _family(system: IndifferenceSystem, polys: list[sympy.Expr]) -> Segment:
    """Describe a positive-dimensional solution set (corners when it is linear)."""
    symbols = list(system.symbols)
    if any(sympy.Poly(g, *symbols).total_degree() > 1 for g in polys):
        return Segment(system, tuple(polys), -1, ())
    (solution,) = sympy.linsolve(polys, *symbols) if polys else [tuple(symbols)]
    parameters = sorted(set().union(*(sympy.sympify(v).free_symbols for v in solution)), key=str)
    directions, negated = sympy.linear_eq_to_matrix([sympy.sympify(v) for v in solution], parameters)
    offset = [-fmpq_to_fraction(sympy.Rational(v)) for v in negated]  # solution = offset + directions . parameters
    rows = [[fmpq_to_fraction(sympy.Rational(directions[i, j])) for j in range(len(parameters))] for i in range(len(offset))]
    return Segment(system, tuple(polys), len(parameters), _box_corners(offset, rows))


def _box_corners(offset: list[Fraction], directions: list[list[Fraction]]) -> tuple[tuple[Fraction, ...], ...]:
    """The vertices of the polytope ``{offset + directions . t}`` cut by ``[0, 1]`` in every coordinate.

    A vertex makes ``d`` linearly independent coordinates tight (each at 0
    or 1); for each choice of ``d`` coordinates with an invertible block the
    ``2^d`` bound patterns are solved at once (one exact matrix product,
    python-flint's ``fmpq_mat``).  Empty when there are more than
    :data:`MAX_CORNER_CHOICES` choices.
    """
    from flint import fmpq_mat

    m, d = len(offset), len(directions[0]) if directions else 0
    if comb(m, d) << d > MAX_CORNER_CHOICES:
        return ()
    whole = fmpq_mat(m, d, [to_fmpq(v) for row in directions for v in row])
    starts = [to_fmpq(v) for v in offset]
    corners = set()
    for chosen in combinations(range(m), d):
        block = fmpq_mat(d, d, [to_fmpq(directions[i][j]) for i in chosen for j in range(d)])
        try:
            inverse = block.inv()
        except ZeroDivisionError:
            continue
        patterns = list(product((0, 1), repeat=d))
        targets = fmpq_mat(d, len(patterns), [to_fmpq(pattern[k] - offset[i])
                                              for k, i in enumerate(chosen) for pattern in patterns])
        moves = (whole * (inverse * targets)).transpose().tolist()
        for move in moves:
            if all(0 <= start + step <= 1 for start, step in zip(starts, move)):
                corners.add(tuple(offset[i] + fmpq_to_fraction(step) for i, step in enumerate(move)))
    return tuple(sorted(corners))


@dataclass(frozen=True)
class SupportSolution:
    """One exact solution on a support: the value of each free variable (same order as the system)."""

    system: IndifferenceSystem
    values: tuple[ExactNumber, ...]


def shape_position(
    polys: list[sympy.Expr], order: list[sympy.Symbol]
) -> tuple[sympy.Expr, dict[sympy.Symbol, sympy.Expr]] | None:
    """``(f(t), {x_i: g_i(t)})`` if the lex basis is ``[x_i - g_i(t)] + [f(t)]``, else ``None``."""
    t = order[-1]
    univariate = [g for g in polys if g.free_symbols <= {t}]
    if len(univariate) != 1 or len(polys) != len(order):
        return None
    rest: dict[sympy.Symbol, sympy.Expr] = {}
    for g in polys:
        if g is univariate[0]:
            continue
        poly = sympy.Poly(g, *order)
        leaders = [s for s in order[:-1] if poly.degree(s) > 0]
        if len(leaders) != 1 or poly.degree(leaders[0]) != 1:
            return None
        s = leaders[0]
        coefficient = poly.coeff_monomial(s)
        if not coefficient.is_number or coefficient == 0:
            return None
        rest[s] = sympy.expand(s - g / coefficient)
    return (univariate[0], rest) if len(rest) == len(order) - 1 else None


def solve_support(system: IndifferenceSystem) -> list[SupportSolution] | Segment:
    """Every exact real solution of ``system`` with all variables in ``[0, 1]``, or a :class:`Segment`.

    The lex Groebner basis must be in shape position (``x_i - g_i(t)`` and one
    univariate ``f(t)`` in the last variable ``t``); otherwise the variables
    are taken in another order.  Raises :class:`DegenerateSystemError` if no
    order gives shape position.
    """
    if not system.symbols:
        return [SupportSolution(system, ())]
    symbols = list(system.symbols)
    equations = [e for e in system.equations if e != 0]
    orders = [symbols] + [symbols[i:] + symbols[:i] for i in range(1, len(symbols))]
    for order in orders:
        if not equations:
            return _family(system, [])
        basis = sympy.groebner(equations, *order, order="lex", domain=sympy.QQ)
        polys = list(basis.exprs)
        if polys == [1]:
            return []
        if not basis.is_zero_dimensional:
            return _family(system, polys)
        t = order[-1]
        shape = shape_position(polys, order)
        if shape is None:
            continue
        univariate, rest = shape
        solutions = []
        for root in real_roots(sympy.Poly(univariate, t), Fraction(0), Fraction(1)):
            point = {t: root}
            for s, tail in rest.items():
                point[s] = evaluate(tail, {t: root})
            values = tuple(point[s] for s in system.symbols)
            if all(0 <= v <= 1 for v in values):
                solutions.append(SupportSolution(system, values))
        return solutions
    raise DegenerateSystemError("indifference system: no variable order puts the Groebner basis in shape position")


def profile_from_behaviour(compiled: CompiledGame, behaviour: Sequence[Sequence[ExactNumber]]) -> BehaviourProfile:
    """The :class:`BehaviourProfile` with last-action probabilities ``behaviour[p][infoset]``."""
    return BehaviourProfile(tuple(tuple((1 - x, x) for x in row) for row in behaviour))


def behaviour_of(support: Support, solution: SupportSolution) -> list[list[ExactNumber]]:
    values = solution.system.value_map(solution.values)
    return [
        [values[(p, h)] if fixed is FREE else Fraction(fixed) for h, fixed in enumerate(row)]
        for p, row in enumerate(support)
    ]
