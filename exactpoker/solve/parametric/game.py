"""A two-player zero-sum game over an interval of a parameter: exact pieces, certified on every point of each.

:func:`solve_over` takes a :class:`~exactpoker.core.parametric.ParametricCompiled`
(sequence-form payoffs polynomial in the parameter) and returns a
:class:`ParametricSolution`: on each piece the game value and both players'
optimal realization plans as rational functions of the parameter, behaviour
strategies (their ratios) where an information set is reached, and the
breakpoints as exact rationals or algebraic numbers.  The pieces come from
:func:`~exactpoker.solve.parametric.lp.piecewise_lp` on the sequence-form LP
(Koller, Megiddo and von Stengel 1996), which proves each basis optimal on its
whole piece by exact polynomial sign conditions.  Besides that proof, at the
rational point where each piece was found the strategies are checked by
:func:`exactpoker.certify.verify` against the game compiled afresh from its
rules there (so the interpolated payoffs are checked too), and the value must
be continuous at every breakpoint.

:meth:`ParametricSolution.maximize` finds where a player's value is largest:
on each piece of ``N/D`` the candidates are the ends and the real roots of
``N' D - N D'`` inside; values at algebraic points are algebraic numbers found
exactly (:func:`value_at_point`), and compared exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy
from flint import arb, fmpq_poly

from exactpoker.algebraic import RealAlgebraic, fmpq_to_fraction, real_roots, to_fmpq
from exactpoker.certify import Certificate, verify
from exactpoker.core.parametric import ParametricCompiled
from exactpoker.core.profile import BehaviourProfile
from exactpoker.errors import CertificationError, InvalidParameterError, NotZeroSumError
from exactpoker.numbers import exact_str, to_fraction
from exactpoker.solve.parametric.matrix_game import PiecewiseValue, check_continuity, rational_function, sympy_poly
from exactpoker.solve.parametric.lp import LPPiece, piecewise_lp, sequence_form_poly_lp
from exactpoker.solve.parametric.sign_intervals import compare, roots_between
from exactpoker.solve.lp.zerosum import behaviour_profile_of_plans

__all__ = ["GamePiece", "ParametricSolution", "Maximum", "solve_over", "value_at_point", "describe_number"]

_ZERO = fmpq_poly([])


@dataclass(frozen=True)
class GamePiece:
    """One piece ``[start, end]`` of the solution: value and optimal strategies as rational functions.

    Attributes
    ----------
    value : sympy.Expr
        Player 0's value (player 1's is its negative).
    plans : tuple of tuple of fmpq_poly
        Each player's realization plan, as numerators over ``delta``.
    behaviour : tuple of tuple
        Per player and information set, the action probabilities as sympy
        rational functions, or None where the information set is unreached on
        the whole piece (any behaviour there is optimal).

    The field ``certificate`` holds the exact equilibrium check at ``sample``;
    ``found_by`` says how the piece's basis was found (``"sample"``: HiGHS's
    basis at ``sample`` made exact; ``"walk"``: exact pivots from the
    neighbouring piece's basis, :mod:`exactpoker.solve.parametric.lp`).
    """

    start: RealAlgebraic
    end: RealAlgebraic | None
    sample: Fraction
    value: sympy.Expr
    delta: fmpq_poly
    plans: tuple[tuple[fmpq_poly, ...], ...]
    behaviour: tuple[tuple[tuple[sympy.Expr, ...] | None, ...], ...]
    certificate: Certificate | None = None
    found_by: str = "sample"

    def contains(self, point: RealAlgebraic) -> bool:
        """Whether ``point`` is in the piece and its formulas are defined there (``delta`` does not vanish)."""
        inside = not point < self.start and (self.end is None or not self.end < point)
        return inside and not point.vanishes(self.delta)

    def plans_at(self, point: Fraction) -> list[list[Fraction]]:
        """The realization plans at a rational ``point`` of the piece (where ``delta`` does not vanish)."""
        where = to_fmpq(point)
        delta = self.delta(where)
        if delta == 0:
            raise InvalidParameterError(f"the piece's formulas are not defined at {exact_str(point)}")
        return [[fmpq_to_fraction(n(where) / delta) for n in plan] for plan in self.plans]


@dataclass(frozen=True)
class Maximum:
    """Where a player's value is largest: the value, the maximising points, and an interval if it is flat there."""

    player: str
    value: RealAlgebraic
    at: tuple[RealAlgebraic, ...]
    flat: tuple[tuple[RealAlgebraic, RealAlgebraic | None], ...] = ()


