"""von Neumann poker with a finite deck: the paper's procedures and tables.

Seed 000 (Krityakierne, Thanatipanonda and Zeilberger, "von Neumann and Newman
Pokers with Finite Decks", 2024), sections 1 and 2; the rules are
:mod:`exactpoker.games.von_neumann`.  The paper's procedures and ours, each on
the one engine (:func:`exactpoker.solve.solve_game`):

=================  ===============================================  =========================
paper              what it computes                                 here
=================  ===============================================  =========================
``vnNE(n,b)``      all pure Nash equilibria                         :func:`pure_equilibria`
(output file 1A)   pure NEs with interval strategies only, plus     :func:`restricted_equilibria`
                   one mixed one of that restricted game
``MNE(M,S1,S2)``   mixed NE by the LP over all ``2^n`` strategies   :func:`equilibrium` ``(method="strategic")``
``vnMNE(n,b)``     mixed NE by the card-by-card LP                  :func:`equilibrium` ``(method="structured")``
``vnMNEv(n,b)``    the same, spelled out as advice                  :func:`advice`
``PayOffP1P2``     payoff as a bilinear form in ``p_i``, ``q_j``    ``game(n, b)`` compiled,
                                                                    ``payoff_polynomials()``
=================  ===============================================  =========================

Strategies are reported per card: for player I the probability of betting,
for player II the probability of calling a bet.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

import numpy as np

from exactpoker.certify import Certificate, verify
from exactpoker.core import BehaviourProfile
from exactpoker.errors import InvalidParameterError
from exactpoker.games.papers.words import lp_words
from exactpoker.games.von_neumann import NAME, OPEN, RESPOND, compiled, game
from exactpoker.numbers import exact_str, parse_int
from exactpoker.results import Equilibrium, SolveResult
from exactpoker.solve import solve_game

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

MAX_SLOW_CARDS = 9  # 2^9 x 2^9 strategic form
MAX_PURE_CARDS = 24  # 2^24 strategies of player I, enumerated in chunks

#: The scope of the interval-restricted game's certificates (seed 000 section 1, output file 1A).
INTERVAL_SCOPE = "interval strategies (I checks iff A <= card <= B; II calls iff card >= C)"

#: The engine's sequence-form LP, in the paper's words (``vnMNE``'s LP is the card-by-card one).
_LP_NAMES = lp_words("card-by-card LP")


def _per_card(equilibrium: Equilibrium, certificate: Certificate | None = None) -> Equilibrium:
    """The equilibrium in the paper's tables: per card, I's probability of betting and II's of calling."""
    bet, call = ([row[1] for row in equilibrium.profile.strategies[p]] for p in (0, 1))
    return Equilibrium.from_certificate(certificate or equilibrium.certificate, {"I": bet, "II": call},
                                        equilibrium.profile)


