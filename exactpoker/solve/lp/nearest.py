"""The optimal strategy nearest to a target: an exact LP over a player's set of optimal strategies.

In a two-player zero-sum game each player's optimal strategies form a polytope
(in realization plans), and any optimal strategy of one player with any of the
other is an equilibrium.  :func:`nearest_optimal` finds, for one player, the
optimal strategy whose realization plan is nearest in L1 to a target's
(``solve_game(game, nearest=target)``; seed 002's Lemma 8 discretised is such
a target).  Steps, all exact:

1. an optimal strategy ``y*`` of the opponent (from the engine's solve) and
   the value ``v``: every optimal ``x`` is a best response to ``y*``, so
   ``x`` puts no weight on a sequence whose action is not optimal against
   ``y*``, and where only one action is optimal below a fixed weight, ``x``
   follows it.  This only shrinks the LP to the *free* weights, where ``y*``
   leaves a tie.
2. on the free weights: the realization constraints ``E x = e``;
   ``F^T q - B^T x <= 0`` with ``q_0 >= v`` (``B`` the player's payoffs,
   ``F`` the opponent's realization constraints: LP duality says ``x``
   guarantees ``v`` against every strategy of the opponent);
   ``d >= |x - target|``; minimize ``sum d``.  Solved by the exact simplex
   (:func:`~exactpoker.solve.lp.simplex.solve_lp`): from scratch
   (``method="simplex"``), or from HiGHS's basis, checked and pivoted on to
   exact optimality (``"basis"``): the answer is the exact LP optimum either way.
3. the engine certifies the profile (:func:`exactpoker.certify.verify`).

References
----------
D. Koller, N. Megiddo, B. von Stengel, "Efficient computation of equilibria
for extensive two-person games", Games and Economic Behavior 14 (1996): the
sequence form and its LP duality.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping, Sequence

from exactpoker.core.compiled import CompiledGame, SequenceLayout
from exactpoker.core.evaluate import best_response, sequence_values
from exactpoker.core.profile import BehaviourProfile, behaviour_from_plan, realization_weights
from exactpoker.errors import InvalidParameterError
from exactpoker.numbers import to_fraction
from exactpoker.solve.lp.sequence_form import realization_matrix
from exactpoker.solve.lp.simplex import solve_lp

__all__ = ["nearest_optimal", "target_plan"]

#: The exact LP's method by the vocabulary's name (``"auto"``: from scratch up to this many sequences).
_LP_METHODS = {"simplex": "exact", "basis": "float-guided"}
EXACT_UP_TO = 100


def target_plan(compiled: CompiledGame, player: int, target: Mapping[str, Sequence[object]]) -> list[Fraction]:
    """The realization plan of a target behaviour strategy given per information set name.

    Raises
    ------
    InvalidParameterError
        If an information set is missing or its probabilities are not as many
        as its actions.
    """
    layout = compiled.layouts[player]
    strategy = []
    for i in range(layout.num_infosets):
        name, actions = layout.infoset_name(i), layout.infoset_actions(i)
        row = target.get(name)
        if row is None or len(row) != len(actions):
            raise InvalidParameterError(f"nearest: player {compiled.player_names[player]}'s target needs, for "
                                        f"information set {name!r}, {len(actions)} probabilities")
        strategy.append(tuple(to_fraction(v, "nearest") for v in row))
    return realization_weights(layout, tuple(strategy))


def nearest_optimal(compiled: CompiledGame, player: int, optimal: BehaviourProfile, value: Fraction,
                    target: list[Fraction], method: str = "auto") -> tuple[tuple[tuple[Fraction, ...], ...], dict]:
    """``player``'s optimal strategy nearest in L1 to the realization plan ``target`` (module docstring).

    ``optimal`` is an optimal profile (its opponent's strategy is ``y*``) and
    ``value`` the player's value.  Returns the behaviour strategy and what the
    result's ``details`` say of it: the L1 distance of the realization plans,
    and the LP solved.
    """
    layout = compiled.layouts[player]
    fixed, free = _best_reply_support(compiled, player, optimal)
    plan = list(fixed)
    text = "every weight fixed by the best replies to the opponent's optimal strategy"
    if free:
        lp = _LP_METHODS.get(method, "exact" if layout.num_sequences <= EXACT_UP_TO else "float-guided")
        weights, text = _nearest_lp(compiled, player, fixed, free, target, value, lp)
        for sequence, weight in zip(free, weights):
            plan[sequence] = weight
    distance = sum((abs(x - t) for x, t in zip(plan, target)), Fraction(0))
    return behaviour_from_plan(layout, plan), {"distance": distance, "free_weights": len(free), "method": text}


def _best_reply_support(compiled: CompiledGame, player: int, optimal: BehaviourProfile
                        ) -> tuple[list[Fraction | None], list[int]]:
    """Step 1: the weights the best replies to ``y*`` fix (``None`` where free), and the free sequences in order."""
    layout = compiled.layouts[player]
    plans: list[list[Fraction] | None] = [optimal.realization(compiled, p) for p in range(compiled.num_players)]
    plans[player] = None
    _, best = best_response(layout, sequence_values(compiled, player, plans))
    fixed: list[Fraction | None] = [Fraction(1)] + [Fraction(0)] * (layout.num_sequences - 1)
    for i in range(layout.num_infosets):  # parents come before their children in sequence order
        parent, sequences = fixed[layout.parent_sequence(i)], layout.infoset_sequences(i)
        for a in best[i]:
            fixed[sequences[a]] = parent if len(best[i]) == 1 and parent is not None else None
        if parent == 0:
            for a in best[i]:
                fixed[sequences[a]] = Fraction(0)
    return fixed, [s for s, weight in enumerate(fixed) if weight is None]


def _nearest_lp(compiled: CompiledGame, player: int, fixed: list[Fraction | None], free: list[int],
                target: list[Fraction], value: Fraction, method: str) -> tuple[list[Fraction], str]:
    """Step 2: the exact LP in ``(free x, q, d)``; the free weights and how they were found."""
    layout, other = compiled.layouts[player], compiled.layouts[1 - player]
    m = len(free)
    column = {sequence: j for j, sequence in enumerate(free)}
    f = realization_matrix(other).toarray()
    nq = f.shape[0]
    total = m + nq + m
    payoff: list[dict[int, int]] = [dict() for _ in range(other.num_sequences)]
    own, theirs = compiled.sequences[:, player].tolist(), compiled.sequences[:, 1 - player].tolist()
    for s, t, v in zip(own, theirs, compiled.coefficients[:, player].tolist()):
        payoff[t][s] = payoff[t].get(s, 0) + int(v)
    a_ub: list[list[Any]] = []
    b_ub: list[Any] = []
    for t in range(other.num_sequences):  # F^T q - B^T x <= 0, the fixed weights moved to the right
        row: list[Any] = [0] * total
        constant = Fraction(0)
        for s, v in payoff[t].items():
            if s in column:
                row[column[s]] -= v
            elif fixed[s]:
                constant += v * fixed[s]
        for k in range(nq):
            if f[k, t]:
                row[m + k] = int(f[k, t])
        a_ub.append(row)
        b_ub.append(constant)
    row = [0] * total
    row[m] = -1  # q_0 >= v: x guarantees the value
    a_ub.append(row)
    b_ub.append(-value * compiled.denominator)
    for j, sequence in enumerate(free):  # d >= |x - target|
        up, down = [0] * total, [0] * total
        up[j], up[m + nq + j] = 1, -1
        down[j], down[m + nq + j] = -1, -1
        a_ub += [up, down]
        b_ub += [target[sequence], -target[sequence]]
    a_eq, b_eq = _realization_rows(layout, fixed, column, total)
    solution = solve_lp([0] * (m + nq) + [1] * m, a_ub, b_ub, a_eq or None, b_eq or None, free=range(m, m + nq),
                        method=method)
    infosets = len(a_eq)
    return list(solution.x[:m]), f"exact LP ({solution.method}) on {m} free weights of {infosets} information sets"


def _realization_rows(layout: SequenceLayout, fixed: list[Fraction | None], column: dict[int, int], width: int
                      ) -> tuple[list[list[int]], list[Fraction]]:
    """``E x = e`` at the information sets with a free weight, the fixed weights moved to the right side."""
    a_eq, b_eq = [], []
    for i in range(layout.num_infosets):
        sequences = layout.infoset_sequences(i)
        if not any(s in column for s in sequences):
            continue
        row = [0] * width
        for s in sequences:
            if s in column:
                row[column[s]] = 1
        parent = layout.parent_sequence(i)
        if parent in column:
            row[column[parent]] = -1
        a_eq.append(row)
        b_eq.append((fixed[parent] or Fraction(0)) - sum((fixed[s] or Fraction(0)) for s in sequences))
    return a_eq, b_eq
