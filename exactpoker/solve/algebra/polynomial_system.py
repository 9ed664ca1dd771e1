"""A polynomial system over Q solved exactly: the one solver of every support's system.

Every exact finish of the engine ends on a system of polynomial equations with rational coefficients (a
support's indifference equations, :mod:`exactpoker.core.support_system`; a continuous game's cut points).  This
module solves it in stages, each tried when the one before cannot finish:

1. **rational** -- a linear system by one exact reduced echelon form (python-flint ``fmpq_mat.rref``); near a
   float point, refinement with *exact* residuals and continued-fraction guesses (:func:`rational_near`);
2. **shape position** -- a zero-dimensional system's reduced lex Groebner basis (a graded basis, then FGLM:
   Faugere, Gianni, Lazard and Mora 1993) as ``x_i = g_i(t), f(t) = 0`` (Cox, Little and O'Shea, *Ideals,
   Varieties, and Algorithms*, 4th ed., ch. 3 sec. 5 ex. 16): ``t`` one of the unknowns, else a generic separating
   coordinate on the radical ideal (Seidenberg's lemma: the square-free part of each unknown's eliminant added);
3. **algebraic roots** -- the real roots of ``f`` isolated exactly (rational, or a
   :class:`~exactpoker.algebraic.RealNumberField` refined by python-flint balls,
   :func:`~exactpoker.solve.algebra.roots.real_roots`) and substituted back; near a float point without a
   Groebner basis, a minimal polynomial from many digits by LLL
   (:func:`~exactpoker.solve.algebra.elimination.solve_near`), checked exactly;
4. **isolating box** -- a zero of too high a degree for a minimal polynomial, given exactly as the unique zero
   in a rational box proved by Krawczyk's test (:func:`~exactpoker.solve.algebra.krawczyk.isolate`).

Two questions are asked of it: every real solution (:func:`solve_system`: stages 1-3, or the description of a
positive-dimensional set of solutions, a :class:`Family`), and the solution next to a float point (stages 1,
3 and 4 through :func:`rational_near`, :func:`~exactpoker.solve.algebra.elimination.solve_near` and
:func:`~exactpoker.solve.algebra.krawczyk.isolate`, which the N-player finish chains).  :class:`Family` is the
engine's one description of a set of equilibria with positive dimension.
"""

from __future__ import annotations

import random
import warnings
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, product
from math import comb
from typing import Any, Callable, Sequence

import numpy as np
import sympy
from flint import fmpq, fmpq_mat, fmpq_mpoly, fmpq_mpoly_ctx

from exactpoker.algebraic import fmpq_to_fraction, to_fmpq
from exactpoker.errors import CertificationError, DegenerateSystemError
from exactpoker.lazy import lazy
from exactpoker.solve.algebra.elimination import jacobian_at, solve_near
from exactpoker.solve.algebra.roots import Exact, evaluate, real_roots

scipy = lazy("scipy")

__all__ = ["Family", "Solved", "solve_system", "family_branches", "shape_position", "shape_points", "affine_parametrisation", "affine_form",
           "polytope_vertices", "unit_box_corners", "rational_near", "solve_near_point", "MAX_VERTEX_CHOICES", "MAX_CORNER_CHOICES"]

#: Choices of tight constraints tried for a polytope's vertices (``C(m, d)``).
MAX_VERTEX_CHOICES = 200_000
#: An affine family's corners in the unit box are enumerated only up to this many choices of tight bounds
#: (``C(m, d) 2^d``).
MAX_CORNER_CHOICES = 1 << 20
#: Separating coordinates tried before a zero-dimensional system is given up.
_SEPARATORS = 6


