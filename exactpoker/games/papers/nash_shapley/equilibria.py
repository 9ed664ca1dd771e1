"""Nash--Shapley poker: the equilibrium points at one rational ``a/b``, each certified.

Seed 001, sections 7--10.  A *case* says, for each of the 24 behaviour
coefficients, whether it is 0, 1 or strictly between (condition (C) of
section 6); on a case the interior coefficients solve ``Delta_u = 0``
exactly (:func:`~exactpoker.games.papers.nash_shapley.cases.solve_case`), and every
solution is then certified with :func:`exactpoker.certify.verify` (exact best
responses against every deviation, several coefficients at once), in
rational arithmetic or in a real number field
(:class:`~exactpoker.algebraic.AlgebraicNumber`) when the point is irrational.

Which cases are tried: the paper's systems, written as cases: (I) and (II)
of section 9, (III) of section 10, the system just beyond ``A_3`` where
Player 1's bluff ``beta`` and Player 3's answer ``kappa`` enter (section 10's
last paragraph), and "always bet" for ``a >= 4b`` (footnote 18; it holds
from ``a = 3b`` on); then the systems the paper does not give, which cover
``A_3 < a/b < 3`` (:data:`GAP_SYSTEMS`, found by the generic support search
of :mod:`exactpoker.solve.nplayer.indifference` on sample ratios, and one, XI, by
the exhaustive search, and written here as cases; their equations are
derived from the discriminants like the paper's).
In system VIII Player 1 always opens, so Player 2's ``zeta`` and
Player 3's ``xi`` are never reached: they are *threats* that only have to
keep Player 1 from passing (``Delta_alpha >= 0``, ``Delta_beta >= 0``), a
two-dimensional family of points with one value; its corners are returned
(:func:`threat_corners`).  If no system gives a certified point,
:func:`~exactpoker.solve.nplayer.support_search.locate_equilibrium` searches the
supports near a floating-point guide.  Every point returned is certified.
That no other point exists is checked, case by case, by
:func:`exactpoker.games.papers.nash_shapley.exhaustive.exhaustive` (every case that
(C) allows, :func:`~exactpoker.games.papers.nash_shapley.cases.cases`, decided
exactly: hundreds to thousands of cases, too slow to be the default); it
proves the list complete, or names the cases it could not decide.

A one-parameter family (section 10: ``R_III`` and ``a/b = A_2``) is returned
as its two end points and its mid point, each certified, with the family in
:attr:`~exactpoker.results.SolveResult.details`; a region of free
coefficients (:data:`FAMILY_SYSTEMS`, ``a/b > 3``) as its corners and
centre, each certified, with the region, exactly, in the details.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, product

import sympy

from exactpoker.algebraic import AlgebraicNumber, common_field
from exactpoker.certify import Certificate, verify
from exactpoker.core import BehaviourProfile, CompiledGame
from exactpoker.errors import CertificationError
from exactpoker.games.papers.nash_shapley import payoffs as ns
from exactpoker.games.papers.nash_shapley.cases import INTERIOR, ONE, ZERO, Case, CaseSolution, solve_case
from exactpoker.games.papers.nash_shapley.families import case_family
from exactpoker.numbers import parse_positive
from exactpoker.results import Equilibrium, SolveResult
from exactpoker.solve import fictitious_play, locate_equilibrium

__all__ = ["SYSTEMS", "GAP_SYSTEMS", "FAMILY_SYSTEMS", "THREATS", "system_case", "threat_conditions", "threat_corners", "threat_family_empty", "equilibria", "profile", "certify_point"]

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

#: Systems beyond the paper, ``A_3 < a/b < 3`` (same shape as :data:`SYSTEMS`), in order of
#: ``a/b``: Player 1 calls on Low after ``PBP`` (``sigma``) with a mixed strategy, then
#: always; Player 3 calls on Low after ``PB`` (``mu``) mixed, then always; Player 1
#: always opens and Player 2 always calls, with the threats ``zeta, xi`` (:data:`THREATS`);
#: and XI, beside VII and VIII on ``[A_10, A_9]``, where Player 2 calls on Low after ``B``
#: (``delta``) with a mixed strategy (found by the exhaustive search at ``a/b = 12/5``).
GAP_SYSTEMS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "IV": (("alpha", "beta", "zeta", "kappa", "xi", "sigma"), ("epsilon", "upsilon")),
    "V": (("alpha", "beta", "zeta", "kappa", "xi"), ("epsilon", "sigma", "upsilon")),
    "VI": (("alpha", "beta", "zeta", "kappa", "mu", "xi"), ("epsilon", "sigma", "upsilon")),
    "VII": (("alpha", "beta", "zeta", "kappa", "xi"), ("epsilon", "mu", "sigma", "upsilon")),
    "VIII": (("zeta", "xi"), ("alpha", "beta", "delta", "epsilon", "kappa", "mu", "sigma", "upsilon", "omega")),
    "XI": (("alpha", "beta", "delta", "zeta", "xi"), ("epsilon", "kappa", "mu", "upsilon")),
}

#: Systems beyond the paper whose interior coefficients are free (they have points for ``a/b > 3``):
#: Player 1 opens on Low with probability ``beta``, Player 2 after ``P`` with ``zeta`` (and
#: Player 3 after ``PP`` with ``xi``); everybody else bets and calls, but folds on Low after
#: ``BP``, ``PBP`` and ``PPBP`` (``kappa = sigma = omega = 0``).  Every interior discriminant
#: vanishes identically and the points form a region
#: (:func:`~exactpoker.games.papers.nash_shapley.families.case_family`).  Same shape as :data:`SYSTEMS`.
FAMILY_SYSTEMS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "IX": (("beta", "zeta"), ("alpha", "delta", "epsilon", "theta", "mu", "xi", "pi", "upsilon", "chi")),
    "X": (("beta", "zeta", "xi"), ("alpha", "delta", "epsilon", "theta", "mu", "pi", "upsilon", "chi")),
}

#: Systems whose interior coefficients are never reached: ``name -> (threats, guards)``; the
#: threats are bounded only by the guards' condition (C) (``Delta >= 0`` at 1, ``<= 0`` at 0).
THREATS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {"VIII": (("zeta", "xi"), ("alpha", "beta"))}


def system_case(name: str) -> Case:
    """The case of one of :data:`SYSTEMS`, :data:`GAP_SYSTEMS` or :data:`FAMILY_SYSTEMS`."""
    interior, ones = {**SYSTEMS, **GAP_SYSTEMS, **FAMILY_SYSTEMS}[name]
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


def threat_conditions(
    name: str, stakes: dict[sympy.Symbol, sympy.Expr]
) -> tuple[dict[sympy.Symbol, sympy.Expr], list[sympy.Expr]]:
    """The fixed coefficients of a :data:`THREATS` system and its conditions ``c >= 0`` on the threats.

    One condition (C) on ``Delta_g`` per guard ``g`` and per pure choice of the
    guard owner's *follow-ups* (his coefficients whose discriminant vanishes
    identically at the system's point: situations it never reaches);
    ``stakes`` gives ``a`` and ``b`` (numbers, or ``t`` and ``1``).
    """
    threats, guards = THREATS[name]
    case = system_case(name)
    fixed = {ns.SYMBOLS[n]: sympy.Integer(0 if k == ZERO else 1) for n, k in case.kinds if k != INTERIOR}
    owners = {ns.OWNER[g] for g in guards}
    deltas = ns.discriminants()
    follow_ups = [ns.SYMBOLS[n] for n in ns.SYMBOLS if ns.OWNER[n] in owners and n not in guards
                  and sympy.expand(deltas[n].xreplace({**fixed, **stakes})) == 0]
    conditions: list[sympy.Expr] = []
    for g in guards:
        sign = 1 if case[g] == ONE else -1
        for choice in product((0, 1), repeat=len(follow_ups)):
            subs = {**fixed, **stakes, **dict(zip(follow_ups, map(sympy.Integer, choice)))}
            c = sympy.factor(sign * deltas[g].xreplace(subs))
            if c not in conditions and not (c.is_number and c >= 0):
                conditions.append(c)
    return fixed, conditions


def threat_corners(t: Fraction, name: str) -> tuple[list[dict[str, sympy.Expr]], dict[str, object]]:
    """The corners of the family of a :data:`THREATS` system at ``a/b = t``, and the family.

    The threats range over the part of ``[0, 1]^k`` where every condition of
    :func:`threat_conditions` holds (with the point's own follow-ups only,
    (C) would admit threats that a deviation changing several coefficients at
    once defeats).  A corner solves ``k`` of the equations ``condition = 0``,
    ``u = 0``, ``u = 1``; each is solved exactly and kept if it lies in the box
    and meets every condition (the certificate then decides).
    """
    stakes = {ns.a: sympy.Integer(t.numerator), ns.b: sympy.Integer(t.denominator)}
    fixed, conditions = threat_conditions(name, stakes)
    threats = THREATS[name][0]
    unknowns = [ns.SYMBOLS[n] for n in threats]
    equations = conditions + [u - v for u in unknowns for v in (0, 1)]
    corners: list[dict[str, sympy.Expr]] = []
    for chosen in combinations(equations, len(unknowns)):
        for solution in sympy.solve(list(chosen), unknowns, dict=True):
            values = [sympy.radsimp(sympy.sympify(solution.get(u, u))) for u in unknowns]
            if any(not v.is_real or v.free_symbols or not (0 <= sympy.N(v, 50) <= 1) for v in values):
                continue
            at = dict(zip(unknowns, values))
            if any(sympy.N(c.xreplace(at), 50) < -sympy.Rational(1, 10**40) for c in conditions):
                continue
            point = {str(s): v for s, v in fixed.items()}
            point.update({str(u): v for u, v in at.items()})
            if point not in corners:
                corners.append(point)
    family = {"system": name, "parameters": list(threats), "conditions": [f"{c} >= 0" for c in conditions]}
    return corners, family


def threat_family_empty(t: Fraction, name: str) -> bool:
    """Whether the family of a two-threat :data:`THREATS` system is empty at ``a/b = t``, decided exactly.

    Every condition of :func:`threat_conditions` is bilinear in the two
    threats ``(x, y)``: ``A(x) + B(x) y >= 0`` with ``A, B`` of degree at most
    one in ``x``.  For each ``x`` the conditions and ``0 <= y <= 1`` cut an
    interval of ``y``; the ``x`` where it is not empty can change only where
    some ``B`` or some ``A_i B_j - A_j B_i`` vanishes.  The family is checked at
    each such root in ``[0, 1]`` (exactly: rationals, or quadratic surds in
    sympy) and at one rational between consecutive ones; that decides it
    everywhere.
    """
    stakes = {ns.a: sympy.Integer(t.numerator), ns.b: sympy.Integer(t.denominator)}
    _fixed, conditions = threat_conditions(name, stakes)
    x, y = (ns.SYMBOLS[n] for n in THREATS[name][0])
    pieces = []  # (A, B) as sympy polynomials in x
    for c in [*conditions, y, 1 - y]:
        poly = sympy.Poly(sympy.expand(c), x, y)
        if poly.degree(y) > 1 or poly.degree(x) > 1:
            raise ValueError(f"system {name}: condition {c} is not bilinear in the threats")
        pieces.append((sympy.Poly(poly.as_expr().coeff(y, 0), x), sympy.Poly(poly.as_expr().coeff(y, 1), x)))
    roots: set[sympy.Expr] = {sympy.Integer(0), sympy.Integer(1)}
    candidates = [B for _A, B in pieces] + [Ai * Bj - Aj * Bi for (Ai, Bi), (Aj, Bj) in combinations(pieces, 2)]
    for f in candidates:
        if f.degree() > 0:
            roots.update(r for r in sympy.roots(f, filter="R") if 0 <= r <= 1)
    ordered = sorted(roots, key=lambda r: sympy.N(r, 30))
    between = [Fraction(str(sympy.Rational((sympy.N(u, 30) + sympy.N(v, 30)) / 2)))
               for u, v in zip(ordered, ordered[1:])]
    rational_pieces = [([Fraction(int(c.p), int(c.q)) for c in A.all_coeffs()[::-1]],
                        [Fraction(int(c.p), int(c.q)) for c in B.all_coeffs()[::-1]]) for A, B in pieces]

    def at(coefficients: list[Fraction], x0: Fraction) -> Fraction:
        return sum((c * x0**k for k, c in enumerate(coefficients)), Fraction(0))

    def feasible_rational(x0: Fraction) -> bool:
        low, high = Fraction(0), Fraction(1)
        for A, B in rational_pieces:
            a0, b0 = at(A, x0), at(B, x0)
            if b0 == 0 and a0 < 0:
                return False
            if b0 > 0:
                low = max(low, -a0 / b0)
            elif b0 < 0:
                high = min(high, -a0 / b0)
        return low <= high

    def feasible_surd(x0: sympy.Expr) -> bool:
        bounds_low, bounds_high = [sympy.Integer(0)], [sympy.Integer(1)]
        for A, B in pieces:
            a0, b0 = sympy.radsimp(A.as_expr().subs(x, x0)), sympy.radsimp(B.as_expr().subs(x, x0))
            if b0 == 0 and a0 < 0:
                return False
            if b0 != 0:
                (bounds_low if b0 > 0 else bounds_high).append(sympy.radsimp(-a0 / b0))
        return all(sympy.radsimp(h - l) >= 0 for h in bounds_high for l in bounds_low)

    if any(feasible_rational(x0) for x0 in between):
        return False
    return not any(feasible_rational(Fraction(int(r.p), int(r.q))) if r.is_Rational else feasible_surd(r)
                   for r in ordered)


def _located(t: Fraction, g: CompiledGame) -> dict[str, sympy.Expr]:
    """The coefficients of the point :func:`~exactpoker.solve.nplayer.support_search.locate_equilibrium` finds."""
    found = locate_equilibrium(g, fictitious_play(g, iterations=2000), max_supports=3000)
    values = {}
    for p, layout in enumerate(g.layouts):
        for h in range(layout.num_infosets):
            card, label = layout.infoset_card_label(h)
            values[ns.COEFFICIENTS[(p, layout.labels[label], card)]] = _to_sympy(found.behaviour[p][h])
    return values


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
    found: list[Equilibrium] = []
    families: list[dict[str, object]] = []
    seen: set[tuple[str, ...]] = set()

    def add(points: list[dict[str, sympy.Expr]]) -> None:
        for values in points:
            key = tuple(str(values[n]) for n in ns.SYMBOLS)
            if key not in seen:
                seen.add(key)
                eq = _equilibrium(g, values, unit)
                if eq is not None:
                    found.append(eq)

    for name in [*SYSTEMS, *GAP_SYSTEMS]:
        if name in THREATS:
            corners, family = threat_corners(t, name)
            before = len(found)
            add(corners)
            if len(found) > before:
                families.append(family)
            continue
        for solution in solve_case(t, system_case(name)):
            if solution.parameter is None:
                add([solution.values])
            else:
                points, family = _family_points(t, solution)
                if family:
                    families.append(family)
                add(points)
    for name in FAMILY_SYSTEMS:
        family = case_family(t, system_case(name))
        if family is not None:
            before = len(found)
            add([{k: sympy.Rational(v.numerator, v.denominator) for k, v in point.items()} for point in family.points()])
            if len(found) > before:
                families.append({"system": name, **family.describe()})
    method = "condition (C) case by case (the paper's systems and those of the gap), exact solve, certified"
    if not found:
        add([_located(t, g)])
        method = "support search near a float guide, exact solve on the support, certified"
    if not found:
        raise CertificationError(
            f"nash-shapley: no system and no support near the float guide gives a certified point at a/b = {t}"
        )
    details = {"a/b": t, "families": families} if families else {"a/b": t}
    notes = tuple(_family_note(family) for family in families) + (_completeness(t),)
    return SolveResult(ns.NAME, {"a": ante, "b": bet}, method, tuple(found), notes, details)


def _family_note(family: dict[str, object]) -> str:
    """A family of points in plain words (its exact description is in the details)."""
    if "bounds" in family:  # a region of free coefficients
        sides = ", ".join(f"{n} in [{lo}, {hi}]" for n, (lo, hi) in family["bounds"].items())  # type: ignore[attr-defined]
        rest = f", where {' and '.join(family['conditions'])}" if family["conditions"] else ""  # type: ignore[arg-type]
        return (f"family {family['system']}: every point with {sides}{rest} and the other coefficients fixed "
                f"(details['families']) is an equilibrium; its corners and centre are listed")
    if "range" in family:  # one parameter
        low, high = family["range"]  # type: ignore[misc]
        return (f"family: a line of points with {family['parameter']} in [{low}, {high}] where (C) holds "
                f"(details['families']); its ends and middle are listed")
    return (f"family {family['system']}: the threats {', '.join(family['parameters'])} range where "  # type: ignore[arg-type]
            f"{' and '.join(family['conditions'])} (details['families']); the corners are listed")  # type: ignore[arg-type]


def _completeness(t: Fraction) -> str:
    """What is known, without the exhaustive search, of whether the list at ``a/b = t`` has every point."""
    if t <= 1:
        return ("complete: the paper proves that systems (I) and (II) give every point for b >= a (sections 7-8); "
                "--exhaustive proves it again by machine")
    return ("complete at this ratio only if --exhaustive says so (it decides every case of condition (C), "
            "in minutes); the paper gives no proof for a > b")
