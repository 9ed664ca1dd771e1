"""Every equilibrium of small N-player games by exact support enumeration, against pygambit's enumpoly.

Run from the repository root::

    python benchmarks/bench_all_n.py           # random 2x2x2, 3x3x2, 2x2x2x2 games, seeds 0..3 (about 15 s)
    python benchmarks/bench_all_n.py --quick   # one game of each shape

Random games have integer payoffs in [-50, 50] (``tests/test_all_equilibria_n.random_arrays``), plus
McKelvey and McLennan's 2x2x2 game with nine equilibria.  Per game: the number of supports, the
seconds of ``all_equilibria_n_player`` (one process), the isolated equilibria and families found
(every one certified exactly), whether every support was decided, and, when pygambit is installed,
the seconds and number of equilibria of ``pygambit.nash.enumpoly_solve(use_strategic=True)`` (floats)
and how many of ours it found within 1e-6.  Wall clock, ``time.perf_counter``, one run.
"""

from __future__ import annotations

import time

import numpy as np
from timing import Row, print_table, run, timed

from exactpoker.core.tree import compile_tree
from exactpoker.formats.nfg import read_nfg
from exactpoker.solve.enumeration.supports import all_equilibria_n_player, support_total
from tests.solve.enumeration.test_all_equilibria_n import MCKELVEY_MCLENNAN, _floats, normal_form, random_arrays


def _describe(compiled):
    def describe(result) -> str:
        return (f"{support_total(compiled)} supports, {len(result.equilibria)} equilibria, "
                f"{len(result.families)} families, complete {result.complete}")
    return describe


def _enumpoly(arrays, ours) -> str:
    try:
        import pygambit as gbt
    except ImportError:
        return "pygambit not installed"
    game = gbt.Game.from_arrays(*arrays)
    start = time.perf_counter()
    found = gbt.nash.enumpoly_solve(game, use_strategic=True).equilibria
    seconds = time.perf_counter() - start
    theirs = [np.array([float(eq[s]) for p in game.players for s in p.strategies]) for eq in found]
    matched = sum(1 for a in ours if any(np.max(np.abs(a - b)) < 1e-6 for b in theirs))
    return f"enumpoly {seconds:.3f} s: {len(theirs)} equilibria, {matched} of our {len(ours)} among them"


def benchmarks(quick: bool) -> None:
    rows: list[Row] = []
    compiled = compile_tree(read_nfg(MCKELVEY_MCLENNAN).tree)
    rows.append(timed("McKelvey-McLennan", "2x2x2", lambda: all_equilibria_n_player(compiled), _describe(compiled)))
    for shape in ((2, 2, 2), (3, 3, 2), (2, 2, 2, 2)):
        for seed in range(1 if quick else 4):
            arrays = random_arrays(shape, seed, -50, 50)
            game = normal_form(arrays)
            size = f"{'x'.join(map(str, shape))} seed {seed}"
            rows.append(timed("random", size, lambda: all_equilibria_n_player(game), _describe(game)))
            ours = [_floats(eq.profile) for eq in all_equilibria_n_player(game).equilibria]
            rows.append(Row("enumpoly", size, None, _enumpoly(arrays, ours)))
    print_table("all equilibria by exact support enumeration (one process)", rows)


if __name__ == "__main__":
    raise SystemExit(run(__doc__.splitlines()[0], "all equilibria, N players", benchmarks))