@dataclass(frozen=True, eq=False)
class ParametricSolution(PiecewiseValue):
    """The solution of a parametric two-player zero-sum game on ``[lower, upper]`` (module docstring)."""

    game: ParametricCompiled | None = field(default=None)

    def profile_at(self, point: object) -> BehaviourProfile:
        """The optimal behaviour profile at a rational ``point``, from its piece's formulas."""
        value = to_fraction(point, str(self.symbol))
        piece = self.piece_at(value)
        return behaviour_profile_of_plans(self.game.at(value), piece.plans_at(value))  # type: ignore[union-attr]

    def certify_at(self, point: object) -> Certificate:
        """:func:`exactpoker.certify.verify` of :meth:`profile_at` against the game compiled at ``point``."""
        value = to_fraction(point, str(self.symbol))
        return verify(self.game.at(value), self.profile_at(value))  # type: ignore[union-attr]

    def maximize(self, player: int) -> Maximum:
        """Where ``player``'s value is largest on the (finite) interval (module docstring)."""
        if self.upper is None:
            raise InvalidParameterError("--maximize needs a finite interval")
        sign = 1 if player == 0 else -1
        best: RealAlgebraic | None = None
        points: list[RealAlgebraic] = []
        flat: list[tuple[RealAlgebraic, RealAlgebraic | None]] = []
        for start, end, value in self.value_pieces():
            numer, denom = (_fmpq_poly(e, self.symbol) for e in sympy.fraction(sympy.cancel(sign * value)))
            critical = numer.derivative() * denom - numer * denom.derivative()
            candidates = [start, end] if critical.is_zero() else [start, *roots_between([critical], start, end), end]
            for point in candidates:
                found = value_at_point(numer, denom, point)
                order = 1 if best is None else compare(found, best)
                if order > 0:
                    best, points, flat = found, [], []
                if order >= 0 and not any(point.same(p) for p in points):
                    points.append(point)
            if critical.is_zero() and best is not None and value_at_point(numer, denom, start).same(best):
                flat.append((start, end))
        assert best is not None
        return Maximum(self.game_player(player), best, tuple(points), tuple(flat))

    def game_player(self, player: int) -> str:
        return self.game.player_names[player] if self.game is not None else str(player)


def _fmpq_poly(expr: sympy.Expr, symbol: sympy.Symbol) -> fmpq_poly:
    coeffs = sympy.Poly(expr, symbol).all_coeffs()
    return fmpq_poly([to_fmpq(Fraction(int(c.p), int(c.q))) for c in reversed(coeffs)])


def value_at_point(numer: fmpq_poly, denom: fmpq_poly, point: RealAlgebraic) -> RealAlgebraic:
    """``numer(point) / denom(point)`` exactly, as a rational or an algebraic number with its minimal polynomial.

    At an algebraic ``point`` with minimal polynomial ``m``, the value is a
    root of the resultant ``res_x(m(x), y denom(x) - numer(x))``; the root is
    picked by an arb enclosure of the value computed in ``Q(point)``.
    """
    if point.is_rational:
        where = to_fmpq(point.lower)
        return RealAlgebraic.rational(fmpq_to_fraction(numer(where) / denom(where)))
    theta = point.field_element()
    value = _evaluate(numer, theta) / _evaluate(denom, theta)
    if value.is_rational:
        return RealAlgebraic.rational(value.to_fraction())
    x, y = sympy.symbols("x y")
    resultant = sympy.resultant(sympy_poly(point.poly, x), y * sympy_poly(denom, x) - sympy_poly(numer, x), x)
    candidates = real_roots(_fmpq_poly(sympy.expand(resultant), y))
    digits = 20
    while True:
        ball = value.enclosure(digits)
        near = [c for c in candidates if ball.overlaps(arb(to_fmpq(c.lower)).union(arb(to_fmpq(c.upper))))]
        if len(near) == 1:
            return near[0]
        candidates = [c.refined() for c in near] if near else candidates
        digits *= 2


