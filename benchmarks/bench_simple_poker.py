"""Timings of the Euler notes' simple poker (seed 004) at growing sizes.

Run from the repository root::

    python benchmarks/bench_simple_poker.py           # the full run (about a minute)
    python benchmarks/bench_simple_poker.py --quick   # a small subset (a smoke test)

Tables with the columns job, size, seconds, result: the full 2^m x 2^m game,
the threshold game, and the exact piecewise value in r = B/A.  The issue sets
no speed target for this game.
"""

from __future__ import annotations

import sys

from timing import describe_value, print_table, run, timed

from exactpoker.games.papers import simple_poker


def describe_pieces(piecewise) -> str:
    breakpoints = piecewise.breakpoints()
    return f"{len(piecewise.value_pieces())} pieces, last breakpoint {breakpoints[-1] if breakpoints else '-'}"


def benchmarks(quick: bool) -> None:
    full = range(2, 7) if quick else range(2, 9)
    rows = [timed("all 2^m tactics, A=1 B=2", f"m={m}", lambda m=m: simple_poker.solve(m, 1, 2), describe_value)
            for m in full]
    print_table("The full matrix game", rows)
    print()
    sizes = (10, 100) if quick else (10, 100, 200, 400)
    rows = [timed("threshold tactics, A=1 B=3", f"m={m}",
                  lambda m=m: simple_poker.solve(m, 1, 3, threshold=True), describe_value) for m in sizes]
    print_table("The threshold game", rows)
    print()
    rows = [timed("piecewise value, all tactics", f"m={m}", lambda m=m: simple_poker.piecewise_value(m), describe_pieces)
            for m in ((2, 3) if quick else (2, 3, 4, 5))]
    rows += [timed("piecewise value, threshold tactics", f"m={m}",
                   lambda m=m: simple_poker.piecewise_value(m, threshold=True), describe_pieces)
             for m in ((10,) if quick else (10, 20, 40))]
    print_table("The value as an exact piecewise function of r = B/A", rows)
    print()


def main(argv: list[str] | None = None) -> int:
    return run(__doc__.splitlines()[0], "simple-poker", benchmarks, argv)


if __name__ == "__main__":
    sys.exit(main())
