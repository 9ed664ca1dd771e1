"""The strategic form of a two-player game solved as a matrix game: over every pure strategy, or over given ones.

A pure strategy chooses one action at every information set; the strategic
form tabulates each player's payoff for every pair of pure strategies (von
Neumann and Morgenstern 1944; seed 000 section 1's ``MNE``, seed 004's
``game(R)``).  Two-player zero-sum: the exact simplex solves the matrix game
(:func:`~exactpoker.solve.lp.simplex.solve_matrix_game`), and the optimal
mixtures over pure strategies become a behaviour profile through their
realization plans (Kuhn's theorem: the games have perfect recall).  The
table has a row per pure strategy, so this is for small games
(:func:`~exactpoker.solve.enumeration.pure.strategic_form` refuses large
ones) or for a game restricted to a few pure strategies (``strategies``: the
interval strategies of seed 000 section 1, the threshold tactics of seed 004).

Certificates: over every pure strategy the engine checks the profile on the
game itself (:func:`exactpoker.certify.verify`); over given pure strategies
the equilibrium is one of the restricted game, certified by the matrix game's
exact check (:func:`exactpoker.certify.verify_matrix_game`), whose ``scope``
says so.  :func:`solve_strategic` also returns the matrix game's exact check
and the mixtures (the result's ``details``).

``strategies`` gives, per player, one row of action indices per pure
strategy, one index per information set in layout order (as
:func:`~exactpoker.solve.enumeration.pure.all_choices` writes them).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from exactpoker.certify import Certificate, PlayerCheck, verify_matrix_game
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.profile import BehaviourProfile
from exactpoker.errors import InvalidParameterError
from exactpoker.solve.enumeration.pure import (
    choice_payoffs,
    matrix_pure_equilibria,
    pure_realization,
    strategic_form,
)
from exactpoker.solve.lp.simplex import solve_lp, solve_matrix_game

__all__ = ["Strategies", "payoff_table", "pure_strategies", "solve_strategic", "strategic_pure_equilibria",
           "weight_range"]

#: Per player, the pure strategies allowed: one row of action indices (one per information set) each.
Strategies = Sequence[Sequence[Sequence[int]]]


def pure_strategies(compiled: CompiledGame, strategies: Strategies) -> tuple[np.ndarray, np.ndarray]:
    """``strategies`` checked against the game's layouts, as two integer arrays (rows: pure strategies).

    Raises
    ------
    InvalidParameterError
        If there are not two players' lists, a list is empty, or a row has the
        wrong length or an action index the information set does not have.
    """
    if len(strategies) != 2 or compiled.num_players != 2:
        raise InvalidParameterError("strategies: give a list of pure strategies for each of the two players")
    arrays = []
    for p, (layout, rows) in enumerate(zip(compiled.layouts, strategies)):
        choices = np.array([list(row) for row in rows], dtype=np.int64).reshape(len(rows), -1)
        counts = np.array([len(layout.infoset_actions(i)) for i in range(layout.num_infosets)], dtype=np.int64)
        if not len(choices) or choices.shape[1] != len(counts) or (choices < 0).any() or (choices >= counts).any():
            raise InvalidParameterError(
                f"strategies: player {compiled.player_names[p]}'s pure strategies must each give an action index "
                f"for each of the {len(counts)} information sets (0 <= index < its number of actions)")
        arrays.append(choices)
    return arrays[0], arrays[1]


def payoff_table(compiled: CompiledGame, strategies: Strategies | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(rows, cols, m1, m2)``: both players' pure strategies and payoff numerators over ``compiled.denominator``.

    Every pure strategy (:func:`~exactpoker.solve.enumeration.pure.strategic_form`,
    mixed-radix order, the last information set fastest) or the given ones.
    """
    if strategies is None:
        return strategic_form(compiled)
    rows, cols = pure_strategies(compiled, strategies)
    return rows, cols, choice_payoffs(compiled, rows, cols), choice_payoffs(compiled, rows, cols, player=1)


