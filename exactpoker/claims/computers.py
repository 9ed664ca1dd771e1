"""Recompute, from scratch, the quantity each kind of claim is about.

Each function takes the claim's parameters and returns a mapping from
quantity name to exact value.  They call only the public API; the catalog's
printed values never reach them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Mapping

__all__ = ["COMPUTERS"]

Computer = Callable[[Mapping[str, Any]], dict[str, Any]]


def _card_set(probabilities: list) -> list[int]:
    return [k + 1 for k, p in enumerate(probabilities) if p == 1]


def _vn_pure(params: Mapping[str, Any]) -> dict[str, Any]:
    from exactpoker.games.papers import von_neumann

    result = von_neumann.pure_equilibria(params["n"], params["b"])
    sets = [[_card_set(eq.strategies["I"]), _card_set(eq.strategies["II"])] for eq in result.equilibria]
    return {
        "count": len(sets),
        "profiles": sorted(sets),
        "values": sorted({str(eq.values[0]) for eq in result.equilibria}),
        "player I sets": [list(t) for t in sorted({tuple(s[0]) for s in sets})],
        "player II set sizes": sorted({len(s[1]) for s in sets}),
    }


def _vn_restricted(params: Mapping[str, Any]) -> dict[str, Any]:
    from exactpoker.games.papers import von_neumann

    result = von_neumann.restricted_equilibria(params["n"], params["b"])
    cuts = result.details["pure cuts"]
    return {"pure cuts": [list(c) for c in cuts], "value": Fraction(str(result.value))}


def _vn_mixed(params: Mapping[str, Any]) -> dict[str, Any]:
    from exactpoker.games.papers import von_neumann

    return {"value": Fraction(str(von_neumann.equilibrium(params["n"], params["b"]).value))}


def _vn_slow(params: Mapping[str, Any]) -> dict[str, Any]:
    from exactpoker.games.papers import von_neumann

    return {"value": Fraction(str(von_neumann.equilibrium(params["n"], params["b"], method="strategic").value))}


def _vn_profile(params: Mapping[str, Any]) -> dict[str, Any]:
    from exactpoker.games.papers import von_neumann

    certificate = von_neumann.check_profile(params["n"], params["b"], params["P"], params["Q"])
    return {"certified": certificate.holds, "value": certificate.payoffs[0]}


def _vn_mixture(params: Mapping[str, Any]) -> dict[str, Any]:
    from exactpoker.games.papers import von_neumann

    n = params["n"]
    bet = [sum((Fraction(w) for cards, w in params["I"] if k in cards), Fraction(0)) for k in range(1, n + 1)]
    call = [sum((Fraction(w) for cards, w in params["II"] if k in cards), Fraction(0)) for k in range(1, n + 1)]
    certificate = von_neumann.check_profile(n, params["b"], bet, call)
    return {"certified": certificate.holds, "value": certificate.payoffs[0]}


def _vn_continuous(params: Mapping[str, Any]) -> dict[str, Any]:
    from exactpoker.continuous import von_neumann as continuous

    solution = continuous.solve(params["b"]) if "b" in params else continuous.solve_symbolic()
    return {"A": solution.A, "B": solution.B, "C": solution.C, "value": solution.value}


def _vn_best_bet(params: Mapping[str, Any]) -> dict[str, Any]:
    from exactpoker.continuous import von_neumann as continuous

    bet, value = continuous.best_bet()
    return {"b": bet, "value": value}


def _newman_continuous(params: Mapping[str, Any]) -> dict[str, Any]:
    from exactpoker.continuous import newman as continuous

    solution = continuous.solve()
    return {"value": solution.value, "bluff below": solution.bluff_below, "value above": solution.value_above}


COMPUTERS: dict[str, Computer] = {
    "vn.pure": _vn_pure,
    "vn.restricted": _vn_restricted,
    "vn.mixed": _vn_mixed,
    "vn.slow": _vn_slow,
    "vn.profile": _vn_profile,
    "vn.mixture": _vn_mixture,
    "vn.continuous": _vn_continuous,
    "vn.best_bet": _vn_best_bet,
    "newman.continuous": _newman_continuous,
}


def _merge() -> None:
    """Add the computers of the games whose claims live in their own ``computers_<game>`` modules."""
    import importlib
    import pkgutil

    import exactpoker.claims as package

    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if not info.name.startswith("computers_"):
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        overlap = set(module.COMPUTERS) & set(COMPUTERS)
        if overlap:
            raise RuntimeError(f"claim kinds defined twice: {sorted(overlap)}")
        COMPUTERS.update(module.COMPUTERS)


_merge()
