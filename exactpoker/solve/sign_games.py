"""Zero-sum card games decided by who holds the higher card, solved in O(n) per step.

The games: cards ``1..n`` are dealt to players I and II without replacement;
I, seeing card ``i``, takes one of two actions ``a``; II, seeing card ``j``,
takes one of two actions ``c`` (her choice may only matter after one of I's
actions); I's payoff is ``u(a, c, s)`` where ``s = sign(i - j)``.  Von Neumann
poker with a finite deck is one (seed 000, section 2: the card-by-card LP
``vnMNE``).  A behaviour strategy is ``p_i`` (I takes action 1 with card
``i``) and ``q_j`` (II takes action 1 with card ``j``).

Because a payoff depends on the cards only through ``sign(i - j)``, every sum
over the opponent's cards splits into the cards below and the cards above, so
best responses are prefix sums.  This module uses that at each step of the
usual float-guide / exact-finish / certificate pipeline
(:mod:`exactpoker.solve.zerosum`), without ever forming the ``n x n`` payoff:

* float guide: the sequence-form LP of I written with the cumulative
  variables ``P_k = p_1 + ... + p_k`` has at most four nonzeros per row; HiGHS
  solves it, and II's strategy is read from the duals;
* exact finish: the cards the guide mixes on are the unknowns; each player's
  mixed cards make the other indifferent, a square linear system whose matrix
  is ``e(sign(i - j))`` for mixed ``i`` of I and ``j`` of II, solved exactly
  (python-flint ``fmpq_mat``); the pure cards enter through counts;
* certificate: each player's exact payoff and best-response value, from
  integer prefix sums over one common denominator.  It checks every
  deviation (the best response is separable by card), so it is the same check
  as :func:`exactpoker.certify.verify`, which the tests compare it with;
* all pure equilibria (the paper's ``vnNE``, section 1): I's ``2^n`` pure
  strategies scanned in vectorized blocks, II's best replies and I's
  best-response test by prefix counts of the cards where each takes action 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate
from typing import Callable, Iterator, Sequence

import numpy as np
from flint import fmpq, fmpq_mat

from exactpoker.certify import Certificate, PlayerCheck
from exactpoker.core.game import BettingGame, Decision, Node, Outcome
from exactpoker.errors import CertificationError, DegenerateSystemError

__all__ = ["SignGame", "sign_game", "solve_sign_game", "certify_sign_game", "float_guide", "pure_equilibria"]

_TOLERANCES = (1e-7, 1e-5, 1e-9)  # mixed-card thresholds tried in turn
_REFINE = 1e-6  # weight of the refinement in the guide's objective
_CHUNK = 1 << 14  # rows per vectorized block of the pure enumeration


@dataclass(frozen=True)
class SignGame:
    """A game of the kind above.

    Attributes
    ----------
    n : int
        Number of cards.
    u : tuple
        ``u[a][c][h]``: I's payoff when I takes ``a``, II takes ``c`` and
        ``h = 1`` if I holds the higher card, ``h = 0`` if II does.
    names : tuple of str
        The players' names.
    """

    n: int
    u: tuple[tuple[tuple[Fraction, Fraction], ...], ...]
    names: tuple[str, str] = ("I", "II")

    def _scaled(self) -> tuple[int, list[list[list[int]]]]:
        """``(U, uu)`` with ``uu = U * u`` all integers."""
        scale = math.lcm(*(v.denominator for row in self.u for pair in row for v in pair))
        return scale, [[[int(v * scale) for v in pair] for pair in row] for row in self.u]


def sign_game(game: BettingGame) -> SignGame | None:
    """The :class:`SignGame` of ``game``, or ``None`` when it is not of this kind.

    The kind: two players, a deck without replacement, I decides first between
    two actions, and each action ends in a showdown/fold or in II's one decision
    (the same label after either action) between two actions that end the hand.
    """
    root = game.root
    if game.num_players != 2 or game.deck.replacement or not isinstance(root, Decision) or root.player != 0:
        return None
    if len(root.actions) != 2:
        return None
    labels = {child.label for _, child in root.actions if isinstance(child, Decision)}
    if len(labels) > 1:
        return None
    u = []
    for _, child in root.actions:
        leaves = _second_moves(child)
        if leaves is None:
            return None
        u.append(tuple((leaf.payoffs((1, 2))[0], leaf.payoffs((2, 1))[0]) for leaf in leaves))
    return SignGame(game.deck.cards, tuple(u), tuple(game.player_names))  # type: ignore[arg-type]


def _second_moves(node: Node) -> tuple[Outcome, Outcome] | None:
    """The outcomes after II's action 0 and 1 (the same one twice when II does not move)."""
    if isinstance(node, Outcome):
        return node, node
    if isinstance(node, Decision) and node.player == 1 and len(node.actions) == 2:
        if all(isinstance(child, Outcome) for _, child in node.actions):
            return node.actions[0][1], node.actions[1][1]  # type: ignore[return-value]
    return None


