"""The floating-point guide of the zero-sum solver: HiGHS on the sequence-form LP.

One solve of player I's LP gives the value.  Optimal strategies are rarely
unique (cards that never face a decision, or equally good calls), so each
player's plan is then re-solved among the optimal ones, taking the one that
does best against a uniformly random opponent: a generic refinement in the
spirit of proper equilibria, which picks the natural strategies (call with
the high cards, not with scattered ones).  Only the *support* of these float
plans is used; the exact finish and the certificate do not depend on them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from exactpoker import progress
from exactpoker.core.compiled import CompiledGame, PlayerLayout
from exactpoker.errors import DegenerateSystemError
from exactpoker.solve.lp.sequence_form import SequenceFormLP, SparseEntries, StandardLP

__all__ = ["FloatOptimum", "float_guides", "float_optimum", "lp_algorithms", "optimal_basis", "pass_lp", "quiet_highs"]


def float_guides(compiled: CompiledGame, lp: SequenceFormLP) -> list[tuple[np.ndarray, np.ndarray]]:
    """Both players' realization plans in floating point: refined first, then plain.

    One HiGHS solve of player I's LP gives the value.  Optimal strategies are
    rarely unique (cards that never face a decision, or equally good calls),
    so each player's plan is then re-solved among the optimal ones, taking
    the one that does best against a uniformly random opponent: a generic
    refinement in the spirit of proper equilibria, which picks the natural
    strategies (call with the high cards, not with scattered ones).  The exact
    finish and the certificate do not depend on this choice; if the refined
    guide's support does not give an exact solution, the plain one is tried.
    """
    payoff = lp.payoff.astype(np.float64)
    first = _PlayerLP.of(payoff, lp.E, lp.F)
    x, y, value = first.solve()
    uniform = [_uniform_plan(layout) for layout in compiled.layouts]
    slack = 1e-9 * max(1.0, abs(value))
    refined_x = first.solve(floor=value - slack, objective=payoff @ uniform[1])
    refined_y = _PlayerLP.of(-payoff.T, lp.F, lp.E).solve(floor=-value - slack, objective=-payoff.T @ uniform[0])
    guides = [(x, y)]
    if refined_x and refined_y:
        guides.insert(0, (refined_x[0], refined_y[0]))
    return guides


@dataclass(frozen=True)
class _PlayerLP:
    """The maximizing player's sequence-form LP: ``max q_0`` s.t. ``other^T q - payoff^T z <= 0``, ``own z = e``.

    Columns are the plan ``z`` (nonnegative) then the opponent's information-set
    values ``q`` (free); rows are the inequalities, one row ``q_0 >= floor``
    (free unless a floor is given) and the plan's equalities, handed to HiGHS
    as one column-wise matrix.
    """

    matrix: tuple[np.ndarray, np.ndarray, np.ndarray]  # column starts, row indices, values
    num_z: int
    num_cols: int
    num_ub: int
    num_eq: int

    @classmethod
    def of(cls, payoff: SparseEntries, own: SparseEntries, other: SparseEntries) -> "_PlayerLP":
        num_z, num_ub = own.shape[1], other.shape[1]
        num_cols = num_z + other.shape[0]
        rows = np.concatenate([payoff.cols, other.cols, [num_ub], num_ub + 1 + own.rows])
        cols = np.concatenate([payoff.rows, num_z + other.rows, [num_z], own.cols])
        data = np.concatenate([-payoff.values, other.values, [-1.0], own.values]).astype(np.float64)
        by_column = SparseEntries.of(cols, rows, data, (num_cols, num_ub + 1 + own.shape[0]))  # the transpose
        starts = np.searchsorted(by_column.rows, np.arange(num_cols + 1)).astype(np.int32)
        matrix = (starts, by_column.cols.astype(np.int32), by_column.values)
        return cls(matrix, num_z, num_cols, num_ub, own.shape[0])

    def solve(self, floor: float | None = None,
              objective: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, float] | None:
        """The plan, the opponent's plan (the multipliers) and ``q_0``; ``None`` if a refinement fails.

        With ``floor`` and ``objective``: keep ``q_0 >= floor`` and maximize
        ``objective^T z`` (the plan's payoff against a fixed opponent) instead.
        """
        import highspy

        num_cols, num_rows = self.num_cols, self.num_ub + 1 + self.num_eq
        infinite = highspy.kHighsInf
        cost = np.zeros(num_cols)
        if floor is None:
            cost[self.num_z] = -1.0
        else:
            cost[:self.num_z] = -objective
        upper = np.zeros(num_rows)
        upper[self.num_ub] = infinite if floor is None else -floor
        upper[self.num_ub + 1] = 1.0  # the empty sequence's plan: 1
        lower = np.full(num_rows, -infinite)
        lower[self.num_ub + 1:] = upper[self.num_ub + 1:]
        solver = quiet_highs()
        _pass_columnwise(solver, self.matrix, cost, self.num_z,
                         lower, upper)
        solver.run()
        if solver.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            if floor is not None:
                return None
            status = solver.modelStatusToString(solver.getModelStatus())
            raise DegenerateSystemError(f"the floating-point LP guide failed: {status}")
        solution = solver.getSolution()
        values = np.asarray(solution.col_value, dtype=np.float64)
        multipliers = -np.asarray(solution.row_dual, dtype=np.float64)[:self.num_ub]
        return values[:self.num_z], multipliers, float(values[self.num_z])


def _uniform_plan(layout: PlayerLayout) -> np.ndarray:
    """Realization plan of the uniformly random behaviour strategy."""
    plan = np.zeros(layout.num_sequences)
    plan[0] = 1.0
    for infoset in range(layout.num_infosets):
        seqs = layout.infoset_sequences(infoset)
        plan[list(seqs)] = plan[layout.parent_sequence(infoset)] / len(seqs)
    return plan


_ALGORITHMS = {"dual simplex": "simplex", "interior point": "ipm"}  # HiGHS's names

#: Rows from which a dense LP goes to the interior point method first.
IPM_FROM_ROWS = 4000
#: Nonzeros per row from which a large LP goes to the interior point method first.
IPM_FROM_DENSITY = 10.0
#: Nonzeros per row above which the dual simplex goes first again: the interior point method's normal
#: equations fill in (a ladder of 500 cards, 7,002 rows, 465 nonzeros a row: 155 s against 28 s).
IPM_UP_TO_DENSITY = 100.0
#: Rows above which the dual simplex goes first again: the largest LP where the interior point method was
#: measured faster had 12,162 rows; on Liar's Dice with 409,597 rows it took 532 s against 43 s.
IPM_UP_TO_ROWS = 100_000


def lp_algorithms(lp: StandardLP) -> tuple[str, str]:
    """The order in which :func:`optimal_basis` should try HiGHS's algorithms on ``lp``: both, best guess first.

    HiGHS's dual simplex is its default and the best on sparse sequence-form
    LPs (OpenSpiel's Liar's Dice, 36,860 rows, 6 nonzeros a row: 12.7 s
    against 43 s for the interior point method with crossover); on large LPs
    with dense payoff blocks the interior point method (HiGHS's IPX, Schork
    and Gondzio 2020) with crossover to a basis wins (Leduc with 8 ranks,
    12,162 rows, 14 nonzeros a row: 9.4 s against 21.6 s for the dual
    simplex, measured on this repository's 2-core machine).  On rows denser
    still the dual simplex wins again, as the interior point method's normal
    equations fill in (one-card ladders, every card against every card: 4,202
    rows, 280 nonzeros a row, 7.0 s against 34.4 s; 7,002 rows, 465 a row,
    28 s against 155 s).  On very large LPs the dual simplex goes first too:
    the interior point method's iterative solves slow down there (Liar's Dice,
    two dice against one with five sides, 409,597 rows: 532 s against 43 s;
    with six sides, 4,325,372 rows and 11 nonzeros a row, it had not finished
    after 42 minutes).  The second algorithm is the fallback when the first
    one's basis fails the exact check.
    """
    nonzeros = len(lp.csc()[1])
    dense = (IPM_FROM_ROWS <= lp.num_rows <= IPM_UP_TO_ROWS
             and IPM_FROM_DENSITY * lp.num_rows <= nonzeros <= IPM_UP_TO_DENSITY * lp.num_rows)
    return ("interior point", "dual simplex") if dense else ("dual simplex", "interior point")


def optimal_basis(
    lp: StandardLP, algorithm: str = "dual simplex", refinement: tuple[np.ndarray, np.ndarray] | None = None
) -> tuple[list[int], list[int]]:
    """An optimal simplex basis of ``lp`` found by HiGHS in floating point.

    ``algorithm`` is ``"dual simplex"`` or ``"interior point"`` (followed by
    HiGHS's crossover to a basis): a second opinion when the first basis
    does not survive the exact check.  ``refinement = (cost, rhs)`` (one
    float per column, one per row) is added to the objective and the right
    sides HiGHS sees: small multiples of a second objective for the primal
    and for the dual pick, among several optimal vertices and multipliers,
    the ones best for them.  A basis optimal for a small enough such change
    is optimal for the LP itself, which the exact finish checks.

    Returns the basic columns and the rows whose slack is basic (together
    ``lp.num_rows`` of them).  Only the *basis* is used: the exact finish
    (:mod:`exactpoker.solve.lp.basis`) recomputes the vertex and its duals in
    exact arithmetic and checks optimality itself.

    Raises
    ------
    DegenerateSystemError
        If HiGHS does not report an optimal basis.
    """
    found = float_optimum(lp, algorithm, refinement)
    return found.columns, found.rows


@dataclass(frozen=True)
class FloatOptimum:
    """HiGHS's optimal basis of a :class:`StandardLP` (basic columns, rows whose slack is basic) and, in floats,
    its vertex (one value a column) and multipliers (one a row, signed so that ``M^T duals = cost`` on the
    basic columns)."""

    columns: list[int]
    rows: list[int]
    values: np.ndarray
    duals: np.ndarray


def float_optimum(
    lp: StandardLP, algorithm: str = "dual simplex", refinement: tuple[np.ndarray, np.ndarray] | None = None
) -> FloatOptimum:
    """:func:`optimal_basis` with HiGHS's float vertex and multipliers (guesses for an exact reconstruction)."""
    progress.stage(f"float LP basis (HiGHS {algorithm}, {lp.num_rows} rows)")
    import highspy

    solver = quiet_highs()
    if algorithm not in _ALGORITHMS:
        raise ValueError(f"optimal_basis(): algorithm must be one of {sorted(_ALGORITHMS)}; got {algorithm!r}")
    solver.setOptionValue("solver", _ALGORITHMS[algorithm])
    pass_lp(solver, lp, refinement)
    run = solver.run()
    if solver.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        status = solver.modelStatusToString(solver.getModelStatus())
        raise DegenerateSystemError(f"HiGHS ({algorithm}) found no optimal basis: {status} (run status {run.name})")
    status, basic = solver.getBasicVariables()  # column j as j, the slack of row i as -1 - i
    if status != highspy.HighsStatus.kOk or len(basic) != lp.num_rows:
        raise DegenerateSystemError("HiGHS found no optimal basis: it reports no basic variables")
    basic = np.sort(basic.astype(np.int64))
    split = int(np.searchsorted(basic, 0))
    solution = solver.getSolution()
    # HiGHS minimizes -cost: its row duals are the negatives of the multipliers of max cost
    return FloatOptimum(basic[split:].tolist(), np.sort(-1 - basic[:split]).tolist(),
                        np.asarray(solution.col_value, dtype=np.float64), -np.asarray(solution.row_dual, dtype=np.float64))


def pass_lp(solver: "highspy._core._Highs", lp: StandardLP,
            refinement: tuple[np.ndarray, np.ndarray] | None = None) -> None:
    """Hand ``lp`` to ``solver`` in floats, as arrays (a maximisation turned into HiGHS's minimisation).

    ``refinement = (cost, rhs)`` is added to the objective and the right sides
    (:func:`optimal_basis`).  The arrays go to HiGHS's ``passModel`` directly
    (no ``HighsLp`` object, whose fields pybind11 copies element by element).
    """
    import highspy

    starts, indices, values = lp.csc()
    cost = np.zeros(lp.num_cols)
    for j, c in lp.cost.items():
        cost[j] = -float(c)  # HiGHS minimizes
    rhs = np.array([float(b) for b in lp.rhs])
    if refinement is not None:
        cost -= refinement[0]
        rhs += refinement[1]
    row_lower = np.where(np.arange(lp.num_rows) < lp.num_ineq, -highspy.kHighsInf, rhs)
    _pass_columnwise(solver, (starts, indices, values), cost, lp.num_nonneg, row_lower, rhs)


def _pass_columnwise(solver: "highspy._core._Highs", csc: tuple[np.ndarray, np.ndarray, np.ndarray],
                     cost: np.ndarray, num_nonneg: int, row_lower: np.ndarray, row_upper: np.ndarray) -> None:
    """Hand HiGHS the LP ``min cost x`` s.t. ``row_lower <= A x <= row_upper``, the first ``num_nonneg``
    columns nonnegative and the others free, ``A`` given column-wise as ``(starts, indices, values)``."""
    import highspy

    starts, indices, values = csc
    num_cols, infinite = len(cost), highspy.kHighsInf
    lower = np.where(np.arange(num_cols) < num_nonneg, 0.0, -infinite)
    status = solver.passModel(num_cols, len(row_upper), len(indices), int(highspy.MatrixFormat.kColwise),
                              int(highspy.ObjSense.kMinimize), 0.0, cost, lower, np.full(num_cols, infinite),
                              row_lower, row_upper, np.asarray(starts[:-1], dtype=np.int32),
                              np.asarray(indices, dtype=np.int32), np.asarray(values, dtype=np.float64),
                              np.zeros(num_cols, dtype=np.int32))  # every column continuous
    if status != highspy.HighsStatus.kOk:
        raise DegenerateSystemError(f"HiGHS refused the LP: {status}")


def quiet_highs() -> "highspy._core._Highs":
    """A HiGHS solver that prints nothing.

    The public ``highspy.Highs`` switches on callbacks as it is built, which
    prints HiGHS's banner before any option can turn output off; its base
    class does not.
    """
    import highspy

    solver = highspy._core._Highs()
    solver.setOptionValue("output_flag", False)
    return solver
