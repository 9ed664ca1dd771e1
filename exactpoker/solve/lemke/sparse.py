"""Sparse exact Lemke: the revised path in floating point first, then an exact basis, exact pivots where needed.

Lemke's method (C. E. Lemke, "Bimatrix equilibrium points and mathematical
programming", Management Science 11, 1965) on a linear complementarity problem
``w = q + M z >= 0, z >= 0, w.z = 0`` follows a path of almost complementary
bases of ``I w - M z - d z0 = q`` (covering vector ``d`` of ones) until the
artificial ``z0`` leaves.  Here it is *revised*: no tableau, only a sparse
factorization of the basis updated by eta vectors
(:mod:`exactpoker.solve.lemke.bases`), so the memory is that of the sparse
LCP and its factors, not ``n^2``.  :func:`sparse_lemke` does, in order:

1. the whole path in floating point (:class:`~exactpoker.solve.lemke.bases.FloatBasis`,
   SuperLU factors), keeping a checkpoint (the basis and the entering
   variable) every :data:`CHECKPOINT_EVERY` pivots;
2. the final basis solved exactly (block triangular exact LU); if its basic
   solution is feasible it solves the LCP -- whatever rounding happened on
   the way -- and :meth:`SparseLCP.is_solution` checks that exactly;
3. otherwise the exact path (:class:`~exactpoker.solve.lemke.bases.ExactBasis`)
   from the latest checkpoint whose basis is exactly feasible (trying the
   checkpoints at distances 1, 2, 4, ... from the end), and from the start
   if none is or the path from one fails; the exact ratio test is
   lexicographic, so degenerate problems terminate.

Nothing unchecked is returned: every answer has passed :meth:`SparseLCP.is_solution`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from exactpoker import progress
from exactpoker.errors import CertificationError, DegenerateSystemError
from exactpoker.lazy import lazy
from exactpoker.solve.lemke.bases import ExactBasis, FloatBasis

sp = lazy("scipy.sparse")

__all__ = ["SparseLCP", "LemkeRun", "sparse_lemke", "follow", "exact_path", "CHECKPOINT_EVERY"]

#: Float pivots between two checkpoints of the path.
CHECKPOINT_EVERY = 50


@dataclass(frozen=True)
class SparseLCP:
    """The LCP ``w = q + M z``, integers, ``M`` kept by column (``columns[j] = {i: M_ij}``, no zeros)."""

    columns: list[dict[int, int]]
    q: list[int]

    @property
    def n(self) -> int:
        return len(self.q)

    def column(self, var: int) -> dict[int, int]:
        """Column of variable ``var`` in ``[I | -M | -d]`` (``w_i``: ``i``; ``z_j``: ``n + j``; ``z0``: ``2 n``)."""
        n = self.n
        if var < n:
            return {var: 1}
        if var < 2 * n:
            return {i: -v for i, v in self.columns[var - n].items()}
        return dict.fromkeys(range(n), -1)

    @cached_property
    def float_system(self) -> "sp.csc_matrix":
        """``[I | -M | -d]`` in floating point, one column per variable (for the float bases)."""
        n = self.n
        rows = [i for j in range(2 * n + 1) for i in self.column(j)]
        cols = [j for j in range(2 * n + 1) for _ in self.column(j)]
        vals = [float(v) for j in range(2 * n + 1) for v in self.column(j).values()]
        return sp.csc_matrix((vals, (rows, cols)), shape=(n, 2 * n + 1))

    def is_solution(self, z: list[Fraction]) -> bool:
        """``z >= 0``, ``w = q + M z >= 0`` and ``w.z = 0``, checked exactly."""
        if len(z) != self.n or any(v < 0 for v in z):
            return False
        w = [Fraction(v) for v in self.q]
        for j, value in enumerate(z):
            if value:
                for i, entry in self.columns[j].items():
                    w[i] += entry * value
        return all(v >= 0 for v in w) and not any(a and b for a, b in zip(w, z))


@dataclass
class LemkeRun:
    """What :func:`sparse_lemke` did: pivots in each arithmetic and where the exact path started."""

    float_pivots: int = 0
    exact_pivots: int = 0
    finish: str = ""
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"float_pivots": self.float_pivots, "exact_pivots": self.exact_pivots, "finish": self.finish}


def _complement(var: int, n: int) -> int:
    return var + n if var < n else var - n


def follow(basis: "FloatBasis | ExactBasis", x: Any, entering: int, max_pivots: int,
           checkpoints: list[tuple[list[int], int]] | None = None) -> tuple[Any, int, str]:
    """Lemke's complementary pivoting from ``basis`` (basic solution ``x``) with ``entering`` next to enter.

    Returns ``(x, pivots, how)``: the last basic solution, the pivots done, and
    ``"solved"`` (``z0`` left), ``"ray"`` (no leaving row) or ``"limit"``.
    Every :data:`CHECKPOINT_EVERY` pivots the basis is appended to ``checkpoints``.
    """
    n = basis.lcp.n
    for pivots in range(max_pivots):
        if checkpoints is not None and pivots % CHECKPOINT_EVERY == 0:
            checkpoints.append((list(basis.basic), entering))
        d = basis.ftran(basis.lcp.column(entering))
        row = basis.choose_row(x, d)
        if row is None:
            return x, pivots, "ray"
        leaving = basis.basic[row]
        x = basis.replace(row, d, entering, x)
        progress.advance()
        if leaving == 2 * n:
            return x, pivots + 1, "solved"
        entering = _complement(leaving, n)
    return x, max_pivots, "limit"


def _start(basis: "FloatBasis | ExactBasis") -> Any:
    """The first pivot: ``z0`` enters in the row of the most negative ``q_i`` (the last such row)."""
    q = basis.lcp.q
    low = min(q)
    row = max(i for i, v in enumerate(q) if v == low)
    z0 = 2 * basis.lcp.n
    return basis.replace(row, basis.ftran(basis.lcp.column(z0)), z0, basis.values()), basis.lcp.n + row


def _solution(lcp: SparseLCP, basic: list[int], x: Any) -> list[Fraction] | None:
    """``z`` of the exact basic solution ``x`` on ``basic``, if it solves the LCP (checked exactly)."""
    n = lcp.n
    z = [Fraction(0)] * n
    for var, value in zip(basic, x):
        if n <= var < 2 * n:
            z[var - n] = Fraction(int(value.p), int(value.q))
    return z if lcp.is_solution(z) else None


def exact_path(lcp: SparseLCP, max_pivots: int, basic: list[int] | None = None,
               entering: int | None = None) -> tuple[list[Fraction] | None, int]:
    """Lemke's path in exact arithmetic, from the start or from the almost complementary ``basic``.

    Returns ``(z, pivots)``; ``z`` is ``None`` if the path ends on a ray, runs
    out of pivots, or starts from a basis that is not exactly feasible.
    """
    n = lcp.n
    if basic is None:
        basis = ExactBasis(lcp, list(range(n)))
        x, entering = _start(basis)
    else:
        basis = ExactBasis(lcp, list(basic))
        x = basis.values()
        if 2 * n not in basic or any(v < 0 for v in x):
            return None, 0
    assert entering is not None
    x, pivots, how = follow(basis, x, entering, max_pivots)
    return (_solution(lcp, basis.basic, x) if how == "solved" else None), pivots


def _exact_at(lcp: SparseLCP, basic: list[int]) -> list[Fraction] | None:
    """The exact basic solution on the complementary ``basic``, if it solves the LCP."""
    if 2 * lcp.n in basic:
        return None
    try:
        basis = ExactBasis(lcp, list(basic))
    except DegenerateSystemError:
        return None
    return _solution(lcp, basic, basis.values())


def _float_path(lcp: SparseLCP, max_pivots: int, run: LemkeRun) -> tuple[list[int] | None, list]:
    """The final basis of the float path (``None`` if it failed) and its checkpoints."""
    checkpoints: list[tuple[list[int], int]] = []
    try:
        basis = FloatBasis(lcp, list(range(lcp.n)))
        x, entering = _start(basis)
        x, pivots, how = follow(basis, x, entering, max_pivots, checkpoints)
    except DegenerateSystemError as error:
        run.notes.append(f"float path stopped: {error}")
        return None, checkpoints
    run.float_pivots = pivots + 1
    if how != "solved":
        run.notes.append(f"float path ended: {how}")
        return None, checkpoints
    return basis.basic, checkpoints


def _resume_order(count: int) -> list[int]:
    """Checkpoint indices to try: the last, then 2, 4, 8, ... back from the end (not the first: the start)."""
    order, step = [], 1
    while step < count:
        order.append(count - step)
        step *= 2
    return order


def sparse_lemke(lcp: SparseLCP, max_pivots: int) -> tuple[list[Fraction], LemkeRun]:
    """An exact solution ``z`` of the LCP by the revised Lemke path, float first (module docstring).

    Raises
    ------
    CertificationError
        If no exact path reaches a solution within ``max_pivots`` pivots.
    """
    run = LemkeRun()
    if min(lcp.q) >= 0:
        run.finish = "z = 0"
        return [Fraction(0)] * lcp.n, run
    progress.stage("Lemke's path in floating point (revised, sparse LU)", unit="pivots")
    final, checkpoints = _float_path(lcp, max_pivots, run)
    if final is not None:
        progress.stage("the float path's last basis, exactly")
        z = _exact_at(lcp, final)
        if z is not None:
            run.finish = "float basis exact"
            return z, run
        run.notes.append("the float path's last basis does not solve the LCP exactly")
    for index in _resume_order(len(checkpoints)):
        basic, entering = checkpoints[index]
        progress.stage(f"Lemke's path exactly from float pivot {index * CHECKPOINT_EVERY}", unit="pivots")
        z, pivots = exact_path(lcp, max_pivots, basic, entering)
        run.exact_pivots += pivots
        if z is not None:
            run.finish = f"exact path from float pivot {index * CHECKPOINT_EVERY}"
            return z, run
    progress.stage("Lemke's path in exact arithmetic from the start", unit="pivots")
    z, pivots = exact_path(lcp, max_pivots)
    run.exact_pivots += pivots
    if z is None:
        raise CertificationError(f"Lemke's method reached no solution of the LCP within {max_pivots} exact pivots")
    run.finish = "exact path from the start"
    return z, run