# -- the float guide -------------------------------------------------------------------------------

Table = tuple[tuple[tuple[Fraction, Fraction], ...], ...]


def _as_second(u: Table) -> Table:
    """II's payoff table seen as the maximiser's: ``v[c][a][h] = -u[a][c][1 - h]``."""
    return tuple(tuple((-u[a][c][1], -u[a][c][0]) for a in (0, 1)) for c in (0, 1))


def float_guide(g: SignGame) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Guides ``(p, q)`` in floating point, each player's optimal strategy from their own LP (HiGHS).

    As in :func:`exactpoker.solve.float_guide.float_guides`, the first guide is
    refined: among the optimal strategies, one doing best against a uniformly
    random opponent (which picks the natural strategies), here by adding that
    payoff with a small weight to the objective.  The second, computed only if
    asked for, is the plain LP solution.
    """
    second = _as_second(g.u)
    yield _maximiser_lp(g.n, g.u, _REFINE), _maximiser_lp(g.n, second, _REFINE)
    yield _maximiser_lp(g.n, g.u, 0.0), _maximiser_lp(g.n, second, 0.0)


def _maximiser_lp(n: int, table: Table, refine: float) -> np.ndarray:
    """The maximiser's optimal strategy by its sequence-form LP with cumulative variables.

    With ``v = table``, variables ``P_1..P_n`` (``P_k = p_1 + ... + p_k``) and
    ``z_1..z_n`` (what the opponent's card ``j`` concedes): maximise
    ``sum z_j`` (plus ``refine`` times the payoff against the opponent who
    takes either action with probability 1/2) subject to, for each ``j`` and
    each opponent action ``c``,
    ``z_j <= (j-1) v(0,c,0) + (n-j) v(0,c,1) + d_c(0) P_{j-1} + d_c(1) (P_n - P_j)``
    with ``d_c(h) = v(1,c,h) - v(0,c,h)``, and ``0 <= P_i - P_{i-1} <= 1``: at
    most four nonzeros per row.
    """
    from highspy import ObjSense, kHighsInf
    from highspy._core import _Highs  # the public ``Highs`` prints a banner on stdout

    v = [[[float(x) for x in pair] for pair in row] for row in table]
    big = (1.0 + max(abs(x) for row in v for pair in row for x in pair)) * n
    lp = _Highs()
    lp.setOptionValue("output_flag", False)
    # columns: P_1..P_n (index k-1), z_1..z_n (index n + j - 1)
    lower = np.concatenate([np.zeros(n), np.full(n, -big)])
    upper = np.concatenate([np.arange(1, n + 1, dtype=np.float64), np.full(n, big)])
    cards = np.arange(1, n + 1, dtype=np.float64)
    half = [(v[1][0][h] - v[0][0][h] + v[1][1][h] - v[0][1][h]) / 2 for h in (0, 1)]
    on_bet = (cards - 1) * half[1] + (n - cards) * half[0]  # payoff against 1/2 per unit of p_i
    on_cumulative = on_bet - np.append(on_bet[1:], 0.0)  # p_i = P_i - P_{i-1}
    cost = np.concatenate([refine * on_cumulative, np.ones(n)])
    none_i, none_f = np.array([], dtype=np.int32), np.array([], dtype=np.float64)
    lp.addCols(2 * n, cost, lower, upper, 0, none_i, none_i, none_f)
    starts, index, value, row_lower, row_upper = [], [], [], [], []
    for c in (0, 1):
        below, above = v[1][c][0] - v[0][c][0], v[1][c][1] - v[0][c][1]
        for j in range(1, n + 1):
            entries = {n + j - 1: 1.0}
            if j > 1:
                entries[j - 2] = -below
            if j < n:
                entries[n - 1] = -above
                entries[j - 1] = entries.get(j - 1, 0.0) + above
            starts.append(len(index))
            index += list(entries)
            value += list(entries.values())
            row_lower.append(-kHighsInf)
            row_upper.append((j - 1) * v[0][c][0] + (n - j) * v[0][c][1])
    for k in range(2, n + 1):  # 0 <= P_k - P_{k-1} <= 1
        starts.append(len(index))
        index += [k - 1, k - 2]
        value += [1.0, -1.0]
        row_lower.append(0.0)
        row_upper.append(1.0)
    lp.addRows(len(starts), np.array(row_lower), np.array(row_upper), len(index),
               np.array(starts, dtype=np.int32), np.array(index, dtype=np.int32), np.array(value))
    lp.changeObjectiveSense(ObjSense.kMaximize)
    lp.run()
    if lp.getModelStatus().name != "kOptimal":
        raise DegenerateSystemError(f"the float guide LP did not solve: {lp.getModelStatus().name}")
    return _strategy(lp, n)


def _strategy(lp: object, n: int) -> np.ndarray:
    cumulative = np.asarray(lp.getSolution().col_value[:n])  # type: ignore[attr-defined]
    return np.clip(np.diff(cumulative, prepend=0.0), 0.0, 1.0)


# -- the exact finish ------------------------------------------------------------------------------


def exact_finish(g: SignGame, p: np.ndarray, q: np.ndarray, tolerance: float) -> tuple[list[Fraction], list[Fraction]]:
    """Exact ``(p, q)``: each guide's pure cards kept, its mixed cards solved for exactly."""
    return _exact_side(g.n, g.u, p, tolerance), _exact_side(g.n, _as_second(g.u), q, tolerance)


def _exact_side(n: int, table: Table, guide: np.ndarray, tolerance: float) -> list[Fraction]:
    """The maximiser's exact strategy on the guide's support.

    Unknowns: the cards ``i`` the guide mixes on.  Equations: the opponent is
    indifferent at each card ``j`` where she nearly is under the guide,
    ``sum_{i != j} (v(0,1,h) - v(0,0,h)) + x_i e(h) = 0`` with ``h = [i > j]``
    and ``e(h) = v(1,1,h) - v(1,0,h) - v(0,1,h) + v(0,0,h)``.  The guide is an
    LP vertex, so these determine the unknowns; the (consistent, possibly
    overdetermined) system is solved exactly through its normal equations.

    Raises :class:`DegenerateSystemError` when they do not, or give a
    probability outside ``[0, 1]``.
    """
    v = table
    mixed = [i for i in range(1, n + 1) if tolerance < guide[i - 1] < 1 - tolerance]
    exact = [Fraction(int(round(x))) for x in guide]
    if not mixed:
        return exact
    for i in mixed:
        exact[i - 1] = Fraction(0)
    e = tuple(v[1][1][h] - v[1][0][h] - v[0][1][h] + v[0][0][h] for h in (0, 1))
    cards = np.arange(1, n + 1)
    base = (cards - 1) * float(v[0][1][0] - v[0][0][0]) + (n - cards) * float(v[0][1][1] - v[0][0][1])
    below = np.concatenate([[0.0], np.cumsum(guide)[:-1]])
    gaps = base + float(e[0]) * below + float(e[1]) * (guide.sum() - below - guide)
    size = n * (1.0 + max(abs(float(x)) for row in v for pair in row for x in pair))
    tight = [j for j in range(1, n + 1) if abs(gaps[j - 1]) <= tolerance * size]
    if len(tight) < len(mixed):
        raise DegenerateSystemError(f"{len(mixed)} mixed cards but only {len(tight)} indifferent opponent cards")
    low, high = _below_above(exact)
    rhs = [-((j - 1) * (v[0][1][0] - v[0][0][0]) + (n - j) * (v[0][1][1] - v[0][0][1]) + e[0] * low[j] + e[1] * high[j])
           for j in tight]
    rows = fmpq_mat(len(tight), len(mixed), [_fmpq(_pair(e, i, j)) for j in tight for i in mixed])
    column = fmpq_mat(len(tight), 1, [_fmpq(x) for x in rhs])
    normal = rows.transpose() * rows
    try:
        solution = normal.solve(rows.transpose() * column)
    except ZeroDivisionError:
        raise DegenerateSystemError("the indifference system is singular") from None
    for i, x in zip(mixed, solution.entries()):
        exact[i - 1] = Fraction(int(x.p), int(x.q))
    if any(not 0 <= x <= 1 for x in exact):
        raise DegenerateSystemError("the indifference system gives a probability outside [0, 1]")
    return exact


def _pair(e: tuple[Fraction, ...], i: int, j: int) -> Fraction:
    return Fraction(0) if i == j else e[1] if i > j else e[0]


def _below_above(values: Sequence[Fraction]) -> tuple[list[Fraction], list[Fraction]]:
    """``low[k] = sum of values of cards < k`` and ``high[k] = sum over cards > k``, for ``k = 1..n``."""
    prefix = [Fraction(0), *accumulate(values)]
    total = prefix[-1]
    return [Fraction(0)] + prefix[:-1], [Fraction(0)] + [total - prefix[k] for k in range(1, len(values) + 1)]


def _fmpq(value: Fraction) -> fmpq:
    return fmpq(value.numerator, value.denominator)


# -- the certificate -------------------------------------------------------------------------------


def certify_sign_game(g: SignGame, p: Sequence[Fraction], q: Sequence[Fraction]) -> Certificate:
    """Each player's exact payoff and best-response value at ``(p, q)``.

    The best response is taken card by card (each card is its own information
    set), against the opponent's exact strategy; all sums are prefix sums of
    integers over one common denominator.
    """
    n = g.n
    scale, uu = g._scaled()
    pairs = n * (n - 1)
    # I's card i, action a: sum over j != i of uu(a,0,h) + q_j (uu(a,1,h) - uu(a,0,h)), h = [i > j]
    d_q, q_num = _numerators(q)
    low, high = _below_above_int(q_num)
    first = [[d_q * ((i - 1) * uu[a][0][1] + (n - i) * uu[a][0][0])
              + (uu[a][1][1] - uu[a][0][1]) * low[i] + (uu[a][1][0] - uu[a][0][0]) * high[i]
              for i in range(1, n + 1)] for a in (0, 1)]
    # II's card j, action c: sum over i != j of uu(0,c,h) + p_i (uu(1,c,h) - uu(0,c,h)), h = [i > j]
    d_p, p_num = _numerators(p)
    low, high = _below_above_int(p_num)
    second = [[d_p * ((j - 1) * uu[0][c][0] + (n - j) * uu[0][c][1])
               + (uu[1][c][0] - uu[0][c][0]) * low[j] + (uu[1][c][1] - uu[0][c][1]) * high[j]
               for j in range(1, n + 1)] for c in (0, 1)]
    payoff_i = _mix(first, p) / (scale * d_q * pairs)
    best_i = Fraction(sum(map(max, *first)), scale * d_q * pairs)
    payoff_ii = -_mix(second, q) / (scale * d_p * pairs)
    best_ii = -Fraction(sum(map(min, *second)), scale * d_p * pairs)
    return Certificate((PlayerCheck(g.names[0], payoff_i, best_i), PlayerCheck(g.names[1], payoff_ii, best_ii)))


def _numerators(values: Sequence[Fraction]) -> tuple[int, list[int]]:
    """One common denominator ``d`` and the integers ``d * v``."""
    d = math.lcm(*(Fraction(v).denominator for v in values))
    return d, [int(v * d) for v in values]


def _below_above_int(values: list[int]) -> tuple[list[int], list[int]]:
    prefix = [0, *accumulate(values)]
    total = prefix[-1]
    return [0] + prefix[:-1], [0] + [total - prefix[k] for k in range(1, len(values) + 1)]


def _mix(columns: list[list[int]], weights: Sequence[Fraction]) -> Fraction:
    """``sum_k (1 - w_k) columns[0][k] + w_k columns[1][k]``, exactly (integers where ``w_k`` is 0 or 1)."""
    pure, mixed = 0, Fraction(0)
    for zero, one, w in zip(columns[0], columns[1], weights):
        if w == 0:
            pure += zero
        elif w == 1:
            pure += one
        else:
            mixed += (1 - w) * zero + w * one
    return pure + mixed


# -- solve -----------------------------------------------------------------------------------------


def solve_sign_game(g: SignGame) -> tuple[list[Fraction], list[Fraction], Certificate]:
    """An exact equilibrium ``(p, q)`` and its certificate.

    Raises :class:`CertificationError` if no tolerance of the guide leads to a
    certified profile (never returns an uncertified one).
    """
    problems = []
    for p_float, q_float in float_guide(g):
        for tolerance in _TOLERANCES:
            try:
                p, q = exact_finish(g, p_float, q_float, tolerance)
            except DegenerateSystemError as error:
                problems.append(f"tolerance {tolerance}: {error}")
                continue
            certificate = certify_sign_game(g, p, q)
            if certificate.holds:
                return p, q, certificate
            problems.append(f"tolerance {tolerance}: regret {float(certificate.max_regret):.3g}")
    raise CertificationError("the structured card-by-card LP found no certified equilibrium (" + "; ".join(problems) + ")")


# -- all pure equilibria ---------------------------------------------------------------------------


def pure_equilibria(
    g: SignGame, progress: Callable[[int, int], None] | None = None
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every pure equilibrium ``(bets, calls)`` (0/1 per card), sorted, by prefix counts.

    For each of I's ``2^n`` pure strategies (in vectorized blocks), II's reply
    at card ``j`` compares ``Delta_j``, I's gain when II takes action 1 rather
    than 0, which depends on the strategy only through the numbers of cards
    below and above ``j`` where I takes action 1.  II's best replies are the
    product of her optimal actions (both where ``Delta_j = 0``); each is kept
    when I's strategy is a best response to it, again by prefix counts.
    Integer arithmetic throughout (``u`` scaled to integers), so ties are exact.
    """
    n = g.n
    _, uu = g._scaled()
    ee = [uu[1][1][h] - uu[1][0][h] - uu[0][1][h] + uu[0][0][h] for h in (0, 1)]
    bound = 8 * n * max(abs(v) for row in uu for pair in row for v in pair)  # above every |gain|
    kind = np.int32 if bound < 2**31 else np.int64 if bound < 2**63 else object
    cards = np.arange(1, n + 1).astype(kind)
    respond_base = (cards - 1) * (uu[0][1][0] - uu[0][0][0]) + (n - cards) * (uu[0][1][1] - uu[0][0][1])
    act_base = (cards - 1) * (uu[1][0][1] - uu[0][0][1]) + (n - cards) * (uu[1][0][0] - uu[0][0][0])

    def gains(choices: np.ndarray, base: np.ndarray, low: int, high: int) -> np.ndarray:
        below = np.cumsum(choices, axis=1, dtype=choices.dtype) - choices
        above = choices.sum(axis=1, keepdims=True, dtype=choices.dtype) - below - choices
        return base + low * below + high * above

    def best_for_i(bets: np.ndarray, calls: np.ndarray) -> np.ndarray:
        gain = gains(calls, act_base, ee[1], ee[0])  # I's card i: calls below i have h = 1
        return np.all(np.where(bets == 1, gain >= 0, gain <= 0), axis=1)

    def may_be_best_for_i(bets: np.ndarray, calls: np.ndarray, ties: np.ndarray) -> np.ndarray:
        """False where no setting of the tied cards makes ``bets`` a best response (I's gains are monotone in them)."""
        forced = gains(calls, act_base, ee[1], ee[0])
        up = gains(ties, np.zeros_like(act_base), max(ee[1], 0), max(ee[0], 0))
        down = gains(ties, np.zeros_like(act_base), min(ee[1], 0), min(ee[0], 0))
        return np.all(np.where(bets == 1, forced + up >= 0, forced + down <= 0), axis=1)

    found = []
    total = 1 << n
    shifts = np.arange(n, dtype=np.int64)
    for start in range(0, total, _CHUNK):
        bets = ((np.arange(start, min(total, start + _CHUNK), dtype=np.int64)[:, None] >> shifts) & 1).astype(kind)
        delta = gains(bets, respond_base, ee[0], ee[1])  # II's card j: bets below j have h = 0
        calls, ties = (delta < 0).astype(kind), delta == 0
        plain = ~ties.any(axis=1)
        for row in np.nonzero(plain & best_for_i(bets, calls))[0]:
            found.append((tuple(bets[row].tolist()), tuple(calls[row].tolist())))
        counts = np.where(plain, 0, ties.sum(axis=1))
        counts[~plain & ~may_be_best_for_i(bets, calls, ties.astype(kind))] = 0
        for t in np.unique(counts[counts > 0]).tolist():
            found += _tied_replies(bets, calls, ties, np.nonzero(counts == t)[0], t, best_for_i)
        if progress is not None:
            progress(min(total, start + _CHUNK), total)
    return sorted(found)


def _tied_replies(
    bets: np.ndarray,
    calls: np.ndarray,
    ties: np.ndarray,
    rows: np.ndarray,
    t: int,
    best_for_i: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """For rows with ``t`` tied cards each: the replies setting those either way to which the row is a best response.

    Blocks of whole rows times all ``2^t`` settings, at most about ``_CHUNK`` replies each.
    """
    found = []
    per_block = max(1, _CHUNK >> t)
    for low in range(0, 1 << t, _CHUNK):  # one slice unless t > log2(_CHUNK)
        settings = (np.arange(low, min(1 << t, low + _CHUNK), dtype=np.int64)[:, None] >> np.arange(t)) & 1
        for first in range(0, len(rows), per_block):
            block = rows[first:first + per_block]
            tied = np.nonzero(ties[block])[1].reshape(len(block), t)
            replies = np.repeat(calls[block][:, None, :], len(settings), axis=1)  # (rows, settings, n)
            where = (np.arange(len(block))[:, None, None], np.arange(len(settings))[None, :, None], tied[:, None, :])
            replies[where] = settings[None, :, :].astype(replies.dtype)
            flat_replies = replies.reshape(-1, bets.shape[1])
            flat_mine = np.repeat(bets[block], len(settings), axis=0)
            for k in np.nonzero(best_for_i(flat_mine, flat_replies))[0]:
                found.append((tuple(flat_mine[k].tolist()), tuple(flat_replies[k].tolist())))
    return found
