"""The equilibria on one support, exactly, as functions of its free (pinned) variables.

Seed 003 (Billingham, three-player Kuhn poker, section 3) finds families of
equilibria: on one support the indifference equations leave some interior
variables free.  :func:`family` solves them symbolically (sympy, small games)
for the other interior variables, with the conditions under which a point of
the family is an equilibrium; :func:`symbolic_gains` gives every variable's
counterfactual gain as a polynomial.  The exact finish that finds the support
is :mod:`exactpoker.solve.nplayer.finish`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from exactpoker.core.compiled import CompiledGame
from exactpoker.errors import DegenerateSystemError

if TYPE_CHECKING:  # pragma: no cover
    import sympy

    from exactpoker.solve.nplayer.finish import ExactSolution

__all__ = ["Family", "symbolic_gains", "family"]


@dataclass(frozen=True)
class Family:
    """The equilibria on one support, exactly, as functions of the pinned variables.

    ``parameters`` are the pinned variables' sympy symbols; ``solution`` gives
    every other interior variable in terms of them; ``values`` each player's
    payoff; ``constraints`` the conditions (sympy relations in the parameters)
    for the point to be an equilibrium: interior variables in ``[0, 1]``,
    and the gains at variables set to 0 (``<= 0``) or 1 (``>= 0``).
    """

    parameters: dict[int, "sympy.Symbol"]
    solution: dict[int, "sympy.Expr"]
    values: list["sympy.Expr"]
    constraints: list["sympy.Basic"]


def symbolic_gains(compiled: CompiledGame) -> tuple[list["sympy.Symbol"], list["sympy.Expr"]]:
    """Every variable's sympy symbol and its counterfactual gain as a polynomial (small games only).

    The gain is the derivative of the owner's payoff polynomial divided by
    the owner's own probability of reaching the information set.
    """
    import sympy

    from exactpoker.core.polynomials import behaviour_symbols

    payoffs = compiled.payoff_polynomials()
    symbols, gains = [], []
    for p, layout in enumerate(compiled.layouts):
        table = behaviour_symbols(compiled, p)
        for infoset in range(layout.num_infosets):
            card, label = layout.infoset_card_label(infoset)
            symbols.append(table[(card, layout.labels[label])][1])
        for infoset in range(layout.num_infosets):
            card, label = layout.infoset_card_label(infoset)
            parent = layout.parent[label]
            reach = 1 if parent is None else table[(card, layout.labels[parent[0]])][parent[1]]
            gains.append(sympy.cancel(sympy.diff(payoffs[p], symbols[-layout.num_infosets + infoset]) / reach))
    return symbols, gains


def family(compiled: CompiledGame, solution: ExactSolution) -> Family:
    """The exact set of equilibria on ``solution``'s support, parametrised by its pinned variables.

    The indifference equations of the interior variables are solved with
    sympy for the interior variables that are not pinned (small games only:
    the payoff polynomials are built in full).
    """
    import sympy

    symbols, gains = symbolic_gains(compiled)
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
    payoffs = compiled.payoff_polynomials()
    values = [sympy.factor(sympy.expand(e.subs(point))) for e in payoffs]
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
    return Family({k: symbols[k] for k in solution.pinned}, solved, values, constraints)
