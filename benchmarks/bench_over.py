"""Benchmarks for games over a parameter: ``exactpoker solve GAME --over NAME=FROM..TO``.

    python benchmarks/bench_over.py            # Kuhn, von Neumann, simple poker, Leduc (ranks 2, 3) in the bet
    python benchmarks/bench_over.py --quick    # Kuhn and von Neumann only

One table: game, parameter and interval, the number of pieces (optimal bases,
each certified on its whole piece), the value breakpoints, and the wall clock
of the whole job (interpolated compile, the parametric LP, the check at every
piece's sample point).  One run per job.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

from timing import Row, print_table, run, timed

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from exactpoker.core.parametric import ParametricGame, compile_parametric  # noqa: E402
from exactpoker.games.papers import simple_poker, von_neumann  # noqa: E402
from exactpoker.games.library import parametric  # noqa: E402
from exactpoker.solve.parametric.game import solve_over  # noqa: E402


def _job(game: Callable[[], ParametricGame], lower: Fraction, upper: Fraction) -> Callable[[], Any]:
    def solve() -> Any:
        built = game()
        points = [lower + (upper - lower) * Fraction(k, built.degree + 3) for k in range(1, built.degree + 3)]
        return solve_over(compile_parametric(built, points), lower, upper)

    return solve


def _describe(solution: Any) -> str:
    breaks = ", ".join(str(b) for b in solution.breakpoints()) or "none"
    return f"{len(solution.pieces)} pieces, value breakpoints: {breaks}"


QUICK = [
    ("kuhn", "bet", "1/4..8", lambda: parametric("kuhn", "bet")),
    ("von Neumann n=6", "b", "1/2..8", lambda: ParametricGame("vn", "b", lambda b: von_neumann.compiled(6, b))),
]
FULL = QUICK + [
    ("kuhn", "ante", "1/4..8", lambda: parametric("kuhn", "ante")),
    ("von Neumann n=20", "b", "1/2..8", lambda: ParametricGame("vn", "b", lambda b: von_neumann.compiled(20, b))),
    ("simple m=4", "r=B/A", "1/10..20", lambda: ParametricGame("simple", "r", lambda r: simple_poker.compiled(4, 1, r))),
    ("leduc ranks=2", "bet2", "2..8", lambda: parametric("leduc(suits=false,ranks=2)", "bet2")),
    ("leduc ranks=3", "bet2", "3..5", lambda: parametric("leduc(suits=false)", "bet2")),
]


def benchmarks(quick: bool) -> None:
    rows: list[Row] = []
    for name, parameter, interval, game in QUICK if quick else FULL:
        lower, upper = (Fraction(x) for x in interval.split(".."))
        rows.append(timed(name, f"{parameter} in [{lower}, {upper}]", _job(game, lower, upper), _describe))
    print_table("exact pieces over a parameter (each certified on the whole piece)", rows)


if __name__ == "__main__":
    sys.exit(run("Games over a parameter: exact pieces and breakpoints.", "over", benchmarks))
