"""The Liar's Dice end-game tables of the ``snyd`` project, solved exactly, cell by cell (issue 30).

Run from the repository root::

    python benchmarks/bench_liars_dice.py           # every cell up to 700 000 sequences (see the README for times)
    python benchmarks/bench_liars_dice.py --quick   # the cells up to 2 000 sequences (a smoke test, ~30 s)
    python benchmarks/bench_liars_dice.py --cell joker 2v1 6   # one cell in this process, as JSON (no limit
                                                               # on sequences: the larger cells, run one by one)
    python benchmarks/bench_liars_dice.py --cell normal 2v1 6 --attempt 22G
        # a cell over the guard's estimate, attempted: the guard's estimate set aside, the process's address
        # space capped at 22 GB instead (RLIMIT_AS), every stage of the engine logged with its time and peak

Each cell (rule normal/joker/stairs; dice 1v1, 2v1, 1v2; 2-6 sides) is
``exactpoker solve 'library:dice(sides=S,dice=D,rule=R)'``'s path: the
sequence form straight from the rules
(:meth:`~exactpoker.games.liars_dice.LiarsDice.compiled`, no tree built) and
the engine's zero-sum path (:func:`exactpoker.solve.solve_game`),
run in its own process so that its peak resident memory (``ru_maxrss``, the
whole interpreter included) is its own; a cell is stopped after 1800 s, and
refused by the memory guard above 8 GB.  The rules deal multisets of faces
(the stairs rule with the stair split off,
:meth:`~exactpoker.games.liars_dice.LiarsDice.rolls`).  A stairs cell with
bids that can never hold (2v1 and 1v2) is solved without them, and the
equilibrium lifted to the full rules and certified there
(:mod:`exactpoker.solve.engine.restricted`); its size is that of the game
solved.  Cells over the sequence budget are not run: their size is counted
from the rules (:meth:`~exactpoker.games.liars_dice.LiarsDice.size`) and the
guard's memory estimate for solving them is shown.

The last two columns compare the exact value with the fraction the ``snyd``
project printed (``tests/data/snyd_liars_dice.json``, from a floating-point
LP): ``exact`` when equal, ``rounding`` when the printed fraction is what
``limit_denominator()`` makes of the exact value's float, ``DIFFERS``
otherwise, ``-`` where that project printed none.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import threading
import time
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from timing import FAILURES, Row, print_table, run

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from exactpoker import guard, progress  # noqa: E402
from exactpoker.games.liars_dice import liars_dice  # noqa: E402

SNYD = json.loads((ROOT / "tests" / "data" / "snyd_liars_dice.json").read_text())["values"]
RULES, DICE, SIDES = ("normal", "joker", "stairs"), ("1v1", "2v1", "1v2"), range(2, 7)
TIMEOUT = 1800  # seconds a cell may run
MEMORY = 8 * 1024**3  # the guard's limit in a cell's process
BUDGET = {True: 2_000, False: 700_000}  # sequences (both players) of the cells run, by --quick


def _peak() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _ticks(start: float, stage: list[str]) -> None:
    """Every 5 s, the stage, the seconds and the peak memory so far on stderr (read when a cell is stopped)."""
    while True:
        time.sleep(5)
        print(f"{stage[0]} {time.perf_counter() - start:.0f} {_peak()}", file=sys.stderr, flush=True)


class StageLog(progress.Reporter):
    """The engine's stages (:mod:`exactpoker.progress`) into ``stage[0]`` for :func:`_ticks`, each new one
    logged on stderr with the seconds since ``start`` and the peak memory so far."""

    def __init__(self, start: float, stage: list[str]) -> None:
        self.start, self.current = start, stage

    def stage(self, name: str, total: int | None = None, unit: str = "") -> None:
        self.current[0] = name.replace(" ", "_")
        size = f" ({total} {unit})" if total else ""
        print(f"# {time.perf_counter() - self.start:.1f} s, peak {guard.human(_peak())}: {name}{size}",
              file=sys.stderr, flush=True)


def attempt_limits(cap: int) -> None:
    """For ``--attempt``: the guard's estimates set aside and the address space capped at ``cap`` bytes, so the
    cell runs until it ends or truly runs out of memory (a ``MemoryError``, not the machine swapping)."""
    global MEMORY
    MEMORY = 1024**5
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def solve_cell(rule: str, dice: str, sides: int) -> dict:
    """Solve one cell in this process: the exact value, the seconds per stage, the peak memory and the method.

    The sequence form comes straight from the rules (``LiarsDice.compiled()``); a cell with bids that can
    never hold is solved without them and the equilibrium certified on the full rules (``solve_game`` on the
    rules: :mod:`exactpoker.solve.engine.restricted`).
    """
    from exactpoker.solve import solve_game

    game = liars_dice(sides=sides, dice=dice, rule=rule)
    start, stage, seconds = time.perf_counter(), ["compiling"], {}
    threading.Thread(target=_ticks, args=(start, stage), daemon=True).start()
    with guard.memory_limit(MEMORY), progress.reporting(StageLog(start, stage)):
        if game.hopeless_bids():
            stage[0] = "solving_without_the_hopeless_bids,_lifting,_certifying_on_the_full_rules"
            lifted = solve_game(game)
            seconds["solve"] = time.perf_counter() - start
            (equilibrium,) = lifted.equilibria
            notes = lifted.details["hopeless_bids"]
            return {"value": str(equilibrium.values[0]), "certified": equilibrium.certified, "method": notes["method"],
                    "seconds": seconds["solve"], "stages": seconds, "peak": _peak(), "lifted": notes,
                    "full_game_certificate": equilibrium.certificate.to_dict()}
        compiled = game.compiled()
        seconds["compile"], stage[0] = time.perf_counter() - start, "solving"
        result = solve_game(compiled)
    (equilibrium,) = result.equilibria
    seconds["solve"] = time.perf_counter() - start - seconds["compile"]
    return {"value": str(equilibrium.values[0]), "certified": equilibrium.certified, "method": result.method,
            "seconds": time.perf_counter() - start, "stages": seconds, "peak": _peak()}


def _stopped(stderr: str | bytes | None) -> str:
    """Where a stopped cell was: its last stage, seconds and peak memory (from :func:`_ticks`)."""
    text = stderr.decode() if isinstance(stderr, bytes) else (stderr or "")
    ticks = [line.split() for line in text.splitlines() if len(line.split()) == 3]
    if not ticks:
        return "before its first report"
    stage, elapsed, peak = ticks[-1]
    return f"while {stage} (at {elapsed} s: peak {guard.human(int(peak))})"


def compare(exact: Fraction, printed: str) -> str:
    """``exact``, ``rounding``, ``DIFFERS`` or ``-``: the exact value against snyd's printed fraction."""
    if printed == "-":
        return "-"
    if Fraction(printed) == exact:
        return "exact"
    if Fraction(float(exact)).limit_denominator() == Fraction(printed):
        return "rounding"
    return "DIFFERS"


