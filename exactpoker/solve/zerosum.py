"""Exact equilibria of two-player zero-sum betting games.

Two methods, both certified by :func:`exactpoker.certify.verify` before
anything is returned:

``"support"`` (float-guided, exact-finished; the default)
    1. Solve the sequence-form LP (:mod:`exactpoker.solve.sequence_form`) in
       floating point with HiGHS.  Its primal is player I's realization plan,
       its multipliers player II's.
    2. Read off the *support*: which actions each player uses at each
       information set.
    3. On that support, each player's realization plan is determined by its
       weights at the information sets where it mixes.  Those few unknowns
       solve an exact linear system: the opponent's indifference between the
       actions it mixes (continuation values follow the opponent's support
       by backward induction), and the weights of each mixed information set
       summing to the weight of the sequence leading to it
       (:func:`_solve_on_support`).
    4. Certify.  If the support read in step 2 was wrong or degenerate, fall
       back to the exact simplex.

``"simplex"`` (exact all the way)
    The same LP solved by the exact rational simplex of
    :mod:`exactpoker.solve.simplex`; player II's plan is its dual.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

import numpy as np
import scipy.optimize
import scipy.sparse as sp
from flint import fmpq, fmpq_mat

from exactpoker.certify import Certificate, verify
from exactpoker.core.compiled import CompiledGame, PlayerLayout
from exactpoker.core.evaluate import best_response, sequence_values
from exactpoker.core.profile import BehaviourProfile
from exactpoker.errors import CertificationError, DegenerateSystemError, NotZeroSumError
from exactpoker.solve.sequence_form import SequenceFormLP, sequence_form_lp

__all__ = ["solve_zero_sum", "ZeroSumMethod"]

ZeroSumMethod = Literal["support", "simplex"]
_SUPPORT_TOLERANCE = 1e-6
_TIGHT_TOLERANCE = 1e-6


def solve_zero_sum(
    compiled: CompiledGame, *, method: ZeroSumMethod = "support"
) -> tuple[BehaviourProfile, Certificate, str]:
    """One exact, certified equilibrium of a two-player zero-sum compiled game.

    Parameters
    ----------
    compiled : CompiledGame
        A two-player zero-sum game.
    method : {"support", "simplex"}
        See the module docstring.

    Returns
    -------
    profile, certificate, method_used
        ``method_used`` says which path produced the answer (``"support"``
        falls back to ``"simplex"`` when its guess does not certify).

    Raises
    ------
    NotZeroSumError
        If the game does not have two players or is not zero-sum.
    """
    if compiled.num_players != 2 or not compiled.is_zero_sum:
        raise NotZeroSumError(
            f"solve_zero_sum(): game must be two-player zero-sum; got {compiled.num_players} players"
            + ("" if compiled.is_zero_sum else ", not zero-sum")
        )
    if method not in ("support", "simplex"):
        raise ValueError(f"solve_zero_sum(): method must be 'support' or 'simplex'; got {method!r}")
    lp = sequence_form_lp(compiled)
    if method == "support":
        profile = _support_method(compiled, lp)
        if profile is not None:
            return profile, verify(compiled, profile), "support"
    weights = _simplex_method(compiled, lp)
    profile = _behaviour_profile(compiled, weights)
    certificate = verify(compiled, profile)
    if not certificate.holds:
        raise CertificationError(
            f"solve_zero_sum(): the exact simplex's answer failed the equilibrium check "
            f"(max regret {certificate.max_regret})"
        )
    return profile, certificate, "simplex"


# -- the float guide -------------------------------------------------------------------


def _float_guides(compiled: CompiledGame, lp: SequenceFormLP) -> list[tuple[np.ndarray, np.ndarray]]:
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


def _support_method(compiled: CompiledGame, lp: SequenceFormLP) -> BehaviourProfile | None:
    """The first float guide whose support yields an exact, certified equilibrium."""
    first, second = compiled.layouts
    rows, cols, vals = compiled.payoff_matrix()
    for x_float, y_float in _float_guides(compiled, lp):
        try:
            x = _solve_on_support(first, x_float, second, y_float, rows, cols, vals)
            y = _solve_on_support(second, y_float, first, x_float, cols, rows, vals)
        except DegenerateSystemError:
            continue
        profile = _behaviour_profile(compiled, [x, y])
        if verify(compiled, profile).holds:
            return profile
    return None


def _solve_on_support(
    own: PlayerLayout,
    own_float: np.ndarray,
    other: PlayerLayout,
    other_float: np.ndarray,
    own_index: np.ndarray,
    other_index: np.ndarray,
    values: np.ndarray,
) -> list[Fraction]:
    """Exact realization plan of ``own`` on the support read from the float guide.

    The unknowns are the weights of ``own``'s sequences at information sets
    where it mixes; every other supported sequence inherits the weight of the
    sequence leading to it.  The equations: the opponent is indifferent among
    the actions it mixes, and each mixed set's weights add up to its parent's.
    """
    own_support = _support(own, own_float)
    other_support = _support(other, other_float)
    # represent[s] = column of the unknown (or 0 for the constant 1) carrying x_s
    unknown_of: dict[int, int] = {}
    represent: dict[int, int] = {0: 0}
    for infoset in range(own.num_infosets):
        parent = own.parent_sequence(infoset)
        supported = [s for s in own.infoset_sequences(infoset) if s in own_support]
        if parent not in represent or not supported:
            continue
        if len(supported) == 1:
            represent[supported[0]] = represent[parent]
        else:
            for s in supported:
                unknown_of[s] = 1 + len(unknown_of)
                represent[s] = unknown_of[s]
    width = 1 + len(unknown_of)
    # g[t] = the opponent's payoff coefficient of its sequence t, affine in the unknowns
    column = np.array([represent.get(int(s), -1) for s in range(own.num_sequences)], dtype=np.int64)
    cols_of_entries = column[own_index]
    used = cols_of_entries >= 0
    g = np.zeros((other.num_sequences, width), dtype=object)
    np.add.at(g, (other_index[used], cols_of_entries[used]), values[used].astype(object))

    guide = np.zeros(width)
    guide[0] = 1.0
    for s, col in unknown_of.items():
        guide[col] = own_float[s]
    required: list[list[int]] = []
    optional: list[list[int]] = []
    # the opponent's indifference, with continuation values along its support
    worth: dict[int, np.ndarray] = {}
    for infoset in reversed(range(other.num_infosets)):
        seqs = list(other.infoset_sequences(infoset))
        supported = [t for t in seqs if t in other_support]
        if not supported:
            continue
        scores = {
            t: g[t] + sum((worth[j] for j in other.children[t] if j in worth), np.zeros(width, dtype=object))
            for t in seqs
        }
        anchor = scores[supported[0]]
        worth[infoset] = anchor
        anchor_float = float(np.dot(anchor.astype(np.float64), guide))
        for t in seqs:
            if t == supported[0]:
                continue
            row = list(scores[t] - anchor)
            if t in other_support:
                required.append(row)
            elif abs(float(np.dot(scores[t].astype(np.float64), guide)) - anchor_float) <= _TIGHT_TOLERANCE * (
                1.0 + abs(anchor_float)
            ):
                optional.append(row)  # unused but (nearly) as good: a candidate basis row
    # each mixed set's weights add up to its parent's weight
    for infoset in range(own.num_infosets):
        mixed = [s for s in own.infoset_sequences(infoset) if s in unknown_of]
        if mixed:
            row = [0] * width
            for s in mixed:
                row[unknown_of[s]] += 1
            row[represent[own.parent_sequence(infoset)]] -= 1
            required.append(row)
    solution = _solve_affine(required, optional, width)
    weights = [Fraction(0)] * own.num_sequences
    for s, col in represent.items():
        weights[s] = Fraction(1) if col == 0 else solution[col - 1]
    return weights


def _support(layout: PlayerLayout, weights: np.ndarray) -> set[int]:
    """Sequences with clearly positive weight, relative to the weight of their parent."""
    support = {0}
    for infoset in range(layout.num_infosets):
        parent = layout.parent_sequence(infoset)
        if parent not in support:
            continue
        for s in layout.infoset_sequences(infoset):
            if weights[s] > _SUPPORT_TOLERANCE * max(1.0, weights[parent]):
                support.add(s)
    return support


def _solve_affine(required: list[list[int]], optional: list[list[int]], width: int) -> list[Fraction]:
    """Solve ``row[0] + sum_k row[k] u_k = 0`` for the unique ``u``, or raise.

    All ``required`` rows must hold.  When they leave freedom (a degenerate
    vertex of the LP), ``optional`` rows, the opponent's unused but equally
    good actions, complete the system, as a basis is completed in the
    simplex: first all of them at once (they all hold at the guide's vertex),
    and if that is inconsistent, one at a time, each kept when it raises the
    rank.
    """
    unknowns = width - 1
    if optional:
        try:
            solution = _unique_solution(required + optional, width)
        except DegenerateSystemError:
            solution = None
        if solution is not None:
            return solution
    echelon = _Echelon(width)
    for row in required:
        if not echelon.add(row) and echelon.inconsistent:
            raise DegenerateSystemError("the support's equations are inconsistent")
    for row in optional:
        if echelon.rank == unknowns:
            break
        echelon.add(row, keep_consistent=True)
    if echelon.rank < unknowns:
        raise DegenerateSystemError(f"the support's equations leave {unknowns - echelon.rank} degree(s) of freedom")
    return _unique_solution(echelon.rows, width)  # type: ignore[return-value]


def _unique_solution(rows: list[list[int]], width: int) -> list[Fraction] | None:
    """The unique solution, ``None`` if the system leaves freedom; raises if it is inconsistent."""
    unknowns = width - 1
    if unknowns == 0:
        if any(any(row) for row in rows):
            raise DegenerateSystemError("the support's equations are inconsistent")
        return []
    if not rows:
        return None
    entries = [Fraction(v) for row in rows for v in (*row[1:], -row[0])]
    reduced, rank = fmpq_mat(len(rows), width, [fmpq(e.numerator, e.denominator) for e in entries]).rref()
    pivots = [next(c for c in range(width) if reduced[r, c] != 0) for r in range(rank)]
    if unknowns in pivots:
        raise DegenerateSystemError("the support's equations are inconsistent")
    if rank < unknowns:
        return None
    return [_fraction(reduced[r, unknowns]) for r in range(unknowns)]


class _Echelon:
    """Rows added one at a time, kept in echelon form with exact fractions."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.rows: list[list[Fraction]] = []
        self.reduced: list[tuple[int, list[Fraction]]] = []  # (pivot column >= 1, row)
        self.inconsistent = False

    @property
    def rank(self) -> int:
        return len(self.reduced)

    def add(self, row: list, keep_consistent: bool = False) -> bool:
        """Add ``row`` if it raises the rank; record an inconsistency unless told to skip it."""
        work = [Fraction(v) for v in row]
        for pivot, prow in self.reduced:
            if work[pivot]:
                factor = work[pivot] / prow[pivot]
                work = [w - factor * p for w, p in zip(work, prow)]
        pivot = next((c for c in range(1, self.width) if work[c]), None)
        if pivot is None:
            if work[0] and not keep_consistent:
                self.inconsistent = True
            return False
        self.reduced.append((pivot, work))
        self.rows.append(list(row))
        return True


def _fraction(value: fmpq) -> Fraction:
    return Fraction(int(value.p), int(value.q))


# -- the exact simplex ---------------------------------------------------------------


def _simplex_method(compiled: CompiledGame, lp: SequenceFormLP) -> list[list[Fraction]]:
    from exactpoker.solve.simplex import solve_lp

    rows, cols, vals = compiled.payoff_matrix()
    first, second = compiled.layouts
    payoff = [[0] * second.num_sequences for _ in range(first.num_sequences)]
    for r, c, v in zip(rows.tolist(), cols.tolist(), vals.tolist()):
        payoff[r][c] += int(v)
    F = lp.F.toarray().tolist()
    E = lp.E.toarray().tolist()
    a_ub = [[-payoff[s][t] for s in range(lp.num_x)] + [F[row][t] for row in range(lp.num_q)]
            for t in range(second.num_sequences)]
    a_eq = [list(E[row]) + [0] * lp.num_q for row in range(len(E))]
    b_eq = [1] + [0] * (len(E) - 1)
    cost = [0] * lp.num_x + [1] + [0] * (lp.num_q - 1)
    solution = solve_lp(
        cost, a_ub, [0] * len(a_ub), a_eq, b_eq,
        free=range(lp.num_x, lp.num_x + lp.num_q), maximize=True,
    )
    x = list(solution.x[: lp.num_x])
    y = [abs(v) for v in solution.dual_ub]
    return [x, y]


# -- from realization plans to behaviour ---------------------------------------------


def _behaviour_profile(compiled: CompiledGame, weights: list[list[Fraction]]) -> BehaviourProfile:
    """Behaviour strategies from realization plans.

    Where a plan gives an information set weight zero, the behaviour there is
    irrelevant to the payoffs; we fill in a best response to the opponent
    (first optimal action) so the strategy tables read naturally.
    """
    strategies = []
    for p, layout in enumerate(compiled.layouts):
        values = sequence_values(compiled, p, weights)
        _, optimal = best_response(layout, values)
        plan = weights[p]
        strategy = []
        for infoset in range(layout.num_infosets):
            parent = plan[layout.parent_sequence(infoset)]
            seqs = layout.infoset_sequences(infoset)
            if parent > 0:
                strategy.append(tuple(plan[s] / parent for s in seqs))
            else:
                choice = optimal[infoset][0]
                strategy.append(tuple(Fraction(int(a == choice)) for a in range(len(seqs))))
        strategies.append(tuple(strategy))
    return BehaviourProfile(tuple(strategies))
