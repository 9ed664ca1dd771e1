"""Exact equilibria of two-player zero-sum betting games.

Two methods, both certified by :func:`exactpoker.certify.verify` before
anything is returned:

``"support"`` (float-guided, exact-finished; the default)
    1. Solve the sequence-form LP (:mod:`exactpoker.solve.lp.sequence_form`) in
       floating point with HiGHS (:mod:`exactpoker.solve.lp.float_guide`).  Its primal is player I's realization plan,
       its multipliers player II's.
    2. Read off the *support*: which actions each player uses at each
       information set.
    3. On that support, each player's realization plan is determined by its
       weights at the information sets where it mixes.  Those few unknowns
       solve an exact linear system: the opponent's indifference between the
       actions it mixes (continuation values follow the opponent's support
       by backward induction), and the weights of each mixed information set
       summing to the weight of the sequence leading to it
       (:mod:`exactpoker.solve.lp.support`).
    4. Certify.  If the support read in step 2 was wrong or degenerate (on
       large games the optimal face is rarely a single point: Leduc Hold'em),
       fall back to the ``"basis"`` method, then to the exact simplex.

``"basis"`` (float basis, exact vertex)
    HiGHS's simplex ends at an optimal *basis* of player I's LP
    (:func:`exactpoker.solve.lp.float_guide.float_optimum`); the vertex of that
    basis and its dual multipliers (player II's plan) are recomputed exactly
    (read off HiGHS's floats by rational reconstruction where that passes the
    exact checks, :mod:`exactpoker.solve.lp.reconstruct`),
    optimality is checked exactly and repaired by exact pivots where float
    noise spoilt it (:mod:`exactpoker.solve.lp.basis`).  Certified like the
    others.  This solves Leduc Hold'em (1093 sequences per player) in seconds.

``"simplex"`` (exact all the way)
    The same LP solved by the exact rational simplex of
    :mod:`exactpoker.solve.lp.simplex`; player II's plan is its dual.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from exactpoker import progress
from exactpoker.certify import Certificate, verify
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.evaluate import best_response, sequence_values
from exactpoker.core.profile import BehaviourProfile
from exactpoker.errors import CertificationError, DegenerateSystemError, InvalidParameterError, NotZeroSumError
from exactpoker.solve.lp.basis import solve_from_basis
from exactpoker.solve.lp.float_guide import float_guides, float_optimum, lp_algorithms
from exactpoker.solve.lp.sequence_form import SequenceFormLP, sequence_form_lp, standard_lp
from exactpoker.solve.lp.support import solve_on_support

__all__ = ["solve_zero_sum", "ZeroSumMethod", "behaviour_profile_of_plans"]

ZeroSumMethod = Literal["support", "basis", "simplex"]


def solve_zero_sum(
    compiled: CompiledGame, *, method: ZeroSumMethod = "support"
) -> tuple[BehaviourProfile, Certificate, str]:
    """One exact, certified equilibrium of a two-player zero-sum compiled game.

    Parameters
    ----------
    compiled : CompiledGame
        A two-player zero-sum game.
    method : {"support", "basis", "simplex"}
        See the module docstring.

    Returns
    -------
    profile, certificate, method_used
        ``method_used`` says which path produced the answer (``"support"``
        falls back to ``"basis"``, then ``"simplex"``, when its guess does
        not certify; ``"basis"`` falls back to ``"simplex"``).

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
    if method not in ("support", "basis", "simplex"):
        raise InvalidParameterError(
            f"solve_zero_sum(): method must be 'support', 'basis' or 'simplex'; got {method!r}"
        )
    if method == "support":
        found = _support_method(compiled, _float_lp(compiled))
        if found is not None:
            return found[0], found[1], "support"
    if method in ("support", "basis"):
        found = _basis_method(compiled)
        if found is not None:
            return found[0], found[1], "basis"
    weights = _simplex_method(compiled, _float_lp(compiled))
    profile = behaviour_profile_of_plans(compiled, weights)
    certificate = verify(compiled, profile)
    if not certificate.holds:
        raise CertificationError(
            f"solve_zero_sum(): the exact simplex's answer failed the equilibrium check "
            f"(max regret {certificate.max_regret})"
        )
    return profile, certificate, "simplex"


