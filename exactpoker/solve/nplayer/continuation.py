"""The regularised equilibrium system and its arc-length continuation (seed 003, section 3).

For a game whose information sets all have two actions, write ``x_k`` for the
probability of the last (aggressive) action at information set ``k`` and
``f_k(x)`` for its owner's *counterfactual* gain from that action over the
other: the derivative of the owner's payoff with respect to ``x_k``, divided
by the owner's own probability of reaching ``k``.  That division is the
seed's extra differentiation (section 3): it makes ``f_k`` independent of the
owner's earlier choices, so the conditions hold in every subgame of the owner
(:mod:`exactpoker.certify_sequential` checks the same thing exactly).
Condition (1) of the seed is: ``f_k = 0``, or ``f_k < 0`` and ``x_k = 0``, or
``f_k > 0`` and ``x_k = 1``.  The regularised system (eqs. 2, 4, 6) is

.. math::  F_k(x) = g(f_k(x) / \\epsilon) - x_k = 0, \\qquad g(y) = 1/2 + \\arctan(y) / \\pi.

Everything here is floating point: it *guides* the exact solver
(:mod:`exactpoker.solve.nplayer.finish`), which reads the support off a
solution at small ``epsilon`` and finishes exactly.

* :class:`~exactpoker.solve.nplayer.gain_system.GainSystem` evaluates ``f`` and its
  Jacobian (its own module).
* :func:`newton` solves ``F = 0`` at fixed parameters.
* :func:`continue_branch` follows a curve ``F(x, lam) = 0`` by arc-length
  continuation with the seed's adaptive steps (eq. 7 and the paragraph after
  it); ``lam`` is the parameter ``t`` at fixed ``epsilon``, or
  ``log(epsilon)`` at fixed ``t`` (used to start from a large ``epsilon``,
  where the solution is unique, and to follow it down to a small one).

Nothing here knows which game it is solving.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

import numpy as np

from exactpoker import progress
from exactpoker.blas import one_thread
from exactpoker.errors import DegenerateSystemError
from exactpoker.lazy import lazy
from exactpoker.solve.nplayer.gain_system import GainSystem

scipy = lazy("scipy")
sparse_linalg = lazy("scipy.sparse.linalg")

__all__ = [
    "g",
    "g_prime",
    "Regularised",
    "newton",
    "continue_branch",
    "trace_epsilon",
    "trace_down",
    "Trend",
    "trace_down_trend",
    "EPSILON",
    "RELIABLE_EPSILON",
    "SPARSE_SIZE",
    "SPARSE_DENSITY",
]

#: The regularisation parameter of the float guide (seed 003 uses 1e-6).  A variable at 0 or 1 whose gain
#: ``f`` is small sits about ``EPSILON / (pi |f|)`` from its end (eq. 4): at 1e-9 a gain above 3e-7 is still read
#: at its end by the exact finish (seed 003's ``N = 13, P = 46/5`` has one of 2e-5, read as interior at 1e-7).
EPSILON = 1e-9
#: From this many free variables on, the guide's Newton steps use the sparse Jacobian (SuperLU) instead of a dense
#: LU: three-player Leduc on two ranks has 2,436 (its dense step took 0.4 s, the sparse one 0.03 s).
SPARSE_SIZE = 1000
#: ... and when at most this share of the Jacobian's entries can be non-zero (Leduc's: 0.9%; three-player Kuhn
#: poker's, every card's choice seen by every other card, 29%: a dense LU is faster there).
SPARSE_DENSITY = 0.05
#: The guide is first followed down to this epsilon, where the continuation is reliable; if it cannot go on
#: from there to a smaller one (a stiff fold, e.g. seed 003 at ``N = 8, P = 3``), the solution there is the guide.
RELIABLE_EPSILON = 1e-7


def g(y: np.ndarray) -> np.ndarray:
    """The seed's regularising function ``1/2 + arctan(y)/pi`` (eq. 4)."""
    return 0.5 + np.arctan(y) / np.pi


def g_prime(y: np.ndarray) -> np.ndarray:
    """``g'(y) = 1 / (pi (1 + y^2))``."""
    return 1.0 / (np.pi * (1.0 + y * y))


