"""From an approximate equilibrium to the exact support's float solution: threshold, complete, Newton.

Seed 003's condition (1) asks of every two-action variable ``x_k`` (the probability of the last action at
information set ``k``) with counterfactual gain ``f_k``: ``f_k = 0``, or ``f_k < 0`` and ``x_k = 0``, or
``f_k > 0`` and ``x_k = 1``.  A regret minimiser's average play (:mod:`exactpoker.solve.nplayer.regret`) is
close to an equilibrium in payoff, not variable by variable: it keeps tiny probabilities on actions an
equilibrium never plays, and plays at random at information sets its own play (almost) never reaches, whose
counterfactual gains weigh nothing in its regrets.  :func:`polish` turns it into a float solution of
condition (1) on a support the exact finish can solve:

1. **threshold** -- probabilities below ``threshold`` (or above ``1 - threshold``) are set at 0 (1): the
   purification of Ganzfried, Sandholm and Waugh ("Strategy purification and thresholding", AAMAS 2012).
   Much of the tree is then exactly unreached by the others: those information sets' gains vanish
   identically and they are *pinned* (any play there is optimal);
2. **complete** -- at every information set the player's own play never reaches, the player plays a best
   response by backward induction against the others (:func:`complete`): nobody else is affected, and every
   deviation there is then valued at its best;
3. **Newton** -- the gains of the variables left strictly inside ``(0, 1)`` (reached by both sides) are
   driven to zero by Newton's method on that support (sparse Jacobian,
   :meth:`~exactpoker.core.sequence_walk.SequenceWalk.jacobian`; SuperLU on a structurally nonsingular
   square part; a family's free directions stay where they are).  A variable pushed out of ``(0, 1)`` goes to
   that end, a variable at an end whose gain has the wrong sign comes inside, and steps 2-3 repeat.

When the polish gives up, its error names the last support's structure (:func:`support_structure`): how many
of its mixed choices are *free* (a family's directions: their gains vanish and move with no mixed choice) and
the rank of the others' Jacobian -- a family, or a system with no solution on that support.

Floating point only: the point is a guide for the exact finish (:func:`exactpoker.solve.nplayer.finish.solve_exact`),
which the regret route (:mod:`exactpoker.solve.nplayer.regret_route`) calls only when :func:`polish` settles.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from exactpoker import progress
from exactpoker.blas import one_thread
from exactpoker.core.sequence_walk import SequenceWalk
from exactpoker.errors import DegenerateSystemError
from exactpoker.lazy import lazy

sparse_linalg = lazy("scipy.sparse.linalg")
scipy_sparse = lazy("scipy.sparse")

__all__ = ["SupportPoint", "SupportStructure", "payoff_mass", "own_reach", "complete", "polish", "support_structure",
           "THRESHOLD"]

#: The purification threshold tried first (probabilities below it are set at 0).
THRESHOLD = 0.01
#: A scaled gain (gain over the payoff mass below) this small counts as zero in floating point.
ZERO = 1e-12
#: An interior variable whose scaled gain is this large goes to the end its gain prefers before Newton's method.
SNAP = 0.05
#: Rounds in a row without fewer misread variables after which :func:`polish` gives up (a support far off).
STALL = 3
#: Relative singular-value tolerance of :func:`support_structure`'s rank.
RANK_TOL = 1e-10
#: Most mixed variables whose rank :func:`support_structure` computes (a dense SVD; beyond, only free ones counted).
RANK_LIMIT = 1500


@dataclass(frozen=True)
class SupportPoint:
    """A float solution of condition (1): ``x`` (every variable), the variables at 0, at 1, interior (the
    indifference system's unknowns) and pinned (unreached by the others), the largest scaled gain of an
    interior variable ``residual`` and the Newton steps taken."""

    x: np.ndarray
    zeros: tuple[int, ...]
    ones: tuple[int, ...]
    interior: tuple[int, ...]
    pinned: tuple[int, ...]
    residual: float
    steps: int


def payoff_mass(walk: SequenceWalk, x: np.ndarray) -> np.ndarray:
    """Per variable, the absolute payoff weight the others' play sends below its information set (0 exactly
    when they never reach it: a product with a factor exactly 0)."""
    pis = walk.behaviour_of(x)
    reaches = [walk.realization(p, pi) for p, pi in enumerate(pis)]
    weights = walk.entry_weights(reaches) * np.abs(walk.coefficients)
    out = []
    for p in range(walk.num_players):
        c = np.bincount(walk.sequences[:, p], weights=weights[:, p], minlength=walk.sizes[p])
        v, _worth = walk.action_values(p, c, np.ones(walk.sizes[p]))  # every own continuation counted in full
        firsts = walk.firsts(p)
        out.append(v[firsts] + v[firsts + 1])
    return np.concatenate(out) if out else np.zeros(0)


def own_reach(walk: SequenceWalk, x: np.ndarray) -> np.ndarray:
    """Per variable, its owner's own probability of reaching its information set."""
    out = []
    for p, pi in enumerate(walk.behaviour_of(x)):
        out.append(walk.realization(p, pi)[walk.trees[p].parents])
    return np.concatenate(out) if out else np.zeros(0)


