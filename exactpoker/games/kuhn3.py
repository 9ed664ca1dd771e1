"""Three-player Kuhn poker with ``N`` cards and pot ``P``: the rules.

Seed 003 (J. Billingham, "Equilibrium solutions of three player Kuhn poker with N > 3 cards: a new numerical
method using regularization and arc-length continuation", section 2).  Cards ``1..N`` (``N > 3``), one dealt
to each player without replacement; the pot holds ``P`` units, ``P/3`` from each player; bets and calls are of
one unit and there is at most one bet.  Player 1 bets or checks; the players then act in turn, calling or
folding after a bet, checking or betting before one.  The hand ends after three checks, or when everybody has
bet, called or folded; the best card still in wins the pot and the bets.

The twelve decision nodes are numbered as in the seed (section 2 and Figure 10), and each is its own node label
(a player knows their card and the betting so far); :data:`NODES` gives each node's player and actions.  Player
1 acts twice on the branch check (1) -- bet -- answer (4, 8 or 9), and player 2 on check (2) -- bet -- answer
(5 or 6).  The paper's procedures on this game are :mod:`exactpoker.games.papers.kuhn3`.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from exactpoker.core import BettingGame, CompiledGame, Decision, Deck, Outcome, compile_game
from exactpoker.numbers import parse_int, parse_positive

__all__ = ["NAME", "NODES", "PLAYER_NAMES", "parse_cards", "parse_pot", "game", "compiled", "node_player"]

NAME = "kuhn3"
PLAYER_NAMES = ("1", "2", "3")
#: Node number -> (player, 0-based; passive action, aggressive action).
NODES: dict[int, tuple[int, str, str]] = {
    1: (0, "check", "bet"),
    2: (1, "check", "bet"),
    3: (2, "check", "bet"),
    4: (0, "fold", "call"),
    5: (1, "fold", "call"),
    6: (1, "fold", "call"),
    7: (2, "fold", "call"),
    8: (0, "fold", "call"),
    9: (0, "fold", "call"),
    10: (1, "fold", "call"),
    11: (2, "fold", "call"),
    12: (2, "fold", "call"),
}


def parse_cards(cards: object) -> int:
    """``N``: an integer ``> 3`` (``InvalidParameterError`` otherwise)."""
    return parse_int(cards, "cards", 4, hint="three-player Kuhn poker needs N > 3 cards")


def parse_pot(pot: object) -> Fraction:
    """``P``: an exact rational ``> 0``."""
    return parse_positive(pot, "pot")


def node_player(node: int) -> int:
    """The player (0-based) who acts at ``node``."""
    return NODES[node][0]


def _decision(node: int, passive: "Outcome | Decision", aggressive: "Outcome | Decision") -> Decision:
    player, low, high = NODES[node]
    return Decision(player, str(node), ((low, passive), (high, aggressive)))


def _tree(pot: Fraction) -> Decision:
    """The betting tree of section 2 with the seed's node numbers."""
    ante = pot / 3

    def out(bets: tuple[int, int, int], active: tuple[int, ...]) -> Outcome:
        return Outcome(tuple(ante + b for b in bets), active)

    # player 1 bets: player 2 answers at 10, player 3 at 11 (2 folded) or 12 (2 called)
    node11 = _decision(11, out((1, 0, 0), (0,)), out((1, 0, 1), (0, 2)))
    node12 = _decision(12, out((1, 1, 0), (0, 1)), out((1, 1, 1), (0, 1, 2)))
    node10 = _decision(10, node11, node12)
    # player 1 checks, player 2 bets: player 3 answers at 7, player 1 at 8 (3 folded) or 9 (3 called)
    node8 = _decision(8, out((0, 1, 0), (1,)), out((1, 1, 0), (0, 1)))
    node9 = _decision(9, out((0, 1, 1), (1, 2)), out((1, 1, 1), (0, 1, 2)))
    node7 = _decision(7, node8, node9)
    # two checks, player 3 bets: player 1 answers at 4, player 2 at 5 (1 folded) or 6 (1 called)
    node5 = _decision(5, out((0, 0, 1), (2,)), out((0, 1, 1), (1, 2)))
    node6 = _decision(6, out((1, 0, 1), (0, 2)), out((1, 1, 1), (0, 1, 2)))
    node4 = _decision(4, node5, node6)
    node3 = _decision(3, out((0, 0, 0), (0, 1, 2)), node4)
    node2 = _decision(2, node3, node7)
    return _decision(1, node2, node10)


def game(cards: object, pot: object) -> BettingGame:
    """The betting game with ``N = cards`` and pot ``P = pot`` (section 2 of the seed)."""
    n, p = parse_cards(cards), parse_pot(pot)
    return BettingGame(NAME, Deck(n), _tree(p), PLAYER_NAMES, (("cards", n), ("pot", p)))


@lru_cache(maxsize=32)
def _compiled(n: int, p: Fraction) -> CompiledGame:
    return compile_game(game(n, p))


def compiled(cards: object, pot: object) -> CompiledGame:
    """The compiled game (exact sequence-form payoffs), cached per ``(N, P)``."""
    return _compiled(parse_cards(cards), parse_pot(pot))
