"""Three-player Leduc through ``exactpoker solve`` (issue 27): size, seconds, peak memory and the result.

    python benchmarks/bench_leduc3.py           # two ranks with and without suits, three ranks refused (about 3 min)
    python benchmarks/bench_leduc3.py --quick   # two ranks with suits (about 40 s) and the quick refusal
    python benchmarks/bench_leduc3.py --full    # also the full game (four ranks): refused after its abstraction

Each row runs ``python -m exactpoker solve GAME --json`` as a whole process and prints the game's
information sets per player (and after the lossless abstraction), the wall seconds, the child's peak
RSS, and the method and certificate, or the one-line refusal.  The N-player route is the float guide
(continuation in epsilon, sparse Newton steps) -> support -> exact finish -> certificate
(:mod:`exactpoker.solve.nplayer.pipeline`); the guide is refused before it is built when it would compute more
than :data:`exactpoker.solve.nplayer.pipeline.MAX_GUIDE_TERMS` products an evaluation.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time

ROWS = [
    ("library:leduc(players=3,ranks=2)", True),
    ("library:leduc(players=3,ranks=3,suits=false)", True),
    ("library:leduc(players=3,ranks=2,suits=false)", False),
    ("library:leduc(players=3,ranks=3)", False),
]
FULL = ["library:leduc(players=3)"]


def _row(spec: str) -> bool:
    """Solve ``spec`` in a child process and print its row; whether it exited cleanly (solved or refused)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "exactpoker", "solve", spec, "--json"], capture_output=True,
                          text=True)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # the largest child so far, in kB
    memory = f"{peak / 1024**2:.2f} GB" if peak > before else "(below an earlier row)"
    if done.returncode == 0:
        data = json.loads(done.stdout)
        sizes = data["details"].get("abstraction", {}).get("information_sets")
        infosets = data["details"]["sequences"] if sizes is None else f"{sizes['full']} -> {sizes['reduced']}"
        certified = all(eq["certified"] for eq in data["equilibria"])
        result = f"{data['method']}; certified: {certified}"
        size = f"information sets {infosets}" if sizes else f"sequences {infosets}"
    else:
        size, result = "-", "refused: " + done.stderr.strip().splitlines()[-1][:400]
    print(f"{spec}\n    {size}\n    {seconds:.1f} s, peak RSS {memory}\n    {result}", flush=True)
    return done.returncode in (0, 2)


def main(argv: list[str]) -> int:
    quick, full = "--quick" in argv, "--full" in argv
    specs = [spec for spec, in_quick in ROWS if in_quick or not quick] + (FULL if full else [])
    print("three-player Leduc through `exactpoker solve` (one process a row)")
    return 0 if all([_row(spec) for spec in specs]) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
