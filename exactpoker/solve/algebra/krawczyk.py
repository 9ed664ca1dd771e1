"""Proved isolating boxes of square polynomial systems over Q: the Krawczyk (interval-Newton) test.

Seed 003 (section 3) locates the equilibria of three-player Kuhn poker with a
float guide; on the support it shows, the indifference equations form a
square multilinear system.  Beyond small pots its solution is irrational, of
an algebraic degree too high for a minimal polynomial to be found from digits
(:mod:`exactpoker.solve.algebra.elimination`).  The solution is still an exact
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

The result is an :class:`~exactpoker.boxes.IsolatingBox` (the system and
the box with exact dyadic endpoints); the test itself and the ball
polynomials are in :mod:`exactpoker.boxes`, which the certificate uses
without this search.  :func:`refine` proves a smaller box inside a box for
more digits (the same zero, since the first box isolates it).
"""

from __future__ import annotations

from typing import Sequence

from flint import arb, ctx as flint_ctx, fmpq_mpoly, fmpq_mpoly_ctx

from exactpoker.boxes import (BallPolynomial, IsolatingBox, KrawczykError, ball_jacobian, ball_system, ball_values,
                              decimal_string, exact_value, jacobian_inverse, krawczyk_contracts, working_precision)

__all__ = ["KrawczykError", "BallPolynomial", "IsolatingBox", "isolate", "refine", "exact_value", "decimal_string"]

#: Radius inflations tried for the Krawczyk test, as powers of two over the Newton correction.
INFLATIONS = (8, 24, 48)


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
            step = ball_jacobian(system, current).mid().solve(ball_values(system, current).mid())
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


def _krawczyk(system: Sequence[BallPolynomial], centre: Sequence[arb]) -> list[arb] | None:
    """A box around the exact ``centre`` proved to hold exactly one zero (Krawczyk's test), or None."""
    n = len(system)
    inverse = jacobian_inverse(system, centre)
    if inverse is None:
        return None
    correction = inverse * ball_values(system, centre)
    size = max((abs(correction[i, 0]).upper() for i in range(n)), default=arb(0))
    floor = arb(2) ** (-(flint_ctx.prec - 8))
    for inflation in INFLATIONS:
        radius = arb(((size + floor) * arb(2) ** inflation).upper().mid())
        box = [arb(c.mid(), radius) for c in centre]
        if krawczyk_contracts(system, centre, box, inverse):
            return box
    return None


def refine(box: IsolatingBox, digits: int) -> IsolatingBox:
    """A box for the same zero as ``box`` with at least ``digits`` decimal places (inside ``box``)."""
    if digits <= box.digits:
        return box
    finer = isolate(box.equations, box.ctx, [float(c) for c in box.centres], digits=digits, start=box)
    outer = box.intervals()
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
        A proved box whose centres start Newton's method (for :func:`refine`).

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
    system = ball_system(equations)
    bits = max(working_precision(digits), start.bits() if start is not None else 0)
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
