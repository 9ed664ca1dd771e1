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
  probabilities is the product of the others.  Which products go where is
  worked out once per game; an evaluation (``f``, ``df/dx`` and ``df/dt``
  together, :meth:`GainSystem.evaluate`) is a few vectorised products and
  two sparse matrix-vector products.
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

from exactpoker import progress
from exactpoker.core.compiled import CompiledGame, SequenceLayout
from exactpoker.errors import DegenerateSystemError, InvalidGameError
from exactpoker.lazy import lazy

scipy = lazy("scipy")
sparse_linalg = lazy("scipy.sparse.linalg")

__all__ = [
    "g",
    "g_prime",
    "GainSystem",
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
    "sequence_depths",
    "guide_terms",
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


def _aligned(games: Sequence[CompiledGame]) -> tuple[np.ndarray, list[np.ndarray]]:
    """The union of the games' sequence tuples and each game's coefficients on it (as floats)."""
    keys = [np.ascontiguousarray(gm.sequences).view([("", np.int64)] * gm.sequences.shape[1]).ravel() for gm in games]
    union = np.unique(np.concatenate(keys))
    tables = []
    for gm, key in zip(games, keys):
        table = np.zeros((len(union), gm.num_players))
        table[np.searchsorted(union, key)] = gm.coefficients.astype(float) / gm.denominator
        tables.append(table)
    sequences = union.view(np.int64).reshape(len(union), games[0].sequences.shape[1])
    return sequences, tables


@dataclass
class _Slot:
    """One step of the entries' paths, ``(player, depth)``: its variable and action sign in every entry."""

    player: int
    depth: int
    var: np.ndarray  # (E,) the variable at this step, -1 where the path is shorter
    sign: np.ndarray  # (E,) +1 for the aggressive action, -1 for the passive one


@dataclass
class _Term:
    """The part of ``f`` (one own step) or of ``df/dx`` (one own step, one other factor) of every entry.

    ``product`` are the slots whose probabilities multiply; ``index`` the
    variable (for ``f``) or flat ``(k, l)`` position (for the Jacobian) each
    entry adds to (a spare last position where a variable does not exist);
    ``base`` and ``slope`` the owner's payoff coefficients times the signs.
    """

    product: tuple[int, ...]
    index: np.ndarray
    base: np.ndarray
    slope: np.ndarray


@dataclass
class GainSystem:
    """Counterfactual gains ``f(x, t)`` of a game with payoffs affine in a parameter ``t``.

    Build it with :meth:`from_games` from the compiled game at two values of
    the parameter.  Variables are numbered over all players' information sets
    (player by player, in each layout's information-set order); ``fixed``
    pins some of them (e.g. dominated choices) and the rest are *free*.

    Every payoff entry is a product of one probability per *slot* (a step of
    a player's path to it).  The gain at an own step is the entry's
    coefficient times the product over the slots outside the step and its
    ancestors, and its derivative in another variable drops that variable's
    slot too; the index sets of all these terms are computed once, so an
    evaluation is a few vectorised products and one ``bincount``.
    """

    sequences: np.ndarray  # (E, players)
    base: np.ndarray  # (E, players): payoff coefficients at t = 0
    slope: np.ndarray  # (E, players): their derivative in t
    slots: list[_Slot]
    num_vars: int
    fixed: dict[int, float] = field(default_factory=dict)
    offsets: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        n = self.num_vars
        var = np.stack([s.var for s in self.slots], axis=1)  # (E, D)
        # each step's probability is z[_pick] with z = (1 - x_0, x_0, 1 - x_1, x_1, ..., 1)
        self._pick = np.where(var < 0, 2 * n, 2 * var + (np.stack([s.sign for s in self.slots], axis=1) > 0))
        self._free = np.array([k for k in range(n) if k not in self.fixed], dtype=np.int64)
        self._fixed_keys = np.array(sorted(self.fixed), dtype=np.int64)
        self._fixed_values = np.array([self.fixed[k] for k in sorted(self.fixed)], dtype=float)
        self._gain_terms: list[_Term] = []
        self._jacobian_terms: list[_Term] = []
        for a, own in enumerate(self.slots):
            # the slots of an entry's weight seen from own step a: all but a and its ancestors
            keep = tuple(b for b, s in enumerate(self.slots) if s.player != own.player or s.depth > own.depth)
            k = np.where(own.var >= 0, own.var, n)
            base, slope = self.base[:, own.player] * own.sign, self.slope[:, own.player] * own.sign
            self._gain_terms.append(_Term(keep, k, base, slope))
            for b in keep:
                other = self.slots[b]
                index = np.where((own.var >= 0) & (other.var >= 0), k * (n + 1) + other.var, (n + 1) ** 2 - 1)
                self._jacobian_terms.append(_Term(tuple(c for c in keep if c != b), index, base * other.sign,
                                                  slope * other.sign))
        # sum the terms' values into f (and df/dt) and df/dx: sparse 0/1 matrices, built once
        self._gain_sum = _summation(self._gain_terms, n)
        self._gain_base = np.concatenate([term.base for term in self._gain_terms])
        self._gain_slope = np.concatenate([term.slope for term in self._gain_terms])
        # only the (k, l) positions some term reaches: the Jacobian of a large game is sparse
        summation = _summation(self._jacobian_terms, (n + 1) ** 2 - 1)
        self._jacobian_positions = np.flatnonzero(np.diff(summation.indptr))
        self._jacobian_sum = summation[self._jacobian_positions]
        self._jacobian_base = np.concatenate([term.base for term in self._jacobian_terms])
        self._jacobian_slope = np.concatenate([term.slope for term in self._jacobian_terms])
        # work space, reused: large temporaries are otherwise mapped and unmapped at every evaluation
        self._gain_work = np.empty((2, len(self._gain_base)))
        self._jacobian_work = np.empty((2, len(self._jacobian_base)))
        self._at_t: tuple[float, np.ndarray, np.ndarray] | None = None

    @classmethod
    def from_game(cls, game: CompiledGame, fixed: Mapping[int, float] | None = None) -> "GainSystem":
        """The system of one game (no parameter: ``t`` is ignored)."""
        return cls.from_games((0.0, game), (1.0, game), fixed)

    @classmethod
    def from_games(
        cls, first: tuple[float, CompiledGame], second: tuple[float, CompiledGame], fixed: Mapping[int, float] | None = None
    ) -> "GainSystem":
        """The system of a game whose payoffs are affine in ``t``, from its compiled form at two ``t``."""
        (t0, g0), (t1, g1) = first, second
        if t0 == t1:
            raise InvalidGameError("GainSystem.from_games(): need two different parameter values")
        for layout in g0.layouts:
            if any(len(layout.infoset_actions(i)) != 2 for i in range(layout.num_infosets)):
                raise InvalidGameError("GainSystem: every information set must have exactly two actions")
        sequences, (c0, c1) = _aligned([g0, g1])
        slope = (c1 - c0) / (t1 - t0)
        base = c0 - t0 * slope
        offsets, total = [], 0
        slots = []
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
            for d in range(depth):
                slots.append(_Slot(p, d, var[sequences[:, p], d], np.where(act[sequences[:, p], d] == 1, 1.0, -1.0)))
            total += layout.num_infosets
        return cls(sequences, base, slope, slots, total, dict(fixed or {}), tuple(offsets))

    @property
    def terms(self) -> int:
        """The products one evaluation computes (gains and Jacobian): :func:`guide_terms` before it is built."""
        return len(self._gain_base) + len(self._jacobian_base)

    @property
    def jacobian_density(self) -> float:
        """The share of ``df/dx``'s entries that some term reaches (its structural non-zeros)."""
        return len(self._jacobian_positions) / max(self.num_vars, 1) ** 2

    # -- variables -------------------------------------------------------------------------

    @property
    def free(self) -> np.ndarray:
        """Indices of the free variables."""
        return self._free

    def full(self, free_values: np.ndarray) -> np.ndarray:
        """All variables from the free ones (fixed ones at their values)."""
        x = np.empty(self.num_vars)
        x[self._free] = free_values
        x[self._fixed_keys] = self._fixed_values
        return x

    # -- evaluation ------------------------------------------------------------------------

    def _factors(self, x: np.ndarray) -> np.ndarray:
        """``(E, slots)``: the probability of each step of the entries' paths (1 where padded)."""
        z = np.empty(2 * self.num_vars + 1)
        z[0:-1:2], z[1::2], z[-1] = 1.0 - x, x, 1.0
        return z[self._pick]

    def payoffs(self, x: np.ndarray, t: float) -> np.ndarray:
        """Every player's expected payoff at ``x`` (all variables) and ``t``."""
        weight = self._factors(x).prod(axis=1)
        return (self.base + t * self.slope).T @ weight

    def evaluate(self, x: np.ndarray, t: float, *, jacobian: bool = True, sparse: bool = False
                 ) -> tuple[np.ndarray, "np.ndarray | scipy.sparse.csr_matrix | None", np.ndarray]:
        """``f(x, t)``, ``df/dx`` (num_vars x num_vars, if asked) and ``df/dt``, all variables, in one pass.

        ``sparse`` gives ``df/dx`` as a CSR matrix (its structural non-zeros
        only): the guide of a large game (three-player Leduc) solves with it.
        """
        n = self.num_vars
        gain_coefficients, jacobian_coefficients = self._coefficients(t)
        columns = self._factors(x).T.copy()
        weight, value = _products(columns, self._gain_terms, self._gain_work)
        ft = self._gain_sum @ np.multiply(self._gain_slope, weight, out=value)
        f = self._gain_sum @ np.multiply(gain_coefficients, weight, out=value)
        if not jacobian:
            return f, None, ft
        weight, value = _products(columns, self._jacobian_terms, self._jacobian_work)
        entries = self._jacobian_sum @ np.multiply(jacobian_coefficients, weight, out=value)
        rows, columns = np.divmod(self._jacobian_positions, n + 1)
        if sparse:
            return f, scipy.sparse.csr_matrix((entries, (rows, columns)), shape=(n, n)), ft
        J = np.zeros((n, n))
        J[rows, columns] = entries
        return f, J, ft

    def _coefficients(self, t: float) -> tuple[np.ndarray, np.ndarray]:
        """The gain and Jacobian terms' payoff coefficients at ``t``, kept for the last ``t`` (a trace in epsilon
        holds it fixed)."""
        if self._at_t is None or self._at_t[0] != t:
            self._at_t = (t, self._gain_base + t * self._gain_slope, self._jacobian_base + t * self._jacobian_slope)
        return self._at_t[1], self._at_t[2]

    def gains(self, x: np.ndarray, t: float, *, jacobian: bool = False, slope_only: bool = False
              ) -> tuple[np.ndarray, np.ndarray | None]:
        """``f(x, t)`` over all variables and, if asked, ``df/dx`` (num_vars x num_vars).

        ``slope_only`` returns ``df/dt`` instead of ``f`` (the payoffs are
        affine in ``t``).
        """
        f, J, ft = self.evaluate(x, t, jacobian=jacobian)
        return (ft if slope_only else f), J


def sequence_depths(layout: SequenceLayout) -> np.ndarray:
    """The number of choices on each sequence's path (0 for the empty sequence)."""
    depth = np.zeros(layout.num_sequences, dtype=np.int64)
    for infoset in range(layout.num_infosets):  # an information set comes after its parent sequence's
        depth[list(layout.infoset_sequences(infoset))] = depth[layout.parent_sequence(infoset)] + 1
    return depth


def guide_terms(game: CompiledGame) -> int:
    """How many products one evaluation of :class:`GainSystem` of ``game`` computes (gains and Jacobian).

    An entry's path has one slot a step of each player's longest path (``S``
    slots in all); the gain at own step ``a`` multiplies the slots kept from
    ``a`` and the Jacobian drops one more, so the Jacobian has
    ``sum_a keep(a)`` terms an entry.  The system holds about
    :data:`BYTES_PER_TERM` bytes a term: this is its size before it is built.
    """
    longest = [int(sequence_depths(layout).max()) for layout in game.layouts]
    slots = sum(longest)
    kept = sum(slots - depth - 1 for d in longest for depth in range(d))
    return len(game.sequences) * (slots + kept)


def _summation(terms: Sequence[_Term], size: int) -> "scipy.sparse.csr_matrix":
    """The 0/1 matrix adding the terms' entries (one after the other) into ``size`` positions.

    Entries whose ``index`` is ``size`` (a variable that does not exist) are dropped.
    """
    index = np.concatenate([term.index for term in terms])
    used = np.nonzero(index < size)[0]
    return scipy.sparse.csr_matrix((np.ones(len(used)), (index[used], used)), shape=(size, len(index)))


def _products(columns: np.ndarray, terms: Sequence[_Term], work: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each term's product of ``columns`` rows, one after the other in ``work[0]`` (``work[1]`` is left free)."""
    weight, size = work[0], columns.shape[1]
    for i, term in enumerate(terms):
        out = weight[i * size:(i + 1) * size]
        rows = term.product
        if not rows:
            out.fill(1.0)
        elif len(rows) == 1:
            out[:] = columns[rows[0]]
        else:
            np.multiply(columns[rows[0]], columns[rows[1]], out=out)
            for r in rows[2:]:
                out *= columns[r]
    return weight, work[1]


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
    """The Newton step: a dense LU solve, or SuperLU for a sparse ``A`` (:data:`SPARSE_SIZE`, :data:`SPARSE_DENSITY`)."""
    try:
        if scipy.sparse.issparse(A):
            return sparse_linalg.splu(scipy.sparse.csc_matrix(A)).solve(rhs)
        return np.linalg.solve(A, rhs)
    except (np.linalg.LinAlgError, RuntimeError):  # splu raises RuntimeError on a singular matrix
        raise DegenerateSystemError("newton(): singular Jacobian") from None


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
    Kuhn poker, :mod:`exactpoker.solve.nplayer`): :func:`trace_epsilon` down to
    the reliable epsilon, then on to ``eps``; a stiff fold below the reliable
    epsilon leaves the solution there as the guide.
    """
    return trace_down_trend(system, t, eps, eps_start=eps_start, x0=x0)[0]


@dataclass(frozen=True)
class Trend:
    """The float guide at a larger epsilon: ``x`` (every variable there), at ``factor`` times the guide's epsilon.

    How a gain changes between the two tells the exact finish where a
    variable goes in the limit (:func:`exactpoker.solve.support_solve.classify`).
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
