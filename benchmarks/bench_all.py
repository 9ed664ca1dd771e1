"""``exactpoker solve GAME --all`` against Gambit's ``enummixed`` on random n x n bimatrix games, and past them.

    python benchmarks/bench_all.py            # n = 2..10; then 12, 15, 20 and ladder/Leduc poker (~5 minutes)
    python benchmarks/bench_all.py --quick    # n = 2..6; then 12 and ladder poker with 3-5 cards

Each row is one random game (integer payoffs 0..99, seeded, so generic:
nondegenerate) solved in this process by both:

* ours: :func:`exactpoker.solve.solve_game` with
  ``all_equilibria=True`` -- vertex enumeration of the best-response
  polytopes, the maximal convex sets, every equilibrium certified exactly;
* Gambit: ``pygambit.nash.enummixed_solve(game, rational=True)`` on the same
  game read from the same ``.nfg`` text.

The table gives the size, both times, the number of extreme equilibria and
whether the two exact sets agree; ``labels s`` is the label search alone
(:func:`~exactpoker.solve.enumeration.two_player.all_equilibria_two_player` with
``method="labels"``, the path ``--all`` takes past the table of bases), its
set checked against Gambit's too.

The second table runs ``exactpoker solve GAME --all --json`` as a user does (a
process each, stopped at 600 s of wall time) on games past Gambit's reach (``enummixed``:
146 s at 12 x 12, more than 5 minutes on ladder poker with 2 cards): random
12 x 12, 15 x 15 and 20 x 20 games, ladder poker with a 1/10 rake and 3 to 8
cards, Leduc with three ranks and no suits with a 1/20 rake.  A row gives the
seconds and the equilibria found (with the route: the table of bases, or the
label search and its nodes) or the refusal's first words.
"""

from __future__ import annotations

import io
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

from timing import FAILURES, Row, print_table, run

SIZES = range(2, 11)
SEED = 2010  # Avis, Rosenberg, Savani, von Stengel
LARGE = (12, 15, 20)
POKER = [f"library:ladder(n={n},sizes=1,rake=1/10)" for n in range(3, 9)] + ["library:leduc(suits=false,rake=1/20)"]
CLI_TIMEOUT = 600


def _nfg(n: int, rng: random.Random) -> str:
    payoffs = " ".join(f"{rng.randint(0, 99)} {rng.randint(0, 99)}" for _ in range(n * n))
    return f'NFG 1 R "random {n}x{n}" {{ "I" "II" }} {{ {n} {n} }}\n\n{payoffs}\n'


def _ours(text: str) -> tuple[float, set]:
    from exactpoker.core.tree import compile_tree
    from exactpoker.formats.nfg import read_nfg
    from exactpoker.solve import solve_game

    start = time.perf_counter()
    result = solve_game(compile_tree(read_nfg(text).tree), all_equilibria=True)
    seconds = time.perf_counter() - start
    if not all(eq.certified for eq in result.equilibria):  # pragma: no cover - the dispatcher raises first
        FAILURES.append("an equilibrium is not certified")
    return seconds, {tuple(tuple(s[0]) for s in eq.profile.strategies) for eq in result.equilibria}


def _labels(text: str) -> tuple[float, set]:
    from exactpoker.certify import verify
    from exactpoker.core.tree import compile_tree
    from exactpoker.formats.nfg import read_nfg
    from exactpoker.solve.enumeration.two_player import all_equilibria_two_player

    compiled = compile_tree(read_nfg(text).tree)
    start = time.perf_counter()
    found = all_equilibria_two_player(compiled, method="labels")
    profiles = found.profiles(compiled)
    if not all(verify(compiled, profile).holds for profile in profiles):
        FAILURES.append("a label-search equilibrium fails its exact check")
    seconds = time.perf_counter() - start
    return seconds, {tuple(tuple(s[0]) for s in profile.strategies) for profile in profiles}


def _gambit(text: str) -> tuple[float, set]:
    import pygambit as gbt

    game = gbt.read_nfg(io.StringIO(text))
    start = time.perf_counter()
    found = gbt.nash.enummixed_solve(game, rational=True).equilibria
    seconds = time.perf_counter() - start
    return seconds, {tuple(tuple(Fraction(str(eq[s])) for s in p.strategies) for p in game.players) for eq in found}


def _cli(game: str) -> tuple[float | None, str]:
    """``exactpoker solve GAME --all --json`` in its own process: wall seconds and what it answered, with the
    process's CPU seconds (its budget is CPU time; on a busy machine the wall time is several times larger)."""
    start, cpu = time.perf_counter(), _children_cpu()
    try:
        done = subprocess.run([sys.executable, "-m", "exactpoker", "solve", game, "--all", "--json"],
                              capture_output=True, text=True, timeout=CLI_TIMEOUT, env=_environment())
    except subprocess.TimeoutExpired:
        FAILURES.append(f"{game}: no answer in {CLI_TIMEOUT} s")
        return None, f"no answer in {CLI_TIMEOUT} s"
    seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu
    if done.returncode != 0:
        return seconds, f"{cpu:.1f} s CPU; refused: " + done.stderr.strip().splitlines()[-1][:160]
    data = json.loads(done.stdout)
    search = data["details"].get("label_search")
    route = f"label search, {search['nodes']} nodes" if search else "table of bases"
    return seconds, (f"{cpu:.1f} s CPU; {len(data['equilibria'])} extreme equilibria, {len(data['convex_sets'])} "
                     f"convex sets ({route})")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _environment() -> dict[str, str]:
    root = str(Path(__file__).resolve().parent.parent)
    return {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _past_the_table(quick: bool) -> None:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for n in LARGE[:1] if quick else LARGE:
            path = Path(folder) / f"random{n}.nfg"
            path.write_text(_nfg(n, random.Random(SEED + n)))
            seconds, result = _cli(str(path))
            rows.append(Row("random bimatrix", f"{n}x{n}", seconds, result))
    for game in POKER[:3] if quick else POKER:
        seconds, result = _cli(game)
        rows.append(Row("poker tree", game[len("library:"):], seconds, result))
    print_table("solve GAME --all, whole processes (payoffs 0..99, seed 2010 + n)", rows)
    print()


def benchmarks(quick: bool) -> None:
    rng = random.Random(SEED)
    _ours(_nfg(2, random.Random(0)))  # imports and first-call set-up, outside the table
    rows = []
    for n in SIZES:
        if quick and n > 6:
            break
        text = _nfg(n, rng)
        ours, mine = _ours(text)
        by_labels, labelled = _labels(text)
        theirs, gambit = _gambit(text)
        agree = "sets agree" if mine == gambit == labelled else f"DIFFER ({len(gambit)} from Gambit)"
        if not mine == gambit == labelled:
            FAILURES.append(f"n={n}: the sets of extreme equilibria differ")
        rows.append((f"{n}x{n}", f"{ours:.3f}", f"{by_labels:.3f}", f"{theirs:.3f}", str(len(mine)), agree))
    headers = ("size", "ours s", "labels s", "enummixed s", "equilibria", "check")
    widths = [max(len(h), *(len(r[k]) for r in rows)) for k, h in enumerate(headers)]
    print("random bimatrix games (payoffs 0..99): solve --all vs pygambit enummixed_solve(rational=True)")
    for line in (headers, tuple("-" * w for w in widths), *rows):
        print("  " + "  ".join(c.ljust(w) for c, w in zip(line, widths)))
    print()
    _past_the_table(quick)


if __name__ == "__main__":
    sys.exit(run(__doc__.splitlines()[0], "bench_all", benchmarks))
