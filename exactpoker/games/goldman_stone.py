"""Goldman--Stone symmetric poker with a finite deck.

Seed 002 (A. J. Goldman and J. J. Stone, "A Symmetric Continuous Poker
Model", J. Res. NBS 64B, 1960), played with cards ``1..n`` dealt without
replacement instead of hands uniform on ``[0, 1]``.

Rules (section 2 of the paper).  Both players ante 1 and then act
*simultaneously*, each choosing one of four courses of action:

1. ``drop``;
2. ``b-fold``: bet up to ``b`` in all, folding if the opponent bets ``a``;
3. ``b-see``: bet up to ``b``, seeing (putting in ``a`` in all) if the opponent bets ``a``;
4. ``a``: bet up to ``a`` in all,

with ``a > b > 1``.  Both drop: antes returned.  One drops: the other wins
the ante.  Equal bets: the higher card wins the opponent's stake.  ``a``
against ``b``: the ``b`` bettor folds (losing ``b``) or sees (the higher
card wins ``a``).  This reproduces the paper's figures 1 and 2.

Each player moves once, so a course of action is one action of a
four-action decision; the two players' decisions carry the same label
structure as the paper's simultaneous choice: player II's decision has one
label under all of player I's actions, so II does not see I's choice.

Functions
---------
:func:`game`, :func:`compiled`
    The :class:`~exactpoker.core.game.BettingGame` and its compiled form.
:func:`equilibrium`
    One exact, certified equilibrium (sequence-form LP, exact finish);
    its value is exactly 0 (the game is symmetric).
:func:`discretised_lemma8`
    Lemma 8's continuous optimal strategy discretised to ``n`` cards, and its
    exact exploitability.
:func:`nearest_optimum`, :func:`convergence_table`
    The optimal strategy of the finite game nearest (in L1) to the
    discretised one, and how both converge as ``n`` grows.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Literal

from exactpoker.certify import Certificate, verify
from exactpoker.core import BehaviourProfile, BettingGame, CompiledGame, Decision, Deck, Outcome, compile_game
from exactpoker.errors import CertificationError, InvalidParameterError
from exactpoker.numbers import exact_str, parse_int, parse_positive, to_fraction
from exactpoker.results import Equilibrium, SolveResult
from exactpoker.solve.lp.zerosum import solve_zero_sum

__all__ = [
    "ACTIONS",
    "parse_bets",
    "game",
    "compiled",
    "equilibrium",
    "lemma8_strategy",
    "discretised_lemma8",
    "Discretised",
    "nearest_optimum",
    "NearestOptimum",
    "convergence_table",
    "ConvergenceRow",
    "EXACT_NEAREST_MAX",
]

NAME = "goldman-stone"
CHOOSE = "choose"
#: The four courses of action, in the paper's order r_1 .. r_4.
ACTIONS = ("drop", "b-fold", "b-see", "a")
#: Up to this deck size :func:`nearest_optimum` uses the exact simplex from scratch.
EXACT_NEAREST_MAX = 20


def parse_bets(a: object, b: object) -> tuple[Fraction, Fraction]:
    """Validate the bet levels: exact rationals with ``a > b > 1`` (``ValueError`` names the parameter)."""
    bet_a, bet_b = to_fraction(a, "a"), to_fraction(b, "b")
    if bet_b <= 1:
        raise InvalidParameterError(f"b must be > 1 (the paper's a > b > 1); got b = {exact_str(bet_b)}")
    if bet_a <= bet_b:
        raise InvalidParameterError(
            f"a must be > b (the paper's a > b > 1); got a = {exact_str(bet_a)}, b = {exact_str(bet_b)}"
        )
    return parse_positive(bet_a, "a"), parse_positive(bet_b, "b")  # and within the size limit


def _outcome(mine: int, theirs: int, a: Fraction, b: Fraction) -> Outcome:
    """The leaf when player I plays course ``mine`` and player II course ``theirs`` (0-based)."""
    if mine == 0 and theirs == 0:
        return Outcome((1, 1), (0, 1), showdown=False)  # antes returned
    if mine == 0 or theirs == 0:
        stake = {1: b, 2: b, 3: a}
        if mine == 0:
            return Outcome((1, stake[theirs]), (1,))
        return Outcome((stake[mine], 1), (0,))
    if mine == 3 and theirs == 1:
        return Outcome((a, b), (0,))  # II folds to a
    if mine == 1 and theirs == 3:
        return Outcome((b, a), (1,))  # I folds to a
    level = a if 3 in (mine, theirs) else b  # b-see meets a: sees; otherwise both at b
    return Outcome((level, level), (0, 1))


def game(n: int, a: object, b: object) -> BettingGame:
    """The betting game: cards ``1..n`` without replacement, ante 1, bet levels ``a > b > 1``."""
    n = parse_int(n, "n", 2)
    bet_a, bet_b = parse_bets(a, b)
    responses = []
    for mine in range(4):
        second = Decision(1, CHOOSE, tuple((ACTIONS[t], _outcome(mine, t, bet_a, bet_b)) for t in range(4)))
        responses.append((ACTIONS[mine], second))
    root = Decision(0, CHOOSE, tuple(responses))
    return BettingGame(NAME, Deck(n), root, ("I", "II"), (("n", n), ("a", bet_a), ("b", bet_b)))


def compiled(n: int, a: object, b: object) -> CompiledGame:
    """The compiled game (exact sequence-form payoffs)."""
    return compile_game(game(n, a, b))


def _tables(g: CompiledGame, profile: BehaviourProfile) -> dict[str, list[list[Fraction]]]:
    return {name: [list(d) for d in profile.table(g, p, CHOOSE)] for p, name in enumerate(("I", "II"))}


def equilibrium(n: int, a: object, b: object, *, method: Literal["support", "simplex"] = "support") -> SolveResult:
    """One exact, certified equilibrium of the ``n``-card game.

    ``strategies`` gives, per player and card ``1..n``, the probabilities of
    the four courses of action ``(drop, b-fold, b-see, a)``.  The value is
    exactly 0: the game is symmetric (checked, not assumed).

    Examples
    --------
    >>> r = equilibrium(3, 3, 2)
    >>> r.value, r.equilibria[0].certified
    (0, True)
    """
    n = parse_int(n, "n", 2)
    g = compiled(n, a, b)
    profile, certificate, used = solve_zero_sum(g, method=method)
    if certificate.payoffs[0] != 0:
        raise CertificationError(f"goldman-stone: a symmetric game must have value 0; got {certificate.payoffs[0]}")
    label = "sequence-form LP (float-guided, exact finish)" if used == "support" else "sequence-form LP (exact simplex)"
    eq = Equilibrium.from_certificate(certificate, _tables(g, profile), profile)
    return SolveResult(NAME, dict(g.game.parameters), label, (eq,))


# -- Lemma 8 discretised -----------------------------------------------------------------


def lemma8_strategy(a: object, b: object) -> tuple[tuple[Fraction, Fraction], list[tuple[Fraction, Fraction, tuple]]]:
    """Lemma 8's optimal strategy: cut points ``(g, g')`` and pieces ``(start, end, (r_1, r_2, r_3, r_4))``.

    ``g = (b-1)/b``, ``g' = (a-1)/a``; drop on ``[0, g]``; on ``(g, g')`` bet
    ``b`` (folding to ``a``) with probability ``a/(a+b)`` and bet ``a`` with
    probability ``b/(a+b)``; bet ``a`` on ``(g', 1]``.  (Derived and certified
    symbolically in :mod:`exactpoker.continuous.goldman_stone`.)
    """
    bet_a, bet_b = parse_bets(a, b)
    g, g2 = (bet_b - 1) / bet_b, (bet_a - 1) / bet_a
    one, zero = Fraction(1), Fraction(0)
    mix = (zero, bet_a / (bet_a + bet_b), zero, bet_b / (bet_a + bet_b))
    pieces = [(zero, g, (one, zero, zero, zero)), (g, g2, mix), (g2, one, (zero, zero, zero, one))]
    return (g, g2), pieces


def _discretise(n: int, a: Fraction, b: Fraction, rule: str) -> list[list[Fraction]]:
    _, pieces = lemma8_strategy(a, b)
    table = []
    for i in range(1, n + 1):
        lo, hi = Fraction(i - 1, n), Fraction(i, n)
        mid = (lo + hi) / 2
        if rule == "midpoint" and not any(mid in (s, e) for s, e, _ in pieces):
            table.append([Fraction(v) for v in next(p for s, e, p in pieces if s < mid < e or (s == 0 and mid == 0))])
            continue
        # the average of r over the card's interval (exact: r is piecewise constant)
        weights = [Fraction(0)] * 4
        for s, e, probs in pieces:
            overlap = min(hi, e) - max(lo, s)
            if overlap > 0:
                for k in range(4):
                    weights[k] += overlap * probs[k]
        table.append([w * n for w in weights])
    return table


@dataclass(frozen=True)
class Discretised:
    """Lemma 8's strategy on ``n`` cards, used by both players, and its exact check."""

    n: int
    a: Fraction
    b: Fraction
    rule: str
    table: list[list[Fraction]]  # per card: (drop, b-fold, b-see, a)
    profile: BehaviourProfile
    certificate: Certificate

    @property
    def exploitability(self) -> Fraction:
        """The max regret of the certificate: what a best-responding opponent gains (the value is 0)."""
        return self.certificate.max_regret


