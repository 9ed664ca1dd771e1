"""von Neumann poker with a continuous deck, solved symbolically.

Seed 000, section 1 ("The von Neumann advice").  Hands ``x`` (player I) and
``y`` (player II) are uniform on ``[0, 1]``; both ante 1; I checks (the higher
hand wins 1) or bets ``b``; II folds (I wins 1) or calls (the higher hand wins
``b + 1``).  In von Neumann's solution I bets when ``x < A`` (a bluff) or
``x > B`` and checks in between; II calls when ``y > C``, with
``0 < A < C < B < 1``.

Nothing below is typed in from the paper.  The expected payoffs of each
action at a given hand are written as integrals of the game's payoffs over the
opponent's hand, split where the opponent's strategy or the comparison of
hands changes, and sympy integrates them.  The three indifference equations
(I at ``A`` and at ``B``, II at ``C``) are solved for ``A, B, C`` as rational
functions of ``b``.  The certificate then checks, for every ``b > 0`` at once,
that no hand of either player gains by switching action: each gain function
is piecewise linear in the hand, so its sign at the breakpoints decides, and
each such sign is a rational function of ``b`` whose numerator and
denominator have no positive roots.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import sympy

from exactpoker.continuous.signs import nonnegative_for_positive
from exactpoker.errors import CertificationError
from exactpoker.numbers import parse_positive, to_sympy

__all__ = ["ContinuousVonNeumannSolution", "solve_symbolic", "solve", "best_bet", "payoff_functions"]

b = sympy.Symbol("b", positive=True)
A, B, C, x, y = sympy.symbols("A B C x y", real=True)


@dataclass(frozen=True)
class ContinuousVonNeumannSolution:
    """Cut points and value; ``b`` is a positive symbol or a rational."""

    b: sympy.Expr
    A: sympy.Expr
    B: sympy.Expr
    C: sympy.Expr
    value: sympy.Expr
    certified: bool

    def to_dict(self) -> dict[str, object]:
        return {
            "game": "von-neumann-continuous",
            "params": {"b": str(self.b)},
            "cuts": {"A": str(self.A), "B": str(self.B), "C": str(self.C)},
            "value": str(self.value),
            "certified": self.certified,
        }

    def advice(self) -> str:
        """The solution in plain words, as the paper states it."""
        return (
            f"Player I: if 0 < x < {self.A} or {self.B} < x < 1 you should bet, otherwise check.\n"
            f"Player II: if 0 < y < {self.C} you should fold, otherwise call.\n"
            f"The value of the game (for Player I) is {self.value}."
        )


def payoff_functions() -> dict[str, sympy.Expr]:
    """Each action's expected payoff at a hand, integrated over the other hand.

    ``bet_low``/``bet_high``: I bets with ``x < C`` / ``x > C`` against II's
    rule "call iff ``y > C``"; ``check``: I checks with ``x``; ``call``/``fold``:
    II's payoff with ``y`` against I's rule, over the hands where I bets.
    """
    win = b + 1
    return {
        # I bets with x < C: II folds below C (I gets 1), calls above and wins (y > C > x)
        "bet_low": sympy.integrate(1, (y, 0, C)) + sympy.integrate(-win, (y, C, 1)),
        # I bets with x > C: II folds below C, calls above; I wins if y < x
        "bet_high": sympy.integrate(1, (y, 0, C)) + sympy.integrate(win, (y, C, x)) + sympy.integrate(-win, (y, x, 1)),
        # showdown for the antes
        "check": sympy.integrate(1, (y, 0, x)) + sympy.integrate(-1, (y, x, 1)),
        # II calls with y, A < y < B: she beats the bluffs below A and loses to the bets above B
        "call": sympy.integrate(win, (x, 0, A)) + sympy.integrate(-win, (x, B, 1)),
        "fold": sympy.integrate(-1, (x, 0, A)) + sympy.integrate(-1, (x, B, 1)),
    }


def _call_gain(hand: sympy.Expr) -> sympy.Expr:
    """II's gain from calling rather than folding with ``y = hand``, for any hand in [0, 1]."""
    win = b + 1
    t = sympy.Symbol("t")
    low = sympy.integrate(sympy.Piecewise((win, t < hand), (-win, True)) + 1, (t, 0, A))
    high = sympy.integrate(sympy.Piecewise((win, t < hand), (-win, True)) + 1, (t, B, 1))
    return sympy.piecewise_fold(low + high)


