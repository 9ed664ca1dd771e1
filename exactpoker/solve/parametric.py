"""The value of a zero-sum matrix game with payoffs linear in a parameter, as an exact piecewise function.

For ``M(r) = M0 + r M1`` (rational matrices, the row player maximizes) the
value ``v(r)`` is continuous and piecewise rational in ``r``: on each piece an
extreme optimal pair comes from one square subsystem (Shapley and Snow's
kernel), whose solution by Cramer's rule is a ratio of polynomials in ``r``.
Breakpoints are real roots of such polynomials: rationals, or algebraic
numbers given by an irreducible polynomial and an isolating interval
(:class:`~exactpoker.algebraic.RealAlgebraic`).  The method, on ``[lower, upper]``:

1. Pick a rational ``r0`` in an uncovered part and solve ``M(r0)`` exactly
   (:func:`~exactpoker.solve.simplex.solve_matrix_game`): extreme optimal
   ``x*``, ``y*`` and the value.
2. Kernel: ``x*`` is the unique solution of its tight column equations
   ``(x^T M)_j = v`` (``x_i = 0`` off its support) with ``sum x = 1``;
   choose ``|supp x*|`` of them that are independent at ``r0`` and solve that
   square system over ``Q[r]`` (fraction-free): ``x(r)`` and ``v(r)``.  The
   same for ``y*`` on ``-M^T``.
3. Certificate for a whole interval, not just at points: ``v(r)`` and the
   column player's ``w(r)`` are the same rational function, and
   ``x(r) >= 0``, ``y(r) >= 0``, ``x(r)^T M(r) >= v(r)``,
   ``M(r) y(r) <= v(r)`` componentwise.  Each condition is the sign of one
   polynomial; the real roots of all of them are isolated exactly, and the
   signs are checked exactly on every cell between roots.  The largest
   interval around ``r0`` on which everything holds is one piece.
4. Repeat on what is left until the pieces cover ``[lower, upper]``;
   neighbouring pieces with the same value function are one piece of
   :meth:`PiecewiseValue.value_pieces`.

At a breakpoint the value is the common limit of the neighbouring pieces (the
value of a matrix game is continuous in its entries).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

import sympy
from flint import fmpq_poly
from sympy import QQ
from sympy.polys.matrices import DomainMatrix

from exactpoker.algebraic import RealAlgebraic, rational_between, real_roots, to_fmpq
from exactpoker.errors import CertificationError, DegenerateSystemError, InvalidParameterError
from exactpoker.numbers import exact_str, to_fraction
from exactpoker.solve.simplex import solve_matrix_game

__all__ = ["Piece", "PiecewiseValue", "parametric_value", "SYMBOL"]

#: The parameter in the returned formulas.
SYMBOL = sympy.Symbol("r")
_RING = QQ[SYMBOL]
_R = _RING.gens[0]


# -- the kernel formulas ---------------------------------------------------------------


def _poly(element: Any) -> fmpq_poly:
    return fmpq_poly(list(reversed(element.to_dense())))


@dataclass(frozen=True)
class _Formula:
    """``x(r) = numerators / denominator`` on the support, and ``v(r) = value / denominator``."""

    support: tuple[int, ...]
    numerators: tuple[fmpq_poly, ...]
    value: fmpq_poly
    denominator: fmpq_poly


def _independent_rows(candidates: list[tuple[int, list[Fraction]]], first: list[Fraction], size: int) -> list[int]:
    """Keys of candidate rows that, with ``first``, make ``size`` independent rows (greedy elimination)."""
    echelon: list[tuple[int, list[Fraction]]] = []

    def reduce(row: list[Fraction]) -> list[Fraction]:
        row = list(row)
        for pivot, base in echelon:
            if row[pivot]:
                factor = row[pivot] / base[pivot]
                row = [u - factor * w for u, w in zip(row, base)]
        return row

    def add(row: list[Fraction]) -> bool:
        row = reduce(row)
        pivot = next((k for k, u in enumerate(row) if u), None)
        if pivot is None:
            return False
        echelon.append((pivot, row))
        return True

    add(first)
    chosen = []
    for key, row in candidates:
        if len(echelon) == size:
            break
        if add(row):
            chosen.append(key)
    if len(echelon) < size:
        raise DegenerateSystemError("parametric: the optimal strategy at the sample point is not extreme")
    return chosen


def _kernel(base: list[list[Fraction]], slope: list[list[Fraction]], t: Fraction,
            x: Sequence[Fraction], value: Fraction) -> _Formula:
    """The row player's ``x(r)``, ``v(r)`` from the column equations that pin the extreme ``x`` at ``t``."""
    rows, cols = len(base), len(base[0])
    support = tuple(i for i in range(rows) if x[i])
    at_t = [[base[i][j] + t * slope[i][j] for j in range(cols)] for i in range(rows)]
    tight = [j for j in range(cols) if sum((x[i] * at_t[i][j] for i in support), Fraction(0)) == value]
    size = len(support) + 1
    candidates = [(j, [at_t[i][j] for i in support] + [Fraction(-1)]) for j in tight]
    chosen = _independent_rows(candidates, [Fraction(1)] * len(support) + [Fraction(0)], size)

    def entry(i: int, j: int) -> Any:
        return _RING.convert(QQ(base[i][j].numerator, base[i][j].denominator)) + \
            QQ(slope[i][j].numerator, slope[i][j].denominator) * _R

    matrix = [[_RING.one] * len(support) + [_RING.zero]]
    matrix += [[entry(i, j) for i in support] + [-_RING.one] for j in chosen]
    rhs = [[_RING.one]] + [[_RING.zero] for _ in chosen]
    numer, denom = DomainMatrix(matrix, (size, size), _RING).solve_den(DomainMatrix(rhs, (size, 1), _RING))
    polys = [_poly(numer[k, 0].element) for k in range(size)]
    return _Formula(support, tuple(polys[:-1]), polys[-1], _poly(denom))