def discretised_lemma8(n: int, a: object, b: object, *, rule: Literal["average", "midpoint"] = "average") -> Discretised:
    """Lemma 8's strategy discretised to ``n`` cards, played by both players, with its exact exploitability.

    Discretisation: card ``i`` stands for the hands in ``((i-1)/n, i/n]``.
    ``rule="average"`` (the default) gives card ``i`` the average of the
    continuous strategy over that interval, so a card straddling a cut point
    ``g`` or ``g'`` mixes in proportion to the lengths on each side.
    ``rule="midpoint"`` uses the strategy at the hand ``(i - 1/2)/n``
    (falling back to the average when the midpoint is exactly a cut point).
    Exploitability is exact: :func:`exactpoker.certify.verify`'s max regret.
    """
    n = parse_int(n, "n", 2)
    bet_a, bet_b = parse_bets(a, b)
    if rule not in ("average", "midpoint"):
        raise InvalidParameterError(f"rule must be 'average' or 'midpoint'; got {rule!r}")
    g = compiled(n, bet_a, bet_b)
    table = _discretise(n, bet_a, bet_b, rule)
    profile = BehaviourProfile.from_tables(g, [{CHOOSE: table}, {CHOOSE: table}])
    return Discretised(n, bet_a, bet_b, rule, table, profile, verify(g, profile))


