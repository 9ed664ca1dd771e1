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
(:mod:`exactpoker.solve.support_solve`), which reads the support off a
solution at small ``epsilon`` and finishes exactly.

* :class:`GainSystem` evaluates ``f`` and its Jacobian from a compiled game's
  sequence-form payoffs, for payoffs affine in one parameter ``t`` (the pot of
  seed 003).  ``f`` is multilinear, so the Jacobian is exact (no finite
  differences): entry by entry, the derivative of a product of
  probabilities is the product of the others.
* :func:`newton` solves ``F = 0`` at fixed parameters.
* :func:`continue_branch` follows a curve ``F(x, lam) = 0`` by arc-length
  continuation with the seed's adaptive steps (eq. 7 and the paragraph after
  it); ``lam`` is the parameter ``t`` at fixed ``epsilon``, or
  ``log(epsilon)`` at fixed ``t`` (used to start from a large ``epsilon``,
  where the solution is unique, and to follow it down to a small one).

Nothing here knows which game it is solving.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator, Mapping, Sequence

import numpy as np

from exactpoker.core.compiled import CompiledGame
from exactpoker.errors import DegenerateSystemError, InvalidGameError

__all__ = [
    "g",
    "g_prime",
    "GainSystem",
    "Regularised",
    "newton",
    "continue_branch",
    "trace_epsilon",
]


def g(y: np.ndarray) -> np.ndarray:
    """The seed's regularising function ``1/2 + arctan(y)/pi`` (eq. 4)."""
    return 0.5 + np.arctan(y) / np.pi


def g_prime(y: np.ndarray) -> np.ndarray:
    """``g'(y) = 1 / (pi (1 + y^2))``."""
    return 1.0 / (np.pi * (1.0 + y * y))


def _aligned(games: Sequence[CompiledGame]) -> tuple[np.ndarray, list[np.ndarray]]:
    """The union of the games' sequence tuples and each game's coefficients on it (as floats)."""
    keys = [np.ascontiguousarray(gm.sequences).view([("", np.int64)] * gm.sequences.shape[1]).ravel() for gm in games]
    union = np.unique(np.concatenate(keys))
    tables = []
    for gm, key in zip(games, keys):
        table = np.zeros((len(union), gm.num_players))
        table[np.searchsorted(union, key)] = gm.coefficients.astype(float) / gm.denominator
        tables.append(table)
    sequences = union.view(np.int64).reshape(len(union), -1)
    return sequences, tables