def complete(walk: SequenceWalk, x: np.ndarray) -> np.ndarray:
    """``x`` with a best response (backward induction, ties kept) at every information set its owner's own
    play never reaches; the others' play is unchanged, so nobody else's values move."""
    x = x.copy()
    pis = walk.behaviour_of(x)
    reaches = [walk.realization(p, pi) for p, pi in enumerate(pis)]
    values = walk.sequence_values(reaches)
    for p, tree in enumerate(walk.trees):
        pi, v = pis[p], np.array(values[p])
        firsts = walk.firsts(p)
        unreached = reaches[p][tree.parents] == 0.0
        for infosets, sequences, starts in tree.levels:  # deepest first: the continuation below is done
            first, last = firsts[infosets], firsts[infosets] + 1
            gain = v[last] - v[first]
            mine = unreached[infosets]
            choice = np.where(gain > 0, 1.0, np.where(gain < 0, 0.0, pi[last]))
            pi[last] = np.where(mine, choice, pi[last])
            pi[first] = 1.0 - pi[last]
            worth = pi[first] * v[first] + pi[last] * v[last]
            v += np.bincount(tree.parents[infosets], weights=worth, minlength=walk.sizes[p])
        x[walk.offsets[p]:walk.offsets[p + 1]] = pi[firsts + 1]
    return x


@dataclass(frozen=True)
class SupportStructure:
    """Why an indifference system on a support is not square and regular: of its ``mixed`` variables, the
    ``free`` ones have a scaled gain and a Jacobian row and column on the support that vanish (any value of theirs is as
    good and moves no other mixed gain: directions of a family of equilibria), and the Jacobian of the others has
    numerical ``rank`` (``None`` above :data:`RANK_LIMIT` variables)."""

    mixed: int
    free: tuple[int, ...]
    rank: int | None

    def __str__(self) -> str:
        rank = "rank not computed" if self.rank is None else f"rank {self.rank}"
        return f"{self.mixed} mixed: {len(self.free)} free, {rank} of the other {self.mixed - len(self.free)}"


def support_structure(walk: SequenceWalk, x: np.ndarray, interior: np.ndarray) -> SupportStructure:
    """The structure of the indifference system of the ``interior`` variables at ``x`` (:class:`SupportStructure`):
    gains and Jacobian rows scaled by the payoff mass (:func:`payoff_mass`), zero up to :data:`ZERO`; the rank by
    singular values above :data:`RANK_TOL` times the largest."""
    interior = np.asarray(interior, dtype=np.int64)
    mass = payoff_mass(walk, x)[interior]
    scale = np.where(mass > 0, mass, 1.0)
    f, jacobian = walk.jacobian(x, interior, interior)
    scaled = (scipy_sparse.diags(1.0 / scale) @ jacobian).tocsr()
    size = abs(scaled)
    rows, columns = (np.asarray(size.max(axis=a).todense()).ravel() if len(interior) else np.zeros(0) for a in (1, 0))
    free = (rows <= ZERO) & (columns <= ZERO) & (np.abs(f[interior]) <= ZERO * scale)
    rest = np.flatnonzero(~free)
    rank = None
    if len(rest) <= RANK_LIMIT:
        values = np.linalg.svd(scaled[rest][:, rest].toarray(), compute_uv=False) if len(rest) else np.zeros(0)
        rank = int(np.sum(values > RANK_TOL * values[0])) if len(values) else 0
    return SupportStructure(len(interior), tuple(int(k) for k in interior[free]), rank)


@dataclass
class _State:
    """The support at ``x``: scaled gains, and the variables at 0, at 1, interior, pinned (unreached by the
    others) and unreached by their owner."""

    x: np.ndarray
    mass: np.ndarray
    scaled: np.ndarray
    interior: np.ndarray
    wrong: np.ndarray

    @classmethod
    def of(cls, walk: SequenceWalk, x: np.ndarray, free: np.ndarray) -> "_State":
        mass = payoff_mass(walk, x)
        f = walk.gains(x)
        scaled = np.where(mass > 0, f / np.where(mass > 0, mass, 1.0), 0.0)
        live = free[(mass[free] > 0.0) & (own_reach(walk, x)[free] > 0.0)]
        interior = live[(x[live] > 0.0) & (x[live] < 1.0)]
        wrong = live[((x[live] == 0.0) & (scaled[live] > ZERO)) | ((x[live] == 1.0) & (scaled[live] < -ZERO))]
        return cls(x, mass, scaled, interior, wrong)

    @property
    def residual(self) -> float:
        """The largest scaled gain of an interior variable."""
        return float(np.max(np.abs(self.scaled[self.interior]), initial=0.0))

    @property
    def merit(self) -> float:
        """The Euclidean norm of the interior variables' scaled gains (the line search's measure)."""
        return float(np.linalg.norm(self.scaled[self.interior]))


