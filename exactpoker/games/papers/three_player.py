"""Three-player poker with a finite deck: the paper's FastMNE and tables.

Seed 000 (Krityakierne, Thanatipanonda and Zeilberger, "von Neumann and
Newman Pokers with Finite Decks", 2024), section 4, "Finite deck".  The rules
are :mod:`exactpoker.games.three_player`.

Behaviour strategies are the paper's ``P = [p_i]`` (I bets with card ``i``),
``Q = [q_j]`` and ``R = [r_k]`` (II, III call).  The game is not zero-sum for
any two players, so there is no LP: :func:`equilibrium` locates the support
(the continuous solution's cut points, or smoothed fictitious play, as a
guide), solves the indifference equations on it exactly
(:mod:`exactpoker.solve.nplayer.indifference`) and certifies the profile for each of
the three players separately.  The payoffs depend on the cards only through
their order, so by default all of this (gaps, indifference equations,
certificate) is done by prefix sums in O(n)
(:mod:`exactpoker.solve.structure.ordered_games`, whose certificate equals
:func:`exactpoker.certify.verify` on the compiled game); ``method="generic"``
works on the compiled game's ``n^3`` deals instead.  Nothing assumes that II
and III play alike; the result says whether they do.

Functions
---------
:func:`game`, :func:`compiled`
    The :class:`~exactpoker.core.game.BettingGame` and its compiled form.
:func:`certify_profile`
    The exact certificate and values of a given ``(P, Q, R)`` (e.g. a printed one).
:func:`equilibrium`
    One exact, certified equilibrium.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import lru_cache, partial
from itertools import product
from typing import Iterator, Literal, Sequence, Union

import numpy as np

from exactpoker.certify import Certificate
from exactpoker.core import BettingGame, CompiledGame, compile_game
from exactpoker.games.three_player import FACING, NAME, OPEN, PLAYERS
from exactpoker.games.three_player import game as rules_game
from exactpoker.errors import CertificationError, InvalidParameterError
from exactpoker.numbers import parse_int, parse_positive, to_fraction
from exactpoker.results import Equilibrium, SolveResult
from exactpoker.algebraic import AlgebraicNumber
from exactpoker.core.support_system import FREE, Support
from exactpoker.solve import (CompiledModel, OrderedGame, OrderedGuide, certify_ordered, ordered_game, solve_continuous,
                              solve_game, solve_ordered)

ExactNumber = Union[Fraction, AlgebraicNumber]

__all__ = ["NAME", "PLAYERS", "game", "compiled", "certify_profile", "equilibrium", "strategy_tables", "cut_points", "table"]

#: Up to this deck size the support guide is smoothed fictitious play; above, the continuous cut points.
FICTITIOUS_PLAY_MAX = 12


def game(n: int, b: object) -> BettingGame:
    """The rules (:func:`exactpoker.games.three_player.game`) with the paper's float guide for large decks: the
    continuous game's cut points (``BettingGame.guide``; floats, never an answer)."""
    rules = rules_game(n, b)
    return replace(rules, guide=partial(_paper_guide, rules.deck.cards, dict(rules.parameters)["b"]))


@lru_cache(maxsize=8)
def _compiled(n: int, bet: Fraction) -> CompiledGame:
    return compile_game(game(n, bet))


def compiled(n: int, b: object) -> CompiledGame:
    """The compiled game (exact sequence-form payoffs); cached for the last few ``(n, b)``."""
    n = parse_int(n, "n", 3, hint="three players need three different cards")
    return _compiled(n, parse_positive(b, "b"))


def strategy_tables(behaviour: Sequence[Sequence[ExactNumber]]) -> dict[str, list[ExactNumber]]:
    """``{"I": P, "II": Q, "III": R}`` from per-player behaviour (one label each)."""
    return {name: list(row) for name, row in zip(PLAYERS, behaviour)}


def certify_profile(n: int, b: object, P: Sequence[object], Q: Sequence[object], R: Sequence[object]) -> Certificate:
    """The exact certificate of the profile ``(P, Q, R)``: payoffs and best-response values.

    Use it on a printed profile to see whether it is an equilibrium and what
    its exact values are.  Computed by prefix sums over the order of the
    cards (:func:`~exactpoker.solve.structure.ordered_games.certify_ordered`, O(n); the
    same certificate as :func:`exactpoker.certify.verify` on :func:`compiled`).
    """
    n = parse_int(n, "n", 3, hint="three players need three different cards")
    bet = parse_positive(b, "b")
    rows = []
    for name, row in zip(("P", "Q", "R"), (P, Q, R)):
        if len(row) != n:
            raise InvalidParameterError(f"{name} must list {n} probabilities (one per card); got {len(row)}")
        values = [to_fraction(v, name) for v in row]
        outside = next((v for v in values if not 0 <= v <= 1), None)
        if outside is not None:
            raise InvalidParameterError(f"{name} must list probabilities between 0 and 1; got {outside}")
        rows.append(values)
    return certify_ordered(_ordered(n, bet), rows)


