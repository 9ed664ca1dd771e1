"""Shared pieces of the benchmark scripts: timed jobs, plain-text tables, timing targets.

Each ``bench_<game>.py`` script times its jobs with :func:`timed`, prints
tables with :func:`print_table` and its targets with :func:`print_targets`,
and its ``main`` is :func:`run`, which reads ``--quick``, prints a header, runs
the benchmarks and returns the exit status (1 if any job failed; a missed
target does not change it, timings depend on the machine).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable

__all__ = ["Row", "Target", "timed", "print_table", "print_targets", "seconds_of", "certified_mark", "describe_value", "run"]


@dataclass
class Row:
    job: str
    size: str
    seconds: float | None
    result: str


@dataclass
class Target:
    label: str
    seconds: float | None
    limit: float

    def line(self) -> str:
        if self.seconds is None:
            return f"  {self.label} under {self.limit:g} s: target MISSED (the job failed)"
        verdict = "target met" if self.seconds < self.limit else "target MISSED"
        return f"  {self.label} under {self.limit:g} s: {self.seconds:.2f} s -> {verdict}"


FAILURES: list[str] = []


def certified_mark(result: Any) -> str:
    """Empty when every equilibrium of ``result`` is certified, else a loud marker."""
    return "" if all(eq.certified for eq in result.equilibria) else "  (NOT CERTIFIED)"


def describe_value(result: Any) -> str:
    """The exact value of a solve, a decimal beside it, and the certificate marker."""
    return f"value {result.value} (~{float(result.value):.6f})" + certified_mark(result)


def timed(job: str, size: str, run: Callable[[], Any], describe: Callable[[Any], str]) -> Row:
    """Run ``run()`` once, timing it; a failure is recorded in the row and in :data:`FAILURES`.

    Each finished job is also announced on standard error at once (the table is printed when every job is done,
    and a long benchmark would otherwise say nothing for minutes).
    """
    start = time.perf_counter()
    try:
        result = run()
    except Exception as error:  # noqa: BLE001 - a benchmark reports every failure and goes on
        FAILURES.append(f"{job} {size}: {type(error).__name__}: {error}")
        print(f"  {job} {size}: FAILED after {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)
        return Row(job, size, None, f"FAILED: {type(error).__name__}: {error}")
    seconds = time.perf_counter() - start
    print(f"  {job} {size}: {seconds:.1f} s", file=sys.stderr, flush=True)
    return Row(job, size, seconds, describe(result))


def print_table(title: str, rows: list[Row]) -> None:
    headers = ("job", "size", "seconds", "result")
    cells = [(r.job, r.size, "-" if r.seconds is None else f"{r.seconds:.3f}", r.result) for r in rows]
    widths = [max(len(h), *(len(c[k]) for c in cells)) if cells else len(h) for k, h in enumerate(headers)]
    print(title)
    for cell in (headers, tuple("-" * w for w in widths), *cells):
        line = "  ".join(c.rjust(w) if k == 2 else c.ljust(w) for k, (c, w) in enumerate(zip(cell, widths)))
        print(("  " + line).rstrip())
    sys.stdout.flush()


def print_targets(targets: list[Target]) -> None:
    for target in targets:
        print(target.line())
    print()
    sys.stdout.flush()


def seconds_of(rows: list[Row], size: str) -> float | None:
    """The time of the row of that size (None if it failed or is absent)."""
    return next((r.seconds for r in rows if r.size == size), None)


def run(description: str, name: str, benchmarks: Callable[[bool], None], argv: list[str] | None = None) -> int:
    """Parse ``--quick``, run ``benchmarks(quick)``, print the wall time and the failures; the exit status."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true", help="run a small subset (a smoke test)")
    quick = parser.parse_args(argv).quick
    print(f"exactpoker {name} benchmarks ({'quick' if quick else 'full'}); Python {sys.version.split()[0]}\n")
    start = time.perf_counter()
    benchmarks(quick)
    print(f"wall time: {time.perf_counter() - start:.1f} s")
    if FAILURES:
        print(f"{len(FAILURES)} job(s) failed:")
        for failure in FAILURES:
            print("  " + failure)
        return 1
    return 0