def _conditions(base: list[list[Fraction]], slope: list[list[Fraction]], f: _Formula) -> list[fmpq_poly]:
    """Polynomials that must be ``>= 0``: ``x_i D^2``-signs and ``((x^T M)_j - v) D``-signs."""
    out = [n * f.denominator for n in f.numerators]
    r = fmpq_poly([0, 1])
    for j in range(len(base[0])):
        total = -f.value
        for i, n in zip(f.support, f.numerators):
            total += n * (to_fmpq(base[i][j]) + to_fmpq(slope[i][j]) * r)
        out.append(total * f.denominator)
    return [p for p in out if not p.is_zero()]


# -- pieces --------------------------------------------------------------------------


@dataclass(frozen=True)
class Piece:
    """One piece: on ``[start, end]`` (``end = None``: no upper end) these strategies are optimal.

    ``value``, ``row_strategy`` and ``column_strategy`` are sympy rational
    functions of :data:`SYMBOL`; ``sample`` is the rational point where the
    piece was found.  Every condition of optimality was checked exactly for
    every ``r`` in the piece (module docstring, step 3).
    """

    start: RealAlgebraic
    end: RealAlgebraic | None
    value: sympy.Expr
    row_strategy: tuple[sympy.Expr, ...]
    column_strategy: tuple[sympy.Expr, ...]
    sample: Fraction

    def contains(self, point: RealAlgebraic) -> bool:
        return not point < self.start and (self.end is None or not self.end < point)


def _sympy_poly(poly: fmpq_poly) -> sympy.Expr:
    return sum((sympy.Rational(int(c.p), int(c.q)) * SYMBOL**k for k, c in enumerate(poly.coeffs())), sympy.S(0))


def _strategy(formula: _Formula, size: int) -> tuple[sympy.Expr, ...]:
    den = _sympy_poly(formula.denominator)
    values = [sympy.S(0)] * size
    for i, n in zip(formula.support, formula.numerators):
        values[i] = sympy.cancel(_sympy_poly(n) / den)
    return tuple(values)