@dataclass(frozen=True)
class Family:
    """A positive-dimensional set of solutions (of equilibria, when a caller has certified it), described exactly.

    The set is ``{groebner = 0}`` in the unknowns ``symbols``, cut by the caller's conditions.  ``dimension`` is
    that of the set of equilibria when ``dimension_exact``, else of the variety, an upper bound (``-1``: not
    determined).  ``parameters`` are the unknowns left free and ``parametrisation`` every unknown as an expression
    in them (affine for a linear system; as sympy's ``solve`` gives it otherwise), when known.  ``vertices`` are
    the certified corners of the family's polytope and ``witness`` a certified point of it (points in the
    unknowns); ``values`` each player's payoff on the family and ``constraints`` the conditions, in the
    parameters, for a point to be an equilibrium; ``segment_certified``: a one-dimensional family whose whole
    segment between two certified corners is proved to be equilibria.  ``names`` read the unknowns.
    """

    symbols: tuple[sympy.Symbol, ...]
    groebner: tuple[sympy.Expr, ...]
    dimension: int
    parameters: tuple[sympy.Symbol, ...] = ()
    parametrisation: tuple[sympy.Expr, ...] = ()
    vertices: tuple[tuple[Any, ...], ...] = ()
    dimension_exact: bool = False
    witness: tuple[Any, ...] | None = None
    values: tuple[sympy.Expr, ...] = ()
    constraints: tuple[sympy.Basic, ...] = ()
    segment_certified: bool = False
    names: tuple[str, ...] = ()

    @property
    def is_linear(self) -> bool:
        """Every equation of the basis has degree at most 1 (an affine family)."""
        return all(sympy.Poly(g, *self.symbols).total_degree() <= 1 for g in self.groebner)


@dataclass(frozen=True)
class Solved:
    """Every real solution of a system: ``points`` (isolated ones, exactly), or a positive-dimensional ``family``.

    ``how`` says how it was decided: ``"linear"``, ``"linear-inconsistent"``, ``"groebner-one"`` (the basis
    is ``{1}``: no complex solution), ``"shape-position"``, ``"no-equations"``, ``"family"``.
    """

    points: tuple[tuple[Exact, ...], ...]
    how: str
    family: Family | None = None


def solve_system(equations: Sequence[sympy.Expr], symbols: Sequence[sympy.Symbol], *,
                 box: tuple[Fraction, Fraction] | None = None) -> Solved:
    """Every real solution of ``equations = 0`` in ``symbols`` (module docstring, stages 1-3), or their family.

    With ``box = (low, high)`` only solutions with every coordinate in ``[low, high]`` are returned.

    Raises
    ------
    DegenerateSystemError
        A zero-dimensional system that no separating coordinate puts in shape position.
    """
    symbols = list(symbols)
    equations = [e for e in equations if e != 0]
    if not symbols:
        return Solved(((),), "no-equations")
    if not equations:
        return Solved((), "no-equations", _family(symbols, [], len(symbols)))
    if all(sympy.Poly(e, *symbols).total_degree() <= 1 for e in equations):
        return _linear(equations, symbols, box)
    graded = sympy.groebner(equations, *symbols, order="grevlex", domain=sympy.QQ)
    basis = list(graded.exprs)
    if basis == [1]:
        return Solved((), "groebner-one")
    if not graded.is_zero_dimensional:
        return Solved((), "family", _family(symbols, basis, _dimension(basis, symbols)))
    points = _isolated_points(graded, symbols, box)
    if box is not None:
        points = [p for p in points if all(box[0] <= v <= box[1] for v in p)]
    return Solved(tuple(points), "shape-position")


def _linear(equations: list[sympy.Expr], symbols: list[sympy.Symbol], box: tuple[Fraction, Fraction] | None
            ) -> Solved:
    """A linear system: one exact reduced echelon form (python-flint) instead of a Groebner basis."""
    n = len(symbols)
    rows = []
    for e in equations:
        poly = sympy.Poly(e, *symbols)
        rows.append([_fraction(poly.coeff_monomial(s)) for s in symbols] + [-_fraction(poly.coeff_monomial(1))])
    reduced, rank = fmpq_mat(len(rows), n + 1, [to_fmpq(v) for row in rows for v in row]).rref()
    pivots = [next(c for c in range(n + 1) if reduced[r, c] != 0) for r in range(rank)]
    if n in pivots:
        return Solved((), "linear-inconsistent")
    if rank < n:  # the rows of the echelon form are the reduced Groebner basis of a linear ideal
        basis = [sum((_rational(reduced[r, c]) * symbols[c] for c in range(n)), sympy.Integer(0))
                 - _rational(reduced[r, n]) for r in range(rank)]
        return Solved((), "family", _family(symbols, basis, n - rank))
    point = tuple(fmpq_to_fraction(reduced[r, n]) for r in range(n))
    inside = box is None or all(box[0] <= v <= box[1] for v in point)
    return Solved((point,) if inside else (), "linear")