@one_thread()
def polish(walk: SequenceWalk, x0: np.ndarray, *, threshold: float = THRESHOLD, fixed: dict[int, float] | None = None,
           rounds: int = 12, steps: int = 30) -> SupportPoint:
    """A float solution of condition (1) near ``x0`` (module docstring: threshold, complete, Newton).

    ``fixed`` variables keep their values (e.g. dominated choices at 0).  Raises
    :class:`~exactpoker.errors.DegenerateSystemError` when no solution is reached in ``rounds`` rounds of at
    most ``steps`` Newton steps, or when :data:`STALL` rounds in a row misread no fewer variables (ends of the
    wrong sign, interior ones pushed out) than the best round so far, nor as many with half its residual.
    """
    fixed = dict(fixed or {})
    keys = np.array(sorted(fixed), dtype=np.int64)
    x = np.clip(np.asarray(x0, dtype=float), 0.0, 1.0)
    x = np.where(x < threshold, 0.0, np.where(x > 1.0 - threshold, 1.0, x))
    x[keys] = [fixed[k] for k in keys]
    free = np.setdiff1d(np.arange(len(x)), keys)
    progress.stage("float guide: the support's indifference system by Newton's method", unit="steps")
    taken, best, stale = 0, (len(x) + 1, np.inf), 0
    for played in range(1, rounds + 1):
        state = _State.of(walk, complete(walk, x), free)
        far = state.interior[np.abs(state.scaled[state.interior]) > SNAP]
        if len(far):  # clearly not indifferent: the end its gain prefers
            x = state.x.copy()
            x[far] = np.where(state.scaled[far] > 0, 1.0, 0.0)
            state = _State.of(walk, complete(walk, x), free)
        state, used = _newton(walk, state, free, steps)
        taken += used
        x = state.x
        outside = state.interior[(x[state.interior] <= 0.0) | (x[state.interior] >= 1.0)]
        if not len(outside) and not len(state.wrong) and state.residual <= ZERO:
            x = complete(walk, x)
            final = _State.of(walk, x, free)
            if not len(final.wrong) and final.residual <= ZERO:
                return _point(walk, final, free, taken)
        measure = (len(state.wrong) + len(outside), state.residual)  # misread variables, then the residual
        best, stale = (measure, 0) if measure[0] < best[0] or (measure[0] == best[0] and measure[1] < best[1] / 2) \
            else (best, stale + 1)
        if stale >= STALL:
            break
        x = np.clip(x, 0.0, 1.0)
        # a variable at an end whose gain has the wrong sign comes inside, next to that end
        x[state.wrong] = np.where(x[state.wrong] == 0.0, threshold, 1.0 - threshold)
    raise DegenerateSystemError(f"the polish stopped after {played} rounds ({len(state.wrong)} ends misread, "
                                f"largest scaled gain {state.residual:.1e}; "
                                f"{support_structure(walk, state.x, state.interior)})")


def _newton(walk: SequenceWalk, state: _State, free: np.ndarray, steps: int) -> tuple[_State, int]:
    """Newton's method on the interior gains of ``state``'s support, damped on their largest scaled value."""
    for step in range(steps):
        if state.residual <= ZERO or not len(state.interior):
            return state, step
        interior = state.interior
        f, jacobian = walk.jacobian(state.x, interior, interior)
        dx = _solve(jacobian, -f[interior])
        t = 1.0
        while True:
            x = state.x.copy()
            x[interior] += t * dx
            if np.any((x[interior] < 0.0) | (x[interior] > 1.0)) and t > 1e-3:
                t /= 2
                continue
            trial = _State.of(walk, np.clip(x, 0.0, 1.0), free)
            if trial.merit < state.merit or t <= 1e-3:
                break
            t /= 2
        if t <= 1e-3 and trial.merit >= state.merit:
            return trial, step + 1
        state = trial
        progress.advance()
    return state, steps


def _solve(matrix, rhs: np.ndarray) -> np.ndarray:
    """The Newton step: SuperLU on a structurally nonsingular square part (a maximum matching of rows and
    columns; unmatched columns stay, unmatched rows wait), least squares (LSMR) if that part is singular."""
    from scipy.sparse.csgraph import maximum_bipartite_matching

    matrix = matrix.tocsr()
    match = maximum_bipartite_matching(matrix, perm_type="column")  # row i -> its column, or -1
    rows = np.flatnonzero(match >= 0)
    columns = match[rows]
    step = np.zeros(matrix.shape[1])
    if not len(rows):
        return step
    try:
        step[columns] = sparse_linalg.splu(matrix[rows][:, columns].tocsc()).solve(rhs[rows])
    except RuntimeError:  # exactly singular: the least-squares step
        step = sparse_linalg.lsmr(matrix, rhs, atol=1e-15, btol=1e-15)[0]
    return step


def _point(walk: SequenceWalk, state: _State, free: np.ndarray, steps: int) -> SupportPoint:
    x = state.x
    pinned = free[state.mass[free] == 0.0]
    live = free[state.mass[free] > 0.0]
    return SupportPoint(x, tuple(int(k) for k in live if x[k] == 0.0), tuple(int(k) for k in live if x[k] == 1.0),
                        tuple(int(k) for k in live if 0.0 < x[k] < 1.0), tuple(int(k) for k in pinned),
                        state.residual, steps)
