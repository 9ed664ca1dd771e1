"""The largest interval around a rational point on which polynomial sign conditions hold: proved, not sampled.

Given polynomials ``p_1, ..., p_m`` in one variable that must be ``>= 0`` and
``d_1, ..., d_k`` that must not vanish, the set where all hold is a union of
intervals whose end points are real roots of the ``p``'s and ``d``'s.  The real
roots of every polynomial (or of given *critical* polynomials whose roots
contain them) are isolated exactly (:func:`~exactpoker.algebraic.real_roots`:
rationals, or algebraic numbers with an isolating interval); between two
consecutive roots every polynomial keeps its sign, so one exact evaluation at
a rational point of each open cell decides the whole cell.  At a root itself a
``p >= 0`` condition holds by continuity when it holds on both neighbouring
cells; a ``d`` that vanishes there ends the interval (the point is excluded
from the walk past it, and included as the end).  This is the cell
decomposition of one-variable cylindrical algebraic decomposition (Collins
1975, the base phase), with the cells walked outwards from the point.

Only the roots that can matter are isolated: going outwards from the point,
rational probes at doubling distances find one where the conditions fail (the
end lies before it), and a polynomial is kept only if Descartes' rule of
signs on the window between (the coefficients of ``(1 + y)^n p((a + b y) /
(1 + y))``; Collins and Akritas 1976) allows it a root there.

Used for parametric LPs (:mod:`exactpoker.solve.parametric.lp`) and so for
the matrix games of :mod:`exactpoker.solve.parametric.matrix_game`.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Callable, Iterable

from flint import fmpq_poly

from exactpoker.algebraic import RealAlgebraic, rational_between, real_roots, to_fmpq
from exactpoker.errors import CertificationError
from exactpoker.numbers import exact_str

__all__ = ["compare", "sorted_numbers", "roots_between", "largest_interval"]


def compare(a: RealAlgebraic, b: RealAlgebraic) -> int:
    """-1, 0 or 1 as ``a < b``, ``a == b``, ``a > b`` (exact)."""
    return -1 if a < b else (1 if b < a else 0)


def sorted_numbers(numbers: Iterable[RealAlgebraic]) -> list[RealAlgebraic]:
    """Distinct real algebraic numbers in increasing order."""
    out: list[RealAlgebraic] = []
    for number in numbers:
        if not any(number.same(o) for o in out):
            out.append(number)
    return sorted(out, key=functools.cmp_to_key(compare))


def roots_between(polys: Iterable[fmpq_poly], lower: RealAlgebraic, upper: RealAlgebraic | None) -> list[RealAlgebraic]:
    """The distinct real roots of ``polys`` strictly inside ``(lower, upper)``, increasing."""
    roots = (root for poly in _distinct(polys) for root in real_roots(poly))
    return sorted_numbers(r for r in roots if lower < r and (upper is None or r < upper))


def largest_interval(conditions: list[fmpq_poly], nonzero: list[fmpq_poly], t: Fraction,
                     lower: RealAlgebraic, upper: RealAlgebraic | None, *,
                     critical: list[fmpq_poly] | None = None) -> tuple[RealAlgebraic, RealAlgebraic | None]:
    """The largest interval around ``t`` within ``[lower, upper]`` where every condition is ``>= 0``.

    Parameters
    ----------
    conditions : list of fmpq_poly
        Polynomials that must be ``>= 0``.
    nonzero : list of fmpq_poly
        Polynomials that must not vanish (a denominator); the interval ends at
        their first root on each side.
    t : Fraction
        A point where everything holds.
    lower, upper : RealAlgebraic
        The domain (``upper = None``: infinity).
    critical : list of fmpq_poly, optional
        Polynomials whose real roots include those of every condition and of
        every ``nonzero`` (e.g. the factors the conditions are products of);
        default the conditions and ``nonzero`` themselves.

    Raises
    ------
    CertificationError
        If the conditions do not hold at ``t``.
    """
    def holds_at(q: Fraction) -> bool:
        value = to_fmpq(q)
        return all(p(value) >= 0 for p in conditions) and all(d(value) != 0 for d in nonzero)

    if not holds_at(t):
        raise CertificationError(f"the exact solution at r = {exact_str(t)} fails its own sign conditions")
    here = RealAlgebraic.rational(t)
    polys = _distinct(conditions + nonzero if critical is None else critical)

    def walk(bound: RealAlgebraic | None, up: bool) -> RealAlgebraic | None:
        far = _probe(holds_at, t, bound, up)  # the conditions fail at far: the end is before it
        window = bound if far is None else RealAlgebraic.rational(far)
        outer = far if far is not None else None if bound is None else (bound.upper if up else bound.lower)
        kept = polys if outer is None else [p for p in polys if _may_have_root(p, *sorted((t, outer)))]
        roots = roots_between(kept, here, window) if up else roots_between(kept, window, here)[::-1]
        current = here
        for root in roots + [window]:
            if root is None:
                sample = rational_between(current, None)
            else:
                sample = rational_between(current, root) if up else rational_between(root, current)
            if not holds_at(sample):
                return current
            if root is None or root is window or any(root.vanishes(d) for d in nonzero):
                return root
            current = root
        return current  # pragma: no cover - the loop always returns

    return walk(lower, False), walk(upper, True)  # type: ignore[return-value]


def _distinct(polys: Iterable[fmpq_poly]) -> list[fmpq_poly]:
    """The nonconstant polynomials, each once (monic)."""
    distinct: dict[str, fmpq_poly] = {}
    for poly in polys:
        if poly.degree() >= 1:
            monic = poly / poly.leading_coefficient()
            distinct.setdefault(str(monic), monic)
    return list(distinct.values())


#: Probes outwards from the point: the first at 1/64 of the way to the domain's end, then doubling.
_PROBES = 12


def _probe(holds_at: Callable[[Fraction], bool], t: Fraction, bound: RealAlgebraic | None, up: bool) -> Fraction | None:
    """The first of rational points at doubling distances from ``t`` towards ``bound`` where the conditions fail;
    None if none does before ``bound`` (or within :data:`_PROBES` probes)."""
    edge = None if bound is None else (bound.upper if up else bound.lower)
    step = Fraction(1, 64) * (1 if edge is None or edge == t else abs(edge - t))
    for k in range(_PROBES):
        point = t + step * 2**k if up else t - step * 2**k
        if bound is not None and not (RealAlgebraic.rational(point) < bound if up else bound < RealAlgebraic.rational(point)):
            return None
        if not holds_at(point):
            return point
    return None


def _may_have_root(poly: fmpq_poly, lower: Fraction, upper: Fraction) -> bool:
    """False if ``poly`` has no root in ``(lower, upper)``: Descartes' rule of signs after the Möbius map of
    ``(0, oo)`` onto ``(lower, upper)`` (module docstring)."""
    shifted = poly(fmpq_poly([to_fmpq(lower), to_fmpq(upper - lower)]))  # (0, 1) onto (lower, upper)
    mapped = fmpq_poly(shifted.coeffs()[::-1])(fmpq_poly([1, 1]))  # (0, oo) onto (0, 1)
    signs = [c > 0 for c in mapped.coeffs() if c != 0]
    return any(a != b for a, b in zip(signs, signs[1:]))
