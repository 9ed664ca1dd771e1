"""Claim computers for seed 002 (Goldman and Stone, "A Symmetric Continuous Poker Model", 1960).

Merged into :data:`exactpoker.claims.computers.COMPUTERS`.  Each function
recomputes its quantities from the public API; printed values never reach it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Mapping

__all__ = ["COMPUTERS"]

Computer = Callable[[Mapping[str, Any]], dict[str, Any]]


def _continuous(params: Mapping[str, Any]) -> dict[str, Any]:
    """Lemma 4, Lemma 8, the theorem (value 0, certified), section 7 (b = 1)."""
    from exactpoker.continuous import goldman_stone as gs

    solution = gs.solve(params["a"], params["b"]) if "a" in params else gs.solve_symbolic()
    limit = gs.von_neumann_limit()
    G = solution.G
    return {
        "R1": solution.R[0],
        "R2": solution.R[1],
        "R3": solution.R[2],
        "R4": solution.R[3],
        "g": solution.g,
        "g'": solution.g_prime,
        "r2 on (g, g')": solution.mix[1],
        "r4 on (g, g')": solution.mix[3],
        "value": solution.value,
        "optimal": solution.certified,
        # lemma 4 / lemma 3 consequences, at the strategy: G_2(0) - G_1(0) and G_4(0) - G_1(0)
        "G2(0) - G1(0)": (G[1][0] - G[0][0]).subs(gs.z, 0),
        "G4(0) - G1(0)": (G[3][0] - G[0][0]).subs(gs.z, 0),
        "b=1 g": limit["g"],
        "b=1 g'": limit["g'"],
        "b=1 r2": limit["b-fold"],
        "b=1 r4": limit["a"],
    }


def _figures(params: Mapping[str, Any]) -> dict[str, Any]:
    """Figures 1 and 2 derived from the rules."""
    from exactpoker.continuous import goldman_stone as gs

    high, low = gs.payoff_tables()
    return {"figure 1": [[str(v) for v in high.row(i)] for i in range(4)],
            "figure 2": [[str(v) for v in low.row(i)] for i in range(4)]}


def _finite(params: Mapping[str, Any]) -> dict[str, Any]:
    """The finite-deck game (not in the paper): value by symmetry."""
    from exactpoker.games.papers import goldman_stone

    result = goldman_stone.equilibrium(params["n"], params["a"], params["b"])
    return {"value": Fraction(str(result.value)), "certified": result.equilibria[0].certified}


COMPUTERS: dict[str, Computer] = {
    "gs.continuous": _continuous,
    "gs.figures": _figures,
    "gs.finite": _finite,
}
