"""Newman poker with a finite deck: the paper's procedures and tables.

Seed 000, section 3 ("DJ Newman Poker"); the rules are
:mod:`exactpoker.games.newman`.  The paper's ``djnMNE(n, b)`` solves an LP
with ``n 2^b`` constraints for player I (one per card of player II and set of
bet sizes she calls).  Here, each on the one engine
(:func:`exactpoker.solve.solve_game`):

- :func:`equilibrium` (default ``method="structured"``): the card-by-card LP,
  ``n (b + 1)`` constraints with cumulative variables (the payoff depends on
  the cards only through who holds the higher one: O(n b) memory), solved by
  HiGHS and finished exactly from its basis;
- ``method="lp"`` (``"basis"``, ``"simplex"``): the same game through the
  general sequence-form solver (O(n^2 b));
- ``method="per-card"``: the paper's LP over player II's local pure
  strategies (:mod:`exactpoker.solve.lp.per_card`), solved by the exact
  simplex (small ``n 2^b``);
- :func:`saturation`: the values for growing ``b`` until they stop changing.

Strategies are reported as the paper's matrices: for player I, per card, the
probabilities ``p_i[s]`` of betting ``s = 0..b``; for player II, per card, the
probabilities ``q_j[s]`` of calling a bet ``s`` (with ``q_j[0] = 1``: a check
is always "seen").
"""

from __future__ import annotations

from fractions import Fraction

from exactpoker import progress
from exactpoker.errors import InvalidParameterError
from exactpoker.games.newman import NAME, OPEN, compiled, facing, game
from exactpoker.games.papers.words import lp_words
from exactpoker.numbers import exact_str, parse_int
from exactpoker.results import Equilibrium, SolveResult
from exactpoker.solve import solve_game

__all__ = ["game", "compiled", "equilibrium", "saturation", "describe", "MAX_PAPER_ROWS"]

MAX_PAPER_ROWS = 600  # constraints of the paper's LP solved by the exact simplex

#: The engine's methods in the paper's words.
_NAMES = {**lp_words("sequence-form LP"),
          "LP over player II's pure choices per card (exact simplex)": "the paper's LP over II's call sets (exact simplex)"}


def _paper_tables(equilibrium: Equilibrium, n: int, b: int) -> dict[str, list[list[Fraction]]]:
    """The paper's matrices: I's distribution over bets ``0..b`` per card; II's calling probability per bet size
    (``q_j[0] = 1``) per card."""
    strategies = equilibrium.exact_strategies
    bets = [list(strategies["I"][f"{card}:{OPEN}"]) for card in range(1, n + 1)]
    calls = [[Fraction(1)] + [strategies["II"][f"{card}:{facing(s)}"][1] for s in range(1, b + 1)]
             for card in range(1, n + 1)]
    return {"I": bets, "II": calls}


def equilibrium(n: int, b: int, *, method: str = "auto") -> SolveResult:
    """One exact, certified equilibrium (the paper's djnMNE).

    Parameters
    ----------
    n : int
        Deck size, ``>= 2``.
    b : int
        Largest bet, ``>= 1``.
    method : {"auto", "structured", "lp", "basis", "simplex", "per-card"}
        The one vocabulary (:data:`~exactpoker.solve.engine.dispatch.METHODS`):
        ``"auto"`` (= ``"structured"``) the card-by-card LP (fast: n = 1000,
        b = 20 in seconds); ``"lp"``, ``"basis"``, ``"simplex"`` the general
        sequence-form solver; ``"per-card"`` the paper's LP with ``n 2^b``
        constraints solved by the exact simplex (``n 2^b <= 600``).

    Examples
    --------
    >>> equilibrium(3, 1).value
    1/18
    """
    if method not in ("auto", "structured", "lp", "basis", "simplex", "per-card"):
        raise InvalidParameterError(
            f"equilibrium(): method must be auto, structured, lp, basis, simplex or per-card; got {method!r}")
    n, b = parse_int(n, "n", 2), parse_int(b, "b", 1)
    if method == "per-card" and n * 2**b > MAX_PAPER_ROWS:
        raise InvalidParameterError(
            f"equilibrium(): the paper's LP (--method paper or per-card) has n x 2^b = {n * 2**b} constraints "
            f"(at most {MAX_PAPER_ROWS}); use --method sequence or structured")
    solved = solve_game(game(n, b), method="structured" if method == "auto" else method)
    [found] = solved.equilibria
    eq = Equilibrium.from_certificate(found.certificate, _paper_tables(found, n, b), found.profile)
    return SolveResult(NAME, solved.params, _NAMES.get(solved.method, solved.method), (eq,))


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
            raise InvalidParameterError(f"saturation(): the value still changes at b = {max_b} (max_b); raise max_b")
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
