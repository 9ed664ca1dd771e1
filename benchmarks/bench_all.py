"""``exactpoker solve GAME --all`` against Gambit's ``enummixed`` on random n x n bimatrix games.

    python benchmarks/bench_all.py            # n = 2..10
    python benchmarks/bench_all.py --quick    # n = 2..6

Each row is one random game (integer payoffs 0..99, seeded, so generic:
nondegenerate) solved in this process by both:

* ours: :func:`exactpoker.solve.solve_game` with
  ``all_equilibria=True`` -- vertex enumeration of the best-response
  polytopes, the maximal convex sets, every equilibrium certified exactly;
* Gambit: ``pygambit.nash.enummixed_solve(game, rational=True)`` on the same
  game read from the same ``.nfg`` text.

The table gives the size, both times, the number of extreme equilibria and
whether the two exact sets agree.
"""

from __future__ import annotations

import io
import random
import sys
import time
from fractions import Fraction

from timing import FAILURES, run

SIZES = range(2, 11)
SEED = 2010  # Avis, Rosenberg, Savani, von Stengel


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


def _gambit(text: str) -> tuple[float, set]:
    import pygambit as gbt

    game = gbt.read_nfg(io.StringIO(text))
    start = time.perf_counter()
    found = gbt.nash.enummixed_solve(game, rational=True).equilibria
    seconds = time.perf_counter() - start
    return seconds, {tuple(tuple(Fraction(str(eq[s])) for s in p.strategies) for p in game.players) for eq in found}


def benchmarks(quick: bool) -> None:
    rng = random.Random(SEED)
    _ours(_nfg(2, random.Random(0)))  # imports and first-call set-up, outside the table
    rows = []
    for n in SIZES:
        if quick and n > 6:
            break
        text = _nfg(n, rng)
        ours, mine = _ours(text)
        theirs, gambit = _gambit(text)
        agree = "sets agree" if mine == gambit else f"DIFFER ({len(gambit)} from Gambit)"
        if mine != gambit:
            FAILURES.append(f"n={n}: the sets of extreme equilibria differ")
        rows.append((f"{n}x{n}", f"{ours:.3f}", f"{theirs:.3f}", str(len(mine)), agree))
    headers = ("size", "ours s", "enummixed s", "equilibria", "check")
    widths = [max(len(h), *(len(r[k]) for r in rows)) for k, h in enumerate(headers)]
    print("random bimatrix games (payoffs 0..99): solve --all vs pygambit enummixed_solve(rational=True)")
    for line in (headers, tuple("-" * w for w in widths), *rows):
        print("  " + "  ".join(c.ljust(w) for c, w in zip(line, widths)))
    print()


if __name__ == "__main__":
    sys.exit(run(__doc__.splitlines()[0], "bench_all", benchmarks))