def _evaluate(poly: fmpq_poly, theta: Any) -> Any:
    total = theta * 0
    for c in reversed(poly.coeffs()):
        total = total * theta + fmpq_to_fraction(c)
    return total


def describe_number(number: RealAlgebraic) -> dict[str, Any]:
    """``{"exact", "approx", "minimal_polynomial", "interval"}`` of a rational or algebraic number, for JSON."""
    if number.is_rational:
        return {"exact": exact_str(number.lower), "approx": f"{float(number.lower):.12g}",
                "minimal_polynomial": None, "interval": None}
    x = sympy.Symbol("x")
    return {"exact": str(number), "approx": f"{float(number):.12g}",
            "minimal_polynomial": str(sympy.factor(sympy_poly(number.poly, x))),
            "interval": [exact_str(number.lower), exact_str(number.upper)]}


# -- solving ---------------------------------------------------------------------------------


def _game_piece(game: ParametricCompiled, piece: LPPiece, symbol: sympy.Symbol) -> GamePiece:
    first, second = game.layouts
    num_x = first.num_sequences
    plans = (tuple(piece.primal.get(s, _ZERO) for s in range(num_x)),
             tuple(piece.duals.get(t, _ZERO) for t in range(second.num_sequences)))
    behaviour = []
    for layout, plan in zip(game.layouts, plans):
        table = []
        for infoset in range(layout.num_infosets):
            parent = plan[layout.parent_sequence(infoset)]
            table.append(None if parent.is_zero() else
                         tuple(rational_function(plan[s], parent, symbol) for s in layout.infoset_sequences(infoset)))
        behaviour.append(tuple(table))
    value = rational_function(piece.primal.get(num_x, _ZERO), piece.delta, symbol)
    found = GamePiece(piece.start, piece.end, piece.sample, value, piece.delta, plans, tuple(behaviour))
    compiled = game.at(piece.sample)
    certificate = verify(compiled, behaviour_profile_of_plans(compiled, found.plans_at(piece.sample)))
    if not certificate.holds:
        raise CertificationError(f"--over: the piece found at {symbol} = {exact_str(piece.sample)} fails the "
                                 f"equilibrium check there (regret {certificate.max_regret})")
    return GamePiece(found.start, found.end, found.sample, value, found.delta, plans, found.behaviour, certificate,
                     piece.found_by)


def solve_over(game: ParametricCompiled, lower: object, upper: object, *, max_steps: int = 2000,
               walk: bool = True) -> ParametricSolution:
    """The exact piecewise solution of a two-player zero-sum parametric game on ``[lower, upper]``.

    Parameters
    ----------
    game : ParametricCompiled
    lower, upper : rational
        The interval of the parameter.
    max_steps : int
        Bound on the number of steps (each one exact LP).
    walk : bool
        Find each piece after the first by exact pivots from its neighbour's
        basis (:func:`~exactpoker.solve.parametric.lp.piecewise_lp`); False:
        each from a sample point.

    Raises
    ------
    NotZeroSumError
        If the game does not have two players or is not zero-sum for every
        value of the parameter.
    """
    if game.num_players != 2 or not game.is_zero_sum:
        raise NotZeroSumError(f"--over: exact pieces need a two-player zero-sum game; {game.game.name} has "
                              f"{game.num_players} players" + ("" if game.is_zero_sum else " and is not zero-sum"))
    lo, hi = to_fraction(lower, "lower"), to_fraction(upper, "upper")
    if not lo < hi:
        raise InvalidParameterError(f"--over: need from < to; got {exact_str(lo)}..{exact_str(hi)}")
    payoff = {(key[0], key[1]): polys[0] for key, polys in game.entries.items()}
    pieces = piecewise_lp(sequence_form_poly_lp(game.layouts, payoff), lo, hi, max_steps=max_steps, walk=walk)
    symbol = sympy.Symbol(game.game.parameter)
    result = ParametricSolution(RealAlgebraic.rational(lo), RealAlgebraic.rational(hi),
                                tuple(_game_piece(game, p, symbol) for p in pieces), symbol, game)
    check_continuity(result)
    return result
