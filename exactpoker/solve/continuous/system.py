"""Solving a shape's system exactly: the one door to the project's polynomial-system solver.

:func:`solve_polynomial_system` is the only place the continuous engine asks
for the exact solutions of a polynomial system (sympy polynomials with
rational coefficients, the unknowns, a float guess), and it asks the
engine's one solver of polynomial systems
(:mod:`exactpoker.solve.algebra.polynomial_system`): every solution in the
unit box (:func:`~exactpoker.solve.algebra.polynomial_system.solve_system`:
one echelon form, or shape position and exact real roots), else -- a system
too large for a Groebner basis, or none in shape position -- the solution next
to the guess from its digits
(:func:`~exactpoker.solve.algebra.polynomial_system.solve_near_point`, checked
exactly).

Around it, for the continuous games:

* :func:`fix_free` turns a positive-dimensional system (a family of
  equilibria: a cut point with no equation of its own) into a zero-dimensional
  one by fixing free unknowns at simple rationals near their readings;
* :func:`solve_in_symbol` gives the unknowns as exact rational functions of
  one symbol (a game's parameter for ``--over``, or a free unknown): exact
  solutions at rational values of the symbol, all through the one door,
  interpolated (Thiele-type rational interpolation, sympy's
  ``rational_interpolate``) and accepted only if the system then vanishes
  identically in the symbol.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, Sequence

import sympy

from exactpoker.errors import CertificationError, DegenerateSystemError
from exactpoker.solve.algebra.polynomial_system import solve_near_point, solve_system
from exactpoker.solve.algebra.roots import Exact

__all__ = ["SystemSolutions", "solve_polynomial_system", "fix_free", "solve_in_symbol", "solve_in_symbols",
           "simple_rational",
           "in_field_of"]


#: Nonlinear systems with more unknowns than this go straight to the solution near the guess (a lex Groebner
#: basis in sympy, tried in several variable orders, would not finish).
MAX_GROEBNER = 8
#: Digits and minimal-polynomial degrees :func:`~exactpoker.solve.algebra.polynomial_system.solve_near_point` tries here.
NEAR_DIGITS, NEAR_DEGREE = (1500,), 24


@dataclass(frozen=True)
class SystemSolutions:
    """Every real solution with all unknowns in ``[0, 1]`` (``points``), or a family (``dimension > 0``)."""

    points: tuple[dict[sympy.Symbol, Exact], ...] = ()
    dimension: int = 0


def solve_polynomial_system(equations: Sequence[sympy.Expr], unknowns: Sequence[sympy.Symbol],
                            guess: Mapping[sympy.Symbol, float]) -> SystemSolutions:
    """The exact real solutions of ``equations = 0`` with every unknown in ``[0, 1]`` (module docstring).

    Rational solutions are Fractions; irrational ones are
    :class:`~exactpoker.algebraic.AlgebraicNumber` s of one field.  A family
    is reported by its dimension (``points`` empty).
    """
    nonlinear = any(sympy.Poly(e, *unknowns).total_degree() > 1 for e in equations)
    if nonlinear and len(unknowns) > MAX_GROEBNER:
        return SystemSolutions((_near(equations, unknowns, guess),))
    try:
        found = solve_system(equations, unknowns, box=(Fraction(0), Fraction(1)))
    except DegenerateSystemError:
        return SystemSolutions((_near(equations, unknowns, guess),))
    if found.family is not None:
        return SystemSolutions((), max(found.family.dimension, 1))
    return SystemSolutions(tuple(dict(zip(unknowns, point)) for point in found.points))


def _near(equations: Sequence[sympy.Expr], unknowns: Sequence[sympy.Symbol], guess: Mapping[sympy.Symbol, float]
          ) -> dict[sympy.Symbol, Exact]:
    """The solution next to ``guess`` (an unknown it does not give: 1/2), by the one solver."""
    point = [float(guess.get(u, 0.5)) for u in unknowns]
    return dict(zip(unknowns, solve_near_point(equations, unknowns, point, digits=NEAR_DIGITS,
                                               max_degree=NEAR_DEGREE)))


def simple_rational(value: float, denominators: int = 64) -> Fraction:
    """A simple rational near ``value`` (continued fractions), for fixing a free unknown."""
    return Fraction(value).limit_denominator(denominators)


def fix_free(equations: Sequence[sympy.Expr], unknowns: Sequence[sympy.Symbol], guess: Mapping[sympy.Symbol, float]
             ) -> tuple[dict[sympy.Symbol, Fraction], SystemSolutions]:
    """Fix free unknowns of a family at simple rationals near ``guess`` until the system has isolated solutions.

    Unknowns are tried in turn (cut points first, in order); an unknown
    whose fixing leaves no solution is not free and is put back.  Returns the
    fixed values and the solutions of the system that remains.
    """
    fixed: dict[sympy.Symbol, Fraction] = {}
    current = SystemSolutions((), 1)
    for u in unknowns:
        value = simple_rational(guess.get(u, 0.5))
        trial = {**fixed, u: value}
        rest = [v for v in unknowns if v not in trial]
        substituted = [e for e in (sympy.expand(eq.subs(_rationals(trial))) for eq in equations) if e != 0]
        if any(e.is_number for e in substituted):
            continue  # u was not free: fixing it contradicts the system
        solved = solve_polynomial_system(substituted, rest, guess) if rest else SystemSolutions(({},))
        if not solved.points and not solved.dimension:
            continue
        fixed, current = trial, solved
        if not solved.dimension:
            break
    return fixed, current


def _rationals(values: Mapping[sympy.Symbol, Fraction]) -> dict[sympy.Symbol, sympy.Rational]:
    return {k: sympy.Rational(v.numerator, v.denominator) for k, v in values.items()}


def solve_in_symbol(equations: Sequence[sympy.Expr], unknowns: Sequence[sympy.Symbol], symbol: sympy.Symbol,
                    start: Mapping[sympy.Symbol, Fraction], at: Fraction, *, max_degree: int = 8
                    ) -> dict[sympy.Symbol, sympy.Expr]:
    """The unknowns as rational functions of ``symbol`` on the branch through ``start`` (the solution at ``at``).

    Systems linear in the unknowns are solved over ``Q(symbol)`` directly;
    others by rational interpolation of exact solutions at rational values of
    the symbol next to ``at`` (each the solution nearest the previous one),
    accepted only when every equation vanishes identically.

    Raises
    ------
    CertificationError
        If the branch is not rational in the symbol (up to ``max_degree``) or leaves ``[0, 1]`` nearby.
    """
    if all(sympy.Poly(e, *unknowns).total_degree() <= 1 for e in equations):
        found = solve_in_symbols(equations, unknowns, start, {symbol: at})
        if found is not None:
            return found
    samples = _branch(equations, unknowns, symbol, start, at, 2 * max_degree + 3)
    for degree in range(0, max_degree + 1):
        count = 2 * degree + 1
        if count + 2 > len(samples):
            break
        functions = {}
        for u in unknowns:
            data = [(s, value[u]) for s, value in samples[:count]]
            functions[u] = sympy.factor(sympy.polys.polyfuncs.rational_interpolate(data, degree, X=symbol))
        if all(sympy.cancel(e.subs(functions)) == 0 for e in equations):
            return functions
    raise CertificationError(f"the solution is not a rational function of {symbol} of degree <= {max_degree}")


def solve_in_symbols(equations: Sequence[sympy.Expr], unknowns: Sequence[sympy.Symbol],
                     start: Mapping[sympy.Symbol, Fraction], at: Mapping[sympy.Symbol, Fraction]
                     ) -> dict[sympy.Symbol, sympy.Expr] | None:
    """The unknowns as rational functions of the symbols of ``at`` by sympy's solver over ``Q(symbols)``: the
    solution that equals ``start`` at the point ``at``, if sympy finds one and the equations then vanish
    identically; else ``None``.  For small systems (linear, or bilinear as a mixed segment's)."""
    point = {k: sympy.Rational(v.numerator, v.denominator) for k, v in at.items()}
    for solution in sympy.solve(list(equations), list(unknowns), dict=True):
        if set(solution) != set(unknowns):
            continue
        functions = {u: sympy.factor(solution[u]) for u in unknowns}
        if any(sympy.cancel(functions[u].subs(point) - start[u]) != 0 for u in unknowns):
            continue
        if all(sympy.cancel(e.subs(functions)) == 0 for e in equations):
            return functions
    return None


def _branch(equations: Sequence[sympy.Expr], unknowns: Sequence[sympy.Symbol], symbol: sympy.Symbol,
            start: Mapping[sympy.Symbol, Fraction], at: Fraction, count: int
            ) -> list[tuple[sympy.Rational, dict[sympy.Symbol, sympy.Rational]]]:
    """Exact rational solutions at ``count`` rational values of ``symbol`` next to ``at``, following the branch."""
    step = Fraction(1, 64) * max(abs(at), Fraction(1, 8))
    previous = {u: float(v) for u, v in start.items()}
    samples = []
    for k in range(count):
        value = at + step * ((k + 1) // 2) * (1 if k % 2 else -1) if k else at
        here = sympy.Rational(value.numerator, value.denominator)
        substituted = [sympy.expand(e.subs(symbol, here)) for e in equations]
        found = solve_polynomial_system(substituted, unknowns, previous)
        if not found.points:
            raise CertificationError(f"no isolated solution of the shape's system at {symbol} = {value}")
        point = min(found.points, key=lambda p: sum((float(p[u]) - previous[u]) ** 2 for u in unknowns))
        if not all(isinstance(v, Fraction) for v in point.values()):
            raise CertificationError(f"the solution at {symbol} = {value} is irrational: not a rational function")
        samples.append((here, {u: sympy.Rational(v.numerator, v.denominator) for u, v in point.items()}))
    return samples


def in_field_of(numbers: Sequence[Exact], generator: Exact) -> list[Exact]:
    """``numbers`` (of one field) written in the field generated by ``generator``, one of its elements.

    When ``generator``'s minimal polynomial has the field's degree the two
    fields are one, and each number is a polynomial in ``generator``: its
    coordinates solve one exact linear system (the powers of ``generator`` in
    the old basis).  A paper states its algebraic answer in the field of one
    cut point (seed 000 section 4: ``C``); this gives that form.

    Raises
    ------
    ValueError
        If ``generator`` does not generate the field of ``numbers``.
    """
    from flint import fmpq_mat, fmpq_poly

    from exactpoker.algebraic import AlgebraicNumber, fmpq_to_fraction, real_roots, to_fmpq
    from exactpoker.solve.algebra.roots import minimal_polynomial

    if not isinstance(generator, AlgebraicNumber) or generator.is_rational:
        if all(not isinstance(n, AlgebraicNumber) or n.is_rational for n in numbers):
            return [n.to_fraction() if isinstance(n, AlgebraicNumber) else n for n in numbers]
        raise ValueError("in_field_of(): a rational number generates no irrational field")
    x = sympy.Symbol("x")
    coefficients = reversed(sympy.Poly(minimal_polynomial(generator, x), x).all_coeffs())
    polynomial = fmpq_poly([to_fmpq(Fraction(int(c.p), int(c.q))) for c in map(sympy.Rational, coefficients)])
    degree = generator.field.degree
    if polynomial.degree() != degree:
        raise ValueError("in_field_of(): the generator's field is smaller than the numbers' field")
    root = next(r for r in real_roots(polynomial) if r.lower <= generator <= r.upper)  # isolating intervals
    new = root.field_element()
    powers = [generator**k for k in range(degree)]
    rows = [[_coordinate(p, j) for j in range(degree)] for p in powers]
    basis = fmpq_mat(degree, degree, [to_fmpq(v) for row in rows for v in row])
    out: list[Exact] = []
    for number in numbers:
        if not isinstance(number, AlgebraicNumber):
            out.append(number)
            continue
        target = fmpq_mat(1, degree, [to_fmpq(_coordinate(number, j)) for j in range(degree)])
        coordinates = (target * basis.inv()).entries()
        out.append(new.field.element([fmpq_to_fraction(c) for c in coordinates]))
    return out


def _coordinate(number: Exact, k: int) -> Fraction:
    """The ``k``-th coordinate of a field element in its power basis."""
    from exactpoker.algebraic import fmpq_to_fraction

    coefficients = number.polynomial.coeffs()
    return fmpq_to_fraction(coefficients[k]) if k < len(coefficients) else Fraction(0)
