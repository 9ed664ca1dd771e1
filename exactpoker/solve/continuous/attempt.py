"""One shape tried: its system solved exactly, the solutions in order kept, each certified until one holds.

:func:`try_shape` is the engine's step for one hypothesis: the equations of
:mod:`~exactpoker.solve.continuous.equations`, solved through the one door of
:mod:`~exactpoker.solve.continuous.system` (free unknowns of a family fixed at
simple rationals near their readings), the solutions whose cut points are
ordered in ``[0, 1]`` and whose probabilities are probabilities kept, nearest
the readings first, and each certified by
:func:`~exactpoker.solve.continuous.certificate.certify`.  It returns the
first certified one, or says why none is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy

from exactpoker.errors import CertificationError, DegenerateSystemError
from exactpoker.solve.continuous.certificate import ContinuousCertificate, certify
from exactpoker.solve.continuous.equations import shape_equations
from exactpoker.solve.continuous.model import BettingModel
from exactpoker.solve.continuous.profile import PiecewiseProfile, Shape, cut_symbol
from exactpoker.solve.continuous.system import fix_free, solve_polynomial_system

__all__ = ["SolvedShape", "Attempt", "try_shape", "in_order", "FAMILY"]

#: Exact solutions of one shape certified at most (nearest the readings first).
MAX_CANDIDATES = 4


@dataclass(frozen=True)
class SolvedShape:
    """A shape with exact values of its unknowns whose profile passed the certificate."""

    shape: Shape
    values: dict[sympy.Symbol, Any]
    profile: PiecewiseProfile
    certificate: ContinuousCertificate
    equations: tuple[sympy.Expr, ...]
    #: unknowns left free by the system (a family) and the values they were fixed at
    fixed: dict[sympy.Symbol, Fraction] = field(default_factory=dict)


@dataclass(frozen=True)
class Attempt:
    """What became of one shape: ``outcome`` in words, the certified solution if any."""

    shape: str
    outcome: str
    solved: SolvedShape | None = None


def in_order(shape: Shape, values: dict[sympy.Symbol, Any], actions: list[int]) -> bool:
    """Whether the cut points are ordered in ``[0, 1]`` and every mixed segment's probabilities are probabilities."""
    cuts = [values[cut_symbol(group[0])] for group in shape.order]
    if any(not 0 <= c <= 1 for c in cuts) or any(a > b for a, b in zip(cuts, cuts[1:])):
        return False
    for h, segments in enumerate(shape.segments):
        for s in range(len(segments)):
            if any(p < 0 for p in shape.probabilities(h, s, actions[h], values)):
                return False
    return True


def _distance(shape: Shape, values: dict[sympy.Symbol, Any]) -> float:
    return sum((float(values[u]) - g) ** 2 for u, g in shape.guesses.items() if u in values)


#: The outcome of a shape whose system is a family when families are not asked for (see :func:`try_shape`).
FAMILY = "a family: some unknowns have no equation of their own"


def try_shape(model: BettingModel, exact: BettingModel, shape: Shape, *, families: bool = True) -> Attempt:
    """Solve and certify one shape (module docstring); ``exact`` is ``model`` with rational contributions.

    With ``families=False`` a shape whose system has a family of solutions is
    left for later (outcome :data:`FAMILY`): its free unknowns would be fixed
    at values read from a finite deck.
    """
    described = shape.describe([infoset.actions for infoset in model.infosets])
    actions = [len(infoset.actions) for infoset in model.infosets]
    equations = shape_equations(model, shape)
    unknowns = shape.unknowns()
    try:
        found = solve_polynomial_system(equations, unknowns, shape.guesses)
        fixed: dict[sympy.Symbol, Fraction] = {}
        if found.dimension and not families:
            return Attempt(described, FAMILY)
        if found.dimension:
            fixed, found = fix_free(equations, unknowns, shape.guesses)
    except (CertificationError, DegenerateSystemError) as error:
        return Attempt(described, f"system not solved exactly: {error}")
    points = [{**point, **fixed} for point in found.points]
    ordered = sorted((p for p in points if in_order(shape, p, actions)), key=lambda p: _distance(shape, p))
    if not ordered:
        what = ("a family the readings could not pin down" if found.dimension else
                f"{len(points)} exact solutions, none with the cut points in this order" if points else
                "no exact solution with every unknown in [0, 1]")
        return Attempt(described, f"no equilibrium of this shape: {what}")
    failures = []
    for point in ordered[:MAX_CANDIDATES]:
        profile = shape.profile(actions, point)
        certificate = certify(exact, profile)
        if certificate.holds:
            solved = SolvedShape(shape, point, profile, certificate, tuple(equations), fixed)
            return Attempt(described, "certified", solved)
        failures.append(certificate.failures[0])
    return Attempt(described, f"certificate fails: {failures[0]}")
