"""A continuous game over an interval of one of its sizes: exact pieces, each certified for every value in it.

``exactpoker solve GAME --continuous --over b=1..4``.  On a piece the
equilibrium keeps one shape and its cut points, probabilities and values are
rational functions of the parameter ``s``:

1. at a rational sample ``s_0`` of the interval still to cover, the engine
   finds and certifies the shape (:func:`~exactpoker.solve.continuous.solve_continuous`);
2. the shape's system, written with ``s`` as a symbol in the payoffs
   (:func:`~exactpoker.solve.continuous.model.parametric_model`), is solved
   as rational functions of ``s`` on the branch through ``s_0``
   (:func:`~exactpoker.solve.continuous.system.solve_in_symbol`);
3. the certificate's conditions become rational functions of ``s``: on every
   elementary interval the cut points are ordered, the probabilities are
   probabilities, each played action's payoff minus every other action's is
   ``>= 0`` at both ends of the interval (two players: the payoffs are
   linear in the hand) and actions played together tie identically in the
   hand and in ``s``.  The largest interval around ``s_0`` on which all hold
   is found exactly (:func:`~exactpoker.solve.parametric.sign_intervals.largest_interval`:
   roots isolated, one rational test point per cell), so the piece is
   certified for every ``s`` in it and its ends are exact (rational or
   algebraic);
4. what is left of the interval is covered the same way, up to
   :data:`MAX_PIECES` pieces (a part left uncovered is reported).

Two-player games only: with three players the cut points are algebraic
functions of the parameter and the payoffs quadratic in the hand.
``maximize`` finds the parameter value maximising a player's value exactly
(:meth:`~exactpoker.solve.parametric.game.ParametricSolution.maximize` on
these pieces).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Callable

import sympy
from flint import fmpq_poly

from exactpoker.algebraic import RealAlgebraic, rational_between, to_fmpq
from exactpoker.errors import CertificationError, InvalidParameterError
from exactpoker.numbers import exact_str
from exactpoker.solve.continuous.equations import shape_equations
from exactpoker.solve.continuous.model import BettingModel, parametric_model
from exactpoker.solve.continuous.payoffs import action_values, evaluate, subtract, values
from exactpoker.solve.continuous.profile import PiecewiseProfile, Shape
from exactpoker.solve.continuous.result import HandInterval, pieces_of
from exactpoker.solve.continuous.system import solve_in_symbol
from exactpoker.solve.parametric.sign_intervals import largest_interval

__all__ = ["OverPiece", "ContinuousOver", "solve_over_continuous", "piece_around", "certificate_conditions",
           "MAX_PIECES"]

#: Pieces computed at most before the rest of the interval is reported uncovered.
MAX_PIECES = 8


@dataclass(frozen=True)
class OverPiece:
    """On ``[start, end]`` of the parameter: one shape, its formulas, and the conditions proved on all of it."""

    start: RealAlgebraic
    end: RealAlgebraic | None
    sample: Fraction
    value: sympy.Expr
    values: tuple[sympy.Expr, ...]
    strategies: dict[str, dict[str, list[HandInterval]]]
    cuts: dict[str, sympy.Expr]
    conditions: int

    def contains(self, point: RealAlgebraic) -> bool:
        return not point < self.start and (self.end is None or not self.end < point)


def _rational_function(expr: sympy.Expr, symbol: sympy.Symbol) -> tuple[fmpq_poly, fmpq_poly]:
    numerator, denominator = sympy.fraction(sympy.cancel(sympy.together(expr)))
    return tuple(fmpq_poly([to_fmpq(Fraction(int(c.p), int(c.q))) for c in reversed(sympy.Poly(part, symbol).all_coeffs())])
                 for part in (numerator, denominator))  # type: ignore[return-value]


def certificate_conditions(model: BettingModel, profile: PiecewiseProfile) -> tuple[list[sympy.Expr], int]:
    """The certificate's conditions, rational functions of the parameters that must be ``>= 0`` (module docstring,
    step 3; two players: the payoffs are linear in the hand, so the ends of each interval decide).

    Raises
    ------
    CertificationError
        If actions played together do not tie identically.
    """
    conditions = [profile.breaks[i + 1] - profile.breaks[i] for i in range(profile.intervals)]
    conditions += [p for row in profile.behaviour for probs in row for p in probs]
    for player in range(model.num_players):
        table = action_values(model, profile, player)
        for h in model.infosets_of(player):
            for i in range(profile.intervals):
                probs = profile.behaviour[h][i]
                played = [a for a, p in enumerate(probs) if sympy.cancel(p) != 0]
                for a in range(len(probs)):
                    gap = subtract(table[(h, played[0])][i], table[(h, a)][i])
                    if a in played:
                        if any(sympy.cancel(c) != 0 for c in gap):
                            raise CertificationError(f"{model.name_of(h)}: mixed actions do not tie for every value")
                        continue
                    conditions += [evaluate(gap, profile.breaks[i]), evaluate(gap, profile.breaks[i + 1])]
    return conditions, len(conditions)


def _piece(model: BettingModel, shape: Shape, solved_values: dict[sympy.Symbol, Any], fixed: dict, sample: Fraction,
           low: RealAlgebraic, high: RealAlgebraic | None, symbol: sympy.Symbol) -> OverPiece:
    """The piece of ``shape`` around ``sample`` within ``[low, high]`` (module docstring, steps 2-3)."""
    constants = {k: sympy.Rational(v.numerator, v.denominator) for k, v in fixed.items()}
    equations = [e for e in (sympy.expand(q.subs(constants)) for q in shape_equations(model, shape)) if e != 0]
    unknowns = [u for u in shape.unknowns() if u not in fixed]
    start = {u: solved_values[u] for u in unknowns}
    functions = {**solve_in_symbol(equations, unknowns, symbol, start, sample), **constants}
    actions = [len(infoset.actions) for infoset in model.infosets]
    profile = shape.profile(actions, functions).map(sympy.cancel)
    conditions, count = certificate_conditions(model, profile)
    polys, nonzero = [], []
    for condition in conditions:
        numerator, denominator = _rational_function(condition, symbol)
        polys.append(numerator * denominator)
        if denominator.degree() > 0:
            nonzero.append(denominator)
    begin, end = largest_interval(polys, nonzero, sample, low, high)
    players = [sympy.factor(v) for v in values(model, profile)]
    strategies: dict[str, dict[str, list[HandInterval]]] = {name: {} for name in model.player_names}
    for h, infoset in enumerate(model.infosets):
        strategies[model.player_names[infoset.player]][infoset.label] = pieces_of(
            model, profile.map(sympy.factor), h, nonempty=lambda a, b: sympy.cancel(b - a) != 0)
    cuts = {f"{model.player_names[model.infosets[h].player]}:{model.infosets[h].label}:{k + 1}":
            sympy.factor(functions[shape.symbol_of((h, k))]) for h, k in sorted(shape.cuts)}
    return OverPiece(begin, end, sample, players[0], tuple(players), strategies, cuts, count)


@dataclass(frozen=True)
class ContinuousOver:
    """The pieces of a continuous game over ``[lower, upper]`` of ``parameter`` (module docstring)."""

    source: str
    parameter: str
    lower: Fraction
    upper: Fraction
    pieces: tuple[OverPiece, ...]
    uncovered: tuple[tuple[RealAlgebraic, RealAlgebraic], ...]
    player_names: tuple[str, ...]

    @property
    def symbol(self) -> sympy.Symbol:
        return sympy.Symbol(self.parameter)

    def maximize(self, player: int) -> Any:
        """Where ``player``'s value is largest (exact; a :class:`~exactpoker.solve.parametric.game.Maximum`)."""
        from exactpoker.solve.parametric.game import ParametricSolution

        if self.uncovered:
            raise InvalidParameterError("--maximize needs the whole interval covered by certified pieces")
        solution = ParametricSolution(RealAlgebraic.rational(self.lower), RealAlgebraic.rational(self.upper),
                                      self.pieces, self.symbol)
        found = solution.maximize(player)
        return type(found)(self.player_names[player], found.value, found.at, found.flat)

    def to_dict(self, maximum: Any = None) -> dict[str, Any]:
        from exactpoker.results import jsonable, shaped
        from exactpoker.solve.parametric.game import describe_number

        pieces = [{"from": str(p.start), "to": str(p.end), "value": [str(v) for v in p.values],
                   "strategies": jsonable({player: {label: [piece.to_dict() for piece in pieces]
                                                    for label, pieces in table.items()}
                                           for player, table in p.strategies.items()}),
                   "cut_points": {name: str(value) for name, value in p.cuts.items()},
                   "certified": True, "sample": exact_str(p.sample),
                   "certificate": {"holds": True, "scope": f"every hand and every {self.parameter} in the piece",
                                   "kind": "exact signs of the payoff differences as rational functions of "
                                           f"{self.parameter} (largest interval, cell by cell)",
                                   "conditions": p.conditions}} for p in self.pieces]
        payload: dict[str, Any] = {
            "method": "continuous deck: a shape per piece, its cut points as rational functions of the parameter, "
                      "certified for every value of each piece",
            "over": {"parameter": self.parameter, "from": exact_str(self.lower), "to": exact_str(self.upper)},
            "pieces": pieces,
            "breakpoints": [describe_number(p.start) for p in self.pieces[1:]],
            "uncovered": [[str(a), str(b)] for a, b in self.uncovered],
        }
        if maximum is not None:
            payload["maximum"] = {"player": maximum.player, "value": describe_number(maximum.value),
                                  "at": [describe_number(a) for a in maximum.at],
                                  "flat": [[str(s), str(e)] for s, e in maximum.flat]}
        return shaped(payload, self.source, {})

    def text(self, maximum: Any = None) -> str:
        lines = [f"{self.source} with a continuous deck over {self.parameter} in [{exact_str(self.lower)}, "
                 f"{exact_str(self.upper)}]: {len(self.pieces)} piece(s), each certified for every {self.parameter} "
                 f"in it at every hand"]
        for p in self.pieces:
            lines.append(f"{p.start} <= {self.parameter} <= {p.end} (found at {exact_str(p.sample)}; {p.conditions} "
                         f"conditions proved): values " + ", ".join(f"{n} {v}" for n, v in zip(self.player_names, p.values)))
            for name, cut in p.cuts.items():
                lines.append(f"  {name} = {cut}")
        for a, b in self.uncovered:
            lines.append(f"not covered: [{a}, {b}] (no certified piece found there)")
        if maximum is not None:
            where = ", ".join(str(a) for a in maximum.at)
            lines.append(f"maximum of {maximum.player}'s value: {maximum.value} (~{float(maximum.value):.6g}) at "
                         f"{self.parameter} = {where}")
        return "\n".join(lines)


