"""The N-player route for games too large for the regularised continuation: regret minimisation, then the finish.

The staged finish's guide (:mod:`exactpoker.solve.nplayer.continuation`) follows the regularised system from a
large epsilon down, a dense or sparse Newton solve a step; on three-player Leduc poker its path takes thousands
of steps and minutes each hundred.  This route replaces that guide:

1. **regret minimisation** on the vectorised sequence-form walk (:mod:`exactpoker.solve.nplayer.regret`,
   discounted CFR by default), resumed in rounds up to :data:`CHECKPOINTS` iterations within :data:`SECONDS`;
2. at each checkpoint, the average play **purified** at each of :data:`THRESHOLDS`, **completed** (a best
   response wherever the owner's own play never reaches) and **polished** by Newton's method on the support's
   indifference system (:func:`~exactpoker.solve.nplayer.support_newton.polish`): a float solution of seed
   003's condition (1), or the attempt stops here, cheaply -- the float gate before the costly exact work;
3. the **exact finish** on that support (:func:`~exactpoker.solve.nplayer.finish.solve_exact`: rational,
   algebraic, or an isolating box proved by Krawczyk's test and certified in ball arithmetic; its Jacobian
   blocks computed on demand by the walk, never the dense whole).

The first point that passes the finish's certificate is returned; every attempt's figures (iterations,
``nash_conv`` of the average, threshold, why the polish or the finish stopped) go into the error when none does.
With three or more players no regret minimiser is guaranteed to approach an equilibrium: on three-player Leduc
poker discounted CFR stalls near ``nash_conv`` 2e-3 (``benchmarks/README.md``, issue 41) and the route then ends
with that error, within its budget.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Mapping

import numpy as np

from exactpoker import guard, progress
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.sequence_walk import SequenceWalk
from exactpoker.errors import CertificationError, DegenerateSystemError, InvalidParameterError
from exactpoker.solve.nplayer.point import CertifiedPoint
from exactpoker.solve.nplayer.regret import RegretMinimiser
from exactpoker.solve.nplayer.support_newton import polish

__all__ = ["CHECKPOINTS", "THRESHOLDS", "SECONDS", "VARIANT", "MAX_ENTRY_PLAYERS", "require_regret_size",
           "solve_by_regret"]

#: Iterations after which the finish is tried (the regret minimiser resumes between them).  Not earlier than
#: 1000: five-player Kuhn poker is certified from 1000 iterations, and polishing 300 cost it 5 s in vain.
CHECKPOINTS = (1000, 3000, 10_000, 30_000)
#: Purification thresholds tried at each checkpoint: small ones keep the average's support; large ones start the
#: polish from nearly pure play, from which it may reach a support the average never shows (three-player Leduc
#: poker on two ranks, no suits: certified from 50 iterations purified at 0.4, not from 300, 1000 or 3000).
THRESHOLDS = (1e-3, 1e-2, 0.1, 0.4)
#: Wall seconds of regret minimisation and polish at most (an exact finish under way comes on top).
SECONDS = 90.0
#: The regret minimiser (:data:`exactpoker.solve.nplayer.regret.VARIANTS`).
VARIANT = "dcfr"
#: Most payoff entries times players: an iteration walks each entry once a player and costs about 50 ns an
#: entry and player (three-player Leduc poker, 381 thousand: 20 ms), so at this size the first checkpoint's
#: 300 iterations take about the whole budget of :data:`SECONDS`.
MAX_ENTRY_PLAYERS = 6_000_000


def require_regret_size(game: CompiledGame) -> None:
    """Refuse, before any work, a game the regret route cannot afford: its walk's memory over the limit in force
    (:func:`exactpoker.guard.n_player_regret`), or more than :data:`MAX_ENTRY_PLAYERS` entries times players."""
    entries, players = len(game.sequences), game.num_players
    sequences = sum(layout.num_sequences for layout in game.layouts)
    infosets = ", ".join(str(layout.num_infosets) for layout in game.layouts)
    what = (f"the N-player regret route ({players} players, binary information sets per player {infosets}; "
            f"{entries} payoff entries)")
    guard.require(guard.n_player_regret(entries, players, sequences), what)
    if entries * players > MAX_ENTRY_PLAYERS:
        raise InvalidParameterError(f"solve: {what} is too large: {entries * players} entries times players, at "
                                    f"most {MAX_ENTRY_PLAYERS} fit its time budget of {SECONDS:.0f} s; choose a "
                                    "smaller game")


class _Blocks:
    """The Jacobian of the gains at one point, its blocks computed by the walk when asked (``J[np.ix_(r, c)]``)."""

    def __init__(self, walk: SequenceWalk, x: np.ndarray) -> None:
        self.walk, self.x = walk, x

    def __getitem__(self, index: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        rows, columns = (np.asarray(i, dtype=np.int64).ravel() for i in index)
        return self.walk.jacobian(self.x, rows, columns)[1].toarray()


def solve_by_regret(game: CompiledGame, fixed: Mapping[int, float], *, digits: int = 30,
                    seconds: float = SECONDS) -> CertifiedPoint:
    """An exact equilibrium of ``game`` (two actions an information set) by this route (module docstring).

    Raises
    ------
    CertificationError
        No checkpoint's purified play led the finish to a certified point; the message gives each attempt.
    """
    from exactpoker.solve.nplayer.finish import solve_exact

    walk = SequenceWalk(game)
    walk.require_two_actions()
    minimiser = RegretMinimiser(walk, VARIANT)
    began, attempts = time.perf_counter(), []
    for checkpoint in CHECKPOINTS:
        left = seconds - (time.perf_counter() - began)
        if left <= 0:
            break
        run = minimiser.run(checkpoint - minimiser.record.iterations, seconds=left,
                            check_every=max(50, checkpoint // 10))
        average = np.concatenate([pi[walk.firsts(p) + 1] for p, pi in enumerate(run.average)])
        tried = []
        for threshold in THRESHOLDS:
            try:
                guide = polish(walk, average, threshold=threshold, fixed=dict(fixed))
            except DegenerateSystemError as error:
                tried.append(f"at {threshold:g} {error}")
                continue
            progress.stage(f"N-player exact finish on the polished play ({run.iterations} iterations, "
                           f"threshold {threshold:g})")
            try:
                found = solve_exact(game, guide.x, lambda z: _Blocks(walk, z), fixed, tol=1e-12, digits=digits)
            except CertificationError as error:
                tried.append(f"at {threshold:g} polished ({len(guide.interior)} mixed), then {error}")
                continue
            note = (f"float guide: {VARIANT} regret minimisation, {run.iterations} iterations in {run.seconds:.1f} s "
                    f"(nash_conv of the average {run.nash_conv:.2e}), purified at {threshold:g}, completed and "
                    f"polished ({guide.steps} Newton steps)")
            return replace(found, notes=(note,) + found.notes)
        attempts.append(f"{run.iterations} iterations (nash_conv {run.nash_conv:.2e}), purified " + ", ".join(tried))
    raise CertificationError(f"the regret route found no certified point in {time.perf_counter() - began:.0f} s "
                             f"(budget {seconds:.0f} s): " + "; ".join(attempts))
