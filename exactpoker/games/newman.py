"""Newman poker with a finite deck: the rules.

Seed 000, section 3 ("DJ Newman Poker").  Cards ``1..n`` are dealt to players
I and II without replacement; both ante 1.  Player I bets ``s`` in
``{0, 1, ..., b}`` (``s = 0`` is a check: the higher card wins 1); player II,
seeing ``s``, folds (I wins 1) or calls (the higher card wins ``s + 1``).

The paper's procedures (``djnMNE`` and its LP, the saturation in ``b``) and
tables are in :mod:`exactpoker.games.papers.newman`; any game is solved by
:func:`exactpoker.solve.solve_game`.
"""

from __future__ import annotations

from exactpoker.core import BettingGame, CompiledGame, Decision, Deck, Outcome, compile_game
from exactpoker.numbers import parse_int

__all__ = ["NAME", "OPEN", "facing", "game", "compiled"]

NAME = "newman"
#: Player I's decision label.
OPEN = "open"


def facing(s: int) -> str:
    """Player II's decision label facing a bet of ``s``."""
    return f"facing {s}"


def game(n: int, b: int) -> BettingGame:
    """The betting game: cards ``1..n`` without replacement, ante 1, bets ``0..b``."""
    n = parse_int(n, "n", 2)
    b = parse_int(b, "b", 1)
    actions: list[tuple[str, object]] = [("check", Outcome((1, 1), (0, 1)))]
    for s in range(1, b + 1):
        respond = Decision(1, facing(s), (("fold", Outcome((1 + s, 1), (0,))), ("call", Outcome((1 + s, 1 + s), (0, 1)))))
        actions.append((f"bet {s}", respond))
    return BettingGame(NAME, Deck(n), Decision(0, OPEN, tuple(actions)), ("I", "II"), (("n", n), ("b", b)))


def compiled(n: int, b: int) -> CompiledGame:
    """The compiled game."""
    return compile_game(game(n, b))
