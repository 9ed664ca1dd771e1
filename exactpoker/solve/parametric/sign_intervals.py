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

Used for parametric LPs (:mod:`exactpoker.solve.parametric.lp`) and so for
the matrix games of :mod:`exactpoker.solve.parametric.matrix_game`.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Iterable

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
    distinct: dict[str, fmpq_poly] = {}
    for poly in polys:
        if poly.degree() >= 1:
            monic = poly / poly.leading_coefficient()
            distinct.setdefault(str(monic), monic)
    roots = (root for poly in distinct.values() for root in real_roots(poly))
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
    roots = roots_between(conditions + nonzero if critical is None else critical, lower, upper)
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
