"""The "most simple poker game" of the Euler Math Toolbox notes: the notes' tactics, matrix and values.

Seed 004 (Euler Math Toolbox notes, "Most Simple Poker Game"); the rules are
:mod:`exactpoker.games.simple_poker`.  A tactic is a 0/1 vector over the
cards, 1 = hold; the notes number the ``2^m`` tactics in binary order with
card 1 the most significant digit (their ``makeT``), which is the order of the
strategic form (:func:`exactpoker.solve.payoff_table`).

Sign convention: every value here, like every value the notes print (their
``G``), is **player I's** expected gain; the notes' first player is the one
who must hold to stay in, so the values are <= 0.  The notes' result matrix
``R`` has player II's tactics as rows and player I's as columns
(``R[i2, i1]``); :func:`matrix` returns the usual orientation, rows = player
I, so ``R`` is its transpose.

Threshold tactics: "hold iff card >= t" for ``t = 1..m`` (the notes' last
section).  Against any strategy of the opponent, a player's gain from holding
rather than passing is nondecreasing in their card and positive with card
``m``, so every player has a best reply among the threshold tactics: an
equilibrium of the threshold game is an equilibrium of the full game, and the
two values are equal.  :func:`solve` checks this every time with the
full-game certificate.

Functions
---------
:func:`tactics`, :func:`threshold_tactics`, :func:`matrix`
    Tactic lists and the exact matrix game (player I's payoffs).
:func:`solve`
    The exact value and optimal mixtures of the full ``2^m x 2^m`` game
    (``m <= MAX_FULL_CARDS``) or of the threshold game (``m x m``):
    :func:`~exactpoker.solve.solve_game` with ``method="strategic"``,
    certified twice: as a matrix game and as a behaviour profile of the full game.
:func:`guaranteed`
    What a given mixture of tactics guarantees its player (exact, against all
    tactics): the check of a printed mixture.
:func:`weight_range`
    How much weight a tactic gets over *all* optimal mixtures (is a printed
    mixture the only optimal one?).
:func:`piecewise_value`
    The value as an exact piecewise rational function of ``B/A``
    (:func:`exactpoker.solve.parametric_value`); beyond the notes, which only plot it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping, Sequence

import numpy as np

from exactpoker.certify import Certificate, verify
from exactpoker.core import BehaviourProfile, CompiledGame
from exactpoker.errors import CertificationError, InvalidParameterError
from exactpoker.games.simple_poker import CHOOSE, NAME, compiled, game
from exactpoker.numbers import exact_str, parse_int, to_fraction, to_sympy
from exactpoker.results import Equilibrium, SolveResult
from exactpoker.solve import PiecewiseValue, parametric_value, payoff_table, solve_game
from exactpoker.solve import weight_range as strategy_weight_range

__all__ = [
    "game",
    "compiled",
    "tactics",
    "threshold_tactics",
    "tactic_name",
    "matrix",
    "solve",
    "guaranteed",
    "weight_range",
    "piecewise_value",
    "MAX_FULL_CARDS",
    "MAX_THRESHOLD_CARDS",
]

#: The full game has 2^m x 2^m tactics; beyond this the exact LP is too large.
MAX_FULL_CARDS = 8
#: The threshold game is m x m.
MAX_THRESHOLD_CARDS = 400


def tactics(m: int) -> np.ndarray:
    """All ``2^m`` tactics (rows of 0/1 per card, 1 = hold) in the notes' ``makeT`` order."""
    m = parse_int(m, "m", 1)
    codes = np.arange(2**m, dtype=np.int64)
    return np.stack([(codes >> (m - 1 - k)) & 1 for k in range(m)], axis=1)


def threshold_tactics(m: int) -> np.ndarray:
    """Row ``t - 1``: hold iff card ``>= t``, for ``t = 1..m`` (the notes' restricted tactics)."""
    m = parse_int(m, "m", 1)
    cards = np.arange(1, m + 1)
    return (cards[None, :] >= cards[:, None]).astype(np.int64)


def tactic_name(tactic: Sequence[int]) -> str:
    """The notes' way of writing a tactic: ``[0,1,1]``."""
    return "[" + ",".join(str(int(v)) for v in tactic) + "]"


def _game(m: int, ante: object, bet: object, threshold: bool) -> tuple[CompiledGame, np.ndarray, object]:
    """The compiled game, its tactics in the notes' order, and the strategies to restrict it to (``None``: all)."""
    if threshold:
        m = parse_int(m, "m", 1, MAX_THRESHOLD_CARDS, "the threshold game is an m x m exact LP")
        rows = threshold_tactics(m)
        return compiled(m, ante, bet), rows, (rows, rows)
    m = parse_int(m, "m", 1, MAX_FULL_CARDS,
                  "the full game has 2^m x 2^m tactics; use the threshold game (--threshold/threshold)")
    return compiled(m, ante, bet), tactics(m), None