@dataclass
class GainSystem:
    """Counterfactual gains ``f(x, t)`` of a game with payoffs affine in a parameter ``t``.

    Build it with :meth:`from_games` from the compiled game at two values of
    the parameter.  Variables are numbered over all players' information sets
    (player by player, in each layout's information-set order); ``fixed``
    pins some of them (e.g. dominated choices) and the rest are *free*.
    """

    sequences: np.ndarray  # (E, players)
    base: np.ndarray  # (E, players): payoff coefficients at t = 0
    slope: np.ndarray  # (E, players): their derivative in t
    var_of_sequence: list[np.ndarray]  # per player: (sequences, depth) variables on each sequence's path
    paths: list[tuple[np.ndarray, np.ndarray]]  # per player: (E, depth) variables and actions, -1 padded
    num_vars: int
    fixed: dict[int, float] = field(default_factory=dict)
    offsets: tuple[int, ...] = ()

    @classmethod
    def from_games(
        cls, first: tuple[float, CompiledGame], second: tuple[float, CompiledGame], fixed: Mapping[int, float] | None = None
    ) -> "GainSystem":
        """The system of a game whose payoffs are affine in ``t``, from its compiled form at two ``t``."""
        (t0, g0), (t1, g1) = first, second
        if t0 == t1:
            raise InvalidGameError("GainSystem.from_games(): need two different parameter values")
        for layout in g0.layouts:
            if any(len(a) != 2 for a in layout.actions):
                raise InvalidGameError("GainSystem: every information set must have exactly two actions")
        sequences, (c0, c1) = _aligned([g0, g1])
        slope = (c1 - c0) / (t1 - t0)
        base = c0 - t0 * slope
        offsets, total = [], 0
        tables, paths = [], []
        for p, layout in enumerate(g0.layouts):
            offsets.append(total)
            # each sequence's path of (variable, action), root first
            path_of: list[list[tuple[int, int]]] = [[] for _ in range(layout.num_sequences)]
            for infoset in range(layout.num_infosets):
                parent = layout.parent_sequence(infoset)
                for a, s in enumerate(layout.infoset_sequences(infoset)):
                    path_of[s] = path_of[parent] + [(total + infoset, a)]
            depth = max(len(steps) for steps in path_of)
            var = -np.ones((layout.num_sequences, depth), dtype=np.int64)
            act = np.zeros((layout.num_sequences, depth), dtype=np.int64)
            for s, steps in enumerate(path_of):
                for d, (v, a) in enumerate(steps):
                    var[s, d], act[s, d] = v, a
            tables.append(var)
            paths.append((var[sequences[:, p]], act[sequences[:, p]]))
            total += layout.num_infosets
        return cls(sequences, base, slope, tables, paths, total, dict(fixed or {}), tuple(offsets))

    # -- variables -------------------------------------------------------------------------

    @property
    def free(self) -> np.ndarray:
        """Indices of the free variables."""
        return np.array([k for k in range(self.num_vars) if k not in self.fixed], dtype=np.int64)

    def full(self, free_values: np.ndarray) -> np.ndarray:
        """All variables from the free ones (fixed ones at their values)."""
        x = np.empty(self.num_vars)
        x[self.free] = free_values
        for k, v in self.fixed.items():
            x[k] = v
        return x

    # -- evaluation ------------------------------------------------------------------------

    def _factors(self, x: np.ndarray) -> list[np.ndarray]:
        """Per player, the probability of each step of the entries' paths (1 where padded)."""
        out = []
        for var, act in self.paths:
            prob = np.where(var >= 0, np.where(act == 1, x[np.maximum(var, 0)], 1 - x[np.maximum(var, 0)]), 1.0)
            out.append(prob)
        return out

    def payoffs(self, x: np.ndarray, t: float) -> np.ndarray:
        """Every player's expected payoff at ``x`` (all variables) and ``t``."""
        weight = np.ones(len(self.base))
        for prob in self._factors(x):
            weight = weight * prob.prod(axis=1)
        return (self.base + t * self.slope).T @ weight

    def gains(self, x: np.ndarray, t: float, *, jacobian: bool = False, slope_only: bool = False
              ) -> tuple[np.ndarray, np.ndarray | None]:
        """``f(x, t)`` over all variables and, if asked, ``df/dx`` (num_vars x num_vars).

        ``slope_only`` evaluates with the payoffs' derivative in ``t``
        instead, which gives ``df/dt`` (the payoffs are affine in ``t``).
        """
        n = self.num_vars
        coef = self.slope if slope_only else self.base + t * self.slope
        factors = self._factors(x)
        players = len(self.paths)
        f = np.zeros(n)
        J = np.zeros(n * n) if jacobian else None
        for i in range(players):
            var_i, act_i = self.paths[i]
            others = np.ones(len(coef))
            for q in range(players):
                if q != i:
                    others = others * factors[q].prod(axis=1)
            depth = var_i.shape[1]
            for dk in range(depth):
                k = var_i[:, dk]
                here = k >= 0
                sign = np.where(act_i[:, dk] == 1, 1.0, -1.0)
                below = factors[i][:, dk + 1:].prod(axis=1)
                weight = coef[:, i] * sign * below * others
                f += np.bincount(k[here], weight[here], minlength=n)
                if J is None:
                    continue
                # the factors of this term: own steps below dk and every step of the others
                terms = [(i, d) for d in range(dk + 1, depth)] + [
                    (q, d) for q in range(players) if q != i for d in range(self.paths[q][0].shape[1])
                ]
                for q, d in terms:
                    var_q, act_q = self.paths[q]
                    l = var_q[:, d]
                    use = here & (l >= 0)
                    rest = coef[:, i] * sign
                    for q2, d2 in terms:
                        if (q2, d2) != (q, d):
                            rest = rest * factors[q2][:, d2]
                    dsign = np.where(act_q[:, d] == 1, 1.0, -1.0)
                    J += np.bincount(k[use] * n + l[use], (rest * dsign)[use], minlength=n * n)
        return f, (None if J is None else J.reshape(n, n))


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
        f, J = s.gains(x, t, jacobian=True)
        y = f[free] / eps
        gp = g_prime(y)
        F = g(y) - xf
        Jx = (gp / eps)[:, None] * J[np.ix_(free, free)] - np.eye(len(free))
        if self.parameter == "t":
            ft, _ = s.gains(x, t, slope_only=True)
            Jl = gp / eps * ft[free]
        else:
            Jl = -gp * y
        return F, np.column_stack([Jx, Jl])


