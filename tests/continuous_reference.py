"""An independent derivation of two-player continuous poker games, for checking the continuous engine.

The engine integrates one hand at a time (each payoff a piecewise polynomial
in the own hand, the opponent's reach integrated separately).  This module
does it the textbook way instead: both players' threshold strategies cut the
unit square of hands ``(x, y)`` into rectangles; on each the actions are
fixed and the payoff is one number where ``x > y`` and another where
``x < y``, so the expected payoff is a sum of exact areas.  The cut points are
then found from the first-order conditions ``dE_p / dt = 0`` for every cut
point ``t`` of player ``p`` (the payoff of the action on the left of ``t``
equals that on the right: von Neumann and Morgenstern's derivation, TGEB
19.7), solved by sympy.  Nothing here reads the engine's payoffs.
"""

from __future__ import annotations

from typing import Callable, Sequence

import sympy

#: ``payoff(first_plan, second_plan, first_higher)`` -> the first player's payoff (a number).
Payoff = Callable[[dict, dict, bool], object]


def expected_payoff(payoff: Payoff, first: dict[str, list], second: dict[str, list],
                    breaks: Sequence[sympy.Expr]) -> sympy.Expr:
    """The first player's expected payoff when each player's plan on each interval of ``breaks`` is given.

    ``first[label][i]`` is the first player's action at ``label`` on the ``i``-th interval of the common
    partition ``0 = breaks[0] <= ... <= breaks[-1] = 1`` (both players' cut points, in their order).
    """
    total = sympy.Integer(0)
    count = len(breaks) - 1
    for i in range(count):
        for j in range(count):
            plan_x = {label: actions[i] for label, actions in first.items()}
            plan_y = {label: actions[j] for label, actions in second.items()}
            width_x, width_y = breaks[i + 1] - breaks[i], breaks[j + 1] - breaks[j]
            if i == j:  # the square on the diagonal: x > y on half of it
                area = width_x * width_y / 2
                total += area * payoff(plan_x, plan_y, True) + area * payoff(plan_x, plan_y, False)
            else:
                total += width_x * width_y * payoff(plan_x, plan_y, i > j)
    return sympy.expand(total)


def solve_cuts(value: sympy.Expr, first_cuts: Sequence[sympy.Symbol], second_cuts: Sequence[sympy.Symbol]
               ) -> dict[sympy.Symbol, sympy.Expr]:
    """The cut points from the first-order conditions: the first player maximises ``value`` over its cut
    points, the second minimises it over its own (a zero-sum game)."""
    equations = [sympy.diff(value, t) for t in (*first_cuts, *second_cuts)]
    solutions = sympy.solve(equations, [*first_cuts, *second_cuts], dict=True)
    inside = [s for s in solutions if all(v.is_number and 0 <= v <= 1 for v in s.values())]
    assert len(inside) == 1, solutions
    return inside[0]