def _table(m: int, ante: object, bet: object, threshold: bool) -> tuple[CompiledGame, np.ndarray, np.ndarray, int]:
    """The compiled game, the tactics, and player I's payoff numerators over a denominator."""
    g, rows, strategies = _game(m, ante, bet, threshold)
    first, second, table, _ = payoff_table(g, strategies)
    if not (np.array_equal(first, rows) and np.array_equal(second, rows)):
        raise CertificationError("simple: the strategic form does not list the tactics in the notes' order")
    return g, rows, table, g.denominator


def matrix(m: int, ante: object = 1, bet: object = 1, *, threshold: bool = False) -> list[list[Fraction]]:
    """Player I's exact expected gain, rows = I's tactics, columns = II's (the notes' ``R`` transposed).

    Examples
    --------
    >>> [[str(v) for v in row] for row in matrix(2, 1, 1)][1]
    ['0', '-1/4', '1/4', '0']
    """
    _, _, table, denominator = _table(m, ante, bet, threshold)
    return [[Fraction(int(v), denominator) for v in row] for row in table]


def solve(m: int, ante: object = 1, bet: object = 1, *, threshold: bool = False) -> SolveResult:
    """The exact value and optimal mixtures of the matrix game over all tactics (or threshold tactics).

    Parameters
    ----------
    m : int
        Number of card values, ``1 <= m <= MAX_FULL_CARDS`` for the full game,
        ``<= MAX_THRESHOLD_CARDS`` with ``threshold=True``.
    ante, bet : rational
        ``A > 0`` and ``B > 0`` (``2``, ``"5/2"``, ``Fraction(5, 2)``).
    threshold : bool
        Restrict both players to "hold iff card >= t", ``t = 1..m``.

    Returns
    -------
    SolveResult
        One equilibrium: ``values`` = (I's value, II's value);
        ``strategies`` = per player, the probability of holding with each
        card.  ``details["mixtures"]`` gives the optimal mixtures over
        tactics (``"[0,1,1]": 3/4``; threshold tactics are named ``"t=2"``) and
        ``details["matrix certificate"]`` the exact minimax check of the
        matrix game.  The equilibrium's own certificate is the exact
        best-response check in the full game (every strategy), which holds
        for the threshold game too.

    Raises
    ------
    InvalidParameterError
        ``m < 1`` or too large for the method, ``ante <= 0``, ``bet <= 0``,
        or a parameter that is not an exact number.

    Examples
    --------
    >>> solve(2, 1, 2).value
    -1/4
    >>> solve(3, 1, 2).details["mixtures"]["I"]
    {'[0,1,1]': 3/4, '[1,1,1]': 1/4}
    """
    g, rows, strategies = _game(m, ante, bet, threshold)
    solved = solve_game(g, method="strategic", strategies=strategies)
    [found] = solved.equilibria
    certificate = verify(g, found.profile)  # the full game's check, also for the threshold game
    matrix_certificate = dict(solved.details["matrix_certificate"])
    matrix_certificate["scope"] = "threshold tactics (hold iff card >= t)" if threshold else f"all {len(rows)} tactics"
    if not (matrix_certificate["holds"] and certificate.holds
            and [exact_str(v) for v in certificate.payoffs] == [p["payoff"] for p in matrix_certificate["players"]]):
        raise CertificationError("simple: the optimal mixtures failed the exact equilibrium check")
    strategies_of = {name: found.profile.last_action_table(g, p, CHOOSE) for p, name in enumerate(("I", "II"))}
    mixtures = {name: _mixture(rows, solved.details["mixtures"][name], threshold) for name in ("I", "II")}
    details = {"mixtures": mixtures, "matrix certificate": matrix_certificate}
    method = ("threshold tactics: exact LP of the m x m matrix game" if threshold
              else "all 2^m tactics: exact LP of the 2^m x 2^m matrix game")
    notes = ("values are player I's gain (the notes' G); player II's is its negative",)
    if threshold:
        notes += ("the threshold game's equilibrium is also an equilibrium of the full game (certified)",)
    eq = Equilibrium.from_certificate(certificate, strategies_of, found.profile)
    return SolveResult(NAME, dict(g.game.parameters), method, (eq,), notes, details)


