"""Newman poker with a finite deck.

Seed 000, section 3 ("DJ Newman Poker").  Cards ``1..n`` are dealt to players
I and II without replacement; both ante 1.  Player I bets ``s`` in
``{0, 1, ..., b}`` (``s = 0`` is a check: the higher card wins 1); player II,
seeing ``s``, folds (I wins 1) or calls (the higher card wins ``s + 1``).

The paper's ``djnMNE(n, b)`` solves an LP with ``n 2^b`` constraints for
player I (one per card of player II and set of bet sizes she calls).  Here:

- :func:`equilibrium` (default ``method="sequence"``): the card-by-card LP,
  ``n (b + 1)`` constraints with cumulative variables (the payoff depends on
  the cards only through who holds the higher one:
  :mod:`exactpoker.solve.structure.sign_games`, O(n b) memory), solved by HiGHS and
  finished exactly from its basis;
- ``method="generic"``: the same LP through the general sequence-form solver
  (:func:`exactpoker.solve.lp.zerosum.solve_zero_sum`, O(n^2 b));
- ``method="paper"``: the paper's LP over player II's local pure strategies,
  solved by the exact simplex (small ``n 2^b``);
- :func:`saturation`: the values for growing ``b`` until they stop changing.

Strategies are reported as the paper's matrices: for player I, per card, the
probabilities ``p_i[s]`` of betting ``s = 0..b``; for player II, per card, the
probabilities ``q_j[s]`` of calling a bet ``s`` (with ``q_j[0] = 1``: a check
is always "seen").
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Literal

from exactpoker import progress
from exactpoker.certify import verify
from exactpoker.core import BehaviourProfile, BettingGame, CompiledGame, Decision, Deck, Outcome, compile_game
from exactpoker.numbers import exact_str, parse_int
from exactpoker.results import Equilibrium, SolveResult
from exactpoker.solve import solve_game
from exactpoker.solve.lp.simplex import solve_lp
from exactpoker.solve.lp.zerosum import solve_zero_sum

__all__ = ["game", "compiled", "equilibrium", "saturation", "MAX_PAPER_ROWS"]

NAME = "newman"
OPEN = "open"
MAX_PAPER_ROWS = 600  # constraints of the paper's LP solved by the exact simplex


def _facing(s: int) -> str:
    return f"facing {s}"


def game(n: int, b: int) -> BettingGame:
    """The betting game: cards ``1..n`` without replacement, ante 1, bets ``0..b``."""
    n = parse_int(n, "n", 2)
    b = parse_int(b, "b", 1)
    actions: list[tuple[str, object]] = [("check", Outcome((1, 1), (0, 1)))]
    for s in range(1, b + 1):
        respond = Decision(1, _facing(s), (("fold", Outcome((1 + s, 1), (0,))), ("call", Outcome((1 + s, 1 + s), (0, 1)))))
        actions.append((f"bet {s}", respond))
    return BettingGame(NAME, Deck(n), Decision(0, OPEN, tuple(actions)), ("I", "II"), (("n", n), ("b", b)))


def compiled(n: int, b: int) -> CompiledGame:
    """The compiled game."""
    return compile_game(game(n, b))


def _tables(g: CompiledGame, profile: BehaviourProfile) -> dict[str, list[list[Fraction]]]:
    b = dict(g.game.parameters)["b"]
    bets = [list(dist) for dist in profile.table(g, 0, OPEN)]
    calls = [profile.last_action_table(g, 1, _facing(s)) for s in range(1, b + 1)]
    return _paper_tables(bets, calls)


def _paper_tables(bets: list[list[Fraction]], calls: list[list[Fraction]]) -> dict[str, list[list[Fraction]]]:
    """The paper's matrices from I's distributions per card and II's calling probabilities per bet size."""
    return {"I": bets, "II": [[Fraction(1)] + [row[j] for row in calls] for j in range(len(bets))]}


def equilibrium(n: int, b: int, *, method: Literal["sequence", "generic", "paper"] = "sequence") -> SolveResult:
    """One exact, certified equilibrium (the paper's djnMNE).

    Parameters
    ----------
    n : int
        Deck size, ``>= 2``.
    b : int
        Largest bet, ``>= 1``.
    method : {"sequence", "generic", "paper"}
        The card-by-card LP (fast: n = 1000, b = 20 in seconds), the same
        LP through the general sequence-form solver, or the paper's LP with
        ``n 2^b`` constraints solved by the exact simplex (``n 2^b <= 600``).

    Examples
    --------
    >>> equilibrium(3, 1).value
    1/18
    """
    if method not in ("sequence", "generic", "paper"):
        raise ValueError(f"equilibrium(): --method/method must be sequence, generic or paper; got {method!r}")
    if method == "sequence":
        return _structured_equilibrium(game(n, b))
    g = compiled(n, b)
    if method == "generic":
        profile, certificate, used = solve_zero_sum(g)
        label = "sequence-form LP (" + ("float-guided, exact finish" if used == "support" else "exact simplex") + ")"
    else:
        profile = _paper_lp(g)
        certificate, label = verify(g, profile), "the paper's LP over II's call sets (exact simplex)"
    eq = Equilibrium.from_certificate(certificate, _tables(g, profile), profile)
    return SolveResult(NAME, dict(g.game.parameters), label, (eq,))


def _structured_equilibrium(rules: BettingGame) -> SolveResult:
    """The one engine on the rules (:func:`exactpoker.solve.solve_game`: the card-by-card LP of
    :mod:`exactpoker.solve.structure.sign_games`, certified by its exact prefix-sum check), in the paper's tables."""
    solved = solve_game(rules)
    [found] = solved.equilibria
    b = len(rules.root.actions) - 1
    calls = [[found.exact_strategies["II"][f"{card}:{_facing(s)}"][1] for card in range(1, rules.deck.cards + 1)]
             for s in range(1, b + 1)]
    bets = [list(row) for row in found.profile.strategies[0]]
    eq = Equilibrium.from_certificate(found.certificate, _paper_tables(bets, calls), found.profile)
    return SolveResult(NAME, solved.params, solved.method, (eq,))


