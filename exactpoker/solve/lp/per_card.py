"""Player I's LP against player II's pure choices at each of her cards, solved by the exact simplex.

In a one-card game (:class:`~exactpoker.core.game.BettingGame`) where player
II moves at most once in any play, her pure strategy is one *local* choice per
card: an action at each of her information sets holding that card.  Player
I's payoff against it is a sum over her cards, so I's guaranteed payoff is
``sum_j v_j`` with ``v_j`` at most what I earns against each local choice at
card ``j``.  Seed 000's ``djnMNE`` (section 3, Newman poker: II's local choice
at card ``j`` is the set of bets she calls, ``n 2^b`` constraints) is this LP:

    maximise ``c^T x + sum_j v_j`` subject to, for every card ``j`` of II and
    local choice ``Y`` at it, ``v_j <= sum_sigma x_sigma A[sigma, tau(j, Y)]``,
    and I's realization constraints ``E x = e``, ``x >= 0``

(``c`` the payoffs that do not depend on II's move, ``A`` the sequence-form
payoffs, ``tau(j, Y)`` II's sequences of that choice).  The multipliers of the
rows of card ``j`` are II's mixture over her local choices there (they sum to
one because ``v_j`` is free), so one exact optimal basis gives both players'
strategies.  The rows of each card come in order of how many actions past the
first the choice takes (fold before call), then in reverse lexicographic order,
as the paper lists the call sets.  The LP has a row per card and local choice,
so it is for small games: at most :data:`MAX_ROWS` rows.

References
----------
T. Krityakierne, T. Thanatipanonda, D. Zeilberger, "von Neumann and Newman
Pokers with Finite Decks" (2024), section 3 (seed 000).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from exactpoker.core.compiled import CompiledGame, PlayerLayout
from exactpoker.core.profile import BehaviourProfile, behaviour_from_plan
from exactpoker.errors import InvalidParameterError
from exactpoker.solve.lp.simplex import solve_lp

__all__ = ["MAX_ROWS", "per_card_lp"]

#: The most rows (cards times local choices) the exact simplex is asked to take.
MAX_ROWS = 600


def per_card_lp(compiled: CompiledGame) -> BehaviourProfile:
    """An optimal profile of a two-player zero-sum one-card game by the LP of the module docstring (not checked:
    the engine certifies it).

    Raises
    ------
    InvalidParameterError
        If the game is not a one-card game, player II moves more than once in
        some play, or the LP has more than :data:`MAX_ROWS` rows.
    """
    first, second = compiled.layouts
    if not (isinstance(first, PlayerLayout) and isinstance(second, PlayerLayout)):
        raise InvalidParameterError("--method per-card needs a one-card game (a paper's card game), "
                                    "not a game tree")
    if any(second.parent_sequence(i) for i in range(second.num_infosets)):
        raise InvalidParameterError("--method per-card needs a game where player II moves at most once per play")
    choices = _local_choices(second)
    if second.cards * len(choices) > MAX_ROWS:
        raise InvalidParameterError(f"--method per-card: the LP would have {second.cards * len(choices)} rows "
                                    f"(at most {MAX_ROWS}); use --method lp")
    payoff: dict[tuple[int, int], int] = {}
    rows, cols, values = compiled.payoff_matrix()
    for r, c, v in zip(rows.tolist(), cols.tolist(), values.tolist()):
        payoff[(r, c)] = payoff.get((r, c), 0) + int(v)
    num_x, cards = first.num_sequences - 1, second.cards
    a_ub = []
    for j in range(1, cards + 1):  # v_j <= I's payoff against each local choice at card j
        for choice in choices:
            row = [Fraction(0)] * (num_x + cards)
            for label, action in enumerate(choice):
                tau = second.sequence(j, label, action)
                for sigma in range(1, first.num_sequences):
                    row[sigma - 1] -= payoff.get((sigma, tau), 0)
            row[num_x + j - 1] = Fraction(1)
            a_ub.append(row)
    cost = [Fraction(payoff.get((sigma, 0), 0)) for sigma in range(1, first.num_sequences)] + [Fraction(1)] * cards
    a_eq, b_eq = _realization_rows(first, num_x + cards)
    solution = solve_lp(cost, a_ub, [0] * len(a_ub), a_eq, b_eq, free=range(num_x, num_x + cards), maximize=True)
    plan = [Fraction(1)] + list(solution.x[:num_x])
    return BehaviourProfile((behaviour_from_plan(first, plan), _responses(second, choices, solution.dual_ub)))


def _local_choices(layout: PlayerLayout) -> list[tuple[int, ...]]:
    """Every choice of an action at each label, fewest actions past the first first, then reverse lexicographic."""
    product = itertools.product(*(range(len(actions)) for actions in layout.actions))
    return sorted(product, key=lambda choice: (sum(choice), tuple(-a for a in choice)))


def _realization_rows(layout: PlayerLayout, width: int) -> tuple[list[list[Fraction]], list[int]]:
    """``E x = e`` over the sequences ``1..`` (the empty sequence's weight 1 moved to the right side)."""
    a_eq, b_eq = [], []
    for infoset in range(layout.num_infosets):
        row = [Fraction(0)] * width
        for sequence in layout.infoset_sequences(infoset):
            row[sequence - 1] = Fraction(1)
        parent = layout.parent_sequence(infoset)
        if parent:
            row[parent - 1] = Fraction(-1)
        a_eq.append(row)
        b_eq.append(0 if parent else 1)
    return a_eq, b_eq


def _responses(layout: PlayerLayout, choices: list[tuple[int, ...]], duals: tuple[Fraction, ...]
               ) -> tuple[tuple[Fraction, ...], ...]:
    """II's behaviour: at each information set, the weight of the local choices taking each action."""
    strategy = [[Fraction(0)] * len(layout.infoset_actions(i)) for i in range(layout.num_infosets)]
    for k, weight in enumerate(duals):
        card = k // len(choices) + 1
        for label, action in enumerate(choices[k % len(choices)]):
            strategy[layout.infoset(card, label)][action] += weight
    return tuple(tuple(row) for row in strategy)
