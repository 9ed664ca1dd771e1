"""Timings of the Nash--Shapley poker jobs (seed 001) against the issue's targets.

Run from the repository root::

    python benchmarks/bench_nash_shapley.py           # equilibrium points at several a/b, regions (about a minute)
    python benchmarks/bench_nash_shapley.py --quick   # one ratio only (seconds; a smoke test)
    python benchmarks/bench_nash_shapley.py --coalitions   # also the coalition LPs (several minutes)
    python benchmarks/bench_nash_shapley.py --exhaustive   # also the completeness proofs (every case of (C)
                                                           # decided, both cores; one ratio per range of a/b)

Prints a plain-text table with the columns job, size, seconds, result, then a
"target met" / "target MISSED" line per target (all equilibrium points at one
a/b in under 10 s; the regions in under 60 s).  The discriminants are
computed once per process, inside the first row's time.  Wall clock,
``time.perf_counter``, one run.  The exit status is 1 if a job fails.
"""

from __future__ import annotations

import sys
import time
from fractions import Fraction
from typing import Any, Callable


def timed(job: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    try:
        result = job()
    except Exception as error:  # reported in the table, not hidden
        result = error
    return time.perf_counter() - start, result


def main() -> int:
    from exactpoker.games.papers.nash_shapley import regions
    from exactpoker.games.papers.nash_shapley.equilibria import equilibria

    quick = "--quick" in sys.argv
    ratios = [Fraction(1, 2)] if quick else [Fraction(1, 2), Fraction(1), Fraction(21, 20), Fraction(6, 5), Fraction(7, 5), Fraction(2),
                                          Fraction(5, 2), Fraction(27, 10), Fraction(5)]
    rows, failed, worst = [], False, 0.0
    for ratio in ratios:
        seconds, result = timed(lambda: equilibria(ratio, 1))
        if isinstance(result, Exception):
            failed = True
            text = f"FAILED: {result}"
        else:
            values = ", ".join(f"{float(v):.4f}" for v in result.equilibria[0].values)
            mark = "" if all(eq.certified for eq in result.equilibria) else " NOT CERTIFIED"
            text = f"{len(result.equilibria)} point(s), V/b = ({values}){mark}"
        worst = max(worst, seconds)
        rows.append(("equilibrium points", f"a/b = {ratio}", seconds, text))
    region_seconds = None
    if not quick:
        region_seconds, result = timed(lambda: regions.regions(12))
        failed |= isinstance(result, Exception)
        text = str(result) if isinstance(result, Exception) else ", ".join(
            f"{bd['name']} = {bd['decimal']}" for bd in result["boundaries"])
        rows.append(("regions", "A1 .. A10", region_seconds, text))
    if "--coalitions" in sys.argv:
        from exactpoker.games.papers.nash_shapley.coalitions import characteristic_function

        seconds, result = timed(lambda: characteristic_function(1, 1))
        failed |= isinstance(result, Exception)
        text = str(result) if isinstance(result, Exception) else ", ".join(
            f"v({{{','.join(str(p + 1) for p in c)}}}) = {v.value}" for c, v in result.items() if len(c) == 1)
        rows.append(("coalitions", "a = b", seconds, text))
    if "--exhaustive" in sys.argv:
        from exactpoker.games.papers.nash_shapley.exhaustive import exhaustive

        # one ratio in each range of a/b (nash-shapley regions): R_I, R_II (below and above 1), R_III, beyond A3,
        # IV, V, VI, VII, VII with VIII and XI, VIII, a > 3b (regions IX and X), a = 4b (footnote 18)
        for ratio in map(Fraction, ["1/2", "3/4", "1", "51/50", "11/10", "6/5", "7/5", "8/5", "2", "11/5", "12/5",
                                    "27/10", "7/2", "4"]):
            seconds, result = timed(lambda: exhaustive(ratio, 1))
            failed |= isinstance(result, Exception)
            if isinstance(result, Exception):
                text = f"FAILED: {result}"
            else:
                counts = result.details["cases"]
                text = (f"{len(result.equilibria)} point(s); {counts['cases']} cases, "
                        f"{len(counts['families'])} region(s) of free coefficients, {len(counts['undecided'])} undecided")
            rows.append(("every case of (C)", f"a/b = {ratio}", seconds, text))
    width = max(len(r[1]) for r in rows)
    print(f"{'job':<20} {'size':<{width}} {'seconds':>8}  result")
    for job, size, seconds, text in rows:
        print(f"{job:<20} {size:<{width}} {seconds:8.2f}  {text}")
    print(f"target: all equilibrium points at one a/b < 10 s: worst {worst:.2f} s -> "
          + ("target met" if worst < 10 else "target MISSED"))
    if region_seconds is not None:
        print(f"target: regions < 60 s: {region_seconds:.2f} s -> " + ("target met" if region_seconds < 60 else "target MISSED"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
