"""Simplified three-player Kuhn poker (SKP) inside the ``N = 4`` game.

Seed 003, section 4 and Appendix A (after Billingham, "Simplified three player
Kuhn poker", arXiv:1704.08124): take ``N = 4`` and force card 1 (the J) never
to bet or call.  Cards A, K, Q, J of the earlier paper are 4, 3, 2, 1 here.
Eleven frequencies remain non-trivial, in the seed's order

``x = (c2, d3, b1, a1, c3, d1, b2, a2, c1, d2, b3)``:

* ``a_i``, ``b_i``: player ``i`` bets the A, resp. bluffs the Q, at their
  opening node (1, 2, 3; ``a_3 = 1``);
* ``c_i``, ``d_i``: calls with the K facing a bet -- ``c2``, ``d3`` answer
  player 1's bet (nodes 10, 11), ``c3``, ``d1`` player 2's (nodes 7, 8),
  ``c1``, ``d2`` player 3's (nodes 4, 5).

Every other choice is fixed at its only sensible value (the Q never calls, the
K never opens nor overcalls, the A always bets or calls after the opening);
the certificate checks that those values are optimal, and only card 1's
choices are rules of SKP (forced).

Functions
---------
:func:`conditions`
    The eleven gains ``f_1 .. f_11`` of eq. (13) derived from the rules, as
    sympy expressions in the eleven frequencies and ``P``.
:func:`solution_one`
    Solution 1 (eq. 14) derived from them: ``b_3``, ``d_2`` and the ranges
    of ``c_2 + d_3`` and ``c_3 + d_1`` as functions of ``P``.
:func:`certify_solution_one`
    The profile of solution 1 at a rational ``P`` in ``[2, 3]``, certified.
:func:`equilibrium`
    An exact certified SKP equilibrium at any rational pot (float guide,
    exact finish).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import sympy

from exactpoker.certify_sequential import SequentialCertificate, verify_sequential
from exactpoker.errors import InvalidParameterError
from exactpoker.games.papers import kuhn3
from exactpoker.numbers import exact_str, to_fraction
from exactpoker.results import SolveResult

__all__ = ["NAME", "VARIABLES", "P", "fixings", "forced", "conditions", "solution_one",
           "certify_solution_one", "equilibrium"]

NAME = "kuhn3-skp"
CARDS = 4
#: The seed's eleven SKP frequencies, in its order, as (node, card).
VARIABLES: dict[str, tuple[int, int]] = {
    "c2": (10, 3), "d3": (11, 3), "b1": (1, 2), "a1": (1, 4), "c3": (7, 3), "d1": (8, 3),
    "b2": (2, 2), "a2": (2, 4), "c1": (4, 3), "d2": (5, 3), "b3": (3, 2),
}
P = sympy.Symbol("P", positive=True)
SYMBOLS = {name: sympy.Symbol(name) for name in VARIABLES}


def fixings() -> dict[int, dict[int, int]]:
    """``{node: {card: value}}`` for every choice outside the eleven.

    Card 1 never bets or calls (the rule); the Q never calls; the K never
    opens and never calls when a player has already called; the A bets or
    calls at nodes 3 to 12.
    """
    free = set(VARIABLES.values())
    table: dict[int, dict[int, int]] = {}
    for node in kuhn3.NODES:
        for card in range(1, CARDS + 1):
            if (node, card) not in free:
                table.setdefault(node, {})[card] = 1 if card == 4 else 0
    return table


def _extra() -> tuple[tuple[int, int, int], ...]:
    return tuple(sorted((node, card, v) for node, cards in fixings().items() for card, v in cards.items()))


def forced() -> list[tuple[int, int]]:
    """The information sets SKP's rules fix: every choice of card 1, as ``(player, infoset)``."""
    g = kuhn3.compiled(CARDS, 3)
    out = []
    for node in kuhn3.NODES:
        player = kuhn3.node_player(node)
        layout = g.layouts[player]
        out.append((player, layout.infoset(1, layout.labels.index(str(node)))))
    return out


@lru_cache(maxsize=1)
def conditions() -> tuple[sympy.Expr, ...]:
    """``f_1 .. f_11``: the gain of the aggressive action at each of the eleven, from the rules.

    Derived from the compiled game's payoff polynomials at ``P = 3`` and
    ``P = 6`` (payoffs are affine in ``P``), with every other choice at its
    SKP value.  Each is the derivative of its owner's payoff (the owner's own
    reach is 1 at all eleven); the seed's eq. (13) gives them up to positive
    factors.
    """
    polys = {}
    for pot in (3, 6):
        g = kuhn3.compiled(CARDS, pot)
        polys[pot] = g.payoff_polynomials()
    names = {}
    for node in kuhn3.NODES:
        for card in range(1, CARDS + 1):
            names[(node, card)] = sympy.Symbol(f"{kuhn3.node_player(node) + 1}_{node}_{card}")
    substitution = {names[(node, card)]: v for node, cards in fixings().items() for card, v in cards.items()}
    rename = {names[nc]: SYMBOLS[name] for name, nc in VARIABLES.items()}
    result = []
    for name, (node, card) in VARIABLES.items():
        player = kuhn3.node_player(node)
        per_pot = [sympy.diff(polys[pot][player], names[(node, card)]).subs(substitution).subs(rename)
                   for pot in (3, 6)]
        result.append(sympy.expand(per_pot[0] + (P - 3) / 3 * (per_pot[1] - per_pot[0])))
    return tuple(result)