@dataclass(frozen=True)
class PiecewiseValue:
    """The exact value of ``M0 + r M1`` for ``r`` in ``[lower, upper]``, piece by piece.

    Attributes
    ----------
    lower, upper : RealAlgebraic (``upper = None``: infinity)
    pieces : tuple of Piece
        In increasing order; consecutive pieces share their end points.
    """

    lower: RealAlgebraic
    upper: RealAlgebraic | None
    pieces: tuple[Piece, ...]

    def value_pieces(self) -> list[tuple[RealAlgebraic, RealAlgebraic | None, sympy.Expr]]:
        """``(start, end, value)``, neighbouring pieces with the same value function merged."""
        merged: list[list[Any]] = []
        for piece in self.pieces:
            if merged and sympy.cancel(merged[-1][2] - piece.value) == 0:
                merged[-1][1] = piece.end
            else:
                merged.append([piece.start, piece.end, piece.value])
        return [tuple(m) for m in merged]  # type: ignore[misc]

    def breakpoints(self) -> list[RealAlgebraic]:
        """Where the value function changes formula."""
        return [start for start, _, _ in self.value_pieces()[1:]]

    def value_at(self, point: object) -> sympy.Expr:
        """The exact value at a rational ``point`` of the domain."""
        where = RealAlgebraic.rational(to_fraction(point, "r"))
        for piece in self.pieces:
            if piece.contains(where):
                value = sympy.cancel(piece.value).subs(SYMBOL, where.to_sympy())
                if value.is_finite:
                    return value
        raise InvalidParameterError(f"r = {exact_str(where.lower)} is outside the domain of the piecewise value")

    def to_dict(self) -> dict[str, Any]:
        return {
            "parameter": str(SYMBOL),
            "pieces": [
                {"from": str(start), "to": "oo" if end is None else str(end), "value": str(value)}
                for start, end, value in self.value_pieces()
            ],
            "breakpoints": [str(b) for b in self.breakpoints()],
        }

    def describe(self) -> str:
        lines = []
        for start, end, value in self.value_pieces():
            upper = "oo" if end is None else str(end)
            lines.append(f"  {start} <= r <= {upper}: {sympy.factor(value)}")
        return "\n".join(lines)


def _region(conditions: list[fmpq_poly], nonzero: list[fmpq_poly], t: Fraction,
            lower: RealAlgebraic, upper: RealAlgebraic | None) -> tuple[RealAlgebraic, RealAlgebraic | None]:
    """The largest interval around ``t`` within ``[lower, upper]`` where every condition is ``>= 0``."""
    def holds_at(q: Fraction) -> bool:
        return all(p(to_fmpq(q)) >= 0 for p in conditions) and all(d(to_fmpq(q)) != 0 for d in nonzero)

    if not holds_at(t):
        raise CertificationError(f"parametric: the exact solution at r = {exact_str(t)} fails its own check")
    here = RealAlgebraic.rational(t)
    roots: list[RealAlgebraic] = []
    for poly in {str(p): p for p in conditions + nonzero}.values():
        for root in real_roots(poly):
            if lower < root and (upper is None or root < upper) and not any(root.same(o) for o in roots):
                roots.append(root)
    roots.sort(key=functools.cmp_to_key(lambda a, b: -1 if a < b else (1 if b < a else 0)))
    above = [root for root in roots if here < root]
    below = [root for root in reversed(roots) if root < here]

    def walk(steps: list[RealAlgebraic], bound: RealAlgebraic | None, up: bool) -> RealAlgebraic | None:
        current = here
        for root in steps + [bound]:
            if root is None:
                sample = rational_between(current, None)
            else:
                sample = rational_between(current, root) if up else rational_between(root, current)
            if not holds_at(sample):
                return current
            if root is None or root is bound or any(root.vanishes(d) for d in nonzero):
                return root
            current = root
        return current  # pragma: no cover - the loop always returns

    return walk(below, lower, False), walk(above, upper, True)  # type: ignore[return-value]


