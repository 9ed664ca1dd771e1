"""Timings of the von Neumann poker jobs (seed 000, sections 1-2) at growing sizes.

Run from the repository root::

    python benchmarks/bench_von_neumann.py           # the full run (about a minute)
    python benchmarks/bench_von_neumann.py --quick   # a small subset (a few seconds; a smoke test)

Prints plain-text tables with the columns job, size, seconds, result, and a
"target met" / "target MISSED" line for each timing target.  Wall-clock times
by :func:`time.perf_counter`, one run per job (no warm-up, no repetition).  A
job that raises is reported in its row and makes the exit status 1; a missed
target does not (timings depend on the machine).
"""

from __future__ import annotations

import sys

from timing import Row, Target, certified_mark, describe_value, print_table, print_targets, run, seconds_of, timed

from exactpoker.games.papers import von_neumann
from exactpoker.results import SolveResult


def describe_pure(result: SolveResult) -> str:
    count = len(result.equilibria)
    if not count:
        return "0 NEs"
    values = sorted({eq.values[0] for eq in result.equilibria})
    shown = ", ".join(str(v) for v in values)
    return f"{count} NE{'s' if count != 1 else ''}, value{'s' if len(values) > 1 else ''} {shown}" + certified_mark(result)


def describe_slow(result: SolveResult) -> str:
    mixture = result.details.get("mixture", {})
    sizes = ", ".join(f"{player}: {len(support)} pure strateg{'y' if len(support) == 1 else 'ies'}"
                      for player, support in mixture.items())
    return f"value {result.value}; mixture support {sizes}" + certified_mark(result)


def bench_pure(quick: bool) -> None:
    job = "pure NEs (vnNE)"
    grid_n = range(2, 11)
    grid_b = range(1, 6)
    rows = [timed(job, f"n={n} b={b}", lambda n=n, b=b: von_neumann.pure_equilibria(n, b), describe_pure)
            for n in grid_n for b in grid_b]
    failed = any(r.seconds is None for r in rows)
    total = None if failed else sum(r.seconds for r in rows)  # type: ignore[misc]
    rows.append(Row(job, "total, n=2..10 x b=1..5", total, f"{len(rows)} games"))
    print_table("All pure Nash equilibria, every n in 2..10 and b in 1..5 (seed 000 section 1)", rows)
    print_targets([Target("all pure NEs for n=2..10, b=1..5 in total", total, 10.0)])

    large = (12, 14) if quick else (12, 14, 16, 18, 20)
    rows = [timed(job, f"n={n} b=2", lambda n=n: von_neumann.pure_equilibria(n, 2), describe_pure) for n in large]
    print_table("All pure Nash equilibria, larger decks at b=2", rows)
    if not quick:
        print_targets([Target("all pure NEs for n=20, b=2", seconds_of(rows, "n=20 b=2"), 60.0)])
    else:
        print()


def bench_fast(quick: bool) -> None:
    job = "card-by-card LP (fast)"
    sizes = (50, 100, 200) if quick else (50, 100, 200, 500, 1000, 4000, 10000)
    rows = [timed(job, f"n={n} b=2", lambda n=n: von_neumann.equilibrium(n, 2, method="structured"), describe_value)
            for n in sizes]
    print_table("One mixed NE by the card-by-card LP, b=2 (vnMNE, seed 000 section 2)", rows)
    targets = [Target("card-by-card LP for n=200, b=2", seconds_of(rows, "n=200 b=2"), 2.0)]
    if not quick:
        targets.append(Target("card-by-card LP for n=1000, b=2", seconds_of(rows, "n=1000 b=2"), 60.0))
        targets.append(Target("card-by-card LP for n=4000, b=2 (issue 17)", seconds_of(rows, "n=4000 b=2"), 15.0))
        targets.append(Target("card-by-card LP for n=10000, b=2 (issue 17)", seconds_of(rows, "n=10000 b=2"), 60.0))
    print_targets(targets)


def bench_exact(quick: bool) -> None:
    rows = [
        timed("slow LP (all 2^n strategies)", f"n={n} b=2",
              lambda n=n: von_neumann.equilibrium(n, 2, method="strategic"), describe_slow)
        for n in ((4, 5) if quick else range(4, 9))
    ]
    rows += [
        timed("card-by-card LP, exact simplex", f"n={n} b=2",
              lambda n=n: von_neumann.equilibrium(n, 2, method="simplex"), describe_value)
        for n in ((10,) if quick else (10, 20, 40))
    ]
    print_table("Exact simplex: the slow LP (MNE) and the card-by-card LP (seed 000 section 2)", rows)
    print()


def benchmarks(quick: bool) -> None:
    bench_pure(quick)
    bench_fast(quick)
    bench_exact(quick)


def main(argv: list[str] | None = None) -> int:
    return run(__doc__.splitlines()[0], "von Neumann", benchmarks, argv)


if __name__ == "__main__":
    sys.exit(main())
