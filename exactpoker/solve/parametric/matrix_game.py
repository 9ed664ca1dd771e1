"""The value of a zero-sum matrix game with payoffs linear in a parameter, as an exact piecewise function.

For ``M(r) = M0 + r M1`` (rational matrices, the row player maximizes) the
value ``v(r)`` is continuous and piecewise rational in ``r``.  A matrix game
is the sequence-form game where each player has one information set, so this
is a special case of :mod:`exactpoker.solve.parametric.lp`: each piece is
one optimal basis of the game's LP, solved over ``Q(r)`` and certified
optimal for every ``r`` of the piece by exact polynomial sign conditions;
breakpoints are rationals or algebraic numbers given by an irreducible
polynomial and an isolating interval (:class:`~exactpoker.algebraic.RealAlgebraic`).
Neighbouring pieces with the same value function are one piece of
:meth:`PiecewiseValue.value_pieces`, and the value formulas of neighbouring
pieces must agree at their common breakpoint (the value of a matrix game is
continuous in its entries), which :func:`parametric_value` checks.

:class:`PiecewiseValue` is also the base of the piecewise solutions of whole
games (:class:`~exactpoker.solve.parametric.game.ParametricSolution`).
"""

from __future__ import annotations

import math

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Sequence

import sympy
from flint import fmpq_poly

from exactpoker.algebraic import RealAlgebraic, to_fmpq
from exactpoker.core.compiled import TreeLayout
from exactpoker.errors import CertificationError, InvalidParameterError
from exactpoker.numbers import exact_str, to_fraction
from exactpoker.solve.parametric.lp import LPPiece, piecewise_lp, sequence_form_poly_lp

__all__ = ["Piece", "PiecewiseValue", "parametric_value", "SYMBOL", "sympy_poly", "rational_function"]

#: The parameter in the returned formulas.
SYMBOL = sympy.Symbol("r")


def sympy_poly(poly: fmpq_poly, symbol: sympy.Symbol = SYMBOL) -> sympy.Expr:
    """A python-flint polynomial as a sympy expression in ``symbol``."""
    return sum((sympy.Rational(int(c.p), int(c.q)) * symbol**k for k, c in enumerate(poly.coeffs())), sympy.S(0))


