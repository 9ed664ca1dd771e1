"""Timings of the Newman poker jobs (seed 000, section 3) at growing sizes.

Run from the repository root::

    python benchmarks/bench_newman.py           # the full run (under a minute)
    python benchmarks/bench_newman.py --quick   # a small subset (a smoke test)

Prints tables with the columns job, size, seconds, result and a "target met" /
"target MISSED" line per timing target of the issue: Newman at n = 14 for every
b up to saturation in under 10 s in total; n = 100, b = 10 in under 30 s.
"""

from __future__ import annotations

import sys

from timing import Target, certified_mark, describe_value, print_table, print_targets, run, seconds_of, timed

from exactpoker.continuous import newman as continuous
from exactpoker.games.papers import newman
from exactpoker.results import SolveResult


def describe_saturation(result: SolveResult) -> str:
    b = result.details["saturation b"]
    value = result.details["values"][str(b)]
    return f"saturates at b={b}, value {value} (~{float(value):.6f}); {len(result.equilibria)} LPs" + certified_mark(result)


def bench_saturation(quick: bool) -> None:
    sizes = (6, 10, 14) if quick else (6, 8, 10, 12, 14, 20)
    rows = [timed("saturation (b = 1, 2, ...)", f"n={n}", lambda n=n: newman.saturation(n), describe_saturation)
            for n in sizes]
    print_table(f"Newman values up to saturation (continuous value 1/7 ~ {1 / 7:.6f})", rows)
    print_targets([Target("n=14, every b up to saturation", seconds_of(rows, "n=14"), 10.0)])


def bench_large(quick: bool) -> None:
    sizes = ((50, 5), (100, 10)) if quick else ((50, 5), (100, 10), (200, 10), (100, 20))
    rows = [timed("sequence-form LP", f"n={n} b={b}", lambda n=n, b=b: newman.equilibrium(n, b), describe_value)
            for n, b in sizes]
    rows += [timed("the paper's LP (n 2^b rows)", f"n={n} b={b}",
                   lambda n=n, b=b: newman.equilibrium(n, b, method="per-card"), describe_value)
             for n, b in (((14, 3),) if quick else ((14, 3), (30, 4)))]
    print_table("One exact equilibrium (djnMNE)", rows)
    print_targets([Target("n=100, b=10", seconds_of(rows, "n=100 b=10"), 30.0)])


def bench_continuous() -> None:
    rows = [timed("continuous (sympy derivation + certificate)", "-", continuous.solve,
                  lambda s: f"value {s.value}, certified {s.certified}")]
    print_table("Newman's continuous solution", rows)
    print()


def benchmarks(quick: bool) -> None:
    bench_saturation(quick)
    bench_large(quick)
    bench_continuous()


def main(argv: list[str] | None = None) -> int:
    return run(__doc__.splitlines()[0], "Newman", benchmarks, argv)


if __name__ == "__main__":
    sys.exit(main())
