"""The targets of issue 17 ("the exact core at scale"), each timed as a whole command-line process.

Run from the repository root::

    python benchmarks/bench_scale.py           # every row (a few minutes)
    python benchmarks/bench_scale.py --quick   # the start-up rows and n = 4000 (seconds)

Each job runs ``python -m exactpoker ...`` in a fresh process; the table gives
its size, wall-clock seconds, peak memory (the child's maximum resident set,
from ``os.wait4``), the result's last line and whether the issue's target is
met.  Start-up counts: it is part of what a user waits for.  A job still
running at three times its limit is stopped (and reported as failed), so a
missed target cannot hold the machine.  A job that fails makes the exit
status 1; a missed target does not (timings depend on the machine and its
load).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass

from timing import FAILURES, Row, print_table, run


@dataclass(frozen=True)
class Job:
    name: str
    size: str
    args: tuple[str, ...]
    seconds: float  # the limit
    gigabytes: float | None = None


JOBS = (
    Job("start-up (vn mixed)", "n=3 b=1", ("vn", "mixed", "--n", "3", "--b", "1"), 0.3),
    Job("start-up (help)", "-", ("--help",), 0.3),  # issue 42 item 8
    Job("start-up (a small solve)", "Kuhn poker", ("solve", "library:kuhn"), 0.3),  # issue 42 item 8
    Job("von Neumann card-by-card LP", "n=4000 b=2", ("vn", "mixed", "--n", "4000", "--b", "2"), 15.0),
    Job("von Neumann card-by-card LP", "n=10000 b=2", ("vn", "mixed", "--n", "10000", "--b", "2"), 60.0, 2.0),
    Job("von Neumann all pure NEs", "n=20 b=2", ("vn", "pure", "--n", "20", "--b", "2"), 2.0),
    Job("von Neumann all pure NEs", "n=24 b=2", ("vn", "pure", "--n", "24", "--b", "2"), 60.0),
    Job("Newman card-by-card LP", "n=1000 b=20", ("newman", "mixed", "--n", "1000", "--b", "20"), 60.0),
    Job("three-player poker", "n=200 b=2", ("three", "mixed", "--n", "200", "--b", "2"), 5.0, 1.0),
    Job("three-player poker", "n=500 b=2", ("three", "mixed", "--n", "500", "--b", "2"), 60.0),
    *(Job("three-player Kuhn", f"N=26 pot={pot}", ("kuhn3", "--cards", "26", "--pot", pot), 30.0)
      for pot in ("2", "5/2", "3", "4", "41/10", "5", "6", "7")),
)
QUICK = JOBS[:4]


def measure(job: Job) -> tuple[Row, str]:
    """Run the job once in a child process (reaped by ``os.wait4`` for its own peak memory): row, target line."""
    with tempfile.TemporaryFile("w+") as errors:
        start = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-m", "exactpoker", *job.args],
                                 stdout=subprocess.PIPE, stderr=errors, text=True)
        stop = threading.Timer(3 * job.seconds + 5, child.kill)
        stop.start()
        out = child.stdout.read()  # type: ignore[union-attr]
        _, status, usage = os.wait4(child.pid, 0)
        stop.cancel()
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        errors.seek(0)
        err = errors.read()
    peak = usage.ru_maxrss / 2**20  # kilobytes on Linux
    if child.returncode != 0:
        why = f"stopped after {seconds:.0f} s" if child.returncode == -signal.SIGKILL else f"exit {child.returncode}"
        FAILURES.append(f"{job.name} {job.size}: {why}: {err.strip()[-200:]}")
        return Row(job.name, job.size, None, "FAILED"), f"  {job.name} {job.size}: target MISSED (the job failed)"
    last = out.strip().splitlines()[-1].strip()
    met = seconds < job.seconds and (job.gigabytes is None or peak < job.gigabytes)
    limit = f"under {job.seconds:g} s" + ("" if job.gigabytes is None else f" and {job.gigabytes:g} GB")
    line = f"  {job.name} {job.size} {limit}: {seconds:.2f} s, {peak:.2f} GB -> " + ("target met" if met else "target MISSED")
    return Row(job.name, job.size, seconds, f"peak {peak:.2f} GB; {last}"), line


def measure_all(title: str, jobs: "tuple[Job, ...] | list[Job]") -> None:
    """Run ``jobs`` one process at a time; print their table, each target's line and the load at the end."""
    measured = [measure(job) for job in jobs]
    print_table(title, [row for row, _ in measured])
    for _, line in measured:
        print(line)
    print(f"  (load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())})")
    print()


def benchmarks(quick: bool) -> None:
    measure_all("Issue 17 targets, whole processes (python -m exactpoker ...)", QUICK if quick else JOBS)


def main(argv: list[str] | None = None) -> int:
    return run(__doc__.splitlines()[0], "scale (issue 17)", benchmarks, argv)


if __name__ == "__main__":
    sys.exit(main())