def _model(build: Callable[[Fraction], Any], symbol: sympy.Symbol, points: tuple[Fraction, ...]) -> BettingModel:
    from exactpoker.core.continuous_deck import continuous_deck

    return parametric_model(lambda value: continuous_deck(build(value)).rules, symbol, points)  # type: ignore[arg-type]


def piece_around(build: Callable[[Fraction], Any], parameter: str, sample: Fraction,
                 lower: Fraction | None = None, upper: Fraction | None = None) -> OverPiece:
    """The certified piece through ``sample`` within ``[lower, upper]`` (``None``: no bound on that side; a lower
    bound of ``None`` is 0, the sizes being positive): the shape the engine certifies at ``sample``, as exact
    functions of the parameter, on the largest interval where the certificate's conditions all hold."""
    from exactpoker.solve.continuous import solve_continuous

    symbol = sympy.Symbol(parameter)
    step = (upper - sample) / 2 if upper is not None else Fraction(1)
    model = _model(build, symbol, (sample, sample + step / 2, sample + step))
    if model.num_players != 2:
        raise InvalidParameterError("--continuous --over: two-player games only (with three players the cut points "
                                    "are algebraic functions of the parameter)")
    found = solve_continuous(build(sample)).solved
    low = RealAlgebraic.rational(lower if lower is not None else Fraction(0))
    high = None if upper is None else RealAlgebraic.rational(upper)
    return _piece(model, found.shape, found.values, found.fixed, sample, low, high, symbol)


