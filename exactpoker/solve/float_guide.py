"""The floating-point guide of the zero-sum solver: HiGHS on the sequence-form LP.

One solve of player I's LP gives the value.  Optimal strategies are rarely
unique (cards that never face a decision, or equally good calls), so each
player's plan is then re-solved among the optimal ones, taking the one that
does best against a uniformly random opponent: a generic refinement in the
spirit of proper equilibria, which picks the natural strategies (call with
the high cards, not with scattered ones).  Only the *support* of these float
plans is used; the exact finish and the certificate do not depend on them.
"""

from __future__ import annotations

import numpy as np
import scipy.optimize
import scipy.sparse as sp

from exactpoker.core.compiled import CompiledGame, PlayerLayout
from exactpoker.errors import DegenerateSystemError
from exactpoker.solve.sequence_form import SequenceFormLP

__all__ = ["float_guides"]


def float_guides(compiled: CompiledGame, lp: SequenceFormLP) -> list[tuple[np.ndarray, np.ndarray]]:
    """Both players' realization plans in floating point: refined first, then plain.

    One HiGHS solve of player I's LP gives the value.  Optimal strategies are
    rarely unique (cards that never face a decision, or equally good calls),
    so each player's plan is then re-solved among the optimal ones, taking
    the one that does best against a uniformly random opponent: a generic
    refinement in the spirit of proper equilibria, which picks the natural
    strategies (call with the high cards, not with scattered ones).  The exact
    finish and the certificate do not depend on this choice; if the refined
    guide's support does not give an exact solution, the plain one is tried.
    """
    payoff = lp.payoff.astype(np.float64)
    x, y, value = _player_lp(payoff, lp.E, lp.F)
    uniform = [_uniform_plan(layout) for layout in compiled.layouts]
    slack = 1e-9 * max(1.0, abs(value))
    refined_x = _player_lp(payoff, lp.E, lp.F, floor=value - slack, against=uniform[1])
    refined_y = _player_lp(-payoff.T, lp.F, lp.E, floor=-value - slack, against=uniform[0])
    guides = [(x, y)]
    if refined_x and refined_y:
        guides.insert(0, (refined_x[0], refined_y[0]))
    return guides


def _player_lp(
    payoff: sp.spmatrix,
    own: sp.spmatrix,
    other: sp.spmatrix,
    floor: float | None = None,
    against: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, float] | None:
    """The maximizing player's sequence-form LP: ``max q_0`` s.t. ``other^T q - payoff^T z <= 0``, ``own z = e``.

    With ``floor`` and ``against``: keep ``q_0 >= floor`` and maximize
    ``z^T payoff against`` instead.  Returns the plan, the opponent's plan
    (the multipliers) and ``q_0``; ``None`` if a refinement fails.
    """
    num_z, num_q = own.shape[1], other.shape[0]
    cost = np.zeros(num_z + num_q)
    a_ub = sp.hstack([-payoff.T, other.T.astype(np.float64)], format="csr")
    b_ub = np.zeros(other.shape[1])
    if floor is None:
        cost[num_z] = -1.0
    else:
        cost[:num_z] = -(payoff @ against)
        row = sp.csr_matrix(([-1.0], ([0], [num_z])), shape=(1, num_z + num_q))
        a_ub = sp.vstack([a_ub, row], format="csr")
        b_ub = np.append(b_ub, -floor)
    e = np.zeros(own.shape[0])
    e[0] = 1.0
    a_eq = sp.hstack([own.astype(np.float64), sp.csr_matrix((own.shape[0], num_q))], format="csr")
    bounds = [(0, None)] * num_z + [(None, None)] * num_q
    res = scipy.optimize.linprog(cost, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=e, bounds=bounds, method="highs")
    if res.status != 0:
        if floor is not None:
            return None
        raise DegenerateSystemError(f"the floating-point LP guide failed: {res.message}")
    multipliers = -np.asarray(res.ineqlin.marginals)[: other.shape[1]]
    return res.x[:num_z], multipliers, float(res.x[num_z])


def _uniform_plan(layout: PlayerLayout) -> np.ndarray:
    """Realization plan of the uniformly random behaviour strategy."""
    plan = np.zeros(layout.num_sequences)
    plan[0] = 1.0
    for infoset in range(layout.num_infosets):
        seqs = layout.infoset_sequences(infoset)
        plan[list(seqs)] = plan[layout.parent_sequence(infoset)] / len(seqs)
    return plan


# -- the exact finish on the support ----------------------------------------------------
