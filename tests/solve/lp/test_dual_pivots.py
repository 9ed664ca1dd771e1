"""Exact pivots from a basis that is dual but not primal feasible (``pivot_to_optimum``'s dual simplex).

A basis optimal for one right-hand side stays dual feasible for every other
(its reduced costs do not depend on ``b``): pivoting from it must reach the
optimum that the exact two-phase simplex finds from scratch.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.errors import DegenerateSystemError
from exactpoker.solve.lp.basis import pivot_to_optimum, solve_from_basis
from exactpoker.solve.lp.simplex import solve_lp
from tests.strategies import small_lps, standard_lp_of



def test_a_new_right_hand_side_is_reached_by_dual_pivots():
    # max x + y s.t. x <= 1, y <= 1, 2x + 2y <= 3: optimal basis {x, y, slack of row 1}; then row 2's bound drops to 1
    first = solve_from_basis(standard_lp_of([[1, 0], [0, 1], [2, 2]], [1, 1, 3], [1, 1]), [], [0, 1, 2])
    columns, rows = list(first.basic_columns), list(first.basic_rows)
    moved = pivot_to_optimum(standard_lp_of([[1, 0], [0, 1], [2, 2]], [1, 1, 1], [1, 1]), columns, rows)
    assert moved.objective == Fraction(1, 2) and moved.pivots >= 1


@settings(deadline=None, max_examples=40)
@given(
    small_lps,
    st.lists(st.integers(0, 6), min_size=5, max_size=5),
    st.lists(st.integers(0, 6), min_size=5, max_size=5),
)
def test_dual_pivots_agree_with_the_exact_simplex(problem, bounds, other_bounds):
    rows, cost = problem
    n = len(cost)
    rows = rows + [[1] * n]  # keeps the region bounded; b >= 0 keeps 0 feasible
    rhs = bounds[: len(rows) - 1] + [bounds[-1] + 1]
    other = other_bounds[: len(rows) - 1] + [other_bounds[-1] + 1]
    first = solve_from_basis(standard_lp_of(rows, rhs, cost), [], list(range(len(rows))), max_pivots=100)
    moved = pivot_to_optimum(standard_lp_of(rows, other, cost), list(first.basic_columns), list(first.basic_rows),
                             max_pivots=100)
    assert moved.objective == solve_lp(cost, rows, other, maximize=True, method="exact").objective


def test_neither_primal_nor_dual_feasible_is_refused():
    # max x + y s.t. x <= 1, -y <= -1 (y >= 1), x + y <= 4 from the slack basis: x = y = 0 violates row 1
    # (not primal feasible) and x, y have positive reduced costs (not dual feasible)
    with pytest.raises(DegenerateSystemError, match="neither primal nor dual feasible"):
        pivot_to_optimum(standard_lp_of([[1, 0], [0, -1], [1, 1]], [1, -1, 4], [1, 1]), [], [0, 1, 2])