def _ordered(n: int, bet: Fraction) -> OrderedGame:
    """The game read by the order of the cards (three-player poker always is such a game)."""
    structure = ordered_game(game(n, bet))
    if structure is None:  # pragma: no cover - the rules above are of this kind for every n and b
        raise AssertionError("three-player poker is decided by the order of the cards")
    return structure


@lru_cache(maxsize=8)
def _continuous_cuts(bet: Fraction) -> tuple[float, float, float]:
    """The continuous game's cut points ``A, B, C`` (seed 000 section 4) as floats, from the continuous engine."""
    found = solve_continuous(rules_game(3, bet))
    a, b, c = (float(found.cut(*key)) for key in (("I", OPEN, 1), ("I", OPEN, 2), ("II", FACING, 1)))
    return a, b, c


def _continuous_guide(n: int, bet: Fraction) -> list[np.ndarray]:
    """Float behaviour suggested by the continuous game's cut points ``A < C < B`` (seed 000 section 4).

    Card ``i`` covers ``((i-1)/n, i/n)``; its guide value is the share of that
    interval where the continuous strategy bets (calls), mixed with a little
    of its neighbours' so that the cards on both sides of a cut are open to doubt.
    """
    a, bb, c = _continuous_cuts(bet)
    cards = np.arange(n, dtype=float)

    def share(lo: float, hi: float) -> np.ndarray:
        return np.clip(np.minimum(cards + 1, hi * n) - np.maximum(cards, lo * n), 0, 1)

    def smooth(v: np.ndarray) -> np.ndarray:  # a little of each neighbour: cards next to a cut become ambiguous too
        padded = np.concatenate([v[:1], v, v[-1:]])
        return 0.9 * padded[1:-1] + 0.05 * (padded[:-2] + padded[2:])

    p = smooth(share(0, a) + share(bb, 1))
    q = smooth(share(c, 1))
    return [p, q, q.copy()]


def _cut_supports(n: int, bet: Fraction, radius: int = 8) -> Iterator[Support]:
    """Supports of the continuous equilibrium's shape near its cut points, nearest first (II and III alike).

    I bets below a cut ``A`` and above a cut ``B``, II and III call above a
    cut ``C`` (seed 000 section 4).  On ``n`` cards a cut sits between two
    cards (every card pure) or on one card (that card mixed, its probability
    free): in half-card steps, ``u = 2k`` is the cut before card ``k`` (0-based)
    and ``u = 2k + 1`` the cut on card ``k``.  The supports with each cut
    within ``radius`` half-steps of ``2 n A``, ``2 n B``, ``2 n C`` are listed by
    their distance from those points.
    """
    centres = [2 * n * x for x in _continuous_cuts(bet)]
    ranges = [range(max(0, round(x) - radius), min(2 * n, round(x) + radius) + 1) for x in centres]
    triples = sorted(product(*ranges), key=lambda u: sum((a - x) ** 2 for a, x in zip(u, centres)))

    def position(u: int, h: int) -> int:  # card h lies below the cut u (-1), on it (0) or above it (1)
        return (2 * h + 1 > u) - (2 * h + 1 < u)

    for low, high, call in triples:
        if low >= high - 1:  # A must lie below B, on different cards
            continue
        bets = tuple({-1: 1, 0: FREE}.get(position(low, h), {-1: 0, 0: FREE, 1: 1}[position(high, h)])
                     for h in range(n))
        calls = tuple({-1: 0, 0: FREE, 1: 1}[position(call, h)] for h in range(n))
        yield (bets, calls, calls)


def _paper_guide(n: int, bet: Fraction) -> OrderedGuide:
    """The paper's guide for the support search: above ``FICTITIOUS_PLAY_MAX`` cards, the continuous game's.

    Its cut points give the float behaviour (:func:`_continuous_guide`) and,
    should no support near it certify, the shapes of the continuous
    equilibrium to try (:func:`_cut_supports`); smaller decks, and any deck
    when the continuous engine certifies no equilibrium of the paper's shape
    at this bet, are left to smoothed fictitious play.
    """
    if n <= FICTITIOUS_PLAY_MAX:
        return OrderedGuide()
    try:
        _continuous_cuts(bet)
    except (CertificationError, KeyError):  # no certified continuous answer, or not Figure 2's cut points
        return OrderedGuide()
    return OrderedGuide(_continuous_guide(n, bet), partial(_cut_supports, n, bet))


