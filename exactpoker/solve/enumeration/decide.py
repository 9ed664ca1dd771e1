"""Deciding one support of an N-player game exactly: its equilibria, its family, or a proof of none.

The system of :mod:`exactpoker.solve.support_systems` is solved symbolically
(Cox, Little and O'Shea, *Ideals, Varieties, and Algorithms*, 4th ed., 2015:
ch. 2 for Groebner bases, ch. 3 sec. 5 and ch. 9 for dimension), and every
outcome is a reason with its proof:

* ``no-solution``: the Groebner basis of the indifference equations is ``{1}``;
* zero-dimensional systems: the radical ideal (Seidenberg's lemma: add the
  square-free part of each variable's eliminant) with a generic separating
  coordinate ``t`` has a lex basis in **shape position** ``x_i = g_i(t)``,
  ``f(t) = 0`` (the Shape Lemma, Cox--Little--O'Shea ch. 3 sec. 5 ex. 16);
  the real roots of ``f`` are isolated exactly (rational, or a
  :class:`~exactpoker.algebraic.RealNumberField` refined by python-flint
  balls) and every solution is checked exactly: ``no-root-in-region`` (no
  real solution with every supported weight ``> 0``), ``not-best-response``
  (each one fails :func:`exactpoker.certify.verify`), or ``equilibria``;
* positive-dimensional systems (dimension from the leading monomials of a
  graded basis): when the basis is linear the set is an affine space cut by
  the positivity polytope, whose vertices are enumerated exactly; its
  centroid shows the open polytope empty (``positivity``) or gives rational
  candidates certified exactly (``family``, with a witness);
* otherwise, bisection with contraction on the multilinear system
  (:func:`exactpoker.solve.algebra.box_exclusion.excluded_by_boxes`, then blow-up
  charts) proves there is no point (``box-exclusion``), or the support stays
  ``undecided``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Sequence

import sympy
from flint import fmpq_mat

from exactpoker.algebraic import to_fmpq, fmpq_to_fraction
from exactpoker.certify import verify
from exactpoker.core.compiled import CompiledGame
from exactpoker.errors import CertificationError, DegenerateSystemError
from exactpoker.solve.algebra.roots import Exact, evaluate, real_roots
from exactpoker.solve.algebra.box_exclusion import Multilinear, excluded_by_boxes, excluded_by_charts
from exactpoker.solve.nplayer.indifference import shape_position
from exactpoker.solve.support_systems import SupportKey, SupportSystem, build_system, poly_value

__all__ = ["REASONS", "Family", "Decision", "decide_support", "MAX_FAMILY_CHOICES"]

#: Every way a support is decided; ``undecided`` (and ``error``, a task that failed) leave the list incomplete.
REASONS = ("equilibria", "family", "no-solution", "no-root-in-region", "not-best-response", "polytope-empty",
           "positivity", "box-exclusion", "undecided", "error")

#: Choices of tight constraints tried for a family's polytope vertices (``C(m, d)``).
MAX_FAMILY_CHOICES = 200_000
#: Separating coordinates tried before a zero-dimensional system is given up.
_SEPARATORS = 6

Behaviour = tuple[tuple[tuple[Exact, ...], ...], ...]


@dataclass(frozen=True)
class Family:
    """A positive-dimensional set of equilibria on one support, described exactly.

    The set is ``{x : groebner = 0, positive > 0, conditions >= 0}`` in the
    unknowns ``names`` (realization weights).  ``dimension`` is that of the
    set of equilibria when ``dimension_exact`` (a linear family: the rank of
    its polytope's vertices; an affine family with a witness meeting every
    condition strictly: the affine dimension), else of the variety
    ``groebner = 0``, an upper bound.  For a linear family,
    ``parametrisation`` maps each unknown to an affine expression in the free
    ``parameters``, and ``vertices`` are the certified equilibria among the
    corners of the positivity polytope's closure (behaviour profiles).
    """

    names: tuple[str, ...]
    dimension: int
    groebner: tuple[str, ...]
    parameters: tuple[str, ...]
    parametrisation: tuple[str, ...]
    witness: Behaviour
    dimension_exact: bool
    vertices: tuple[Behaviour, ...]


@dataclass(frozen=True)
class Decision:
    """How one support was decided (its proof), and what it holds.

    ``reason`` is one of :data:`REASONS`; ``detail`` says what was shown;
    ``equilibria`` are the behaviour profiles of its isolated equilibria, each
    certified exactly; ``family`` its positive-dimensional set, if any.
    """

    support: SupportKey
    reason: str
    detail: str
    equilibria: tuple[Behaviour, ...] = ()
    family: Family | None = None

    @property
    def decided(self) -> bool:
        return self.reason not in ("undecided", "error")


def _symbols(count: int) -> list[sympy.Symbol]:
    return list(sympy.symbols(f"x0:{count}")) if count else []


def _expr(poly: Multilinear, symbols: Sequence[sympy.Symbol]) -> sympy.Expr:
    terms = []
    for m, c in poly.items():
        term = sympy.Integer(c)
        for k, s in enumerate(symbols):
            if m >> k & 1:
                term *= s
        terms.append(term)
    return sympy.Add(*terms)


def _positive(value: Exact) -> bool:
    return value > 0


def _in_region(system: SupportSystem, point: Sequence[Exact]) -> bool:
    return all(_positive(poly_value(f, point)) for f in system.positive)


def decide_support(compiled: CompiledGame, support: SupportKey) -> Decision:
    """Decide ``support`` exactly (module docstring): its equilibria or family, or the proof it has none."""
    system = build_system(compiled, support)
    symbols = _symbols(len(system.variables))
    equations = [_expr(e, symbols) for e in system.equations]
    if not symbols:
        return _checked_points(compiled, system, [()], "the pure profile")
    if not equations:
        return _family(compiled, system, symbols, [], len(symbols))
    if all(bin(m).count("1") <= 1 for e in system.equations for m in e):
        return _linear_system(compiled, system, symbols)
    basis = sympy.groebner(equations, *symbols, order="grevlex", domain=sympy.QQ)
    if list(basis.exprs) == [1]:
        return Decision(support, "no-solution", "Groebner basis of the indifference equations is {1}")
    if basis.is_zero_dimensional:
        points = _isolated_points(list(basis.exprs), symbols)
        return _checked_points(compiled, system, points, f"{len(points)} real solution(s)")
    return _family(compiled, system, symbols, list(basis.exprs), _dimension(basis, symbols))


def _linear_system(compiled: CompiledGame, system: SupportSystem, symbols: list[sympy.Symbol]) -> Decision:
    """Linear indifference equations: one exact reduced echelon form (python-flint) instead of a Groebner basis."""
    n = len(symbols)
    rows = [[Fraction(e.get(1 << k, 0)) for k in range(n)] + [Fraction(-e.get(0, 0))] for e in system.equations]
    reduced, rank = fmpq_mat(len(rows), n + 1, [to_fmpq(v) for row in rows for v in row]).rref()
    pivots = [next(c for c in range(n + 1) if reduced[r, c] != 0) for r in range(rank)]
    if n in pivots:
        return Decision(system.support, "no-solution", "the indifference equations (linear) are inconsistent")
    if rank < n:  # the rows of the echelon form are the reduced Groebner basis of a linear ideal
        basis = [sum((sympy.Rational(int(reduced[r, c].p), int(reduced[r, c].q)) * symbols[c] for c in range(n)),
                     sympy.Integer(0)) - sympy.Rational(int(reduced[r, n].p), int(reduced[r, n].q))
                 for r in range(rank)]
        return _family(compiled, system, symbols, basis, n - rank)
    point = tuple(fmpq_to_fraction(reduced[r, n]) for r in range(n))
    return _checked_points(compiled, system, [point], "1 real solution (linear equations)")


def _checked_points(compiled: CompiledGame, system: SupportSystem, points: list[tuple[Exact, ...]], what: str
                    ) -> Decision:
    inside = [p for p in points if _in_region(system, p)]
    if not inside:
        return Decision(system.support, "no-root-in-region", f"{what}, none with every supported weight > 0")
    found = []
    for point in inside:
        behaviour = system.behaviour(point)
        if verify(compiled, system.profile(point)).holds:
            found.append(behaviour)
    if not found:
        return Decision(system.support, "not-best-response",
                        f"{what}; {len(inside)} in the open region, each fails the exact best-response check")
    return Decision(system.support, "equilibria",
                    f"{what}; {len(inside)} in the open region, {len(found)} certified", tuple(found))


# -- zero-dimensional systems --------------------------------------------------------------------------------


def _lex(equations: list[sympy.Expr], order: list[sympy.Symbol]) -> list[sympy.Expr]:
    """The reduced lex basis of a zero-dimensional ideal: a graded basis, then FGLM (Faugere et al., 1993)."""
    graded = sympy.groebner(equations, *order, order="grevlex", domain=sympy.QQ)
    return list(graded.fglm("lex").exprs)


def _eliminant(equations: list[sympy.Expr], symbols: list[sympy.Symbol], last: sympy.Symbol) -> sympy.Expr:
    """The univariate polynomial in ``last`` of the lex basis with ``last`` smallest."""
    basis = _lex(equations, [s for s in symbols if s != last] + [last])
    return next(g for g in basis if g.free_symbols <= {last})


def _isolated_points(equations: list[sympy.Expr], symbols: list[sympy.Symbol]) -> list[tuple[Exact, ...]]:
    """Every real solution of a zero-dimensional system, exactly (module docstring: Shape Lemma).

    ``equations`` is best a graded Groebner basis already (the separating
    coordinate is added to it).
    """
    t = sympy.Dummy("t")
    generator = random.Random(len(equations) * 7919 + len(symbols))
    radical = list(equations)
    for attempt in range(_SEPARATORS):
        if attempt == 1:  # not in shape position: make the ideal radical first (Seidenberg)
            radical += [sympy.sqf_part(_eliminant(equations, symbols, s), s) for s in symbols]
        weights = [1 + k for k in range(len(symbols))] if attempt == 0 else \
            [generator.randint(-9, 9) for _ in symbols]
        separator = t - sum((w * s for w, s in zip(weights, symbols)), sympy.Integer(0))
        order = [*symbols, t]
        shape = shape_position(_lex([*radical, separator], order), order)
        if shape is None:
            continue
        univariate, rest = shape
        points = []
        for root in real_roots(sympy.Poly(univariate, t)):
            points.append(tuple(evaluate(rest[s], {t: root}) for s in symbols))
        return points
    raise DegenerateSystemError("support system: no separating coordinate put the Groebner basis in shape position")


# -- positive-dimensional systems ----------------------------------------------------------------------------


def _dimension(basis: sympy.polys.polytools.GroebnerBasis, symbols: list[sympy.Symbol]) -> int:
    """The dimension of the variety: the largest set of unknowns no leading monomial lies in (grevlex basis)."""
    leading = []
    for g in basis.exprs:
        monomial = sympy.Poly(g, *symbols).monoms(order="grevlex")[0]
        leading.append({k for k, e in enumerate(monomial) if e})
    for size in range(len(symbols), -1, -1):
        for chosen in combinations(range(len(symbols)), size):
            if not any(lead <= set(chosen) for lead in leading):
                return size
    return 0  # pragma: no cover - the empty set always qualifies for a proper ideal


def _family(compiled: CompiledGame, system: SupportSystem, symbols: list[sympy.Symbol], basis: list[sympy.Expr],
            dimension: int) -> Decision:
    support = system.support
    if all(sympy.Poly(g, *symbols).total_degree() <= 1 for g in basis):
        decided = _linear_family(compiled, system, symbols, basis, dimension)
        if decided is not None:
            return decided
    equations = list(system.equations)
    conditions = [({0: 1}, g) for g in (*system.positive, *system.conditions)]
    n = len(symbols)
    if excluded_by_boxes(n, equations, conditions) or excluded_by_charts(n, equations, conditions):
        return Decision(support, "box-exclusion", f"a {dimension}-dimensional variety; bisection proves no point of "
                                                  "it in the open region satisfies the best-response conditions")
    return Decision(support, "undecided", f"a {dimension}-dimensional variety: no certified point found and "
                                          "no proof of none")


def _linear_family(compiled: CompiledGame, system: SupportSystem, symbols: list[sympy.Symbol],
                   basis: list[sympy.Expr], dimension: int) -> Decision | None:
    """An affine family: exactly its polytope of equilibria when the conditions are linear on it, else candidates."""
    (solution,) = sympy.linsolve(basis, *symbols) if basis else [tuple(symbols)]
    solution = [sympy.sympify(v) for v in solution]
    parameters = sorted(set().union(*(v.free_symbols for v in solution)), key=str)

    def at(t: Sequence[Fraction]) -> tuple[Fraction, ...]:
        values = {p: sympy.Rational(v.numerator, v.denominator) for p, v in zip(parameters, t)}
        return tuple(fmpq_to_fraction(sympy.Rational(v.subs(values))) for v in solution)

    positive = [_affine(sympy.expand(_expr(f, solution)), parameters) for f in system.positive]
    conditions = [_affine(sympy.expand(_expr(g, solution)), parameters) for g in system.conditions]
    linear = all(c is not None for c in conditions)
    vertices = _vertices(positive + (conditions if linear else []), len(parameters))  # type: ignore[operator]
    if vertices is None:
        return None
    support, what = system.support, f"a {dimension}-dimensional affine family"
    if not vertices:
        return Decision(support, "polytope-empty", f"{what}; its positivity{' and best-response' if linear else ''} "
                                                   "constraints (linear on it) have no common point")
    centre = tuple(sum(v[k] for v in vertices) / len(vertices) for k in range(len(parameters)))
    if not _in_region(system, at(centre)):  # a form >= 0 on the polytope and 0 at its centroid is 0 on all of it
        return Decision(support, "positivity", f"{what}; a supported weight vanishes on the whole closed polytope")
    for candidate in _candidates(centre, vertices, linear):
        point = at(candidate)
        if not verify(compiled, system.profile(point)).holds:
            if linear:
                raise CertificationError("support enumeration: the centroid of a family's polytope failed the "
                                         "exact check")
            continue
        size = _rank([[a - b for a, b in zip(v, vertices[0])] for v in vertices[1:]]) if linear else dimension
        if size == 0:
            return Decision(support, "equilibria", f"{what}; the constraints leave one point, certified",
                            (system.behaviour(point),))
        corners = tuple(system.behaviour(at(v)) for v in vertices if verify(compiled, system.profile(at(v))).holds)
        strict = all(poly_value(g, point) > 0 for g in system.conditions)  # open in an affine space: its dimension
        family = Family(tuple(system.names(compiled)), size, tuple(str(g) for g in basis),
                        tuple(str(p) for p in parameters), tuple(str(v) for v in solution),
                        system.behaviour(point), linear or strict, corners)
        return Decision(support, "family", f"{what}; equilibria: a {size}-dimensional polytope"
                        if linear else f"{what} with a certified witness", (), family)
    return None


#: How far from a vertex towards the centroid the candidates of a family with non-linear conditions lie.
_STEPS = (Fraction(1, 2), Fraction(1, 8), Fraction(1, 64), Fraction(1, 1024))


def _candidates(centre: tuple[Fraction, ...], vertices: list[tuple[Fraction, ...]], linear: bool
                ) -> list[tuple[Fraction, ...]]:
    """Interior points to certify: the centroid; with non-linear conditions also points ever nearer each vertex."""
    if linear:
        return [centre]
    return [centre] + [tuple(e * c + (1 - e) * x for c, x in zip(centre, v)) for e in _STEPS for v in vertices]


def _affine(form: sympy.Expr, parameters: list[sympy.Symbol]) -> tuple[list[Fraction], Fraction] | None:
    """``(coefficients, constant)`` of an affine form in ``parameters``; None if it is not affine."""
    if not parameters:
        return [], fmpq_to_fraction(sympy.Rational(form))
    poly = sympy.Poly(form, *parameters)
    if poly.total_degree() > 1:
        return None
    return ([fmpq_to_fraction(sympy.Rational(poly.coeff_monomial(p))) for p in parameters],
            fmpq_to_fraction(sympy.Rational(poly.coeff_monomial(1))))


def _rank(rows: list[list[Fraction]]) -> int:
    if not rows or not rows[0]:
        return 0
    return fmpq_mat(len(rows), len(rows[0]), [to_fmpq(v) for row in rows for v in row]).rref()[1]


def _vertices(rows: list[tuple[list[Fraction], Fraction]], d: int) -> list[tuple[Fraction, ...]] | None:
    """The vertices of the bounded polytope ``{t : a . t + b >= 0 for every (a, b) in rows}``, exactly.

    Every choice of ``d`` rows with an invertible block is solved (python-flint
    ``fmpq_mat``) and kept when it meets every row; None when there are more
    than :data:`MAX_FAMILY_CHOICES` choices.
    """
    if d == 0:
        return [()] if all(b >= 0 for _, b in rows) else []
    if comb(len(rows), d) > MAX_FAMILY_CHOICES:
        return None
    found = set()
    for chosen in combinations(range(len(rows)), d):
        block = fmpq_mat(d, d, [to_fmpq(rows[i][0][j]) for i in chosen for j in range(d)])
        try:
            inverse = block.inv()
        except ZeroDivisionError:
            continue
        target = fmpq_mat(d, 1, [to_fmpq(-rows[i][1]) for i in chosen])
        t = tuple(fmpq_to_fraction(v) for v in (inverse * target).entries())
        if all(sum((a * x for a, x in zip(coefficients, t)), constant) >= 0 for coefficients, constant in rows):
            found.add(t)
    return sorted(found)
