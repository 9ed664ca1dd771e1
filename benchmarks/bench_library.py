"""Benchmarks for games written in the poker language: compile the rules, solve them exactly.

    python benchmarks/bench_library.py            # the library games at growing sizes (about a minute)
    python benchmarks/bench_library.py --quick    # Kuhn, a ladder and Leduc without suits

Two tables: *compile*, the game's rules compiled straight to the sequence
form (:func:`exactpoker.core.poker_compile.compile_poker`, no tree built; the
same arrays as ``compile_tree(game.tree())``), with the tree's leaves
(:func:`exactpoker.core.poker_size.tree_size`) and the information sets per
player; *exact solve*,
:func:`exactpoker.solve.solve_game` on the compiled game (certified),
two-player zero-sum games only.  One run per job, wall clock.

Target (issue 15): Leduc exact in under 60 s (rules to certified value).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from timing import Row, Target, describe_value, print_table, print_targets, run, timed

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from exactpoker.core.poker_compile import compile_poker  # noqa: E402
from exactpoker.core.poker_size import tree_size  # noqa: E402
from exactpoker.games.library import poker_game  # noqa: E402
from exactpoker.solve import solve_game  # noqa: E402

QUICK = [("kuhn", {}), ("ladder", {"n": 10, "sizes": "1;2;4"}), ("leduc", {"suits": False})]
FULL = [
    ("kuhn", {}),
    *(("ladder", {"n": n, "sizes": "1/2;1;2;4"}) for n in (10, 30, 60)),
    *(("two_round", {"ranks": r}) for r in (3, 5, 8)),
    ("leduc", {"suits": False}),
    ("leduc", {}),
    ("leduc", {"ranks": 5, "suits": False}),
    ("kuhn3", {"cards": 8}),
]


def _size(params: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in params.items()) or "-"


def _build(name: str, params: dict[str, Any]) -> Any:
    game = poker_game(name, **params)
    return game, compile_poker(game)


def _describe_build(pair: Any) -> str:
    game, compiled = pair
    leaves = tree_size(game).terminals
    infosets = "/".join(str(layout.num_infosets) for layout in compiled.layouts)
    return f"{leaves} leaves, information sets {infosets}, zero-sum {compiled.is_zero_sum}"


def benchmarks(quick: bool) -> None:
    builds: list[Row] = []
    solves: list[Row] = []
    leduc_seconds = None
    for name, params in QUICK if quick else FULL:
        row = timed(name, _size(params), lambda: _build(name, params), _describe_build)
        builds.append(row)
        if row.seconds is None or name == "kuhn3":
            continue
        compiled = compile_poker(poker_game(name, **params))
        solved = timed(name, _size(params), lambda: solve_game(compiled), describe_value)
        solves.append(solved)
        if name == "leduc" and params == {"suits": False} and solved.seconds is not None:
            leduc_seconds = row.seconds + solved.seconds
    print_table("compile (rules -> sequence form)", builds)
    print()
    print_table("exact solve (two-player zero-sum: sequence-form LP, certified)", solves)
    print()
    print_targets([Target("Leduc (suits=false), rules to certified value", leduc_seconds, 60.0)])


if __name__ == "__main__":
    sys.exit(run("Games written in the poker language: build, compile, exact solve.", "library", benchmarks))
