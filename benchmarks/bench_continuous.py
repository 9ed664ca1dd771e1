"""Benchmarks of the continuous-deck engine: every continuous game's time and peak memory.

    python benchmarks/bench_continuous.py            # every library game with --continuous, --over, the papers' commands
    python benchmarks/bench_continuous.py --quick    # von Neumann, La Relance and Kuhn only

Each job runs as a user runs it, ``exactpoker ... --json`` in its own process, one at a time: the
table gives its wall clock, its peak resident memory (the process's maximum RSS) and what it
found (the first player's value, or the pieces of ``--over``, or the refusal).  The finite decks
the engine reads are part of the time.  Three-player continuous Kuhn poker is run with a time
limit: it is expected to be refused (its equilibria are not piecewise constant).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import FAILURES, Row, print_table, run

ROOT = Path(__file__).resolve().parent.parent

QUICK = [
    ["solve", "library:vn(b=2)", "--continuous"],
    ["solve", "library:la_relance(bet=2)", "--continuous"],
    ["solve", "library:kuhn", "--continuous"],
]
FULL = [
    ["solve", "library:vn(b=1)", "--continuous"],
    ["solve", "library:vn(b=3/2)", "--continuous"],
    *QUICK,
    ["solve", "library:vn", "--continuous", "--over", "b=1..4", "--maximize", "value[I]"],
    ["solve", "library:la_relance", "--continuous", "--over", "bet=1/2..4"],
    ["solve", "library:vn(sizes=1;2)", "--continuous"],
    ["solve", "library:vn(b=2,raise=true)", "--continuous"],
    ["solve", "library:vn(raise=true)", "--continuous", "--over", "b=1..4"],
    ["solve", "library:kuhn(bet=1/2)", "--continuous"],
    ["solve", "library:kuhn(bet=2)", "--continuous"],
    ["solve", "library:kuhn(bet=3)", "--continuous"],
    ["solve", "library:kuhn", "--continuous", "--over", "bet=1/2..4", "--maximize", "value[P2]"],
    ["solve", "library:goldman_stone(a=3,b=2)", "--continuous"],
    ["solve", "library:three(b=2)", "--continuous"],
    ["solve", "library:three(b=1)", "--continuous"],
    ["vn", "continuous"],
    ["three", "continuous", "--b", "2"],
    ["goldman-stone", "--a", "3", "--b", "2"],
    ["solve", "library:vn(b=1/100)", "--continuous"],
    ["solve", "library:vn(b=1000000)", "--continuous"],
    ["solve", "library:kuhn(bet=1/100)", "--continuous"],
    ["solve", "library:vn(b=1/100,raise=true)", "--continuous"],
    ["solve", "library:three(b=1/100)", "--continuous"],
    ["solve", "library:kuhn3(pot=3)", "--continuous"],
]
#: Seconds a job may run before it is stopped (three-player Kuhn poker's search is the long one).
LIMIT = 900


def _found(data: dict) -> str:
    if "pieces" in data:
        pieces = data["pieces"]
        maximum = data.get("maximum")
        best = f"; max {maximum['value']['approx']} at {maximum['at'][0]['exact']}" if maximum else ""
        return f"{len(pieces)} piece(s) [{pieces[0]['from']}, {pieces[-1]['to']}], value {pieces[0]['value'][0]}{best}"
    values = data["equilibria"][0]["values"] if data.get("equilibria") else [data.get("value")]
    approx = data["equilibria"][0].get("approx", {}).get("values") if data.get("equilibria") else None
    shown = approx[0] if approx else values[0]
    decks = [d["cards"] for d in data.get("continuous", {}).get("finite_decks", [])]
    lender = data.get("continuous", {}).get("shape_from")
    return (f"value {shown}" + (f"; decks n = {decks}" if decks else "")
            + (f"; shape from {lender}" if lender else ""))


def _job(argv: list[str]) -> Row:
    """Run ``exactpoker argv --json`` in its own process; time, peak memory (its rusage) and what it found."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-m", "exactpoker", *argv, "--json"], stdout=out, stderr=err,
                                   env=env, cwd=ROOT)
        while True:  # reaped here, not by Popen, to read the child's own rusage
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - start > LIMIT:
                process.kill()
                os.wait4(process.pid, 0)
                FAILURES.append(f"{' '.join(argv)}: stopped after {LIMIT} s")
                return Row(" ".join(argv), "-", None, f"stopped after {LIMIT} s")
            time.sleep(0.05)
        seconds = time.perf_counter() - start
        peak = f"{usage.ru_maxrss / 1024:.0f} MB"  # Linux: kB
        out.seek(0)
        err.seek(0)
        if os.waitstatus_to_exitcode(status) != 0:
            return Row(" ".join(argv), peak, seconds, "refused: " + err.read().decode().strip().splitlines()[-1][-160:])
        return Row(" ".join(argv), peak, seconds, _found(json.loads(out.read())))


def benchmarks(quick: bool) -> None:
    rows = [_job(argv) for argv in (QUICK if quick else FULL)]
    print_table("continuous decks (size column: peak memory of the process)", rows)


if __name__ == "__main__":
    sys.exit(run(__doc__.splitlines()[0], "continuous", benchmarks))