def _piece_at(base: list[list[Fraction]], slope: list[list[Fraction]], t: Fraction,
              lower: RealAlgebraic, upper: RealAlgebraic | None) -> Piece | None:
    """The piece through ``t`` (``None`` if the optimal pair found at ``t`` is optimal only at ``t``)."""
    at_t = [[b + t * s for b, s in zip(rb, rs)] for rb, rs in zip(base, slope)]
    solution = solve_matrix_game(at_t)
    neg_t = [list(col) for col in zip(*[[-v for v in row] for row in base])]
    neg_s = [list(col) for col in zip(*[[-v for v in row] for row in slope])]
    try:
        fx = _kernel(base, slope, t, solution.row_strategy, solution.value)
        fy = _kernel(neg_t, neg_s, t, solution.column_strategy, -solution.value)
    except DegenerateSystemError:
        return None
    if not (fx.value * fy.denominator + fy.value * fx.denominator).is_zero():
        return None  # the two kernels agree at t only
    conditions = _conditions(base, slope, fx) + _conditions(neg_t, neg_s, fy)
    start, end = _region(conditions, [fx.denominator, fy.denominator], t, lower, upper)
    if start.same(RealAlgebraic.rational(t)) and end is not None and end.same(start):
        return None
    value = sympy.cancel(_sympy_poly(fx.value) / _sympy_poly(fx.denominator))
    return Piece(start, end, value, _strategy(fx, len(base)), _strategy(fy, len(base[0])), t)


def parametric_value(M0: Sequence[Sequence[object]], M1: Sequence[Sequence[object]], *,
                     lower: object = 0, upper: object | None = None, max_steps: int = 2000) -> PiecewiseValue:
    """The value of the matrix game ``M0 + r M1`` as an exact piecewise rational function on ``[lower, upper]``.

    Parameters
    ----------
    M0, M1 : matrices of rationals
        The row player's payoffs at ``r = 0`` and their slope in ``r``.
    lower, upper : rational
        The interval of ``r`` (``upper=None``: ``[lower, oo)``).
    max_steps : int
        Bound on the number of sample points (each is one exact LP).

    Examples
    --------
    The game ``[[r, 1], [1, 0]]``: mixed with value ``1/(2 - r)`` up to ``r = 1``,
    then the first row dominates and the value is 1.

    >>> pv = parametric_value([[0, 1], [1, 0]], [[1, 0], [0, 0]], lower=0, upper=3)
    >>> [(str(start), str(value)) for start, _, value in pv.value_pieces()]
    [('0', '-1/(r - 2)'), ('1', '1')]
    """
    base = [[to_fraction(v, "M0") for v in row] for row in M0]
    slope = [[to_fraction(v, "M1") for v in row] for row in M1]
    if not base or not base[0] or len(slope) != len(base) or any(len(r) != len(base[0]) for r in base + slope):
        raise InvalidParameterError("parametric_value(): M0 and M1 must be non-empty matrices of the same shape")
    lo = RealAlgebraic.rational(to_fraction(lower, "lower"))
    hi = None if upper is None else RealAlgebraic.rational(to_fraction(upper, "upper"))
    if hi is not None and not lo < hi:
        raise InvalidParameterError("parametric_value(): need lower < upper")
    pieces: list[Piece] = []
    gaps: list[tuple[RealAlgebraic, RealAlgebraic | None]] = [(lo, hi)]
    steps = 0
    while gaps:
        a, b = gaps.pop()
        steps += 1
        if steps > max_steps:
            raise DegenerateSystemError(f"parametric_value(): not covered after {max_steps} sample points")
        t = rational_between(a, b)
        piece = _piece_at(base, slope, t, a, b)
        here = RealAlgebraic.rational(t)
        if piece is None:
            gaps += [(a, here), (here, b)]
            continue
        pieces.append(piece)
        if a < piece.start:
            gaps.append((a, piece.start))
        if piece.end is not None and (b is None or piece.end < b):
            gaps.append((piece.end, b))
    pieces.sort(key=functools.cmp_to_key(lambda p, q: -1 if p.start < q.start else (1 if q.start < p.start else 0)))
    result = PiecewiseValue(lo, hi, tuple(pieces))
    _check_continuity(result)
    return result


def _check_continuity(result: PiecewiseValue) -> None:
    """Neighbouring value formulas must agree at their common breakpoint (the value is continuous)."""
    parts = result.value_pieces()
    for (_, end, left), (start, _, right) in zip(parts, parts[1:]):
        if end is None or not end.same(start):
            raise CertificationError("parametric: the pieces do not meet")
        numer, denom = sympy.fraction(sympy.cancel(left - right))
        poly = fmpq_poly([to_fmpq(Fraction(str(c))) for c in reversed(sympy.Poly(numer, SYMBOL).all_coeffs())])
        if not start.vanishes(poly):
            raise CertificationError(f"parametric: the value jumps at r = {start}")
