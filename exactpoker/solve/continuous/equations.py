"""A shape's exact system: indifference at the cut points, identities on the mixed segments.

For a :class:`~exactpoker.solve.continuous.profile.Shape` every payoff is a
polynomial in the own hand on each elementary interval
(:mod:`~exactpoker.solve.continuous.payoffs`), with the unknowns (cut points,
mixing probabilities) and the game's parameters in its coefficients.  An
equilibrium of that shape satisfies:

* at a cut point ``t`` of information set ``h`` between two segments with no
  action in common, the player holding ``t`` is indifferent between them:
  ``v(h, a)(t) = v(h, a')(t)`` (the payoffs are continuous in the hand at a
  cut point of another information set);
* on every elementary interval inside a mixed segment, every action mixed
  there earns the same at every hand: each coefficient of
  ``v(h, a) - v(h, a_0)`` vanishes (Goldman and Stone's condition on
  ``(g, g')``, seed 002, section 5).

A cut between a pure segment and a mixed one that contains its action needs
no equation of its own: the identity on the mixed segment gives it by
continuity.  These are necessary conditions; the certificate
(:mod:`~exactpoker.solve.continuous.certificate`) decides sufficiency.
"""

from __future__ import annotations

import sympy

from exactpoker.solve.continuous.model import BettingModel
from exactpoker.solve.continuous.payoffs import action_values, all_action_values, evaluate, subtract
from exactpoker.solve.continuous.profile import Shape

__all__ = ["shape_equations", "indifference_gap", "X"]

#: The own hand, the variable of every payoff polynomial.
X = sympy.Symbol("x")


def indifference_gap(model: BettingModel, shape: Shape, cut: tuple[int, int], first: int, second: int) -> sympy.Expr:
    """``v(h, first) - v(h, second)`` at the cut point ``cut = (h, k)`` (expanded): what a player is indifferent
    about there."""
    h = cut[0]
    profile = shape.profile([len(infoset.actions) for infoset in model.infosets])
    values = action_values(model, profile, model.infosets[h].player)
    place = shape.place_of(cut)
    return sympy.expand(evaluate(subtract(values[(h, first)][place], values[(h, second)][place]), shape.symbol_of(cut)))


def shape_equations(model: BettingModel, shape: Shape) -> list[sympy.Expr]:
    """The shape's equations (module docstring), expanded, without zeros and repeats."""
    actions = [len(infoset.actions) for infoset in model.infosets]
    profile = shape.profile(actions)
    values = all_action_values(model, profile)
    equations: list[sympy.Expr] = []
    for h, segments in enumerate(shape.segments):
        for k in range(len(segments) - 1):
            left, right = segments[k], segments[k + 1]
            if set(left) & set(right):
                continue
            place = shape.place_of((h, k))  # the cut ends elementary interval ``place``
            gap = subtract(values[(h, left[0])][place], values[(h, right[0])][place])
            equations.append(evaluate(gap, shape.symbol_of((h, k))))
        for s, support in enumerate(segments):
            if len(support) < 2:
                continue
            for i in range(len(shape.order) + 1):
                if shape.segment_of(h, i) != s:
                    continue
                for a in support[1:]:
                    equations.extend(subtract(values[(h, a)][i], values[(h, support[0])][i]))
    expanded = (sympy.expand(e) for e in equations)
    return list(dict.fromkeys(e for e in expanded if e != 0))
