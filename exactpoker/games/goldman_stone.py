"""Goldman--Stone symmetric poker with a finite deck: the rules.

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

The finite game's equilibrium, Lemma 8 discretised and the nearest optimum
are in :mod:`exactpoker.games.papers.goldman_stone`; the continuous game in
:mod:`exactpoker.continuous.goldman_stone`; any game is solved by
:func:`exactpoker.solve.solve_game`.
"""

from __future__ import annotations

from fractions import Fraction

from exactpoker.core import BettingGame, CompiledGame, Decision, Deck, Outcome, compile_game
from exactpoker.errors import InvalidParameterError
from exactpoker.numbers import exact_str, parse_int, parse_positive, to_fraction

__all__ = ["NAME", "CHOOSE", "ACTIONS", "parse_bets", "game", "compiled"]

NAME = "goldman-stone"
#: Both players' decision label.
CHOOSE = "choose"
#: The four courses of action, in the paper's order r_1 .. r_4.
ACTIONS = ("drop", "b-fold", "b-see", "a")


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
