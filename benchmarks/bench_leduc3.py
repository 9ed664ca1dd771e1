"""Three or more players at real size through ``exactpoker solve`` (issue 41): a table of time, memory, result.

    python benchmarks/bench_leduc3.py           # Kuhn poker of 3, 4 and 5 players, Leduc on three ranks (4 min)
    python benchmarks/bench_leduc3.py --quick   # Kuhn poker of 3, 4 and 5 players (1 min)
    python benchmarks/bench_leduc3.py --full    # also openspiel:leduc_poker(players=3) (8 more min; 2 cores)

Each row runs ``python -m exactpoker solve GAME --json`` as a whole process (``os.wait4`` gives that child's own
peak RSS) and prints:

* the wall seconds and the peak memory;
* the result: the route and the certificate's kind (rational, algebraic, or an isolating box with its widest
  side) -- or the failure's first words (the N-player routes name what they tried and its figures);
* ``nash_conv`` of the returned profile by OpenSpiel's ``exploitability.nash_conv`` (an independent check: 0 up
  to rounding for a certified equilibrium), for OpenSpiel games;
* OpenSpiel's own CFR (``cfr.CFRSolver``, its average policy) after the same wall seconds, and its ``nash_conv``:
  the float peer at equal time, for OpenSpiel games.

The N-player routes are :mod:`exactpoker.solve.nplayer.pipeline`'s: the regularised continuation below two
million products an evaluation, the regret route above (discounted CFR on the vectorised sequence-form walk,
purified, completed and polished, then the exact finish: :mod:`exactpoker.solve.nplayer.regret_route`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from fractions import Fraction

ROWS = [  # (game, in the quick run)
    ("openspiel:kuhn_poker(players=3)", True),
    ("openspiel:kuhn_poker(players=4)", True),
    ("openspiel:kuhn_poker(players=5)", True),
    ("library:leduc(players=3,ranks=3)", False),
]
FULL = ["openspiel:leduc_poker(players=3)"]


def _run(spec: str) -> tuple[int, float, float, str, str]:
    """``(exit code, seconds, peak GB, stdout, stderr)`` of one ``solve`` in a child process."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-m", "exactpoker", "solve", spec, "--json"], stdout=out,
                                 stderr=err)
        _pid, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        return os.waitstatus_to_exitcode(status), seconds, usage.ru_maxrss / 1024**2, out.read(), err.read()


def _kind(data: dict) -> str:
    """The certificate's kind: an isolating box with its widest side, else the finish's stage from the notes."""
    box = data["details"].get("isolating_box")
    if box:
        width = max(Fraction(hi) - Fraction(lo) for lo, hi in box["box"].values())
        return f"isolating box ({box['kind']}), widest side {float(width):.0e}"
    stage = next((note.split("exact finish: ")[1] for note in data["notes"] if "exact finish: " in note), "")
    return stage or data["method"]


def _probability(value: object) -> float:
    """A strategy entry as a float: exact strings, or a box's ``d.ddd±1e-k``."""
    text = str(value).split("±")[0]
    return float(Fraction(text)) if "." not in text else float(text)


def _openspiel_name(spec: str) -> str | None:
    return spec.split(":", 1)[1] if spec.startswith("openspiel:") else None


def _nash_conv(name: str, strategies: dict) -> float:
    """OpenSpiel's ``nash_conv`` of the returned profile."""
    import pyspiel
    from open_spiel.python.algorithms import exploitability

    from exactpoker.formats.openspiel import to_tabular_policy

    rows = {player: {key: [_probability(v) for v in row] for key, row in table.items()}
            for player, table in strategies.items()}
    game = pyspiel.load_game(name)
    return float(exploitability.nash_conv(game, to_tabular_policy(game, rows)))


def _cfr_after(name: str, seconds: float) -> tuple[int, float]:
    """OpenSpiel CFR run for ``seconds`` of wall time: ``(iterations, nash_conv of its average policy)``."""
    import pyspiel
    from open_spiel.python.algorithms import cfr, exploitability

    game = pyspiel.load_game(name)
    solver, began, iterations = cfr.CFRSolver(game), time.perf_counter(), 0
    while time.perf_counter() - began < seconds:
        solver.evaluate_and_update_policy()
        iterations += 1
    return iterations, float(exploitability.nash_conv(game, solver.average_policy()))


def _row(spec: str) -> list[str]:
    code, seconds, peak, out, err = _run(spec)
    name = _openspiel_name(spec)
    checked = cfr = "-"
    if code == 0:
        data = json.loads(out)
        certified = all(eq["certified"] for eq in data["equilibria"])
        result = f"{'certified' if certified else 'NOT certified'}: {_kind(data)}"
        if name is not None:
            checked = f"{_nash_conv(name, data['equilibria'][0]['strategies']):.1e}"
    else:
        lines = err.strip().splitlines()
        result = f"exit {code}: " + (lines[-1][:300] + " ..." if lines else "(no message)")
    if name is not None:
        iterations, conv = _cfr_after(name, seconds)
        cfr = f"{conv:.1e} ({iterations} iterations)"
    return [spec, f"{seconds:.1f}", f"{peak:.2f}", result, checked, cfr]


def main(argv: list[str]) -> int:
    quick, full = "--quick" in argv, "--full" in argv
    specs = [spec for spec, in_quick in ROWS if in_quick or not quick] + (FULL if full else [])
    print("| game | seconds | peak GB | result | OpenSpiel nash_conv of it | OpenSpiel CFR, same seconds |")
    print("|---|---|---|---|---|---|")
    for spec in specs:
        print("| " + " | ".join(_row(spec)) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
