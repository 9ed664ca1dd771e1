"""Expected payoffs of a piecewise-constant profile, as exact piecewise polynomials in the own hand.

Hands are independent and uniform on ``[0, 1]``.  Fix player ``p``'s hand
``x``.  A leaf ``L`` is reached with probability the product of every
player's behaviour along ``L``'s steps; for another player ``q`` that factor
is a step function ``r_q(y)`` of ``q``'s hand, so integrating over ``y`` gives
``R_q = int_0^1 r_q`` (``q`` reaches ``L`` whatever ``p`` holds) and
``W_q(x) = int_0^x r_q`` (``q`` reaches ``L`` holding less than ``x``).  The
hands being independent, ``p``'s expected payoff at ``L`` is a product of
such one-dimensional integrals:

* ``-c_p * prod_{q != p} R_q``: ``p``'s contribution is lost, and
* ``pot * prod_{q in active, q != p} W_q(x) * prod_{q not active} R_q`` if
  ``p`` is still in at a showdown (``p`` holds the highest hand), or
  ``pot / |active| * prod_{q != p} R_q`` when the pot is shared.

On each elementary interval of the profile ``W_q`` is affine in ``x``, so
``p``'s payoff is a polynomial of degree at most ``N - 1`` (``N`` players):
linear for two players, quadratic for three.

:func:`action_values` gives the *counterfactual* value of every action of
every information set of ``p`` at every hand: the sum over the leaves below
that action (over every node of the information set: simultaneous moves and
unseen moves share labels) of ``p``'s own later behaviour times the payoff
above.  It does not weigh ``p``'s own earlier moves, so an action's value is
what ``p`` gets by taking it at that hand given that the decision is reached.
:func:`values` integrates each player's payoff over the own hand.

Polynomials in ``x`` are tuples of coefficients, constant first, over any
exact ring (sympy expressions, rationals, algebraic numbers of one field).
"""

from __future__ import annotations

from typing import Any, Sequence

from exactpoker.solve.continuous.model import BettingModel
from exactpoker.solve.continuous.profile import PiecewiseProfile

__all__ = ["Poly", "add", "subtract", "multiply", "evaluate", "integrate", "action_values", "all_action_values",
           "values", "reach"]

#: A polynomial in the own hand: coefficients, constant term first.
Poly = tuple[Any, ...]


def add(p: Poly, q: Poly) -> Poly:
    longer, shorter = (p, q) if len(p) >= len(q) else (q, p)
    return tuple(c + shorter[k] if k < len(shorter) else c for k, c in enumerate(longer))


def subtract(p: Poly, q: Poly) -> Poly:
    size = max(len(p), len(q))
    return tuple((p[k] if k < len(p) else 0) - (q[k] if k < len(q) else 0) for k in range(size))


def multiply(p: Poly, q: Poly) -> Poly:
    if not p or not q:
        return ()
    out: list[Any] = [0] * (len(p) + len(q) - 1)
    for i, a in enumerate(p):
        if a == 0:
            continue
        for j, b in enumerate(q):
            out[i + j] = out[i + j] + a * b
    return tuple(out)


def scale(p: Poly, c: Any) -> Poly:
    return tuple(c * a for a in p)


def evaluate(p: Poly, x: Any) -> Any:
    total: Any = 0
    for c in reversed(p):
        total = total * x + c
    return total


def integrate(p: Poly, low: Any, high: Any) -> Any:
    """``int_low^high p(x) dx``."""
    from fractions import Fraction

    total: Any = 0
    for k, c in enumerate(p):
        if c != 0:
            total = total + c * Fraction(1, k + 1) * (high ** (k + 1) - low ** (k + 1))
    return total


def reach(model: BettingModel, profile: PiecewiseProfile, player: int, steps: Sequence[tuple[int, int]]
          ) -> list[Any]:
    """``player``'s probability of taking its actions among ``steps``, on each elementary interval."""
    return [_own(model, profile, player, steps, i) for i in range(profile.intervals)]


