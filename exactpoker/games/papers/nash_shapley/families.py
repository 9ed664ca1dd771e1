"""Nash--Shapley poker: a case whose coefficients are all free, its equilibrium points as an exact region.

Seed 001, section 6.  On some cases of condition (C) the discriminant of
every interior coefficient vanishes identically (at ``a/b = 7/2``: Player
1's bluff ``beta`` and Player 2's ``zeta`` when everybody else bets or
calls), so every point of the open box solves the equations of (C), and the
equilibrium points form a region of two or more parameters.  (C) alone does
not cut it out: a player may gain by changing several coefficients at once.
The *deviation conditions* do, exactly: for each player ``k`` and each vertex
``s`` of the cube of his eight coefficients (his pure strategies),
``P_k(x) - P_k(s, x_-k) >= 0``.  ``P_k`` is multilinear in his own
coefficients, so its maximum over his behaviour strategies is at a vertex
(the same fact as :func:`~exactpoker.games.papers.nash_shapley.payoffs.best_deviation_gains`):
a point of the case is an equilibrium exactly when all of them hold.  They
are multilinear in the case's interior coefficients, and
:func:`~exactpoker.solve.algebra.multilinear_region.box_region` describes their
solution set exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import sympy

from exactpoker.games.papers.nash_shapley import payoffs as ns
from exactpoker.games.papers.nash_shapley.cases import INTERIOR, ONE, VARIABLES, ZERO, Case
from exactpoker.solve import Multilinear
from exactpoker.solve import Region, box_region

__all__ = ["deviation_conditions", "CaseFamily", "case_family"]


def deviation_conditions(t: Fraction, case: Case) -> list[Multilinear]:
    """Every ``P_k(x) - P_k(s, x_-k) >= 0`` of ``case`` at ``a/b = t``, in its interior coefficients.

    Integer multilinear polynomials (bit ``j``: the ``j``-th of
    ``case.interior``), each given once; those that are constant and
    ``>= 0`` are left out, so a constant one is negative (no point of the
    case is an equilibrium).
    """
    t = Fraction(t)
    kinds = dict(case.kinds)
    local = {name: j for j, name in enumerate(case.interior)}
    found: list[Multilinear] = []
    for player, payoff in enumerate(ns.payoff_multilinears(t.numerator, t.denominator)):
        own = [k for k, name in enumerate(VARIABLES) if ns.OWNER[name] == player]
        own_bits = sum(1 << k for k in own)
        split: dict[tuple[int, int], Fraction] = {}  # (own monomial, others' interior monomial) -> coefficient
        for m, c in payoff.items():
            others = 0
            for k, name in enumerate(VARIABLES):
                if m >> k & 1 and not own_bits >> k & 1:
                    if kinds[name] == ZERO:
                        break
                    if kinds[name] == INTERIOR:
                        others |= 1 << local[name]
            else:
                key = (m & own_bits, others)
                split[key] = split.get(key, Fraction(0)) + Fraction(c)

        def reduced(own_value: dict[int, str]) -> dict[int, Fraction]:
            poly: dict[int, Fraction] = {}
            for (own_m, others), c in split.items():
                m = others
                for k in own:
                    if own_m >> k & 1:
                        if own_value[k] == ZERO:
                            break
                        if own_value[k] == INTERIOR:
                            m |= 1 << local[VARIABLES[k]]
                else:
                    poly[m] = poly.get(m, Fraction(0)) + c
            return poly

        at_point = reduced({k: kinds[VARIABLES[k]] for k in own})
        for vertex in range(1 << len(own)):
            deviation = reduced({k: ONE if vertex >> j & 1 else ZERO for j, k in enumerate(own)})
            gain = {m: at_point.get(m, 0) - deviation.get(m, 0) for m in {*at_point, *deviation}}
            gain = {m: c for m, c in gain.items() if c}
            if not gain or (set(gain) == {0} and gain[0] > 0):
                continue
            scale = lcm(*(c.denominator for c in gain.values()))
            poly = {m: int(c * scale) for m, c in gain.items()}
            if poly not in found:
                found.append(poly)
    return found


@dataclass(frozen=True)
class CaseFamily:
    """The equilibrium points of a case with no equations: its closure is ``region`` in the interior coefficients."""

    case: Case
    region: Region

    def point(self, at: tuple[Fraction, ...]) -> dict[str, Fraction]:
        """Every coefficient at a point of the region."""
        values = {name: Fraction(int(kind == ONE)) for name, kind in self.case.kinds if kind != INTERIOR}
        values.update(zip(self.case.interior, at))
        return values

    def points(self) -> list[dict[str, Fraction]]:
        """The region's corners and, if it lies in the region, its box's centre (all coefficients)."""
        chosen = self.region.corners()
        if self.region.contains(self.region.centre()) and self.region.centre() not in chosen:
            chosen.append(self.region.centre())
        return [self.point(at) for at in chosen]

    def describe(self) -> dict[str, object]:
        """``{"parameters", "bounds", "conditions", "fixed"}``: the region, exactly (sympy numbers and strings)."""
        names = self.case.interior
        symbols = [ns.SYMBOLS[n] for n in names]
        conditions = []
        for g in self.region.conditions:
            expr = sympy.Add(*[c * sympy.Mul(*[s for j, s in enumerate(symbols) if m >> j & 1]) for m, c in g.items()])
            conditions.append(f"{sympy.factor(expr)} >= 0")
        return {
            "parameters": list(names),
            "bounds": {n: [sympy.Rational(lo.numerator, lo.denominator), sympy.Rational(hi.numerator, hi.denominator)]
                       for n, lo, hi in zip(names, self.region.low, self.region.high)},
            "conditions": conditions,
            "fixed": {n: int(k == ONE) for n, k in self.case.kinds if k != INTERIOR},
        }


def case_family(t: Fraction, case: Case) -> CaseFamily | None:
    """The region of equilibrium points of ``case`` at ``a/b = t``, or None when it is proved empty.

    Only for a case whose interior coefficients' discriminants all vanish
    identically (a ``ValueError`` otherwise): there the deviation conditions
    are the whole story.  A returned family may still be empty if its
    remaining conditions (:attr:`Region.conditions`) exclude every point and
    :meth:`CaseFamily.points` finds none.
    """
    t = Fraction(t)
    subs = {ns.a: sympy.Integer(t.numerator), ns.b: sympy.Integer(t.denominator)}
    subs.update({ns.SYMBOLS[n]: sympy.Integer(int(k == ONE)) for n, k in case.kinds if k != INTERIOR})
    if any(sympy.expand(ns.discriminants()[n].xreplace(subs)) != 0 for n in case.interior):
        raise ValueError("case: every interior coefficient's discriminant must vanish identically for a family")
    conditions = deviation_conditions(t, case)
    if any(set(g) == {0} for g in conditions):
        return None
    region = box_region(len(case.interior), conditions)
    return None if region is None else CaseFamily(case, region)
