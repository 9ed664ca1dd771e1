"""Proved isolating boxes of square polynomial systems over Q: the Krawczyk (interval-Newton) test.

Seed 003 (section 3) locates the equilibria of three-player Kuhn poker with a
float guide; on the support it shows, the indifference equations form a
square multilinear system.  Beyond small pots its solution is irrational, of
an algebraic degree too high for a minimal polynomial to be found from digits
(:mod:`exactpoker.solve.elimination`).  The solution is still an exact
object: *the unique zero of the stated rational system in a stated rational
box*.  This module proves such a box, generically for any square system of
``flint.fmpq_mpoly`` (no game knowledge), in python-flint ball arithmetic
(``arb``, ``arb_mat``):

1. the float point is refined by Newton's method in ``arb`` midpoints at the
   working precision;
2. with ``y`` that point, ``C`` the midpoint inverse of the Jacobian ``J(y)``
   and ``X`` a box of balls around ``y``, the Krawczyk operator

   ``K(X) = y - C F(y) + (I - C J(X)) (X - y)``

   is evaluated in ball arithmetic (``F`` and ``J`` on balls, every rounding
   error enclosed).  If ``K(X)`` lies in the interior of ``X``, then ``X``
   holds exactly one zero of ``F`` and ``J`` is nonsingular on ``X``
   (Krawczyk 1969; Moore 1977; Rump 1983, strict inclusion);
3. the box is inflated a few times if the test fails, and the failure is an
   error (a singular or ill-conditioned zero, or a float point too far).

An :class:`IsolatingBox` keeps the system and the box with exact dyadic
endpoints; :meth:`IsolatingBox.refine` proves a smaller box inside it for more
digits (the same zero, since the first box isolates it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from flint import arb, arb_mat, ctx as flint_ctx, fmpq, fmpq_mpoly, fmpq_mpoly_ctx

from exactpoker.errors import CertificationError

__all__ = ["KrawczykError", "BallPolynomial", "IsolatingBox", "isolate", "exact_value", "decimal_string"]

#: Radius inflations tried for the Krawczyk test, as powers of two over the Newton correction.
INFLATIONS = (8, 24, 48)


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


def _compile(equations: Sequence[fmpq_mpoly]) -> list[BallPolynomial]:
    return [BallPolynomial(e) for e in equations]


def _values(system: Sequence[BallPolynomial], point: Sequence[arb]) -> arb_mat:
    return arb_mat(len(system), 1, [f(point) for f in system])


def _jacobian(system: Sequence[BallPolynomial], point: Sequence[arb]) -> arb_mat:
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


def _precision(digits: int) -> int:
    """Working bits for ``digits`` certified decimals (with guard digits for the Newton point and the box)."""
    return int((digits + 30) * 3.33) + 64


def _residual(system: Sequence[BallPolynomial], point: Sequence[arb]) -> arb:
    """The largest ``|f(point)|`` (a midpoint, for comparisons)."""
    return max((abs(f(point)).mid() for f in system), default=arb(0))


def _newton(system: Sequence[BallPolynomial], point: Sequence[arb], bits: int) -> list[arb]:
    """The zero next to ``point`` to about ``bits`` bits, as exact midpoints.

    Newton's method, damped (the step halved until the residual falls) while
    far from the zero, quadratic near it.
    """
    current = [arb(p.mid()) for p in point]
    residual = _residual(system, current)
    target = arb(2) ** (-(bits - 16))
    for _ in range(120):
        try:
            step = _jacobian(system, current).mid().solve(_values(system, current).mid())
        except ZeroDivisionError:
            raise KrawczykError("isolate(): the system's Jacobian is singular at the point") from None
        size = max((abs(step[i, 0]).mid() for i in range(len(current))), default=arb(0))
        if not size.is_finite():
            break
        scale = arb(1)
        for _halving in range(40):
            trial = [arb((c - scale * step[i, 0]).mid()) for i, c in enumerate(current)]
            trial_residual = _residual(system, trial)
            if trial_residual < residual or size < target:
                break
            scale /= 2
        else:
            break
        current, residual = trial, trial_residual
        if size < target:
            return current
    raise KrawczykError("isolate(): Newton's method did not converge from the point")


def _inverse(system: Sequence[BallPolynomial], centre: Sequence[arb]) -> arb_mat | None:
    """``C``: the midpoint inverse of the Jacobian at the (exact) centre, or None if it is singular."""
    try:
        return _jacobian(system, centre).mid().inv().mid()
    except ZeroDivisionError:
        return None


def _contracts(system: Sequence[BallPolynomial], centre: Sequence[arb], box: Sequence[arb], inverse: arb_mat) -> bool:
    """Krawczyk's test: ``K(X) = y - C F(y) + (I - C J(X)) (X - y)`` inside the interior of ``X``."""
    n = len(system)
    identity = arb_mat([[int(i == j) for j in range(n)] for i in range(n)])
    y = arb_mat(n, 1, list(centre))
    offsets = arb_mat(n, 1, [b - c for b, c in zip(box, centre)])
    image = y - inverse * _values(system, centre) + (identity - inverse * _jacobian(system, box)) * offsets
    return all(box[i].contains_interior(image[i, 0]) for i in range(n))


