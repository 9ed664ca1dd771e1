"""Goldman--Stone symmetric poker with a finite deck: the finite game, Lemma 8 discretised, the nearest optimum.

Seed 002 (A. J. Goldman and J. J. Stone, "A Symmetric Continuous Poker
Model", J. Res. NBS 64B, 1960) played with cards ``1..n``; the rules are
:mod:`exactpoker.games.goldman_stone`, the continuous game
:mod:`exactpoker.continuous.goldman_stone`.  Each equilibrium comes from the
one engine (:func:`exactpoker.solve.solve_game`).

Functions
---------
:func:`equilibrium`
    One exact, certified equilibrium (sequence-form LP, exact finish);
    its value is exactly 0 (the game is symmetric).
:func:`discretised_lemma8`
    Lemma 8's continuous optimal strategy discretised to ``n`` cards, and its
    exact exploitability.
:func:`nearest_optimum`, :func:`convergence_table`
    The optimal strategy of the finite game nearest (in L1) to the
    discretised one (``solve_game(..., nearest=...)``), and how both converge
    as ``n`` grows.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Literal

from exactpoker.certify import Certificate, verify
from exactpoker.core import BehaviourProfile
from exactpoker.errors import CertificationError, InvalidParameterError
from exactpoker.games.goldman_stone import ACTIONS, CHOOSE, NAME, compiled, game, parse_bets
from exactpoker.games.papers.words import lp_words
from exactpoker.numbers import exact_str, parse_int, to_fraction
from exactpoker.results import Equilibrium, SolveResult
from exactpoker.solve import solve_game

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
    "convergence_table",
    "ConvergenceRow",
    "EXACT_NEAREST_MAX",
    "LEGEND",
]

#: Up to this deck size :func:`nearest_optimum` uses the exact simplex from scratch.
EXACT_NEAREST_MAX = 20

#: What the n-card game's ``strategies`` lists (seed 002's courses of action): ``goldman-stone --n``'s legend.
LEGEND = ("strategies list, per player and card 1..n, the probabilities of the four courses of action "
          "[drop, b-fold, b-see, a]: drop; bet b, folding if the opponent bets a; bet b, seeing a bet of a; bet a")


def _tables(equilibrium: Equilibrium, n: int) -> dict[str, list[list[Fraction]]]:
    """Per player and card ``1..n``, the probabilities of the four courses of action."""
    return {name: [list(equilibrium.exact_strategies[name][f"{card}:{CHOOSE}"]) for card in range(1, n + 1)]
            for name in ("I", "II")}


def equilibrium(n: int, a: object, b: object, *, method: str = "auto") -> SolveResult:
    """One exact, certified equilibrium of the ``n``-card game.

    ``strategies`` gives, per player and card ``1..n``, the probabilities of
    the four courses of action ``(drop, b-fold, b-see, a)``.  The value is
    exactly 0: the game is symmetric (checked, not assumed).  ``method``:
    ``"auto"`` (= ``"lp"``: the sequence-form LP, float-guided, exact finish),
    ``"basis"`` or ``"simplex"`` (the one vocabulary,
    :data:`~exactpoker.solve.engine.dispatch.METHODS`).

    Examples
    --------
    >>> r = equilibrium(3, 3, 2)
    >>> r.value, r.equilibria[0].certified
    (0, True)
    """
    if method not in ("auto", "lp", "basis", "simplex"):
        raise InvalidParameterError(f"equilibrium(): method must be auto, lp, basis or simplex; got {method!r}")
    n = parse_int(n, "n", 2)
    solved = solve_game(compiled(n, a, b), method="lp" if method == "auto" else method)
    [found] = solved.equilibria
    if found.certificate.payoffs[0] != 0:
        raise CertificationError(f"goldman-stone: a symmetric game must have value 0; got {found.certificate.payoffs[0]}")
    eq = Equilibrium.from_certificate(found.certificate, _tables(found, n), found.profile)
    return SolveResult(NAME, solved.params, lp_words("sequence-form LP").get(solved.method, solved.method), (eq,))


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


def nearest_optimum(
    n: int, a: object, b: object, target: list[list[object]] | None = None, *,
    method: Literal["auto", "simplex", "basis"] = "auto",
) -> SolveResult:
    """The optimal strategy of player I nearest in L1 to ``target`` (default: Lemma 8 discretised).

    The set of player I's optimal strategies is a polytope; the engine
    minimizes ``sum |x - target|`` over it by an exact LP
    (``solve_game(game, nearest={"I": target})``,
    :mod:`exactpoker.solve.lp.nearest`): only the cards where player II's
    optimal strategy leaves a tie are free.  ``method="simplex"`` pivots in
    rational arithmetic from scratch (the default for ``n <= 20``);
    ``"basis"`` lets HiGHS find a basis in floating point and the exact
    simplex starts there, checks it and pivots on to exact optimality, so the
    answer is still the exact LP optimum (only the start is float-guided).
    The strategy is then certified optimal by :func:`exactpoker.certify.verify`,
    played by both players (the game is symmetric).

    Returns
    -------
    SolveResult
        One equilibrium, both players playing the nearest optimum (per card,
        the four courses of action); ``details["distance"]`` is
        ``(1/n) sum_cards sum_actions |x - target|`` and ``details["method"]``
        the LP solved.
    """
    n = parse_int(n, "n", 2)
    bet_a, bet_b = parse_bets(a, b)
    if method not in ("auto", "simplex", "basis"):
        raise InvalidParameterError(f"method must be auto, simplex or basis; got {method!r}")
    g = compiled(n, bet_a, bet_b)
    goal = _discretise(n, bet_a, bet_b, "average") if target is None else \
        [[to_fraction(v, "target") for v in row] for row in target]
    if len(goal) != n or any(len(row) != 4 for row in goal):
        raise InvalidParameterError(f"target must have {n} rows of 4 probabilities")
    if method == "auto":
        method = "simplex" if n <= EXACT_NEAREST_MAX else "basis"
    solved = solve_game(g, nearest={"I": {f"{card}:{CHOOSE}": row for card, row in enumerate(goal, start=1)}},
                        method=method)
    table = _tables(solved.equilibria[0], n)["I"]
    profile = BehaviourProfile.from_tables(g, [{CHOOSE: table}, {CHOOSE: table}])
    certificate = verify(g, profile)
    if not certificate.holds or certificate.payoffs[0] != 0:
        raise CertificationError("goldman-stone: the nearest optimum failed the equilibrium check")
    distance = sum((abs(table[c][k] - goal[c][k]) for c in range(n) for k in range(4)), Fraction(0)) / n
    eq = Equilibrium.from_certificate(certificate, {"I": table, "II": table}, profile)
    details = {"distance": distance, "method": solved.details["nearest"]["I"]["method"]}
    return SolveResult(NAME, solved.params, "the optimal strategy nearest to the target (exact LP), by symmetry both "
                       "players'", (eq,), details=details)


@dataclass(frozen=True)
class ConvergenceRow:
    """One row of :func:`convergence_table`: Lemma 8 discretised to ``n`` cards, its exact exploitability and
    its exact L1 distance to the nearest optimum (both exact; ``seconds`` the time the row took)."""

    n: int
    exploitability: Fraction
    distance: Fraction
    seconds: float

    def to_dict(self) -> dict[str, object]:
        return {"n": self.n, "exploitability": exact_str(self.exploitability), "distance": exact_str(self.distance)}


def convergence_table(ns: Iterable[int] = (10, 20, 50, 100), a: object = 3, b: object = 2) -> list[ConvergenceRow]:
    """For each ``n``: the exploitability of Lemma 8 discretised and its L1 distance to the nearest optimum."""
    import time

    rows = []
    for n in ns:
        start = time.perf_counter()
        disc = discretised_lemma8(n, a, b)
        nearest = nearest_optimum(n, a, b, disc.table)
        rows.append(ConvergenceRow(int(n), disc.exploitability, nearest.details["distance"],
                                   time.perf_counter() - start))
    return rows
