"""Every optimal strategy of a player in a two-player zero-sum game, described exactly.

In sequence form (Koller, Megiddo and von Stengel 1996) player ``p``'s optimal
realization plans are the projection onto ``x`` of the polytope

.. math::

    O_p = \\{(x, q) : E x = e,\\; x \\ge 0,\\; F^T q - M^T x \\le 0,\\; q_0 \\ge v_p\\},

where ``E`` is ``p``'s realization matrix, ``F`` the opponent's, ``M`` ``p``'s
sequence-form payoff matrix and ``v_p`` ``p``'s value: ``q`` certifies that
every reply of the opponent leaves ``p`` at least ``v_p`` (LP duality), so
``O_p`` is the optimal face of ``p``'s LP.  :func:`optimal_set` describes it
exactly:

1. **Implicit equalities.**  An inequality of ``O_p`` holds with equality on
   the whole face exactly when the largest slack it can have there is 0: one
   exact LP (:func:`exactpoker.solve.lp.simplex.solve_lp`) per inequality.
2. **Affine hull.**  The equalities, solved exactly (flint's ``rref``), give
   ``(x, q) = z_0 + N t``; the face's dimension is the number of parameters.
3. **Vertices.**  In the parameters the remaining inequalities cut out a
   polytope of that dimension; its vertices are the feasible solutions of
   every choice of ``d`` of them taken as equalities.  Projected onto ``x``,
   the points that are not convex combinations of the others (an exact LP
   each) are the vertices of player ``p``'s set of optimal realization plans.

The set of optimal behaviour strategies is exactly the set of behaviour
strategies whose realization plans lie in the convex hull of those vertices;
for Kuhn poker it is the one-parameter family of the literature (Kuhn 1950).
The procedure is exponential in the face's dimension and meant for small games.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from flint import fmpq, fmpq_mat

from exactpoker import guard, progress
from exactpoker.core.compiled import CompiledGame, SequenceLayout
from exactpoker.errors import InfeasibleError, InvalidParameterError, NotZeroSumError, UnboundedError
from exactpoker.solve.lp.sequence_form import payoff_numerators, realization_matrix
from exactpoker.solve.lp.simplex import solve_lp

__all__ = ["OptimalSet", "optimal_set", "extreme_points"]

#: Choices of ``d`` inequalities tried in step 3 at the most.
MAX_CANDIDATES = 200_000


@dataclass(frozen=True)
class OptimalSet:
    """A player's optimal realization plans: the convex hull of ``vertices``.

    Attributes
    ----------
    player : int
    value : Fraction
        The player's value of the game.
    dimension : int
        The dimension of the set of optimal realization plans (0: unique).
    vertices : tuple of tuple of Fraction
        Its vertices, each a realization plan (one weight per sequence).
    """

    player: int
    value: Fraction
    dimension: int
    vertices: tuple[tuple[Fraction, ...], ...]

    def behaviours(self, layout: SequenceLayout) -> list[dict[str, list[Fraction] | None]]:
        """Each vertex as behaviour: per information set its action probabilities, ``None`` where never reached."""
        tables = []
        for plan in self.vertices:
            table: dict[str, list[Fraction] | None] = {}
            for infoset in range(layout.num_infosets):
                parent = plan[layout.parent_sequence(infoset)]
                seqs = layout.infoset_sequences(infoset)
                table[layout.infoset_name(infoset)] = [plan[s] / parent for s in seqs] if parent else None
            tables.append(table)
        return tables

    def to_dict(self, layout: SequenceLayout) -> dict[str, Any]:
        return {"value": self.value, "dimension": self.dimension, "vertices": self.behaviours(layout)}


def _payoff_matrix(compiled: CompiledGame, player: int) -> list[list[Fraction]]:
    """Player ``player``'s sequence-form payoff matrix, own sequences by the opponent's."""
    numerators, denominator = payoff_numerators(compiled, player), compiled.denominator
    if player == 1:
        numerators = [list(column) for column in zip(*numerators)]
    return [[Fraction(v, denominator) for v in row] for row in numerators]


def _face(compiled: CompiledGame, player: int, value: Fraction
          ) -> tuple[list[list[Fraction]], list[Fraction], list[list[Fraction]], list[Fraction], int, int]:
    """``O_p`` as ``A_eq z = b_eq``, ``A_ub z <= b_ub`` over ``z = (x, q)``; also the sizes of ``x`` and ``q``."""
    E = realization_matrix(compiled.layouts[player]).toarray().tolist()
    F = realization_matrix(compiled.layouts[1 - player]).toarray().tolist()
    M = _payoff_matrix(compiled, player)
    nx, nq, ny = len(E[0]), len(F), len(F[0])
    a_eq = [[Fraction(v) for v in row] + [Fraction(0)] * nq for row in E]
    b_eq = [Fraction(1)] + [Fraction(0)] * (len(E) - 1)
    a_ub, b_ub = [], []
    for s in range(nx):
        a_ub.append([Fraction(-int(s == k)) for k in range(nx)] + [Fraction(0)] * nq)
        b_ub.append(Fraction(0))
    for t in range(ny):
        a_ub.append([-M[s][t] for s in range(nx)] + [Fraction(F[r][t]) for r in range(nq)])
        b_ub.append(Fraction(0))
    a_ub.append([Fraction(0)] * nx + [Fraction(-1)] + [Fraction(0)] * (nq - 1))
    b_ub.append(-value)
    return a_eq, b_eq, a_ub, b_ub, nx, nq


def _implicit_rows(name: str, a_eq, b_eq, a_ub, b_ub, free: range) -> list[int]:  # noqa: ANN001
    """The inequalities tight on the whole face: one exact LP each, within the enumeration's time
    (:class:`~exactpoker.guard.WorkBudget`: refused at once when a low estimate says they cannot end in time)."""
    rows, columns = len(a_ub), len(a_ub[0]) if a_ub else 0
    what = f"optimal strategies of {name}"
    budget = guard.WorkBudget(what)
    budget.refuse_at_once(rows * guard.exact_lp_seconds(rows, columns), f"{rows} exact LPs of {rows} x {columns}")
    progress.stage(f"{what}: the face's equalities", rows, "exact LPs")
    implicit = []
    for r in range(rows):
        if _is_implicit(r, a_eq, b_eq, a_ub, b_ub, free):
            implicit.append(r)
        progress.advance()
        budget.check(r + 1, rows, f"{r + 1} of {rows} exact LPs of {rows} x {columns}")
    return implicit


def _is_implicit(row: int, a_eq, b_eq, a_ub, b_ub, free: range) -> bool:
    """Whether inequality ``row`` is tight on the whole face (its largest slack is 0)."""
    try:
        best = solve_lp([-v for v in a_ub[row]], a_ub, b_ub, a_eq, b_eq, free=free, maximize=True)
    except UnboundedError:
        return False
    return b_ub[row] + best.objective == 0


def _affine_hull(rows: list[list[Fraction]], rhs: list[Fraction]) -> tuple[list[Fraction], list[list[Fraction]]]:
    """``z_0`` and a basis ``N`` (columns) with ``{z : rows z = rhs} = {z_0 + N t}``."""
    width = len(rows[0])
    entries = [fmpq(v.numerator, v.denominator) for row, b in zip(rows, rhs) for v in row + [b]]
    reduced, rank = fmpq_mat(len(rows), width + 1, entries).rref()
    pivots: list[int] = []
    for i in range(rank):
        pivots.append(next(j for j in range(width + 1) if reduced[i, j] != 0))
    if pivots and pivots[-1] == width:
        raise InfeasibleError("optimal_set(): the optimal face is empty (the value given is not the game's)")
    free = [j for j in range(width) if j not in pivots]

    def frac(v: fmpq) -> Fraction:
        return Fraction(int(v.p), int(v.q))

    z0 = [Fraction(0)] * width
    for i, j in enumerate(pivots):
        z0[j] = frac(reduced[i, width])
    basis = []
    for f in free:
        column = [Fraction(0)] * width
        column[f] = Fraction(1)
        for i, j in enumerate(pivots):
            column[j] = -frac(reduced[i, f])
        basis.append(column)
    return z0, basis


def _solve_square(matrix: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction] | None:
    size = len(matrix)
    a = fmpq_mat(size, size, [fmpq(v.numerator, v.denominator) for row in matrix for v in row])
    b = fmpq_mat(size, 1, [fmpq(v.numerator, v.denominator) for v in rhs])
    try:
        solution = a.solve(b)
    except ZeroDivisionError:
        return None
    return [Fraction(int(solution[i, 0].p), int(solution[i, 0].q)) for i in range(size)]


def extreme_points(points: list[tuple[Fraction, ...]]) -> list[tuple[Fraction, ...]]:
    """The points that are not convex combinations of the others."""
    kept = []
    for i, point in enumerate(points):
        others = [q for j, q in enumerate(points) if j != i]
        if not others:
            kept.append(point)
            continue
        a_eq = [[q[k] for q in others] for k in range(len(point))] + [[Fraction(1)] * len(others)]
        try:
            solve_lp([0] * len(others), A_eq=a_eq, b_eq=list(point) + [Fraction(1)])
        except InfeasibleError:
            kept.append(point)
    return kept


def optimal_set(compiled: CompiledGame, player: int, value: Fraction) -> OptimalSet:
    """Every optimal realization plan of ``player`` (0 or 1), as the convex hull of exact vertices.

    Parameters
    ----------
    compiled : CompiledGame
        A two-player zero-sum game.
    player : int
        0 or 1.
    value : Fraction
        That player's value of the game (from a certified equilibrium).

    Raises
    ------
    NotZeroSumError
        If the game is not two-player zero-sum.
    InvalidParameterError
        If the face has too many candidate vertices to enumerate.
    ResourceLimitError
        If the exact LPs that find the face's equalities would take more than
        the time an enumeration may (:class:`~exactpoker.guard.WorkBudget`).
    """
    if compiled.num_players != 2 or not compiled.is_zero_sum:
        raise NotZeroSumError("optimal_set(): the game must be two-player zero-sum")
    if player not in (0, 1):
        raise InvalidParameterError(f"optimal_set(): player must be 0 or 1; got {player!r}")
    a_eq, b_eq, a_ub, b_ub, nx, nq = _face(compiled, player, Fraction(value))
    free = range(nx, nx + nq)
    implicit = _implicit_rows(compiled.player_names[player], a_eq, b_eq, a_ub, b_ub, free)
    z0, basis = _affine_hull(a_eq + [a_ub[r] for r in implicit], b_eq + [b_ub[r] for r in implicit])
    d = len(basis)
    # The remaining inequalities in the parameters t: (a N) t <= b - a z0.
    cuts: dict[tuple[Fraction, ...], Fraction] = {}
    for r in set(range(len(a_ub))) - set(implicit):
        row = tuple(sum((a * n[k] for k, a in enumerate(a_ub[r]) if a), Fraction(0)) for n in basis)
        bound = b_ub[r] - sum((a * z for a, z in zip(a_ub[r], z0) if a), Fraction(0))
        if any(row):
            cuts[row] = min(bound, cuts.get(row, bound))
    rows = list(cuts.items())
    if math.comb(len(rows), d) > MAX_CANDIDATES:
        raise InvalidParameterError(
            f"optimal_set(): the optimal face has dimension {d} and {len(rows)} facets: "
            f"{math.comb(len(rows), d)} candidate vertices, more than the limit {MAX_CANDIDATES}"
        )
    points: set[tuple[Fraction, ...]] = set()
    for chosen in itertools.combinations(rows, d):
        t = _solve_square([list(r) for r, _ in chosen], [b for _, b in chosen]) if d else []
        if t is None or any(sum((c * v for c, v in zip(r, t)), Fraction(0)) > b for r, b in rows):
            continue
        z = [z0[k] + sum((t[i] * basis[i][k] for i in range(d)), Fraction(0)) for k in range(nx)]
        points.add(tuple(z))
    vertices = sorted(extreme_points(sorted(points)))
    dimension = _rank([[v - w for v, w in zip(p, vertices[0])] for p in vertices[1:]])
    return OptimalSet(player, Fraction(value), dimension, tuple(vertices))


def _rank(rows: list[list[Fraction]]) -> int:
    if not rows:
        return 0
    return fmpq_mat(len(rows), len(rows[0]), [fmpq(v.numerator, v.denominator) for r in rows for v in r]).rank()
