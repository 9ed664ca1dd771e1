"""Gambit files solved by exactpoker vs Gambit's own exact LP, whole process each; reading large files.

    python benchmarks/bench_gambit.py            # von Neumann n = 10, 20, 40, 80 and catalog zero-sum games
    python benchmarks/bench_gambit.py --quick    # n = 10 and the catalog
    python benchmarks/bench_gambit.py --read [--against TREE] [--quick]   # reading n = 25, 50, 100, 200

Each row times two child processes on the same ``.efg`` file:

* ours: ``python -m exactpoker solve FILE --json`` (read, compile, exact
  sequence-form LP, certificate);
* Gambit: ``pygambit.read_efg`` + ``pygambit.nash.lp_solve(rational=True)``,
  stopped after ``GAMBIT_CAP`` seconds.

The von Neumann files are written by ``exactpoker vn efg --n N --b 2``; the
catalog games are pygambit's two-player zero-sum ones.  The table gives the
seconds of each, the speed-up and whether the exact values agree.

Target (issue 15): ours at least 10x faster than Gambit's exact LP at n = 40.

``--read`` (issue 30, the general engine at scale) times reading von Neumann
files (``exactpoker vn efg --n N --b 2``, N = 25, 50, 100, 200; ``--quick``:
25 and 50): the file's size and nodes, the CPU seconds of ``read_efg`` alone (in
a child process; CPU time, as the machine may be shared; the best of 3 runs
for files under 4 MB, one run above), and the whole
``exactpoker solve FILE --json`` process (wall seconds) with its peak memory
(``/usr/bin/time``).  With ``--against TREE`` (another checkout of
exactpoker, e.g. the main branch before a change) every timing is taken with
that tree's code too, side by side, and the two ``--json`` outputs are compared
byte for byte.  Target: reading at least 5x faster than TREE at n = 200.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

from timing import FAILURES, run

GAMBIT_CAP = 60.0
SIZES = (10, 20, 40, 80)
READ_SIZES = (25, 50, 100, 200)
_READ = """
import sys, time
from exactpoker.formats.efg import read_efg
text = open(sys.argv[1], encoding="utf-8").read()
best = None
for _ in range(int(sys.argv[2])):
    start = time.process_time()
    tree = read_efg(text, sys.argv[1]).tree
    seconds = time.process_time() - start
    best = seconds if best is None else min(best, seconds)
    del tree
print(best, sum(1 for _ in read_efg(text, sys.argv[1]).tree.nodes()))
"""
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


def _env(tree: str | None) -> dict[str, str]:
    """The environment of a child process running the code of ``tree`` (None: this script's checkout)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.abspath(tree) if tree else str(Path(__file__).resolve().parent.parent)
    return env


def _read_row(path: Path, tree: str | None) -> tuple[float, int, float, int, bytes]:
    """read_efg CPU seconds and nodes, then the whole solve's seconds, peak kB and --json output, with ``tree``'s code.

    The children run in the file's folder: a checkout in the working directory would come first on their path.
    """
    env, folder = _env(tree), path.parent
    repeats = "3" if path.stat().st_size < 4_000_000 else "1"  # the best of 3 where that is quick
    read = subprocess.run([sys.executable, "-c", _READ, path.name, repeats], capture_output=True, text=True, env=env,
                          cwd=folder, check=True)
    seconds, nodes = read.stdout.split()
    solve = subprocess.run(["/usr/bin/time", "-f", "%e %M", sys.executable, "-m", "exactpoker", "solve", path.name,
                            "--json"], capture_output=True, env=env, cwd=folder, check=True)
    whole, peak = solve.stderr.decode().split()[-2:]
    return float(seconds), int(nodes), float(whole), int(peak), solve.stdout


def read_benchmarks(quick: bool, against: str | None) -> None:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for n in READ_SIZES[:2] if quick else READ_SIZES:
            path = Path(folder) / f"vn{n}.efg"
            subprocess.run([sys.executable, "-m", "exactpoker", "vn", "efg", "--n", str(n), "--b", "2", "-o",
                            path.name], env=_env(None), cwd=folder, check=True)
            ours = _read_row(path, None)
            theirs = _read_row(path, against) if against else None
            rows.append((n, path.stat().st_size, ours, theirs))
    print("Reading von Neumann .efg files (read_efg alone, CPU s; the whole solve process, wall s, and its peak "
          "memory)" + (f"; before = {against}" if against else ""))
    head = f"{'n':>4} {'bytes':>10} {'nodes':>8} {'read s':>7}"
    head += f" {'before':>7} {'x':>5}" if against else ""
    head += f" {'solve s':>8} {'peak MB':>8}" + (f" {'before':>8} {'peak MB':>8}  json" if against else "")
    print(head)
    for n, size, ours, theirs in rows:
        line = f"{n:>4} {size:>10,} {ours[1]:>8,} {ours[0]:>7.2f}"
        line += f" {theirs[0]:>7.2f} {theirs[0] / ours[0]:>5.1f}" if theirs else ""
        line += f" {ours[2]:>8.2f} {ours[3] / 1024:>8.0f}"
        if theirs:
            same = "byte-identical" if theirs[4] == ours[4] else "DIFFERENT"
            if same == "DIFFERENT":
                FAILURES.append(f"vn n={n}: solve --json differs from {against}'s")
            line += f" {theirs[2]:>8.2f} {theirs[3] / 1024:>8.0f}  {same}"
        print(line)
    last = rows[-1]
    if last[3] is not None and last[0] == READ_SIZES[-1]:
        met = last[3][0] >= 5 * last[2][0]
        verdict = "target met" if met else "target MISSED"
        print(f"target: reading n={last[0]} at least 5x faster than {against}: {verdict}")
    print()


def main() -> int:
    argv = sys.argv[1:]
    if "--read" not in argv:
        return run(__doc__.splitlines()[0], "bench_gambit", benchmarks, argv)
    argv.remove("--read")
    against = None
    if "--against" in argv:
        at = argv.index("--against")
        against = argv[at + 1]
        del argv[at:at + 2]
    return run(__doc__.splitlines()[0], "bench_gambit --read", lambda quick: read_benchmarks(quick, against), argv)


if __name__ == "__main__":
    sys.exit(main())