def _fraction(value: object) -> Fraction:
    return fmpq_to_fraction(sympy.Rational(value))


def _rational(value: fmpq) -> sympy.Rational:
    return sympy.Rational(int(value.p), int(value.q))


def _family(symbols: list[sympy.Symbol], basis: list[sympy.Expr], dimension: int) -> Family:
    """The family of ``basis = 0``, with its affine parametrisation when the basis is linear."""
    family = Family(tuple(symbols), tuple(basis), dimension)
    if not family.is_linear:
        return family
    parameters, solution = affine_parametrisation(basis, symbols)
    return Family(tuple(symbols), tuple(basis), dimension, tuple(parameters), tuple(solution))


def affine_parametrisation(basis: Sequence[sympy.Expr], symbols: Sequence[sympy.Symbol]
                           ) -> tuple[list[sympy.Symbol], list[sympy.Expr]]:
    """The free unknowns of a linear system and every unknown as an affine expression in them (sympy ``linsolve``)."""
    (solution,) = sympy.linsolve(list(basis), *symbols) if basis else [tuple(symbols)]
    solution = [sympy.sympify(v) for v in solution]
    parameters = sorted(set().union(*(v.free_symbols for v in solution)), key=str)
    return parameters, solution


def family_branches(equations: Sequence[sympy.Expr], unknowns: Sequence[sympy.Symbol]
                    ) -> list[dict[sympy.Symbol, sympy.Expr]]:
    """A positive-dimensional system's solutions written out, branch by branch: each unknown sympy can solve for
    as an expression in the ones left free (its lex Groebner basis in ``unknowns``' order, then sympy's
    ``solve``).  Other symbols in the equations (a family's parameters) stay as they are."""
    equations = [e for e in equations if e != 0]
    if not equations:
        return [{}]
    basis = sympy.groebner(equations, *unknowns, order="lex")
    if list(basis.exprs) == [1]:
        return []
    return sympy.solve(list(basis.exprs), list(unknowns), dict=True)


def shape_position(polys: list[sympy.Expr], order: list[sympy.Symbol]
                   ) -> tuple[sympy.Expr, dict[sympy.Symbol, sympy.Expr]] | None:
    """``(f(t), {x_i: g_i(t)})`` if the lex basis is ``[x_i - g_i(t)] + [f(t)]`` (``t = order[-1]``), else ``None``."""
    t = order[-1]
    univariate = [g for g in polys if g.free_symbols <= {t}]
    if len(univariate) != 1 or len(polys) != len(order):
        return None
    rest: dict[sympy.Symbol, sympy.Expr] = {}
    for g in polys:
        if g is univariate[0]:
            continue
        poly = sympy.Poly(g, *order)
        leaders = [s for s in order[:-1] if poly.degree(s) > 0]
        if len(leaders) != 1 or poly.degree(leaders[0]) != 1:
            return None
        s = leaders[0]
        coefficient = poly.coeff_monomial(s)
        if not coefficient.is_number or coefficient == 0:
            return None
        rest[s] = sympy.expand(s - g / coefficient)
    return (univariate[0], rest) if len(rest) == len(order) - 1 else None


def _lex(graded: sympy.polys.polytools.GroebnerBasis, order: list[sympy.Symbol]) -> list[sympy.Expr]:
    """The reduced lex basis (``order``) of a zero-dimensional ideal given by a graded basis: FGLM."""
    if list(graded.gens) != list(order):
        graded = sympy.groebner(list(graded.exprs), *order, order="grevlex", domain=sympy.QQ)
    return list(graded.fglm("lex").exprs)


