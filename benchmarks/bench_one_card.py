"""Poker-language games of one card each (issue 27 item 2, issue 30 item 2): compiled over all deals at once,
and their structure read from the rules.

Run from the repository root::

    python benchmarks/bench_one_card.py           # every row (about two minutes)
    python benchmarks/bench_one_card.py --quick   # the small rows (seconds)

Table 1, compiling: for each game the tree compiler on the game's tree
(``compile_tree(game.tree())``, which the poker language's own walk equals
array by array) against ``compile_poker`` (a one-card game goes through the
card-game compiler, :mod:`exactpoker.core.poker_cards`), seconds of each, and
whether the two give the same arrays.  Table 2, solving: a von Neumann poker
written in the poker language (only the first player may bet) solved by
``solve_game``, which reads the seed paper's structure from the rules and
compiles nothing, against the sequence-form LP of the compiled game where it
fits.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from timing import Row, describe_value, print_table, run, timed

from exactpoker.core.poker import Betting, CardDeck, Deal, PokerGame
from exactpoker.core.poker_compile import compile_poker
from exactpoker.core.tree import compile_tree
from exactpoker.games.library import poker_game
from exactpoker.solve import solve_game


def _same(a, b) -> bool:
    return (a.denominator == b.denominator and a.coefficients.dtype == b.coefficients.dtype
            and np.array_equal(a.sequences, b.sequences) and np.array_equal(a.coefficients, b.coefficients)
            and [(l.names, l.parents) for l in a.layouts] == [(l.names, l.parents) for l in b.layouts])


def _compile_row(label: str, game: PokerGame, with_tree: bool) -> Row:
    start = time.perf_counter()
    direct = compile_poker(game)
    cards = time.perf_counter() - start
    sequences = "+".join(str(layout.num_sequences) for layout in direct.layouts)
    if not with_tree:
        return Row(label, sequences, cards, f"{len(direct.sequences)} entries; the tree compiler not run (too slow)")
    start = time.perf_counter()
    tree = compile_tree(game.tree())
    by_tree = time.perf_counter() - start
    same = "the same arrays" if _same(direct, tree) else "ARRAYS DIFFER"
    return Row(label, sequences, cards, f"{len(direct.sequences)} entries; tree: build + compile {by_tree:.2f} s; {same}")


def von_neumann(n: int) -> PokerGame:
    """Von Neumann poker (seed 000 section 2) in the poker language: only the first player bets, 2 into 2."""
    return PokerGame("vn", players=2, deck=CardDeck.numbered(n), ante=1,
                     steps=[Deal(hole=1), Betting(sizes=2, max_bets=1, bettors=(0,))])


def benchmarks(quick: bool) -> None:
    games = [("kuhn", poker_game("kuhn"), True), ("ladder n=50 sizes 1;2;4", poker_game("ladder", n=50, sizes="1;2;4"), True),
             ("kuhn3 cards=13", poker_game("kuhn3", cards=13, pot=2), True)]
    if not quick:
        games += [("ladder n=200 sizes 1;2;4", poker_game("ladder", n=200, sizes="1;2;4"), True),
                  ("kuhn3 cards=26", poker_game("kuhn3", cards=26, pot=3), True),
                  ("ladder n=500 sizes 1;2;4", poker_game("ladder", n=500, sizes="1;2;4"), False)]
    print_table("compile_poker on one-card games (seconds: the card-game compiler, all deals at once)",
                [_compile_row(label, game, with_tree) for label, game, with_tree in games])
    sizes = (10, 100) if quick else (10, 100, 1000, 3000)
    rows = []
    for n in sizes:
        rows.append(timed("solve_game(vn in the poker language)", f"n={n}", lambda: solve_game(von_neumann(n)),
                          lambda r: f"{r.method}; {describe_value(r)}"))
        if n <= 100:
            rows.append(timed("solve_game(..., method='lp')", f"n={n}",
                              lambda: solve_game(von_neumann(n), method="lp"),
                              lambda r: f"{r.method}; {describe_value(r)}"))
    print()
    print_table("A seed paper's card game written in the poker language: the structure read from the rules", rows)


if __name__ == "__main__":
    sys.exit(run(__doc__, "one-card", benchmarks))
