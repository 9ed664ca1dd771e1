"""Counterfactual regret minimisation on the vectorised sequence-form walk: the large game's float guide.

Each iteration walks the game once a player (:class:`~exactpoker.core.sequence_walk.SequenceWalk`): the
player's counterfactual action values against the others' current play, an instantaneous regret per action
(the action's value minus its information set's worth), the cumulative regrets discounted, and the next play by
regret matching (Zinkevich, Johanson, Bowling and Piccione, NIPS 2007).  The players update in turn
(alternating updates), and the average play is weighted by each player's own reach.  The variants differ only
in their discounts (Brown and Sandholm, "Solving imperfect-information games via discounted regret
minimization", AAAI 2019, section 3):

* ``"cfr+"`` -- negative cumulative regrets set to zero, the average weighted by the iteration number
  (Tammelin 2014; Bowling, Burch, Johanson and Tammelin, Science 2015);
* ``"dcfr"`` -- positive regrets discounted by ``t^1.5 / (t^1.5 + 1)``, negative ones by ``1/2``, the average by
  ``(t / (t + 1))^2`` (the paper's recommended ``alpha = 3/2, beta = 0, gamma = 2``);
* ``"pcfr+"`` -- CFR+ whose play is regret matching on the cumulative regrets plus a prediction of the next
  instantaneous regrets (the last ones), the average weighted by the iteration number squared (Farina, Kroer
  and Sandholm, "Faster game solving via predictive Blackwell approachability", AAAI 2021);
* ``"linear"`` -- both regrets and average weighted by the iteration number (the paper's linear CFR);
* ``"cfr"`` -- vanilla.

With three or more players no variant is guaranteed to approach a Nash equilibrium, and none certifies
anything: the average play is a *guide* whose support and values the Newton stage
(:mod:`exactpoker.solve.nplayer.support_newton`) sharpens and the exact finish proves.
``benchmarks/README.md`` (issue 41 items 1-2) gives the variants measured against each other and against the
regularised continuation of :mod:`exactpoker.solve.nplayer.continuation` on three-player Leduc poker.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
import numpy as np

from exactpoker import progress
from exactpoker.core.sequence_walk import SequenceWalk
from exactpoker.errors import InvalidParameterError

__all__ = ["VARIANTS", "RegretRun", "RegretMinimiser", "minimise_regret"]

VARIANTS = ("dcfr", "pcfr+", "cfr+", "linear", "cfr")


@dataclass
class RegretRun:
    """The outcome of :func:`minimise_regret`: the average and the current play (per player, ``pi`` over
    sequences), the iterations run, the seconds, and ``history`` of ``(iteration, nash_conv of the average)``."""

    average: list[np.ndarray]
    current: list[np.ndarray]
    iterations: int
    seconds: float
    history: list[tuple[int, float]] = field(default_factory=list)

    @property
    def nash_conv(self) -> float:
        return self.history[-1][1] if self.history else float("inf")


def _discounts(variant: str, t: int) -> tuple[float, float, float]:
    """``(positive, negative, average)`` discounts of the cumulative regrets and the average at iteration ``t``."""
    older = (t - 1.0) / t  # scaling the sums so far by it before adding weighs iteration i by i
    if variant == "pcfr+":
        return 1.0, 0.0, older**2
    if variant == "dcfr":
        grow = t**1.5
        return grow / (grow + 1.0), 0.5, older**2
    if variant == "linear":
        return older, older, older
    if variant == "cfr+":
        return 1.0, 0.0, older
    return 1.0, 1.0, 1.0


class _Player:
    """One player's cumulative regrets, average sums and current play."""

    def __init__(self, walk: SequenceWalk, p: int, start: np.ndarray) -> None:
        tree = walk.trees[p]
        self.walk, self.p, self.owners = walk, p, tree.owners
        self.parents = tree.parents[tree.owners]  # the parent sequence of each sequence's information set
        self.regret = np.zeros(walk.sizes[p])
        self.total = np.zeros(walk.sizes[p])
        self.pi = start.copy()

    def update(self, c: np.ndarray, discounts: tuple[float, float, float], floor: bool, predict: bool) -> None:
        v, worth = self.walk.action_values(self.p, c, self.pi)
        instant = np.zeros_like(self.regret)
        instant[1:] = v[1:] - worth[self.owners]
        positive, negative, _ = discounts
        r = self.regret
        r *= np.where(r > 0, positive, negative)
        r += instant
        if floor:
            np.maximum(r, 0.0, out=r)
        self._match(r + instant if predict else r)  # predictive CFR+: the last regrets predict the next

    def _match(self, regret: np.ndarray) -> None:
        """Regret matching: each action in proportion to its positive regret (uniform when none is positive)."""
        plus = np.maximum(regret[1:], 0.0)
        sums = np.bincount(self.owners, weights=plus)
        counts = np.bincount(self.owners)
        share = np.where(sums[self.owners] > 0, plus / np.where(sums[self.owners] > 0, sums[self.owners], 1.0),
                         1.0 / counts[self.owners])
        self.pi[1:] = share

    def accumulate(self, weight: float, decay: float) -> None:
        self.total *= decay
        self.total += weight * self.walk.realization(self.p, self.pi)

    def average(self) -> np.ndarray:
        """The average play: each sequence's summed own reach over its information set's (current play where
        the set was never reached)."""
        out = self.pi.copy()
        parent = self.total[self.parents]
        seen = parent > 0
        out[1:][seen] = self.total[1:][seen] / parent[seen]
        # an information set reached by the sums but with every action's share below rounding: renormalise
        sums = np.bincount(self.owners, weights=out[1:])
        out[1:] /= sums[self.owners]
        return out