def _isolated_points(graded: sympy.polys.polytools.GroebnerBasis, symbols: list[sympy.Symbol],
                     box: tuple[Fraction, Fraction] | None) -> list[tuple[Exact, ...]]:
    """Every real solution of a zero-dimensional system, exactly (module docstring, stages 2 and 3).

    First each unknown in turn is tried as the last of a lex order; then a separating coordinate
    ``t = sum w_i x_i`` on the radical ideal.  With ``box``, roots of an unknown are only looked for there.
    """
    for i in range(len(symbols)):
        order = symbols[i:] + symbols[:i] if i else list(symbols)
        found = shape_points(_lex(graded, order), order, box)
        if found is not None:
            return [tuple(dict(zip(order, point))[s] for s in symbols) for point in found]
    t = sympy.Dummy("t")
    generator = random.Random(len(graded.exprs) * 7919 + len(symbols))
    radical = list(graded.exprs) + [sympy.sqf_part(_eliminant(graded, symbols, s), s) for s in symbols]
    for attempt in range(_SEPARATORS):
        weights = [1 + k for k in range(len(symbols))] if attempt == 0 else \
            [generator.randint(-9, 9) for _ in symbols]
        separator = t - sum((w * s for w, s in zip(weights, symbols)), sympy.Integer(0))
        order = [*symbols, t]
        graded_t = sympy.groebner([*radical, separator], *order, order="grevlex", domain=sympy.QQ)
        found = shape_points(list(graded_t.fglm("lex").exprs), order)
        if found is not None:
            return [point[:-1] for point in found]
    raise DegenerateSystemError("polynomial system: no separating coordinate put the Groebner basis in shape position")


def _eliminant(graded: sympy.polys.polytools.GroebnerBasis, symbols: list[sympy.Symbol], last: sympy.Symbol
               ) -> sympy.Expr:
    """The univariate polynomial in ``last`` of the lex basis with ``last`` smallest."""
    basis = _lex(graded, [s for s in symbols if s != last] + [last])
    return next(g for g in basis if g.free_symbols <= {last})


def shape_points(lex_basis: list[sympy.Expr], order: list[sympy.Symbol],
                 box: tuple[Fraction, Fraction] | None = None) -> list[tuple[Exact, ...]] | None:
    """Every real zero of a lex basis in shape position (stages 2 and 3), or None if it is not in shape position.

    The basis's last variable ``t = order[-1]`` carries the univariate ``f(t)``; each real root is isolated
    exactly (:func:`~exactpoker.solve.algebra.roots.real_roots`; only in ``box`` when given) and every other
    unknown is ``g_i(t)`` evaluated there exactly.  Coordinates follow ``order``.
    """
    shape = shape_position(lex_basis, order)
    if shape is None:
        return None
    univariate, rest = shape
    t = order[-1]
    low, high = box if box is not None else (None, None)
    points = []
    for root in real_roots(sympy.Poly(univariate, t), low, high):
        point = {t: root}
        points.append(tuple(root if s == t else evaluate(rest[s], point) for s in order))
    return points


def _dimension(basis: list[sympy.Expr], symbols: list[sympy.Symbol]) -> int:
    """The dimension of the variety: the largest set of unknowns no leading monomial lies in (grevlex basis)."""
    leading = []
    for g in basis:
        monomial = sympy.Poly(g, *symbols).monoms(order="grevlex")[0]
        leading.append({k for k, e in enumerate(monomial) if e})
    for size in range(len(symbols), -1, -1):
        for chosen in combinations(range(len(symbols)), size):
            if not any(lead <= set(chosen) for lead in leading):
                return size
    return 0  # pragma: no cover - the empty set always qualifies for a proper ideal


def affine_form(form: sympy.Expr, parameters: Sequence[sympy.Symbol]) -> tuple[list[Fraction], Fraction] | None:
    """``(coefficients, constant)`` of an affine form in ``parameters``; None if it is not affine."""
    if not parameters:
        return [], _fraction(form)
    poly = sympy.Poly(form, *parameters)
    if poly.total_degree() > 1:
        return None
    return [_fraction(poly.coeff_monomial(p)) for p in parameters], _fraction(poly.coeff_monomial(1))


