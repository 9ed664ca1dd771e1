"""An LP's exact optimum read off the float solver's vertex by rational reconstruction, then checked exactly.

The exact finish of :mod:`exactpoker.solve.lp.basis` solves the basis matrix
exactly.  Where the optimal vertex and its multipliers are rationals with
small denominators (most sequence-form games: OpenSpiel's liars_dice has the
value -42/43), they can be read off HiGHS's floats instead, and checked:
each float is rounded to the nearest fraction with a small denominator
(continued fractions, :meth:`fractions.Fraction.limit_denominator`), the
values are put over one common denominator, and the candidates are checked
in exact integer arithmetic:

* the primal: ``v >= 0`` on the basic nonnegative columns, zero off the
  basis, every tight row met with equality, every row with a basic slack
  feasible;
* the multipliers: zero on the rows with a basic slack, ``>= 0`` on the
  tight inequality rows, reduced costs ``c_j - M_j^T w`` zero on the basic
  columns and the free ones, ``<= 0`` on the other columns.

A pair that passes is primal feasible, dual feasible and complementary, so
both are optimal (LP duality; Chvátal, *Linear Programming*, 1983, ch. 5),
and, the basis matrix being nonsingular, they are its vertex and
multipliers: the same numbers as the block solve would give.  This is the
rational reconstruction step of exact LP solvers (Gleixner, Steffy and
Wolter, "Iterative refinement for linear programming", INFORMS Journal on
Computing 28(3), 2016, section 4).  Anything that does not pass returns
``None`` and the caller solves exactly.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from exactpoker.lazy import lazy
from exactpoker.solve.lp.sequence_form import StandardLP

sp = lazy("scipy.sparse")

__all__ = ["reconstructed_optimum"]

#: The largest denominator tried for each value, and for the common denominator of all of them.
MAX_DENOMINATOR = 10**6
MAX_COMMON = 2**40
#: Integers of this size or more are left to the exact solve (the checks run in 64-bit integers).
_SAFE = 2**62


def reconstructed_optimum(
    lp: StandardLP, columns: list[int], rows: list[int], values: np.ndarray, duals: np.ndarray
) -> tuple[list[Fraction], list[Fraction]] | None:
    """The exact optimal vertex and multipliers of ``lp`` on the basis ``(columns, rows)``, or None.

    Parameters
    ----------
    lp : StandardLP
    columns, rows : list of int
        The basic columns and the rows whose slack is basic.
    values, duals : numpy.ndarray
        The float solver's vertex (one value a column) and multipliers (one a
        row, ``M^T duals = cost`` on the basic columns).

    Returns
    -------
    (primal, duals) as Fractions, each checked exactly (module docstring); None when a value has no small
    fraction close to it or a check fails.
    """
    matrix = _integer_matrix(lp)
    if matrix is None:
        return None
    tight = np.ones(lp.num_rows, dtype=bool)
    tight[rows] = False
    primal = _over_one_denominator(values, np.asarray(columns, dtype=np.int64), lp.num_cols)
    dual = _over_one_denominator(duals, np.flatnonzero(tight), lp.num_rows)
    if primal is None or dual is None:
        return None
    if not (_primal_holds(lp, matrix, primal, columns, tight) and _dual_holds(lp, matrix, dual, columns, tight)):
        return None
    return _fractions(*primal), _fractions(*dual)


def _integer_matrix(lp: StandardLP) -> "sp.csc_matrix | None":
    """The LP's matrix in 64-bit integers, from its float copy when that holds every entry exactly."""
    starts, indices, floats = lp.csc()
    if len(floats) and not np.max(np.abs(floats)) < 2.0**53:
        return None
    return sp.csc_matrix((floats.astype(np.int64), indices, starts), shape=(lp.num_rows, lp.num_cols))


def _over_one_denominator(floats: np.ndarray, at: np.ndarray, size: int) -> tuple[np.ndarray, int] | None:
    """Integers ``n`` (zero outside ``at``) and one ``d`` with ``floats[at] ~ n[at] / d``; None if there is none
    with small denominators."""
    chosen = floats[at]
    denominator = 1
    for value in np.unique(np.round(chosen, 9)).tolist():
        denominator = math.lcm(denominator, Fraction(value).limit_denominator(MAX_DENOMINATOR).denominator)
        if denominator > MAX_COMMON:
            return None
    scaled = chosen * denominator
    nearest = np.rint(scaled)
    if len(at) and (np.max(np.abs(scaled - nearest)) > 1e-6 or np.max(np.abs(nearest)) >= 2.0**53):
        return None
    integers = np.zeros(size, dtype=np.int64)
    integers[at] = nearest.astype(np.int64)
    return integers, denominator


def _fits(matrix: "sp.csc_matrix", integers: np.ndarray, denominator: int, data: "tuple[int, ...] | list[int]") -> bool:
    """Whether every product with ``matrix`` and every scaled right side stays below 2**62 (no overflow)."""
    largest = int(np.max(np.abs(matrix.data), initial=0)) * int(np.sum(np.abs(integers), dtype=object))
    return largest < _SAFE and max(map(abs, data), default=0) * denominator < _SAFE


def _primal_holds(lp: StandardLP, matrix: "sp.csc_matrix", primal: tuple[np.ndarray, int], columns: list[int],
                  tight: np.ndarray) -> bool:
    """``v >= 0`` on the basic nonnegative columns, ``M v = b`` on the tight rows, the other rows feasible."""
    v, d = primal
    if not _fits(matrix, v, d, lp.rhs):
        return False
    if np.any(v[np.asarray(columns, dtype=np.int64)[np.asarray(columns) < lp.num_nonneg]] < 0):
        return False
    slack = np.array(lp.rhs, dtype=np.int64) * d - matrix @ v
    inequality = np.arange(lp.num_rows) < lp.num_ineq
    return bool(np.all(slack[tight | ~inequality] == 0) and np.all(slack[~tight & inequality] >= 0))


def _dual_holds(lp: StandardLP, matrix: "sp.csc_matrix", dual: tuple[np.ndarray, int], columns: list[int],
                tight: np.ndarray) -> bool:
    """``w >= 0`` on the tight inequality rows; reduced costs zero on basic and free columns, ``<= 0`` elsewhere."""
    w, d = dual
    cost = [lp.cost.get(j, 0) for j in range(lp.num_cols)]
    if not _fits(matrix.T, w, d, cost):
        return False
    if np.any(w[tight & (np.arange(lp.num_rows) < lp.num_ineq)] < 0):
        return False
    reduced = np.array(cost, dtype=np.int64) * d - matrix.T @ w
    zero = np.arange(lp.num_cols) >= lp.num_nonneg
    zero[columns] = True
    return bool(np.all(reduced[zero] == 0) and np.all(reduced[~zero] <= 0))


_ZERO = Fraction(0)


def _fractions(integers: np.ndarray, denominator: int) -> list[Fraction]:
    """``integers / denominator`` as Fractions (the zeros shared)."""
    return [Fraction(n, denominator) if n else _ZERO for n in integers.tolist()]
