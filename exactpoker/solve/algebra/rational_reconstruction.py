"""A rational function ``P / Q`` through given values, found modulo a prime first, then exactly.

Rational reconstruction (von zur Gathen and Gerhard, *Modern Computer
Algebra*, 2013, section 5.7): through ``n`` values at distinct points there is
at most one ``P / Q`` in lowest terms with ``deg P + deg Q < n`` that the
extended Euclidean algorithm, applied to ``prod (r - t_k)`` and the
interpolant, finds when it stops at a remainder of degree below ``n / 2``.
Run over ``Q`` that algorithm's remainders grow to huge coefficients (a
Leduc basis with 96 points spent 3.5 minutes in it); here it runs in
``Z/pZ`` for a 61-bit prime ``p`` (python-flint's ``nmod_poly``, fast), which
gives the degrees of ``P`` and ``Q``.  With the degrees known, ``P`` and a
monic ``Q`` are the solution of one square linear system over ``Q``
(``P(t_k) = v_k Q(t_k)`` at ``deg P + deg Q + 1`` points; ``fmpq_mat.solve``),
and every other point must agree.  The caller proves the result (here: the
basis identities of :mod:`exactpoker.solve.parametric.lp`); an unlucky prime
can only make this return None.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from flint import fmpq, fmpq_mat, fmpq_poly, nmod_poly

__all__ = ["reconstruct"]

#: The Mersenne prime 2^61 - 1 (a word for nmod_poly).
PRIME = 2**61 - 1


def _mod(value: "Fraction | fmpq") -> int | None:
    numerator, denominator = int(value.numerator), int(value.denominator)
    if denominator % PRIME == 0:
        return None
    return numerator * pow(denominator, -1, PRIME) % PRIME


def _interpolate_mod(points: list[int], values: list[int]) -> nmod_poly:
    """Newton's divided differences modulo :data:`PRIME`."""
    n = len(points)
    coefficients = list(values)
    for level in range(1, n):
        for k in range(n - 1, level - 1, -1):
            step = (points[k] - points[k - level]) % PRIME
            coefficients[k] = (coefficients[k] - coefficients[k - 1]) * pow(step, -1, PRIME) % PRIME
    result = nmod_poly([coefficients[-1]], PRIME)
    for k in range(n - 2, -1, -1):
        result = result * nmod_poly([-points[k] % PRIME, 1], PRIME) + nmod_poly([coefficients[k]], PRIME)
    return result


def _degrees(points: list[int], values: list[int]) -> tuple[int, int] | None:
    """``(deg P, deg Q)`` of the reconstruction modulo the prime (None: none exists there)."""
    n = len(points)
    modulus = nmod_poly([1], PRIME)
    for t in points:
        modulus *= nmod_poly([-t % PRIME, 1], PRIME)
    r0, r1 = modulus, _interpolate_mod(points, values)
    t0, t1 = nmod_poly([], PRIME), nmod_poly([1], PRIME)
    while r1.degree() >= n // 2:
        quotient = r0 // r1
        r0, r1 = r1, r0 - quotient * r1
        t0, t1 = t1, t0 - quotient * t1
    if t1.degree() < 0:
        return None
    return max(r1.degree(), 0), t1.degree()


def reconstruct(points: Sequence[Fraction], values: "Sequence[Fraction | fmpq]") -> tuple[fmpq_poly, fmpq_poly] | None:
    """``(P, Q)`` with ``P(t) = v Q(t)`` at every point, ``deg P + deg Q < len(points)``, or None.

    ``Q`` is scaled to integer coefficients without a common factor (its sign
    is not fixed) and does not vanish at any point.
    """
    residues = [_mod(v) for v in values]
    moduli = [_mod(t) for t in points]
    if None in residues or None in moduli or len(set(moduli)) < len(moduli):
        return None
    degrees = _degrees(moduli, residues)  # type: ignore[arg-type]
    if degrees is None:
        return None
    dp, dq = degrees
    size = dp + dq + 1
    if size > len(points):
        return None
    rows, rhs = [], []
    for t, v in zip(points[:size], values[:size]):
        where, value = fmpq(t.numerator, t.denominator), fmpq(_value_of(v))
        powers = [where**k for k in range(max(dp, dq) + 1)]
        rows.append(powers[:dp + 1] + [-value * powers[k] for k in range(dq)])
        rhs.append(value * powers[dq])
    try:
        solution = fmpq_mat(rows).solve(fmpq_mat(size, 1, rhs))
    except ZeroDivisionError:
        return None
    coefficients = [solution[k, 0] for k in range(size)]
    numerator = fmpq_poly(coefficients[:dp + 1])
    denominator = fmpq_poly(coefficients[dp + 1:] + [fmpq(1)])
    for t, v in zip(points, values):
        where = fmpq(t.numerator, t.denominator)
        if denominator(where) == 0 or numerator(where) != fmpq(_value_of(v)) * denominator(where):
            return None
    factor = fmpq(int(denominator.denom())) / fmpq(int(denominator.numer().content()))
    return numerator * factor, denominator * factor


def _value_of(value: "Fraction | fmpq") -> fmpq:
    return value if isinstance(value, fmpq) else fmpq(value.numerator, value.denominator)