def polytope_vertices(rows: Sequence[tuple[Sequence[Fraction], Fraction]], d: int
                      ) -> list[tuple[Fraction, ...]] | None:
    """The vertices of the bounded polytope ``{t : a . t + b >= 0 for every (a, b) in rows}``, exactly, sorted.

    Every choice of ``d`` rows with an invertible block is solved (python-flint ``fmpq_mat``) and kept when it
    meets every row; None when there are more than :data:`MAX_VERTEX_CHOICES` choices.
    """
    if d == 0:
        return [()] if all(b >= 0 for _, b in rows) else []
    if comb(len(rows), d) > MAX_VERTEX_CHOICES:
        return None
    found = set()
    for chosen in combinations(range(len(rows)), d):
        block = fmpq_mat(d, d, [to_fmpq(rows[i][0][j]) for i in chosen for j in range(d)])
        try:
            inverse = block.inv()
        except ZeroDivisionError:
            continue
        target = fmpq_mat(d, 1, [to_fmpq(-rows[i][1]) for i in chosen])
        t = tuple(fmpq_to_fraction(v) for v in (inverse * target).entries())
        if all(sum((a * x for a, x in zip(coefficients, t)), constant) >= 0 for coefficients, constant in rows):
            found.add(t)
    return sorted(found)


def unit_box_corners(family: Family) -> tuple[tuple[Fraction, ...], ...]:
    """The corners, in the unknowns, of an affine family cut by ``[0, 1]`` in every unknown, sorted.

    A corner makes ``d`` linearly independent coordinates tight (each at 0 or 1); for each choice of ``d``
    coordinates with an invertible block the ``2^d`` bound patterns are solved at once (one exact matrix
    product, python-flint's ``fmpq_mat``).  Empty when the family is not affine or has more than
    :data:`MAX_CORNER_CHOICES` choices.
    """
    if not family.is_linear:
        return ()
    forms = [affine_form(v, family.parameters) for v in family.parametrisation]
    offset = [constant for _, constant in forms]  # type: ignore[misc]
    directions = [coefficients for coefficients, _ in forms]  # type: ignore[misc]
    m, d = len(offset), len(family.parameters)
    if comb(m, d) << d > MAX_CORNER_CHOICES:
        return ()
    whole = fmpq_mat(m, d, [to_fmpq(v) for row in directions for v in row])
    starts = [to_fmpq(v) for v in offset]
    corners = set()
    for chosen in combinations(range(m), d):
        block = fmpq_mat(d, d, [to_fmpq(directions[i][j]) for i in chosen for j in range(d)])
        try:
            inverse = block.inv()
        except ZeroDivisionError:
            continue
        patterns = list(product((0, 1), repeat=d))
        targets = fmpq_mat(d, len(patterns), [to_fmpq(pattern[k] - offset[i])
                                              for k, i in enumerate(chosen) for pattern in patterns])
        moves = (whole * (inverse * targets)).transpose().tolist()
        for move in moves:
            if all(0 <= start + step <= 1 for start, step in zip(starts, move)):
                corners.add(tuple(offset[i] + fmpq_to_fraction(step) for i, step in enumerate(move)))
    return tuple(sorted(corners))


# -- near a float point: the rational stage --------------------------------------------------------------------


