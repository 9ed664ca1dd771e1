"""Benchmarks for three-player Kuhn poker (seed 003) at pots where the equilibrium is irrational of high degree.

    python benchmarks/bench_kuhn3_balls.py            # N = 5 .. 13 at P = 3 and P = 5
    python benchmarks/bench_kuhn3_balls.py --quick    # N = 5, 6 at P = 3

Each job is ``kuhn3.equilibrium(N, P)`` (float guide, then the exact finish:
rational, algebraic, or the unique zero in an interval-Newton isolating box
certified in ball arithmetic); the result column says which certificate.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import Row, certified_mark, print_table, run, timed  # noqa: E402

from exactpoker.games.papers import kuhn3  # noqa: E402


def describe(result: Any) -> str:
    """Which exact finish, and E_1 .. E_3 to 6 decimals."""
    eq = result.equilibria[0]
    if "isolating_box" in result.details:
        kind = f"{eq.certificate.kind} ({len(result.details['isolating_box']['unknowns'])} unknowns)"
    elif "field" in result.details:
        kind = f"algebraic, degree {result.details['field']['degree']}"
    else:
        kind = "rational"
    return f"{kind}; E ~ " + ", ".join(f"{float(v):.6f}" for v in eq.values) + certified_mark(result)


def benchmarks(quick: bool) -> None:
    for pot in (Fraction(3),) if quick else (Fraction(3), Fraction(5)):
        sizes = (5, 6) if quick else range(5, 14)
        rows: list[Row] = [timed("equilibrium", f"N={n} P={pot}", lambda n=n: kuhn3.equilibrium(n, pot), describe)
                           for n in sizes]
        print_table(f"kuhn3 equilibria at P = {pot} (isolating box where the degree is high)", rows)


if __name__ == "__main__":
    sys.exit(run(__doc__.splitlines()[0], "kuhn3 (isolating boxes)", benchmarks))
