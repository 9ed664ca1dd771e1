"""Nash--Shapley poker as a function of ``t = a/b``: system (I) in closed form, the ranges and their ends.

Seed 001, sections 9 and 10.  Everything here is computed from the
discriminants of :mod:`exactpoker.games.papers.nash_shapley.payoffs`:

* :func:`system_I` solves system (I) in closed form with
  ``S = sqrt((3a+b)/(a+b))`` and checks the solution exactly (the equations
  reduce to zero modulo ``S^2 = (3t+1)/(t+1)``), with the values in ``R_I``;
* :func:`eliminant` eliminates a system's coefficients together with one
  extra discriminant (a lex Groebner basis), leaving a polynomial in ``t``;
* :func:`boundaries` gives ``A_1`` (system (I) meets ``Delta_zeta = 0``),
  ``A_2`` (system (II) meets ``Delta_omega = 0``) and ``A_3`` (system (III)
  meets ``Delta_beta = 0``) as real algebraic numbers
  (:class:`~exactpoker.algebraic.RealNumberField`), each the first root of
  its eliminant above a ratio where the system's point is certified.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations

import sympy

from exactpoker.algebraic import RealNumberField
from exactpoker.games.papers.nash_shapley import payoffs as ns
from exactpoker.games.papers.nash_shapley.cases import INTERIOR, ZERO
from exactpoker.games.papers.nash_shapley.equilibria import THREATS, system_case, threat_conditions, threat_family_empty

__all__ = ["t", "S", "Boundary", "system_I", "values_I", "eliminant", "edge_eliminant", "boundaries", "gap_boundaries",
           "regions"]

t = sympy.Symbol("t", positive=True)
#: ``S = sqrt((3a+b)/(a+b))`` in ``t = a/b``.
S = sympy.sqrt((3 * t + 1) / (t + 1))
_s = sympy.Symbol("s", positive=True)  # S as a symbol, with s^2 (t+1) = 3t+1


def _fixed_substitution(name: str) -> dict[sympy.Symbol, sympy.Expr]:
    case = system_case(name)
    subs: dict[sympy.Symbol, sympy.Expr] = {
        ns.SYMBOLS[n]: sympy.Integer(0 if k == ZERO else 1) for n, k in case.kinds if k != INTERIOR
    }
    subs.update({ns.a: t, ns.b: sympy.Integer(1)})
    return subs


def _reduces_to_zero(expr: sympy.Expr) -> bool:
    """Whether a rational expression in ``t`` and ``s`` vanishes modulo ``s^2 (t+1) - (3t+1)``."""
    numerator = sympy.numer(sympy.together(expr))
    remainder = sympy.rem(sympy.expand(numerator), _s**2 * (t + 1) - (3 * t + 1), _s)
    return sympy.simplify(remainder) == 0


@cache
def system_I() -> dict[str, sympy.Expr]:
    """System (I)'s solution: ``alpha = epsilon = 2 - S``, ``zeta = 0``, ``xi = 1 - b/((a+b)S)``.

    ``xi`` is solved from ``Delta_epsilon = 0`` (linear in ``xi``) at
    ``alpha = epsilon = 2 - S``; then all three equations of (I) are checked
    to vanish exactly modulo ``S^2 = (3t+1)/(t+1)``, and ``xi`` to equal the
    paper's closed form.
    """
    subs = _fixed_substitution("I")
    al, ep, xi = (ns.SYMBOLS[n] for n in ("alpha", "epsilon", "xi"))
    deltas = {n: sympy.expand(ns.discriminants()[n].xreplace(subs)) for n in ("alpha", "epsilon", "xi")}
    xi_of = sympy.solve(deltas["epsilon"], xi)[0]
    candidate = {"alpha": 2 - _s, "epsilon": 2 - _s}
    candidate["xi"] = sympy.simplify(xi_of.subs(al, 2 - _s).subs(ep, 2 - _s))
    point = {ns.SYMBOLS[k]: v for k, v in candidate.items()}
    if not all(_reduces_to_zero(d.subs(point)) for d in deltas.values()):
        raise ArithmeticError("system (I): the closed form does not solve the equations")  # pragma: no cover
    closed = {"alpha": 2 - S, "epsilon": 2 - S, "zeta": sympy.Integer(0), "xi": 1 - 1 / ((t + 1) * S)}
    if not _reduces_to_zero(candidate["xi"] - (1 - 1 / ((t + 1) * _s))):
        raise ArithmeticError("system (I): xi differs from 1 - b/((a+b)S)")  # pragma: no cover
    return closed


def values_I() -> tuple[sympy.Expr, sympy.Expr, sympy.Expr]:
    """The payoffs in ``R_I`` as functions of ``a`` and ``b`` (the paper: ``-a^2/(8(a+b))``, twice, and ``a^2/(4(a+b))``)."""
    subs = _fixed_substitution("I")
    point = {ns.SYMBOLS[k]: v.subs(S, _s) for k, v in system_I().items()}
    result = []
    for poly in ns.payoff_polynomials():
        value = sympy.together(poly.subs(subs).subs(point).subs(S, _s))
        numerator, denominator = sympy.fraction(value)
        reduced = sympy.rem(sympy.expand(numerator), _s**2 * (t + 1) - (3 * t + 1), _s)
        per_b = sympy.factor(sympy.simplify(reduced / denominator.subs(_s**2, (3 * t + 1) / (t + 1))))
        result.append(sympy.factor(ns.b * per_b.subs(t, ns.a / ns.b)))
    return tuple(result)  # type: ignore[return-value]


def _eliminate(system: str, extra: list[sympy.Expr]) -> sympy.Poly:
    """Eliminate system ``system``'s coefficients from its equations and ``extra`` (polynomials in
    the coefficients and ``t``): the last polynomial in ``t`` alone (squarefree, content removed)."""
    subs = _fixed_substitution(system)
    case = system_case(system)
    equations = [sympy.numer(sympy.together(ns.discriminants()[n].xreplace(subs))) for n in case.interior] + extra
    unknowns = [ns.SYMBOLS[n] for n in case.interior]
    basis = sympy.groebner(equations, *unknowns, t, order="lex")
    last = [g for g in basis.exprs if not (g.free_symbols & set(unknowns))]
    poly = sympy.Poly(last[-1], t)
    return sympy.Poly(sympy.sqf_part(poly.as_expr()), t).primitive()[1]


@cache
def eliminant(system: str, extra: str) -> sympy.Poly:
    """The polynomial in ``t`` left when system ``system``'s coefficients are eliminated from its
    equations together with ``Delta_extra = 0`` (squarefree, content removed)."""
    subs = _fixed_substitution(system)
    return _eliminate(system, [sympy.numer(sympy.together(ns.discriminants()[extra].xreplace(subs)))])


@cache
def edge_eliminant(system: str, name: str, value: int) -> sympy.Poly:
    """Like :func:`eliminant`, with the interior coefficient ``name`` at the edge ``value`` (0 or 1)."""
    return _eliminate(system, [ns.SYMBOLS[name] - value])


@dataclass(frozen=True)
class Boundary:
    """One end of a range of ``a/b``: a real algebraic number."""

    name: str
    field: RealNumberField
    polynomial: sympy.Expr
    where: str

    def digits(self, digits: int = 10) -> str:
        return self.field.generator.digits(digits)

    def to_dict(self, digits: int = 10) -> dict[str, object]:
        low, high = self.field.interval
        return {
            "name": self.name,
            "polynomial": str(self.polynomial),
            "interval": [str(low), str(high)],
            "decimal": self.digits(digits),
            "where": self.where,
        }


def _first_root_above(poly: sympy.Poly, sample: Fraction) -> tuple[RealNumberField, sympy.Expr]:
    """The least real root above ``sample``, as a field ``Q(root)`` of its irreducible factor."""
    best = None
    for factor, _ in sympy.factor_list(poly.as_expr())[1]:
        f = sympy.Poly(factor, t)
        for (low, high), _mult in f.intervals():
            low, high = Fraction(str(low)), Fraction(str(high))
            if high <= sample or f.degree() < 1:
                continue
            while low <= sample:  # refine until the isolating interval lies above the sample
                (low, high) = (Fraction(str(x)) for x in f.refine_root(low, high, eps=(high - low) / 4))
            if best is None or high <= best[1]:
                best = (f, low, high)
    assert best is not None
    f, low, high = best
    if low == high:  # a rational root
        return RealNumberField([-low.numerator, low.denominator], low - 1, low + 1), f.as_expr()
    return RealNumberField(f.all_coeffs()[::-1], low, high), f.as_expr()


@cache
def boundaries() -> tuple[Boundary, Boundary, Boundary]:
    """``A_1``, ``A_2``, ``A_3`` (sections 9--10), each the first root of its eliminant above a
    ratio inside the range it closes (``1/2`` in ``R_I``, ``1`` in ``R_II``, ``21/20`` in ``R_III``)."""
    specs = (
        ("A1", "I", "zeta", Fraction(1, 2), "system (I) meets Delta_zeta = 0: zeta enters, R_I ends"),
        ("A2", "II", "omega", Fraction(1), "system (II) meets Delta_omega = 0: omega enters, R_II ends"),
        ("A3", "III", "beta", Fraction(21, 20), "system (III) meets Delta_beta = 0: beta enters, R_III ends"),
    )
    result = []
    for name, system, extra, sample, where in specs:
        field, poly = _first_root_above(eliminant(system, extra), sample)
        result.append(Boundary(name, field, sympy.expand(poly.subs(t, sympy.Symbol("A"))), where))
    return tuple(result)  # type: ignore[return-value]


#: The ends of the ranges beyond ``A_3`` (not in the paper): name, system, the condition that ends
#: or starts it (``Delta_u = 0``, or ``u`` at an edge), a ratio just below, and a description.
_GAP_SPECS: tuple[tuple[str, str, tuple[str, int | None], Fraction, str], ...] = (
    ("A4", "beyond A3", ("sigma", None), Fraction(13, 10),
     "the system beyond A3 meets Delta_sigma = 0: Player 1's Low call after PBP (sigma) enters, system IV"),
    ("A5", "V", ("sigma", None), Fraction(7, 5), "system IV's sigma reaches 1 (system V meets Delta_sigma = 0)"),
    ("A6", "V", ("mu", None), Fraction(8, 5), "system V meets Delta_mu = 0: Player 3's Low call after PB (mu) enters, VI"),
    ("A7", "VII", ("mu", None), Fraction(2), "system VI's mu reaches 1 (system VII meets Delta_mu = 0)"),
    ("A9", "VII", ("kappa", 1), Fraction(9, 4), "system VII's kappa reaches 1: VII ends"),
    ("A10", "XI", ("delta", 1), Fraction(23, 10),
     "system XI's delta leaves 1: Player 2's Low call after B (delta) is mixed, beside VII and VIII; XI's delta "
     "reaches 0 at A9, where VII's kappa reaches 1 and the two systems are one"),
)


def _threat_start(name: str, low: Fraction, high: Fraction) -> Boundary:
    """Where a :data:`~exactpoker.games.papers.nash_shapley.equilibria.THREATS` system's family appears.

    The family is the part of the box ``[0, 1]^k`` of the threats where every
    condition of :func:`~exactpoker.games.papers.nash_shapley.equilibria.threat_conditions`
    holds; when it is not empty it has a corner, where ``k`` of the equations
    (a condition or a box edge) meet, so it can appear or vanish only at a
    ratio where a corner crosses another equation: a root of an eliminant of
    ``k + 1`` of them.  Between consecutive roots in ``(low, high)`` whether
    the family is empty is decided exactly at one sample ratio each
    (:func:`~exactpoker.games.papers.nash_shapley.equilibria.threat_family_empty`); the
    start is the root after which it is never empty again up to ``high``.
    Raises :class:`ValueError` if it is not empty at ``low`` or empty at ``high``.
    """
    _fixed, conditions = threat_conditions(name, {ns.a: t, ns.b: sympy.Integer(1)})
    unknowns = [ns.SYMBOLS[n] for n in THREATS[name][0]]
    equations = [sympy.numer(sympy.together(c)) for c in conditions] + [u - v for u in unknowns for v in (0, 1)]
    factors: set[sympy.Expr] = set()
    for chosen in combinations(equations, len(unknowns) + 1):
        basis = sympy.groebner(list(chosen), *unknowns, t, order="lex")
        last = [g for g in basis.exprs if g.free_symbols == {t}]
        if last:
            factors.update(f for f, _ in sympy.factor_list(last[-1])[1])
    roots = sorted((r, f) for f in factors for r in sympy.Poly(f, t).nroots(n=30)
                   if r.is_real and low < r < high)
    samples = [low] + [Fraction(str(sympy.Rational((x + y) / 2).limit_denominator(10**12)))
                       for (x, _f), (y, _g) in zip(roots, roots[1:])] + [high]
    empty = [threat_family_empty(sample, name) for sample in samples]
    if not empty[0] or empty[-1]:
        raise ValueError(f"system {name}: its family must be empty at a/b = {low} and not at {high}")
    last_empty = max(k for k, e in enumerate(empty) if e)
    if not all(empty[: last_empty + 1]):
        raise ValueError(f"system {name}: its family appears more than once between a/b = {low} and {high}")
    field, poly = _first_root_above(sympy.Poly(roots[last_empty][1], t), samples[last_empty])
    return Boundary(f"start of {name}", field, poly.subs(t, sympy.Symbol("A")), f"the family of system {name} appears")


@cache
def gap_boundaries() -> tuple[Boundary, ...]:
    """The ends of the ranges of the systems beyond ``A_3``, in order of ``a/b``, up to ``3``.

    ``A4`` .. ``A7`` and ``A9`` close or open the mixed systems IV -- VII (each
    the first root of its eliminant above a ratio inside the range before
    it); ``A8`` is where system VIII's family (Player 1 always opens) appears,
    so that on ``[A8, A9]`` two families of points of different values exist;
    ``A10`` is where system XI appears (the exhaustive search found it at
    ``12/5``), a third kind of point on ``[A10, A9]``.
    """
    found = []
    for name, system, (extra, edge), sample, where in _GAP_SPECS:
        poly = eliminant(system, extra) if edge is None else edge_eliminant(system, extra, edge)
        field, factor = _first_root_above(poly, sample)
        found.append(Boundary(name, field, sympy.expand(factor.subs(t, sympy.Symbol("A"))), where))
    start = _threat_start("VIII", Fraction(1), Fraction(3))
    found.append(Boundary("A8", start.field, sympy.expand(start.polynomial), start.where))
    return tuple(sorted(found, key=lambda bd: float(bd.field.generator.digits(15))))


def pure_part_values(name: str) -> tuple[sympy.Expr, ...]:
    """``P_1, P_2, P_3`` with a system's pure coefficients put in, its interior ones left as symbols.

    For a system whose interior coefficients are threats never reached on the
    path of play (system VIII), this is its value, the same over the whole family.
    """
    pure = {ns.SYMBOLS[n]: (0 if kind == ZERO else 1) for n, kind in system_case(name).kinds if kind != INTERIOR}
    return tuple(sympy.factor(p.subs(pure)) for p in ns.payoff_polynomials())


def regions(digits: int = 10) -> dict[str, object]:
    """The ranges of ``a/b``, their boundaries and the closed forms, as exact strings."""
    a1, a2, a3 = boundaries()
    closed = system_I()
    family_value = ", ".join(str(v) for v in pure_part_values("VIII"))
    return {
        "S": str(S),
        "system I": {k: str(v) for k, v in closed.items()},
        "values in R_I": [str(v) for v in values_I()],
        "boundaries": [bd.to_dict(digits) for bd in (a1, a2, a3, *gap_boundaries())],
        "ranges": {
            "R_I": "0 < a/b <= A1: system (I), unique equilibrium point",
            "R_II": "A1 <= a/b < A2: system (II), unique for a/b <= 1 (paper)",
            "R_III": "A2 < a/b < A3: system (III), a one-parameter family with one value",
            "beyond A3": "A3 < a/b < A4 = 4/3: the system beyond A3 (beta, kappa enter)",
            "IV": "A4 < a/b < A5: beta, kappa, sigma mixed (not in the paper)",
            "V": "A5 < a/b < A6: sigma = 1 (not in the paper)",
            "VI": "A6 < a/b < A7: mu mixed (not in the paper)",
            "VII": "A7 < a/b < A9: mu = 1 (not in the paper)",
            "XI": "A10 < a/b < A9: alpha, beta, delta, zeta, xi mixed, beside VII and VIII (found by --exhaustive; "
                  "not in the paper)",
            "VIII": "A8 <= a/b <= 3: Player 1 always opens, 2 always calls, 3 calls on High only; threats "
                    f"zeta, xi (a two-dimensional family), value ({family_value}) (not in the paper)",
            "a >= 3b": "everybody always bets; value 0 (footnote 18 says a >= 4b); for a > 3b also the regions of "
                       "free coefficients IX and X (beta, zeta; and xi), value 0, exact at each a/b in "
                       "nash-shapley --a A --b B (not in the paper)",
        },
    }


@dataclass(frozen=True)
class FamilyEnd:
    """One extreme point of the family at ``a/b = A_2``: coefficients and values per unit ante."""

    coefficients: dict[str, object]
    values_per_a: tuple[object, ...]
    condition_C: bool
    #: No player gains by changing several coefficients at once
    #: (:func:`~exactpoker.games.papers.nash_shapley.payoffs.best_deviation_gains`, exact in ``Q(A_2)``).
    equilibrium: bool


def _at_boundary(system: str, boundary: Boundary, fixed: dict[str, int], extra: tuple[str, ...] = ()) -> FamilyEnd:
    """System ``system``'s point at ``t = boundary``, with ``Delta_u = 0`` also for ``u`` in ``extra``
    (the condition that defines the boundary); its lex basis is linear in each coefficient."""
    subs = _fixed_substitution(system)
    subs.update({ns.SYMBOLS[n]: sympy.Integer(v) for n, v in fixed.items()})
    case = system_case(system)
    interior = [n for n in case.interior if n not in fixed]
    equations = [sympy.numer(sympy.together(ns.discriminants()[n].xreplace(subs))) for n in case.interior + extra]
    minimal = sympy.Poly(boundary.polynomial.subs(sympy.Symbol("A"), t), t).as_expr()
    basis = sympy.groebner(equations + [minimal], *[ns.SYMBOLS[n] for n in interior], t, order="lex")
    theta = boundary.field.generator
    values: dict[str, object] = {n: (0 if k == ZERO else 1) for n, k in case.kinds if k != INTERIOR}
    values.update(fixed)
    for g in basis.exprs:
        poly = sympy.Poly(g, *[ns.SYMBOLS[n] for n in interior], t)
        names = [n for n, s in zip(interior, poly.gens) if poly.degree(s) > 0]
        if not names:
            continue
        (name,) = names  # shape position: u - f(t)
        u = ns.SYMBOLS[name]
        lead = sympy.Poly(g, u).coeff_monomial(u)
        rest = sympy.Poly(-sympy.expand(g - lead * u) / lead, t)
        values[name] = sum((Fraction(int(c.p), int(c.q)) * theta**k for (k,), c in rest.terms()), theta * 0)
    payoffs, deltas = ns.evaluate(values, theta, 1)
    condition = all(
        (deltas[n] <= 0) if k == ZERO and n not in fixed else (deltas[n] >= 0) if k != INTERIOR or n in fixed else (deltas[n] == 0)
        for n, k in case.kinds
    )
    gains = ns.best_deviation_gains(values, theta, 1)
    return FamilyEnd(values, tuple(v / theta for v in payoffs), condition, all(g <= 0 for g in gains))  # type: ignore[operator]


def family_at_A2() -> tuple[FamilyEnd, FamilyEnd]:
    """The two ends of section 10's one-parameter family at ``a/b = A_2``.

    One end is system (II) at ``A_2`` (``omega = 0``), the other system (III)
    at ``A_2`` with ``upsilon = 0`` (``epsilon = 1``), where (III)'s family in
    ``R_III`` shrinks to one point.  Coefficients and values are exact in
    ``Q(A_2)``; condition (C) and the full equilibrium check (every player's
    best deviation over all his coefficients at once,
    :func:`~exactpoker.games.papers.nash_shapley.payoffs.best_deviation_gains`) are exact
    in ``Q(A_2)`` at both: the compiled game needs rational stakes, the
    payoff polynomials do not.
    """
    a2 = boundaries()[1]
    return _at_boundary("II", a2, {}, ("omega",)), _at_boundary("III", a2, {"upsilon": 0})
