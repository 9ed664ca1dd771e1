"""The equilibria on one support, exactly, as functions of its free (pinned) variables.

Seed 003 (Billingham, three-player Kuhn poker, section 3) finds families of equilibria: on one support the
indifference equations leave some interior variables free.  :func:`family` solves them symbolically (sympy, small
games) for the other interior variables, with the conditions under which a point of the family is an
equilibrium.  The gains and payoffs are the engine's one builder's
(:func:`exactpoker.core.support_system.gain_polynomials`, every variable an unknown); the family is the engine's
one :class:`~exactpoker.solve.algebra.polynomial_system.Family`.  The exact finish that finds the support is
:mod:`exactpoker.solve.nplayer.finish`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sympy

from exactpoker.core.compiled import CompiledGame
from exactpoker.core.polynomials import behaviour_symbols
from exactpoker.core.support_system import as_sympy, gain_polynomials
from exactpoker.errors import DegenerateSystemError
from exactpoker.solve.algebra.polynomial_system import Family

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.solve.nplayer.point import CertifiedPoint

__all__ = ["symbolic_gains", "family"]


def symbolic_gains(compiled: CompiledGame) -> tuple[list[sympy.Symbol], list[sympy.Expr], list[sympy.Expr]]:
    """Every variable's sympy symbol, its counterfactual gain and every player's payoff, as polynomials.

    The symbols are :func:`~exactpoker.core.polynomials.behaviour_symbols`' (the probability of the last action
    at each information set, player by player in layout order).  Small games only: every variable is an unknown.
    """
    symbols = []
    for p, layout in enumerate(compiled.layouts):
        table = behaviour_symbols(compiled, p)
        for infoset in range(layout.num_infosets):
            card, label = layout.infoset_card_label(infoset)
            symbols.append(table[(card, layout.labels[label])][1])
    system = gain_polynomials(compiled, [0] * len(symbols), list(range(len(symbols))))
    return (symbols, [as_sympy(g, symbols) for g in system.gains], [as_sympy(v, symbols) for v in system.payoffs])


def family(compiled: CompiledGame, solution: "CertifiedPoint") -> Family:
    """The exact set of equilibria on ``solution``'s support, parametrised by its pinned variables.

    The indifference equations of the interior variables are solved with sympy for the interior variables that
    are not pinned.  ``parameters`` are the pinned variables' symbols, ``parametrisation`` every other interior
    variable in terms of them, ``values`` each player's payoff, ``constraints`` the conditions (sympy relations
    in the parameters) for the point to be an equilibrium: interior variables in ``[0, 1]``, and the gains at
    variables set to 0 (``<= 0``) or 1 (``>= 0``).
    """
    symbols, gains, payoffs = symbolic_gains(compiled)
    interior = set(solution.interior)
    known = {symbols[k]: solution.x[k] for k in range(len(symbols)) if k not in interior}
    unknown = [k for k in solution.interior if k not in solution.pinned]
    equations = [sympy.expand(gains[k].subs(known)) for k in solution.interior]
    found = sympy.solve(equations, [symbols[k] for k in unknown], dict=True)
    if len(found) != 1:
        raise DegenerateSystemError(f"family(): expected one solution family on the support; got {len(found)}")
    answer = found[0]
    solved = {k: sympy.factor(answer.get(symbols[k], symbols[k])) for k in unknown}
    point = {**known, **{symbols[k]: solved[k] for k in unknown}}
    values = tuple(sympy.factor(sympy.expand(e.subs(point))) for e in payoffs)
    constraints: list[sympy.Basic] = []
    for k in unknown:
        constraints += [solved[k] >= 0, solved[k] <= 1]
    for k in solution.pinned:
        constraints += [symbols[k] >= 0, symbols[k] <= 1]
    for k in solution.zeros:
        constraints.append(sympy.expand(gains[k].subs(point)) <= 0)
    for k in solution.ones:
        constraints.append(sympy.expand(gains[k].subs(point)) >= 0)
    constraints = [c for c in constraints if c is not sympy.true]
    return Family(tuple(symbols[k] for k in unknown), tuple(equations), len(solution.pinned),
                  parameters=tuple(symbols[k] for k in solution.pinned),
                  parametrisation=tuple(solved[k] for k in unknown), values=values, constraints=tuple(constraints))
