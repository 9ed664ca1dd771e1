"""Issue 30 item 3: sparse exact Lemke on raked (general-sum) poker, with time and peak memory.

Run from the repository root::

    python benchmarks/bench_lemke.py           # raked ladders n = 10, 20, 30 (844 LCP rows), raked Leduc ranks 2, 3
    python benchmarks/bench_lemke.py --quick   # raked ladders n = 3, 10 and raked Leduc with 2 ranks (seconds)

Each job is a fresh process (so its peak resident memory is its own): build
the game from the library (``rake`` = the house's share of every pot, taken
from the winner), compile it, solve by the revised sequence-form Lemke path
(:func:`exactpoker.solve.lemke.lcp.lemke_run`: the float path, its last basis
solved exactly, exact pivots only if needed) and certify the equilibrium
exactly (:func:`exactpoker.certify.verify`).  A row gives the LCP's rows, the
pivots in each arithmetic and how the path finished, the wall time of the
whole job, the peak memory and the exact values (each player's expected
payoff; their sum is minus the expected rake).  Leduc is taken with its suits
abstracted (``suits=false``: the suits play no role, the standard lossless
abstraction); with suits its path is tens of times longer.
"""

from __future__ import annotations

import multiprocessing
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from timing import Row, print_table, run, timed

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

QUICK = [("ladder", {"n": 3, "sizes": "1;2;4", "rake": "1/10"}),
         ("ladder", {"n": 10, "sizes": "1;2;4", "rake": "1/10"}),
         ("leduc", {"ranks": 2, "suits": "false", "rake": "1/20"})]
FULL = [("ladder", {"n": n, "sizes": "1;2;4", "rake": "1/10"}) for n in (10, 20, 30)] + [
    ("leduc", {"ranks": ranks, "suits": "false", "rake": "1/20"}) for ranks in (2, 3)]


def job(name: str, params: dict[str, str]) -> dict[str, Any]:
    """Build, compile, solve by Lemke and certify, in this (fresh) process; what happened and the peak memory."""
    from exactpoker.certify import verify
    from exactpoker.games.library import compiled_game
    from exactpoker.solve.lemke.lcp import lemke_run

    start = time.perf_counter()
    compiled = compiled_game(name, **params)
    profile, lemke = lemke_run(compiled)
    certificate = verify(compiled, profile)
    return {"rows": sum(layout.num_sequences + layout.num_infosets + 1 for layout in compiled.layouts),
            "seconds": time.perf_counter() - start, "holds": certificate.holds,
            "values": tuple(str(v) for v in certificate.payoffs), "lemke": lemke.to_dict(),
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def _in_fresh_process(name: str, params: dict[str, str]) -> dict[str, Any]:
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(job, name, params).result()


def _describe(done: dict[str, Any]) -> str:
    lemke = done["lemke"]
    mark = "certified" if done["holds"] else "NOT CERTIFIED"
    return (f"{done['rows']} LCP rows; {lemke['float_pivots']} float + {lemke['exact_pivots']} exact pivots "
            f"({lemke['finish']}); in the job {done['seconds']:.1f} s, peak {done['peak_mb']:.0f} MB; "
            f"values ({', '.join(done['values'])}) {mark}")


def benchmarks(quick: bool) -> None:
    rows: list[Row] = []
    for name, params in QUICK if quick else FULL:
        label = f"library:{name}({','.join(f'{k}={v}' for k, v in params.items())})"
        rows.append(timed(label, "", lambda: _in_fresh_process(name, params), _describe))
    print_table("Raked poker by sparse exact Lemke (seconds: the whole process, start-up included)", rows)


if __name__ == "__main__":
    sys.exit(run("Sparse exact Lemke on raked poker", "Lemke", benchmarks))
