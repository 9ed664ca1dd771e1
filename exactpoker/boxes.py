"""Isolating boxes of square rational polynomial systems, and Krawczyk's test that proves them.

The exact object behind an equilibrium too irrational for a minimal
polynomial (seed 003, three-player Kuhn poker beyond small pots): *the
unique zero of a stated rational system in a stated rational box*.  This
module holds what a certificate needs to re-check such a box, and nothing
that searches for one (that is :mod:`exactpoker.solve.algebra.krawczyk`):

* :class:`BallPolynomial`: a ``flint.fmpq_mpoly`` evaluated on ``arb`` balls,
  with its gradient, every rounding error enclosed;
* :func:`krawczyk_contracts`: Krawczyk's test.  With ``y`` an exact point of
  the box ``X`` and ``C`` any matrix (a midpoint inverse of the Jacobian at
  ``y`` in practice), if ``K(X) = y - C F(y) + (I - C J(X)) (X - y)`` lies in
  the interior of ``X``, then ``X`` holds exactly one zero of ``F`` and ``J``
  is nonsingular on ``X`` (Krawczyk 1969; Moore 1977; Rump 1983);
* :class:`IsolatingBox`: the system and the box with exact dyadic endpoints;
  :meth:`IsolatingBox.verify` re-runs the test;
* :func:`decimal_string`: a ball's decimal digits, proved.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from flint import arb, arb_mat, ctx as flint_ctx, fmpq, fmpq_mpoly, fmpq_mpoly_ctx

from exactpoker.errors import CertificationError

__all__ = ["KrawczykError", "BallPolynomial", "IsolatingBox", "ball_system", "ball_values", "ball_jacobian",
           "jacobian_inverse", "krawczyk_contracts", "working_precision", "exact_value", "decimal_string"]


class KrawczykError(CertificationError):
    """No box around the point was proved to isolate a zero of the system."""


class BallPolynomial:
    """A rational polynomial (``flint.fmpq_mpoly``) evaluated on balls (``flint.arb``), with its gradient.

    Each term is kept as its rational coefficient and its ``(variable, exponent)``
    pairs; evaluation converts the coefficients at the working precision, so
    every rounding error is enclosed in the result.
    """

    def __init__(self, poly: fmpq_mpoly, gradient: bool = True) -> None:
        self.poly = poly
        self.terms = [(c, tuple((v, int(e)) for v, e in enumerate(monomial) if e)) for monomial, c in poly.terms()]
        self.gradient: dict[int, BallPolynomial] = {}
        if gradient:
            for v, name in enumerate(poly.context().names()):
                derivative = poly.derivative(name)
                if not derivative.is_zero():
                    self.gradient[v] = BallPolynomial(derivative, gradient=False)

    def __call__(self, point: Sequence[arb]) -> arb:
        total = arb(0)
        for coefficient, factors in self.terms:
            term = arb(coefficient)
            for v, e in factors:
                term *= point[v] if e == 1 else point[v] ** e
            total += term
        return total


def ball_system(equations: Sequence[fmpq_mpoly]) -> list[BallPolynomial]:
    """The equations as :class:`BallPolynomial` s, with their gradients."""
    return [BallPolynomial(e) for e in equations]


def ball_values(system: Sequence[BallPolynomial], point: Sequence[arb]) -> arb_mat:
    """The column of the system's values at ``point``."""
    return arb_mat(len(system), 1, [f(point) for f in system])


def ball_jacobian(system: Sequence[BallPolynomial], point: Sequence[arb]) -> arb_mat:
    """The system's Jacobian matrix on ``point`` (balls: an enclosure over a box)."""
    n = len(system)
    entries = [[arb(0)] * n for _ in range(n)]
    for i, f in enumerate(system):
        for v, derivative in f.gradient.items():
            entries[i][v] = derivative(point)
    return arb_mat(entries)


def exact_value(ball: arb, part: str = "mid") -> Fraction:
    """The exact rational midpoint (``part="mid"``) or radius (``"rad"``) of an ``arb`` ball."""
    value = ball.mid() if part == "mid" else ball.rad()
    mantissa, exponent = value.man_exp()
    mantissa, exponent = int(mantissa), int(exponent)
    return Fraction(mantissa * 2**exponent) if exponent >= 0 else Fraction(mantissa, 2 ** (-exponent))