def pure_equilibria(n: int, b: object, *, method: str = "auto") -> SolveResult:
    """All pure Nash equilibria (the paper's vnNE), each certified exactly.

    Parameters
    ----------
    n : int
        Deck size, ``2 <= n <= 24``.
    b : rational
        Bet size, ``> 0``.
    method : {"auto", "structured", "strategic"}
        ``"auto"`` (= ``"structured"``): the prefix-count enumeration of the
        game decided by the higher card, certified by its prefix-sum check;
        ``"strategic"``: every cell of the full strategic form, certified by
        the general check (for small decks).

    Examples
    --------
    >>> r = pure_equilibria(7, 2)
    >>> len(r.equilibria), r.value
    (3, 2/21)
    """
    n = parse_int(n, "n", 2, MAX_PURE_CARDS, "all pure equilibria scan 2^n strategies; for larger decks ask for a "
                  "mixed equilibrium: exactpoker vn mixed")
    if method not in ("auto", "structured", "strategic"):
        raise InvalidParameterError(f"pure_equilibria(): method must be auto, structured or strategic; got {method!r}")
    solved = solve_game(game(n, b), all_pure=True, method="structured" if method == "auto" else method)
    equilibria = tuple(_per_card(eq) for eq in solved.equilibria)
    notes = () if equilibria else ("no pure Nash equilibrium",)
    return SolveResult(NAME, solved.params, f"pure-enumeration ({method})", equilibria, notes)


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
    strategies (``solve_game(..., strategies=...)``).  Its equilibria are
    certified *within the restricted game* (``certificate.scope`` says so); a
    note says which are also equilibria of the full game.  Like the paper's
    output file, the result lists every pure equilibrium and then one mixed
    one, found by the exact LP of the restricted matrix game.
    """
    n = parse_int(n, "n", 2, 200, "the restricted game has n(n-1)/2 x n strategies")
    g = compiled(n, b)
    rows, cols, cuts_i, cuts_ii = _interval_strategies(n)
    row_of, col_of = _index(rows), _index(cols)
    pure = solve_game(g, all_pure=True, strategies=(rows, cols))
    equilibria, notes, pure_cuts = [], [], []
    for found in pure.equilibria:
        equilibrium = _per_card(found, replace(found.certificate, scope=INTERVAL_SCOPE))
        equilibria.append(equilibrium)
        (a, bb), c = cuts_i[row_of[_choices(equilibrium, "I")]], cuts_ii[col_of[_choices(equilibrium, "II")]]
        pure_cuts.append((a, bb, c))
        full = " (also an equilibrium of the full game)" if verify(g, found.profile).holds else ""
        notes.append(f"pure: A={a}, B={bb}, C={c}, value {exact_str(found.certificate.payoffs[0])}{full}")
    if not equilibria:
        notes.append("the restricted game has no pure equilibrium")
    mixed = solve_game(g, method="strategic", strategies=(rows, cols))
    [found] = mixed.equilibria
    equilibria.append(_per_card(found, replace(found.certificate, scope=INTERVAL_SCOPE)))
    notes.append(f"mixed (exact LP of the restricted matrix game): value {exact_str(found.certificate.payoffs[0])}")
    mixtures = mixed.details["mixtures"]
    mixture = {
        "I": [[{"A": cuts_i[row_of[tuple(row)]][0], "B": cuts_i[row_of[tuple(row)]][1]}, p] for row, p in mixtures["I"]],
        "II": [[{"C": cuts_ii[col_of[tuple(col)]]}, q] for col, q in mixtures["II"]],
    }
    return SolveResult(NAME, mixed.params, "restricted (interval strategies)", tuple(equilibria), tuple(notes),
                       {"pure cuts": pure_cuts, "mixed": mixture})


def _index(choices: np.ndarray) -> dict[tuple[int, ...], int]:
    """Each pure strategy's position in its list, by its choices."""
    return {tuple(int(a) for a in row): k for k, row in enumerate(choices)}


def _choices(equilibrium: Equilibrium, player: str) -> tuple[int, ...]:
    """A pure equilibrium's choice per card (1 = bet, or call) of ``player``."""
    return tuple(int(p) for p in equilibrium.exact_strategies[player])


def equilibrium(n: int, b: object, *, method: str = "auto") -> SolveResult:
    """One mixed Nash equilibrium, exact and certified.

    Parameters
    ----------
    n : int
        Deck size, ``>= 2``.
    b : rational
        Bet size, ``> 0``.
    method : {"auto", "structured", "lp", "basis", "simplex", "strategic"}
        The one vocabulary (:data:`~exactpoker.solve.engine.dispatch.METHODS`).
        ``"auto"`` (= ``"structured"``): the card-by-card LP (the paper's
        vnMNE), solved by HiGHS and finished exactly, using that the payoff
        depends on the cards only through who holds the higher one (O(n)
        memory, n = 10,000 in seconds).  ``"lp"``, ``"basis"``,
        ``"simplex"``: the same LP through the general sequence-form solver
        (O(n^2)), the last by the exact rational simplex.  ``"strategic"``:
        the LP of the ``2^n x 2^n`` matrix game (the paper's MNE), ``n <= 9``;
        its mixture over pure strategies is in ``details``.

    Examples
    --------
    >>> equilibrium(3, 1).equilibria[0].strategies
    {'I': [1/3, 0, 1], 'II': [0, 1/3, 1]}
    """
    if method not in ("auto", "structured", "lp", "basis", "simplex", "strategic"):
        raise InvalidParameterError(
            f"equilibrium(): method must be auto, structured, lp, basis, simplex or strategic; got {method!r}")
    if method == "strategic":
        return _strategic_equilibrium(n, b)
    solved = solve_game(game(parse_int(n, "n", 2), b), method="structured" if method == "auto" else method)
    label = _LP_NAMES.get(solved.method, solved.method)
    return SolveResult(NAME, solved.params, label, (_per_card(solved.equilibria[0]),))


def _strategic_equilibrium(n: int, b: object) -> SolveResult:
    """The paper's MNE: the LP of the matrix game over all ``2^n`` pure strategies, its mixture in ``details``."""
    n = parse_int(n, "n", 2, MAX_SLOW_CARDS,
                  "the slow LP has 2^n x 2^n strategies; use --method fast or structured")
    solved = solve_game(game(n, b), method="strategic")
    mixture = {name: [[_card_set(choice), weight] for choice, weight in solved.details["mixtures"][name]]
               for name in ("I", "II")}
    return SolveResult(NAME, solved.params, "LP over all pure strategies (exact)",
                       (_per_card(solved.equilibria[0]),), details={"mixture": mixture})


def _card_set(choice: Sequence[int]) -> list[int]:
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
