"""The exact finish from a floating-point optimal basis: exact vertex, exact optimality check, exact pivots.

A simplex *basis* names the variables that may be nonzero; every other
structural variable sits at zero and every other inequality row is tight.
The basic variables then solve a square linear system, and the dual
multipliers solve its transpose (Dantzig, *Linear Programming and
Extensions*, 1963, ch. 8; Chvátal, *Linear Programming*, 1983, ch. 7, the
revised simplex method).  A float solver (HiGHS) finds an optimal basis; this
module does the rest in exact rational arithmetic:

1. Restrict the constraint matrix to the tight rows and the basic columns,
   ``K`` (square), and solve ``K v_B = b_T`` and ``K^T w = c_B`` exactly,
   block by block in block triangular form
   (:class:`~exactpoker.solve.lp.sparse_exact.BlockTriangular`, each block by
   python-flint's ``fmpq_mat.solve``).
2. Check optimality exactly, as the simplex method's stopping rule does:
   primal feasibility (basic variables with a sign are ``>= 0``, rows with a
   basic slack hold), dual feasibility (multipliers of inequality rows
   ``>= 0``, reduced costs of nonbasic nonnegative columns ``<= 0``, of
   nonbasic free columns ``= 0``).
3. If float noise left the basis primal feasible but not dual feasible, do
   exact primal simplex pivots from it with Bland's rule (Bland 1977: the
   smallest eligible index enters and leaves, so the method cannot cycle),
   at most ``max_pivots`` of them.  If the basis is not primal feasible, or
   the pivots run out, :class:`~exactpoker.errors.DegenerateSystemError`
   says so: nothing unchecked is ever returned.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from flint import fmpq

from exactpoker import progress
from exactpoker.errors import DegenerateSystemError
from exactpoker.solve.lp.reconstruct import reconstructed_optimum
from exactpoker.solve.lp.sequence_form import StandardLP
from exactpoker.solve.lp.sparse_exact import BlockTriangular

__all__ = ["BasicSolution", "solve_from_basis", "pivot_to_optimum"]

_ZERO = fmpq(0)


@dataclass(frozen=True)
class BasicSolution:
    """An exactly optimal basic solution: primal values, row multipliers, objective, pivots done, and its basis."""

    primal: list[Fraction]
    duals: list[Fraction]
    objective: Fraction
    pivots: int
    basic_columns: tuple[int, ...] = ()
    basic_rows: tuple[int, ...] = ()


def solve_from_basis(
    lp: StandardLP, basic_columns: list[int], basic_rows: list[int], *, max_pivots: int = 50,
    guess: tuple[np.ndarray, np.ndarray] | None = None,
) -> BasicSolution:
    """The exact optimum of ``lp`` from a (nearly) optimal basis.

    Parameters
    ----------
    lp : StandardLP
        The LP, exact integer data.
    basic_columns, basic_rows : list of int
        The basic structural columns and the rows whose slack is basic
        (``len(basic_columns) + len(basic_rows) == lp.num_rows``).
    max_pivots : int
        How many exact simplex pivots may repair a basis that float noise
        left not quite optimal.
    guess : (values, duals), optional
        The float solver's vertex and multipliers on this basis: when their
        rational reconstruction passes the exact optimality checks
        (:func:`~exactpoker.solve.lp.reconstruct.reconstructed_optimum`), that is
        the answer, with no exact solve of the basis matrix.

    Raises
    ------
    DegenerateSystemError
        If the basis is singular or not primal feasible, or not optimal
        after ``max_pivots`` pivots.
    """
    progress.stage("exact vertex and duals of the float basis")
    if len(basic_columns) + len(basic_rows) != lp.num_rows:
        raise DegenerateSystemError(
            f"a basis needs {lp.num_rows} members; got {len(basic_columns)} columns and {len(basic_rows)} rows"
        )
    if guess is not None:
        found = reconstructed_optimum(lp, list(basic_columns), list(basic_rows), *guess)
        if found is not None:
            primal, duals = found
            return BasicSolution(primal, duals, _objective(lp, primal), 0, tuple(basic_columns), tuple(basic_rows))
    return _pivot_to_optimum(_Basis(lp, list(basic_columns), list(basic_rows)), max_pivots, dual=False)


def pivot_to_optimum(lp: StandardLP, basic_columns: list[int], basic_rows: list[int], *,
                     max_pivots: int = 50) -> BasicSolution:
    """The exact optimum of ``lp`` from a basis that is primal or dual feasible (module docstring, step 3).

    From a primal feasible basis: primal simplex pivots; from a dual feasible
    one: dual simplex pivots (Lemke 1954; Chvátal 1983, ch. 10), Bland's rule
    both ways.  Used to walk from a basis optimal at a nearby point of a
    parametric LP (:mod:`exactpoker.solve.parametric.lp`).

    Raises
    ------
    DegenerateSystemError
        If the basis is singular, neither primal nor dual feasible, or not
        optimal after ``max_pivots`` pivots.
    """
    return _pivot_to_optimum(_Basis(lp, list(basic_columns), list(basic_rows)), max_pivots, dual=True)


def _pivot_to_optimum(state: "_Basis", max_pivots: int, *, dual: bool) -> BasicSolution:
    """Exact simplex pivots until ``state`` is optimal (dual simplex pivots too if ``dual``)."""
    for pivots in range(max_pivots + 1):
        state.solve()
        feasible = state.primal_feasible()
        if not feasible and not dual:
            raise DegenerateSystemError("the float solver's basis is not primal feasible in exact arithmetic")
        entering = state.entering()
        if feasible and entering is None:
            return state.solution(pivots)
        if not feasible and entering is not None:
            raise DegenerateSystemError("the basis is neither primal nor dual feasible")
        if pivots == max_pivots:
            break
        if feasible:
            state.pivot(*entering)  # type: ignore[misc]
        else:
            state.dual_pivot()
    raise DegenerateSystemError(f"the basis is not optimal after {max_pivots} exact simplex pivots")


class _Basis:
    """One basis of a :class:`StandardLP` and its exact primal and dual solution.

    Variables are numbered: column ``j`` of the LP is ``j``; the slack of row
    ``i`` is ``num_cols + i`` (``>= 0`` for an inequality row, fixed at zero
    for an equality row).
    """

    def __init__(self, lp: StandardLP, columns: list[int], rows: list[int]) -> None:
        self.lp = lp
        self.columns, self.rows = columns, rows
        self.entries = _Entries.of(lp)

    # -- the exact basic solution --------------------------------------------------

    def solve(self) -> None:
        lp = self.lp
        basic_rows = set(self.rows)
        self.tight = [i for i in range(lp.num_rows) if i not in basic_rows]
        self.position = {i: k for k, i in enumerate(self.tight)}
        self.matrix = BlockTriangular(
            [{self.position[i]: v for i, v in self.lp.columns[j].items() if i in self.position} for j in self.columns]
        )
        values = self.matrix.solve([lp.rhs[i] for i in self.tight])
        duals = self.matrix.solve_transpose([lp.cost.get(j, 0) for j in self.columns])
        self.values = dict(zip(self.columns, values))
        self.duals = [_ZERO] * lp.num_rows
        for k, i in enumerate(self.tight):
            self.duals[i] = duals[k]
        self.activity = self.entries.times(self.values)

    def slack(self, row: int) -> fmpq:
        return self.lp.rhs[row] - self.activity[row]

    def primal_feasible(self) -> bool:
        lp = self.lp
        if any(self.values[j] < 0 for j in self.columns if j < lp.num_nonneg):
            return False
        return all(
            (self.slack(i) >= 0) if i < lp.num_ineq else (self.slack(i) == 0) for i in self.rows
        )

    def entering(self) -> tuple[int, int] | None:
        """The smallest-index variable that improves the objective and its direction (+1 or -1); None at an optimum."""
        lp = self.lp
        reduced = self.entries.reduced_costs(self.duals)  # c_j - duals . column j, exactly, for every column
        nonbasic = np.ones(lp.num_cols, dtype=bool)
        nonbasic[self.columns] = False
        rising = nonbasic & np.asarray(reduced > 0, dtype=bool)
        falling = nonbasic & np.asarray(reduced < 0, dtype=bool) & (np.arange(lp.num_cols) >= lp.num_nonneg)
        improving = np.flatnonzero(rising | falling)
        if len(improving):
            j = int(improving[0])
            return j, 1 if rising[j] else -1
        for i in self.tight:
            if i < lp.num_ineq and self.duals[i] < 0:  # raising this row's slack improves the objective
                return lp.num_cols + i, 1
        return None

    # -- one exact pivot -----------------------------------------------------------

    def pivot(self, entering: int, direction: int) -> None:
        """Bring ``entering`` into the basis (moving in ``direction``), the leaving variable by the ratio test."""
        lp = self.lp
        if entering < lp.num_cols:
            column = lp.columns[entering]
        else:
            column = {entering - lp.num_cols: 1}
        change = self.matrix.solve([column.get(i, 0) for i in self.tight])
        # moving the entering variable by t * direction moves basic column j by -t * direction * change_j
        best: tuple[fmpq, int] | None = None
        for k, j in enumerate(self.columns):
            rate = -direction * change[k]
            if j < lp.num_nonneg and rate < 0:
                best = _smaller(best, (self.values[j] / -rate, j))
        moved = self.entries.times(dict(zip(self.columns, change)))
        for i in self.rows:
            rate = direction * (moved[i] - column.get(i, 0))
            if i >= lp.num_ineq and rate != 0:
                best = _smaller(best, (_ZERO, lp.num_cols + i))
            elif i < lp.num_ineq and rate < 0:
                best = _smaller(best, (self.slack(i) / -rate, lp.num_cols + i))
        if best is None:
            raise DegenerateSystemError("the LP is unbounded along an exact simplex pivot")
        self._exchange(best[1], entering)

    def dual_pivot(self) -> None:
        """One dual simplex pivot: the smallest-index infeasible basic variable leaves, the dual ratio test picks
        the entering one (ties to the smaller index: Bland's rule)."""
        lp = self.lp
        leaving, direction = self._infeasible()
        # the leaving variable's tableau row: leaving = value - sum_k alpha_k z_k over the nonbasic z_k
        weights = [_ZERO] * lp.num_rows
        if leaving < lp.num_cols:
            unit = [_ZERO] * len(self.columns)
            unit[self.columns.index(leaving)] = fmpq(1)
            row, sign = self.matrix.solve_transpose(unit), 1
        else:
            row_index = leaving - lp.num_cols
            row = self.matrix.solve_transpose([lp.columns[j].get(row_index, 0) for j in self.columns])
            weights[row_index], sign = fmpq(-1), -1
        for k, i in enumerate(self.tight):
            weights[i] = row[k]
        alphas = self.entries.cost - self.entries.reduced_costs(weights)  # weights . column j
        reduced = self.entries.reduced_costs(self.duals)
        basic = set(self.columns)
        best: tuple[fmpq, int] | None = None
        for j in range(lp.num_cols):
            alpha = sign * alphas[j]
            if j in basic or alpha == 0:
                continue
            if j >= lp.num_nonneg or alpha * direction < 0:  # free columns move either way
                best = _smaller(best, (abs(reduced[j] / alpha), j))
        for i in self.tight:
            alpha = sign * weights[i]
            if i < lp.num_ineq and alpha * direction < 0:
                best = _smaller(best, (abs(self.duals[i] / alpha), lp.num_cols + i))
        if best is None:
            raise DegenerateSystemError("the LP is infeasible along an exact dual simplex pivot")
        self._exchange(leaving, best[1])

    def _infeasible(self) -> tuple[int, int]:
        """The smallest-index basic variable out of its bounds, and the direction it must move (+1 or -1)."""
        lp = self.lp
        found = [(j, 1) for j in self.columns if j < lp.num_nonneg and self.values[j] < 0]
        for i in self.rows:
            slack = self.slack(i)
            if slack < 0 or (i >= lp.num_ineq and slack > 0):
                found.append((lp.num_cols + i, 1 if slack < 0 else -1))
        return min(found)

    def _exchange(self, leaving: int, entering: int) -> None:
        lp = self.lp
        if leaving < lp.num_cols:
            self.columns.remove(leaving)
        else:
            self.rows.remove(leaving - lp.num_cols)
        if entering < lp.num_cols:
            self.columns.append(entering)
        else:
            self.rows.append(entering - lp.num_cols)

    def solution(self, pivots: int) -> BasicSolution:
        lp = self.lp
        primal = [_fraction(self.values[j]) if j in self.values else Fraction(0) for j in range(lp.num_cols)]
        duals = [_fraction(v) for v in self.duals]
        return BasicSolution(primal, duals, _objective(lp, primal), pivots, tuple(self.columns), tuple(self.rows))


@dataclass(frozen=True)
class _Entries:
    """The LP's matrix entry by entry (column-major) as exact Python integers, for products with exact vectors.

    The entries come from the LP's floating-point copy when every one is below
    2**53 in size (then the float copy holds each integer exactly), from its
    exact columns otherwise.  Products and sums run over object arrays: each
    operation is one exact Python (or python-flint) operation, without the
    interpreter's loop around it.
    """

    starts: np.ndarray
    rows: np.ndarray
    columns: np.ndarray
    values: np.ndarray  # object: Python integers
    cost: np.ndarray  # object: each column's objective coefficient
    num_rows: int

    @classmethod
    def of(cls, lp: StandardLP) -> "_Entries":
        starts, rows, floats = lp.csc()
        if np.all(np.abs(floats) < 2.0**53):
            values = floats.astype(np.int64).astype(object)
        else:
            values = np.array([v for column in lp.columns for v in column.values()], dtype=object)
        cost = np.zeros(lp.num_cols, dtype=object)
        for j, c in lp.cost.items():
            cost[j] = c
        columns = np.repeat(np.arange(lp.num_cols), np.diff(starts))
        return cls(starts, np.asarray(rows, dtype=np.int64), columns, values, cost, lp.num_rows)

    def reduced_costs(self, duals: list[fmpq]) -> np.ndarray:
        """``c_j - sum_i duals[i] M[i, j]`` for every column ``j`` (objects: exact)."""
        weights = np.array(duals, dtype=object)
        used = np.flatnonzero(np.asarray(weights != 0, dtype=bool)[self.rows])
        total = np.zeros(len(self.cost), dtype=object)
        if len(used):  # the entries are by column: one sum per run of a column
            columns = self.columns[used]
            runs = np.flatnonzero(np.r_[True, columns[1:] != columns[:-1]])
            total[columns[runs]] = np.add.reduceat(self.values[used] * weights[self.rows[used]], runs)
        return self.cost - total

    def times(self, values: dict[int, fmpq]) -> list[fmpq]:
        """``M v`` for the sparse vector ``values`` (column -> value), one exact number a row."""
        chosen = [(j, v) for j, v in values.items() if v]
        total = np.full(self.num_rows, _ZERO, dtype=object)
        if chosen:
            at = np.array([j for j, _ in chosen], dtype=np.int64)
            lengths = self.starts[at + 1] - self.starts[at]
            entries = np.repeat(self.starts[at] - np.r_[0, np.cumsum(lengths)[:-1]], lengths) + np.arange(lengths.sum())
            scale = np.empty(len(chosen), dtype=object)
            scale[:] = [v for _, v in chosen]
            np.add.at(total, self.rows[entries], self.values[entries] * np.repeat(scale, lengths))
        return total.tolist()


def _objective(lp: StandardLP, primal: list[Fraction]) -> Fraction:
    return sum((Fraction(c) * primal[j] for j, c in lp.cost.items()), Fraction(0))


def _smaller(best: tuple[fmpq, int] | None, candidate: tuple[fmpq, int]) -> tuple[fmpq, int]:
    """The ratio test's choice: the smaller ratio, ties to the smaller variable index (Bland's rule)."""
    if best is None or candidate[0] < best[0] or (candidate[0] == best[0] and candidate[1] < best[1]):
        return candidate
    return best


def _fraction(value: fmpq) -> Fraction:
    return Fraction(int(value.p), int(value.q)) if value else _FRACTION_ZERO


_FRACTION_ZERO = Fraction(0)  # most values of a sequence-form vertex and its duals
