"""One engine (issue 27): a paper's named command against ``exactpoker solve library:...`` on the same game.

    python benchmarks/bench_one_engine.py            # kuhn3, N = 4..13, P in 2, 5/2, 3, 5
    python benchmarks/bench_one_engine.py --quick    # N = 4..6

Each row times both commands as whole processes (``/usr/bin/time``-like: wall seconds, peak RSS of the
child) and prints whether the certified values agree, and the ratio solve / named (target: at most 1.5).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time

import sympy


def _run(argv: list[str]) -> tuple[float, dict | None]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "exactpoker", *argv, "--json"], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    return seconds, json.loads(done.stdout) if done.returncode == 0 else None


def _values(payload: dict | None) -> list[str] | None:
    if payload is None:
        return None
    texts = payload["equilibria"][0]["values"]
    return [t if "±" in t else str(sympy.N(sympy.sympify(t), 30)) for t in texts]


def main() -> int:
    decks = range(4, 7) if "--quick" in sys.argv else range(4, 14)
    print(f"{'N':>3} {'P':>5} {'kuhn3 s':>8} {'solve s':>8} {'ratio':>6}  same values")
    worst = 0.0
    for n in decks:
        for pot in ("2", "5/2", "3", "5"):
            named_s, named = _run(["kuhn3", "--cards", str(n), "--pot", pot])
            solve_s, general = _run(["solve", f"library:kuhn3(cards={n},pot={pot})"])
            ratio = solve_s / named_s
            worst = max(worst, ratio)
            same = _values(named) == _values(general) and named is not None
            print(f"{n:>3} {pot:>5} {named_s:>8.2f} {solve_s:>8.2f} {ratio:>6.2f}  {same}", flush=True)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"worst ratio {worst:.2f} (target 1.5); largest child peak {peak:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