def rational_function(numerator: fmpq_poly, denominator: fmpq_poly, symbol: sympy.Symbol = SYMBOL) -> sympy.Expr:
    """``numerator / denominator`` as a sympy rational function in lowest terms.

    The expression ``sympy.cancel`` gives (integer polynomials without a
    common factor, not even a number, the denominator's leading coefficient
    positive), computed with python-flint: ``sympy.cancel`` itself took 45 ms
    a call on Leduc's pieces (degree 40), hundreds of calls a piece.
    """
    if numerator.is_zero():
        return sympy.S(0)
    common = numerator.gcd(denominator)
    top, bottom = numerator / common, denominator / common
    scale = math.lcm(int(top.denom()), int(bottom.denom()))
    top_z, bottom_z = top.numer() * (scale // int(top.denom())), bottom.numer() * (scale // int(bottom.denom()))
    content = math.gcd(int(top_z.content()), int(bottom_z.content()))
    sign = -1 if bottom_z.coeffs()[-1] < 0 else 1
    top_c, bottom_c = ([sign * int(c) // content for c in z.coeffs()] for z in (top_z, bottom_z))
    return sympy.Poly.from_list(top_c[::-1], symbol).as_expr() / sympy.Poly.from_list(bottom_c[::-1], symbol).as_expr()


# -- pieces --------------------------------------------------------------------------


@dataclass(frozen=True)
class Piece:
    """One piece: on ``[start, end]`` (``end = None``: no upper end) these strategies are optimal.

    ``value``, ``row_strategy`` and ``column_strategy`` are sympy rational
    functions of :data:`SYMBOL`; ``sample`` is the rational point where the
    piece was found.  Every condition of optimality was checked exactly for
    every ``r`` in the piece (:mod:`exactpoker.solve.parametric.lp`, step 3).
    """

    start: RealAlgebraic
    end: RealAlgebraic | None
    value: sympy.Expr
    row_strategy: tuple[sympy.Expr, ...]
    column_strategy: tuple[sympy.Expr, ...]
    sample: Fraction

    def contains(self, point: RealAlgebraic) -> bool:
        return not point < self.start and (self.end is None or not self.end < point)


@dataclass(frozen=True)
class PiecewiseValue:
    """The exact value of ``M0 + r M1`` for ``r`` in ``[lower, upper]``, piece by piece.

    Attributes
    ----------
    lower, upper : RealAlgebraic (``upper = None``: infinity)
    pieces : tuple of Piece
        In increasing order; consecutive pieces share their end points.
        Any piece with ``start``, ``end``, ``value`` and ``contains`` will do
        (the pieces of a whole game's solution too).
    symbol : sympy.Symbol
        The parameter in the formulas.
    """

    lower: RealAlgebraic
    upper: RealAlgebraic | None
    pieces: tuple[Any, ...]
    symbol: sympy.Symbol = field(default=SYMBOL)

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

    def piece_at(self, point: object) -> Any:
        """The first piece containing the rational ``point`` where its formulas are defined."""
        where = RealAlgebraic.rational(to_fraction(point, str(self.symbol)))
        for piece in self.pieces:
            if piece.contains(where) and sympy.cancel(piece.value).subs(self.symbol, where.to_sympy()).is_finite:
                return piece
        raise InvalidParameterError(f"{self.symbol} = {exact_str(where.lower)} is outside the domain of the piecewise value")

    def value_at(self, point: object) -> sympy.Expr:
        """The exact value at a rational ``point`` of the domain."""
        where = sympy.Rational(str(to_fraction(point, str(self.symbol))))
        return sympy.cancel(self.piece_at(point).value).subs(self.symbol, where)

    def to_dict(self) -> dict[str, Any]:
        return {
            "parameter": str(self.symbol),
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
            lines.append(f"  {start} <= {self.symbol} <= {upper}: {sympy.factor(value)}")
        return "\n".join(lines)


def _matrix_piece(piece: LPPiece, rows: int, cols: int) -> Piece:
    """A basis of the matrix game's sequence-form LP as a :class:`Piece` (sequences ``1..m`` are the pure strategies)."""
    value = rational_function(piece.primal.get(rows + 1, fmpq_poly([])), piece.delta)
    row = tuple(rational_function(piece.primal.get(1 + i, fmpq_poly([])), piece.delta) for i in range(rows))
    column = tuple(rational_function(piece.duals.get(1 + j, fmpq_poly([])), piece.delta) for j in range(cols))
    return Piece(piece.start, piece.end, value, row, column, piece.sample)


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
    lo = to_fraction(lower, "lower")
    hi = None if upper is None else to_fraction(upper, "upper")
    if hi is not None and not lo < hi:
        raise InvalidParameterError("parametric_value(): need lower < upper")
    rows, cols = len(base), len(base[0])
    layouts = [TreeLayout((name,), (tuple(str(k) for k in range(size)),), (0,))
               for name, size in (("row", rows), ("column", cols))]
    payoff = {(1 + i, 1 + j): fmpq_poly([to_fmpq(base[i][j]), to_fmpq(slope[i][j])])
              for i in range(rows) for j in range(cols)}
    pieces = piecewise_lp(sequence_form_poly_lp(layouts, payoff), lo, hi, max_steps=max_steps)
    result = PiecewiseValue(RealAlgebraic.rational(lo), None if hi is None else RealAlgebraic.rational(hi),
                            tuple(_matrix_piece(p, rows, cols) for p in pieces))
    check_continuity(result)
    return result


def check_continuity(result: PiecewiseValue) -> None:
    """Neighbouring value formulas must agree at their common breakpoint (the value is continuous)."""
    parts = result.value_pieces()
    for (_, end, left), (start, _, right) in zip(parts, parts[1:]):
        if end is None or not end.same(start):
            raise CertificationError("parametric: the pieces do not meet")
        numer, denom = sympy.fraction(sympy.cancel(left - right))
        coeffs = sympy.Poly(numer, result.symbol).all_coeffs()
        poly = fmpq_poly([to_fmpq(Fraction(str(c))) for c in reversed(coeffs)])
        if not start.vanishes(poly):
            raise CertificationError(f"parametric: the value jumps at {result.symbol} = {start}")