def cell_row(rule: str, dice: str, sides: int, quick: bool) -> Row:
    """One table row: the cell solved in a child process, or its counted size when over the budget."""
    game = liars_dice(sides=sides, dice=dice, rule=rule)
    solved = replace(game, possible_bids=True).size()  # the game solved: the full one less any hopeless bids
    printed = SNYD[rule][dice][str(sides)] or "-"
    job, sequences = f"{rule:<6} {dice} {sides}", f"{solved.sequences[0]}+{solved.sequences[1]}"
    if sum(solved.sequences) > BUDGET[quick]:
        memory = guard.human(guard.compiled_game(sum(solved.sequences), solved.terminals))
        return Row(job, sequences, None, f"not run: {solved.terminals:.2e} payoff entries, solve ~{memory}; "
                   f"snyd {printed}")
    command = [sys.executable, __file__, "--cell", rule, dice, str(sides)]
    try:
        child = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired as stop:
        where = _stopped(stop.stderr)
        FAILURES.append(f"{job}: stopped after {TIMEOUT} s {where}")
        return Row(job, sequences, None, f"stopped after {TIMEOUT} s {where}; snyd {printed}")
    if child.returncode != 0:
        reason = (child.stderr.strip().splitlines() or ["no output"])[-1]
        FAILURES.append(f"{job}: {reason}")
        return Row(job, sequences, None, f"FAILED: {reason}")
    out = json.loads(child.stdout)
    exact = Fraction(out["value"])
    agree = compare(exact, printed)
    if agree == "DIFFERS" or not out["certified"]:
        FAILURES.append(f"{job}: exact {exact}, snyd {printed}, certified {out['certified']}")
    mark = "" if out["certified"] else " (NOT CERTIFIED)"
    stages = "/".join(f"{out['stages'][key]:.1f}" for key in ("compile", "solve") if key in out["stages"])
    return Row(job, sequences, out["seconds"], f"{stages:>14} s {guard.human(out['peak']):>8}  {str(exact):>14} "
               f"~{float(exact):+.6f}{mark}  snyd {printed}  {agree}")


def benchmarks(quick: bool) -> None:
    rows = [cell_row(rule, dice, sides, quick) for rule in RULES for dice in DICE for sides in SIDES]
    print_table("Liar's Dice (snyd's tables): job = rule dice sides; size = sequences of player 1 + player 2; "
                "result = seconds compiling/solving (one figure: solved without the hopeless bids, lifted and "
                "certified on the full rules), peak memory, exact value, decimal, snyd's printed value, "
                "agreement", rows)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--cell"]:
        rule, dice, sides = sys.argv[2], sys.argv[3], int(sys.argv[4])
        if sys.argv[5:6] == ["--attempt"]:
            attempt_limits(guard.parse_size(sys.argv[6]))
        print(json.dumps(solve_cell(rule, dice, sides)))
        sys.exit(0)
    sys.exit(run(__doc__.splitlines()[0], "Liar's Dice", benchmarks))
