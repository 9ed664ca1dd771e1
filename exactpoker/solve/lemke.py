"""An equilibrium of any two-player game, exactly: Lemke's method on the sequence form.

Koller, Megiddo and von Stengel ("Efficient computation of equilibria for
extensive two-person games", Games and Economic Behavior 14, 1996, section 4)
write the equilibria of a two-player extensive game with perfect recall as the
solutions of a linear complementarity problem (LCP) of the size of the sequence
form, and solve it by Lemke's complementary pivoting (C. E. Lemke, "Bimatrix
equilibrium points and mathematical programming", Management Science 11, 1965).
With every leaf's payoff turned into a strictly positive *cost* (the payoffs
shifted by a constant per player, which changes no best response), a
realization plan ``x`` of player 1 and ``y`` of player 2 are an equilibrium iff,
with dual vectors ``p, q >= 0``,

.. math::

    w_1 = C y - E^T p \\ge 0,\\quad w_2 = D^T x - F^T q \\ge 0,\\quad
    w_3 = E x - e \\ge 0,\\quad w_4 = F y - f \\ge 0,

complementary to ``x, y, p, q`` (``C``, ``D``: the players' sequence-form costs;
``E x = e``, ``F y = f``: the realization-plan constraints, relaxed to ``>=``,
which positive costs make tight at every solution).  Lemke's method adds an
artificial variable ``z0`` along the covering vector of ones and pivots
complementarily until ``z0`` leaves the basis.

The path is first followed in floating point (:func:`_float_path`, fast);
its last basis is then solved exactly (:class:`~exactpoker.solve.sparse_exact.BlockTriangular`)
and kept if the exact basic solution is feasible -- it is then an exact
solution of the LCP, whatever rounding happened on the way.  Otherwise the
exact path is followed (:func:`lemke`): every pivot is exact, the tableau holds integers and is updated by
fraction-free (integer) pivoting, each division exact, so the basic solution is
``b / det`` with one common integer ``det``; ties in the ratio test are broken
lexicographically, so degenerate games terminate.  The realization plans found
are turned into behaviour strategies, and the dispatcher
(:func:`exactpoker.solve.dispatch.solve_compiled`) certifies them like every
answer.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from exactpoker import progress
from exactpoker.core.compiled import CompiledGame, SequenceLayout
from exactpoker.core.profile import BehaviourProfile
from exactpoker.core.tree import GameTree, Terminal, compile_tree, map_terminals
from exactpoker.errors import CertificationError, InvalidParameterError
from exactpoker.solve.sequence_form import realization_matrix

__all__ = ["solve_lemke", "lcp_of", "lemke", "MAX_LCP_SIZE", "MAX_FLOAT_SIZE", "MAX_PIVOTS"]

#: Largest LCP (rows) the exact integer tableau takes on when the float path's basis does not solve it.
MAX_LCP_SIZE = 400
#: Largest LCP (rows) the float path takes on.
MAX_FLOAT_SIZE = 6000
#: Most pivots before giving up (Lemke's method cannot cycle with the lexicographic rule; this bounds the time).
MAX_PIVOTS = 100_000


def _costs(compiled: CompiledGame) -> tuple[np.ndarray, np.ndarray]:
    """Both players' sequence-form costs (integers, dense), every leaf's cost strictly positive.

    Each player's payoffs are shifted to ``K - payoff`` with ``K`` one more than
    their largest leaf payoff; a constant per player changes no best response.
    """
    game = compiled.game
    if not isinstance(game, GameTree):
        raise InvalidParameterError(
            f"--method lemke: {game.name} is not a game tree (the card models of the papers are zero-sum: use --method lp)"
        )
    tops = [max(leaf.payoffs[p] for leaf in game.nodes() if isinstance(leaf, Terminal)) + 1 for p in (0, 1)]
    costs = compile_tree(map_terminals(game, lambda payoffs: tuple(top - v for top, v in zip(tops, payoffs))))
    if [layout.num_sequences for layout in costs.layouts] != [layout.num_sequences for layout in compiled.layouts]:
        raise CertificationError("--method lemke: the cost game does not have the game's sequences")  # pragma: no cover
    n1, n2 = (layout.num_sequences for layout in costs.layouts)
    first, second = np.zeros((n1, n2), dtype=object), np.zeros((n1, n2), dtype=object)
    for (s1, s2), (c1, c2) in zip(costs.sequences.tolist(), costs.coefficients.tolist()):
        first[s1, s2] += int(c1)
        second[s1, s2] += int(c2)
    return first, second


def _constraints(layout: SequenceLayout) -> np.ndarray:
    """``E`` of the realization plans (:func:`~exactpoker.solve.sequence_form.realization_matrix`), dense integers."""
    return realization_matrix(layout).toarray().astype(object)


def lcp_of(compiled: CompiledGame) -> tuple[np.ndarray, np.ndarray]:
    """``(M, q)`` of the sequence-form LCP ``w = q + M z`` with ``z = (x, y, p, q)`` (module docstring)."""
    C, D = _costs(compiled)
    E, F = (_constraints(layout) for layout in compiled.layouts)
    n1, n2, k1, k2 = C.shape[0], C.shape[1], E.shape[0], F.shape[0]
    n = n1 + n2 + k1 + k2
    M = np.zeros((n, n), dtype=object)
    x, y, p, q = slice(0, n1), slice(n1, n1 + n2), slice(n1 + n2, n1 + n2 + k1), slice(n1 + n2 + k1, n)
    M[x, y], M[x, p] = C, -E.T
    M[y, x], M[y, q] = D.T, -F.T
    M[p, x] = E
    M[q, y] = F
    rhs = np.zeros(n, dtype=object)
    rhs[p.start], rhs[q.start] = -1, -1
    return M, rhs


def lemke(M: np.ndarray, q: np.ndarray, max_pivots: int = MAX_PIVOTS) -> list[Fraction]:
    """A solution ``z`` of the LCP ``w = q + M z >= 0, z >= 0, w.z = 0`` by Lemke's method, exactly.

    Covering vector of ones; integer pivoting; lexicographic ratio test.

    Raises
    ------
    CertificationError
        On a secondary ray (no solution reached) or after ``max_pivots`` pivots.
    """
    n = len(q)
    # the tableau [I | -M | -d] (w, z, z0 columns) with right-hand side q; basic[i]: the column basic in row i
    tableau = np.concatenate([np.eye(n, dtype=int).astype(object), -M, -np.ones((n, 1), dtype=int).astype(object)],
                             axis=1)
    rhs = q.astype(object).copy()
    basic = list(range(n))
    det = 1
    z0 = 2 * n
    if all(v >= 0 for v in rhs):
        return [Fraction(0)] * n  # z = 0 solves it
    # z0 enters; the row whose w goes negative first leaves (the last of the tied rows: lexicographically feasible)
    low = min(rhs)
    row = max(i for i in range(n) if rhs[i] == low)
    entering = z0
    for _ in range(max_pivots):
        leaving = basic[row]
        tableau, rhs, det = _pivot(tableau, rhs, det, row, entering)
        basic[row] = entering
        if leaving == z0:
            z = [Fraction(0)] * n
            for i, column in enumerate(basic):
                if n <= column < 2 * n:
                    z[column - n] = Fraction(int(rhs[i]), int(det))
            return z
        entering = leaving + n if leaving < n else leaving - n  # the complement of the variable that left
        row = _ratio_test(tableau, rhs, entering, n)
        if row is None:
            raise CertificationError("Lemke's method ended on a secondary ray: no equilibrium reached from this start")
    raise CertificationError(f"Lemke's method took more than {max_pivots} pivots")


def _pivot(tableau: np.ndarray, rhs: np.ndarray, det: int, row: int, column: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Integer pivoting: every entry stays an integer (divisions by the previous determinant are exact)."""
    pivot = tableau[row, column]
    factors = tableau[:, column].copy()
    factors[row] = 0
    new = (tableau * pivot - np.outer(factors, tableau[row])) // det
    new[row] = tableau[row]
    new_rhs = (rhs * pivot - factors * rhs[row]) // det
    new_rhs[row] = rhs[row]
    if pivot < 0:  # keep the determinant positive, so a basic value is rhs / det with the sign of rhs
        new, new_rhs, pivot = -new, -new_rhs, -pivot
    return new, new_rhs, pivot


