"""Claim computers for seed 004 (Euler Math Toolbox notes, "Most Simple Poker Game").

Merged into :data:`exactpoker.claims.computers.COMPUTERS`.  Each function
recomputes its quantities from the public API of
:mod:`exactpoker.games.simple_poker`; printed values never reach it.  Matrix
entries are given in the notes' orientation ``R[i2, i1]`` (rows: player II's
tactic, columns: player I's; 1-based, tactics in the notes' order).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Mapping

import sympy

from exactpoker.core import Decision
from exactpoker.numbers import exact_str

__all__ = ["COMPUTERS"]

Computer = Callable[[Mapping[str, Any]], dict[str, Any]]


def _play(params: Mapping[str, Any]) -> dict[str, Any]:
    """The notes' ``play(c1, c2, t1, t2)``: I's gain for given cards and tactics, read off the game tree."""
    from exactpoker.games.papers import simple_poker

    node = simple_poker.game(params["m"], params["ante"], params["bet"]).root
    cards = tuple(params["cards"])
    tactics = [[int(v) for v in t.strip("[]").split(",")] for t in params["tactics"]]
    while isinstance(node, Decision):
        node = node.actions[tactics[node.player][cards[node.player] - 1]][1]
    return {"gain": node.payoffs(cards)[0]}


def _matrix(params: Mapping[str, Any]) -> dict[str, Any]:
    """The result matrix ``R`` (transposed: the notes put player I in the columns)."""
    from exactpoker.games.papers import simple_poker

    table = simple_poker.matrix(params["m"], params["ante"], params["bet"], threshold=params.get("threshold", False))
    notes = [list(col) for col in zip(*table)]
    out: dict[str, Any] = {"R": [[exact_str(v) for v in row] for row in notes]}
    for i, row in enumerate(notes, start=1):
        for j, v in enumerate(row, start=1):
            out[f"R[{i},{j}]"] = v
    return out


def _solve(params: Mapping[str, Any]) -> dict[str, Any]:
    """The notes' ``game(R)``: the value for player I (and II), full or threshold game."""
    from exactpoker.games.papers import simple_poker

    result = simple_poker.solve(params["m"], params["ante"], params["bet"], threshold=params.get("threshold", False))
    value = Fraction(str(result.value))
    return {"value": value, "value II": -value, "certified": result.equilibria[0].certified}


def _mixture(params: Mapping[str, Any]) -> dict[str, Any]:
    """The optimal mixture over the tactics the notes' mixture uses (its support).

    The player is restricted to ``support``; the exact LP gives the weights,
    and ``optimal`` says whether that restricted value is the full game's
    value (so the printed mixture is optimal).
    """
    from exactpoker.games.papers import simple_poker
    from exactpoker.solve.lp.simplex import solve_matrix_game

    threshold = params.get("threshold", False)
    table = simple_poker.matrix(params["m"], params["ante"], params["bet"], threshold=threshold)
    own = table if params["player"] == "I" else [[-v for v in col] for col in zip(*table)]
    rows = (simple_poker.threshold_tactics(params["m"]) if threshold else simple_poker.tactics(params["m"]))
    names = [f"t={k + 1}" if threshold else simple_poker.tactic_name(row) for k, row in enumerate(rows)]
    support = list(params["support"])
    restricted = solve_matrix_game([own[names.index(name)] for name in support])
    full = solve_matrix_game(own)
    out: dict[str, Any] = {"optimal": restricted.value == full.value, "value": restricted.value}
    for name, weight in zip(support, restricted.row_strategy):
        out[f"weight {name}"] = weight
    return out


def _piecewise(params: Mapping[str, Any]) -> dict[str, Any]:
    """The value / A on an interval of ``r = B/A`` from the exact piecewise value."""
    from exactpoker.games.papers import simple_poker
    from exactpoker.algebraic import RealAlgebraic, rational_between
    from exactpoker.solve.parametric.matrix_game import SYMBOL

    pv = simple_poker.piecewise_value(params["m"], threshold=params.get("threshold", False))
    lo = RealAlgebraic.rational(Fraction(params["from"]))
    hi = None if params["to"] == "oo" else RealAlgebraic.rational(Fraction(params["to"]))
    inside = [(s, e, v) for s, e, v in pv.value_pieces()
              if (hi is None or s < hi) and (e is None or lo < e)]
    single = inside[0][2] if len(inside) == 1 else None
    points = [rational_between(lo if s < lo else s, e if hi is None or (e is not None and e < hi) else hi)
              for s, e, _ in inside]
    is_quadratic = single is not None and single.is_polynomial(SYMBOL) and sympy.degree(single, SYMBOL) == 2
    return {
        "value": single if single is not None else [str(v) for _, _, v in inside],
        "quadratic": bool(is_quadratic),
        "negative somewhere": any(pv.value_at(q) < 0 for q in points),
        "value for large r": pv.value_pieces()[-1][2],
    }


def _large_bet_formula(params: Mapping[str, Any]) -> dict[str, Any]:
    """The value for large ``B/A`` as a function of ``n`` (the notes' ``r(n)``), by rational interpolation.

    The last piece of the exact piecewise value of the threshold game for
    ``n = 2..n_max``; a rational function of degree (2, 2) in ``n`` through
    the first five points, checked at all the others.
    """
    from sympy.polys.polyfuncs import rational_interpolate

    from exactpoker.games.papers import simple_poker

    n = sympy.Symbol("n")
    points = [(k, simple_poker.piecewise_value(k, threshold=True).value_pieces()[-1][2]) for k in
              range(2, params["n_max"] + 1)]
    formula = sympy.factor(rational_interpolate(points[:5], 2, X=n))
    fits = all(sympy.simplify(formula.subs(n, k) - v) == 0 for k, v in points)
    return {"formula": formula if fits else "no rational function of degree (2, 2) fits",
            "at n = 10": formula.subs(n, 10)}


COMPUTERS: dict[str, Computer] = {
    "simple.play": _play,
    "simple.matrix": _matrix,
    "simple.solve": _solve,
    "simple.mixture": _mixture,
    "simple.piecewise": _piecewise,
    "simple.large_bet": _large_bet_formula,
}
