"""A game whose payoffs are polynomials in one named parameter, compiled to exact polynomial sequence-form payoffs.

A :class:`ParametricGame` is a rule ``at(value) -> CompiledGame`` that gives
the compiled game at every admissible value of a parameter (a bet size, an ante, the
pot), with a proven bound ``degree`` on the degree of every leaf payoff in
the parameter, and the same tree shape (players, information sets, actions)
for every value.  :func:`compile_parametric` turns it into a
:class:`ParametricCompiled`: the sequence-form entries of
:mod:`exactpoker.core.compiled`, but each payoff an exact polynomial
(``flint.fmpq_poly``) in the parameter.

How (evaluation and interpolation): chance probabilities do not depend on the
parameter, so an entry of the sequence form, a sum of ``probability x leaf
payoff``, is a polynomial of degree at most ``degree``.  The game is compiled
exactly at ``degree + 1`` rational points and every entry interpolated
(Newton's divided differences, exact); the game is compiled once more at one
extra point and every entry must agree there (a check of the declared degree
and of the rule's consistency: a wrong degree raises, it is never used).
For the poker language (:class:`~exactpoker.core.poker.PokerGame`) the bound
is 1 in an ante, a bet size or a pot: every leaf pays a sum of contributions.

The compiled games at the sample points are also what the solvers check
against: :meth:`ParametricCompiled.at` compiles the game at any rational
value from its rules, independently of the polynomials.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Callable, Sequence

from flint import fmpq, fmpq_mat, fmpq_poly

from exactpoker.core.compiled import CompiledGame
from exactpoker.errors import InvalidGameError, InvalidParameterError
from exactpoker.numbers import exact_str

__all__ = ["ParametricGame", "ParametricCompiled", "compile_parametric", "interpolate", "interpolate_many"]


@dataclass(frozen=True)
class ParametricGame:
    """A game as a function of one rational parameter (module docstring).

    Attributes
    ----------
    name : str
    parameter : str
        The parameter's name (``"bet"``, ``"b"``, ...).
    at : callable
        ``at(value: Fraction) -> CompiledGame``, the game compiled from its
        rules at that value (e.g. ``compile_tree(tree(value))``); raises
        :class:`~exactpoker.errors.InvalidParameterError` outside the
        parameter's range.
    degree : int
        A proven bound on the degree of every leaf payoff in the parameter.
    """

    name: str
    parameter: str
    at: Callable[[Fraction], CompiledGame]
    degree: int = 1


def _q(value: "Fraction | fmpq") -> fmpq:
    return value if isinstance(value, fmpq) else fmpq(value.numerator, value.denominator)


def interpolate(points: Sequence[Fraction], values: "Sequence[Fraction | fmpq]") -> fmpq_poly:
    """The polynomial of degree ``< len(points)`` through ``(points[k], values[k])`` (Newton's form, exact)."""
    coeffs = [_q(v) for v in values]
    xs = [_q(p) for p in points]
    n = len(xs)
    for level in range(1, n):
        for k in range(n - 1, level - 1, -1):
            coeffs[k] = (coeffs[k] - coeffs[k - 1]) / (xs[k] - xs[k - level])
    poly = fmpq_poly([coeffs[-1]])
    for k in range(n - 2, -1, -1):
        poly = poly * fmpq_poly([-xs[k], 1]) + coeffs[k]
    return poly


def interpolate_many(points: Sequence[Fraction], columns: "Sequence[Sequence[Fraction | fmpq]]") -> list[fmpq_poly]:
    """:func:`interpolate` for many value lists at the same points: one exact Vandermonde solve (python-flint).

    ``columns[k]`` are the values of the ``k``-th polynomial at ``points``.
    """
    n = len(points)
    if not columns:
        return []
    xs = [_q(p) for p in points]
    vandermonde = fmpq_mat(n, n, [x**j for x in xs for j in range(n)])
    values = fmpq_mat(n, len(columns), [_q(col[i]) for i in range(n) for col in columns])
    coefficients = vandermonde.solve(values)
    return [fmpq_poly([coefficients[j, k] for j in range(n)]) for k in range(len(columns))]


def _entries(compiled: CompiledGame) -> dict[tuple[int, ...], tuple[Fraction, ...]]:
    denominator = compiled.denominator
    return {
        tuple(int(s) for s in seqs): tuple(Fraction(int(c), denominator) for c in coefs)
        for seqs, coefs in zip(compiled.sequences.tolist(), compiled.coefficients.tolist())
    }


def _shape(compiled: CompiledGame) -> tuple[object, ...]:
    return tuple((layout.num_sequences, tuple(layout.infoset_name(i) for i in range(layout.num_infosets)),
                  tuple(layout.parent_sequence(i) for i in range(layout.num_infosets)))
                 for layout in compiled.layouts)


@dataclass(frozen=True, eq=False)
class ParametricCompiled:
    """Sequence-form payoffs exact and polynomial in one parameter.

    Attributes
    ----------
    game : ParametricGame
    template : CompiledGame
        The game compiled at one sample point: its layouts (information sets,
        sequences) are those of every value of the parameter.
    entries : dict
        ``{sequence per player: (payoff polynomial per player)}``; entries
        missing are zero.
    """

    game: ParametricGame
    template: CompiledGame
    entries: dict[tuple[int, ...], tuple[fmpq_poly, ...]]

    @property
    def layouts(self):  # noqa: ANN201 - the template's layouts
        return self.template.layouts

    @property
    def num_players(self) -> int:
        return self.template.num_players

    @property
    def player_names(self) -> tuple[str, ...]:
        return self.template.player_names

    @cached_property
    def is_zero_sum(self) -> bool:
        """Whether the payoffs sum to zero in every entry, for every value of the parameter."""
        return all(sum(polys, fmpq_poly([])).is_zero() for polys in self.entries.values())

    def at(self, value: Fraction) -> CompiledGame:
        """The game compiled from its rules at the rational ``value`` (independent of the polynomials)."""
        return self.game.at(value)


def compile_parametric(game: ParametricGame, points: Sequence[Fraction]) -> ParametricCompiled:
    """Compile ``game`` at ``degree + 2`` of the rational ``points`` and interpolate its payoffs exactly.

    Parameters
    ----------
    game : ParametricGame
    points : sequence of Fraction
        Admissible values of the parameter, at least ``game.degree + 2``
        distinct ones (the first ``degree + 1`` interpolate, the next checks).

    Raises
    ------
    InvalidGameError
        If the tree's shape changes with the parameter, or the payoffs are not
        polynomials of the declared degree (they disagree at the check point).
    """
    chosen = list(dict.fromkeys(Fraction(p) for p in points))[: game.degree + 2]
    if len(chosen) < game.degree + 2:
        raise InvalidParameterError(f"compile_parametric(): need {game.degree + 2} distinct points; got {len(chosen)}")
    compiled = [game.at(p) for p in chosen]
    shape = _shape(compiled[0])
    for p, c in zip(chosen[1:], compiled[1:]):
        if _shape(c) != shape:
            raise InvalidGameError(f"{game.name}: the game's information sets change with {game.parameter} "
                                   f"(between {exact_str(chosen[0])} and {exact_str(p)}); it has no one sequence form")
    tables = [_entries(c) for c in compiled]
    keys = list(dict.fromkeys(k for table in tables for k in table))
    players = compiled[0].num_players
    zero = (Fraction(0),) * players
    fit, check = chosen[:-1], chosen[-1]
    entries: dict[tuple[int, ...], tuple[fmpq_poly, ...]] = {}
    for key in keys:
        values = [table.get(key, zero) for table in tables]
        polys = tuple(interpolate(fit, [v[p] for v in values[:-1]]) for p in range(players))
        at_check = fmpq(check.numerator, check.denominator)
        if any(poly(at_check) != fmpq(v.numerator, v.denominator) for poly, v in zip(polys, values[-1])):
            raise InvalidGameError(f"{game.name}: the payoffs are not polynomials of degree <= {game.degree} "
                                   f"in {game.parameter}")
        if any(not poly.is_zero() for poly in polys):
            entries[key] = polys
    return ParametricCompiled(game, compiled[0], entries)
