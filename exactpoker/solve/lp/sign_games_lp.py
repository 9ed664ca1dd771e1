"""Player II's card-by-card LP of a game decided by the higher card, with cumulative variables.

The game is a :class:`~exactpoker.solve.structure.sign_games.SignGame` (seed 000,
sections 2 and 3: the LPs behind ``vnMNE`` and ``djnMNE``).  II chooses
``q[L][j]`` to minimise what I's best responses earn: with ``w_i`` the value
of I's card ``i``, minimise ``sum_i w_i`` subject to, for every card ``i``
and action ``a`` of I,

``w_i >= (i-1) U(a,0,1) + (n-i) U(a,0,0) + e_a(1) Q[L](i-1) + e_a(0) (Q[L](n) - Q[L](i))``

where ``L = L(a)``, ``e_a(h) = U(a,1,h) - U(a,0,h)`` and
``Q[L](k) = q[L][1] + ... + q[L][k]`` (the last two terms are absent when
``a`` ends the hand): the cards below ``i`` are the ones where I holds the
higher card.  With ``0 <= Q[L](k) - Q[L](k-1) <= 1`` every row has at most
four nonzeros, so HiGHS solves ``n = 1000`` with 21 actions in about a
second, where the general sequence form has ``n^2`` nonzeros.

The multipliers of the rows of card ``i`` are I's behaviour ``p[i][a]``
(they sum to one because ``w_i`` is free), so one exact basic solution gives
both players' strategies.  The payoffs are scaled by ``U``
(:meth:`SignGame.scaled`) so that the LP's data are integers.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from exactpoker import progress
from exactpoker.certify import Certificate
from exactpoker.errors import CertificationError, DegenerateSystemError
from exactpoker.solve.lp.basis import BasicSolution
from exactpoker.solve.lp.sequence_form import StandardLP
from exactpoker.solve.structure.sign_games import SignGame, SignProfile, certify_sign_game

__all__ = ["solve_sign_game", "responder_lp", "refinement", "profile_from_solution"]

_REFINE = 1e-6  # weight of the second objective, relative to the first


def responder_lp(g: SignGame) -> StandardLP:
    """II's LP as ``max -sum_i w_i`` over columns ``Q[L](k)`` (``>= 0``), then the free ``w_i``.

    Rows: first the ``n A`` rows of I's cards and actions (card-major), then
    ``Q[L](k-1) - Q[L](k) <= 0`` and ``Q[L](k) - Q[L](k-1) <= 1`` per label.
    """
    n, labels = g.n, len(g.labels)
    _, uu = g.scaled()

    def q_column(k: int, label: int) -> int:
        return (k - 1) * labels + label

    columns: list[dict[int, int]] = [{} for _ in range(n * labels + n)]
    rhs: list[int] = []

    def add(column: int, row: int, value: int) -> None:
        total = columns[column].get(row, 0) + value
        if total:
            columns[column][row] = total
        else:
            columns[column].pop(row, None)

    for i in range(1, n + 1):
        for a, label in enumerate(g.responses):
            row = len(rhs)
            add(n * labels + i - 1, row, -1)
            if label is not None:
                if i > 1:
                    add(q_column(i - 1, label), row, uu[a][1][1] - uu[a][0][1])
                if i < n:
                    add(q_column(n, label), row, uu[a][1][0] - uu[a][0][0])
                    add(q_column(i, label), row, uu[a][0][0] - uu[a][1][0])
            rhs.append(-((i - 1) * uu[a][0][1] + (n - i) * uu[a][0][0]))
    for label in range(labels):
        for k in range(2, n + 1):
            add(q_column(k - 1, label), len(rhs), 1)
            add(q_column(k, label), len(rhs), -1)
            rhs.append(0)
        for k in range(1, n + 1):
            add(q_column(k, label), len(rhs), 1)
            if k > 1:
                add(q_column(k - 1, label), len(rhs), -1)
            rhs.append(1)
    cost = {n * labels + i: -1 for i in range(n)}
    return StandardLP(tuple(columns), tuple(rhs), cost, len(rhs), n * labels)


def refinement(g: SignGame) -> tuple[np.ndarray, np.ndarray]:
    """Second objectives for the float solver: each player's payoff against an opponent who picks uniformly at random.

    Among the optimal strategies this picks ones that also punish a careless
    opponent, which are the natural ones (mostly pure: the paper's LP finds
    ``vnMNE(9, 2)`` pure, and so does this).  II's enters the objective (her
    strategy is the vertex), I's the right sides of his rows (his strategy is
    the multipliers).  Only the float solver sees them; the exact stage checks
    optimality for the LP itself.  Returns ``(cost, rhs)`` changes.
    """
    n, labels = g.n, len(g.labels)
    _, uu = g.scaled()
    cards = np.arange(1, n + 1, dtype=np.float64)
    cost = np.zeros(n * labels + n)
    for label in range(labels):
        gain = np.zeros(n)  # I's gain when II takes action 1 at card j, against I's uniform mix
        for a in g.actions_of(label):
            gain += ((cards - 1) * (uu[a][1][0] - uu[a][0][0]) + (n - cards) * (uu[a][1][1] - uu[a][0][1])) / g.num_actions
        cost[label:n * labels:labels] = -(gain - np.append(gain[1:], 0.0))  # q_j = Q(j) - Q(j-1)
    rhs = np.zeros(n * g.num_actions + (2 * n - 1) * labels)  # the rows of responder_lp
    for a in range(g.num_actions):  # I's action a at card i against II's 1/2 at every decision
        half = [(uu[a][0][h] + uu[a][1][h]) / 2 for h in (0, 1)]
        rhs[a:n * g.num_actions:g.num_actions] = -((cards - 1) * half[1] + (n - cards) * half[0])
    return _REFINE * cost, _REFINE * rhs


def profile_from_solution(g: SignGame, solution: BasicSolution) -> SignProfile:
    """II's strategy from the cumulative columns, I's from the multipliers of the rows of each card."""
    n, labels, actions = g.n, len(g.labels), g.num_actions
    q = []
    for label in range(labels):
        cumulative = [Fraction(0)] + [solution.primal[(k - 1) * labels + label] for k in range(1, n + 1)]
        q.append(tuple(cumulative[k] - cumulative[k - 1] for k in range(1, n + 1)))
    p = tuple(tuple(solution.duals[(i - 1) * actions:i * actions]) for i in range(1, n + 1))
    return SignProfile(p, tuple(q))


def solve_sign_game(g: SignGame) -> tuple[SignProfile, Certificate]:
    """An exact equilibrium and its certificate: float basis, exact vertex and duals, prefix-sum check.

    The first float basis is refined (:func:`~exactpoker.solve.lp.sign_games_lp.refinement`);
    if it does not survive the exact stage, HiGHS's interior point method
    gives a second.

    Raises :class:`CertificationError` if no float basis leads to a certified
    profile (never returns an uncertified one).
    """
    from exactpoker.solve.lp.basis import solve_from_basis
    from exactpoker.solve.lp.float_guide import optimal_basis

    lp = responder_lp(g)
    problems = []
    for algorithm, second in (("dual simplex", refinement(g)), ("interior point", None)):
        try:
            solution = solve_from_basis(lp, *optimal_basis(lp, algorithm, second))
        except DegenerateSystemError as error:
            problems.append(f"{algorithm}: {error}")
            continue
        progress.stage("exact certificate (prefix sums)")
        profile = profile_from_solution(g, solution)
        certificate = certify_sign_game(g, profile)
        if certificate.holds:
            return profile, certificate
        problems.append(f"{algorithm}: regret {float(certificate.max_regret):.3g}")
    raise CertificationError("the structured card-by-card LP found no certified equilibrium (" + "; ".join(problems) + ")")