@dataclass
class Regularised:
    """``F(x) = g(f(x, t)/eps) - x`` on the free variables of a :class:`GainSystem`.

    ``parameter`` says which of ``t`` and ``log(eps)`` is the continuation
    parameter ``lam``; the other is held at its value.
    """

    system: GainSystem
    t: float
    eps: float
    parameter: str = "t"  # or "log_eps"

    def split(self, X: np.ndarray) -> tuple[np.ndarray, float, float]:
        lam = float(X[-1])
        if self.parameter == "t":
            return X[:-1], lam, self.eps
        return X[:-1], self.t, float(np.exp(lam))

    def residual(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``F`` and its Jacobian in ``(x_free, lam)`` (n x (n+1))."""
        with np.errstate(all="ignore"):
            return self._residual(X)

    def _residual(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        xf, t, eps = self.split(X)
        s = self.system
        free = s.free
        x = s.full(xf)
        sparse = len(free) >= SPARSE_SIZE and s.jacobian_density <= SPARSE_DENSITY
        f, J, ft = s.evaluate(x, t, sparse=sparse)
        y = f[free] / eps
        gp = g_prime(y)
        F = g(y) - xf
        Jl = gp / eps * ft[free] if self.parameter == "t" else -gp * y
        if sparse:
            Jx = scipy.sparse.diags(gp / eps) @ J[free][:, free] - scipy.sparse.identity(len(free))
            return F, scipy.sparse.hstack([Jx, Jl[:, None]], format="csr")
        Jx = (gp / eps)[:, None] * J[np.ix_(free, free)] - np.eye(len(free))
        return F, np.column_stack([Jx, Jl])


@one_thread()
def newton(fun: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], X: np.ndarray, *, extra=None,
           tol: float = 1e-11, max_iter: int = 30) -> np.ndarray:
    """Newton's method on ``fun`` (square, or with one ``extra`` linear row ``(a, b)``: ``a.X = b``).

    ``fun(X)`` returns ``(F, J)``.  Without ``extra`` the last entry of ``X``
    (the parameter) is held fixed.  Raises :class:`DegenerateSystemError`
    when it does not converge.
    """
    return _newton(fun, X, extra, tol, max_iter)[0]


def _newton(fun: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], X: np.ndarray, extra, tol: float,
            max_iter: int) -> tuple[np.ndarray, int]:
    """:func:`newton`, also returning the number of Jacobians it took."""
    X = np.array(X, dtype=float)
    for iteration in range(1, max_iter + 1):
        F, J = fun(X)
        if np.max(np.abs(F)) < tol * 1e-3 and extra is None:
            return X, iteration
        if extra is None:
            A, rhs = J[:, :-1], -F
        else:
            a, b = extra
            A = scipy.sparse.vstack([J, a[None, :]]) if scipy.sparse.issparse(J) else np.vstack([J, a])
            rhs = -np.append(F, a @ X - b)
        step = _linear_solve(A, rhs)
        if extra is None:
            X[:-1] += step
        else:
            X += step
        if not np.all(np.isfinite(X)):
            break
        if np.max(np.abs(step)) < tol:
            return X, iteration
    raise DegenerateSystemError("newton(): no convergence")


def _linear_solve(A: "np.ndarray | scipy.sparse.spmatrix", rhs: np.ndarray) -> np.ndarray:
    """The Newton step: a dense LU solve (on one BLAS thread: the public functions here run under
    :func:`exactpoker.blas.one_thread`), or SuperLU for a sparse ``A`` (:data:`SPARSE_SIZE`, :data:`SPARSE_DENSITY`)."""
    try:
        if scipy.sparse.issparse(A):
            return sparse_linalg.splu(scipy.sparse.csc_matrix(A)).solve(rhs)
        return np.linalg.solve(A, rhs)
    except (np.linalg.LinAlgError, RuntimeError):  # splu raises RuntimeError on a singular matrix
        raise DegenerateSystemError("newton(): singular Jacobian") from None


@one_thread()
def continue_branch(
    fun: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
    X0: np.ndarray,
    X1: np.ndarray,
    stop: Callable[[np.ndarray], bool],
    *,
    eps: float,
    delta: float = 1e-3,
    delta_max: float = 0.1,
    delta_min: float = 1e-12,
    max_steps: int = 100000,
    fast_growth: float = 2.0,
    max_iter: int = 12,
    tol: float = 1e-8,
) -> Iterator[np.ndarray]:
    """Arc-length continuation of ``fun(X) = 0`` from two solutions (seed 003, eq. 7).

    Each step solves ``fun(X) = 0`` with ``(X - X_i) . T = delta`` (``T`` the
    unit secant of the last step) by :func:`newton` (at most ``max_iter``
    iterations, until a Newton step is below ``tol``: once Newton converges
    quadratically the point is then good to about ``tol**2``), from a
    quadratic extrapolation of the last three solutions.
    ``delta`` shrinks (halves) when Newton fails or the step is longer than
    ``max(1.05 delta, 1e-3 eps)``, and grows otherwise, up to ``delta_max``:
    by 10% as in the seed, or by ``fast_growth`` when Newton needed at most
    two iterations (the extrapolation was nearly exact: past a corner of the
    regularised branch, where steps of order ``eps`` were needed, the step
    recovers in a few dozen steps instead of a few hundred).  Yields each new
    solution until ``stop(X)`` is true.
    """
    history = [np.array(X0, float), np.array(X1, float)]
    for _ in range(max_steps):
        Xi, Xp = history[-1], history[-2]
        T = Xi - Xp
        T /= np.linalg.norm(T)
        while True:
            if len(history) >= 3:
                guess = _quadratic(history[-3:], delta)
            else:
                guess = Xi + delta * T
            try:
                X, iterations = _newton(fun, guess, (T, T @ Xi + delta), tol, max_iter)
                ok = np.linalg.norm(X - Xi) <= max(1.05 * delta, 1e-3 * eps)
            except DegenerateSystemError:
                ok = False
            if ok:
                break
            delta /= 2
            if delta < delta_min:
                raise DegenerateSystemError("continue_branch(): step size underflow")
        history = history[-2:] + [X]
        yield X
        if stop(X):
            return
        delta = min(delta * (fast_growth if iterations <= 2 else 1.1), delta_max)


def _quadratic(points: list[np.ndarray], delta: float) -> np.ndarray:
    """Extrapolate the quadratic through three points (by chord length) a further ``delta``."""
    a, b, c = points
    s1 = np.linalg.norm(b - a)
    s2 = s1 + np.linalg.norm(c - b)
    s = s2 + delta
    # Lagrange basis at chord lengths 0, s1, s2
    la = (s - s1) * (s - s2) / ((0 - s1) * (0 - s2))
    lb = (s - 0) * (s - s2) / ((s1 - 0) * (s1 - s2))
    lc = (s - 0) * (s - s1) / ((s2 - 0) * (s2 - s1))
    return la * a + lb * b + lc * c


@one_thread()
def trace_epsilon(system: GainSystem, t: float, *, eps_start: float = 1.0, eps_end: float = 1e-7,
                  x0: np.ndarray | None = None, start_tol: float = 1e-11) -> np.ndarray:
    """A solution of the regularised system at ``eps_end``, followed down from ``eps_start``.

    At a large ``eps`` the solution is near ``1/2`` and Newton finds it; the
    curve of solutions is then followed by arc-length continuation in
    ``log(eps)`` (it may fold) until ``eps`` reaches ``eps_end``.  Returns the
    free variables there (or, if Newton cannot land exactly on ``eps_end``,
    at the first point past it).  ``start_tol`` is the Newton tolerance of the
    two starting points (from a solution ``x0`` at a small ``eps_start``, where
    the system is stiff, the continuation's own ``1e-8``).
    """
    reg = Regularised(system, t, eps_start, "log_eps")
    n = len(system.free)
    x = np.full(n, 0.5) if x0 is None else np.array(x0, float)
    start = newton(reg.residual, np.append(x, np.log(eps_start)), tol=start_tol)
    second = newton(reg.residual, np.append(start[:-1], np.log(eps_start) - 1e-3), tol=start_tol)
    target = np.log(eps_end)
    previous, last = start, second
    progress.stage(f"float guide: continuation in epsilon from {eps_start:.0e} to {eps_end:.0e}", unit="steps")
    for X in continue_branch(reg.residual, start, second, lambda X: X[-1] <= target, eps=eps_end, delta=1e-2,
                             delta_max=1.0):
        progress.advance()
        previous, last = last, X
    # land on eps_end: interpolate between the last two points, then Newton at fixed eps
    share = (target - previous[-1]) / (last[-1] - previous[-1]) if last[-1] != previous[-1] else 1.0
    guess = previous + share * (last - previous)
    guess[-1] = target
    try:
        return newton(reg.residual, guess)[:-1]
    except DegenerateSystemError:
        return last[:-1]


def trace_down(system: GainSystem, t: float, eps: float = EPSILON, *, eps_start: float = 1.0,
               x0: np.ndarray | None = None) -> np.ndarray:
    """The free variables of the solution at ``eps``, or at :data:`RELIABLE_EPSILON` if the way below fails.

    The float guide of every N-player exact finish (seed 003's three-player
    Kuhn poker, :mod:`exactpoker.solve.nplayer.pipeline`): :func:`trace_epsilon` down to
    the reliable epsilon, then on to ``eps``; a stiff fold below the reliable
    epsilon leaves the solution there as the guide.
    """
    return trace_down_trend(system, t, eps, eps_start=eps_start, x0=x0)[0]


@dataclass(frozen=True)
class Trend:
    """The float guide at a larger epsilon: ``x`` (every variable there), at ``factor`` times the guide's epsilon.

    How a gain changes between the two tells the exact finish where a
    variable goes in the limit (:func:`exactpoker.solve.nplayer.finish.classify`).
    """

    x: np.ndarray
    factor: float


def trace_down_trend(system: GainSystem, t: float, eps: float = EPSILON, *, eps_start: float = 1.0,
                     x0: np.ndarray | None = None) -> tuple[np.ndarray, Trend | None]:
    """:func:`trace_down`, and the solution at the reliable epsilon as a :class:`Trend` when the guide went below it.

    The trend is ``None`` when ``eps`` is not below :data:`RELIABLE_EPSILON`
    or the way below it failed (the guide is then the solution there).
    """
    reliable = trace_epsilon(system, t, eps_start=eps_start, eps_end=max(eps, RELIABLE_EPSILON), x0=x0)
    if eps >= RELIABLE_EPSILON:
        return reliable, None
    try:
        fine = trace_epsilon(system, t, eps_start=RELIABLE_EPSILON, eps_end=eps, x0=reliable, start_tol=1e-8)
    except DegenerateSystemError:
        return reliable, None
    return fine, Trend(system.full(reliable), RELIABLE_EPSILON / eps)
