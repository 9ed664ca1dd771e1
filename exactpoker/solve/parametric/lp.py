"""Linear programs whose constraint matrix is polynomial in a parameter, solved exactly piece by piece.

The LP is ``max c^T v`` s.t. ``M(r) v <= b`` (the first rows), ``M(r) v = b``
(the rest), ``v_j >= 0`` for the first columns and free for the others, with
``M(r)`` a matrix of polynomials in ``r`` (:class:`PolyLP`).  For a two-player
zero-sum game this is player I's sequence-form LP (Koller, Megiddo and von
Stengel 1996; :mod:`exactpoker.solve.lp.sequence_form`) with payoff matrix
``A(r)``: :func:`sequence_form_poly_lp`.  On ``[lower, upper]``:

1. Pick a rational ``t`` in a part not yet covered and find an exactly
   optimal simplex basis of ``M(t)`` (HiGHS's basis, recomputed and repaired
   by exact pivots: :func:`~exactpoker.solve.lp.basis.solve_from_basis`).
2. Solve that basis over ``Q(r)``, fraction-free: with ``K(r)`` the basic
   columns on the tight rows, the solution ``K^{-1} b`` and the multipliers
   ``K^{-T} c_B`` are rational functions with a common denominator dividing
   ``det K(r)``, whose degree is at most the sum of the column degrees of
   ``K`` (and of the row degrees).  They are computed at rational points
   (sparse exact solves, :class:`~exactpoker.solve.lp.sparse_exact.BlockTriangular`),
   a common denominator ``Delta`` is found by rational reconstruction
   (:func:`~exactpoker.solve.algebra.rational_reconstruction.reconstruct`) and the
   numerators ``N = Delta K^{-1} b``, ``W = Delta K^{-T} c_B`` by
   interpolation, with early termination: the identities ``K N = Delta b``
   and ``K^T W = Delta c_B``, checked as polynomials, are the proof, and the
   number of points doubles until they hold (the degree bound caps it).
3. Optimality of the basis for every ``r`` of an interval is the simplex
   method's stopping rule with polynomial signs (Chvátal, *Linear
   Programming*, 1983, ch. 10, sensitivity analysis; here the parameter is in
   the matrix, so the signs are of polynomials, not of linear functions):
   basic variables with a sign ``>= 0`` (``N_j Delta >= 0``), slacks of the
   basic rows ``>= 0`` (``= 0`` identically for equality rows), multipliers
   of tight inequality rows ``>= 0``, reduced costs of nonbasic columns
   ``<= 0`` (``= 0`` identically for free ones), ``Delta != 0``.  Primal and
   dual feasibility with the basis's equal objectives is the LP duality
   certificate.  The largest interval around ``t`` where all hold
   (:func:`~exactpoker.solve.parametric.sign_intervals.largest_interval`, exact roots
   and exact signs between them) is one piece.
4. Repeat on what is left until the pieces cover ``[lower, upper]``.  A
   basis optimal only at ``t`` (``t`` a breakpoint) splits the gap at ``t``.

Only the first piece is found from a sample point as in step 1.  From a
piece's end ``r*`` (an exact breakpoint) the neighbouring basis is found by
walking, the parametric simplex method's step (Gass and Saaty 1955; Chvátal
1983, ch. 10): at a rational ``s`` just past ``r*`` the old basis fails in a
few rows, and exact pivots at ``s`` from it (primal simplex pivots if it is
still primal feasible there, dual simplex pivots if it is still dual
feasible: :func:`~exactpoker.solve.lp.basis.pivot_to_optimum`) reach a basis
optimal at ``s``; steps 2-3 then give its piece, which starts at ``r*`` unless
``s`` was past the neighbouring piece too (then the gap left is walked again
with a closer ``s``).  Where the walk gives up (a basis neither primal nor
dual feasible at ``s``, or too many pivots) the gap's piece is found from a
sample point as in step 1 (the piece's ``found_by`` says which).  A walked
piece's ``sample`` (where its strategies are checked again) is the simplest
rational inside it.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, Sequence

from flint import fmpq, fmpq_poly

from exactpoker.algebraic import RealAlgebraic, rational_between
from exactpoker.core.compiled import SequenceLayout
from exactpoker.core.parametric import interpolate_many
from exactpoker.errors import DegenerateSystemError, InvalidParameterError
from exactpoker.solve.lp.basis import pivot_to_optimum, solve_from_basis
from exactpoker.solve.lp.float_guide import optimal_basis
from exactpoker.solve.algebra.rational_reconstruction import reconstruct
from exactpoker.solve.lp.sequence_form import StandardLP, realization_matrix
from exactpoker.solve.parametric.sign_intervals import compare, largest_interval
from exactpoker.solve.lp.sparse_exact import BlockTriangular

__all__ = ["PolyLP", "LPPiece", "sequence_form_poly_lp", "piecewise_lp"]

_ZERO = fmpq_poly([])


@dataclass(frozen=True)
class PolyLP:
    """``max c^T v`` s.t. ``M(r) v <= b`` (first ``num_ineq`` rows), ``= b`` (the rest); ``v_j >= 0`` for ``j < num_nonneg``.

    ``columns[j]`` is column ``j`` of ``M(r)`` as ``{row: polynomial}``; the
    right-hand side and the cost are integers (constant in ``r``).
    """

    columns: tuple[dict[int, fmpq_poly], ...]
    rhs: tuple[int, ...]
    cost: dict[int, int]
    num_ineq: int
    num_nonneg: int

    @property
    def num_rows(self) -> int:
        return len(self.rhs)

    def at(self, t: Fraction) -> StandardLP:
        """The LP at ``r = t`` with integer data (each row scaled by the common denominator of its entries)."""
        point = fmpq(t.numerator, t.denominator)
        values = [{i: poly(point) for i, poly in column.items()} for column in self.columns]
        scale = [1] * self.num_rows
        for column in values:
            for i, v in column.items():
                scale[i] = math.lcm(scale[i], int(v.q))
        columns = tuple({i: int(v * scale[i]) for i, v in column.items() if v != 0} for column in values)
        rhs = tuple(b * s for b, s in zip(self.rhs, scale))
        return StandardLP(columns, rhs, dict(self.cost), self.num_ineq, self.num_nonneg)


def sequence_form_poly_lp(layouts: Sequence[SequenceLayout], payoff: Mapping[tuple[int, int], fmpq_poly]) -> PolyLP:
    """Player I's sequence-form LP (as :func:`~exactpoker.solve.lp.sequence_form.standard_lp`) with payoffs ``A(r)``.

    Variables ``x`` (player I's sequences, ``>= 0``), then ``q`` (free, one per
    row of ``F``); rows ``F^T q - A(r)^T x <= 0`` (one per player II sequence:
    their multipliers are player II's realization plan), then ``E x = e``.
    The objective ``q_0`` is the value of the game.
    """
    first, second = layouts
    num_x, num_y = first.num_sequences, second.num_sequences
    columns: list[dict[int, fmpq_poly]] = [{} for _ in range(num_x + 1 + second.num_infosets)]
    for (s, t), poly in payoff.items():
        if not poly.is_zero():
            columns[s][t] = columns[s].get(t, _ZERO) - poly
    f_coo, e_coo = realization_matrix(second).tocoo(), realization_matrix(first).tocoo()
    for r, c, v in zip(f_coo.row.tolist(), f_coo.col.tolist(), f_coo.data.tolist()):
        columns[num_x + r][c] = fmpq_poly([int(v)])
    for r, c, v in zip(e_coo.row.tolist(), e_coo.col.tolist(), e_coo.data.tolist()):
        columns[c][num_y + r] = fmpq_poly([int(v)])
    rhs = tuple(1 if i == num_y else 0 for i in range(num_y + 1 + first.num_infosets))
    return PolyLP(tuple(columns), rhs, {num_x: 1}, num_y, num_x)


# -- one basis over Q(r) -------------------------------------------------------------


@dataclass(frozen=True)
class LPPiece:
    """One optimal basis and the interval ``[start, end]`` on which it is optimal (``end = None``: infinity).

    Values are ``numerator / delta``: ``primal`` for the basic columns (the
    others are 0), ``duals`` for the tight rows (the others are 0).
    ``sample`` is a rational point of the piece: where the basis was found
    (``found_by == "sample"``: HiGHS's basis there made exact), or the
    simplest rational inside the piece (``found_by == "walk"``: exact pivots
    from a neighbouring piece's basis, module docstring).
    """

    start: RealAlgebraic
    end: RealAlgebraic | None
    sample: Fraction
    delta: fmpq_poly
    primal: dict[int, fmpq_poly]
    duals: dict[int, fmpq_poly]
    found_by: str = "sample"

    def basis(self, lp: PolyLP) -> tuple[list[int], list[int]]:
        """The basic columns and the rows whose slack is basic (the rows not tight)."""
        return list(self.primal), [i for i in range(lp.num_rows) if i not in self.duals]

    def objective(self, lp: PolyLP) -> tuple[fmpq_poly, fmpq_poly]:
        """The objective as ``(numerator, delta)``."""
        total = _ZERO
        for j, c in lp.cost.items():
            total += self.primal.get(j, _ZERO) * c
        return total, self.delta


def _exact_basis(lp: PolyLP, t: Fraction) -> tuple[list[int], list[int]]:
    """An exactly optimal basis at ``r = t`` (HiGHS's basis made exact; a second algorithm if the first fails)."""
    standard = lp.at(t)
    for algorithm in ("dual simplex", "interior point"):
        try:
            solution = solve_from_basis(standard, *optimal_basis(standard, algorithm), max_pivots=500)
        except DegenerateSystemError:
            continue
        return list(solution.basic_columns), list(solution.basic_rows)
    raise DegenerateSystemError(f"parametric LP: no exact optimal basis found at r = {t}")


def _degree_bound(matrix: list[dict[int, fmpq_poly]]) -> int:
    """A bound on ``deg det``: the smaller of the sums of column and of row degrees."""
    by_column = sum(max((p.degree() for p in col.values()), default=0) for col in matrix)
    rows: dict[int, int] = {}
    for col in matrix:
        for i, p in col.items():
            rows[i] = max(rows.get(i, 0), p.degree())
    return max(0, min(by_column, sum(rows.values())))


def _solve_at(matrix: list[dict[int, fmpq_poly]], rhs: list[int], cost: list[int], point: fmpq) -> list[fmpq] | None:
    """``K^{-1} b`` then ``K^{-T} c`` at one point (sparse, block by block), or None where ``K`` is singular."""
    columns = []
    for col in matrix:
        values = {i: p(point) for i, p in col.items()}
        columns.append({i: v for i, v in values.items() if v != 0})
    try:
        solver = BlockTriangular(columns)
        return solver.solve(rhs) + solver.solve_transpose(cost)
    except DegenerateSystemError:
        return None


def _lift(lp: PolyLP, columns: list[int], rows: list[int], t: Fraction) -> tuple[fmpq_poly, list[fmpq_poly], list[fmpq_poly], list[int]]:
    """The basis solved over ``Q(r)``: ``Delta``, the basic columns' and the tight rows' numerators, tight rows.

    The solution is computed at rational points (sparse exact solves); a
    common denominator ``Delta`` is reconstructed from a random combination of
    the components (:func:`~exactpoker.solve.algebra.rational_reconstruction.reconstruct`), the numerators ``Delta * value``
    interpolated, and the identities ``K N = Delta b``, ``K^T W = Delta c``
    checked as polynomials: that check is the proof.  Points (``t``, then the
    integers above it: a walk's ``t`` has a large denominator) are doubled
    until it holds; by ``2 deg det + 2`` points it must (the degree bound).
    """
    basic_rows = set(rows)
    tight = [i for i in range(lp.num_rows) if i not in basic_rows]
    position = {i: k for k, i in enumerate(tight)}
    matrix = [{position[i]: p for i, p in lp.columns[j].items() if i in position} for j in columns]
    rhs = [lp.rhs[i] for i in tight]
    cost = [lp.cost.get(j, 0) for j in columns]
    limit = 2 * _degree_bound(matrix) + 3
    points: list[Fraction] = []
    samples: list[list[fmpq]] = []
    candidate, wanted, attempt, at_limit = t, 6, 0, 0
    while True:
        while len(points) < min(wanted, limit):
            found = _solve_at(matrix, rhs, cost, fmpq(candidate.numerator, candidate.denominator))
            if found is not None:
                points.append(candidate)
                samples.append(found)
            elif candidate == t:
                raise DegenerateSystemError(f"parametric LP: the basis found at r = {t} is singular there")
            candidate = Fraction(math.floor(candidate) + 1)  # then integers: small numbers in the exact solves
        attempt += 1
        lifted = _try_lift(matrix, rhs, cost, points, samples, attempt)
        if lifted is not None:
            delta, primal, duals = lifted
            return delta, primal, duals, tight
        at_limit += len(points) >= limit
        if at_limit > 3:
            raise DegenerateSystemError("parametric LP: no polynomial solution of the basis (reconstruction failed)")
        wanted = min(2 * wanted, limit)


def _try_lift(matrix: list[dict[int, fmpq_poly]], rhs: list[int], cost: list[int], points: list[Fraction],
              samples: list[list[fmpq]], seed: int) -> tuple[fmpq_poly, list[fmpq_poly], list[fmpq_poly]] | None:
    """Denominator, primal and dual numerators from the samples, if they satisfy the identities."""
    size = len(samples[0])
    chooser = random.Random(seed)  # a fixed pseudo-random combination (not an arithmetic progression: poles cancel)
    weights = [chooser.randint(1, 2**20) for _ in range(size)]
    combined = [sum((w * v for w, v in zip(weights, sample) if v), fmpq(0)) for sample in samples]
    found = reconstruct(points[:-1], combined[:-1])
    last = fmpq(points[-1].numerator, points[-1].denominator)
    if found is None or found[0](last) != combined[-1] * found[1](last):
        return None  # not enough points yet: the held-out point disagrees (cheap, before the numerators)
    delta = found[1]
    scale = [delta(fmpq(p.numerator, p.denominator)) for p in points]
    numerators = interpolate_many(points, [[d * sample[k] for d, sample in zip(scale, samples)] for k in range(size)])
    half = len(matrix)
    primal, duals = numerators[:half], numerators[half:]
    try:
        _check_identities(matrix, rhs, cost, delta, primal, duals)
    except DegenerateSystemError:
        return None
    return delta, primal, duals


def _check_identities(matrix: list[dict[int, fmpq_poly]], rhs: list[int], cost: list[int], delta: fmpq_poly,
                      primal: list[fmpq_poly], duals: list[fmpq_poly]) -> None:
    """``K N = Delta b`` and ``K^T W = Delta c`` as polynomial identities (the interpolation's proof)."""
    rows = [delta * -b for b in rhs]
    for j, col in enumerate(matrix):
        total = delta * -cost[j]
        for i, p in col.items():
            rows[i] += p * primal[j]
            total += p * duals[i]
        if not total.is_zero():
            raise DegenerateSystemError("parametric LP: interpolated duals fail K^T W = Delta c")
    if any(not r.is_zero() for r in rows):
        raise DegenerateSystemError("parametric LP: interpolated solution fails K N = Delta b")


def _conditions(lp: PolyLP, columns: list[int], tight: list[int], delta: fmpq_poly, primal: list[fmpq_poly],
                duals: list[fmpq_poly]) -> tuple[list[fmpq_poly], list[fmpq_poly]] | None:
    """The optimality conditions ``p >= 0`` (module docstring, step 3) and their factors; None if one fails identically."""
    values = dict(zip(columns, primal))
    multipliers = dict(zip(tight, duals))
    activity = [_ZERO] * lp.num_rows
    for j, n in values.items():
        for i, p in lp.columns[j].items():
            activity[i] += p * n
    signs = [n for j, n in values.items() if j < lp.num_nonneg]
    tight_set = set(tight)
    for i in range(lp.num_rows):
        if i in tight_set:
            if i < lp.num_ineq:
                signs.append(multipliers[i])
        else:
            slack = delta * lp.rhs[i] - activity[i]
            if i < lp.num_ineq:
                signs.append(slack)
            elif not slack.is_zero():
                return None
    basic = set(columns)
    for j in range(len(lp.columns)):
        if j in basic:
            continue
        reduced = delta * lp.cost.get(j, 0)
        for i, p in lp.columns[j].items():
            if i in multipliers:
                reduced -= p * multipliers[i]
        if j < lp.num_nonneg:
            signs.append(-reduced)
        elif not reduced.is_zero():
            return None
    factors = [s for s in signs if not s.is_zero()]
    return [s * delta for s in factors], factors + [delta]


def _piece_at(lp: PolyLP, t: Fraction, lower: RealAlgebraic, upper: RealAlgebraic | None) -> LPPiece | None:
    """The piece of the optimal basis found at ``t`` (None if that basis is optimal at ``t`` only)."""
    return _piece_of(lp, *_exact_basis(lp, t), t, lower, upper)


def _piece_of(lp: PolyLP, columns: list[int], rows: list[int], t: Fraction, lower: RealAlgebraic,
              upper: RealAlgebraic | None, found_by: str = "sample") -> LPPiece | None:
    """The piece of a basis optimal at ``t``, within ``[lower, upper]`` (None if it is optimal at ``t`` only)."""
    delta, primal, duals, tight = _lift(lp, columns, rows, t)
    found = _conditions(lp, columns, tight, delta, primal, duals)
    if found is None:
        return None
    conditions, critical = found
    start, end = largest_interval(conditions, [delta], t, lower, upper, critical=critical)
    if end is not None and start.same(end):
        return None
    sample = t if found_by == "sample" else rational_between(start, end)
    return LPPiece(start, end, sample, delta, dict(zip(columns, primal)), dict(zip(tight, duals)), found_by)


def _walk(lp: PolyLP, anchor: LPPiece, lower: RealAlgebraic, upper: RealAlgebraic | None,
          up: bool) -> LPPiece | None:
    """The piece next to ``anchor`` in the gap ``[lower, upper]`` (``anchor`` ends at ``lower`` if ``up``, else
    starts at ``upper``), by exact pivots from its basis at a rational just past that end; None if they give up."""
    s = _step_past(anchor, lower, upper, up)
    try:
        solution = pivot_to_optimum(lp.at(s), *anchor.basis(lp), max_pivots=_WALK_PIVOTS)
    except DegenerateSystemError:
        return None
    return _piece_of(lp, list(solution.basic_columns), list(solution.basic_rows), s, lower, upper, "walk")


#: Exact pivots one walk may take before the gap falls back to a sample point.
_WALK_PIVOTS = 200


def _step_past(anchor: LPPiece, lower: RealAlgebraic, upper: RealAlgebraic | None, up: bool) -> Fraction:
    """A simple rational in the gap ``(lower, upper)`` near its end at ``anchor``: within a quarter of the
    anchor's width and of the gap's."""
    end = anchor.start if anchor.end is None else anchor.end
    width = abs(float(end) - float(anchor.start)) if anchor.end is not None else 1.0
    gap = 1.0 if upper is None else float(upper) - float(lower)
    step = Fraction(min(width, gap) / 4).limit_denominator(2**40) or Fraction(1, 2**40)
    near = lower if up else upper
    assert near is not None
    while near.upper - near.lower >= step / 2:
        near = near.refined()
    if up:
        bound = RealAlgebraic.rational(near.upper + step)
        return rational_between(lower, bound if upper is None or bound < upper else upper)
    bound = RealAlgebraic.rational(near.lower - step)
    return rational_between(bound if lower < bound else lower, upper)


def piecewise_lp(lp: PolyLP, lower: object, upper: object | None, *, max_steps: int = 2000,
                 walk: bool = True) -> list[LPPiece]:
    """Optimal bases of ``lp`` covering ``[lower, upper]``, each certified optimal on its whole piece.

    Parameters
    ----------
    lp : PolyLP
    lower, upper : rational
        The interval of the parameter (``upper = None``: ``[lower, oo)``).
    max_steps : int
        Bound on the number of steps (each one a walk or a sample point, and an exact basis over ``Q(r)``).
    walk : bool
        Find each piece after the first by walking from its neighbour (module
        docstring); False: every piece from a sample point (an independent
        method, for cross-checks).

    Returns
    -------
    list of LPPiece
        In increasing order; consecutive pieces share their end points.

    Raises
    ------
    DegenerateSystemError
        If the interval is not covered after ``max_steps`` steps.
    """
    lo = RealAlgebraic.rational(Fraction(lower))  # type: ignore[arg-type]
    hi = None if upper is None else RealAlgebraic.rational(Fraction(upper))  # type: ignore[arg-type]
    if hi is not None and not lo < hi:
        raise InvalidParameterError("piecewise_lp(): need lower < upper")
    pieces: list[LPPiece] = []
    # a gap, and the pieces next to it on the left and on the right (None: none, or its walk gave up)
    gaps: list[tuple[RealAlgebraic, RealAlgebraic | None, LPPiece | None, LPPiece | None]] = [(lo, hi, None, None)]
    anchor = (lambda piece: piece) if walk else (lambda piece: None)
    steps = 0
    while gaps:
        a, b, left, right = gaps.pop()
        steps += 1
        if steps > max_steps:
            raise DegenerateSystemError(f"piecewise_lp(): not covered after {max_steps} steps")
        piece = None
        if left is not None or right is not None:
            piece = _walk(lp, left or right, a, b, up=left is not None)  # type: ignore[arg-type]
            if piece is None:  # the walk gave up: the other side's walk, or a sample point, next
                gaps.append((a, b, None, right) if left is not None else (a, b, None, None))
                continue
        else:
            t = rational_between(a, b)
            piece = _piece_at(lp, t, a, b)
            if piece is None:
                here = RealAlgebraic.rational(t)
                gaps += [(a, here, None, None), (here, b, None, None)]
                continue
        pieces.append(piece)
        if a < piece.start:
            gaps.append((a, piece.start, left, anchor(piece)))
        if piece.end is not None and (b is None or piece.end < b):
            gaps.append((piece.end, b, anchor(piece), right))
    pieces.sort(key=lambda p: _Key(p.start))
    return pieces


class _Key:
    """Sort key for real algebraic numbers."""

    def __init__(self, number: RealAlgebraic) -> None:
        self.number = number

    def __lt__(self, other: "_Key") -> bool:
        return compare(self.number, other.number) < 0