def rational_near(equations: Sequence[fmpq_mpoly], point: Sequence[Fraction], unknowns: Sequence[int],
                  jacobian: Callable[[Sequence[Fraction]], np.ndarray], *, iterations: int = 40) -> list[Fraction]:
    """The rational solution of ``equations = 0`` next to ``point``: refinement with exact residuals.

    ``point`` gives every generator of the equations' context (a float approximation, as a Fraction, at the
    ``unknowns``; exact values elsewhere); ``jacobian(point)`` the float Jacobian of the equations in the
    unknowns.  Each round computes the exact residual, tries the continued-fraction approximations of the
    iterate that its accuracy allows, and takes a Newton step with the float Jacobian (re-evaluated once the
    iterate has settled to float precision, so each later round gains about as many digits as a double holds,
    less the condition number's).

    Raises
    ------
    CertificationError
        No rational solution found within ``iterations`` rounds (an irrational solution?).
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", scipy.linalg.LinAlgWarning)
        return _refinement(equations, list(point), list(unknowns), jacobian, iterations)


def _refinement(equations: Sequence[fmpq_mpoly], current: list[Fraction], unknowns: list[int],
                jacobian: Callable[[Sequence[Fraction]], np.ndarray], iterations: int) -> list[Fraction]:
    def residuals(values: list[Fraction]) -> list[fmpq]:
        at = [fmpq(v.numerator, v.denominator) for v in values]
        return [equation(*at) for equation in equations]

    if not any(residuals(current)):
        return current
    lu = scipy.linalg.lu_factor(jacobian(current))
    for round_ in range(iterations):
        gains = residuals(current)
        if not any(gains):
            return current
        try:
            residual = np.array([float(g) for g in gains])
        except OverflowError:  # the iteration diverged
            break
        step = scipy.linalg.lu_solve(lu, residual)
        if not np.all(np.isfinite(step)):
            break
        size = max(float(np.max(np.abs(step))), 1e-300)
        accuracy = int(min(10.0**300, 0.5 / np.sqrt(size)))
        if accuracy > 10:
            guess = list(current)
            for k in unknowns:
                guess[k] = current[k].limit_denominator(accuracy)
            if not any(residuals(guess)):
                return guess
        for k, d in zip(unknowns, step):
            current[k] = current[k] - _round(Fraction(float(d)), size)
        if round_ == 1:  # the iterate now agrees with the solution to float precision: a better Jacobian
            lu = scipy.linalg.lu_factor(jacobian(current))
    raise CertificationError("the indifference equations on this support have no rational solution found by "
                             "refinement (an irrational equilibrium?)")


def _round(value: Fraction, size: float) -> Fraction:
    """Keep the iterates' denominators small: round a step to a power of two well below its size."""
    scale = 2 ** max(60, 60 - int(np.log2(size)))
    return Fraction(round(value * scale), scale)


def solve_near_point(equations: Sequence[sympy.Expr], symbols: Sequence[sympy.Symbol], point: Sequence[float], *,
                     digits: Sequence[int], max_degree: int) -> list[Exact]:
    """The exact solution of ``equations = 0`` next to the float ``point`` (stage 3 without a Groebner basis).

    A square subsystem of full rank at ``point`` is chosen greedily (equations whose Jacobian rows are
    independent there), solved from many digits by LLL
    (:func:`~exactpoker.solve.algebra.elimination.solve_near`), and every equation, chosen or not, must then
    vanish exactly.

    Raises
    ------
    DegenerateSystemError
        No square subsystem has full rank at ``point``.
    CertificationError
        The point found misses an equation of the system.
    """
    ctx = fmpq_mpoly_ctx.get(tuple(str(s) for s in symbols), "lex")
    polys = [ctx.from_dict({m: fmpq(int(c.p), int(c.q)) for m, c in sympy.Poly(e, *symbols).terms()})
             for e in equations]
    chosen: list[int] = []
    for k in range(len(polys)):
        rows = jacobian_at([polys[j] for j in chosen + [k]], ctx, point)
        if np.linalg.matrix_rank(rows, tol=1e-9) == len(chosen) + 1:
            chosen.append(k)
        if len(chosen) == len(symbols):
            break
    if len(chosen) != len(symbols):
        raise DegenerateSystemError("the system has no square subsystem of full rank at the point")
    values = solve_near([polys[k] for k in chosen], ctx, point, digits=digits, max_degree=max_degree)
    solution = dict(zip(symbols, values))
    if any(evaluate(e, solution) != 0 for e in equations):
        raise CertificationError("the solution found near the point misses an equation of the system")
    return values