class RegretMinimiser:
    """One run of ``variant`` (module docstring) on ``walk``, from ``start`` (default uniform play), resumable:
    each :meth:`run` goes on from where the last stopped."""

    def __init__(self, walk: SequenceWalk, variant: str = "dcfr", start: list[np.ndarray] | None = None) -> None:
        if variant not in VARIANTS:
            raise InvalidParameterError(f"regret minimisation: variant must be one of {', '.join(VARIANTS)}; "
                                        f"got {variant!r}")
        self.walk, self.variant = walk, variant
        pis = start if start is not None else walk.uniform()
        self.players = [_Player(walk, p, pi) for p, pi in enumerate(pis)]
        self.record = RegretRun([pl.pi.copy() for pl in self.players], [pl.pi for pl in self.players], 0, 0.0)

    def run(self, iterations: int, *, seconds: float | None = None, target: float = 0.0, check_every: int = 50
            ) -> RegretRun:
        """Up to ``iterations`` more iterations; stops early after ``seconds`` of wall time (the clock read every
        iteration), or when the average's ``nash_conv`` (checked every ``check_every`` iterations) is at most
        ``target``.  Returns the record so far
        (the average and current play as of now)."""
        began, walk, run = time.perf_counter(), self.walk, self.record
        spent = run.seconds
        progress.stage(f"float guide: {self.variant} regret minimisation", unit="iterations")
        for _ in range(iterations):
            run.iterations += 1
            t = run.iterations
            discounts = _discounts(self.variant, t)
            for player in self.players:
                reaches = [walk.realization(q, pl.pi) for q, pl in enumerate(self.players)]
                player.update(walk.sequence_values_of(player.p, reaches), discounts, self.variant in ("cfr+", "pcfr+"),
                              self.variant == "pcfr+")
                player.accumulate(1.0, discounts[2])
            progress.advance()
            if t % check_every == 0:
                run.average = [pl.average() for pl in self.players]
                run.history.append((t, walk.nash_conv(run.average)))
                if run.nash_conv <= target:
                    break
            if seconds is not None and time.perf_counter() - began >= seconds:  # every iteration: a budget holds
                break
        run.average = [pl.average() for pl in self.players]
        run.current = [pl.pi.copy() for pl in self.players]
        if not run.history or run.history[-1][0] != run.iterations:
            run.history.append((run.iterations, walk.nash_conv(run.average)))
        run.seconds = spent + time.perf_counter() - began
        return run


def minimise_regret(walk: SequenceWalk, *, variant: str = "dcfr", iterations: int = 100_000,
                    seconds: float | None = None, target: float = 0.0, check_every: int = 50,
                    start: list[np.ndarray] | None = None) -> RegretRun:
    """One :class:`RegretMinimiser` run of ``variant`` from ``start`` (default uniform play) until a limit."""
    return RegretMinimiser(walk, variant, start).run(iterations, seconds=seconds, target=target,
                                                     check_every=check_every)

