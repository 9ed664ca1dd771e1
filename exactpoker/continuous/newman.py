"""Newman poker with a continuous deck, derived with sympy.

Seed 000, section 3 (D. J. Newman, "A model for 'real' poker", 1959).  Hands
``x`` (player I) and ``y`` (player II) are uniform on ``[0, 1]``; both ante 1;
I bets any ``s >= 0`` (``s = 0`` is a check); II calls or folds.

Newman's first player chooses a bet size from a continuum, so his strategy is
a size that varies with the hand, not a finite choice among actions on
intervals of hands: the continuous engine (:mod:`exactpoker.solve.continuous`,
finite action sets) does not express it, and this derivation stays its own.
(Finitely many sizes are the engine's: ``library:vn(sizes=1;2)``.)

Derivation (nothing typed in from the literature):

1. Against "II calls a bet ``s`` iff ``y > c(s)``", a hand below ``c(s)`` that
   bets ``s`` (a bluff) earns ``(2 + s) c - (1 + s)`` whatever it is.  Bluffs
   with every size must earn the same ``K``, which gives ``c(s)``.
2. A value hand ``x > c(s)`` earns ``c + (1 + s)(2x - c - 1)``; its best size
   solves ``d/ds = 0``, giving the hand ``x(s)`` that bets ``s``.
3. II is indifferent at ``c(s)`` when bluffs and value bets of size ``s``
   come in the ratio ``s : (s + 2)``; the bluffs of all sizes together must
   fill the hands below ``x0``, where bluffing (``K``) and checking
   (``2 x0 - 1``) are equally good.  This fixes ``K``.

Then I bluffs below ``x0``, checks up to ``x(0)`` and bets ``s(x)`` above
(the inverse of ``x(s)``); II calls ``s`` above ``c(s)``.  The certificate
checks exactly, for every ``s >= 0``: ``c`` is increasing, ``x(s)`` is
increasing, ``x0 <= c(s) <= x(s)`` (so II's rule is a best response: every
hand between the bluffs and the value bets is indifferent), and the value
hand's gain ``2 (1 + s)(x - c(s))`` is concave in ``s`` (so the first-order
condition gives I's best size, checking is best between ``x0`` and ``x(0)``
and bluffing below ``x0``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import sympy

from exactpoker.continuous.signs import nonnegative_for_positive
from exactpoker.errors import CertificationError

__all__ = ["ContinuousNewmanSolution", "solve"]

s = sympy.Symbol("s", nonnegative=True)
x, y, K, c = sympy.symbols("x y K c", real=True)


@dataclass(frozen=True)
class ContinuousNewmanSolution:
    """Newman's solution: cut points, bet size and calling threshold as exact functions."""

    bluff_below: sympy.Expr  # x0
    value_above: sympy.Expr  # x(0)
    bluff_payoff: sympy.Expr  # K
    hand_of_bet: sympy.Expr  # x(s): the value hand that bets s
    bet_of_hand: sympy.Expr  # s(x), for x > value_above
    call_threshold: sympy.Expr  # c(s)
    bluff_to_value_ratio: sympy.Expr  # density of bluffs over value bets at size s
    value: sympy.Expr
    certified: bool

    def to_dict(self) -> dict[str, object]:
        return {
            "game": "newman-continuous",
            "params": {},
            "cuts": {"bluff_below": str(self.bluff_below), "value_above": str(self.value_above)},
            "bet_of_hand": str(self.bet_of_hand),
            "call_threshold": str(self.call_threshold),
            "value": str(self.value),
            "certified": self.certified,
        }

    def describe(self) -> str:
        return (
            f"Player I: with x < {self.bluff_below} bluff (sizes s spread so that bluffs : value bets = "
            f"{self.bluff_to_value_ratio} at each s); check with {self.bluff_below} < x < {self.value_above}; "
            f"with x > {self.value_above} bet s(x) = {self.bet_of_hand}.\n"
            f"Player II: call a bet s iff y > c(s) = {self.call_threshold}.\n"
            f"The value of the game (for Player I) is {self.value}."
        )


@cache
def solve() -> ContinuousNewmanSolution:
    """Derive and certify Newman's solution."""
    win = 1 + s
    bluff = sympy.integrate(1, (y, 0, c)) + sympy.integrate(-win, (y, c, 1))
    value_bet = sympy.integrate(1, (y, 0, c)) + sympy.integrate(win, (y, c, x)) + sympy.integrate(-win, (y, x, 1))
    check = sympy.integrate(1, (y, 0, x)) + sympy.integrate(-1, (y, x, 1))

    threshold = sympy.solve(sympy.Eq(bluff, K), c)[0]  # step 1
    gain = value_bet.subs(c, threshold)
    hand = sympy.solve(sympy.Eq(sympy.diff(gain, s), 0), x)[0]  # step 2
    # step 3: II indifferent at c(s) between calling and folding
    beta, v = sympy.symbols("beta v", positive=True)
    ratio = sympy.solve(sympy.Eq(beta * win - v * win, -(beta + v)), beta)[0] / v
    x0 = sympy.solve(sympy.Eq(check, K), x)[0]
    bluff_mass = sympy.integrate(sympy.simplify(sympy.diff(hand, s) * ratio), (s, 0, sympy.oo))
    payoffs = [k for k in sympy.solve(sympy.Eq(bluff_mass, x0), K) if k.is_real and -1 < k < 1]
    if len(payoffs) != 1:
        raise CertificationError(f"continuous Newman: expected one bluff payoff; got {payoffs}")
    k = payoffs[0]
    threshold, hand, x0 = (sympy.simplify(e.subs(K, k)) for e in (threshold, hand, x0))
    value_above = sympy.simplify(hand.subs(s, 0))
    bets = [r for r in sympy.solve(sympy.Eq(hand, x), s) if _is_bet_branch(r, value_above)]
    if len(bets) != 1:
        raise CertificationError(f"continuous Newman: expected one bet-size branch; got {bets}")
    value = (
        sympy.integrate(k, (x, 0, x0))
        + sympy.integrate(check, (x, x0, value_above))
        + sympy.integrate(sympy.simplify(gain.subs({K: k, x: hand}) * sympy.diff(hand, s)), (s, 0, sympy.oo))
    )
    solution = ContinuousNewmanSolution(
        bluff_below=x0,
        value_above=value_above,
        bluff_payoff=k,
        hand_of_bet=hand,
        bet_of_hand=sympy.simplify(bets[0]),
        call_threshold=threshold,
        bluff_to_value_ratio=sympy.simplify(ratio),
        value=sympy.simplify(value),
        certified=_certify(threshold, hand, x0, gain.subs(K, k)),
    )
    if not solution.certified:
        raise CertificationError("continuous Newman: the derived solution failed its exact check")
    return solution


def _is_bet_branch(branch: sympy.Expr, value_above: sympy.Expr) -> bool:
    """The inverse of x(s) that maps (x(0), 1) to s >= 0."""
    probe = (value_above + 1) / 2
    size = branch.subs(x, probe)
    return bool(size.is_real and size >= 0)


def _certify(threshold: sympy.Expr, hand: sympy.Expr, x0: sympy.Expr, gain: sympy.Expr) -> bool:
    return all(
        nonnegative_for_positive(e, s)
        for e in (
            sympy.diff(threshold, s),  # c increasing
            sympy.diff(hand, s),  # x(s) increasing
            threshold - x0,  # bluffs lie below every calling threshold
            hand - threshold,  # value bets lie above it
            -sympy.diff(gain, s, 2),  # the value hand's payoff is concave in s (linear in x)
        )
    )