def _float_lp(compiled: CompiledGame) -> SequenceFormLP:
    """The sequence-form LP as scipy matrices (the support and simplex methods; the basis method builds its own)."""
    progress.stage("building the sequence-form LP")
    return sequence_form_lp(compiled)


def _support_method(compiled: CompiledGame, lp: SequenceFormLP) -> tuple[BehaviourProfile, Certificate] | None:
    """The first float guide whose support yields an exact, certified equilibrium."""
    first, second = compiled.layouts
    rows, cols, vals = compiled.payoff_matrix()
    progress.stage("float LP (HiGHS), then the exact solve on its support")
    for x_float, y_float in float_guides(compiled, lp):
        try:
            x = solve_on_support(first, x_float, second, y_float, rows, cols, vals)
            y = solve_on_support(second, y_float, first, x_float, cols, rows, vals)
        except DegenerateSystemError:
            continue
        profile = behaviour_profile_of_plans(compiled, [x, y])
        certificate = verify(compiled, profile)
        if certificate.holds:
            return profile, certificate
    return None


def _basis_method(compiled: CompiledGame) -> tuple[BehaviourProfile, Certificate] | None:
    """The exact vertex of HiGHS's optimal basis, certified; None if it cannot be made exact and optimal."""
    progress.stage("building the sequence-form LP")
    lp = standard_lp(compiled)
    progress.stage("float LP basis (HiGHS), then its exact vertex")
    solution = None
    for algorithm in lp_algorithms(lp):
        try:
            found = float_optimum(lp, algorithm)
            solution = solve_from_basis(lp, found.columns, found.rows, guess=(found.values, found.duals))
            break
        except DegenerateSystemError as failed:
            progress.stage(f"the {algorithm}'s basis failed: {failed}")  # shown before the next algorithm's stage
            continue
    if solution is None:
        return None
    num_x, num_y = compiled.layouts[0].num_sequences, compiled.layouts[1].num_sequences
    profile = behaviour_profile_of_plans(compiled, [solution.primal[:num_x], solution.duals[:num_y]])
    certificate = verify(compiled, profile)
    return (profile, certificate) if certificate.holds else None


# -- the exact simplex ---------------------------------------------------------------


def _simplex_method(compiled: CompiledGame, lp: SequenceFormLP) -> list[list[Fraction]]:
    from exactpoker.solve.lp.simplex import solve_lp

    progress.stage("exact simplex")
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


def behaviour_profile_of_plans(compiled: CompiledGame, weights: list[list[Fraction]]) -> BehaviourProfile:
    """Behaviour strategies from realization plans.

    Where a plan gives an information set weight zero, the behaviour there is
    irrelevant to the payoffs; we fill in a best response to the opponent
    (first optimal action) so the strategy tables read naturally.
    """
    strategies = []
    for p, layout in enumerate(compiled.layouts):
        plan = weights[p]
        reach = [plan[layout.parent_sequence(infoset)] for infoset in range(layout.num_infosets)]
        reached = [r.numerator > 0 for r in reach]  # r > 0 (ints and Fractions: the numerator has the sign)
        optimal: list[tuple[int, ...]] = []
        if not all(reached):  # the best responses only fill unreached information sets
            _, optimal = best_response(layout, sequence_values(compiled, p, weights))
        strategy = []
        for infoset, parent in enumerate(reach):
            seqs = layout.infoset_sequences(infoset)
            if reached[infoset]:
                strategy.append(tuple(_ratio(plan[s], parent) for s in seqs))
            else:
                choice = optimal[infoset][0]
                strategy.append(tuple(_PURE[a == choice] for a in range(len(seqs))))
        strategies.append(tuple(strategy))
    return BehaviourProfile(tuple(strategies))


_PURE = (Fraction(0), Fraction(1))  # an action's probability in a pure choice: [not chosen, chosen]


def _ratio(weight: Fraction, parent: Fraction) -> Fraction:
    """``weight / parent`` (``parent > 0``), without a Fraction division for the usual pure choices (0 and 1)."""
    return _PURE[0] if not weight else _PURE[1] if weight == parent else weight / parent
