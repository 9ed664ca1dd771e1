"""The sequential certificate in ball arithmetic, for equilibria given by an isolating box.

Seed 003 (section 3): beyond small pots the equilibria of three-player Kuhn
poker solve an indifference system whose solution is irrational of high
degree.  Such an equilibrium is still exact: the unknown behaviour
probabilities are the unique zero, in a proved rational box
(:class:`~exactpoker.boxes.IsolatingBox`), of the gains of some
interior variables (the others at exact rationals).  :func:`certify_box`
checks, from the compiled game alone and in python-flint ball arithmetic,
everything :func:`exactpoker.certify_sequential.verify_sequential` checks
exactly:

* the box passes Krawczyk's test again and its equations are the stated
  gains (recomputed here from the game);
* every variable at 0 has a gain that is strictly negative on the whole box,
  every variable at 1 one strictly positive, or else zero at the box's zero
  (identically, or a combination of the equations: a tie), as the
  seed's condition (1) requires;
* every interior variable lies strictly inside ``(0, 1)`` (the box's
  coordinates on the whole box) and has gain exactly zero: it is one of the
  system's equations, or its gain is identically zero or a combination of
  them with polynomial multipliers, ``g = sum h_i e_i`` (found by exact
  linear algebra over Q and checked exactly on the polynomials,
  :mod:`exactpoker.polynomial_combination`; then ``g`` vanishes wherever the
  equations do, at the box's zero in particular), or ``u g = sum h_i e_i``
  with a factor ``u = x_j`` or ``1 - x_j`` of an unknown proved inside
  ``(0, 1)`` on the box (then ``u`` is nonzero at the zero).  A gain left out of the
  square system as dependent is proved zero this way, not by its ball.

Each information set's actions played with positive probability are then
optimal for the counterfactual values with the played continuation, so by
backward induction each player's strategy is a best response in every own
subgame: the profile is a Nash equilibrium, optimal at every own information
set.  Anything undecided on the box (a tie that is not an equation) raises
:class:`~exactpoker.errors.CertificationError`.  The values ``E_1, E_2,
E_3`` are balls; their sum is exactly 0 because the sum of the payoff
polynomials is the zero polynomial (checked).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Sequence

from flint import arb, ctx as flint_ctx, fmpq_mpoly

from exactpoker.certify import Certificate, PlayerCheck
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.profile import BehaviourProfile
from exactpoker.core.support_system import gain_polynomials
from exactpoker.errors import CertificationError
from exactpoker.numbers import exact_str, to_sympy
from exactpoker.results import Equilibrium, _format_table, jsonable
from exactpoker.boxes import BallPolynomial, IsolatingBox, decimal_string, exact_value
from exactpoker.polynomial_combination import Combination, find_combination

__all__ = ["CERTIFICATE_KIND", "SupportError", "CertifiedReal", "BallCertificate", "BallEquilibrium",
           "ball_equilibrium", "certify_box"]

CERTIFICATE_KIND = "interval-Newton isolating box"

SCOPE = ("all strategies, and optimal at every own information set (counterfactual values; seed 003 section 3), "
         "proved in ball arithmetic on an isolating box")


class SupportError(CertificationError):
    """The box's point is not an equilibrium on this support: ``variable`` belongs at ``side``.

    ``side`` is ``"interior"`` (a variable at 0 or 1 whose gain has the wrong
    sign, or a tie not proved) or ``0`` / ``1`` (an unknown not proved inside
    ``(0, 1)``, nearer that end).
    """

    def __init__(self, message: str, variable: int, side: "str | int") -> None:
        super().__init__(message)
        self.variable, self.side = variable, side


@dataclass(frozen=True)
class CertifiedReal:
    """A real number proved to lie in ``[mid - rad, mid + rad]`` (exact rationals), shown to ``places`` decimals."""

    mid: Fraction
    rad: Fraction
    places: int

    @classmethod
    def from_ball(cls, ball: arb, places: int) -> "CertifiedReal":
        return cls(exact_value(ball), exact_value(ball, "rad"), places)

    def complement(self) -> "CertifiedReal":
        """``1 - self``."""
        return CertifiedReal(1 - self.mid, self.rad, self.places)

    def __mul__(self, other: "CertifiedReal | Fraction | int") -> "CertifiedReal":
        """The product, as a proved ball (interval arithmetic on the exact midpoints and radii)."""
        if isinstance(other, CertifiedReal):
            mid = self.mid * other.mid
            rad = abs(self.mid) * other.rad + abs(other.mid) * self.rad + self.rad * other.rad
            return CertifiedReal(mid, rad, _provable_places(mid, rad, min(self.places, other.places)))
        mid, rad = self.mid * other, self.rad * abs(Fraction(other))
        return CertifiedReal(mid, rad, _provable_places(mid, rad, self.places))

    __rmul__ = __mul__

    def __rsub__(self, other: "Fraction | int") -> "CertifiedReal":
        """``other - self`` for an exact ``other`` (e.g. ``1 - self``)."""
        return CertifiedReal(other - self.mid, self.rad, self.places)

    def __float__(self) -> float:
        return float(self.mid)

    def __str__(self) -> str:
        return decimal_string((self.mid, self.rad), self.places)


def _provable_places(mid: Fraction, rad: Fraction, places: int) -> int:
    """The most decimal places, at most ``places``, that the ball ``mid ± rad`` proves."""
    while places > 0:
        rounded = Fraction(math.floor(mid * 10**places + Fraction(1, 2)), 10**places)
        if abs(rounded - mid) + rad < Fraction(1, 10**places):
            break
        places -= 1
    return places


@dataclass(frozen=True)
class BallCertificate(Certificate):
    """The sequential certificate proved on an isolating box (:func:`certify_box`).

    ``checks`` carry each player's payoff as a :class:`CertifiedReal` (payoff
    and best response are the same number: every regret is proved 0).
    ``box`` is the isolating box, ``equations`` the variables whose gains form
    its system, ``identities`` the interior variables whose gains were shown
    zero as combinations of the equations (``combinations``: the identities
    themselves, in the same order; :mod:`exactpoker.polynomial_combination`),
    ``strict`` how many gains at 0 or 1 were proved strictly signed and
    ``ties`` how many were zero at the box's zero (identically, or a
    combination of the equations).
    """

    box: IsolatingBox | None = None
    equations: tuple[int, ...] = ()
    identities: tuple[int, ...] = ()
    strict: int = 0
    ties: int = 0
    places: int = 0
    zero_sum: bool = False
    combinations: tuple[Combination, ...] = ()

    @property
    def holds(self) -> bool:
        """True: a BallCertificate is only made once every check is proved."""
        return self.box is not None

    @property
    def max_regret(self) -> Fraction:
        return Fraction(0)

    @property
    def kind(self) -> str:
        return f"{CERTIFICATE_KIND}, {self.places} digits certified"

    def to_dict(self) -> dict[str, object]:
        return {"holds": self.holds, "kind": CERTIFICATE_KIND, "digits": self.places, "scope": self.scope,
                "players": [{"player": c.player, "payoff": str(c.payoff), "regret": "0"} for c in self.checks],
                "equations": len(self.equations), "identities": len(self.identities),
                "strict_signs": self.strict, "identically_zero_gains": self.ties,
                "values_sum_to_zero_exactly": self.zero_sum}


@dataclass(frozen=True)
class BallEquilibrium(Equilibrium):
    """An equilibrium whose irrational entries are :class:`CertifiedReal` (an isolating-box certificate).

    ``values`` and ``strategies`` hold exact rationals where the profile is
    rational and :class:`CertifiedReal` elsewhere; in JSON the latter are
    ``"d.ddd±1e-k"`` strings (proved to ``10**-k``), and ``"certificate"``
    names the certificate's kind and digits.
    """

    def to_dict(self) -> dict[str, Any]:
        result = {"values": _strings(list(self.values)), "strategies": _strings(self.strategies),
                  "certified": self.certified}
        result["certificate"] = {"holds": self.certificate.holds, "scope": self.certificate.scope}
        if isinstance(self.certificate, BallCertificate):
            result["certificate"] |= {"kind": CERTIFICATE_KIND, "digits": self.certificate.places}
        return result

    def __str__(self) -> str:
        lines = ["values: " + ", ".join(str(v) for v in self.values)]
        for name, table in self.strategies.items():
            lines.append(f"  {name}: {_format_table(table)}")
        kind = self.certificate.kind if isinstance(self.certificate, BallCertificate) else CERTIFICATE_KIND
        lines.append("  certified: " + (f"yes ({kind}; ball-arithmetic best-response check)" if self.certified
                                        else "NO"))
        return "\n".join(lines)


def _strings(value: Any) -> Any:
    if isinstance(value, CertifiedReal):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): _strings(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_strings(v) for v in value]
    return jsonable(value)


def _public(value: Any) -> Any:
    """Exact rationals as sympy numbers (as :class:`~exactpoker.results.Equilibrium` keeps them), balls as they are."""
    if isinstance(value, Mapping):
        return {k: _public(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_public(v) for v in value]
    return value if isinstance(value, CertifiedReal) else to_sympy(value)


def ball_equilibrium(certificate: BallCertificate, strategies: Mapping[str, Sequence[Any]],
                     profile: BehaviourProfile) -> BallEquilibrium:
    """The :class:`BallEquilibrium` of a proved certificate and a strategy table."""
    return BallEquilibrium(tuple(c.payoff for c in certificate.checks), _public(dict(strategies)), certificate, profile)


def _prove_gains(gains: Sequence[fmpq_mpoly], x: Sequence[Any], position: Mapping[int, int], rows: Sequence[int],
                 balls: Sequence[arb]) -> tuple[list[tuple[int, Combination]], int, int]:
    """Condition (1) on the box, variable by variable (module docstring): interior ones indifferent, the rest signed.

    Returns the interior variables shown indifferent by an identity, each with
    its :class:`~exactpoker.polynomial_combination.Combination` of the
    equations, and how many gains at 0 or 1 were proved strictly signed and
    how many tie.  A gain whose ball excludes 0 is no combination (it would be
    0 at the box's zero): it is reported as a misread support at once.
    """
    equations = set(rows)
    system = [gains[r] for r in rows]
    factors = _nonzero_factors(gains, balls)
    identities: list[tuple[int, Combination]] = []
    strict, ties = 0, 0
    for k, gain in enumerate(gains):
        if k in position or 0 < x[k] < 1:
            if k in position and not (balls[position[k]] > 0 and balls[position[k]] < 1):
                raise SupportError(f"certify_box(): variable {k} is not proved inside (0, 1) on the box", k,
                                   0 if balls[position[k]] < 0.5 else 1)
            if k not in equations:
                identities.append((k, _identity(k, gain, system, balls, factors)))
        elif x[k] in (0, 1):
            if gain.is_zero():
                ties += 1
                continue
            value = BallPolynomial(gain, gradient=False)(balls)
            if value.contains(0) and find_combination(gain, system) is not None:
                ties += 1  # zero on the box's zero: a combination of the equations
                continue
            if not (value < 0 if x[k] == 0 else value > 0):
                raise SupportError(f"certify_box(): the gain of variable {k} (at {exact_str(x[k])}) "
                                   f"is not proved {'negative' if x[k] == 0 else 'positive'} on the box "
                                   f"(ball {value.str(5)})", k, "interior")
            strict += 1
        else:
            raise CertificationError(f"certify_box(): variable {k} = {exact_str(x[k])} is not a probability")
    return identities, strict, ties


def _nonzero_factors(gains: Sequence[fmpq_mpoly], balls: Sequence[arb]) -> list[fmpq_mpoly]:
    """``1 - x_j`` and ``x_j`` for every unknown the box puts strictly inside ``(0, 1)``: nonzero at its zero."""
    if not gains:
        return []
    factors = []
    for x, ball in zip(gains[0].context().gens(), balls):
        if ball > 0 and ball < 1:
            factors += [1 - x, x]
    return factors


def _identity(k: int, gain: fmpq_mpoly, system: Sequence[fmpq_mpoly], balls: Sequence[arb],
              factors: Sequence[fmpq_mpoly]) -> Combination:
    """The proof that interior variable ``k``'s ``gain`` is 0 at the box's zero: a combination of the ``system``.

    ``g = sum h_i e_i``, or else ``u g = sum h_i e_i`` with ``u`` one of the
    ``factors`` (:func:`_nonzero_factors`, nonzero at the zero).
    """
    value = BallPolynomial(gain, gradient=False)(balls) if not gain.is_zero() else arb(0)
    found = find_combination(gain, system, factors=factors) if value.contains(0) else None
    if found is None:
        message = (f"certify_box(): the gain of interior variable {k} is not an equation of the system nor shown "
                   f"zero by an identity (ball {value.str(5)})")
        if value.contains(0):
            raise CertificationError(message)
        raise SupportError(message, k, int(value > 0))
    return found


def certify_box(compiled: CompiledGame, x: Sequence[Any], unknowns: Sequence[int], rows: Sequence[int],
                box: IsolatingBox, *, places: int | None = None) -> tuple[BallCertificate, list[Any]]:
    """Prove that the box's zero, with the other variables at ``x``, is a sequentially rational equilibrium.

    Parameters
    ----------
    compiled : CompiledGame
        The exact game.
    x : sequence
        Every variable's probability of the aggressive action; exact
        rationals except at ``unknowns`` (ignored there).
    unknowns : sequence of int
        The variables given by the box, in the order of its coordinates.
    rows : sequence of int
        The variables whose gains (in the unknowns) are the box's equations, in order.
    box : IsolatingBox
        A proved box for those equations.
    places : int, optional
        Decimal places of the certified numbers (default: the box's digits, at most 30).

    Returns
    -------
    (BallCertificate, list)
        The certificate and every variable (rationals, and :class:`CertifiedReal` at the unknowns).

    Raises
    ------
    CertificationError
        If any check fails or cannot be decided on the box.
    """
    shown = min(box.digits, 30) if places is None else places
    if shown > box.digits:
        raise CertificationError(f"certify_box(): the box gives {box.digits} digits, fewer than the {shown} asked")
    system = gain_polynomials(compiled, x, unknowns)
    ctx, gains, payoffs = system.ctx, list(system.gains), list(system.payoffs)
    if tuple(ctx.names()) != tuple(box.ctx.names()) or tuple(gains[r] for r in rows) != box.equations:
        raise CertificationError("certify_box(): the box's equations are not the stated gains of the game")
    if not box.verify():
        raise CertificationError("certify_box(): the box fails Krawczyk's test (it does not isolate a zero)")
    zero_sum = sum(payoffs[1:], payoffs[0]).is_zero()  # then E_1 + ... + E_n = 0 exactly at the zero
    if compiled.is_zero_sum and not zero_sum:
        raise CertificationError("certify_box(): the payoff polynomials of a zero-sum game do not sum to 0")
    position = {k: i for i, k in enumerate(unknowns)}
    with flint_ctx.workprec(box.bits()):
        balls = box.balls()
        identities, strict, ties = _prove_gains(gains, x, position, rows, balls)
        values = [CertifiedReal.from_ball(BallPolynomial(e, gradient=False)(balls), shown) for e in payoffs]
        point = [CertifiedReal.from_ball(b, shown) for b in balls]
    for v in values + point:
        str(v)  # the shown digits are proved (decimal_string raises otherwise)
    checks = tuple(PlayerCheck(name, v, v) for name, v in zip(compiled.player_names, values))
    certificate = BallCertificate(checks, SCOPE, box, tuple(rows), tuple(k for k, _ in identities), strict, ties,
                                  shown, zero_sum, tuple(c for _, c in identities))
    full = [point[position[k]] if k in position else x[k] for k in range(len(x))]
    return certificate, full