# -- the nearest finite optimum --------------------------------------------------------


@dataclass(frozen=True)
class NearestOptimum:
    """Player I's optimal strategy nearest to a target table, and the distance.

    ``distance`` is ``(1/n) * sum over cards and actions |p - target|``: the
    discrete analogue of ``integral sum_i |r_i(z) - r*_i(z)| dz``.
    ``exact`` says whether it is the exact LP optimum (exact simplex) or a
    float-guided answer (see :func:`nearest_optimum`).
    """

    table: list[list[Fraction]]
    distance: Fraction
    certificate: Certificate
    exact: bool
    method: str


def _best_reply_support(g: CompiledGame, n: int) -> tuple[list[list[Fraction]], list[tuple[int, int]]]:
    """Step 1 of :func:`nearest_optimum`: cards fixed to their one best reply to an optimal ``y*``, and the free
    ``(card 0-based, action)`` pairs where ``y*`` leaves a tie."""
    from exactpoker.core.evaluate import best_response, sequence_values

    first = g.layouts[0]
    profile, _, _ = solve_zero_sum(g)
    values = sequence_values(g, 0, [None, profile.realization(g, 1)])
    _, optimal = best_response(first, values)
    free: list[tuple[int, int]] = []
    fixed = [[Fraction(0)] * 4 for _ in range(n)]
    for c in range(n):
        acts = optimal[first.infoset(c + 1, 0)]
        if len(acts) == 1:
            fixed[c][acts[0]] = Fraction(1)
        else:
            free.extend((c, k) for k in acts)
    return fixed, free


def _nearest_lp(g: CompiledGame, n: int, fixed: list[list[Fraction]], free: list[tuple[int, int]],
                goal: list[list[Fraction]], method: str) -> tuple[list[Fraction], str]:
    """Step 2 of :func:`nearest_optimum`: the exact LP in (free x, q, d); the free weights and how they were found."""
    from exactpoker.solve.lp.sequence_form import realization_matrix
    from exactpoker.solve.lp.simplex import solve_lp

    first, second = g.layouts
    m = len(free)
    F = realization_matrix(second).toarray()
    nq = F.shape[0]
    total = m + nq + m
    at: list[dict[int, int]] = [dict() for _ in range(second.num_sequences)]
    rows_i, cols_i, vals_i = g.payoff_matrix()
    for r, c, v in zip(rows_i.tolist(), cols_i.tolist(), vals_i.tolist()):
        at[c][r] = at[c].get(r, 0) + int(v)
    column = {first.sequence(c + 1, 0, k): j for j, (c, k) in enumerate(free)}
    fixed_weight = {first.sequence(c + 1, 0, k): fixed[c][k] for c in range(n) for k in range(4) if fixed[c][k]}
    a_ub: list[list[object]] = []
    b_ub: list[object] = []
    for t in range(second.num_sequences):
        row: list[object] = [0] * total
        constant = Fraction(0)
        for s_, v in at[t].items():
            if s_ in column:
                row[column[s_]] -= v
            elif s_ in fixed_weight:
                constant += v * fixed_weight[s_]
            elif s_ == 0:
                constant += v
        for k in range(nq):
            if F[k, t]:
                row[m + k] = int(F[k, t])
        a_ub.append(row)
        b_ub.append(constant)
    row = [0] * total
    row[m] = -1  # q_0 >= 0: value 0
    a_ub.append(row)
    b_ub.append(0)
    for j, (c, k) in enumerate(free):
        up = [0] * total
        up[j], up[m + nq + j] = 1, -1
        down = [0] * total
        down[j], down[m + nq + j] = -1, -1
        a_ub += [up, down]
        b_ub += [goal[c][k], -goal[c][k]]
    cards = sorted({c for c, _ in free})
    a_eq = [[int(free[j][0] == c) for j in range(m)] + [0] * (nq + m) for c in cards]
    solution = solve_lp([0] * (m + nq) + [1] * m, a_ub, b_ub, a_eq or None, [1] * len(cards) or None,
                        free=range(m, m + nq), method=method)
    return list(solution.x[:m]), f"exact LP ({solution.method}) on {m} free weights of {len(cards)} cards"