def equilibrium(n: int, b: object, *, method: Literal["structured", "generic"] = "structured") -> SolveResult:
    """One exact equilibrium of the ``n``-card game with bet ``b``, certified for each player.

    The one engine on the rules (:func:`exactpoker.solve.solve_game`,
    which detects that the payoffs depend only on the order of the cards and
    takes :func:`~exactpoker.solve.nplayer.ordered_solve.solve_ordered`), in the
    paper's tables ``P``, ``Q``, ``R``.

    Parameters
    ----------
    n : int
        Deck size, ``>= 3``.
    b : rational
        Bet size, ``> 0``.
    method : {"structured", "generic"}
        How the support search sees the game: by prefix sums over the order
        of the cards (:class:`~exactpoker.solve.structure.ordered_games.OrderedModel`,
        O(n): n = 500 in seconds), or through the compiled game's ``n^3``
        deals (:class:`~exactpoker.solve.nplayer.indifference.CompiledModel`).  Both
        search the same supports and certify exactly.

    Notes
    -----
    Supports are searched with II and III playing alike (the engine detects
    that they are interchangeable), near the guide (smoothed fictitious play
    up to ``n = 12``, the continuous cut points above: :func:`_paper_guide`);
    for larger decks, if none certifies, on the shapes of the continuous
    equilibrium near its cut points (:func:`_cut_supports`); and last without
    II = III.  A :class:`~exactpoker.errors.CertificationError` is raised if
    no search certifies an equilibrium.

    Examples
    --------
    >>> r = equilibrium(4, 1)
    >>> [str(v) for v in r.equilibria[0].values]
    ['1/24', '-1/48', '-1/48']
    """
    n = parse_int(n, "n", 3, hint="three players need three different cards")
    bet = parse_positive(b, "b")
    if method == "structured":
        solved = solve_game(game(n, bet))
    elif method == "generic":
        solved = solve_ordered(game(n, bet), _ordered(n, bet), CompiledModel(compiled(n, bet)))
    else:
        raise InvalidParameterError(f"--method/method must be structured or generic; got {method!r}")
    return _presented(solved)


def _presented(solved: SolveResult) -> SolveResult:
    """The engine's result in the paper's words: ``P``, ``Q``, ``R`` per card, and whether II = III."""
    equilibria = tuple(
        Equilibrium.from_certificate(found.certificate, strategy_tables(
            [[row[1] for row in found.profile.strategies[p]] for p in range(3)]), found.profile)
        for found in solved.equilibria)
    alike = all(eq.strategies["II"] == eq.strategies["III"] for eq in equilibria)
    details = solved.details
    notes = ["Players II and III play alike (Q = R)." if alike else "Players II and III play differently (Q != R)."]
    if "free_infosets" not in details:  # the order-of-cards search gave up and the engine solved the compiled game
        notes.append(f"Found by the compiled game's methods ({solved.method}): no support of the order-of-cards "
                     f"search certified.")
        return SolveResult(NAME, solved.params, solved.method, equilibria, tuple(notes), {"II equals III": alike})
    free = ", ".join(f"{name} card {infoset.split(':')[0]}"
                     for name, infosets in details["free_infosets"].items() for infoset in infosets) or "none"
    if details["family_dimension"] == 0:
        notes.append(f"The equilibrium is the only solution of the indifference equations on its support "
                     f"(free: {free}).")
    elif details["segment"]:
        first, last = equilibria[0].values[0], equilibria[-1].values[0]
        notes.append("A segment of equilibria: every point between the two end points listed is an equilibrium "
                     "(certified exactly along the segment); Player I's value "
                     + (f"stays at {first}." if first == last else f"runs from {first} to {last}."))
    else:
        notes.append(f"The indifference equations on this support (free: {free}) have a "
                     f"{details['family_dimension']}-dimensional family of solutions; its certified corners are listed.")
    shown = {"II equals III": alike, "family dimension": details["family_dimension"],
             "segment": details["segment"], "supports tried": details["supports_tried"]}
    return SolveResult(NAME, solved.params, solved.method, equilibria, tuple(notes), shown)


def cut_points(strategies: dict[str, Sequence[ExactNumber]]) -> tuple[ExactNumber, ExactNumber, ExactNumber]:
    """The finite game's cut points, as the paper reads them off FastMNE(65,2).

    ``A`` is the betting mass of Player I on the lower half of the deck over
    ``n``, ``B`` is one minus the betting mass on the upper half over ``n``,
    and ``C`` is one minus Player II's calling mass over ``n``; they converge
    to the continuous game's ``A, B, C`` as ``n`` grows.
    """
    p, q = list(strategies["I"]), list(strategies["II"])
    n, half = len(p), len(p) // 2
    zero: ExactNumber = Fraction(0)
    low = sum(p[:half], zero)
    high = sum(p[half:], zero)
    return low / n, 1 - high / n, 1 - sum(q, zero) / n


def table(deck_sizes: Sequence[int] = range(5, 16), bets: Sequence[object] = (1, 2, 3)) -> list[dict[str, object]]:
    """One row per ``(n, b)``: the certified equilibria's values, whether II = III, segment, and cut points.

    The default range is the paper's output file (n = 5..15, b = 1..3).
    """
    rows = []
    for b in bets:
        for n in deck_sizes:
            result = equilibrium(n, b)
            eq = result.equilibria[0]
            rows.append({
                "n": n, "b": b, "values": eq.values, "II equals III": result.details["II equals III"],
                "segment": result.details["segment"], "equilibria": len(result.equilibria),
                "cuts": cut_points(eq.strategies), "strategies": eq.strategies,
            })
    return rows
