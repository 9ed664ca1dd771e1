"""Benchmarks for three-player Kuhn poker (seed 003): print a table size / seconds / result.

    python benchmarks/bench_kuhn3.py                 # exact equilibria, N = 4 .. 13, and N = 26 (memory)
    python benchmarks/bench_kuhn3.py branch 10       # the branch for N = 10, P_min <= P <= 10
    python benchmarks/bench_kuhn3.py algebraic       # irrational equilibria (pots above about 1.1 P_min)

Targets (issue 6): N = 13 exact at one pot < 60 s; the N = 10 branch < 10 min; N = 26 in < 2 GB.
"""

from __future__ import annotations

import os
import resource
import sys
import tempfile
import time
from fractions import Fraction

from exactpoker.errors import ExactPokerError
from exactpoker.games.papers import kuhn3, kuhn3_branch


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def exact_table(cases: list[tuple[int, Fraction]]) -> None:
    print(f"{'N':>3} {'P':>8} {'seconds':>8} {'peak MB':>8}  result")
    for n, pot in cases:
        start = time.perf_counter()
        try:
            r = kuhn3.equilibrium(n, pot)
            eq = r.equilibria[0]
            field = r.details.get("field")
            exact = f"algebraic, degree {field['degree']}" if field else "rational"
            result = (f"values ~ {', '.join(f'{float(v):.6f}' for v in eq.values)} ({exact}); "
                      f"certified {eq.certified}")
        except ExactPokerError as error:
            result = f"no exact equilibrium: {str(error)[:90]}..."
        print(f"{n:>3} {str(pot):>8} {time.perf_counter() - start:>8.2f} {_peak_mb():>8.0f}  {result}", flush=True)


def branch_table(n: int, high: Fraction = Fraction(10)) -> None:
    """What ``exactpoker kuhn3 branch --cards n --pot-min P_min --pot-max high --csv FILE`` does, timed."""
    start, cpu = time.perf_counter(), time.process_time()
    points = kuhn3_branch.branch(n, kuhn3.p_min(n), high)
    with tempfile.TemporaryDirectory() as folder:
        kuhn3_branch.write_csv(points, os.path.join(folder, "branch.csv"), n)
    seconds = time.perf_counter() - start
    print(f"branch N = {n}, P_min = {kuhn3.p_min(n)} .. {high}: {len(points)} points, {seconds:.1f} s "
          f"({time.process_time() - cpu:.1f} s CPU), peak {_peak_mb():.0f} MB; last point P = {points[-1].pot:.4f}, "
          "E = " + ", ".join(f"{v:.6f}" for v in points[-1].values))


if __name__ == "__main__":
    if sys.argv[1:2] == ["branch"]:
        branch_table(int(sys.argv[2]) if len(sys.argv) > 2 else 10)
    elif sys.argv[1:2] == ["algebraic"]:
        exact_table([(5, Fraction(10, 7)), (5, Fraction(5, 2)), (6, Fraction(2)), (7, Fraction(1)), (8, Fraction(1)),
                     (10, Fraction(1, 3)), (13, Fraction(1, 4)), (5, Fraction(3))])
    else:
        cases = [(4, Fraction(3)), (4, Fraction(7, 2)), (5, Fraction(6, 5)), (6, Fraction(4, 5)), (8, Fraction(1, 2)),
                 (10, Fraction(1, 3)), (13, Fraction(1, 5)), (13, Fraction(1, 4)), (13, Fraction(46, 5)),
                 (26, Fraction(1, 23)), (26, Fraction(2, 23))]
        exact_table(cases)
