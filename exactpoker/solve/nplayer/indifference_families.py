"""Families of equilibria through a located one: their certified corners, and whole certified segments.

A support's indifference system (:mod:`exactpoker.solve.nplayer.indifference`) may
have a family of solutions (seed 000, section 4: three-player poker has
segments of equilibria).  :func:`family_corners` widens the support to every
information set where the player is indifferent at the located equilibrium,
certifies each corner of the family's polytope exactly, and for a segment
decides whether every point between its two certified ends is an
equilibrium too (each action gap along it a polynomial in the position,
its sign on ``[0, 1]`` decided by exact real-root isolation).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import sympy

from exactpoker.core.compiled import CompiledGame
from exactpoker.core.support_system import FREE, Ties
from exactpoker.solve.algebra.polynomial_system import Family
from exactpoker.solve.nplayer.indifference import (CompiledModel, as_model, behaviour_of, indifference_system,
                                                   solve_indifference)
from exactpoker.solve.nplayer.point import CertifiedPoint
from exactpoker.solve.nplayer.support_search import box_family, tie_support

__all__ = ["family_corners"]


def _nonpositive_on_unit_interval(poly: sympy.Poly) -> bool:
    """Exactly: ``poly(t) <= 0`` for every ``t`` in ``[0, 1]``."""
    if poly.is_zero:
        return True
    points = [sympy.Integer(0), sympy.Integer(1)]
    derivative = poly.diff()
    if not derivative.is_zero:
        points += [r for r in sympy.real_roots(derivative) if 0 < r < 1]
    return all(sympy.sign(poly.as_expr().subs(poly.gens[0], r)) <= 0 for r in points)


def _widened(model: CompiledModel, located: CertifiedPoint, ties: Ties) -> CertifiedPoint:
    """``located`` on the largest support it solves: fixed sets where the player is indifferent are freed.

    Indifference is read in floating point and then confirmed exactly: the
    wider support is used only if its system is a family that the located
    point solves, otherwise the original is kept.
    """
    floats = [np.array([float(v) for v in row]) for row in located.behaviour]
    gaps = model.float_gaps(floats)
    rows = [list(row) for row in located.support]
    for p, row in enumerate(rows):
        for h, fixed in enumerate(row):
            if fixed is not FREE and abs(gaps[p][h]) < 1e-9 * model.scale:
                rows[p][h] = FREE
    support = tie_support(tuple(tuple(r) for r in rows), ties)
    if support == located.support:
        return located
    system = indifference_system(model, support, ties)
    solved = box_family(solve_indifference(system))
    if solved is None or not solved.is_linear or solved.dimension < 1:
        return located
    values = {symbol: sympy.Rational(str(located.behaviour[p][h])) for (p, h), symbol in zip(system.variables, system.symbols)}
    if any(sympy.expand(e.subs(values)) != 0 for e in system.equations):
        return located
    return replace(located, support=support, system=system, family=solved)


def family_corners(compiled: "CompiledGame | CompiledModel", located: CertifiedPoint, ties: Ties | None = None
                   ) -> Family:
    """The family through ``located``: its certified corners (:class:`~exactpoker.solve.nplayer.point.CertifiedPoint`
    s, in ``vertices``) and, for a segment, whether all of it is certified (``segment_certified``).

    The support is first widened to every information set where the player is indifferent at the located
    equilibrium, so the family found is the largest one through it that the indifference equations describe.
    Without a family (or no certified corner) the result is the located point alone, of dimension 0.
    """
    model = as_model(compiled)
    ties = ties or {}
    if all(isinstance(v, Fraction) for row in located.behaviour for v in row):
        located = _widened(model, located, ties)
    family = located.family
    alone = Family((), (), 0, vertices=(located,))
    if family is None:
        return alone
    corners = []
    for vertex in family.vertices:
        behaviour = behaviour_of(located.support, located.system, vertex)
        profile, certificate = model.certify(behaviour)
        if certificate.holds:
            corners.append(replace(located, profile=profile, certificate=certificate, family=None))
    segment = False
    if family.dimension == 1 and len(corners) == 2:
        segment = _segment_certified(model, located, ties, family.vertices)
    if not corners:
        return alone
    return replace(family, vertices=tuple(corners), segment_certified=segment)


def _segment_certified(
    model: CompiledModel, located: CertifiedPoint, ties: Ties, vertices: tuple[tuple[Fraction, ...], ...]
) -> bool:
    everything = [(p, h) for p, row in enumerate(located.support) for h in range(len(row))]
    gaps, symbols, _ = model.gap_polynomials(located.support, ties, everything)
    t = sympy.Symbol("t")
    start, end = vertices
    path = {s: sympy.Rational(a.numerator, a.denominator) + t * sympy.Rational((b - a).numerator, (b - a).denominator)
            for s, a, b in zip(symbols, start, end)}
    for (p, h), gap in gaps.items():
        along = sympy.Poly(sympy.expand(gap.subs(path)), t)
        fixed = located.support[p][h]
        if fixed is FREE:
            if not along.is_zero:
                return False
        elif not _nonpositive_on_unit_interval(along if fixed == 0 else -along):
            return False
    return True
