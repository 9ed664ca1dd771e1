"""Claim computers for seed 001 (Nash and Shapley, "A Simple Three-Person Poker Game", 1950).

Merged into :data:`exactpoker.claims.computers.COMPUTERS`.  Each function
recomputes its quantities from the public API; printed values never reach it
(a claim that "``A`` is the root of this polynomial" names the polynomial in
its parameters: that is the claim's subject, and the computer checks it).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Mapping

import sympy

__all__ = ["COMPUTERS"]

Computer = Callable[[Mapping[str, Any]], dict[str, Any]]


def _rules(params: Mapping[str, Any]) -> dict[str, Any]:
    """Section 3 and 4: bid sequences, plays, payoff vectors, strategy counts, dimensions."""
    from exactpoker.games.papers.nash_shapley import payoffs as ns

    sequences = ns.bid_sequences()
    counts, no_high_folds = ns.strategy_counts(), ns.strategy_counts(fold_on_high=False)
    per_player = [sum(1 for n in ns.SYMBOLS if ns.OWNER[n] == p) for p in range(3)]
    fixed_by_ban = [sum(1 for (q, s, c), n in ns.COEFFICIENTS.items() if q == p and c == ns.HIGH and s in
                        ("B", "BB", "BP", "PB", "PBB", "PBP", "PPB", "PPBB", "PPBP")) for p in range(3)]
    return {
        "bid sequences": sorted(sequences),
        "count": len(sequences),
        "plays": len(sequences) * 8,
        "payoff vectors": [[str(x) for x in v] for v in ns.payoff_vectors()],
        "strategy counts": list(counts),
        "strategy counts without folding on High": list(no_high_folds),
        "simplex dimensions": sum(c - 1 for c in no_high_folds),
        "coefficients per player": per_player,
        "coefficients per player without folding on High": [k - f for k, f in zip(per_player, fixed_by_ban)],
    }


def _reduced(params: Mapping[str, Any]) -> dict[str, sympy.Expr]:
    """Discriminants after the reductions the paper has made by the section quoted in ``params``."""
    from exactpoker.games.papers.nash_shapley import payoffs as ns

    zero = list(params.get("zero", []))
    one = list(params.get("one", []))
    subs = {ns.SYMBOLS[n]: 0 for n in zero}
    subs.update({ns.SYMBOLS[n]: 1 for n in one})
    return {f"Delta_{n}": sympy.factor(d.subs(subs)) for n, d in ns.discriminants().items()}


def _system_I(params: Mapping[str, Any]) -> dict[str, Any]:
    """Section 9: system (I) in closed form (in a, b) and the values in R_I."""
    from exactpoker.games.papers.nash_shapley import payoffs as ns
    from exactpoker.games.papers.nash_shapley import regions as nr

    closed = {k: v.subs(nr.t, ns.a / ns.b) for k, v in nr.system_I().items()}
    values = nr.values_I()
    return {**closed, "V1": values[0], "V2": values[1], "V3": values[2]}


def _boundaries(params: Mapping[str, Any]) -> dict[str, Any]:
    """Sections 9-10: A1, A2, A3 and whether the printed polynomials define them."""
    from exactpoker.games.papers.nash_shapley import regions as nr

    bounds = nr.boundaries()
    result: dict[str, Any] = {}
    for bd in bounds:
        result[bd.name] = bd.field.root_sympy()
        result[f"{bd.name} polynomial"] = bd.polynomial
    A = sympy.Symbol("A")
    for key, text in params.get("polynomials", {}).items():
        name, which = key.split()
        poly = sympy.Poly(sympy.sympify(text, locals={"A": A}), A)
        roots = [r for r in poly.real_roots() if r > 0]
        chosen = max(roots) if which == "largest" else (roots[0] if len(roots) == 1 else None)
        target = next(b for b in bounds if b.name == name).field.root_sympy()
        result[f"{key} root"] = chosen is not None and sympy.simplify(chosen - target) == 0
    return result


def _point(params: Mapping[str, Any]) -> dict[str, Any]:
    """Coefficients and values (per unit of a) at a given ratio, or at a boundary's R_I side."""
    from exactpoker.games.papers.nash_shapley import regions as nr

    if "boundary" in params:
        name = params["boundary"]
        root = next(b for b in nr.boundaries() if b.name == name).field.root_sympy()
        closed = {k: v.subs(nr.t, root) for k, v in nr.system_I().items()}
        values = [v.subs({sympy.Symbol("a", positive=True): root, sympy.Symbol("b", positive=True): 1}) / root
                  for v in nr.values_I()]
        return {**closed, "V1/a": values[0], "V2/a": values[1], "V3/a": values[2]}
    from exactpoker.games.papers.nash_shapley.equilibria import equilibria

    a, b = Fraction(params["a"]), Fraction(params["b"])
    result = equilibria(a, b)
    first = result.equilibria[0]
    coefficients = {k: v for table in first.strategies.values() for k, v in table.items()}
    values = [v / sympy.Rational(a.numerator, a.denominator) for v in first.values]
    distinct = {tuple(sympy.nsimplify(v) for v in eq.values) for eq in result.equilibria}
    return {
        **coefficients,
        "V1/a": values[0],
        "V2/a": values[1],
        "V3/a": values[2],
        "values": [str(v) for v in first.values],
        "one value": len(distinct) == 1,
        "certified": all(eq.certified for eq in result.equilibria),
    }


def _family_A2(params: Mapping[str, Any]) -> dict[str, Any]:
    """Section 10: the two ends of the one-parameter family at a/b = A2 (exact in Q(A2))."""
    from exactpoker.games.papers.nash_shapley import regions as nr

    result: dict[str, Any] = {}
    for end, label in zip(nr.family_at_A2(), ("omega = 0", "epsilon = 1")):
        for name in ("alpha", "epsilon", "zeta", "xi", "omega"):
            result[f"{label}: {name}"] = end.coefficients[name].to_sympy() if hasattr(end.coefficients[name], "to_sympy") \
                else sympy.Integer(end.coefficients[name])
        for k, v in enumerate(end.values_per_a):
            result[f"{label}: V{k + 1}/a"] = v.to_sympy()
        result[f"{label}: condition (C)"] = end.condition_C
        result[f"{label}: equilibrium"] = end.condition_C and end.equilibrium
    return result


def _coalitions(params: Mapping[str, Any]) -> dict[str, Any]:
    """Section 11: the characteristic function by exact LPs (minutes)."""
    from exactpoker.games.papers.nash_shapley.coalitions import characteristic_function

    v = characteristic_function(params["a"], params["b"])
    a = Fraction(params["a"])
    return {
        "v({1})/a": v[(0,)].value / a,
        "v({2})/a": v[(1,)].value / a,
        "v({3})/a": v[(2,)].value / a,
        "v({2,3})/a": v[(1, 2)].value / a,
        "v({1,3})/a": v[(0, 2)].value / a,
        "v({1,2})/a": v[(0, 1)].value / a,
    }


COMPUTERS: dict[str, Computer] = {
    "ns.rules": _rules,
    "ns.discriminants": _reduced,
    "ns.system-I": _system_I,
    "ns.boundaries": _boundaries,
    "ns.point": _point,
    "ns.family-A2": _family_A2,
    "ns.coalitions": _coalitions,
}
