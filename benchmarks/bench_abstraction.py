"""Issue 30 item 1: Leduc with its suits solved on its lossless abstraction and without, whole processes.

Run from the repository root::

    python benchmarks/bench_abstraction.py           # ranks 6 and 8 each way, 10 abstracted (2 minutes)
    python benchmarks/bench_abstraction.py --quick   # ranks 3 (seconds)

Each job is ``python -m exactpoker solve 'library:leduc(ranks=R)'`` with and
without ``--no-abstraction`` in a fresh process, timed with its peak memory by
``bench_scale.measure``; the last line of the abstraction's output names the
sizes before and after.  The exact values with and without are compared in
``tests/solve/structure/test_abstraction.py``.  The limits only bound a run (a job is stopped
at three times its limit); they are not the issue's targets.
"""

from __future__ import annotations

import sys

from bench_scale import Job, measure_all
from timing import run

#: (ranks, limit in seconds, whether the full game is timed too: ranks=10 takes minutes without abstraction)
RANKS = ((6, 30.0, True), (8, 90.0, True), (10, 90.0, False))


def _jobs(quick: bool) -> list[Job]:
    jobs = []
    for ranks, limit, full in ((3, 20.0, True),) if quick else RANKS:
        game = f"library:leduc(ranks={ranks})"
        jobs.append(Job("Leduc, lossless abstraction", f"ranks={ranks}", ("solve", game), limit))
        if full:
            jobs.append(Job("Leduc, full game", f"ranks={ranks}", ("solve", game, "--no-abstraction"), limit))
    return jobs


def benchmarks(quick: bool) -> None:
    measure_all("Leduc with suits, whole processes (python -m exactpoker solve ...)", _jobs(quick))


def main(argv: list[str] | None = None) -> int:
    return run(__doc__.splitlines()[0], "lossless abstraction (issue 30)", benchmarks, argv)


if __name__ == "__main__":
    sys.exit(main())
