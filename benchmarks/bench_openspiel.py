"""Benchmarks for OpenSpiel games read exactly: load + compile, the exact solve, and OpenSpiel's CFR as the peer.

    python benchmarks/bench_openspiel.py            # kuhn_poker, kuhn_poker(players=3), leduc_poker
    python benchmarks/bench_openspiel.py --quick    # Kuhn only

Three tables:

* load + compile: walking the OpenSpiel tree once into an exact GameTree
  (:func:`exactpoker.formats.openspiel.load_openspiel`) and compiling it to the
  sequence form (:func:`exactpoker.core.tree.compile_tree`);
* exact solve: :func:`exactpoker.solve.solve_game` (certified),
  with OpenSpiel's ``nash_conv`` of the exported ``TabularPolicy``; Leduc runs
  in a child process stopped after ``LEDUC_CAP`` seconds; three-player Kuhn
  needs :mod:`exactpoker.solve.nplayer.pipeline`;
* the peer: OpenSpiel's own C++ ``CFRSolver`` and ``CFRPlusSolver`` run until
  ``nash_conv`` of the average policy drops below ``1e-3`` (checked every 5%
  more iterations; the seconds count the iterations only).

Target (issue 15): Leduc exact in under 60 s.
"""

from __future__ import annotations

import math
import multiprocessing
import queue as queue_module
import sys
import time
from typing import Any

from timing import FAILURES, Row, Target, print_table, print_targets, run, timed

GAMES = ("kuhn_poker", "kuhn_poker(players=3)", "leduc_poker")
LEDUC_CAP = 600.0
CFR_TARGET = 1e-3
CFR_MAX_SECONDS = 120.0


def _load_and_compile(name: str) -> Any:
    from exactpoker.core.tree import compile_tree
    from exactpoker.formats.openspiel import load_openspiel

    loaded = load_openspiel(name)
    return loaded, compile_tree(loaded.tree)


def _describe_compiled(pair: Any) -> str:
    loaded, compiled = pair
    nodes = sum(1 for _ in loaded.tree.nodes())
    infosets = "/".join(str(layout.num_infosets) for layout in compiled.layouts)
    sequences = "/".join(str(layout.num_sequences) for layout in compiled.layouts)
    return (f"{nodes} nodes; infosets {infosets}; sequences {sequences}; {len(compiled.sequences)} payoff entries "
            f"over denominator {compiled.denominator}")


def _solve(name: str) -> dict[str, Any]:
    """Load, compile, solve exactly and check with OpenSpiel: the figures a row shows."""
    import pyspiel
    from open_spiel.python.algorithms import exploitability

    from exactpoker.formats.openspiel import to_tabular_policy
    from exactpoker.solve import solve_game

    loaded, compiled = _load_and_compile(name)
    start = time.perf_counter()
    result = solve_game(compiled, tables=loaded.tables)
    seconds = time.perf_counter() - start
    [eq] = result.equilibria
    game = pyspiel.load_game(name)
    conv = exploitability.nash_conv(game, to_tabular_policy(game, eq.strategies))
    values = ", ".join(str(v) for v in eq.values)
    return {"seconds": seconds, "values": values, "approx": float(eq.values[0]), "certified": eq.certified,
            "nash_conv": conv, "method": result.method}


def _solve_in_child(name: str, queue: "multiprocessing.Queue[Any]") -> None:
    try:
        queue.put(_solve(name))
    except Exception as error:  # noqa: BLE001 - reported by the parent
        queue.put({"error": f"{type(error).__name__}: {error}"})


def _exact_row(name: str, cap: float | None) -> Row:
    """The exact solve of ``name`` (seconds of the solve alone); in a child process stopped at ``cap`` if given."""
    if cap is None:
        try:
            found = _solve(name)
        except Exception as error:  # noqa: BLE001 - a benchmark reports every failure and goes on
            found = {"error": f"{type(error).__name__}: {error}"}
    else:
        context = multiprocessing.get_context("fork")
        queue = context.Queue()
        child = context.Process(target=_solve_in_child, args=(name, queue))
        child.start()
        child.join(cap)
        if child.is_alive():
            child.terminate()
            child.join()
            return Row("exact solve", name, None, f"not finished within the cap of {cap:g} s")
        try:
            found = queue.get(timeout=10)
        except queue_module.Empty:
            found = {"error": f"the child process exited with {child.exitcode} and no answer"}
    if "error" in found:
        FAILURES.append(f"exact solve {name}: {found['error']}")
        return Row("exact solve", name, None, "FAILED: " + found["error"])
    mark = "certified" if found["certified"] else "NOT CERTIFIED"
    return Row("exact solve", name, found["seconds"],
               f"values {found['values']} (~{found['approx']:.13f}); {mark}; OpenSpiel nash_conv "
               f"{found['nash_conv']:.1e} [{found['method']}]")


def _cfr_row(name: str, solver_name: str) -> Row:
    """OpenSpiel's C++ CFR (or CFR+) until nash_conv < CFR_TARGET; seconds of the iterations only.

    nash_conv is checked after iterations 1, 2, ... and then every 5% more (a
    Leduc check costs about ten iterations); the count is that of the first
    check below the target (nash_conv of the average policy is not monotone).
    """
    import pyspiel

    game = pyspiel.load_game(name)
    solver = getattr(pyspiel, solver_name)(game)
    spent, iterations, conv = 0.0, 0, float("inf")
    while conv >= CFR_TARGET and spent < CFR_MAX_SECONDS:
        target = max(iterations + 1, math.ceil(iterations * 1.05))
        start = time.perf_counter()
        while iterations < target:
            solver.evaluate_and_update_policy()
            iterations += 1
        spent += time.perf_counter() - start
        conv = pyspiel.nash_conv(game, solver.average_policy())
    reached = "reached" if conv < CFR_TARGET else f"NOT reached in {CFR_MAX_SECONDS:g} s"
    return Row(f"OpenSpiel {solver_name}", name, spent,
               f"{iterations} iterations, nash_conv {conv:.1e} ({reached} {CFR_TARGET:g}); floats, no certificate")


def benchmarks(quick: bool) -> None:
    import pyspiel  # noqa: F401 - imported before the clocks start

    import exactpoker.formats.openspiel  # noqa: F401
    import exactpoker.solve.lp.zerosum  # noqa: F401

    games = GAMES[:1] if quick else GAMES
    print_table("load + compile (OpenSpiel tree walked once, exact sequence form)",
                [timed("load + compile", name, lambda name=name: _load_and_compile(name), _describe_compiled)
                 for name in games])
    print()

    try:
        import exactpoker.solve.nplayer.pipeline  # noqa: F401
        three_players = True
    except ImportError:
        three_players = False
    rows = []
    for name in games:
        if "players=3" in name and not three_players:
            rows.append(Row("exact solve", name, None, "skipped: exactpoker.solve.nplayer.pipeline is not in this build"))
        else:
            rows.append(_exact_row(name, LEDUC_CAP if name == "leduc_poker" else None))
    print_table("exact solve (certified; seconds of the solve after loading)", rows)
    leduc = next((r.seconds for r in rows if r.size == "leduc_poker"), None)
    if not quick:
        print_targets([Target("Leduc exact", leduc, 60.0)])
    else:
        print()

    print_table(f"peer: OpenSpiel's CFR to nash_conv < {CFR_TARGET:g}",
                [_cfr_row(name, solver) for name in games for solver in ("CFRSolver", "CFRPlusSolver")])
    print()


if __name__ == "__main__":
    sys.exit(run("OpenSpiel games: load, exact solve, and OpenSpiel's CFR as the peer.", "OpenSpiel", benchmarks))
