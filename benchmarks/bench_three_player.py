"""Timings of the three-player poker jobs (seed 000, section 4) at growing sizes.

Run from the repository root::

    python benchmarks/bench_three_player.py           # the full run (a few minutes)
    python benchmarks/bench_three_player.py --quick   # a small subset (under a minute; a smoke test)

Prints plain-text tables with the columns job, size, seconds, result, and a
"target met" / "target MISSED" line for each timing target (n = 65, b = 2 in
under 5 s; n = 200, b = 2 in under 60 s; the continuous game at 50 digits in
under 5 s).  Wall-clock times by :func:`time.perf_counter`, one run per job,
each in a fresh cache (the compiled game is rebuilt).
"""

from __future__ import annotations

import sys

from timing import Target, certified_mark, print_table, print_targets, run, seconds_of, timed

from exactpoker.continuous import three_player as continuous
from exactpoker.games.papers import three_player
from exactpoker.results import SolveResult


def describe(result: SolveResult) -> str:
    eq = result.equilibria[0]
    kind = "segment, " if result.details.get("segment") else ""
    return f"{kind}value {eq.values[0]}" + certified_mark(result)


def solve_fresh(n: int, b: int) -> SolveResult:
    three_player._compiled.cache_clear()
    return three_player.equilibrium(n, b)


def bench_finite(quick: bool) -> None:
    job = "FastMNE (exact, certified)"
    sizes = (10, 30, 65) if quick else (10, 30, 65, 100, 200)
    rows = [timed(job, f"n={n} b=2", lambda n=n: solve_fresh(n, 2), describe) for n in sizes]
    print_table("One exact equilibrium of the finite three-player game, b=2 (seed 000 section 4)", rows)
    targets = [Target("n=65, b=2 exact and certified", seconds_of(rows, "n=65 b=2"), 5.0)]
    if not quick:
        targets.append(Target("n=200, b=2 exact and certified", seconds_of(rows, "n=200 b=2"), 60.0))
    print_targets(targets)


def bench_continuous(quick: bool) -> None:
    rows = [timed("Optimal(b), certified digits", f"b=2, {d} digits",
                  lambda d=d: continuous.solve(2, d).decimals(), lambda s: f"value {s['value'][:20]}...")
            for d in ((50,) if quick else (50, 200, 1000))]
    rows.append(timed("best bet b*", "50 digits", lambda: continuous.best_bet(50),
                      lambda s: f"b* {s.decimals()['b*'][:20]}..."))
    print_table("The continuous game (seed 000 section 4)", rows)
    print_targets([Target("continuous game at 50 digits", seconds_of(rows, "b=2, 50 digits"), 5.0)])


def benchmarks(quick: bool) -> None:
    bench_continuous(quick)
    bench_finite(quick)


def main(argv: list[str] | None = None) -> int:
    return run(__doc__.splitlines()[0], "three-player", benchmarks, argv)


if __name__ == "__main__":
    sys.exit(main())