def newton(fun: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], X: np.ndarray, *, extra=None,
           tol: float = 1e-11, max_iter: int = 30) -> np.ndarray:
    """Newton's method on ``fun`` (square, or with one ``extra`` linear row ``(a, b)``: ``a.X = b``).

    ``fun(X)`` returns ``(F, J)``.  Without ``extra`` the last entry of ``X``
    (the parameter) is held fixed.  Raises :class:`DegenerateSystemError`
    when it does not converge.
    """
    X = np.array(X, dtype=float)
    for _ in range(max_iter):
        F, J = fun(X)
        if np.max(np.abs(F)) < tol * 1e-3 and extra is None:
            return X
        if extra is None:
            A, rhs = J[:, :-1], -F
        else:
            a, b = extra
            A = np.vstack([J, a])
            rhs = -np.append(F, a @ X - b)
        try:
            step = np.linalg.solve(A, rhs)
        except np.linalg.LinAlgError:
            raise DegenerateSystemError("newton(): singular Jacobian") from None
        if extra is None:
            X[:-1] += step
        else:
            X += step
        if not np.all(np.isfinite(X)):
            break
        if np.max(np.abs(step)) < tol:
            return X
    raise DegenerateSystemError("newton(): no convergence")


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
) -> Iterator[np.ndarray]:
    """Arc-length continuation of ``fun(X) = 0`` from two solutions (seed 003, eq. 7).

    Each step solves ``fun(X) = 0`` with ``(X - X_i) . T = delta`` (``T`` the
    unit secant of the last step) by :func:`newton`, from a quadratic
    extrapolation of the last three solutions.  ``delta`` shrinks (halves)
    when Newton fails or the step is longer than ``max(1.05 delta,
    1e-3 eps)``, and grows by 10% otherwise, up to ``delta_max``.  Yields
    each new solution until ``stop(X)`` is true.
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
                X = newton(fun, guess, extra=(T, T @ Xi + delta))
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
        delta = min(delta * 1.1, delta_max)


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


def trace_epsilon(system: GainSystem, t: float, *, eps_start: float = 1.0, eps_end: float = 1e-7,
                  x0: np.ndarray | None = None) -> np.ndarray:
    """A solution of the regularised system at ``eps_end``, followed down from ``eps_start``.

    At a large ``eps`` the solution is near ``1/2`` and Newton finds it; the
    curve of solutions is then followed by arc-length continuation in
    ``log(eps)`` (it may fold) until ``eps`` reaches ``eps_end``.  Returns the
    free variables there (or, if Newton cannot land exactly on ``eps_end``,
    at the first point past it).
    """
    reg = Regularised(system, t, eps_start, "log_eps")
    n = len(system.free)
    x = np.full(n, 0.5) if x0 is None else np.array(x0, float)
    start = newton(reg.residual, np.append(x, np.log(eps_start)))
    second = newton(reg.residual, np.append(start[:-1], np.log(eps_start) - 1e-3))
    target = np.log(eps_end)
    previous, last = start, second
    for X in continue_branch(reg.residual, start, second, lambda X: X[-1] <= target, eps=eps_end, delta=1e-2,
                             delta_max=1.0):
        previous, last = last, X
    # land on eps_end: interpolate between the last two points, then Newton at fixed eps
    share = (target - previous[-1]) / (last[-1] - previous[-1]) if last[-1] != previous[-1] else 1.0
    guess = previous + share * (last - previous)
    guess[-1] = target
    try:
        return newton(reg.residual, guess)[:-1]
    except DegenerateSystemError:
        return last[:-1]
