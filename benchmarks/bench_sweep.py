"""Sweeps on Dask: the Nash-Shapley exhaustive search (seed 001) on the shared runner, against a plain pool.

Run from the repository root::

    python benchmarks/bench_sweep.py           # a/b = 12/5, every 6th case (several minutes)
    python benchmarks/bench_sweep.py --quick   # a/b = 1, every 4th case (a smoke test)

Three tables:

1. the task-size distribution: every sampled case decided alone, here, timed
   (total, median, largest) -- the numbers behind the cluster estimate;
2. the same cases on a ``concurrent.futures`` process pool of 2 (what the
   exhaustive search used before the shared runner) and on a local Dask
   cluster of 1, 2 and 4 workers (:class:`exactpoker.parallel.Runner`);
3. the estimate for a 64-core cluster: no faster than the largest task, nor
   than the total work over 64 cores.

The issue's target: Dask with 2 workers no slower than the pool of 2.  On a
loaded machine the comparison is noisy; each is timed once.
"""

from __future__ import annotations

import multiprocessing
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from functools import partial

from timing import Row, Target, print_table, print_targets, run

from exactpoker.games.papers.nash_shapley.cases import cases
from exactpoker.games.papers.nash_shapley.exhaustive import CHUNK, _kinds, decide_case
from exactpoker.parallel import Runner


def _sample(t: Fraction, every: int) -> list:
    return cases(t)[::every]


def _chunks(sample: list) -> list[list]:
    return [sample[i:i + CHUNK] for i in range(0, len(sample), CHUNK)]


def _pool(t: Fraction, sample: list, workers: int) -> list[str]:
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        return [kind for chunk in pool.map(partial(_kinds, t), _chunks(sample)) for kind in chunk]


def _dask(t: Fraction, sample: list, workers: int) -> list[str]:
    kinds: list[str] = []
    for _, (status, value) in sorted(Runner(workers, cluster=True).run(partial(_kinds, t), _chunks(sample)), key=lambda p: p[0]):
        assert status == "ok", value
        kinds += value
    return kinds


def benchmarks(quick: bool) -> None:
    t, every = (Fraction(1), 4) if quick else (Fraction(12, 5), 6)
    sample = _sample(t, every)
    print(f"a/b = {t}: {len(cases(t))} cases of condition (C); timing every {every}th: {len(sample)} cases\n")

    sizes = []
    for case in sample:
        start = time.perf_counter()
        decide_case(t, case)
        sizes.append(time.perf_counter() - start)
    total = sum(sizes)
    print_table("Task sizes (each case decided alone, here)", [
        Row("cases", str(len(sample)), total, f"median {statistics.median(sizes) * 1000:.1f} ms, "
                                             f"largest {max(sizes):.2f} s, mean {total / len(sizes) * 1000:.1f} ms")])

    rows, reference = [], None
    for label, job in [("process pool (before)", partial(_pool, workers=2)),
                       *[("Dask LocalCluster", partial(_dask, workers=k)) for k in (1, 2, 4)]]:
        workers = job.keywords["workers"]
        start = time.perf_counter()
        kinds = job(t, sample)
        seconds = time.perf_counter() - start
        reference = reference or kinds
        same = "same decisions" if kinds == reference else "DIFFERENT DECISIONS"
        rows.append(Row(label, f"{workers} workers", seconds, f"{len(kinds)} cases, {same}"))
    print_table("The sampled cases in parallel (cluster start-up included)", rows)
    pool, dask2 = rows[0].seconds, rows[2].seconds
    print_targets([Target("Dask with 2 workers no slower than the pool of 2 (1.1 x the pool's time)", dask2,
                          1.1 * pool)])

    whole = total * every
    estimate = max(whole / 64, max(sizes))
    print_table("Estimate for the whole search on 64 cores", [
        Row("all cases, 1 core (sample x every)", f"{len(cases(t))} cases", whole, "measured sample, scaled"),
        Row("64 cores: max(total / 64, largest task)", "64 workers", estimate,
            "bounded below by the largest single case")])


if __name__ == "__main__":
    raise SystemExit(run(__doc__.splitlines()[0], "sweep", benchmarks))
