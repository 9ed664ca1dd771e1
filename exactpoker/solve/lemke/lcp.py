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

The LCP is kept sparse (:func:`sparse_lcp_of`, :class:`~exactpoker.solve.lemke.sparse.SparseLCP`)
and solved by the revised Lemke path of :func:`~exactpoker.solve.lemke.sparse.sparse_lemke`:
the path in floating point first (a sparse LU of the basis, updated by eta
vectors), its last basis then solved exactly and kept if the exact basic
solution solves the LCP -- whatever rounding happened on the way; otherwise
exact revised pivots (lexicographic ratio test, so degenerate games
terminate) from the latest exactly feasible checkpoint of the float path, or
from the start.  :func:`lemke` is the dense exact method (an integer tableau
updated by fraction-free pivoting, each division exact: Edmonds 1967), kept
as an independent check of the sparse one on small games.  The realization
plans found are turned into behaviour strategies, and the dispatcher
(:func:`exactpoker.solve.solve_game`) certifies them like every
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
from exactpoker.lazy import lazy
from exactpoker.solve.lemke.sparse import LemkeRun, SparseLCP, sparse_lemke
from exactpoker.solve.lp.sequence_form import realization_matrix

sp = lazy("scipy.sparse")

__all__ = ["solve_lemke", "lemke_run", "lcp_of", "sparse_lcp_of", "lemke", "MAX_FLOAT_SIZE", "MAX_PIVOTS"]

#: Largest LCP (rows) the revised path takes on.
MAX_FLOAT_SIZE = 200_000
#: Most pivots before giving up (Lemke's method cannot cycle with the lexicographic rule; this bounds the time).
MAX_PIVOTS = 100_000


def _costs(compiled: CompiledGame) -> tuple["sp.csr_matrix", "sp.csr_matrix"]:
    """Both players' sequence-form costs (sparse integer matrices), every leaf's cost strictly positive.

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
    shape = tuple(layout.num_sequences for layout in costs.layouts)
    s1, s2 = costs.sequences[:, 0], costs.sequences[:, 1]
    return tuple(sp.csr_matrix((costs.coefficients[:, p].astype(np.int64), (s1, s2)), shape=shape)  # type: ignore
                 for p in (0, 1))


def sparse_lcp_of(compiled: CompiledGame) -> SparseLCP:
    """The sequence-form LCP ``w = q + M z`` with ``z = (x, y, p, q)`` (module docstring), sparse."""
    C, D = _costs(compiled)
    E, F = (realization_matrix(layout) for layout in compiled.layouts)
    n1, n2, k1, k2 = C.shape[0], C.shape[1], E.shape[0], F.shape[0]
    z1, z2 = sp.csr_matrix((n1, n1), dtype=np.int64), sp.csr_matrix((n2, n2), dtype=np.int64)
    M = sp.bmat([[z1, C, -E.T, None], [D.T, z2, None, -F.T], [E, None, None, None], [None, F, None, None]],
                format="csc", dtype=np.int64)
    M.eliminate_zeros()
    columns = [dict(zip(M.indices[M.indptr[j]:M.indptr[j + 1]].tolist(), M.data[M.indptr[j]:M.indptr[j + 1]].tolist()))
               for j in range(M.shape[1])]
    q = [0] * (n1 + n2 + k1 + k2)
    q[n1 + n2], q[n1 + n2 + k1] = -1, -1
    return SparseLCP(columns, q)


def lcp_of(compiled: CompiledGame) -> tuple[np.ndarray, np.ndarray]:
    """``(M, q)`` of the sequence-form LCP, dense integer (object) arrays, for :func:`lemke`."""
    lcp = sparse_lcp_of(compiled)
    M = np.zeros((lcp.n, lcp.n), dtype=object)
    for j, column in enumerate(lcp.columns):
        for i, v in column.items():
            M[i, j] = v
    return M, np.array(lcp.q, dtype=object)


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


def solve_lemke(compiled: CompiledGame, *, max_pivots: int = MAX_PIVOTS) -> BehaviourProfile:
    """An exact equilibrium of a two-player game (zero-sum or not) by Lemke's method on the sequence form.

    See :func:`lemke_run` (this is its profile).
    """
    return lemke_run(compiled, max_pivots=max_pivots)[0]


def lemke_run(compiled: CompiledGame, *, max_pivots: int = MAX_PIVOTS) -> tuple[BehaviourProfile, LemkeRun]:
    """An exact equilibrium of a two-player game by the revised sequence-form Lemke path, and what the path did.

    Parameters
    ----------
    compiled : CompiledGame
        A two-player game tree.
    max_pivots : int
        Most pivots of each path (float, exact).

    Returns
    -------
    (BehaviourProfile, LemkeRun)
        The equilibrium (an exact solution of the LCP, checked) and the
        pivots done in each arithmetic.

    Raises
    ------
    InvalidParameterError
        If the game does not have two players, is not a game tree, or its LCP
        has more than :data:`MAX_FLOAT_SIZE` rows (the message gives the size).
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
    progress.stage("the sequence-form LCP")
    z, run = sparse_lemke(sparse_lcp_of(compiled), max_pivots)
    n1, n2 = (layout.num_sequences for layout in compiled.layouts)
    plans = (z[:n1], z[n1:n1 + n2])
    for layout, plan, name in zip(compiled.layouts, plans, compiled.player_names):
        if not _is_plan(layout, plan):
            raise CertificationError(f"--method lemke: {name}'s part of the LCP solution is not a realization plan")
    return BehaviourProfile.from_plans(compiled, plans), run


def _is_plan(layout: SequenceLayout, plan: list[Fraction]) -> bool:
    """``E x = e`` exactly: ``plan`` is a realization plan of ``layout``'s player."""
    E = realization_matrix(layout)
    for i in range(E.shape[0]):
        start, stop = E.indptr[i], E.indptr[i + 1]
        total = sum((int(c) * plan[j] for j, c in zip(E.indices[start:stop], E.data[start:stop])), Fraction(0))
        if total != (1 if i == 0 else 0):
            return False
    return True
