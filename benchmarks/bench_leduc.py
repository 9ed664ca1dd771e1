"""Timings of the exact zero-sum solve from a float basis, stage by stage, up to Leduc Hold'em.

Run from the repository root::

    python benchmarks/bench_leduc.py           # Kuhn, von Neumann n=100, Leduc (by ranks, OpenSpiel's, 4-6 ranks): ~40 s
    python benchmarks/bench_leduc.py --quick   # without the full Leduc (a few seconds; a smoke test)
    python benchmarks/bench_leduc.py --profile # the same, then cProfile of the Leduc solve, top 15 by cumulative time

The stages (issue 15, "Leduc exact in under 60 s"): *compile* the game tree
to the sequence form; *float basis*, HiGHS's simplex on player I's
sequence-form LP (:func:`exactpoker.solve.lp.float_guide.optimal_basis`);
*exact solve*, the basic system and its transpose solved exactly and
optimality checked (:func:`exactpoker.solve.lp.basis.solve_from_basis`);
*certificate*, behaviour strategies from the realization plans and the exact
equilibrium check (:func:`exactpoker.certify.verify`).  Then the whole
``solve_zero_sum`` as a user calls it (its default first tries the support
method, which fails on Leduc, then the basis).  One run per job, wall clock
by :func:`time.perf_counter`.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import time
from pathlib import Path
from typing import Any, Callable

from timing import FAILURES, Target, print_targets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from exactpoker.certify import verify  # noqa: E402
from exactpoker.core.compiled import CompiledGame  # noqa: E402
from exactpoker.core.tree import compile_tree  # noqa: E402
from exactpoker.games import von_neumann  # noqa: E402
from exactpoker.solve.lp.basis import solve_from_basis  # noqa: E402
from exactpoker.solve.lp.float_guide import optimal_basis  # noqa: E402
from exactpoker.solve.lp.sequence_form import standard_lp  # noqa: E402
from exactpoker.solve.lp.zerosum import behaviour_profile_of_plans, solve_zero_sum  # noqa: E402
from tests.example_games import kuhn_tree, leduc_tree  # noqa: E402

HEADERS = ("game", "sequences", "compile", "float basis", "exact solve", "certificate", "pivots", "solve_zero_sum",
           "value")


def _clock(run: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    result = run()
    return result, time.perf_counter() - start


def stages(name: str, build: Callable[[], CompiledGame]) -> tuple[str, ...]:
    """One row: the time of each stage and the exact value."""
    compiled, t_compile = _clock(build)
    lp = standard_lp(compiled)
    basis, t_float = _clock(lambda: optimal_basis(lp))
    solution, t_exact = _clock(lambda: solve_from_basis(lp, *basis))
    num_x, num_y = (layout.num_sequences for layout in compiled.layouts)

    def certify():
        profile = behaviour_profile_of_plans(compiled, [solution.primal[:num_x], solution.duals[:num_y]])
        return verify(compiled, profile)

    certificate, t_cert = _clock(certify)
    (_, whole, used), t_whole = _clock(lambda: solve_zero_sum(compiled))
    value = certificate.payoffs[0]
    agree = "" if certificate.holds and whole.holds and whole.payoffs[0] == value else "  (NOT CERTIFIED or differs)"
    if agree:
        FAILURES.append(f"{name}: {agree.strip()}")
    digits = f"{len(str(abs(value.numerator)))}/{len(str(value.denominator))} digits"
    return (
        name,
        f"{num_x} x {num_y}",
        f"{t_compile:.3f}",
        f"{t_float:.3f}",
        f"{t_exact:.3f}",
        f"{t_cert:.3f}",
        str(solution.pivots),
        f"{t_whole:.3f} ({used})",
        f"{value} ({digits}, ~{float(value):.13f}){agree}",
    )


def print_rows(rows: list[tuple[str, ...]]) -> None:
    widths = [max(len(h), *(len(r[k]) for r in rows)) for k, h in enumerate(HEADERS)]
    for cells in (HEADERS, tuple("-" * w for w in widths), *rows):
        print("  " + "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip())
    sys.stdout.flush()


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    print(f"exactpoker Leduc benchmarks ({'quick' if quick else 'full'}); Python {sys.version.split()[0]}")
    print("seconds per stage; value = player I's exact value (digits of numerator/denominator)\n")
    games: list[tuple[str, Callable[[], CompiledGame]]] = [
        ("Kuhn", lambda: compile_tree(kuhn_tree())),
        ("von Neumann n=100 b=2", lambda: von_neumann.compiled(100, 2)),
        ("Leduc, ranks only", lambda: compile_tree(leduc_tree(suits=False))),
    ]
    if not quick:
        games.append(("Leduc (OpenSpiel)", lambda: compile_tree(leduc_tree())))
        games.extend(
            (f"Leduc, {r} ranks", lambda r=r: compile_tree(leduc_tree(ranks=r))) for r in (4, 5, 6)
        )
    rows = []
    for name, build in games:
        try:
            rows.append(stages(name, build))
        except Exception as error:  # noqa: BLE001 - a benchmark reports every failure and goes on
            FAILURES.append(f"{name}: {type(error).__name__}: {error}")
            rows.append((name, "-", "-", "-", "-", "-", "-", "-", f"FAILED: {type(error).__name__}: {error}"))
    print_rows(rows)
    print()
    if not quick:
        leduc = rows[3]
        seconds = None if leduc[7] == "-" else float(leduc[7].split()[0])
        print_targets([Target("Leduc Hold'em exact and certified (solve_zero_sum)", seconds, 60.0)])
    if "--profile" in argv:
        compiled = compile_tree(leduc_tree(suits=not quick))
        profiler = cProfile.Profile()
        profiler.runcall(solve_zero_sum, compiled)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(15)
    if FAILURES:
        print(f"{len(FAILURES)} job(s) failed:")
        for failure in FAILURES:
            print("  " + failure)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
