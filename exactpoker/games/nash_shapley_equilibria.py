"""Nash--Shapley poker: the equilibrium points at one rational ``a/b``, each certified.

Seed 001, sections 7--10.  A *case* says, for each of the 24 behaviour
coefficients, whether it is 0, 1 or strictly between (condition (C) of
section 6); on a case the interior coefficients solve ``Delta_u = 0``
exactly (:func:`~exactpoker.games.nash_shapley_cases.solve_case`), and every
solution is then certified with :func:`exactpoker.certify.verify` (exact best
responses against every deviation, several coefficients at once), in
rational arithmetic or in a real number field
(:class:`~exactpoker.algebraic.AlgebraicNumber`) when the point is irrational.

Which cases are tried: the paper's systems, written as cases: (I) and (II)
of section 9, (III) of section 10, the system just beyond ``A_3`` where
Player 1's bluff ``beta`` and Player 3's answer ``kappa`` enter (section 10's
last paragraph), and "always bet" for ``a >= 4b`` (footnote 18).  Every point
returned is certified; that no other point exists rests on the paper's
sections 7--8 (for ``b >= a``), not on this code.  Between the end of the
last system's range (between ``a/b = 13/10`` and ``27/20``) and ``4`` none of
them holds and :func:`equilibria` raises
:class:`~exactpoker.errors.CertificationError`.  The complete list of cases
that (C) allows at a ratio is :func:`~exactpoker.games.nash_shapley_cases.cases`
(exact, but hundreds to tens of thousands of cases, whose exact solution is
too slow to be the default).

A one-parameter family (section 10: ``R_III`` and ``a/b = A_2``) is returned
as its two end points and its mid point, each certified, with the family in
:attr:`~exactpoker.results.SolveResult.details`.
"""

from __future__ import annotations

from fractions import Fraction
import sympy

from exactpoker.algebraic import AlgebraicNumber, common_field
from exactpoker.certify import Certificate, verify
from exactpoker.core import BehaviourProfile, CompiledGame
from exactpoker.errors import CertificationError
from exactpoker.games import nash_shapley as ns
from exactpoker.games.nash_shapley_cases import INTERIOR, ONE, ZERO, Case, CaseSolution, solve_case
from exactpoker.numbers import parse_positive
from exactpoker.results import Equilibrium, SolveResult

__all__ = ["SYSTEMS", "system_case", "equilibria", "profile", "certify_point"]

_HIGH_CALLS = ("gamma", "eta", "iota", "lambda", "omicron", "rho", "tau", "phi", "psi")

#: The paper's systems as cases: the interior coefficients and those fixed to 1
#: beyond the High calls of section 7 and ``nu = 1``; every other coefficient is 0.
SYSTEMS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "I": (("alpha", "epsilon", "xi"), ()),
    "II": (("alpha", "epsilon", "zeta", "xi"), ()),
    "III": (("alpha", "zeta", "xi", "upsilon", "omega"), ("epsilon",)),
    "beyond A3": (("alpha", "beta", "zeta", "xi", "kappa", "upsilon", "omega"), ("epsilon",)),
    "always bet": ((), tuple(ns.SYMBOLS)),
}


def system_case(name: str) -> Case:
    """The case of one of :data:`SYSTEMS`."""
    interior, ones = SYSTEMS[name]
    kinds = []
    for n in ns.SYMBOLS:
        if n in interior:
            kinds.append((n, INTERIOR))
        elif n in ones or n in _HIGH_CALLS or n == "nu":
            kinds.append((n, ONE))
        else:
            kinds.append((n, ZERO))
    return Case(tuple(kinds))


def profile(g: CompiledGame, values: dict[str, object]) -> BehaviourProfile:
    """The behaviour profile with the given coefficients (exact numbers, one field)."""
    tables: list[dict[str, list[object]]] = [{}, {}, {}]
    for (player, situation, card), name in ns.COEFFICIENTS.items():
        column = tables[player].setdefault(situation, [None, None])
        column[card - 1] = values[name]
    return BehaviourProfile.from_tables(g, tables)


def _exact(values: dict[str, sympy.Expr]) -> dict[str, object]:
    """Sympy numbers -> Fractions, or AlgebraicNumbers of one field when some are irrational."""
    names = list(values)
    if all(values[n].is_Rational for n in names):
        return {n: Fraction(int(values[n].p), int(values[n].q)) for n in names}
    _field, numbers = common_field([values[n] for n in names])
    return dict(zip(names, numbers))


def certify_point(g: CompiledGame, values: dict[str, sympy.Expr]) -> tuple[Certificate, BehaviourProfile]:
    """The exact certificate of the point with these coefficients."""
    prof = profile(g, _exact(values))
    return verify(g, prof), prof