@cache
def solve_symbolic() -> ContinuousVonNeumannSolution:
    """The solution for a symbolic bet ``b > 0``: cut points and value as rational functions."""
    f = payoff_functions()
    equations = [
        sympy.Eq(f["bet_low"].subs(x, A), f["check"].subs(x, A)),  # I indifferent at A
        sympy.Eq(f["bet_high"].subs(x, B), f["check"].subs(x, B)),  # I indifferent at B
        sympy.Eq(f["call"], f["fold"]),  # II indifferent at C (and throughout [A, B])
    ]
    candidates = sympy.solve(equations, [A, B, C], dict=True)
    valid = [s for s in candidates if _ordered(s, sympy.Integer(2))]
    if len(valid) != 1:
        raise CertificationError(f"continuous von Neumann: expected one ordered solution; got {candidates}")
    cuts = {k: sympy.factor(v) for k, v in valid[0].items()}
    value = sympy.factor(_value(cuts))
    solution = ContinuousVonNeumannSolution(b, cuts[A], cuts[B], cuts[C], value, _certify(cuts))
    if not solution.certified:
        raise CertificationError("continuous von Neumann: the symbolic solution failed its check")
    return solution


def _ordered(cuts: dict, bet: sympy.Expr) -> bool:
    a_, b_, c_ = (cuts[k].subs(b, bet) for k in (A, B, C))
    return bool(0 < a_ < c_ < b_ < 1)


def _value(cuts: dict) -> sympy.Expr:
    """Player I's expected payoff: integrate each hand's payoff over x."""
    f = payoff_functions()
    value = (
        sympy.integrate(f["bet_low"], (x, 0, A))
        + sympy.integrate(f["check"], (x, A, B))
        + sympy.integrate(f["bet_high"], (x, B, 1))
    )
    return sympy.simplify(value.subs(cuts))


def _certify(cuts: dict) -> bool:
    """Exact check, for all b > 0, that the cut strategies are best responses to each other."""
    f = payoff_functions()
    order_ok = all(
        nonnegative_for_positive(later - earlier, b, strict=True)
        for earlier, later in [(0, cuts[A]), (cuts[A], cuts[C]), (cuts[C], cuts[B]), (cuts[B], 1)]
    )
    # player I: gain from betting minus checking; linear on [0, C] and on [C, 1]
    gain_low = (f["bet_low"] - f["check"]).subs(cuts)
    gain_high = (f["bet_high"] - f["check"]).subs(cuts)
    i_ok = (
        nonnegative_for_positive(gain_low.subs(x, 0), b, strict=False)
        and nonnegative_for_positive(-gain_low.subs(x, cuts[C]), b, strict=False)
        and gain_low.subs(x, cuts[A]).simplify() == 0
        and nonnegative_for_positive(-gain_high.subs(x, cuts[C]), b, strict=False)
        and gain_high.subs(x, cuts[B]).simplify() == 0
        and nonnegative_for_positive(gain_high.subs(x, 1), b, strict=False)
    )
    # player II: gain from calling minus folding, piecewise linear with breaks at A and B
    ii_ok = True
    for hand, sign in [(0, -1), (cuts[A], -1), (cuts[C], 0), (cuts[B], 1), (1, 1)]:
        gain = sympy.simplify(_call_gain(hand).subs(cuts))
        ii_ok = ii_ok and (gain == 0 if sign == 0 else nonnegative_for_positive(sign * gain, b, strict=False))
    return bool(order_ok and i_ok and ii_ok)


def solve(bet: object) -> ContinuousVonNeumannSolution:
    """The solution at one rational bet size (``"5/2"``, ``Fraction(5, 2)``, ``2``; floats are refused)."""
    value_b = to_sympy(parse_positive(bet, "b"))
    general = solve_symbolic()
    cuts = [sympy.cancel(e.subs(b, value_b)) for e in (general.A, general.B, general.C, general.value)]
    ordered = bool(0 < cuts[0] < cuts[2] < cuts[1] < 1)
    return ContinuousVonNeumannSolution(value_b, cuts[0], cuts[1], cuts[2], cuts[3], general.certified and ordered)


def best_bet() -> tuple[sympy.Expr, sympy.Expr]:
    """The bet size maximizing player I's value, and that value (calculus on the symbolic value)."""
    value = solve_symbolic().value
    critical = [r for r in sympy.solve(sympy.diff(value, b), b) if r.is_positive]
    if len(critical) != 1 or not sympy.diff(value, b, 2).subs(b, critical[0]) < 0:
        raise CertificationError(f"continuous von Neumann: no unique maximizing bet; critical points {critical}")
    # the value tends to 0 as b -> 0 and as b -> oo, so the one critical point is the global maximum
    if sympy.limit(value, b, 0) != 0 or sympy.limit(value, b, sympy.oo) != 0:
        raise CertificationError("continuous von Neumann: the value does not vanish at the ends")
    return critical[0], sympy.simplify(value.subs(b, critical[0]))