def _ratio_test(tableau: np.ndarray, rhs: np.ndarray, column: int, n: int) -> int | None:
    """The leaving row: least ``rhs_i / a_i`` over ``a_i > 0``, ties broken lexicographically on ``det B^-1``."""
    best: int | None = None
    for i in range(len(rhs)):
        a = tableau[i, column]
        if a <= 0:
            continue
        if best is None or _lex_less(tableau, rhs, i, best, column, n):
            best = i
    return best


def _lex_less(tableau: np.ndarray, rhs: np.ndarray, i: int, k: int, column: int, n: int) -> bool:
    ai, ak = tableau[i, column], tableau[k, column]
    left, right = rhs[i] * ak, rhs[k] * ai
    if left != right:
        return left < right
    for j in range(n):  # the columns of the initial basis (the w's) hold det * B^-1
        left, right = tableau[i, j] * ak, tableau[k, j] * ai
        if left != right:
            return left < right
    return False  # pragma: no cover - rows of B^-1 are independent


def _float_path(M: np.ndarray, q: np.ndarray, max_pivots: int = MAX_PIVOTS, tol: float = 1e-9) -> list[int] | None:
    """The basic columns (of ``[I | -M]``) where Lemke's path ends, followed in floating point; ``None`` if it fails.

    The same pivoting rule as :func:`lemke`, with tolerances: a guide only.
    """
    n = len(q)
    scale = np.abs(M).max(axis=1, keepdims=True)
    scale[scale == 0] = 1
    tableau = np.concatenate([np.eye(n), -M / scale, -np.ones((n, 1)) / scale], axis=1)
    tableau[:, :n] /= scale  # every row divided by its scale: the same equations
    rhs = q / scale[:, 0]
    basic = list(range(n))
    z0 = 2 * n
    row = max(range(n), key=lambda i: (-rhs[i], i))
    entering = z0
    for _ in range(max_pivots):
        leaving = basic[row]
        pivot = tableau[row, entering]
        tableau[row] /= pivot
        rhs[row] /= pivot
        factors = tableau[:, entering].copy()
        factors[row] = 0
        tableau -= np.outer(factors, tableau[row])
        rhs -= factors * rhs[row]
        basic[row] = entering
        if leaving == z0:
            return basic
        entering = leaving + n if leaving < n else leaving - n
        column = tableau[:, entering]
        rows = np.flatnonzero(column > tol)
        if not len(rows):
            return None
        ratios = rhs[rows] / column[rows]
        tied = rows[ratios <= ratios.min() + tol * (1 + abs(ratios.min()))]
        j = 0
        while len(tied) > 1 and j < n:  # lexicographic tie-break on B^-1
            values = tableau[tied, j] / column[tied]
            tied = tied[values <= values.min() + tol]
            j += 1
        row = int(tied[0])
    return None