def _to_sympy(x: object) -> sympy.Expr:
    if isinstance(x, AlgebraicNumber):
        return x.to_sympy()
    x = Fraction(x)  # type: ignore[arg-type]
    return sympy.Rational(x.numerator, x.denominator)


def _equilibrium(g: CompiledGame, values: dict[str, sympy.Expr], unit: Fraction) -> Equilibrium | None:
    certificate, prof = certify_point(g, values)
    if not certificate.holds:
        return None
    strategies = {
        str(p + 1): {n: values[n] for n in ns.SYMBOLS if ns.OWNER[n] == p} for p in range(3)
    }
    return Equilibrium(tuple(_to_sympy(v * unit) for v in certificate.payoffs), strategies, certificate, prof)


def _family_points(t: Fraction, solution: CaseSolution) -> tuple[list[dict[str, sympy.Expr]], dict[str, object]]:
    """End points and mid point of a one-parameter family where (C) holds (closed interval)."""
    p = solution.parameter
    assert p is not None
    subs = {ns.a: sympy.Integer(t.numerator), ns.b: sympy.Integer(t.denominator)}
    subs.update({ns.SYMBOLS[k]: v for k, v in solution.values.items() if k != str(p)})
    conditions = []
    for name, kind in solution.case.kinds:
        delta = sympy.together(ns.discriminants()[name].xreplace(subs))
        if kind == ZERO:
            conditions.append(-delta)
        elif kind == ONE:
            conditions.append(delta)
        else:
            conditions += [sympy.together(solution.values[name]), sympy.together(1 - solution.values[name])]
    cuts = {sympy.Integer(0), sympy.Integer(1)}
    for c in conditions:
        for part in (sympy.numer(c), sympy.denom(c)):
            if part.has(p):
                cuts.update(r for r in sympy.solve(part, p) if r.is_real and 0 <= sympy.N(r, 50) <= 1)
    ordered = sorted(cuts, key=lambda r: sympy.N(r, 50))

    def holds(x: sympy.Expr) -> bool:
        return all(sympy.N(c.subs(p, x), 50) >= -sympy.Rational(1, 10**40) for c in conditions)

    pieces = [(lo, hi) for lo, hi in zip(ordered, ordered[1:]) if holds((lo + hi) / 2)]
    if not pieces:
        return [], {}
    low, high = pieces[0][0], pieces[-1][1]
    points = [{k: sympy.simplify(v.subs(p, x)) for k, v in solution.values.items()} for x in (low, (low + high) / 2, high)]
    family = {
        "parameter": str(p),
        "range": [sympy.simplify(low), sympy.simplify(high)],
        "coefficients": {k: sympy.simplify(v) for k, v in solution.values.items()},
    }
    return points, family


def equilibria(a: object, b: object) -> SolveResult:
    """The equilibrium points at ante ``a`` and bet ``b`` (see the module docstring).

    Examples
    --------
    >>> r = equilibria(1, 2)  # a/b = 1/2, in R_I: value (-a^2/(8(a+b)), -a^2/(8(a+b)), a^2/(4(a+b)))
    >>> [str(v) for v in r.equilibria[0].values], r.equilibria[0].certified
    (['-1/24', '-1/24', '1/12'], True)
    """
    ante, bet = parse_positive(a, "a"), parse_positive(b, "b")
    t = ante / bet
    # The game with a = p, b = q (t = p/q in lowest terms) is this one with payoffs in units of
    # b/q; integer stakes keep the compiler's pot shares exact (it scales by the split counts).
    g = ns.compiled(t.numerator, t.denominator)
    unit = bet / t.denominator
    candidates = [system_case(name) for name in SYSTEMS]
    found: list[Equilibrium] = []
    families: list[dict[str, object]] = []
    seen: set[tuple[str, ...]] = set()
    for case in candidates:
        for solution in solve_case(t, case):
            if solution.parameter is None:
                points = [solution.values]
            else:
                points, family = _family_points(t, solution)
                if family:
                    families.append(family)
            for values in points:
                key = tuple(str(values[n]) for n in ns.SYMBOLS)
                if key in seen:
                    continue
                seen.add(key)
                eq = _equilibrium(g, values, unit)
                if eq is not None:
                    found.append(eq)
    if not found:
        raise CertificationError(
            f"nash-shapley: none of the paper's systems gives a certified equilibrium point at a/b = {t}"
        )
    details = {"a/b": t, "families": families} if families else {"a/b": t}
    label = "condition (C) case by case (the paper's systems), exact solve, certified"
    return SolveResult(ns.NAME, {"a": ante, "b": bet}, label, tuple(found), details=details)
