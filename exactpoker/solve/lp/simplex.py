"""An exact rational simplex method, optionally started from a floating-point basis.

The problem ``min (or max) c^T x`` subject to ``A_ub x <= b_ub``, ``A_eq x = b_eq``,
``x >= 0`` except the variables listed in ``free``, is put into standard form
``A z = b, z >= 0`` (free variables split in two, slack columns for the
inequalities, rows scaled to integers and signed so that ``b >= 0``) and solved
by the revised simplex method in exact rational arithmetic; basis solves use
python-flint's ``fmpq_mat``.

``method="exact"``
    Two phases from the artificial basis.  Dantzig's rule picks the entering
    column; after a run of degenerate pivots Bland's rule takes over, which
    cannot cycle.
``method="float-guided"``
    HiGHS (dual simplex, through scipy) solves the problem in floating point;
    its positive columns, completed to a nonsingular basis by a pivoted QR
    factorization, give a starting basis.  The exact basic solution is
    computed with flint; if it is feasible, exact pivots continue from it
    until the reduced costs prove optimality, otherwise the exact method
    starts over.  Floating point only ever chooses where to start.

Either way the answer is returned only after :func:`check_lp_certificate`
has verified primal feasibility, dual feasibility and a zero duality gap in
exact arithmetic.

Duals, for the problem as the user states it: ``dual_ub`` and ``dual_eq``
satisfy ``objective == b_ub . dual_ub + b_eq . dual_eq``.  For a
minimization ``dual_ub <= 0`` and ``c - A_ub^T dual_ub - A_eq^T dual_eq >= 0``
(``= 0`` on free variables); for a maximization ``dual_ub >= 0`` and that
difference is ``<= 0``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Literal, Sequence

import numpy as np
from flint import fmpq, fmpq_mat

from exactpoker.algebraic import fmpq_to_fraction, to_fmpq
from exactpoker.errors import CertificationError, InfeasibleError, InvalidParameterError, UnboundedError
from exactpoker.numbers import to_fraction
from exactpoker.lazy import lazy

scipy = lazy("scipy")

__all__ = [
    "LPCertificate",
    "LPSolution",
    "MatrixGameSolution",
    "solve_lp",
    "check_lp_certificate",
    "solve_matrix_game",
]

Method = Literal["auto", "exact", "float-guided"]
_AUTO_SIZE = 50
_BLAND_AFTER = 50  # degenerate pivots in a row before switching to Bland's rule


@dataclass(frozen=True)
class LPCertificate:
    """The exact optimality check of an LP solution."""

    primal_feasible: bool
    dual_feasible: bool
    duality_gap: Fraction

    @property
    def holds(self) -> bool:
        return self.primal_feasible and self.dual_feasible and self.duality_gap == 0


@dataclass(frozen=True)
class LPSolution:
    """An optimal solution with its duals (see the module docstring for signs)."""

    objective: Fraction
    x: tuple[Fraction, ...]
    dual_ub: tuple[Fraction, ...]
    dual_eq: tuple[Fraction, ...]
    basis: tuple[int, ...]
    method: str
    pivots: int
    certificate: LPCertificate


@dataclass(frozen=True)
class MatrixGameSolution:
    """Value and optimal mixed strategies of a zero-sum matrix game (row player maximizes)."""

    value: Fraction
    row_strategy: tuple[Fraction, ...]
    column_strategy: tuple[Fraction, ...]
    lp: LPSolution


# -- input ---------------------------------------------------------------------------------


def _matrix(rows: object, name: str, width: int | None) -> list[list[Fraction]]:
    if rows is None:
        return []
    result = [[to_fraction(v, name) for v in row] for row in rows]  # type: ignore[union-attr]
    for row in result:
        if width is not None and len(row) != width:
            raise InvalidParameterError(f"solve_lp(): every row of {name} needs {width} entries; got {len(row)}")
    return result


def _vector(values: object, name: str, size: int) -> list[Fraction]:
    result = [] if values is None else [to_fraction(v, name) for v in values]  # type: ignore[union-attr]
    if len(result) != size:
        raise InvalidParameterError(f"solve_lp(): {name} needs {size} entries; got {len(result)}")
    return result


@dataclass
class _Problem:
    c: list[Fraction]
    a_ub: list[list[Fraction]]
    b_ub: list[Fraction]
    a_eq: list[list[Fraction]]
    b_eq: list[Fraction]
    free: frozenset[int]
    maximize: bool


# -- standard form -------------------------------------------------------------------------


@dataclass
class _Standard:
    """``min cost . z`` s.t. ``A z = b``, ``z >= 0``; integer rows; ``b >= 0``."""

    columns: list[list[int]]  # column-major integer matrix
    b: list[int]
    cost: list[Fraction]
    row_scale: list[Fraction]  # user row i = standard row i / row_scale[i]
    num_user: int
    minus: dict[int, int]  # free user variable -> its negative-part column

    @property
    def m(self) -> int:
        return len(self.b)



def _standard_form(p: _Problem) -> _Standard:
    n = len(p.c)
    sign = -1 if p.maximize else 1
    minus = {k: n + i for i, k in enumerate(sorted(p.free))}
    width = n + len(minus) + len(p.a_ub)
    rows: list[list[Fraction]] = []
    rhs: list[Fraction] = []
    for i, (row, bound) in enumerate(zip(p.a_ub + p.a_eq, p.b_ub + p.b_eq)):
        full = [Fraction(0)] * width
        for k, v in enumerate(row):
            full[k] = v
            if k in minus:
                full[minus[k]] = -v
        if i < len(p.a_ub):
            full[n + len(minus) + i] = Fraction(1)
        rows.append(full)
        rhs.append(bound)
    scales = []
    int_rows, int_rhs = [], []
    for row, bound in zip(rows, rhs):
        scale = Fraction(math.lcm(*(v.denominator for v in row), bound.denominator))
        if bound < 0:
            scale = -scale
        scales.append(scale)
        int_rows.append([int(v * scale) for v in row])
        int_rhs.append(int(bound * scale))
    cost = [sign * v for v in p.c] + [-sign * p.c[k] for k in sorted(p.free)] + [Fraction(0)] * len(p.a_ub)
    columns = [[int_rows[i][j] for i in range(len(int_rows))] for j in range(width)]
    return _Standard(columns, int_rhs, cost, scales, n, minus)


# -- the exact revised simplex ---------------------------------------------------------------


class _Tableau:
    """The simplex tableau ``B^-1 [A | I | b]`` in exact rationals (python-flint ``fmpq_mat``).

    The identity block holds the artificial columns of phase 1, and after any
    pivots it holds ``B^-1``, from which the simplex multipliers are read.  A
    pivot is one rank-one update, done in C by flint.
    """

    def __init__(self, std: _Standard, basis: list[int]) -> None:
        m, width = std.m, len(std.columns)
        self.std = std
        self.width = width
        entries = []
        for i in range(m):
            entries += [std.columns[j][i] for j in range(width)] + [int(i == r) for r in range(m)] + [std.b[i]]
        full = fmpq_mat(m, width + m + 1, entries)
        columns = std.columns + [[int(i == r) for i in range(m)] for r in range(m)]
        start = fmpq_mat(m, m, [columns[j][i] for i in range(m) for j in basis])
        self.table = start.solve(full)  # raises ZeroDivisionError if the basis is singular
        self.basis = list(basis)
        self.pivots = 0

    def value(self, i: int) -> fmpq:
        return self.table[i, self.table.ncols() - 1]

    def reduced_costs(self, cost: list[Fraction]) -> list[fmpq]:
        m = self.std.m
        cost_b = fmpq_mat(1, m, [to_fmpq(cost[j]) for j in self.basis])
        priced = cost_b * self.table
        return [to_fmpq(cost[j]) - priced[0, j] for j in range(len(cost))]

    def multipliers(self, cost: list[Fraction]) -> list[Fraction]:
        m = self.std.m
        cost_b = fmpq_mat(1, m, [to_fmpq(cost[j]) for j in self.basis])
        inverse = fmpq_mat(m, m, [self.table[i, self.width + r] for i in range(m) for r in range(m)])
        y = cost_b * inverse
        return [fmpq_to_fraction(y[0, i]) for i in range(m)]

    def pivot(self, row: int, column: int) -> None:
        m, n = self.std.m, self.table.ncols()
        pivot = self.table[row, column]
        adjusted = fmpq_mat(m, 1, [self.table[i, column] - (1 if i == row else 0) for i in range(m)])
        scaled = fmpq_mat(1, n, [self.table[row, j] / pivot for j in range(n)])
        self.table = self.table - adjusted * scaled
        self.basis[row] = column
        self.pivots += 1

    def optimize(self, cost: list[Fraction], allow_entering: int, pinned: bool) -> None:
        """Pivot until no column below ``allow_entering`` has a negative reduced cost.

        With ``pinned``, basic artificial columns (left at zero by phase 1) may
        not grow: any pivot that would move them makes them leave.
        """
        m = self.std.m
        degenerate = 0
        while True:
            reduced = self.reduced_costs(cost)
            in_basis = set(self.basis)
            entering = -1
            for j in range(allow_entering):
                if j in in_basis or reduced[j] >= 0:
                    continue
                if degenerate >= _BLAND_AFTER:
                    entering = j
                    break
                if entering < 0 or reduced[j] < reduced[entering]:
                    entering = j
            if entering < 0:
                return
            leave, ratio = -1, None
            for i in range(m):
                u = self.table[i, entering]
                if pinned and self.basis[i] >= self.width and u != 0:
                    candidate = fmpq(0)
                elif u > 0:
                    candidate = self.value(i) / u
                else:
                    continue
                if ratio is None or candidate < ratio or (candidate == ratio and self.basis[i] < self.basis[leave]):
                    leave, ratio = i, candidate
            if leave < 0:
                raise UnboundedError("solve_lp(): the objective is unbounded")
            degenerate = degenerate + 1 if ratio == 0 else 0
            self.pivot(leave, entering)


def _exact(std: _Standard, start: list[int] | None) -> tuple[_Tableau, int]:
    """The optimal tableau of the standard form (from ``start``, or from the artificial basis)."""
    width = len(std.columns)
    if start is None:
        tableau = _Tableau(std, list(range(width, width + std.m)))
        tableau.optimize([Fraction(0)] * width + [Fraction(1)] * std.m, width, pinned=False)
        if any(tableau.value(i) > 0 for i in range(std.m) if tableau.basis[i] >= width):
            raise InfeasibleError("solve_lp(): the constraints have no feasible point")
    else:
        tableau = _Tableau(std, start)
    tableau.optimize(std.cost + [Fraction(0)] * std.m, width, pinned=True)
    return tableau, tableau.pivots


# -- the float guide ----------------------------------------------------------------------------


def _float_basis(p: _Problem, std: _Standard) -> list[int] | None:
    """A starting basis read from a HiGHS solution, or ``None`` if HiGHS fails."""
    c = np.array([float(v) for v in p.c]) * (-1 if p.maximize else 1)
    kwargs = {}
    if p.a_ub:
        kwargs.update(A_ub=np.array([[float(v) for v in r] for r in p.a_ub]), b_ub=np.array([float(v) for v in p.b_ub]))
    if p.a_eq:
        kwargs.update(A_eq=np.array([[float(v) for v in r] for r in p.a_eq]), b_eq=np.array([float(v) for v in p.b_eq]))
    bounds = [(None, None) if k in p.free else (0, None) for k in range(len(p.c))]
    res = scipy.optimize.linprog(c, bounds=bounds, method="highs-ds", **kwargs)
    if res.status != 0:
        return None
    x = res.x
    values = list(x) + [-x[k] for k in sorted(p.free)]
    for k in sorted(p.free):
        values[k] = max(x[k], 0.0)
        values[std.minus[k]] = max(-x[k], 0.0)
    slacks = list(kwargs["b_ub"] - kwargs["A_ub"] @ x) if p.a_ub else []
    values = values[: std.num_user + len(std.minus)] + slacks
    dense = np.array(std.columns, dtype=np.float64).T  # m x N
    positive = [j for j, v in enumerate(values) if v > 1e-9]
    return _complete_basis(dense, positive)


def _complete_basis(dense: np.ndarray, chosen: list[int]) -> list[int] | None:
    """Extend ``chosen`` to ``m`` columns of full rank (pivoted QR on what is left)."""
    m, width = dense.shape
    if len(chosen) > m:
        return None
    if chosen:
        q, r = np.linalg.qr(dense[:, chosen])
        if np.linalg.matrix_rank(r) < len(chosen):
            return None
        rest = [j for j in range(width) if j not in set(chosen)]
        residual = dense[:, rest] - q @ (q.T @ dense[:, rest])
    else:
        rest = list(range(width))
        residual = dense
    need = m - len(chosen)
    if need == 0:
        return list(chosen)
    _, _, order = scipy.linalg.qr(residual, pivoting=True, mode="economic")
    return list(chosen) + [rest[j] for j in order[:need]]


# -- assembling the answer -------------------------------------------------------------------


def _solution(p: _Problem, std: _Standard, tableau: _Tableau, method: str) -> LPSolution:
    z = [Fraction(0)] * len(std.columns)
    for i, j in enumerate(tableau.basis):
        if j < len(std.columns):
            z[j] = fmpq_to_fraction(tableau.value(i))
    x = [z[k] - (z[std.minus[k]] if k in std.minus else 0) for k in range(std.num_user)]
    y = tableau.multipliers(std.cost + [Fraction(0)] * std.m)
    multipliers = [y[i] * std.row_scale[i] for i in range(std.m)]
    if p.maximize:
        multipliers = [-v for v in multipliers]
    dual_ub = tuple(multipliers[: len(p.a_ub)])
    dual_eq = tuple(multipliers[len(p.a_ub):])
    certificate = check_lp_certificate(p.c, p.a_ub, p.b_ub, p.a_eq, p.b_eq, p.free, p.maximize, x, dual_ub, dual_eq)
    if not certificate.holds:
        raise CertificationError(f"solve_lp(): the exact optimality check failed: {certificate}")
    objective = sum((ci * xi for ci, xi in zip(p.c, x)), Fraction(0))
    return LPSolution(objective, tuple(x), dual_ub, dual_eq, tuple(tableau.basis), method, tableau.pivots, certificate)


def check_lp_certificate(
    c: Sequence[Fraction],
    A_ub: Sequence[Sequence[Fraction]],
    b_ub: Sequence[Fraction],
    A_eq: Sequence[Sequence[Fraction]],
    b_eq: Sequence[Fraction],
    free: Iterable[int],
    maximize: bool,
    x: Sequence[Fraction],
    dual_ub: Sequence[Fraction],
    dual_eq: Sequence[Fraction],
) -> LPCertificate:
    """Check optimality exactly: primal and dual feasibility and a zero duality gap."""
    free = set(free)

    def dot(u: Sequence[Fraction], v: Sequence[Fraction]) -> Fraction:
        return sum((Fraction(a) * Fraction(b) for a, b in zip(u, v) if a and b), Fraction(0))

    primal = (
        all(dot(row, x) <= bound for row, bound in zip(A_ub, b_ub))
        and all(dot(row, x) == bound for row, bound in zip(A_eq, b_eq))
        and all(x[k] >= 0 for k in range(len(x)) if k not in free)
    )
    sign = -1 if maximize else 1  # the reduced costs must be >= 0 after this sign
    dual = all(sign * v <= 0 for v in dual_ub)
    for k in range(len(c)):
        reduced = Fraction(c[k]) - sum((Fraction(row[k]) * dual_ub[i] for i, row in enumerate(A_ub) if row[k]), Fraction(0))
        reduced -= sum((Fraction(row[k]) * dual_eq[i] for i, row in enumerate(A_eq) if row[k]), Fraction(0))
        if k in free:
            dual = dual and reduced == 0
        else:
            dual = dual and sign * reduced >= 0
    gap = dot(c, x) - dot(b_ub, dual_ub) - dot(b_eq, dual_eq)
    return LPCertificate(primal, dual, gap)


# -- public entry points ------------------------------------------------------------------------


def solve_lp(
    c: Sequence[object],
    A_ub: Sequence[Sequence[object]] | None = None,
    b_ub: Sequence[object] | None = None,
    A_eq: Sequence[Sequence[object]] | None = None,
    b_eq: Sequence[object] | None = None,
    *,
    free: Iterable[int] = (),
    maximize: bool = False,
    method: Method = "auto",
) -> LPSolution:
    """Solve a linear program exactly.

    Parameters
    ----------
    c : sequence of rationals
        Objective coefficients.
    A_ub, b_ub : optional
        Inequality rows ``A_ub x <= b_ub``.
    A_eq, b_eq : optional
        Equality rows ``A_eq x = b_eq``.
    free : iterable of int
        Indices of variables without the bound ``x >= 0``.
    maximize : bool
        Maximize instead of minimize.
    method : {"auto", "exact", "float-guided"}
        See the module docstring; ``"auto"`` is float-guided above 50 rows or columns.

    Raises
    ------
    InfeasibleError, UnboundedError
        When the problem has no optimum.
    InvalidParameterError
        On malformed or inexact (float) input.

    Examples
    --------
    >>> solve_lp([1, 1], A_ub=[[-1, -2], [-3, -1]], b_ub=[-2, -3]).objective
    Fraction(7, 5)
    """
    if method not in ("auto", "exact", "float-guided"):
        raise InvalidParameterError(f"solve_lp(): method must be 'auto', 'exact' or 'float-guided'; got {method!r}")
    cost = [to_fraction(v, "c") for v in c]
    n = len(cost)
    a_ub, a_eq = _matrix(A_ub, "A_ub", n), _matrix(A_eq, "A_eq", n)
    problem = _Problem(cost, a_ub, _vector(b_ub, "b_ub", len(a_ub)), a_eq, _vector(b_eq, "b_eq", len(a_eq)),
                       frozenset(int(k) for k in free), maximize)
    if any(not 0 <= k < n for k in problem.free):
        raise InvalidParameterError(f"solve_lp(): free indices must lie in 0..{n - 1}")
    std = _standard_form(problem)
    if std.m == 0:
        raise InvalidParameterError("solve_lp(): give at least one constraint")
    if method == "auto":
        method = "float-guided" if max(std.m, len(std.columns)) > _AUTO_SIZE else "exact"
    if method == "float-guided":
        start = _float_basis(problem, std)
        if start is not None:
            try:
                tableau = _Tableau(std, start)
            except ZeroDivisionError:  # the float guide's basis is singular after all
                tableau = None
            if tableau is not None and all(tableau.value(i) >= 0 for i in range(std.m)):
                tableau, _ = _exact(std, tableau.basis)
                return _solution(problem, std, tableau, "float-guided")
    tableau, _ = _exact(std, None)
    return _solution(problem, std, tableau, "exact")


def solve_matrix_game(M: Sequence[Sequence[object]], *, method: Method = "auto") -> MatrixGameSolution:
    """Value and optimal strategies of the zero-sum game where the row player gets ``M[i][j]``.

    One LP: the row player's (``max v`` s.t. ``x^T M >= v``, ``sum x = 1``);
    the column strategy is read off its duals.  Before returning, checks
    exactly that ``min_j (x^T M)_j == value == max_i (M y)_i``.

    Examples
    --------
    >>> solve_matrix_game([[1, -1], [-1, 1]]).value
    Fraction(0, 1)
    """
    rows = [list(r) for r in M] if M is not None else []
    if not rows or not rows[0]:
        raise InvalidParameterError("solve_matrix_game(): M must be a non-empty matrix")
    width = len(rows[0])
    if any(len(r) != width for r in rows):
        raise InvalidParameterError("solve_matrix_game(): every row of M must have the same length")
    m = [[to_fraction(v, "M") for v in r] for r in rows]
    k = len(m)
    # variables: x_0..x_{k-1}, v
    a_ub = [[-m[i][j] for i in range(k)] + [Fraction(1)] for j in range(width)]
    a_eq = [[Fraction(1)] * k + [Fraction(0)]]
    solution = solve_lp([0] * k + [1], a_ub, [0] * width, a_eq, [1], free=[k], maximize=True, method=method)
    x = solution.x[:k]
    y = tuple(solution.dual_ub)
    value = solution.x[k]
    against_rows = [sum((x[i] * m[i][j] for i in range(k)), Fraction(0)) for j in range(width)]
    against_cols = [sum((m[i][j] * y[j] for j in range(width)), Fraction(0)) for i in range(k)]
    if not (min(against_rows) == value == max(against_cols) and sum(y) == 1 and min(y) >= 0):
        raise CertificationError("solve_matrix_game(): the exact minimax check failed")
    return MatrixGameSolution(value, tuple(x), y, solution)