def decimal_string(ball: "arb | tuple[Fraction, Fraction]", places: int) -> str:
    """``"d.ddd±1e-places"``: a ball's value rounded to ``places`` decimals, proved within ``10**-places``.

    ``ball`` is an ``arb`` or an exact ``(midpoint, radius)`` pair.  Raises
    :class:`KrawczykError` when the ball is too wide for that many places.
    """
    mid, rad = ball if isinstance(ball, tuple) else (exact_value(ball), exact_value(ball, "rad"))
    scaled = mid * 10**places
    rounded = math.floor(scaled + Fraction(1, 2))
    if abs(Fraction(rounded, 10**places) - mid) + rad >= Fraction(1, 10**places):
        raise KrawczykError(f"decimal_string(): the ball is too wide for {places} decimal places")
    sign, digits = ("-" if rounded < 0 else ""), str(abs(rounded)).rjust(places + 1, "0")
    body = digits[:-places] + "." + digits[-places:] if places else digits
    return f"{sign}{body}±1e-{places}"


def working_precision(digits: int) -> int:
    """Working bits for ``digits`` certified decimals (with guard digits for the Newton point and the box)."""
    return int((digits + 30) * 3.33) + 64


def jacobian_inverse(system: Sequence[BallPolynomial], centre: Sequence[arb]) -> arb_mat | None:
    """``C``: the midpoint inverse of the Jacobian at the (exact) centre, or None if it is singular."""
    try:
        return ball_jacobian(system, centre).mid().inv().mid()
    except ZeroDivisionError:
        return None


def krawczyk_contracts(system: Sequence[BallPolynomial], centre: Sequence[arb], box: Sequence[arb], inverse: arb_mat) -> bool:
    """Krawczyk's test: ``K(X) = y - C F(y) + (I - C J(X)) (X - y)`` inside the interior of ``X``."""
    n = len(system)
    identity = arb_mat([[int(i == j) for j in range(n)] for i in range(n)])
    y = arb_mat(n, 1, list(centre))
    offsets = arb_mat(n, 1, [b - c for b, c in zip(box, centre)])
    image = y - inverse * ball_values(system, centre) + (identity - inverse * ball_jacobian(system, box)) * offsets
    return all(box[i].contains_interior(image[i, 0]) for i in range(n))


@dataclass(frozen=True)
class IsolatingBox:
    """A box with exact dyadic endpoints holding exactly one zero of a square rational system.

    ``equations`` are ``flint.fmpq_mpoly`` in the variables of ``ctx`` (as many
    as equations); ``centres`` and ``radii`` are exact rationals: coordinate
    ``i`` of the zero lies in ``[centres[i] - radii[i], centres[i] + radii[i]]``,
    and no other zero lies in the box (Krawczyk's test, :func:`isolate`).
    """

    equations: tuple[fmpq_mpoly, ...]
    ctx: fmpq_mpoly_ctx
    centres: tuple[Fraction, ...]
    radii: tuple[Fraction, ...]

    @property
    def digits(self) -> int:
        """Decimal places every coordinate is known to (``10**-digits`` above the largest radius)."""
        largest = max(self.radii, default=Fraction(0))
        if largest == 0:
            return 10**6
        inverse = 1 / largest
        whole = inverse.numerator // inverse.denominator  # floor(log10(1/r)) is its number of digits less 1
        return max(0, len(str(whole)) - 2) if whole else 0

    def balls(self) -> list[arb]:
        """The box as ``arb`` balls (made at :meth:`bits` precision: exact, or enclosing the box)."""
        with flint_ctx.workprec(self.bits()):
            return [arb(fmpq(c.numerator, c.denominator)) + arb(0, fmpq(r.numerator, r.denominator))
                    for c, r in zip(self.centres, self.radii)]

    def decimals(self, places: int) -> list[str]:
        """Each coordinate as :func:`decimal_string` with ``places`` decimals (at most :attr:`digits`)."""
        return [decimal_string((c, r), places) for c, r in zip(self.centres, self.radii)]

    def verify(self) -> bool:
        """Re-run Krawczyk's test on this box: True when it proves exactly one zero in it."""
        system = ball_system(self.equations)
        with flint_ctx.workprec(self.bits()):
            centre = [arb(fmpq(c.numerator, c.denominator)) for c in self.centres]
            if any(not c.is_exact() for c in centre):
                return False
            inverse = jacobian_inverse(system, centre)
            return inverse is not None and krawczyk_contracts(system, centre, self.balls(), inverse)

    def intervals(self) -> list[tuple[Fraction, Fraction]]:
        """Each coordinate's exact rational interval."""
        return [(c - r, c + r) for c, r in zip(self.centres, self.radii)]

    def bits(self) -> int:
        """A working precision that holds the box's endpoints exactly."""
        largest = max((max(c.denominator.bit_length(), abs(c.numerator).bit_length()) for c in self.centres), default=0)
        return max(working_precision(self.digits), largest + 64)