def _krawczyk(system: Sequence[BallPolynomial], centre: Sequence[arb]) -> list[arb] | None:
    """A box around the exact ``centre`` proved to hold exactly one zero (Krawczyk's test), or None."""
    n = len(system)
    inverse = _inverse(system, centre)
    if inverse is None:
        return None
    correction = inverse * _values(system, centre)
    size = max((abs(correction[i, 0]).upper() for i in range(n)), default=arb(0))
    floor = arb(2) ** (-(flint_ctx.prec - 8))
    for inflation in INFLATIONS:
        radius = arb(((size + floor) * arb(2) ** inflation).upper().mid())
        box = [arb(c.mid(), radius) for c in centre]
        if _contracts(system, centre, box, inverse):
            return box
    return None


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
        system = _compile(self.equations)
        with flint_ctx.workprec(self.bits()):
            centre = [arb(fmpq(c.numerator, c.denominator)) for c in self.centres]
            if any(not c.is_exact() for c in centre):
                return False
            inverse = _inverse(system, centre)
            return inverse is not None and _contracts(system, centre, self.balls(), inverse)

    def intervals(self) -> list[tuple[Fraction, Fraction]]:
        """Each coordinate's exact rational interval."""
        return [(c - r, c + r) for c, r in zip(self.centres, self.radii)]

    def bits(self) -> int:
        """A working precision that holds the box's endpoints exactly."""
        largest = max((max(c.denominator.bit_length(), abs(c.numerator).bit_length()) for c in self.centres), default=0)
        return max(_precision(self.digits), largest + 64)

    def refine(self, digits: int) -> "IsolatingBox":
        """A box for the same zero with at least ``digits`` decimal places (inside this one)."""
        if digits <= self.digits:
            return self
        finer = isolate(self.equations, self.ctx, [float(c) for c in self.centres], digits=digits, start=self)
        outer = self.intervals()
        if not all(lo <= a and b <= hi for (a, b), (lo, hi) in zip(finer.intervals(), outer)):
            raise KrawczykError("refine(): the finer box left the isolating box")
        return finer


def isolate(equations: Sequence[fmpq_mpoly], ctx: fmpq_mpoly_ctx, point: Sequence[float], *, digits: int = 30,
            start: IsolatingBox | None = None) -> IsolatingBox:
    """A proved isolating box, ``digits`` decimal places wide, of the zero of ``equations`` next to ``point``.

    Parameters
    ----------
    equations : sequence of flint.fmpq_mpoly
        A square system in the variables of ``ctx``.
    ctx : flint.fmpq_mpoly_ctx
        Their context.
    point : sequence of float
        A float approximation of the zero (every variable of ``ctx``).
    digits : int
        Decimal places the box must give (at least 1).
    start : IsolatingBox, optional
        A proved box whose centres start Newton's method (for :meth:`IsolatingBox.refine`).

    Raises
    ------
    KrawczykError
        If the system is not square, Newton's method fails (singular Jacobian)
        or no box passes Krawczyk's test.
    """
    n = len(equations)
    if n != len(point) or n != len(ctx.names()):
        raise KrawczykError(f"isolate(): need a square system; got {n} equations in {len(ctx.names())} unknowns "
                            f"and a point of {len(point)} coordinates")
    if digits < 1:
        raise KrawczykError(f"isolate(): digits must be >= 1; got {digits}")
    system = _compile(equations)
    bits = max(_precision(digits), start.bits() if start is not None else 0)
    with flint_ctx.workprec(bits):
        first = start.balls() if start is not None else [arb(p) for p in point]
        centre = _newton(system, first, bits)
        box = _krawczyk(system, centre)
        if box is None:
            raise KrawczykError("isolate(): Krawczyk's test failed around the Newton point (a singular or "
                                "ill-conditioned zero)")
        result = IsolatingBox(tuple(equations), ctx, tuple(exact_value(b) for b in box),
                              tuple(exact_value(b, "rad") for b in box))
    if result.digits < digits:
        raise KrawczykError(f"isolate(): the proved box gives {result.digits} digits, fewer than {digits}")
    return result
