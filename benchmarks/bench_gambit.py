"""Gambit files solved by exactpoker vs Gambit's own exact LP, whole process each.

    python benchmarks/bench_gambit.py            # von Neumann n = 10, 20, 40, 80 and catalog zero-sum games
    python benchmarks/bench_gambit.py --quick    # n = 10 and the catalog

Each row times two child processes on the same ``.efg`` file:

* ours: ``python -m exactpoker solve FILE --json`` (read, compile, exact
  sequence-form LP, certificate);
* Gambit: ``pygambit.read_efg`` + ``pygambit.nash.lp_solve(rational=True)``,
  stopped after ``GAMBIT_CAP`` seconds.

The von Neumann files are written by ``exactpoker vn efg --n N --b 2``; the
catalog games are pygambit's two-player zero-sum ones.  The table gives the
seconds of each, the speed-up and whether the exact values agree.

Target (issue 15): ours at least 10x faster than Gambit's exact LP at n = 40.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

from timing import FAILURES, run

GAMBIT_CAP = 60.0
SIZES = (10, 20, 40, 80)
CATALOG = ("books/myerson1991/fig2_1", "books/vonstengel2022/fig10.12", "journals/mor/vonstengelforges2008/fig6",
           "journals/other/reiley2008/fig1")
_GAMBIT = """
import sys, pygambit as gbt
game = gbt.read_efg(sys.argv[1])
eq = gbt.nash.lp_solve(game, rational=True).equilibria[0]
print(eq.payoff(list(game.players)[0]))
"""


def _timed(argv: list[str], cap: float | None) -> tuple[float | None, str]:
    """Seconds and standard output of a child process (None seconds if it ran out of time or failed)."""
    start = time.perf_counter()
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=cap)
    except subprocess.TimeoutExpired:
        return None, f"no answer in {cap:.0f} s"
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        return None, "failed: " + (done.stderr.strip().splitlines() or ["?"])[-1]
    return seconds, done.stdout


def _row(label: str, path: Path) -> tuple[str, float | None, float | None, str]:
    ours, out = _timed([sys.executable, "-m", "exactpoker", "solve", str(path), "--json"], None)
    value = Fraction(json.loads(out)["equilibria"][0]["values"][0]) if ours is not None else None
    if ours is None:
        FAILURES.append(f"{label}: exactpoker {out}")
    theirs, their_out = _timed([sys.executable, "-c", _GAMBIT, str(path)], GAMBIT_CAP)
    if theirs is None:
        agreement = their_out
        if not their_out.startswith("no answer"):
            FAILURES.append(f"{label}: Gambit {their_out}")
    else:
        agreement = "values agree" if Fraction(their_out.strip()) == value else f"DIFFER ({their_out.strip()})"
    return label, ours, theirs, f"value {value}; {agreement}"


def _print(rows: list[tuple[str, float | None, float | None, str]]) -> None:
    def sec(s: float | None) -> str:
        return "-" if s is None else f"{s:.2f}"

    def speedup(ours: float | None, theirs: float | None, result: str) -> str:
        if ours is None:
            return "-"
        if theirs is None:
            return f">{GAMBIT_CAP / ours:.0f}x" if "no answer" in result else "-"
        return f"{theirs / ours:.1f}x"

    cells = [(label, sec(o), sec(t), speedup(o, t, result), result) for label, o, t, result in rows]
    headers = ("game", "ours s", "Gambit lp s", "speed-up", "result")
    widths = [max(len(h), *(len(c[k]) for c in cells)) for k, h in enumerate(headers)]
    for line in (headers, tuple("-" * w for w in widths), *cells):
        print("  ".join(c.ljust(w) for c, w in zip(line, widths)))
    print()


def benchmarks(quick: bool) -> None:
    import pygambit as gbt

    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for n in SIZES[:1] if quick else SIZES:
            path = Path(folder) / f"vn{n}.efg"
            subprocess.run([sys.executable, "-m", "exactpoker", "vn", "efg", "--n", str(n), "--b", "2", "-o", str(path)],
                           check=True)
            rows.append(_row(f"von Neumann n={n}", path))
        root = Path(gbt.__file__).parent / "catalog_data"
        for slug in CATALOG:
            rows.append(_row(slug, root / f"{slug}.efg"))
    print("Gambit .efg files: exactpoker solve vs Gambit's exact lp_solve (whole process)")
    _print(rows)
    n40 = next((r for r in rows if r[0] == "von Neumann n=40"), None)
    if n40 is not None:
        ours, theirs = n40[1], n40[2]
        met = ours is not None and (theirs is None or theirs >= 10 * ours)
        print(f"target: 10x faster than Gambit at von Neumann n=40: {'target met' if met else 'target MISSED'}")
        print()


if __name__ == "__main__":
    sys.exit(run(__doc__.splitlines()[0], "bench_gambit", benchmarks))
