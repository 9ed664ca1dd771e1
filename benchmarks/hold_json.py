"""Hold every command's ``--json`` on the benchmark sizes, and compare two holdings byte by byte.

A restructure must not change what a user scripts against.  Before it, hold the outputs; after it, hold
them again and compare:

    python benchmarks/hold_json.py hold before/        # every command of COMMANDS, one file each
    python benchmarks/hold_json.py hold after/
    python benchmarks/hold_json.py compare before/ after/

``hold`` prints a table (command, seconds, bytes, exit code); ``compare`` lists every command whose output
differs (exit 1 if any does).  Commands run one at a time, each in its own process, as a user runs them.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: Every command (argv after ``exactpoker``; ``{tmp}`` is a scratch folder), at the sizes of benchmarks/.
COMMANDS: list[list[str]] = [
    ["vn", "pure", "--n", "7", "--b", "2"],
    ["vn", "pure", "--n", "26", "--b", "2", "--restricted"],
    ["vn", "mixed", "--n", "28", "--b", "4"],
    ["vn", "mixed", "--n", "6", "--b", "2", "--method", "slow"],
    ["vn", "mixed", "--n", "40", "--b", "3", "--method", "simplex"],
    ["vn", "mixed", "--n", "12", "--b", "2", "--advice"],
    ["vn", "continuous", "--b", "2"],
    ["vn", "continuous"],
    ["newman", "mixed", "--n", "10", "--b", "4"],
    ["newman", "mixed", "--n", "8", "--b", "3", "--method", "paper"],
    ["newman", "saturation", "--n", "8"],
    ["newman", "continuous"],
    ["simple", "--m", "3", "--ante", "1", "--bet", "2"],
    ["simple", "--m", "8", "--ante", "1", "--bet", "2", "--threshold"],
    ["simple", "--m", "4", "--ante", "1", "--bet", "2", "--piecewise"],
    ["goldman-stone", "--a", "3", "--b", "2"],
    ["goldman-stone", "--a", "3", "--b", "2", "--n", "20"],
    ["three", "mixed", "--n", "65", "--b", "2"],
    ["three", "continuous", "--b", "2"],
    ["three", "best-bet"],
    ["nash-shapley", "--a", "1", "--b", "1"],
    ["nash-shapley", "--a", "1", "--b", "1", "--exhaustive"],
    ["nash-shapley", "regions"],
    ["nash-shapley", "coalitions", "--a", "1", "--b", "1"],
    ["kuhn3", "--cards", "4", "--pot", "3"],
    ["kuhn3", "--cards", "5", "--pot", "3"],
    ["kuhn3", "--cards", "8", "--pot", "3"],
    ["kuhn3", "skp", "--pot", "5/2"],
    ["kuhn3", "branch", "--cards", "5", "--pot-min", "1", "--pot-max", "3", "--csv", "{tmp}/b.csv"],
    ["verify"],
    ["solve", "library:kuhn"],
    ["solve", "library:kuhn", "--family"],
    ["solve", "library:kuhn", "--all"],
    ["solve", "library:kuhn", "--all-pure"],
    ["solve", "library:kuhn", "--over", "bet=1/4..8"],
    ["solve", "library:kuhn", "--over", "bet=1/4..8", "--maximize", "value[P2]"],
    ["solve", "library:leduc"],
    ["solve", "library:leduc(ranks=6)"],
    ["solve", "library:leduc(rake=1/20)"],
    ["solve", "library:leduc(players=3,ranks=2)"],
    ["solve", "library:kuhn3(cards=5,pot=3)"],
    ["solve", "library:kuhn3(cards=13,pot=2)"],
    ["solve", "library:ladder(n=100,sizes=1;2;4)"],
    ["solve", "library:ladder(n=3,sizes=1,rake=1/10)", "--all"],
    ["solve", "library:two_round"],
    ["solve", "library:vn(n=10,b=2)"],
    ["solve", "library:newman(n=6,b=3)"],
    ["solve", "library:three(n=5,b=2)"],
    ["solve", "library:simple(m=3)"],
    ["solve", "library:goldman_stone(n=6,a=3,b=2)"],
    ["solve", "library:nash_shapley"],
    ["solve", "library:dice(sides=3,dice=2v1)"],
    ["solve", "library:dice(sides=4,dice=1v1)"],
    ["solve", "openspiel:kuhn_poker"],
    ["solve", "openspiel:leduc_poker"],
    ["solve", "openspiel:kuhn_poker(players=3)"],
    ["solve", "openspiel:kuhn_poker(players=4)"],
    ["solve", "tests/data/bos.nfg", "--all"],
    ["solve", "tests/data/rps_outcomes.nfg"],
    ["solve", "tests/data/matching_pennies.efg", "--all"],
    ["solve", "tests/data/odd_numbers.efg"],
    ["solve", "{tmp}/vn.efg", "--all-pure"],
    ["solve", "{tmp}/vn.efg"],
]

#: Made before the commands run (a file the commands above read).
SETUP: list[list[str]] = [["vn", "efg", "--n", "4", "--b", "2", "-o", "{tmp}/vn.efg"]]


def slug(argv: list[str]) -> str:
    """A file name for a command: readable, and unique (a short hash of the whole argv)."""
    text = "_".join(argv).replace("{tmp}/", "")
    safe = "".join(c if c.isalnum() or c in "=.-_" else "-" for c in text)[:80]
    return f"{safe}.{hashlib.sha1(' '.join(argv).encode()).hexdigest()[:8]}.json"


def hold(folder: Path) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for argv in SETUP:
            subprocess.run(["exactpoker", *(a.replace("{tmp}", tmp) for a in argv)], check=True,
                           capture_output=True)
        print("| command | seconds | bytes | exit |\n|---|---|---|---|")
        for argv in COMMANDS:
            start = time.perf_counter()
            done = subprocess.run(["exactpoker", *(a.replace("{tmp}", tmp) for a in argv), "--json"],
                                  capture_output=True)
            seconds = time.perf_counter() - start
            output = done.stdout.replace(tmp.encode(), b"{tmp}")
            (folder / slug(argv)).write_bytes(output + f"\n# exit {done.returncode}\n".encode())
            print(f"| `{' '.join(argv)}` | {seconds:.1f} | {len(output)} | {done.returncode} |", flush=True)
    return 0


def compare(before: Path, after: Path) -> int:
    differ = 0
    for argv in COMMANDS:
        name = slug(argv)
        a, b = before / name, after / name
        if not a.exists() or not b.exists():
            print(f"missing: {' '.join(argv)} ({'before' if not a.exists() else 'after'})")
            differ += 1
        elif a.read_bytes() != b.read_bytes():
            print(f"differs: {' '.join(argv)}")
            differ += 1
    print(f"{len(COMMANDS) - differ} of {len(COMMANDS)} byte-identical")
    return 1 if differ else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "hold":
        sys.exit(hold(Path(sys.argv[2])))
    if len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
    sys.exit(__doc__)
