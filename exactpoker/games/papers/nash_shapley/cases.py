"""Condition (C) of Nash--Shapley section 6, case by case, at one rational ``a/b``.

Seed 001, sections 5--10.  At an equilibrium point every coefficient ``u``
satisfies condition (C): ``u = 0 => Delta_u <= 0``, ``0 < u < 1 =>
Delta_u = 0``, ``u = 1 => Delta_u >= 0``; and by section 5's convention an
irrelevant coefficient (its situation never arises) is 1 on a High card and 0
on a Low one.  This module lists *every* assignment of a case -- ``0``, ``1``
or interior -- to the 24 coefficients that (C) and the convention allow, by
a branch-and-prune search whose pruning rules are exact:

* every discriminant ``Delta_u`` and every situation's reach ``R_u`` (16 times
  the probability that ``u``'s situation arises,
  :func:`~exactpoker.games.papers.nash_shapley.payoffs.situation_reach`) is multilinear, so
  its range over the box of still-undecided coefficients is attained at the
  box's vertices, which are enumerated exactly (integer arithmetic, a
  subset-sum transform: :func:`~exactpoker.solve.algebra.multilinear_box.vertex_values`);
* a coefficient already decided to be interior lies in the *open* interval
  ``(0, 1)``, where every vertex of its edge has a positive weight: a
  multilinear polynomial is ``> 0`` on such a box when its vertex values are
  ``>= 0`` with one ``> 0`` for each vertex of the other coordinates
  (:func:`~exactpoker.solve.algebra.multilinear_box.positive_on_open_box`).  So a factor like ``1 - alpha`` of a
  discriminant counts as nonzero once ``alpha`` is interior (5 times fewer
  cases than with the closed box at ``a/b = 2``);
* "``Delta_u > 0`` wherever ``u``'s situation arises" holds on the box when
  ``Delta_u >= 0`` at every vertex and ``Delta_u > 0`` at every vertex where
  ``R_u > 0`` (then ``Delta_u >= c R_u`` for some ``c > 0`` on the whole box);
  this is how the dominations of section 7 (never fold on High) come out, and
  the search repeats them after every decision.

A leaf of the search fixes every coefficient to 0, 1 or "interior"; its
equations ``Delta_u = 0`` (one per interior ``u``) are solved exactly by
:func:`solve_case`, and :mod:`exactpoker.games.papers.nash_shapley.equilibria`
certifies each point.  The search itself only decides which cases are
possible; it never rounds.  It is slow for ``a/b >= 1`` (4694 cases at
``a/b = 2``, half a minute, each case a polynomial system of up to 14
unknowns), which is why the equilibria module tries the paper's systems by
default.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
import sympy

from exactpoker.games.papers.nash_shapley import payoffs as ns
from exactpoker.solve import Poly, bitmask_poly, positive_on_open_box, vertex_values
from exactpoker.solve import family_branches, solve_system

__all__ = ["Case", "ZERO", "ONE", "INTERIOR", "cases", "VARIABLES", "integer_polynomials", "solve_case", "solve_case_counted"]

ZERO, ONE, INTERIOR = "0", "1", "i"
VARIABLES: tuple[str, ...] = tuple(ns.SYMBOLS)
_INDEX = {name: k for k, name in enumerate(VARIABLES)}


@dataclass(frozen=True)
class Case:
    """One assignment of ``0``, ``1`` or ``"i"`` (interior) to each coefficient."""

    kinds: tuple[tuple[str, str], ...]

    def __getitem__(self, name: str) -> str:
        return dict(self.kinds)[name]

    @property
    def interior(self) -> tuple[str, ...]:
        return tuple(n for n, k in self.kinds if k == INTERIOR)


@cache
def integer_polynomials(t: Fraction) -> tuple[dict[str, Poly], dict[str, Poly]]:
    """Integer discriminants at ``a = p, b = q`` (``t = p/q``; a positive multiple) and the reaches."""
    p, q = t.numerator, t.denominator
    stakes = {ns.a: sympy.Integer(p), ns.b: sympy.Integer(q)}
    symbols = [ns.SYMBOLS[n] for n in VARIABLES]
    deltas = {n: bitmask_poly(sympy.expand(d.xreplace(stakes)), symbols) for n, d in ns.discriminants().items()}
    reaches = {n: bitmask_poly(r, symbols) for n, r in ns.situation_reach().items()}
    return deltas, reaches


@dataclass(frozen=True)
class _Facts:
    """What the box says about one coefficient."""

    low: int  # min Delta_u
    high: int  # max Delta_u
    positive_when_reached: bool
    negative_when_reached: bool
    never_reached: bool
    always_reached: bool
    positive: bool  # Delta_u > 0 on the whole box (interior coordinates open)
    negative: bool
    reached: bool  # R_u > 0 on the whole box (interior coordinates open)


def _facts(delta: Poly, reach: Poly, zeros: int, ones: int, interior: int) -> _Facts:
    d, r = vertex_values([delta, reach], zeros, ones, interior)  # on the same vertices
    reached = r > 0
    return _Facts(
        low=int(d.min()),
        high=int(d.max()),
        positive_when_reached=bool(d.min() >= 0 and np.all(d[reached] > 0)),
        negative_when_reached=bool(d.max() <= 0 and np.all(d[reached] < 0)),
        never_reached=not bool(reached.any()),
        always_reached=bool(reached.all()),
        positive=positive_on_open_box(d),
        negative=positive_on_open_box(-d),
        reached=positive_on_open_box(r),
    )


def _allowed(name: str, facts: _Facts) -> list[str]:
    """The cases (C) and the convention leave for ``name`` on this box."""
    high_card = ns.irrelevance_value(name) == 1
    kinds = []
    # u = 0: Delta_u <= 0 when reached; if never reached, only a Low coefficient may be 0.
    if high_card:
        if not facts.never_reached and not facts.positive_when_reached:
            kinds.append(ZERO)
    elif not (facts.always_reached and facts.low > 0):
        kinds.append(ZERO)
    # u = 1.
    if high_card:
        if not (facts.always_reached and facts.high < 0):
            kinds.append(ONE)
    elif not facts.never_reached and not facts.negative_when_reached:
        kinds.append(ONE)
    # 0 < u < 1: reached, and Delta_u = 0 possible.
    if not (facts.never_reached or facts.positive_when_reached or facts.negative_when_reached
            or facts.positive or facts.negative):
        kinds.append(INTERIOR)
    if facts.reached:  # reached for sure: the sign of Delta_u decides
        kinds = [k for k in kinds if not (k == ZERO and facts.positive) and not (k == ONE and facts.negative)]
    return kinds


def cases(t: Fraction) -> list[Case]:
    """Every case assignment that condition (C) and the convention allow at ``a/b = t``.

    Complete: an equilibrium point (in the section 5 convention) has the
    kinds of one of the returned cases.  Each case still has to be solved
    (its interior coefficients satisfy ``Delta_u = 0``) and checked.
    """
    deltas, reaches = integer_polynomials(Fraction(t))
    found: list[Case] = []

    def search(kinds: dict[str, str]) -> None:
        while True:
            zeros = sum(1 << _INDEX[n] for n, k in kinds.items() if k == ZERO)
            ones = sum(1 << _INDEX[n] for n, k in kinds.items() if k == ONE)
            inner = sum(1 << _INDEX[n] for n, k in kinds.items() if k == INTERIOR)
            options: dict[str, list[str]] = {}
            for name in VARIABLES:
                allowed = _allowed(name, _facts(deltas[name], reaches[name], zeros, ones, inner))
                if name in kinds:
                    if kinds[name] not in allowed:
                        return
                    continue
                if not allowed:
                    return
                options[name] = allowed
            forced = {n: o[0] for n, o in options.items() if len(o) == 1 and o[0] != INTERIOR}
            if not forced:
                break
            kinds = {**kinds, **forced}
        if not options:
            found.append(Case(tuple((n, kinds[n]) for n in VARIABLES)))
            return
        name = min(options, key=lambda n: (len(options[n]), _INDEX[n]))
        for kind in options[name]:
            search({**kinds, name: kind})

    search({})
    return found


@dataclass(frozen=True)
class CaseSolution:
    """The points of one case: every coefficient as an exact sympy number, or a family.

    ``values`` maps each coefficient to a sympy expression in at most one
    free ``parameter`` (``None`` for isolated points); ``parameter_range`` is
    the closed interval of the parameter where condition (C) holds.
    """

    case: Case
    values: dict[str, sympy.Expr]
    parameter: sympy.Symbol | None = None
    parameter_range: tuple[sympy.Expr, sympy.Expr] | None = None


def _equations(t: Fraction, case: Case) -> tuple[list[sympy.Expr], list[sympy.Symbol], dict[sympy.Symbol, sympy.Integer]]:
    fixed = {ns.SYMBOLS[n]: sympy.Integer(0 if k == ZERO else 1) for n, k in case.kinds if k != INTERIOR}
    unknowns = [ns.SYMBOLS[n] for n in case.interior]
    subs = {**fixed, ns.a: sympy.Integer(t.numerator), ns.b: sympy.Integer(t.denominator)}
    eqs = [sympy.expand(ns.discriminants()[n].xreplace(subs)) for n in case.interior]
    return [e for e in eqs if e != 0], unknowns, fixed


def solve_case(t: Fraction, case: Case) -> list[CaseSolution]:
    """The points of ``case`` at ``a/b = t``: interior coefficients solve ``Delta_u = 0``.

    The equations are solved exactly by the engine's one solver (isolated
    points as exact real algebraic numbers; a family branch by branch).  Isolated real solutions are kept when every interior
    coefficient lies in ``(0, 1)``; a one-parameter family is returned with the
    parameter left free (its range is found by the caller's checks); families
    of two or more parameters are not returned (:func:`solve_case_counted`
    counts them).  Nothing here checks the inequalities of (C).
    """
    return solve_case_counted(t, case)[0]


def solve_case_counted(t: Fraction, case: Case) -> tuple[list[CaseSolution], int]:
    """:func:`solve_case`, and the number of solution families of two or more parameters it left out.

    The engine's one exact solver (:func:`~exactpoker.solve.algebra.polynomial_system.solve_system`) decides the
    case: no solution, isolated points (exact; those with every interior coefficient in ``(0, 1)`` are kept), or
    a family, written out branch by branch
    (:func:`~exactpoker.solve.algebra.polynomial_system.family_branches`).
    """
    t = Fraction(t)
    eqs, unknowns, fixed = _equations(t, case)
    base: dict[str, sympy.Expr] = {str(s): v for s, v in fixed.items()}
    if not unknowns:
        return [CaseSolution(case, base)], 0
    solved = solve_system(eqs, unknowns)
    if solved.family is None:
        return [CaseSolution(case, {**base, **{str(u): _number(v) for u, v in zip(unknowns, point)}})
                for point in solved.points if all(0 < v < 1 for v in point)], 0
    found, left_out = [], 0
    for branch in family_branches(eqs, unknowns):
        free = [u for u in unknowns if u not in branch]
        values = {**base, **{str(u): sympy.sympify(branch.get(u, u)) for u in unknowns}}
        if len(free) > 1:
            left_out += 1
        elif not free:  # a branch of isolated points inside the family's variety
            if all(v.is_real and bool(v > 0) and bool(v < 1) for v in (values[str(u)] for u in unknowns)):
                found.append(CaseSolution(case, values))
        else:
            found.append(CaseSolution(case, values, free[0]))
    return found, left_out


def _number(value: object) -> sympy.Expr:
    """An exact solution coordinate as a sympy number (radicals for quadratic irrationals)."""
    if isinstance(value, Fraction):
        return sympy.Rational(value.numerator, value.denominator)
    return value.to_sympy()  # type: ignore[attr-defined]
