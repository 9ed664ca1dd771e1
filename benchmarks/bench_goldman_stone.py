"""Timings of Goldman-Stone symmetric poker (seed 002) with n cards, and of the continuous theorem.

Run from the repository root::

    python benchmarks/bench_goldman_stone.py           # the full run (about a minute)
    python benchmarks/bench_goldman_stone.py --quick   # a small subset (a smoke test)

Tables with the columns job, size, seconds, result, and the issue's target:
Goldman-Stone at n = 100 in under 30 s.
"""

from __future__ import annotations

import sys

from timing import Target, describe_value, print_table, print_targets, run, seconds_of, timed

from exactpoker.continuous import goldman_stone as continuous
from exactpoker.games.papers import goldman_stone


def describe_discretised(disc) -> str:
    return f"exploitability of Lemma 8 on n cards {disc.exploitability} (~{float(disc.exploitability):.3g})"


def benchmarks(quick: bool) -> None:
    sizes = (10, 50, 100) if quick else (10, 20, 50, 100, 200)
    rows = [timed("exact LP, a=3 b=2", f"n={n}", lambda n=n: goldman_stone.equilibrium(n, 3, 2), describe_value)
            for n in sizes]
    rows += [timed("Lemma 8 discretised, a=3 b=2", f"n={n}",
                   lambda n=n: goldman_stone.discretised_lemma8(n, 3, 2), describe_discretised) for n in sizes]
    print_table("The n-card game (value 0 by symmetry)", rows)
    print_targets([Target("Goldman-Stone at n=100", seconds_of(rows, "n=100"), 30.0)])
    rows = [timed("Lemma 8 symbolic in a, b, certified", "-", continuous.solve_symbolic,
                  lambda s: f"value {s.value}, certified {s.certified}")]
    print_table("The continuous theorem", rows)
    print()


def main(argv: list[str] | None = None) -> int:
    return run(__doc__.splitlines()[0], "Goldman-Stone", benchmarks, argv)


if __name__ == "__main__":
    sys.exit(main())