def _exact_from_basis(M: np.ndarray, q: np.ndarray, basic: list[int]) -> list[Fraction] | None:
    """The exact basic solution of ``w - M z = q`` on ``basic`` if it is feasible (then it solves the LCP)."""
    from exactpoker.errors import DegenerateSystemError
    from exactpoker.solve.sparse_exact import BlockTriangular

    n = len(q)
    if any(column >= 2 * n for column in basic):
        return None
    columns: list[dict[int, object]] = []
    for column in basic:
        if column < n:
            columns.append({column: 1})
        else:
            entries = M[:, column - n]
            columns.append({i: -int(v) for i, v in enumerate(entries) if v})
    try:
        values = BlockTriangular(columns).solve([int(v) for v in q])
    except (DegenerateSystemError, ZeroDivisionError):
        return None
    z = [Fraction(0)] * n
    for column, value in zip(basic, values):
        value = Fraction(int(value.p), int(value.q))
        if value < 0:
            return None
        if column >= n:
            z[column - n] = value
    return z


def solve_lemke(compiled: CompiledGame, *, max_pivots: int = MAX_PIVOTS) -> BehaviourProfile:
    """An exact equilibrium of a two-player game (zero-sum or not) by Lemke's method on the sequence form.

    Raises
    ------
    InvalidParameterError
        If the game does not have two players, is not a game tree, or its LCP
        has more than :data:`MAX_LCP_SIZE` rows (the message gives the size).
    CertificationError
        If Lemke's method does not finish, or its answer is not a pair of
        realization plans.
    """
    if compiled.num_players != 2:
        raise InvalidParameterError(f"--method lemke needs a two-player game; this one has {compiled.num_players}")
    size = sum(layout.num_sequences + layout.num_infosets + 1 for layout in compiled.layouts)
    if size > MAX_FLOAT_SIZE:
        raise InvalidParameterError(
            f"--method lemke: the sequence-form LCP has {size} rows; the limit is {MAX_FLOAT_SIZE}"
        )
    progress.stage("Lemke's path in floating point, then its basis exactly")
    M, q = lcp_of(compiled)
    basic = _float_path(M.astype(float), q.astype(float), max_pivots)
    z = None if basic is None else _exact_from_basis(M, q, basic)
    if z is None:
        progress.stage("Lemke's path in exact arithmetic")
        if size > MAX_LCP_SIZE:
            raise CertificationError(
                f"--method lemke: the floating-point path's last basis does not solve the LCP exactly, and the "
                f"exact path takes at most {MAX_LCP_SIZE} rows (this LCP has {size})"
            )
        z = lemke(M, q, max_pivots)
    n1, n2 = (layout.num_sequences for layout in compiled.layouts)
    plans = (z[:n1], z[n1:n1 + n2])
    for layout, plan, name in zip(compiled.layouts, plans, compiled.player_names):
        E = _constraints(layout)
        if any(sum((int(c) * v for c, v in zip(row, plan) if c), Fraction(0)) != (1 if i == 0 else 0)
               for i, row in enumerate(E)):
            raise CertificationError(f"--method lemke: {name}'s part of the LCP solution is not a realization plan")
    return BehaviourProfile.from_plans(compiled, plans)