def _within(piece: OverPiece, low: RealAlgebraic, high: RealAlgebraic) -> OverPiece:
    """The piece cut to ``[low, high]``."""
    start = low if piece.start < low else piece.start
    end = high if piece.end is None or high < piece.end else piece.end
    return replace(piece, start=start, end=end)


def solve_over_continuous(build: Callable[[Fraction], Any], parameter: str, lower: Fraction, upper: Fraction, *,
                          source: str = "", max_pieces: int = MAX_PIECES) -> ContinuousOver:
    """The pieces covering ``[lower, upper]`` (module docstring); ``build(value)`` gives the rules at a value.

    Raises
    ------
    InvalidParameterError
        For a game of three or more players.
    """
    todo = [(RealAlgebraic.rational(lower), RealAlgebraic.rational(upper))]
    pieces: list[OverPiece] = []
    uncovered: list[tuple[RealAlgebraic, RealAlgebraic]] = []
    while todo:
        low, high = todo.pop()
        if len(pieces) >= max_pieces:
            uncovered.append((low, high))
            continue
        sample = rational_between(low, high)
        piece = piece_around(build, parameter, sample)
        piece = _within(piece, low, high)
        pieces.append(piece)
        if low < piece.start:
            todo.append((low, piece.start))
        if piece.end < high:
            todo.append((piece.end, high))
    pieces.sort(key=lambda p: p.sample)
    names = tuple(pieces[0].strategies) if pieces else ()
    return ContinuousOver(source, parameter, lower, upper, tuple(pieces), tuple(uncovered), names)
