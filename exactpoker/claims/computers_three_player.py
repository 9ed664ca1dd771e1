"""Claim computers for seed 000 section 4 (three-player poker, finite and continuous decks).

Merged into :data:`exactpoker.claims.computers.COMPUTERS`.  Each function
recomputes its quantities from the public API; printed values never reach it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Mapping

__all__ = ["COMPUTERS"]

Computer = Callable[[Mapping[str, Any]], dict[str, Any]]


def _finite(params: Mapping[str, Any]) -> dict[str, Any]:
    """FastMNE(n, b): the certified equilibria (end points of a segment where there is one)."""
    from exactpoker.games.papers import three_player

    result = three_player.equilibrium(params["n"], params["b"])
    eqs = result.equilibria
    as_lists = [[[str(v) for v in eq.strategies[name]] for name in ("I", "II", "III")] for eq in eqs]
    return {
        "values": [str(v) for v in eqs[0].values],
        "profiles": sorted(as_lists),
        "II equals III": result.details["II equals III"],
        "certified": all(eq.certified for eq in eqs),
    }


def _printed_profile(params: Mapping[str, Any]) -> dict[str, Any]:
    """Certify a printed (P, Q, R) exactly; its exact values and regrets."""
    from exactpoker.games.papers import three_player

    certificate = three_player.certify_profile(params["n"], params["b"], params["P"], params["Q"], params["R"])
    value = certificate.payoffs[0]
    return {
        "value": value,
        "values": [str(v) for v in certificate.payoffs],
        "certified": certificate.holds,
        "best approximation below 10^4": value.limit_denominator(10**4 - 1),
    }


def _continuous(params: Mapping[str, Any]) -> dict[str, Any]:
    """Optimal(b): the cut points and value as exact algebraic numbers."""
    from exactpoker.continuous import three_player as continuous

    solution = continuous.solve(params["b"], 30)
    return {name: _exact(getattr(solution, name)) for name in ("A", "B", "C", "value")}


def _exact(number: Any) -> Any:
    return number if isinstance(number, Fraction) else number.to_sympy()


def _equations(params: Mapping[str, Any]) -> dict[str, Any]:
    """Eq. A, B, C derived by integration, as ``left - right``."""
    from exactpoker.continuous import three_player as continuous

    return {f"Eq. {k}": v for k, v in continuous.equations().items()}


def _best_bet(params: Mapping[str, Any]) -> dict[str, Any]:
    """b* (exact algebraic) and the maximal value (certified ball, 40 digits); the value at b = 2.07."""
    from exactpoker.continuous import three_player as continuous

    best = continuous.best_bet(40)
    at_207 = continuous.solve(Fraction(207, 100), 30)
    return {
        "b*": best.b.to_sympy() if best.b.field.degree <= 2 else best.b.digits(40),
        "value": best.decimals()["value"],
        "value at b = 2.07": _exact(at_207.value),
    }


COMPUTERS: dict[str, Computer] = {
    "three.finite": _finite,
    "three.printed": _printed_profile,
    "three.continuous": _continuous,
    "three.equations": _equations,
    "three.best_bet": _best_bet,
}
