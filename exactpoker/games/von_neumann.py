"""von Neumann poker with a finite deck.

Seed 000 (Krityakierne, Thanatipanonda and Zeilberger, "von Neumann and Newman
Pokers with Finite Decks", 2024), sections 1 and 2.  Cards ``1..n`` are dealt
to players I and II without replacement; both ante 1.  Player I checks (the
higher card wins the pot of 2) or bets ``b``; player II then folds (I wins 1)
or calls (the higher card wins ``b + 1``).  ``b`` may be any positive rational.

The paper's procedures and ours:

=================  ===============================================  =========================
paper              what it computes                                 here
=================  ===============================================  =========================
``vnNE(n,b)``      all pure Nash equilibria                         :func:`pure_equilibria`
(output file 1A)   pure NEs with interval strategies only, plus     :func:`restricted_equilibria`
                   one mixed one of that restricted game
``MNE(M,S1,S2)``   mixed NE by the LP over all ``2^n`` strategies   :func:`equilibrium` ``(method="slow")``
``vnMNE(n,b)``     mixed NE by the card-by-card LP                  :func:`equilibrium` ``(method="fast")``
``vnMNEv(n,b)``    the same, spelled out as advice                  :func:`advice`
``PayOffP1P2``     payoff as a bilinear form in ``p_i``, ``q_j``    ``game(n, b)`` compiled,
                                                                    ``payoff_polynomials()``
=================  ===============================================  =========================

Strategies are reported per card: for player I the probability of betting,
for player II the probability of calling a bet.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

import numpy as np

from exactpoker.certify import Certificate, verify, verify_matrix_game
from exactpoker.core import BehaviourProfile, BettingGame, CompiledGame, Decision, Deck, Outcome, compile_game
from exactpoker.numbers import exact_str, parse_int, parse_positive
from exactpoker.results import Equilibrium, SolveResult
from exactpoker.solve.enumeration.pure import (
    Progress,
    matrix_pure_equilibria,
    pure_equilibria as enumerate_pure,
    pure_realization,
    strategic_form,
)
from exactpoker.solve import solve_game
from exactpoker.solve.structure.sign_games import SignProfile, certify_sign_game, sign_game
from exactpoker.solve.enumeration.sign_games_pure import pure_equilibria as sign_pure_equilibria
from exactpoker.solve.lp.simplex import solve_matrix_game
from exactpoker.solve.lp.zerosum import solve_zero_sum

__all__ = [
    "game",
    "compiled",
    "pure_equilibria",
    "restricted_equilibria",
    "equilibrium",
    "advice",
    "check_profile",
    "MAX_SLOW_CARDS",
    "MAX_PURE_CARDS",
]

NAME = "von-neumann"
OPEN, RESPOND = "open", "facing a bet"
MAX_SLOW_CARDS = 9  # 2^9 x 2^9 strategic form
MAX_PURE_CARDS = 24  # 2^24 strategies of player I, enumerated in chunks


def game(n: int, b: object) -> BettingGame:
    """The betting game: cards ``1..n`` without replacement, ante 1, bet ``b``."""
    n = parse_int(n, "n", 2)
    bet = parse_positive(b, "b")
    fold = Outcome((1 + bet, 1), (0,))
    call = Outcome((1 + bet, 1 + bet), (0, 1))
    respond = Decision(1, RESPOND, (("fold", fold), ("call", call)))
    root = Decision(0, OPEN, (("check", Outcome((1, 1), (0, 1))), ("bet", respond)))
    return BettingGame(NAME, Deck(n), root, ("I", "II"), (("n", n), ("b", bet)))


def compiled(n: int, b: object) -> CompiledGame:
    """The compiled game (exact sequence-form payoffs)."""
    return compile_game(game(n, b))


def _params(g: CompiledGame) -> dict[str, object]:
    return dict(g.game.parameters)


def _tables(g: CompiledGame, profile: BehaviourProfile) -> dict[str, list[Fraction]]:
    return {
        "I": profile.last_action_table(g, 0, OPEN),
        "II": profile.last_action_table(g, 1, RESPOND),
    }


def _certified(g: CompiledGame, profile: BehaviourProfile, certificate: Certificate | None = None) -> Equilibrium:
    certificate = certificate if certificate is not None else verify(g, profile)
    return Equilibrium.from_certificate(certificate, _tables(g, profile), profile)


def pure_equilibria(n: int, b: object, *, method: str = "auto", progress: Progress | None = None) -> SolveResult:
    """All pure Nash equilibria (the paper's vnNE), each certified exactly.

    Parameters
    ----------
    n : int
        Deck size, ``2 <= n <= 24``.
    b : rational
        Bet size, ``> 0``.
    method : {"auto", "separable", "brute-force"}
        ``"auto"``: the prefix-count enumeration of
        :func:`exactpoker.solve.enumeration.sign_games_pure.pure_equilibria`; the others are
        the general ones of :mod:`exactpoker.solve.enumeration.pure` (brute force is for
        small decks).
    progress : callable, optional
        ``progress(done, total)``, called as the enumeration advances.

    Examples
    --------
    >>> r = pure_equilibria(7, 2)
    >>> len(r.equilibria), r.value
    (3, 2/21)
    """
    n = parse_int(n, "n", 2, MAX_PURE_CARDS, "all pure equilibria scan 2^n strategies; for larger decks ask for a mixed equilibrium: exactpoker vn mixed")
    g = compiled(n, b)
    structure = sign_game(g.game)
    if method == "auto":  # the prefix-count enumeration, certified by the prefix-sum check
        found = sign_pure_equilibria(structure, progress)
    else:  # the general enumerations, certified by the general check
        found = [pure.choices for pure in enumerate_pure(g, method=method, progress=progress)]  # type: ignore[arg-type]
    equilibria = []
    for bets, calls in found:
        profile = BehaviourProfile.from_tables(g, [{OPEN: list(bets)}, {RESPOND: list(calls)}])
        certificate = certify_sign_game(structure, SignProfile.binary(bets, calls)) if method == "auto" else None
        equilibria.append(_certified(g, profile, certificate))
    notes = () if equilibria else ("no pure Nash equilibrium",)
    return SolveResult(NAME, _params(g), f"pure-enumeration ({method})", tuple(equilibria), notes)


def _interval_strategies(n: int) -> tuple[np.ndarray, np.ndarray, list[tuple[int, int]], list[int]]:
    """Choice rows of the interval strategies (seed 000 section 1, output file 1A).

    Player I: "check iff ``A <= i <= B``" for ``1 <= A < B <= n``.
    Player II: "call iff ``j >= C``" for ``1 <= C <= n``.
    """
    cards = np.arange(1, n + 1)
    cuts_i = [(a, b) for a in range(1, n + 1) for b in range(a + 1, n + 1)]
    rows = np.array([np.where((cards >= a) & (cards <= b), 0, 1) for a, b in cuts_i], dtype=np.int64)
    cuts_ii = list(range(1, n + 1))
    cols = np.array([np.where(cards >= c, 1, 0) for c in cuts_ii], dtype=np.int64)
    return rows, cols, cuts_i, cuts_ii


def restricted_equilibria(n: int, b: object) -> SolveResult:
    """Pure equilibria of the interval-restricted game, and one mixed equilibrium of it.

    The restriction (seed 000 section 1): player I checks iff his card is in
    ``{A, ..., B}`` for some ``1 <= A < B <= n`` (bets otherwise); player II
    calls iff her card is in ``{C, ..., n}`` for some ``1 <= C <= n``.  The
    restricted game is the matrix game between these ``n(n-1)/2`` and ``n``
    strategies.  Its equilibria are certified *within the restricted game*
    (``certificate.scope`` says so); a note says which are also equilibria
    of the full game.  Like the paper's output file, the result lists every
    pure equilibrium and then one mixed one, found by the exact LP of the
    restricted matrix game.
    """
    n = parse_int(n, "n", 2, 200, "the restricted game has n(n-1)/2 x n strategies")
    g = compiled(n, b)
    rows, cols, cuts_i, cuts_ii = _interval_strategies(n)
    matrix = _strategic_matrix(g, rows, cols)
    scope = "interval strategies (I checks iff A <= card <= B; II calls iff card >= C)"
    equilibria, notes, pure_cuts = [], [], []
    for i, j in matrix_pure_equilibria(matrix, -matrix):
        x = [Fraction(int(k == i)) for k in range(len(rows))]
        y = [Fraction(int(k == j)) for k in range(len(cols))]
        certificate = verify_matrix_game(matrix, x, y, g.denominator, scope=scope)
        profile = BehaviourProfile.from_tables(g, [{OPEN: list(rows[i])}, {RESPOND: list(cols[j])}])
        equilibria.append(Equilibrium.from_certificate(certificate, _tables(g, profile), profile))
        (a, bb), c = cuts_i[i], cuts_ii[j]
        pure_cuts.append((a, bb, c))
        full = " (also an equilibrium of the full game)" if verify(g, profile).holds else ""
        notes.append(f"pure: A={a}, B={bb}, C={c}, value {exact_str(certificate.payoffs[0])}{full}")
    if not equilibria:
        notes.append("the restricted game has no pure equilibrium")
    mixed = solve_matrix_game(matrix.tolist())
    certificate = verify_matrix_game(matrix, mixed.row_strategy, mixed.column_strategy, g.denominator, scope=scope)
    profile = _mixture_profile(g, rows, mixed.row_strategy, cols, mixed.column_strategy)
    equilibria.append(Equilibrium.from_certificate(certificate, _tables(g, profile), profile))
    notes.append(f"mixed (exact LP of the restricted matrix game): value {exact_str(certificate.payoffs[0])}")
    mixture = {
        "I": [[{"A": cuts_i[i][0], "B": cuts_i[i][1]}, p] for i, p in enumerate(mixed.row_strategy) if p],
        "II": [[{"C": cuts_ii[j]}, q] for j, q in enumerate(mixed.column_strategy) if q],
    }
    return SolveResult(NAME, _params(g), "restricted (interval strategies)", tuple(equilibria), tuple(notes),
                       {"pure cuts": pure_cuts, "mixed": mixture})


def _strategic_matrix(g: CompiledGame, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Player I's payoff numerators (over ``g.denominator``) for pure strategies given as choice rows."""
    first, second = g.layouts
    seq_rows, seq_cols, values = g.payoff_matrix()
    dense = np.zeros((first.num_sequences, second.num_sequences), dtype=np.int64)
    np.add.at(dense, (seq_rows, seq_cols), values.astype(np.int64))
    return pure_realization(first, rows) @ dense @ pure_realization(second, cols).T


def equilibrium(n: int, b: object, *, method: Literal["fast", "generic", "slow", "simplex"] = "fast") -> SolveResult:
    """One mixed Nash equilibrium, exact and certified.

    Parameters
    ----------
    n : int
        Deck size, ``>= 2``.
    b : rational
        Bet size, ``> 0``.
    method : {"fast", "generic", "slow", "simplex"}
        ``"fast"``: the card-by-card (sequence-form) LP, solved by HiGHS and
        finished exactly on its support (the paper's vnMNE), using that the
        payoff depends on the cards only through who holds the higher one
        (:mod:`exactpoker.solve.structure.sign_games`: O(n) memory, n = 10,000 in
        seconds).  ``"generic"``: the same LP through the general sequence-form
        solver (:func:`exactpoker.solve.lp.zerosum.solve_zero_sum`, O(n^2)).
        ``"simplex"``: the same LP by the exact rational simplex.  ``"slow"``: the LP of the
        ``2^n x 2^n`` matrix game (the paper's MNE), ``n <= 9``; its mixture
        over pure strategies is in ``details``.

    Examples
    --------
    >>> equilibrium(3, 1).equilibria[0].strategies
    {'I': [1/3, 0, 1], 'II': [0, 1/3, 1]}
    """
    if method == "slow":
        return _slow_equilibrium(n, b)
    if method not in ("fast", "generic", "simplex"):
        raise ValueError(f"equilibrium(): --method/method must be fast, generic, slow or simplex; got {method!r}")
    n = parse_int(n, "n", 2)
    if method == "fast":
        return _structured_equilibrium(n, b)
    g = compiled(n, b)
    profile, certificate, used = solve_zero_sum(g, method="support" if method == "generic" else "simplex")
    label = "card-by-card LP (float-guided, exact finish)" if used == "support" else "card-by-card LP (exact simplex)"
    return SolveResult(NAME, _params(g), label, (_certified(g, profile, certificate),))


def _structured_equilibrium(n: int, b: object) -> SolveResult:
    """The one engine on the rules (:func:`exactpoker.solve.solve_game`: the card-by-card LP of
    :mod:`exactpoker.solve.structure.sign_games`, certified by its exact prefix-sum check), in the paper's tables."""
    solved = solve_game(game(n, b))
    [found] = solved.equilibria
    bet, call = ([row[1] for row in found.profile.strategies[p]] for p in (0, 1))
    equilibrium = Equilibrium.from_certificate(found.certificate, {"I": bet, "II": call}, found.profile)
    return SolveResult(NAME, solved.params, solved.method, (equilibrium,))


def _slow_equilibrium(n: int, b: object) -> SolveResult:
    n = parse_int(n, "n", 2, MAX_SLOW_CARDS, "the slow LP has 2^n x 2^n strategies; use --method/method fast")
    g = compiled(n, b)
    rows, cols, m1, _ = strategic_form(g)
    mixed = solve_matrix_game(m1.tolist())
    profile = _mixture_profile(g, rows, mixed.row_strategy, cols, mixed.column_strategy)
    mixture = {
        "I": [[_card_set(row), p] for row, p in zip(rows, mixed.row_strategy) if p],
        "II": [[_card_set(col), q] for col, q in zip(cols, mixed.column_strategy) if q],
    }
    return SolveResult(NAME, _params(g), "LP over all pure strategies (exact)", (_certified(g, profile),),
                       details={"mixture": mixture})


def _mixture_profile(
    g: CompiledGame, rows: np.ndarray, row_weights: tuple, cols: np.ndarray, col_weights: tuple
) -> BehaviourProfile:
    """The behaviour profile of mixtures over pure strategies (each player moves once, so it is equivalent)."""
    bet = [sum((w for w, row in zip(row_weights, rows) if row[k]), Fraction(0)) for k in range(g.cards)]
    call = [sum((w for w, col in zip(col_weights, cols) if col[k]), Fraction(0)) for k in range(g.cards)]
    return BehaviourProfile.from_tables(g, [{OPEN: bet}, {RESPOND: call}])


def _card_set(choice: np.ndarray) -> list[int]:
    return [k + 1 for k, c in enumerate(choice) if c]


def check_profile(n: int, b: object, bet: list, call: list) -> Certificate:
    """Certify a given profile exactly: ``bet[i-1]`` and ``call[j-1]`` are the probabilities per card.

    Use it to check a published strategy pair, e.g. the paper's vnMNE output.
    """
    g = compiled(n, b)
    return verify(g, BehaviourProfile.from_tables(g, [{OPEN: list(bet)}, {RESPOND: list(call)}]))


def advice(result: SolveResult, index: int = 0) -> str:
    """The equilibrium spelled out in plain words (the paper's vnMNEv)."""
    eq = result.equilibria[index]
    lines = [f"The value of the game (for Player I) is {eq.values[0]}."]
    lines += _advice_lines("Player I", "bet", "check", eq.strategies["I"])
    lines += _advice_lines("Player II (facing a bet)", "call", "fold", eq.strategies["II"])
    return "\n".join(lines)


def _advice_lines(who: str, act: str, other: str, probs: list) -> list[str]:
    lines = [f"{who}:"]
    start = 0
    for k in range(1, len(probs) + 1):
        if k == len(probs) or probs[k] != probs[start]:
            cards = f"card is {start + 1}" if k - 1 == start else f"card is {start + 1} to {k}"
            p = probs[start]
            if p == 1:
                what = f"always {act}"
            elif p == 0:
                what = f"always {other}"
            else:
                what = f"{act} with probability {p} and {other} with probability {1 - p}"
            lines.append(f"  if your {cards}: {what}.")
            start = k
    return lines