def solve_strategic(compiled: CompiledGame, strategies: Strategies | None = None
                    ) -> tuple[BehaviourProfile, Certificate, dict[str, Any]]:
    """An optimal profile of the zero-sum matrix game, the matrix game's exact check, and the details.

    ``details`` holds ``mixtures`` (per player, ``[pure strategy, weight]``
    for each pure strategy of positive weight, in table order) and
    ``matrix_certificate`` (the matrix game's exact check, as JSON).
    """
    rows, cols, table, _ = payoff_table(compiled, strategies)
    mixed = solve_matrix_game(table.tolist())
    certificate = verify_matrix_game(table, mixed.row_strategy, mixed.column_strategy, compiled.denominator,
                                     names=tuple(compiled.player_names), scope=_scope(rows, cols, strategies))
    profile = _mixture_profile(compiled, (rows, cols), (mixed.row_strategy, mixed.column_strategy))
    mixtures = {name: [[[int(a) for a in choice], weight] for choice, weight in zip(choices, weights) if weight]
                for name, choices, weights in zip(compiled.player_names, (rows, cols),
                                                  (mixed.row_strategy, mixed.column_strategy))}
    return profile, certificate, {"mixtures": mixtures, "matrix_certificate": certificate.to_dict()}


def strategic_pure_equilibria(compiled: CompiledGame, strategies: Strategies
                              ) -> list[tuple[BehaviourProfile, Certificate]]:
    """Every pure equilibrium of the game restricted to ``strategies``, each with its exact check there.

    A cell where each player's strategy is a best reply, among the given
    ones, to the other's (each player's own table: general-sum too); the
    check gives each player's payoff and best reply among the given strategies.
    """
    rows, cols, m1, m2 = payoff_table(compiled, strategies)
    scope, d = _scope(rows, cols, strategies), compiled.denominator
    found = []
    for i, j in matrix_pure_equilibria(m1, m2):
        first = PlayerCheck(compiled.player_names[0], Fraction(int(m1[i, j]), d), Fraction(int(m1[:, j].max()), d))
        second = PlayerCheck(compiled.player_names[1], Fraction(int(m2[i, j]), d), Fraction(int(m2[i, :].max()), d))
        x = [Fraction(int(k == i)) for k in range(len(rows))]
        y = [Fraction(int(k == j)) for k in range(len(cols))]
        found.append((_mixture_profile(compiled, (rows, cols), (x, y)), Certificate((first, second), scope)))
    return found


def weight_range(compiled: CompiledGame, player: int, strategy: int, strategies: Strategies | None = None
                 ) -> tuple[Fraction, Fraction]:
    """The least and the greatest weight of ``player``'s pure strategy number ``strategy`` (in table order) over
    all of that player's optimal mixtures in the zero-sum strategic form (every or the given pure strategies).

    Two exact LPs over the polytope of optimal mixtures ``{x >= 0, sum x = 1,
    x^T M >= v}`` (``M`` oriented for ``player``, ``v`` the value).  Equal
    bounds: every optimal mixture gives the strategy that weight (is a printed
    mixture the only optimal one?).

    Raises
    ------
    InvalidParameterError
        If ``player`` is not 0 or 1 or ``strategy`` is not a row of the table.
    """
    rows, cols, table, _ = payoff_table(compiled, strategies)
    if player not in (0, 1) or not 0 <= strategy < (len(rows), len(cols))[player]:
        raise InvalidParameterError(f"weight_range(): player must be 0 or 1 and strategy one of its "
                                    f"{(len(rows), len(cols))[min(max(player, 0), 1)]} pure strategies")
    own = table.tolist() if player == 0 else (-table.T).tolist()
    value = solve_matrix_game(own).value
    k = len(own)
    a_ub = [[-own[i][j] for i in range(k)] for j in range(len(own[0]))]
    bounds = []
    for maximize in (False, True):
        cost = [int(i == strategy) for i in range(k)]
        bounds.append(solve_lp(cost, a_ub, [-value] * len(a_ub), [[1] * k], [1], maximize=maximize).objective)
    return bounds[0], bounds[1]


def _scope(rows: np.ndarray, cols: np.ndarray, strategies: Strategies | None) -> str:
    if strategies is None:
        return "all strategies"
    return f"the given pure strategies ({len(rows)} and {len(cols)})"


def _mixture_profile(compiled: CompiledGame, choices: tuple[np.ndarray, np.ndarray],
                     weights: tuple[Sequence[Fraction], Sequence[Fraction]]) -> BehaviourProfile:
    """The behaviour profile of mixtures over pure strategies: the mixed realization plans, read as behaviour."""
    plans = []
    for layout, rows, mixture in zip(compiled.layouts, choices, weights):
        realization = pure_realization(layout, rows)
        plan = [Fraction(0)] * layout.num_sequences
        for row, weight in zip(realization, mixture):
            if weight:
                for sequence in np.flatnonzero(row):
                    plan[sequence] += weight
        plans.append(plan)
    return BehaviourProfile.from_plans(compiled, plans)
