"""General-sum and many-player games over a parameter: certified equilibria at rational points, joined by a branch.

Where :mod:`exactpoker.solve.parametric_game` gives exact pieces (two-player
zero-sum), a general-sum or many-player game gets the method of seed 003
(section 3), for any game whose information sets have two actions and whose
payoffs are affine in the parameter:

1. The *branch*: the regularised equilibrium system
   (:mod:`exactpoker.solve.continuation`, counterfactual gains, ``g(f/eps) = x``)
   is solved at the lower end, followed down in ``eps``, then followed in the
   parameter by arc-length continuation (it may fold back: several equilibria
   at one value).  Floating point: every branch point is labelled uncertified.
2. *Certified points*: at rational values of the parameter, the branch is
   interpolated there, Newton lands on it, the solution is followed down to a
   small ``eps``, and the exact finish on its support
   (:func:`~exactpoker.solve.support_solve.solve_exact`: rational, algebraic
   or an isolating box) gives an equilibrium that passes the exact check.  A
   point where the exact finish fails is reported as such, never as certified.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from exactpoker.core.parametric import ParametricCompiled
from exactpoker.errors import CertificationError, DegenerateSystemError, InvalidGameError, InvalidParameterError
from exactpoker.numbers import exact_str

__all__ = ["BranchPoint", "CertifiedPoint", "ParametricBranch", "solve_branch"]


@dataclass(frozen=True)
class BranchPoint:
    """A point of the float branch: the parameter and each player's payoff, floats, not certified."""

    at: float
    values: tuple[float, ...]


@dataclass(frozen=True)
class CertifiedPoint:
    """An exact, certified equilibrium at the rational ``at`` (``equilibrium`` None and ``error`` set if it failed)."""

    at: Fraction
    equilibrium: Any
    error: str = ""


@dataclass(frozen=True)
class ParametricBranch:
    """The branch and the certified points of a game over ``[lower, upper]``."""

    parameter: str
    lower: Fraction
    upper: Fraction
    branch: tuple[BranchPoint, ...]
    points: tuple[CertifiedPoint, ...]


def _system(game: ParametricCompiled, lower: Fraction, upper: Fraction):  # noqa: ANN202 - a GainSystem
    from exactpoker.solve.continuation import GainSystem

    if game.game.degree != 1:
        raise InvalidParameterError(f"--over: a branch needs payoffs affine in {game.game.parameter}; "
                                    f"these have degree {game.game.degree}")
    try:
        return GainSystem.from_games((float(lower), game.at(lower)), (float(upper), game.at(upper)))
    except InvalidGameError as error:
        raise InvalidParameterError(f"--over on a general-sum or many-player game: {error}") from None


def _branch(system: Any, low: float, high: float, eps: float, max_steps: int) -> list[np.ndarray]:
    """Seed 003's branch: down in ``eps`` at ``low``, then arc-length continuation in the parameter."""
    from exactpoker.solve.continuation import Regularised, continue_branch, newton, trace_epsilon

    reg = Regularised(system, low, eps, "t")
    first = newton(reg.residual, np.append(trace_epsilon(system, low, eps_end=eps), low))
    second = newton(reg.residual, np.append(first[:-1], low + 1e-5))
    points = [first, second]
    points += list(continue_branch(reg.residual, first, second, lambda X: not low - 1e-9 <= X[-1] <= high,
                                   eps=eps, max_steps=max_steps))
    return points


def _certified_point(game: ParametricCompiled, system: Any, points: list[np.ndarray], t: Fraction,
                     eps: float) -> CertifiedPoint:
    """The exact equilibrium on the branch at the rational ``t`` (as kuhn3's exact_on_branch, for any game)."""
    from exactpoker.solve.continuation import EPSILON, Regularised, newton, trace_down_trend
    from exactpoker.solve.dispatch import infoset_tables
    from exactpoker.solve.support_solve import solve_exact

    target = float(t)
    pairs = [(a, b) for a, b in zip(points, points[1:]) if min(a[-1], b[-1]) <= target <= max(a[-1], b[-1])]
    try:
        if not pairs:
            raise DegenerateSystemError("the branch does not reach this value")
        a, b = pairs[0]
        share = (target - a[-1]) / (b[-1] - a[-1]) if b[-1] != a[-1] else 0.0
        X = newton(Regularised(system, target, eps, "t").residual, np.append((1 - share) * a[:-1] + share * b[:-1],
                                                                              target))
        x, trend = trace_down_trend(system, target, EPSILON, eps_start=eps, x0=X[:-1])
    except DegenerateSystemError:
        x, trend = trace_down_trend(system, target, EPSILON)
    compiled = game.at(t)
    try:
        solution = solve_exact(compiled, system.full(x), lambda z: system.gains(z, target, jacobian=True)[1],
                               system.fixed, trend=trend)
    except (CertificationError, DegenerateSystemError) as error:
        return CertifiedPoint(t, None, f"no certified equilibrium found at {exact_str(t)}: {error}")
    return CertifiedPoint(t, solution.equilibrium(infoset_tables(compiled, solution.profile)))


def solve_branch(game: ParametricCompiled, lower: object, upper: object, *, count: int = 5, eps: float = 1e-6,
                 max_steps: int = 20000) -> ParametricBranch:
    """The float branch over ``[lower, upper]`` and certified equilibria at ``count`` rational points on it.

    Raises
    ------
    InvalidParameterError
        If the payoffs are not affine in the parameter or an information set
        does not have two actions (the regularised system's form).
    """
    lo, hi = Fraction(lower), Fraction(upper)  # type: ignore[arg-type]
    if not lo < hi or count < 2:
        raise InvalidParameterError("--over: need from < to and at least two points")
    system = _system(game, lo, hi)
    points = _branch(system, float(lo), float(hi), eps, max_steps)
    branch = tuple(BranchPoint(float(X[-1]), tuple(float(v) for v in system.payoffs(system.full(X[:-1]), X[-1])))
                   for X in points)
    rationals = [lo + (hi - lo) * Fraction(k, count - 1) for k in range(count)]
    certified = tuple(_certified_point(game, system, points, t, eps) for t in rationals)
    return ParametricBranch(game.game.parameter, lo, hi, branch, certified)