class _Cumulative:
    """``W_q`` and ``R_q`` of one player's reach along one leaf."""

    def __init__(self, rates: list[Any], breaks: Sequence[Any], lengths: Sequence[Any]) -> None:
        self.rates = rates
        self.breaks = breaks
        running: Any = 0
        self.below: list[Any] = []
        for rate, length in zip(rates, lengths):
            self.below.append(running)
            running = running + rate * length
        self.total = running

    def up_to(self, i: int) -> Poly:
        """``W_q(x)`` for ``x`` in elementary interval ``i``: affine in ``x``."""
        return (self.below[i] - self.rates[i] * self.breaks[i], self.rates[i])


class _Leaves:
    """Every leaf's reach factors for every player, computed once per profile."""

    def __init__(self, model: BettingModel, profile: PiecewiseProfile) -> None:
        self.model, self.profile = model, profile
        lengths = profile.lengths()
        self.cumulative = [[_Cumulative(reach(model, profile, q, leaf.steps), profile.breaks, lengths)
                            for q in range(model.num_players)] for leaf in model.leaves]
        self.known: dict[tuple[int, int, int], Poly] = {}

    def payoff(self, player: int, index: int, i: int) -> Poly:
        """``player``'s expected payoff at leaf ``index`` with the own hand in interval ``i``, given it is reached
        by ``player``'s own moves (the others' reach and hands integrated); computed once."""
        key = (player, index, i)
        if key not in self.known:
            self.known[key] = self._payoff(player, index, i)
        return self.known[key]

    def _payoff(self, player: int, index: int, i: int) -> Poly:
        leaf = self.model.leaves[index]
        others = [q for q in range(self.model.num_players) if q != player]
        reached: Any = 1
        for q in others:
            reached = reached * self.cumulative[index][q].total
        result: Poly = (-leaf.contributions[player] * reached,)
        if player not in leaf.active:
            return result
        pot = sum(leaf.contributions)
        if not leaf.showdown or len(leaf.active) == 1:
            return add(result, (pot / len(leaf.active) * reached,))
        win: Poly = (pot,)
        for q in others:
            factor = self.cumulative[index][q].up_to(i) if q in leaf.active else (self.cumulative[index][q].total,)
            win = multiply(win, factor)
        return add(result, win)


def _own(model: BettingModel, profile: PiecewiseProfile, player: int, steps: Sequence[tuple[int, int]], i: int
         ) -> Any:
    product: Any = 1
    for h, a in steps:
        if model.infosets[h].player == player:
            product = product * profile.behaviour[h][i][a]
    return product


def all_action_values(model: BettingModel, profile: PiecewiseProfile) -> dict[tuple[int, int], list[Poly]]:
    """:func:`action_values` of every player (the leaves' reach integrated once)."""
    leaves = _Leaves(model, profile)
    result: dict[tuple[int, int], list[Poly]] = {}
    for player in range(model.num_players):
        result.update(action_values(model, profile, player, leaves))
    return result


def action_values(model: BettingModel, profile: PiecewiseProfile, player: int, leaves: "_Leaves | None" = None
                  ) -> dict[tuple[int, int], list[Poly]]:
    """``(h, a) -> [value polynomial on each elementary interval]`` for every information set ``h`` of ``player``."""
    leaves = leaves if leaves is not None else _Leaves(model, profile)
    result: dict[tuple[int, int], list[Poly]] = {}
    for h in model.infosets_of(player):
        for a in range(len(model.infosets[h].actions)):
            result[(h, a)] = [() for _ in range(profile.intervals)]
    for index, leaf in enumerate(model.leaves):
        for position, (h, a) in enumerate(leaf.steps):
            if model.infosets[h].player != player:
                continue
            later = leaf.steps[position + 1:]
            for i in range(profile.intervals):
                own = _own(model, profile, player, later, i)
                if own == 0:
                    continue
                result[(h, a)][i] = add(result[(h, a)][i], scale(leaves.payoff(player, index, i), own))
    return result


def values(model: BettingModel, profile: PiecewiseProfile) -> list[Any]:
    """Each player's expected payoff: ``int_0^1`` of the own payoff over the own hand."""
    leaves = _Leaves(model, profile)
    totals: list[Any] = []
    for player in range(model.num_players):
        total: Any = 0
        for i in range(profile.intervals):
            low, high = profile.breaks[i], profile.breaks[i + 1]
            for index, leaf in enumerate(model.leaves):
                own = _own(model, profile, player, leaf.steps, i)
                if own != 0:
                    total = total + own * integrate(leaves.payoff(player, index, i), low, high)
        totals.append(total)
    return totals
