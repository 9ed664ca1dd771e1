"""The square polynomial system of a support's interior gains, as the N-player exact finish solves it.

Seed 003's method (section 3) ends on a support whose interior gains must
vanish.  :mod:`exactpoker.solve.nplayer.finish` chooses a square part of them at
the float guide (equations ``rows``, unknowns ``cols``, the other interior
variables pinned at simple rationals); this module holds that system's exact
pieces:

* :func:`independent_columns`: a well-conditioned basis of a float matrix's
  columns (pivoted QR), the choice of equations and unknowns;
* :func:`square_system`: the system again when pinning made equations vanish
  identically (equations chosen anew, unknowns they do not fix pinned);
* :func:`free_columns`: the unknowns no equation involves.  Such a
  coordinate is free on the support (a family of equilibria through the
  point): whatever its value, the equations hold, so it is pinned at a simple
  rational instead of being left at the float guide's value, and the
  certificate decides whether the point is an equilibrium.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Sequence

import numpy as np

from exactpoker.core.compiled import CompiledGame
from exactpoker.core.support_system import gain_polynomials
from exactpoker.lazy import lazy
from exactpoker.solve.algebra.elimination import jacobian_at

scipy = lazy("scipy")

if TYPE_CHECKING:  # pragma: no cover
    import flint

__all__ = ["independent_columns", "square_system", "free_columns"]


def independent_columns(matrix: np.ndarray, tol: float = 1e-5) -> list[int]:
    """Columns of ``matrix`` that form a well-conditioned basis of its column space (pivoted QR)."""
    if matrix.size == 0:
        return []
    _, r, piv = scipy.linalg.qr(matrix, pivoting=True, mode="economic")
    diag = np.abs(np.diag(r))
    scale = diag[0] if len(diag) and diag[0] > 0 else 1.0
    rank = int(np.sum(diag > tol * scale))
    return sorted(int(c) for c in piv[:rank])


def square_system(compiled: CompiledGame, x: list[Fraction], x_float: np.ndarray, rows: list[int],
                  cols: list[int], interior: list[int], *, tol: float = 1e-5, bound: int = 10
                  ) -> tuple[list[Fraction], list[int], list[int], "flint.fmpq_mpoly_ctx | None", list["flint.fmpq_mpoly"]]:
    """The square system ``f_rows = 0`` in ``x_cols`` as polynomials: ``(x, cols, rows, ctx, gains)``.

    ``gains`` are every variable's gain in the ``cols`` (:func:`exactpoker.core.support_system.gain_polynomials`).
    If some of ``rows`` vanish identically once the pinned and boundary
    variables take their exact values, the equations are chosen again among
    all interior gains (independent at the float point, relative tolerance
    ``tol``), and columns they do not fix are pinned at the rationals of
    denominator at most ``bound`` nearest their float values.
    """
    if not cols:
        return x, [], [], None, []
    system = gain_polynomials(compiled, x, cols)
    ctx, gains = system.ctx, list(system.gains)
    if rows and not any(gains[r].is_zero() for r in rows):
        return x, cols, rows, ctx, gains
    point = [float(x_float[k]) for k in cols]
    candidates = [k for k in interior if not gains[k].is_zero()]
    chosen = independent_columns(jacobian_at([gains[k] for k in candidates], ctx, point).T, tol) if candidates else []
    rows = [candidates[i] for i in chosen]
    if len(rows) < len(cols):  # fewer conditions than unknowns: pin the columns they do not fix
        keep = ([cols[c] for c in independent_columns(jacobian_at([gains[r] for r in rows], ctx, point), tol)]
                if rows else [])
        x = list(x)
        for k in cols:
            if k not in keep:
                x[k] = Fraction(float(x_float[k])).limit_denominator(bound)
        return square_system(compiled, x, x_float, [], keep, interior, tol=tol, bound=bound)
    return x, cols, rows, ctx, gains


def free_columns(gains: Sequence["flint.fmpq_mpoly"], rows: Sequence[int], cols: Sequence[int]
                 ) -> tuple[list[int], list[int], list[int]]:
    """The system ``gains[rows] = 0`` in ``x_cols`` without its free unknowns: ``(rows, cols, free)``.

    ``gains`` are polynomials in the ``cols`` (in that order).  A column that
    no equation involves (every ``rows`` polynomial has degree 0 in it) is
    free: the equations hold whatever its value.  The identically zero
    equations are dropped and the free columns split off when what is left is
    square again; otherwise the system is returned as it is, with no free
    column.
    """
    equations = [r for r in rows if not gains[r].is_zero()]
    involved = {i for r in equations for i, d in enumerate(gains[r].degrees()) if d > 0}
    free = [k for i, k in enumerate(cols) if i not in involved]
    kept = [k for i, k in enumerate(cols) if i in involved]
    if not free or len(equations) != len(kept):
        return list(rows), list(cols), []
    return equations, kept, free
