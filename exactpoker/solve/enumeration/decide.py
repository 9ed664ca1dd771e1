"""Deciding one support of an N-player game exactly: its equilibria, its family, or a proof of none.

The support's system (:func:`exactpoker.core.support_system.support_system`: indifference, best response,
positivity, in realization weights) is solved by the engine's one exact solver
(:func:`exactpoker.solve.algebra.polynomial_system.solve_system`; Cox, Little and O'Shea, *Ideals, Varieties,
and Algorithms*, 4th ed., 2015: ch. 2 for Groebner bases, ch. 3 sec. 5 and ch. 9 for dimension), and every
outcome is a reason with its proof:

* ``no-solution``: the Groebner basis of the indifference equations is ``{1}`` (or, linear, they are
  inconsistent);
* zero-dimensional systems: every real solution exactly (shape position, exact real roots), each checked
  exactly: ``no-root-in-region`` (no real solution with every supported weight ``> 0``), ``not-best-response``
  (each one fails :func:`exactpoker.certify.verify`), or ``equilibria``;
* positive-dimensional systems: when the basis is linear the set is an affine space cut by the positivity
  polytope, whose vertices are enumerated exactly; its centroid shows the open polytope empty (``positivity``)
  or gives rational candidates certified exactly (``family``, with a witness);
* otherwise, bisection with contraction on the multilinear system
  (:func:`exactpoker.solve.algebra.box_exclusion.excluded_by_boxes`, then blow-up charts) proves there is no
  point (``box-exclusion``), or the support stays ``undecided``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Sequence

import sympy
from flint import fmpq_mat

from exactpoker.algebraic import to_fmpq
from exactpoker.certify import verify
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.support_system import SupportKey, SupportSystem, poly_value, support_system
from exactpoker.errors import CertificationError
from exactpoker.solve.algebra.box_exclusion import Multilinear, excluded_by_boxes, excluded_by_charts
from exactpoker.solve.algebra.polynomial_system import Family, affine_form, polytope_vertices, solve_system
from exactpoker.solve.algebra.roots import Exact

__all__ = ["REASONS", "SupportDecision", "decide_support"]

#: Every way a support is decided; ``undecided`` (and ``error``, a task that failed) leave the list incomplete.
REASONS = ("equilibria", "family", "no-solution", "no-root-in-region", "not-best-response", "polytope-empty",
           "positivity", "box-exclusion", "undecided", "error")

Behaviour = tuple[tuple[tuple[Exact, ...], ...], ...]


@dataclass(frozen=True)
class SupportDecision:
    """How one support was decided (its proof), and what it holds.

    ``reason`` is one of :data:`REASONS`; ``detail`` says what was shown; ``equilibria`` are the behaviour
    profiles of its isolated equilibria, each certified exactly; ``family`` its positive-dimensional set, if
    any (its ``witness`` and ``vertices`` are certified behaviour profiles).
    """

    support: SupportKey
    reason: str
    detail: str
    equilibria: tuple[Behaviour, ...] = ()
    family: Family | None = None

    @property
    def decided(self) -> bool:
        return self.reason not in ("undecided", "error")


def _expr(poly: Multilinear, symbols: Sequence[sympy.Symbol]) -> sympy.Expr:
    terms = []
    for m, c in poly.items():
        term = sympy.Integer(c)
        for k, s in enumerate(symbols):
            if m >> k & 1:
                term *= s
        terms.append(term)
    return sympy.Add(*terms)


def _in_region(system: SupportSystem, point: Sequence[Exact]) -> bool:
    return all(poly_value(f, point) > 0 for f in system.positive)


def decide_support(compiled: CompiledGame, support: SupportKey) -> SupportDecision:
    """Decide ``support`` exactly (module docstring): its equilibria or family, or the proof it has none."""
    system = support_system(compiled, support)
    if not system.variables:
        return _checked_points(compiled, system, [()], "the pure profile")
    symbols = list(sympy.symbols(f"x0:{len(system.variables)}"))
    solved = solve_system([_expr(e, symbols) for e in system.equations], symbols)
    if solved.how == "groebner-one":
        return SupportDecision(support, "no-solution", "Groebner basis of the indifference equations is {1}")
    if solved.how == "linear-inconsistent":
        return SupportDecision(support, "no-solution", "the indifference equations (linear) are inconsistent")
    if solved.family is not None:
        return _family(compiled, system, solved.family)
    what = "1 real solution (linear equations)" if solved.how == "linear" else f"{len(solved.points)} real solution(s)"
    return _checked_points(compiled, system, list(solved.points), what)


def _checked_points(compiled: CompiledGame, system: SupportSystem, points: list[tuple[Exact, ...]], what: str
                    ) -> SupportDecision:
    inside = [p for p in points if _in_region(system, p)]
    if not inside:
        return SupportDecision(system.support, "no-root-in-region", f"{what}, none with every supported weight > 0")
    found = []
    for point in inside:
        behaviour = system.behaviour(point)
        if verify(compiled, system.profile(point)).holds:
            found.append(behaviour)
    if not found:
        return SupportDecision(system.support, "not-best-response",
                               f"{what}; {len(inside)} in the open region, each fails the exact best-response check")
    return SupportDecision(system.support, "equilibria",
                           f"{what}; {len(inside)} in the open region, {len(found)} certified", tuple(found))


# -- positive-dimensional systems ----------------------------------------------------------------------------


def _family(compiled: CompiledGame, system: SupportSystem, family: Family) -> SupportDecision:
    support, dimension = system.support, family.dimension
    if family.is_linear:
        decided = _linear_family(compiled, system, family)
        if decided is not None:
            return decided
    equations = list(system.equations)
    conditions = [({0: 1}, g) for g in (*system.positive, *system.conditions)]
    n = len(family.symbols)
    if excluded_by_boxes(n, equations, conditions) or excluded_by_charts(n, equations, conditions):
        return SupportDecision(support, "box-exclusion", f"a {dimension}-dimensional variety; bisection proves no "
                                                         "point of it in the open region satisfies the best-response "
                                                         "conditions")
    return SupportDecision(support, "undecided", f"a {dimension}-dimensional variety: no certified point found and "
                                                 "no proof of none")


def _linear_family(compiled: CompiledGame, system: SupportSystem, family: Family) -> SupportDecision | None:
    """An affine family: exactly its polytope of equilibria when the conditions are linear on it, else candidates."""
    parameters, solution = list(family.parameters), list(family.parametrisation)

    def at(t: Sequence[Fraction]) -> tuple[Fraction, ...]:
        values = {p: sympy.Rational(v.numerator, v.denominator) for p, v in zip(parameters, t)}
        return tuple(Fraction(int(r.p), int(r.q)) for r in (sympy.Rational(v.subs(values)) for v in solution))

    positive = [affine_form(sympy.expand(_expr(f, solution)), parameters) for f in system.positive]
    conditions = [affine_form(sympy.expand(_expr(g, solution)), parameters) for g in system.conditions]
    linear = all(c is not None for c in conditions)
    vertices = polytope_vertices(positive + (conditions if linear else []), len(parameters))  # type: ignore[operator]
    if vertices is None:
        return None
    support, what = system.support, f"a {family.dimension}-dimensional affine family"
    if not vertices:
        return SupportDecision(support, "polytope-empty", f"{what}; its positivity{' and best-response' if linear else ''} "
                                                          "constraints (linear on it) have no common point")
    centre = tuple(sum(v[k] for v in vertices) / len(vertices) for k in range(len(parameters)))
    if not _in_region(system, at(centre)):  # a form >= 0 on the polytope and 0 at its centroid is 0 on all of it
        return SupportDecision(support, "positivity", f"{what}; a supported weight vanishes on the whole closed polytope")
    for candidate in _candidates(centre, vertices, linear):
        point = at(candidate)
        if not verify(compiled, system.profile(point)).holds:
            if linear:
                raise CertificationError("support enumeration: the centroid of a family's polytope failed the "
                                         "exact check")
            continue
        size = _rank([[a - b for a, b in zip(v, vertices[0])] for v in vertices[1:]]) if linear else family.dimension
        if size == 0:
            return SupportDecision(support, "equilibria", f"{what}; the constraints leave one point, certified",
                                   (system.behaviour(point),))
        corners = tuple(system.behaviour(at(v)) for v in vertices if verify(compiled, system.profile(at(v))).holds)
        strict = all(poly_value(g, point) > 0 for g in system.conditions)  # open in an affine space: its dimension
        found = replace(family, dimension=size, dimension_exact=linear or strict, witness=system.behaviour(point),
                        vertices=corners, names=tuple(system.names(compiled)))
        return SupportDecision(support, "family", f"{what}; equilibria: a {size}-dimensional polytope"
                               if linear else f"{what} with a certified witness", (), found)
    return None


#: How far from a vertex towards the centroid the candidates of a family with non-linear conditions lie.
_STEPS = (Fraction(1, 2), Fraction(1, 8), Fraction(1, 64), Fraction(1, 1024))


def _candidates(centre: tuple[Fraction, ...], vertices: list[tuple[Fraction, ...]], linear: bool
                ) -> list[tuple[Fraction, ...]]:
    """Interior points to certify: the centroid; with non-linear conditions also points ever nearer each vertex."""
    if linear:
        return [centre]
    return [centre] + [tuple(e * c + (1 - e) * x for c, x in zip(centre, v)) for e in _STEPS for v in vertices]


def _rank(rows: list[list[Fraction]]) -> int:
    if not rows or not rows[0]:
        return 0
    return fmpq_mat(len(rows), len(rows[0]), [to_fmpq(v) for row in rows for v in row]).rref()[1]
