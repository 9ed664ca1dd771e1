"""The real solution of a square polynomial system near a float point, exactly (algebraic numbers).

Seed 003 (section 3) locates equilibria of three-player Kuhn poker as float
solutions of a regularised system; on their support the indifference
equations are multilinear, and beyond small pots their solution is
irrational.  Eliminating variables symbolically (resultants) blows up there
(Bezout degrees in the thousands for a field of degree 14), so this module
finds the exact solution from many digits, generically for any square system
of rational polynomials (``flint.fmpq_mpoly``) with a regular real solution
near a given float point:

1. the float point is refined by Newton's method in ``mpmath`` to thousands
   of digits (quadratic convergence, the system's own Jacobian);
2. a coordinate ``theta`` gets its minimal polynomial from an integer
   relation among ``1, theta, ..., theta^d`` (LLL, ``flint.fmpz_mat.lll``),
   degree by degree; its root next to the point defines the
   :class:`~exactpoker.algebraic.RealNumberField`;
3. every coordinate ``v`` is written in that field by an integer relation
   among ``1, theta, ..., theta^(d-1)`` and ``v p'(theta)`` (``p`` the
   minimal polynomial: this rational univariate representation has far
   smaller integers than ``v`` in the power basis);
4. the equations are evaluated *exactly* in the field at the point so
   found: they must vanish, otherwise :class:`EliminationError`.

Steps 2 and 3 are guesses from digits; step 4 makes the result exact (callers
still certify the equilibrium).  The relations are only accepted when their
integers are well below the precision used, and the digits are raised if
none is found.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

import mpmath
import numpy as np
from flint import fmpq, fmpq_mpoly, fmpq_mpoly_ctx, fmpq_poly, fmpz_mat

from exactpoker import algebraic
from exactpoker.errors import CertificationError
from exactpoker.solve.algebra.roots import Exact

__all__ = ["EliminationError", "solve_near", "evaluate", "jacobian_at"]

#: Decimal digits tried in turn for the integer relations.
DIGITS = (1500, 4000, 10000)

#: Highest degree of a minimal polynomial looked for.
MAX_DEGREE = 48


class EliminationError(CertificationError):
    """No exact solution of the system was found next to the point."""


def _mp_value(poly: fmpq_mpoly, point: Sequence[mpmath.mpf]) -> mpmath.mpf:
    total = mpmath.mpf(0)
    for monomial, coefficient in poly.terms():
        term = mpmath.mpf(int(coefficient.p)) / int(coefficient.q)
        for i, e in enumerate(monomial):
            if e:
                term *= point[i] ** int(e)
        total += term
    return total


def _newton(equations: Sequence[fmpq_mpoly], ctx: fmpq_mpoly_ctx, point: Sequence[float], digits: int
            ) -> list[mpmath.mpf]:
    """The solution next to ``point`` to ``digits`` digits (``mpmath.mp.dps`` must be above ``digits``)."""
    derivatives = [[e.derivative(name) for name in ctx.names()] for e in equations]
    current = [mpmath.mpf(p) for p in point]
    target = mpmath.mpf(10) ** (-digits)
    for _ in range(64):
        residual = mpmath.matrix([_mp_value(e, current) for e in equations])
        jacobian = mpmath.matrix([[_mp_value(d, current) for d in row] for row in derivatives])
        try:
            step = mpmath.lu_solve(jacobian, residual)
        except (ZeroDivisionError, TypeError):  # mpmath's LU meets a zero (or NaN) pivot
            raise EliminationError("solve_near(): the system's Jacobian is singular at the point") from None
        current = [c - s for c, s in zip(current, step)]
        if mpmath.norm(step) < target:
            return current
    raise EliminationError("solve_near(): Newton's method did not converge from the point")


def jacobian_at(equations: Sequence[fmpq_mpoly], ctx: fmpq_mpoly_ctx, point: Sequence[float]) -> "np.ndarray":
    """The equations' Jacobian at a float point (rows: equations; columns: ``ctx``'s variables)."""
    values = [mpmath.mpf(p) for p in point]
    return np.array([[float(_mp_value(e.derivative(name), values)) for name in ctx.names()] for e in equations])


def _relation(values: Sequence[mpmath.mpf], digits: int) -> list[int] | None:
    """Small integers ``c`` with ``sum(c_i values_i) = 0`` to ``digits`` digits, or None (LLL)."""
    scale = mpmath.mpf(10) ** digits
    size = len(values)
    basis = [[int(i == j) for j in range(size)] + [int(mpmath.nint(v * scale))] for i, v in enumerate(values)]
    reduced = fmpz_mat(basis).lll()
    c = [int(reduced[0, j]) for j in range(size)]
    height = max(abs(x) for x in c)
    if not height or height.bit_length() * size > digits * 8 // 3:  # decimal digits * 4/5, in bits
        return None
    if abs(mpmath.fsum(ci * v for ci, v in zip(c, values))) > mpmath.mpf(10) ** (-(digits * 3) // 4):
        return None
    return c


def _minimal_polynomial(theta: mpmath.mpf, digits: int, max_degree: int = MAX_DEGREE) -> fmpq_poly | None:
    powers = [mpmath.mpf(1)]
    for degree in range(1, max_degree + 1):
        powers.append(powers[-1] * theta)
        c = _relation(powers, digits)
        if c is not None and c[-1]:
            poly = fmpq_poly(c)
            _content, factors = poly.factor()
            return min((f for f, _m in factors), key=lambda f: abs(_mp_poly(f, theta)))
    return None


def _mp_poly(poly: fmpq_poly, value: mpmath.mpf) -> mpmath.mpf:
    return mpmath.fsum(mpmath.mpf(int(c.p)) / int(c.q) * value**k for k, c in enumerate(poly.coeffs()))


def solve_near(equations: Sequence[fmpq_mpoly], ctx: fmpq_mpoly_ctx, point: Sequence[float], *,
               digits: Sequence[int] = DIGITS, max_degree: int = MAX_DEGREE) -> list[Exact]:
    """The exact solution of the square system ``equations = 0`` next to the float ``point``.

    ``point`` gives every variable of ``ctx`` (as many as equations).
    Irrational coordinates are :class:`~exactpoker.algebraic.AlgebraicNumber`
    of one field; the equations vanish exactly at the returned point.
    ``digits`` are the precisions tried in turn and ``max_degree`` the
    highest degree of a minimal polynomial looked for (the cost grows fast
    with both: about 40 s for degree 48 at 1500 digits).

    Raises
    ------
    EliminationError
        If Newton's method fails, no minimal polynomial or field expression
        is found up to the digits tried, or the point found is not an exact
        solution.
    """
    if len(equations) != len(point):
        raise EliminationError(f"solve_near(): need a square system; got {len(equations)} equations in "
                               f"{len(point)} unknowns")
    failure = "no digits tried"
    for precision in digits:
        with mpmath.workdps(precision + 50):
            numeric = _newton(equations, ctx, point, precision + 20)
            try:
                values = _exact_from_digits(numeric, precision, max_degree)
            except EliminationError as error:
                failure = str(error)
                continue
        if all(evaluate(e, dict(enumerate(values))) == 0 for e in equations):
            return values
        failure = "the point found from the digits does not solve the equations exactly"
    raise EliminationError(f"solve_near(): {failure}")


def _exact_from_digits(numeric: Sequence[mpmath.mpf], digits: int, max_degree: int = MAX_DEGREE) -> list[Exact]:
    """Exact coordinates in one field, from their digits (the field of the highest-degree coordinate tried)."""
    order = range(len(numeric))
    for anchor in order:
        poly = _minimal_polynomial(numeric[anchor], digits, max_degree)
        if poly is None:
            raise EliminationError(f"solve_near(): no minimal polynomial of degree <= {max_degree} at {digits} digits")
        theta = min(algebraic.real_roots(poly), key=lambda r: abs(float(r) - float(numeric[anchor]))).field_element()
        derivative = poly.derivative()
        weight = _mp_poly(derivative, numeric[anchor])
        exact_weight = _field_poly(derivative, theta)
        powers = [mpmath.mpf(1)]
        for _ in range(1, poly.degree()):
            powers.append(powers[-1] * numeric[anchor])
        values: list[Exact] = []
        for v in numeric:
            # v p'(theta) is a polynomial in theta of small height (a rational univariate representation)
            c = _relation(powers + [v * weight], digits)
            if c is None or not c[-1]:
                break
            values.append(_field_poly(fmpq_poly([fmpq(-ck, c[-1]) for ck in c[:-1]]), theta) / exact_weight)
        else:
            return values
    raise EliminationError(f"solve_near(): the coordinates lie in no field generated by one of them "
                           f"({digits} digits)")


def _field_poly(poly: fmpq_poly, theta: Exact) -> Exact:
    value: Exact = Fraction(0)
    for c in reversed(poly.coeffs()):
        value = value * theta + Fraction(int(c.p), int(c.q))
    return value


def evaluate(poly: fmpq_mpoly, values: dict[int, Exact]) -> Exact:
    """``poly`` at exact values of its variables (all irrational ones in one field)."""
    total: Exact = Fraction(0)
    for monomial, coefficient in poly.terms():
        term: Exact = Fraction(int(coefficient.p), int(coefficient.q))
        for v, e in enumerate(monomial):
            if e:
                term = term * values[v] ** int(e)
        total = total + term
    return total