def solution_one() -> dict[str, sympy.Expr]:
    """Solution 1 of SKP (seed 003, eq. 14) derived from :func:`conditions`.

    Support: ``a1 = b1 = a2 = b2 = c1 = 0`` (with ``f <= 0`` there), ``b3``
    and ``d2`` mixed (``f_10 = f_11 = 0``), and the calls ``c2, d3`` and
    ``c3, d1`` free within the ranges where ``b1 = 0``, ``a1 = 0``
    (``f_3, f_4 <= 0``), resp. ``b2 = 0``, ``a2 = 0`` (``f_7, f_8 <= 0``)
    stay optimal.  Returns ``b3``, ``d2``, and the lower and upper ends of
    ``c2 + d3`` and ``c3 + d1``, each a rational function of ``P``.
    """
    f = dict(zip(VARIABLES, conditions()))
    s = SYMBOLS
    zero = {s[v]: 0 for v in ("a1", "b1", "a2", "b2", "c1")}
    # d2 mixed: player 2 indifferent, which fixes player 3's bluffs; b3 mixed fixes the calls d2
    b3 = sympy.solve(f["d2"].subs(zero), s["b3"])[0]
    d2 = sympy.solve(f["b3"].subs(zero), s["d2"])[0]
    known = {**zero, s["b3"]: b3, s["d2"]: d2}
    total = sympy.Symbol("S")
    out = {"b3": sympy.factor(b3), "d2": sympy.factor(d2)}
    for first, second, bluff, value in (("c2", "d3", "b1", "a1"), ("c3", "d1", "b2", "a2")):
        ends = []
        for which in (bluff, value):
            expr = f[which].subs(known).subs(s[second], total - s[first])
            expr = sympy.expand(expr)
            if expr.has(s[first]):  # pragma: no cover - the calls enter only through their sum
                raise ValueError(f"{which}: the calls do not enter through {first} + {second}")
            ends.append(sympy.factor(sympy.solve(expr, total)[0]))
        out[f"{first}+{second} min"], out[f"{first}+{second} max"] = ends
    return out


def certify_solution_one(pot: object, share: object = Fraction(1, 2)) -> SequentialCertificate:
    """Solution 1 at a rational ``P`` in ``[2, 3]``, its calls at ``share`` of their ranges, certified.

    ``share`` in ``[0, 1]`` places ``c2 + d3`` and ``c3 + d1`` between their
    lower (0) and upper (1) ends; the sum is split equally between the two
    calls.  Returns the sequential certificate in the SKP game (card 1's
    choices forced).
    """
    p = to_fraction(pot, "pot")
    if not 2 <= p <= 3:
        raise InvalidParameterError(f"pot must be in [2, 3] for solution 1; got {exact_str(p)}")
    t = to_fraction(share, "share")
    if not 0 <= t <= 1:
        raise InvalidParameterError(f"share must be in [0, 1]; got {exact_str(t)}")
    sol = {k: v.subs(P, sympy.Rational(p.numerator, p.denominator)) for k, v in solution_one().items()}
    value = {"a1": 0, "b1": 0, "a2": 0, "b2": 0, "c1": 0, "b3": sol["b3"], "d2": sol["d2"]}
    for first, second in (("c2", "d3"), ("c3", "d1")):
        low, high = sol[f"{first}+{second} min"], sol[f"{first}+{second} max"]
        total = low + (high - low) * sympy.Rational(t.numerator, t.denominator)
        value[first] = value[second] = total / 2
    g = kuhn3.compiled(CARDS, p)
    table = {str(node): [Fraction(0)] * CARDS for node in kuhn3.NODES}
    for node, cards in fixings().items():
        for card, v in cards.items():
            table[str(node)][card - 1] = Fraction(v)
    for name, (node, card) in VARIABLES.items():
        table[str(node)][card - 1] = to_fraction(sympy.Rational(value[name]), name)
    return verify_sequential(g, kuhn3.profile_from_nodes(g, table), forced())


def equilibrium(pot: object, *, eps: float = kuhn3.EPSILON) -> SolveResult:
    """An exact SKP equilibrium at pot ``P`` (float guide, exact finish), certified in SKP."""
    p = kuhn3.parse_pot(pot)
    x, trend = kuhn3.float_guide(CARDS, p, eps=eps, extra=_extra())
    solution = kuhn3.exact_from_guide(CARDS, p, x, _extra(), forced(), trend=trend)
    return kuhn3.result_of(CARDS, p, solution, "regularised system (seed 003 section 4), exact finish", NAME)
