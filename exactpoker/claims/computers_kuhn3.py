"""Claim computers for seed 003 (Billingham, three-player Kuhn poker with N > 3 cards).

Merged into :data:`exactpoker.claims.computers.COMPUTERS`.  Each function
recomputes its quantities from the public API; printed values never reach it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Mapping

__all__ = ["COMPUTERS"]

Computer = Callable[[Mapping[str, Any]], dict[str, Any]]


def _structure(params: Mapping[str, Any]) -> dict[str, Any]:
    """Section 2: zero sum, number of frequencies, the dominated choices proved from the rules."""
    from exactpoker.games.papers import kuhn3

    n, pot = params["cards"], params["pot"]
    c = kuhn3.compiled(n, pot)
    proofs = kuhn3.dominance_proofs(n, pot)
    fixed = sum(len(v) for v in kuhn3.dominated_fixings(n).values())
    return {
        "zero-sum": c.is_zero_sum,
        "frequencies": sum(layout.num_infosets for layout in c.layouts),
        "dominated": fixed,
        "remaining": sum(layout.num_infosets for layout in c.layouts) - fixed,
        "dominance holds": all(p.dominates for p in proofs),
    }


def _p_min(params: Mapping[str, Any]) -> dict[str, Any]:
    """Section 2: P_min, zero values at and below it, player 3 profits just above (certified equilibria)."""
    from exactpoker.games.papers import kuhn3

    n = params["cards"]
    pm = kuhn3.p_min(n)
    at = kuhn3.equilibrium(n, pm).equilibria[0].values
    below = kuhn3.equilibrium(n, pm / 2).equilibria[0].values
    above = kuhn3.equilibrium(n, pm * Fraction(11, 10)).equilibria[0].values
    return {
        "P_min": pm,
        "values at P_min": [str(v) for v in at],
        "values below P_min": [str(v) for v in below],
        "E3 > 0 just above P_min": bool(above[2] > 0),
    }


def _low_pot(params: Mapping[str, Any]) -> dict[str, Any]:
    """Section 5.1: N = 4, P < 3: players 1 and 2 check everything; nodes 7-12 are never reached."""
    from exactpoker.games.papers import kuhn3

    n, pot = params["cards"], params["pot"]
    eq = kuhn3.equilibrium(n, pot).equilibria[0]
    c = kuhn3.compiled(n, pot)
    reach = kuhn3.reach_probabilities(c, kuhn3.profile_from_nodes(c, eq.exact_strategies))
    return {
        "players 1 and 2 check all holdings": all(v == 0 for v in eq.strategies["1"] + eq.strategies["2"]),
        "nodes not reached": [node for node in range(1, 13) if reach[node] == 0],
        "certified": eq.certified,
    }


def _family(params: Mapping[str, Any]) -> dict[str, Any]:
    """Section 5.1: a range of equilibria at N = 4, P = 3; player 2's value fixed along it."""
    from exactpoker.games.papers import kuhn3

    fam = kuhn3.equilibrium_family(params["cards"], params["pot"])
    moving = [bool(v.free_symbols) for v in fam.values]
    return {"E2": fam.values[1], "range of values for players 1 and 3": moving[0] and moving[2]}


def _skp(params: Mapping[str, Any]) -> dict[str, Any]:
    """Section 4 / Appendix A: solution 1 of SKP derived from the rules."""
    from exactpoker.games.papers import kuhn3_skp

    s = kuhn3_skp.solution_one()
    return {
        "b3": s["b3"],
        "d2": s["d2"],
        "c2+d3 min": s["c2+d3 min"],
        "c2+d3 max": s["c2+d3 max"],
        "c3+d1 min": s["c3+d1 min"],
        "c3+d1 max": s["c3+d1 max"],
        "a1=b1=a2=b2=c1=0 certified at P=5/2": kuhn3_skp.certify_solution_one(Fraction(5, 2)).holds,
    }


def _skp_condition(params: Mapping[str, Any]) -> dict[str, Any]:
    """Appendix A, eq. (13): condition ``f_k`` of SKP derived from the rules (the gain of betting or calling).

    The seed gives each condition up to a positive factor (the probability of
    the deals, and for ``f_4``, ``f_8`` a further 1/2): its catalog entries are
    compared ``up_to_positive_factor``.
    """
    from exactpoker.games.papers import kuhn3_skp

    k = params["condition"]
    return {f"f{k}": kuhn3_skp.conditions()[k - 1]}


COMPUTERS: dict[str, Computer] = {
    "kuhn3.structure": _structure,
    "kuhn3.p-min": _p_min,
    "kuhn3.low-pot": _low_pot,
    "kuhn3.family": _family,
    "kuhn3.skp": _skp,
    "kuhn3.skp-condition": _skp_condition,
}
