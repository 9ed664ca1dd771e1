"""Zeros of a multilinear integer system in the open unit box, decided exactly.

Seed 001 (Nash--Shapley) section 6: on each case of condition (C) the interior
coefficients solve ``Delta_u = 0``, a system of multilinear polynomials with
integer coefficients, and only zeros in the *open* box ``(0, 1)^n`` count.
This module decides such a system in three exact stages, each of which may
settle it:

1. :func:`split_components`: a Groebner basis (python-flint's Buchberger with
   size limits), each of whose elements is factored; a factor that cannot
   vanish on the open box (a multilinear factor whose vertex values have one
   strict sign, such as ``beta - 1``) is dropped, and an element with several
   remaining factors splits the system in one branch per factor.  A branch
   whose basis is ``{1}``, or holds an element with no remaining factor, has
   no zero in the open box.  What is left are *components*.
2. :func:`shape_points`: a zero-dimensional component whose lexicographic
   basis is in shape position (``c_i x_i - g_i(x_n)`` and ``p(x_n)``) has its
   zeros at the real roots of ``p``: every coordinate exactly, in
   ``Q(root)`` (:class:`~exactpoker.algebraic.AlgebraicNumber`).
3. :func:`excluded_by_boxes`: bisection of the box, where a multilinear
   polynomial's range on a sub-box is the range of its vertex values; a
   sub-box goes when one equation keeps one strict sign on it, or when a
   condition ``g >= 0 where r > 0`` fails on all of it.  The vertex values
   are computed in floating point with a proved bound on the rounding error
   (Higham, *Accuracy and Stability of Numerical Algorithms*, 2002, sec. 3.1:
   each term is a product of at most ``n`` factors in ``[0, 1]`` and a
   coefficient, a sum of ``T`` terms errs by at most ``gamma_{n+T+1}``
   times the sum of ``|coefficient|``), so a decided sign is a proved one.

A component none of these settles is *undecided*: callers report it, never
drop it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Sequence

import flint
import numpy as np

from exactpoker.algebraic import AlgebraicNumber, real_roots

__all__ = ["Multilinear", "Component", "split_components", "shape_points", "excluded_by_boxes",
           "GROEBNER_LIMITS"]

#: Buchberger's limits (basis length, polynomial length, coefficient bits): beyond, the stage gives up.
GROEBNER_LIMITS = (2000, 20000, 20000)
#: Deepest nesting of factor splits.
MAX_SPLITS = 16

Multilinear = dict[int, int]  # monomial bitmask over the unknowns -> integer coefficient


@dataclass(frozen=True)
class Component:
    """A branch of :func:`split_components` the factor splits did not rule out.

    ``basis`` is its Groebner basis (``flint.fmpz_mpoly`` in ``ctx``), empty
    when the branch has no equations; ``complete`` is False when Buchberger
    stopped at :data:`GROEBNER_LIMITS` (then ``basis`` only generates the ideal).
    """

    basis: tuple[flint.fmpz_mpoly, ...]
    ctx: flint.fmpz_mpoly_ctx
    complete: bool

    @property
    def zero_dimensional(self) -> bool:
        """Every unknown leads some basis element as a pure power (finitely many complex zeros)."""
        if not self.complete or not self.basis:
            return False
        pure = set()
        for g in self.basis:
            lead = g.monoms()[0]
            used = [j for j, e in enumerate(lead) if e]
            if len(used) == 1:
                pure.add(used[0])
        return len(pure) == len(self.ctx.names())


def _sign_on_open_box(poly: flint.fmpz_mpoly) -> int:
    """+1 or -1 if the multilinear ``poly`` has that sign at every point of the open box; else 0.

    Its value inside the box is a mixture, with positive weights, of its values
    at the vertices: one strict sign there, zeros allowed, gives that sign.
    A polynomial of higher degree in some unknown gets 0 (not decided).
    """
    terms = poly.to_dict()
    if any(e > 1 for monomial in terms for e in monomial):
        return 0
    used = sorted({j for monomial in terms for j, e in enumerate(monomial) if e})
    values = []
    for vertex in product((0, 1), repeat=len(used)):
        at = dict(zip(used, vertex))
        values.append(sum(int(c) for m, c in terms.items() if all(at[j] for j, e in enumerate(m) if e)))
    if min(values) >= 0 and max(values) > 0:
        return 1
    if max(values) <= 0 and min(values) < 0:
        return -1
    return 0


def _relevant_factors(poly: flint.fmpz_mpoly) -> list[flint.fmpz_mpoly] | None:
    """The distinct factors of ``poly`` that may vanish in the open box (None: ``poly`` is 0)."""
    if poly.is_zero():
        return None
    try:
        _, factors = poly.factor()
    except OverflowError:  # python-flint 0.9 cannot sort factors with huge coefficients: keep it whole
        return [poly] if _sign_on_open_box(poly) == 0 else []
    return [f for f, _ in factors if not f.is_constant() and _sign_on_open_box(f) == 0]


def _is_associate(f: flint.fmpz_mpoly, g: flint.fmpz_mpoly) -> bool:
    return (f - g).is_zero() or (f + g).is_zero()


def split_components(equations: Sequence[flint.fmpz_mpoly], ctx: flint.fmpz_mpoly_ctx) -> list[Component]:
    """The components of ``equations = 0`` that may meet the open unit box (stage 1).

    Every zero of the system in the open box is a zero of one returned
    component.  An empty list proves there is none.
    """
    def split(polys: list[flint.fmpz_mpoly], depth: int) -> list[Component] | None:
        """The components, or None when no branch was split off (``polys`` as they are)."""
        for i, g in enumerate(polys):
            factors = _relevant_factors(g)
            if factors is None:
                continue
            if not factors:
                return []
            if len(factors) > 1 or not _is_associate(factors[0], g):
                if depth >= MAX_SPLITS:
                    return None
                found: list[Component] = []
                for f in factors:
                    found += branch([f, *polys[:i], *polys[i + 1:]], depth + 1)
                return found
        return None

    def branch(polys: list[flint.fmpz_mpoly], depth: int) -> list[Component]:
        polys = [g for g in polys if not g.is_zero()]
        if not polys:
            return [Component((), ctx, True)]
        found = split(polys, depth)
        if found is not None:
            return found
        basis, complete = flint.fmpz_mpoly_vec(polys, ctx).buchberger_naive(limits=GROEBNER_LIMITS)
        basis = [g for g in (basis.autoreduction() if complete else basis) if not g.is_zero()]
        if any(g.is_constant() for g in basis):
            return []
        found = split(basis, depth)
        if found is not None:
            return found
        return [Component(tuple(basis), ctx, complete)]

    return branch(list(equations), 0)


def shape_points(component: Component) -> list[list[Fraction | AlgebraicNumber]] | None:
    """Every zero of a zero-dimensional component in the open box, exactly (stage 2).

    The lexicographic basis must be in shape position: ``p(x_n)`` and, for
    each other unknown, ``c x_i - g(x_n)`` with ``c`` a nonzero integer.
    Returns None when it is not (or Buchberger stopped at its limits).
    """
    names = component.ctx.names()
    n = len(names)
    lex = flint.fmpz_mpoly_ctx.get(tuple(names), "lex")
    polys = [lex.from_dict(g.to_dict()) for g in component.basis]
    basis, complete = flint.fmpz_mpoly_vec(polys, lex).buchberger_naive(limits=GROEBNER_LIMITS)
    if not complete:
        return None
    basis = [g for g in basis.autoreduction() if not g.is_zero()]
    last, others = None, {}
    for g in basis:
        terms = g.to_dict()
        used = {j for m in terms for j, e in enumerate(m) if e}
        if used == {n - 1}:
            last = g
            continue
        heads = [(m, c) for m, c in terms.items() if any(m[:n - 1])]
        if len(heads) != 1 or sum(heads[0][0][:n - 1]) != 1 or heads[0][0][n - 1] != 0:
            return None
        i = next(j for j, e in enumerate(heads[0][0]) if e)
        others[i] = (int(heads[0][1]), {int(m[n - 1]): int(c) for m, c in terms.items() if m != heads[0][0]})
    if last is None or len(others) != n - 1:
        return None
    univariate = flint.fmpq_poly([int(last.to_dict().get(tuple([0] * (n - 1) + [k]), 0))
                                  for k in range(last.degrees()[n - 1] + 1)])
    points = []
    for root in real_roots(univariate):
        theta = root.field_element()
        if not 0 < theta < 1:
            continue
        point: list[Fraction | AlgebraicNumber] = [Fraction(0)] * n
        point[n - 1] = theta
        for i, (lead, rest) in others.items():
            value = sum((c * theta**k for k, c in rest.items()), Fraction(0))
            point[i] = -value / lead
        if all(0 < x < 1 for x in point):
            points.append(point)
    return points


def _vertex_values(poly: Multilinear, low: np.ndarray, high: np.ndarray) -> tuple[np.ndarray, float]:
    """The values at the ``2^n`` vertices of ``[low, high]`` (floats) and a proved bound on their error."""
    n = len(low)
    vertices = np.arange(1 << n)
    corners = np.where((vertices[:, None] >> np.arange(n)) & 1 == 1, high[None, :], low[None, :])
    values = np.zeros(1 << n)
    size = 0.0
    for mask, c in poly.items():
        term = np.full(1 << n, float(c))
        for j in range(n):
            if mask >> j & 1:
                term = term * corners[:, j]
        values += term
        size += abs(float(c))
    k = n + len(poly) + 1
    unit = 2.0**-53
    return values, 2 * k * unit / (1 - k * unit) * size * (1 + 2 * unit)


def _strict_sign(poly: Multilinear, low: np.ndarray, high: np.ndarray) -> int:
    """+1 / -1 if ``poly`` is proved > 0 / < 0 on the closed box; else 0."""
    if not poly:
        return 0
    values, error = _vertex_values(poly, low, high)
    if values.min() > error:
        return 1
    if values.max() < -error:
        return -1
    return 0


def excluded_by_boxes(n: int, equations: Sequence[Multilinear],
                      conditions: Sequence[tuple[Multilinear, Multilinear]], budget: int = 2000) -> bool:
    """Whether bisection proves no point of the open box solves ``equations`` and ``conditions`` (stage 3).

    ``conditions`` are pairs ``(r, g)``: ``g >= 0`` is required where ``r > 0``.
    ``budget`` caps the number of sub-boxes examined; False means "not proved".
    """
    stack = [(np.zeros(n), np.ones(n))]
    for _ in range(budget):
        if not stack:
            return True
        low, high = stack.pop()
        if any(_strict_sign(p, low, high) for p in equations):
            continue
        if any(_strict_sign(r, low, high) > 0 and _strict_sign(g, low, high) < 0 for r, g in conditions):
            continue
        j = int(np.argmax(high - low))
        middle = (low[j] + high[j]) / 2
        upper, lower = high.copy(), low.copy()
        upper[j], lower[j] = middle, middle
        stack += [(low, upper), (lower, high)]
    return not stack