def _paper_lp(g: CompiledGame) -> BehaviourProfile:
    """The paper's DJN-I: ``max sum_j v_j`` with ``v_j <=`` I's payoff against each call set of card ``j``.

    Player I's variables are ``p_i[s]``; each constraint fixes II's card ``j``
    and the set ``Y`` of bets she calls.  The multipliers of the constraints
    of card ``j`` are her mixture over call sets, hence ``q_j[s]``.
    """
    n, b = g.cards, dict(g.game.parameters)["b"]
    rows = n * 2**b
    if rows > MAX_PAPER_ROWS:
        raise ValueError(
            f"equilibrium(): --method/method paper has n x 2^b = {rows} constraints (at most {MAX_PAPER_ROWS}); "
            "use --method/method sequence"
        )
    first, second = g.layouts
    seq_rows, seq_cols, values = g.payoff_matrix()
    payoff: dict[tuple[int, int], int] = {}
    for r, c, v in zip(seq_rows.tolist(), seq_cols.tolist(), values.tolist()):
        payoff[(r, c)] = payoff.get((r, c), 0) + int(v)
    # variables: p_i[s] for i, s (player I's sequences 1..), then v_1..v_n
    num_p = first.num_sequences - 1
    call_sets = [frozenset(c) for size in range(b + 1) for c in itertools.combinations(range(1, b + 1), size)]
    a_ub, keys = [], []
    for j in range(1, n + 1):
        for calls in call_sets:
            row = [Fraction(0)] * (num_p + n)
            for s in range(1, b + 1):
                label = second.labels.index(_facing(s))
                tau = second.sequence(j, label, 1 if s in calls else 0)
                for sigma in range(1, first.num_sequences):
                    row[sigma - 1] -= payoff.get((sigma, tau), 0)
            row[num_p + j - 1] = Fraction(1)
            a_ub.append(row)
            keys.append((j, calls))
    # the checks and what does not depend on II's choice: II's empty sequence
    cost = [Fraction(payoff.get((sigma, 0), 0)) for sigma in range(1, first.num_sequences)] + [Fraction(1)] * n
    a_eq = []
    for i in range(1, n + 1):
        row = [Fraction(0)] * (num_p + n)
        for s in first.infoset_sequences(first.infoset(i, 0)):
            row[s - 1] = Fraction(1)
        a_eq.append(row)
    solution = solve_lp(cost, a_ub, [0] * len(a_ub), a_eq, [1] * n, free=range(num_p, num_p + n), maximize=True)
    bets = [[solution.x[s - 1] for s in first.infoset_sequences(first.infoset(i, 0))] for i in range(1, n + 1)]
    calls_of = {s: [Fraction(0)] * n for s in range(1, b + 1)}
    for (j, calls), weight in zip(keys, solution.dual_ub):
        for s in calls:
            calls_of[s][j - 1] += weight
    tables = [{OPEN: bets}, {_facing(s): calls_of[s] for s in range(1, b + 1)}]
    return BehaviourProfile.from_tables(g, tables)


def saturation(n: int, *, lookahead: int = 3, max_b: int = 60) -> SolveResult:
    """Values for ``b = 1, 2, ...`` until they stop changing (seed 000 section 3, output file 4a).

    The saturation point is the smallest ``b`` whose value is repeated,
    unchanged, for the next ``lookahead`` bet sizes.  This is what is
    computed and checked; that no larger ``b`` ever changes the value is the
    paper's observation, not a theorem proved here.

    Returns
    -------
    SolveResult
        One certified equilibrium per ``b`` (in order); ``details`` holds the
        values and ``"saturation b"``.
    """
    n = parse_int(n, "n", 2)
    lookahead = parse_int(lookahead, "lookahead", 1)
    results, values = [], []
    b = 0
    while True:
        b += 1
        if b > max_b:
            raise ValueError(f"saturation(): the value still changes at b = {max_b} (max_b); raise max_b")
        with progress.part(f"newman saturation, b = {b}"):
            r = equilibrium(n, b)
        results.append(r.equilibria[0])
        values.append(r.value)
        tail = values[-(lookahead + 1):]
        if len(tail) == lookahead + 1 and len(set(tail)) == 1:
            saturated = b - lookahead
            break
    notes = (
        f"the value {values[saturated - 1]} is reached at b = {saturated} and unchanged up to b = {b}",
    )
    details = {"values": {str(k + 1): v for k, v in enumerate(values)}, "saturation b": saturated}
    return SolveResult(NAME, {"n": n}, "sequence-form LP for b = 1, 2, ...", tuple(results), notes, details)


def describe(result: SolveResult) -> str:
    """The equilibrium's strategies in words (the paper's djnMNEv)."""
    eq = result.equilibria[0]
    lines = [f"The value of the game (for Player I) is {eq.values[0]}.", "Player I:"]
    for card, dist in enumerate(eq.strategies["I"], start=1):
        parts = [f"bet {s} with probability {p}" if s else f"check with probability {p}" for s, p in enumerate(dist) if p]
        lines.append(f"  card {card}: " + ", ".join(parts))
    lines.append("Player II (calling probability per bet size 1..b):")
    for card, row in enumerate(eq.strategies["II"], start=1):
        lines.append(f"  card {card}: " + ", ".join(exact_str(Fraction(str(q))) for q in row[1:]))
    return "\n".join(lines)