def nearest_optimum(
    n: int, a: object, b: object, target: list[list[object]] | None = None, *,
    method: Literal["auto", "exact", "float-guided"] = "auto",
) -> NearestOptimum:
    """The optimal strategy of player I nearest in L1 to ``target`` (default: Lemma 8 discretised).

    The set of player I's optimal strategies is a polytope; this minimizes
    ``sum |x - target|`` over it by an exact LP.  Steps, all exact:

    1. :func:`equilibrium` gives an optimal strategy ``y*`` of player II
       (value 0).  Every optimal ``x`` of player I is a best response to
       ``y*`` (``x^T A y* <= v`` with equality only on best replies), so at
       each card ``x`` may only use the actions that are best against ``y*``;
       cards with a single best action are fixed.  This only shrinks the LP
       (the remaining variables are the cards where ``y*`` leaves a tie).
    2. On the remaining variables: ``x`` per card sums to 1; ``F^T q - A^T x
       <= 0`` (every pure reply of player II) with ``q_0 >= 0`` says ``x``
       guarantees the value 0; ``d >= |x - target|``; minimize ``sum d``.
       Solved by :func:`exactpoker.solve.lp.simplex.solve_lp`:
       ``method="exact"`` pivots in rational arithmetic from scratch (the
       default for ``n <= 20``); ``"float-guided"`` lets HiGHS find a basis
       in floating point and the exact simplex starts there, checks it and
       pivots on to exact optimality, so the answer is still the exact LP
       optimum (only the start is float-guided).
    3. The strategy is certified optimal by :func:`exactpoker.certify.verify`
       (played against itself: the game is symmetric).

    ``distance`` is ``(1/n) sum_cards sum_actions |x - target|``.
    """
    n = parse_int(n, "n", 2)
    bet_a, bet_b = parse_bets(a, b)
    if method not in ("auto", "exact", "float-guided"):
        raise InvalidParameterError(f"--method/method must be auto, exact or float-guided; got {method!r}")
    g = compiled(n, bet_a, bet_b)
    if target is None:
        target = _discretise(n, bet_a, bet_b, "average")
    goal = [[to_fraction(v, "target") for v in row] for row in target]
    if len(goal) != n or any(len(row) != 4 for row in goal):
        raise InvalidParameterError(f"target must have {n} rows of 4 probabilities")
    fixed, free = _best_reply_support(g, n)
    if method == "auto":
        method = "exact" if n <= EXACT_NEAREST_MAX else "float-guided"
    table = [list(row) for row in fixed]
    used = "all actions fixed by the best replies to y*"
    if free:
        weights, used = _nearest_lp(g, n, fixed, free, goal, method)
        for (c, k), weight in zip(free, weights):
            table[c][k] = weight
    # 3. certify
    profile = BehaviourProfile.from_tables(g, [{CHOOSE: table}, {CHOOSE: table}])
    certificate = verify(g, profile)
    if not certificate.holds or certificate.payoffs[0] != 0:
        raise CertificationError("goldman-stone: the nearest optimum failed the equilibrium check")
    distance = sum((abs(table[c][k] - goal[c][k]) for c in range(n) for k in range(4)), Fraction(0)) / n
    return NearestOptimum(table, distance, certificate, True, used)


@dataclass(frozen=True)
class ConvergenceRow:
    n: int
    exploitability: Fraction
    distance: Fraction
    exact: bool
    seconds: float

    def to_dict(self) -> dict[str, object]:
        return {"n": self.n, "exploitability": exact_str(self.exploitability),
                "distance": exact_str(self.distance), "exact": self.exact}


def convergence_table(ns: Iterable[int] = (10, 20, 50, 100), a: object = 3, b: object = 2) -> list[ConvergenceRow]:
    """For each ``n``: the exploitability of Lemma 8 discretised and its L1 distance to the nearest optimum."""
    import time

    rows = []
    for n in ns:
        start = time.perf_counter()
        disc = discretised_lemma8(n, a, b)
        nearest = nearest_optimum(n, a, b, disc.table)
        rows.append(ConvergenceRow(int(n), disc.exploitability, nearest.distance, nearest.exact,
                                   time.perf_counter() - start))
    return rows
