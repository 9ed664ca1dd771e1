"""General-sum and many-player games over a parameter: certified equilibria at rational points, joined by a branch.

Where :mod:`exactpoker.solve.parametric.game` gives exact pieces (two-player
zero-sum), a general-sum or many-player game gets the method of seed 003
(section 3), for any game whose information sets have two actions and whose
payoffs are affine in the parameter (``solve --over``; seed 003's own
``kuhn3 branch`` follows the same branch of its seed's system, adding only the
paper's presentation, :mod:`exactpoker.games.papers.kuhn3_branch`):

1. The *branch* (:func:`follow_branch`): the regularised equilibrium system
   (:mod:`exactpoker.solve.nplayer.continuation`, counterfactual gains, ``g(f/eps) = x``)
   is solved at the lower end, followed down in ``eps``, then followed in the
   parameter by arc-length continuation (it may fold back: several equilibria
   at one value).  Floating point: every branch point is labelled uncertified.
2. *Certified points*: at rational values of the parameter, the branch is
   interpolated there, Newton lands on it, the solution is followed down to
   a small ``eps`` (:func:`guide_on_branch`), and the exact finish on its support
   (:func:`~exactpoker.solve.nplayer.finish.solve_exact`: rational, algebraic
   or an isolating box) gives an equilibrium that passes the exact check.  A
   point where the exact finish fails is reported as such, never as certified.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from exactpoker.core.parametric import ParametricCompiled
from exactpoker.errors import CertificationError, DegenerateSystemError, InvalidGameError, InvalidParameterError
from exactpoker.numbers import exact_str

__all__ = ["BranchPoint", "BranchEquilibrium", "ParametricBranch", "solve_branch", "follow_branch", "crossing",
           "guide_on_branch"]


@dataclass(frozen=True)
class BranchPoint:
    """A point of the float branch: the parameter, each player's payoff and (when kept) every variable; floats,
    not certified."""

    at: float
    values: tuple[float, ...]
    x: tuple[float, ...] = ()


@dataclass(frozen=True)
class BranchEquilibrium:
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
    points: tuple[BranchEquilibrium, ...]


def _system(game: ParametricCompiled, lower: Fraction, upper: Fraction):  # noqa: ANN202 - a GainSystem
    from exactpoker.solve.nplayer.gain_system import GainSystem

    if game.game.degree != 1:
        raise InvalidParameterError(f"--over: a branch needs payoffs affine in {game.game.parameter}; "
                                    f"these have degree {game.game.degree}")
    try:
        return GainSystem.from_games((float(lower), game.at(lower)), (float(upper), game.at(upper)))
    except InvalidGameError as error:
        raise InvalidParameterError(f"--over on a general-sum or many-player game: {error}") from None


def follow_branch(system: Any, low: float, high: float, *, eps: float = 1e-6,
                  max_steps: int = 20000) -> list[np.ndarray]:
    """Seed 003's branch (section 3): down in ``eps`` at ``low``, then arc-length continuation in the parameter.

    ``system`` is a :class:`~exactpoker.solve.nplayer.gain_system.GainSystem`; each
    point is the free variables followed by the parameter.  The branch may fold
    back; it stops when the parameter leaves ``[low, high]``.  Floats only.
    """
    from exactpoker.solve.nplayer.continuation import Regularised, continue_branch, newton, trace_epsilon

    reg = Regularised(system, low, eps, "t")
    first = newton(reg.residual, np.append(trace_epsilon(system, low, eps_end=eps), low))
    second = newton(reg.residual, np.append(first[:-1], low + 1e-5))
    points = [first, second]
    points += list(continue_branch(reg.residual, first, second, lambda X: not low - 1e-9 <= X[-1] <= high,
                                   eps=eps, max_steps=max_steps))
    return points


def crossing(points: Sequence[np.ndarray], target: float) -> tuple[np.ndarray, np.ndarray] | None:
    """The first step of the branch ``points`` across the parameter value ``target``, or ``None``."""
    return next(((a, b) for a, b in zip(points, points[1:]) if min(a[-1], b[-1]) <= target <= max(a[-1], b[-1])),
                None)


def guide_on_branch(system: Any, points: Sequence[np.ndarray], target: float, eps: float = 1e-6) -> tuple[Any, Any]:
    """The float guide at ``target`` on the branch, followed down to the exact finish's small ``epsilon``.

    The branch's step across ``target`` is interpolated there and Newton
    lands on the regularised system (``eps``: the branch's); where it cannot
    (a stiff spot) the guide is traced afresh at ``target`` from a large
    ``epsilon``, which may pick another equilibrium there.  Returns the free
    variables and their trend in ``epsilon``
    (:func:`~exactpoker.solve.nplayer.continuation.trace_down_trend`).

    Raises
    ------
    DegenerateSystemError
        If the branch does not reach ``target``, or no guide is found there.
    """
    from exactpoker.solve.nplayer.continuation import EPSILON, Regularised, newton, trace_down_trend

    pair = crossing(points, target)
    if pair is None:
        raise DegenerateSystemError("the branch does not reach this value")
    a, b = pair
    share = (target - a[-1]) / (b[-1] - a[-1]) if b[-1] != a[-1] else 0.0
    try:
        X = newton(Regularised(system, target, eps, "t").residual,
                   np.append((1 - share) * a[:-1] + share * b[:-1], target))
        return trace_down_trend(system, target, EPSILON, eps_start=eps, x0=X[:-1])
    except DegenerateSystemError:
        return trace_down_trend(system, target, EPSILON)


def _certified_point(game: ParametricCompiled, system: Any, points: list[np.ndarray], t: Fraction,
                     eps: float) -> BranchEquilibrium:
    """The exact equilibrium on the branch at the rational ``t`` (the guide there, then the exact finish)."""
    from exactpoker.solve.nplayer.continuation import EPSILON, trace_down_trend
    from exactpoker.solve.engine.dispatch import infoset_tables
    from exactpoker.solve.nplayer.finish import solve_exact

    target = float(t)
    try:
        x, trend = guide_on_branch(system, points, target, eps)
    except DegenerateSystemError:
        x, trend = trace_down_trend(system, target, EPSILON)
    compiled = game.at(t)
    try:
        solution = solve_exact(compiled, system.full(x), lambda z: system.gains(z, target, jacobian=True)[1],
                               system.fixed, trend=trend)
    except (CertificationError, DegenerateSystemError) as error:
        return BranchEquilibrium(t, None, f"no certified equilibrium found at {exact_str(t)}: {error}")
    return BranchEquilibrium(t, solution.equilibrium(infoset_tables(compiled, solution.profile)))


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
    points = follow_branch(system, float(lo), float(hi), eps=eps, max_steps=max_steps)
    branch = tuple(BranchPoint(float(X[-1]), tuple(float(v) for v in system.payoffs(system.full(X[:-1]), X[-1])))
                   for X in points)
    rationals = [lo + (hi - lo) * Fraction(k, count - 1) for k in range(count)]
    certified = tuple(_certified_point(game, system, points, t, eps) for t in rationals)
    return ParametricBranch(game.game.parameter, lo, hi, branch, certified)