def _mixture(rows: np.ndarray, weights: Sequence[tuple[Sequence[int], Fraction]], threshold: bool) -> dict[str, Any]:
    """The notes' names of the tactics of positive weight: ``"[0,1,1]"``, or ``"t=2"`` for a threshold tactic."""
    position = {tuple(int(v) for v in row): k for k, row in enumerate(rows)}
    if threshold:
        return {f"t={position[tuple(tactic)] + 1}": to_sympy(w) for tactic, w in weights}
    return {tactic_name(tactic): to_sympy(w) for tactic, w in weights}


def guaranteed(m: int, ante: object, bet: object, player: str, mixture: Mapping[str, object]) -> Certificate:
    """What a mixture of tactics guarantees, exactly, against every strategy of the opponent.

    ``mixture`` maps tactics written as in the notes (``"[0,1,1]"``) or
    thresholds (``"t=2"``) to weights summing to 1.  Returns the certificate
    of the profile where the other player plays "always hold"; the guarantee
    for player I is ``-certificate.checks[1].best_response``, for player II
    ``-certificate.checks[0].best_response``.
    """
    m = parse_int(m, "m", 1)
    if player not in ("I", "II"):
        raise InvalidParameterError(f"player must be 'I' or 'II'; got {player!r}")
    g = compiled(m, ante, bet)
    hold = [Fraction(0)] * m
    total = Fraction(0)
    for key, weight in mixture.items():
        w = to_fraction(weight, "mixture weight")
        text = key.strip()
        if text.startswith("t="):
            t = parse_int(text[2:], "threshold t", 1, m)
            tactic = [int(c >= t) for c in range(1, m + 1)]
        else:
            tactic = [int(v) for v in text.strip("[]").split(",")]
            if len(tactic) != m or any(v not in (0, 1) for v in tactic):
                raise InvalidParameterError(f"mixture: tactic {key!r} must have {m} entries 0 or 1")
        hold = [h + w * v for h, v in zip(hold, tactic)]
        total += w
    if total != 1:
        raise InvalidParameterError(f"mixture: weights must sum to 1; got {exact_str(total)}")
    other = [Fraction(1)] * m
    tables = [{CHOOSE: hold}, {CHOOSE: other}] if player == "I" else [{CHOOSE: other}, {CHOOSE: hold}]
    return verify(g, BehaviourProfile.from_tables(g, tables))


def weight_range(m: int, ante: object, bet: object, player: str, tactic: str, *,
                 threshold: bool = False) -> tuple[Fraction, Fraction]:
    """The least and the greatest weight of ``tactic`` over all optimal mixtures of ``player``.

    ``tactic`` is written as in the notes (``"[0,1,1]"``) or, with
    ``threshold=True``, as ``"t=2"``.  Two exact LPs over the polytope of
    optimal mixtures (:func:`exactpoker.solve.weight_range`).  Equal bounds:
    every optimal mixture gives the tactic that weight.
    """
    if player not in ("I", "II"):
        raise InvalidParameterError(f"player must be 'I' or 'II'; got {player!r}")
    g, rows, strategies = _game(m, ante, bet, threshold)
    names = [f"t={k + 1}" if threshold else tactic_name(row) for k, row in enumerate(rows)]
    if tactic not in names:
        raise InvalidParameterError(f"tactic must be one of {', '.join(names[:4])}, ...; got {tactic!r}")
    return strategy_weight_range(g, ("I", "II").index(player), names.index(tactic), strategies)


def piecewise_value(m: int, *, threshold: bool = False, upper: object | None = None) -> PiecewiseValue:
    """Player I's value divided by ``A``, as an exact piecewise rational function of ``r = B/A``.

    The payoffs are ``A`` times a matrix linear in ``r``: ``M(r) = M0 + r M1``,
    so the value is ``A v(B/A)``.  :func:`exactpoker.solve.parametric_value`
    finds the pieces, each certified for every ``r`` in it.  The pieces cover
    ``[0, upper]`` (``upper=None``: ``[0, oo)``); ``r = 0`` is the limit
    ``B -> 0+``.  Each piece costs one or two exact LPs of the matrix game
    (full game, m = 6: a few seconds; threshold game, m = 40: about 10 s).

    Examples
    --------
    >>> [str(b) for b in piecewise_value(2).breakpoints()]
    ['1', '2']
    """
    one, two = matrix(m, 1, 1, threshold=threshold), matrix(m, 1, 2, threshold=threshold)
    slope = [[b - a for a, b in zip(r1, r2)] for r1, r2 in zip(one, two)]
    base = [[a - s for a, s in zip(r1, rs)] for r1, rs in zip(one, slope)]
    return parametric_value(base, slope, lower=0, upper=upper)
