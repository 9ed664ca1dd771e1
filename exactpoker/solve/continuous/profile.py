"""Strategies on the hand axis: a shape (which actions on which runs of hands) and a piecewise-constant profile.

A :class:`Shape` is the hypothesis the engine solves: for every information
set the sequence of its *segments* from hand 0 to hand 1, each a support (one
action: pure; several: mixed with constant probabilities), and the order of
all the cut points between segments, every player's together.  The order is
one of *groups*: the cut points of a group are one point (a symmetric game's
players cut at the same hand, seed 000 section 4's II and III; seed 002's R
and S), and the order between groups is not strict (two may turn out
equal).  Its unknowns are one point per group and, on mixed segments, the
probabilities of all but the first action.

A :class:`PiecewiseProfile` is what a shape becomes once the unknowns have
values (or symbols): break points ``0 = g_0 <= g_1 <= ... <= g_{m+1} = 1``
and, on every elementary interval ``(g_i, g_{i+1})``, every information set's
probability of each action.  The entries are any exact ring elements:
sympy expressions (the system), rationals and algebraic numbers of one field
(the certificate), or rational functions of a parameter (``--over``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import sympy

__all__ = ["Cut", "Shape", "PiecewiseProfile", "cut_symbol", "mix_symbol"]

#: A cut point: the boundary after segment ``k`` of information set ``h``.
Cut = tuple[int, int]


def cut_symbol(cut: Cut) -> sympy.Symbol:
    """The unknown of a cut point (named after its information set and place)."""
    return sympy.Symbol(f"t{cut[0]}_{cut[1]}")


def mix_symbol(h: int, segment: int, action: int) -> sympy.Symbol:
    """The unknown probability of ``action`` on a mixed segment."""
    return sympy.Symbol(f"q{h}_{segment}_{action}")


@dataclass(frozen=True)
class Shape:
    """Supports per information set and segment, and the order of every cut point (module docstring).

    ``guesses`` gives floats read from the finite decks: the cut points' places and the mixed
    segments' probabilities (keyed by symbol); they choose among exact solutions, never replace one.
    """

    segments: tuple[tuple[tuple[int, ...], ...], ...]
    order: tuple[tuple[Cut, ...], ...]
    guesses: Mapping[sympy.Symbol, float] = field(default_factory=dict, compare=False)

    @property
    def cuts(self) -> list[Cut]:
        """Every cut point, in order."""
        return [cut for group in self.order for cut in group]

    def symbol_of(self, cut: Cut) -> sympy.Symbol:
        """The unknown of ``cut``: its group's (the first cut's symbol)."""
        return cut_symbol(self.group_of(cut)[0])

    def group_of(self, cut: Cut) -> tuple[Cut, ...]:
        return next(group for group in self.order if cut in group)

    def place_of(self, cut: Cut) -> int:
        """The index of ``cut``'s group in the order: its point ends elementary interval ``place``."""
        return next(k for k, group in enumerate(self.order) if cut in group)

    def unknowns(self) -> list[sympy.Symbol]:
        """One point per group in order, then every mixed segment's free probabilities."""
        mixes = [mix_symbol(h, s, a) for h, segs in enumerate(self.segments) for s, support in enumerate(segs)
                 for a in support[1:]]
        return [cut_symbol(group[0]) for group in self.order] + mixes

    def probabilities(self, h: int, segment: int, actions: int, values: Mapping[sympy.Symbol, Any]
                      ) -> tuple[Any, ...]:
        """The probability of each action on a segment, from the unknowns' ``values`` (symbols if absent)."""
        support = self.segments[h][segment]
        probs: list[Any] = [0] * actions
        if len(support) == 1:
            probs[support[0]] = 1
            return tuple(probs)
        rest = 0
        for a in support[1:]:
            symbol = mix_symbol(h, segment, a)
            probs[a] = values.get(symbol, symbol)
            rest = rest + probs[a]
        probs[support[0]] = 1 - rest
        return tuple(probs)

    def segment_of(self, h: int, interval: int) -> int:
        """Which segment of ``h`` covers the elementary interval ``interval`` (between the order's cuts)."""
        return sum(1 for group in self.order[:interval] for cut in group if cut[0] == h)

    def profile(self, actions: Sequence[int], values: Mapping[sympy.Symbol, Any] | None = None,
                ) -> "PiecewiseProfile":
        """The profile of this shape at ``values`` of the unknowns (symbols where no value is given)."""
        values = values or {}
        points = (cut_symbol(group[0]) for group in self.order)
        breaks = (0,) + tuple(values.get(point, point) for point in points) + (1,)
        table = tuple(tuple(self.probabilities(h, self.segment_of(h, i), actions[h], values)
                            for i in range(len(self.order) + 1)) for h in range(len(self.segments)))
        return PiecewiseProfile(breaks, table)

    def describe(self, names: Sequence[Sequence[str]]) -> str:
        """``h0: check|bet|check; ...`` with the action names ``names[h]``."""
        return "; ".join(f"{h}: " + "|".join("+".join(names[h][a] for a in support) for support in segs)
                         for h, segs in enumerate(self.segments))


@dataclass(frozen=True)
class PiecewiseProfile:
    """Break points ``0 = g_0 <= ... <= g_{m+1} = 1`` and ``behaviour[h][i][a]`` on ``(g_i, g_{i+1})``."""

    breaks: tuple[Any, ...]
    behaviour: tuple[tuple[tuple[Any, ...], ...], ...]

    @property
    def intervals(self) -> int:
        return len(self.breaks) - 1

    def lengths(self) -> list[Any]:
        return [self.breaks[i + 1] - self.breaks[i] for i in range(self.intervals)]

    def map(self, function: Any) -> "PiecewiseProfile":
        """Every entry passed through ``function`` (e.g. a substitution)."""
        return PiecewiseProfile(tuple(function(g) for g in self.breaks),
                                tuple(tuple(tuple(function(p) for p in probs) for probs in row)
                                      for row in self.behaviour))
