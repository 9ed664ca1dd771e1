"""One engine (issue 27): a paper's named command against ``exactpoker solve library:...`` on the same game.

    python benchmarks/bench_one_engine.py            # kuhn3, N = 4..13, P in 2, 5/2, 3, 5; then the seed rows
    python benchmarks/bench_one_engine.py --quick    # N = 4..6
    python benchmarks/bench_one_engine.py --seeds    # the seed rows only (about a minute)

Each row times both commands as whole processes (``/usr/bin/time``-like: wall seconds, peak RSS of the
child) and prints whether the certified values agree, and the ratio solve / named (target: at most 1.5).
The seed rows are the named commands' largest benchmark sizes (``bench_scale.py``): von Neumann poker
n = 4000 and 10,000 (the card-by-card LP), Newman poker n = 1000, b = 20, and three-player poker n = 200
and 500 (the ordered-games path); each is reached from the rules by ``solve_game``.
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


#: (label, the named command, the library game): the same rules through both doors.
SEED_ROWS = [
    ("vn n=4000 b=2", ["vn", "mixed", "--n", "4000", "--b", "2"], "library:vn(n=4000,b=2)"),
    ("vn n=10000 b=2", ["vn", "mixed", "--n", "10000", "--b", "2"], "library:vn(n=10000,b=2)"),
    ("newman n=1000 b=20", ["newman", "mixed", "--n", "1000", "--b", "20"], "library:newman(n=1000,b=20)"),
    ("three n=200 b=2", ["three", "mixed", "--n", "200", "--b", "2"], "library:three(n=200,b=2)"),
    ("three n=500 b=2", ["three", "mixed", "--n", "500", "--b", "2"], "library:three(n=500,b=2)"),
]


def seed_rows() -> float:
    """The seed rows (module docstring): both doors' seconds, whether the values agree; the worst ratio."""
    print(f"{'game':<20} {'named s':>8} {'solve s':>8} {'ratio':>6}  same values")
    return max(_row(f"{label:<20}", named, ["solve", spec]) for label, named, spec in SEED_ROWS)


def _row(label: str, named_argv: list[str], solve_argv: list[str]) -> float:
    """Time both commands, print one row, return the ratio solve / named."""
    named_s, named = _run(named_argv)
    solve_s, general = _run(solve_argv)
    ratio = solve_s / named_s
    same = _values(named) == _values(general) and named is not None
    print(f"{label} {named_s:>8.2f} {solve_s:>8.2f} {ratio:>6.2f}  {same}", flush=True)
    return ratio


def _values(payload: dict | None) -> list[str] | None:
    if payload is None:
        return None
    texts = payload["equilibria"][0]["values"]
    return [t if "±" in t else str(sympy.N(sympy.sympify(t), 30)) for t in texts]


def main() -> int:
    worst = 0.0 if "--seeds" in sys.argv else kuhn3_rows(range(4, 7) if "--quick" in sys.argv else range(4, 14))
    if "--quick" not in sys.argv:
        worst = max(worst, seed_rows())
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"worst ratio {worst:.2f} (target 1.5); largest child peak {peak:.0f} MB")
    return 0


def kuhn3_rows(decks: range) -> float:
    """``kuhn3 --cards N --pot P`` against ``solve library:kuhn3(cards=N,pot=P)``; the worst ratio."""
    print(f"{'N':>3} {'P':>5} {'kuhn3 s':>8} {'solve s':>8} {'ratio':>6}  same values")
    return max(_row(f"{n:>3} {pot:>5}", ["kuhn3", "--cards", str(n), "--pot", pot],
                    ["solve", f"library:kuhn3(cards={n},pot={pot})"])
               for n in decks for pot in ("2", "5/2", "3", "5"))


if __name__ == "__main__":
    sys.exit(main())
