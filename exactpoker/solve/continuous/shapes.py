"""Shape hypotheses from finite-deck readings: runs of cards -> segments of hands -> cut points ``~ k/n``.

Each information set's card-by-card probabilities (one
:class:`~exactpoker.solve.continuous.readings.Reading`) are cut into
segments by dynamic programming (optimal partition of a sequence, as in
change-point detection: Jackson et al., "An algorithm for optimal
partitioning of data on an interval", IEEE Signal Processing Letters 12,
2005): a segment is *pure* (one action; cost: the squared distance of each
card's probabilities to that action) or *mixed* (cost: the squared distance
to the segment's mean, plus an extra cost for its mixing probabilities), and
every segment costs ``penalty``.  A single card mixing at the border of two
pure runs (a cut inside the card) is absorbed, and a run of cards
alternating between actions (one vertex of a family of finite equilibria)
becomes one mixed segment.

The finite LP may return any vertex of a family, so one reading may mislead:
:func:`hypotheses` offers, in turn, the partitions of the largest deck with
the costs of :data:`PENALTIES`, those of the other decks, and variants of each:
actions the partition lost put back as thin runs (bluff raises spread over
a few cards), mixed segments split into pure ones with the same measures,
the shortest segment merged into a neighbour (repeatedly), thin runs read as
mixed ones.  The cut points' order is read from their places;
the certificate decides.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterator, Sequence

import numpy as np

from exactpoker.solve.continuous.profile import Shape, cut_symbol, mix_symbol
from exactpoker.solve.continuous.readings import Reading

__all__ = ["Run", "partition", "hypotheses", "shape_of", "runs_of", "absorbed"]

#: An action whose mean probability on a mixed segment is below this is not in its support.
SUPPORT_FLOOR = 0.04
#: (cost of a segment, extra cost of a mixed one) tried in turn: runs of 1-2 cards absorbed and mixing only
#: where it pays as much as a segment; then mixing read wherever it is steady (a few per cent over many cards);
#: runs of up to 3 cards absorbed; no run absorbed.
PENALTIES = ((2.0, 2.0), (2.0, 0.1), (6.0, 2.0), (0.5, 0.5))


@dataclass(frozen=True)
class Run:
    """A segment of one information set: its support, its place ``[start, end)`` in ``[0, 1]``, its mean mix."""

    support: tuple[int, ...]
    start: float
    end: float
    mean: tuple[float, ...]


def _costs(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Prefix sums of the probabilities and of their squared norms."""
    zero = np.zeros((1, table.shape[1]))
    sums = np.vstack([zero, np.cumsum(table, axis=0)])
    squares = np.concatenate([[0.0], np.cumsum((table**2).sum(axis=1))])
    return sums, squares


def partition(table: np.ndarray, penalty: float, mixed_cost: float = 0.1) -> list[Run]:
    """The optimal partition of one information set's cards into pure and mixed segments (module docstring)."""
    n, actions = table.shape
    sums, squares = _costs(table)
    best = np.full(n + 1, np.inf)
    best[0] = 0.0
    choice: list[tuple[int, tuple[int, ...], tuple[float, ...]]] = [(0, (), ())] * (n + 1)
    for j in range(1, n + 1):
        i = np.arange(j)
        length = (j - i)[:, None]
        mass = sums[j] - sums[i]
        mean = mass / length
        square = squares[j] - squares[i]
        pure = square[:, None] - 2 * mass + length  # sum |p - e_a|^2, for every action a
        mixed = square - (mean**2).sum(axis=1) * length[:, 0] + mixed_cost
        total = best[i][:, None] + penalty + np.column_stack([pure, mixed])
        start, kind = np.unravel_index(np.argmin(total), total.shape)
        best[j] = total[start, kind]
        segment_mean = tuple(float(v) for v in mean[start])
        if kind < actions:
            support: tuple[int, ...] = (int(kind),)
        else:
            support = tuple(a for a in range(actions) if segment_mean[a] > SUPPORT_FLOOR) or (int(np.argmax(mean[start])),)
        choice[j] = (int(start), support, segment_mean)
    runs: list[Run] = []
    j = n
    while j > 0:
        start, support, segment_mean = choice[j]
        runs.append(Run(support, start / n, j / n, segment_mean))
        j = start
    return _merged(list(reversed(runs)))


def _merged(runs: list[Run]) -> list[Run]:
    """Neighbouring runs of the same support joined (their means weighted by length)."""
    out: list[Run] = []
    for run in runs:
        if out and out[-1].support == run.support:
            last = out[-1]
            w0, w1 = last.end - last.start, run.end - run.start
            mean = tuple((a * w0 + b * w1) / (w0 + w1) for a, b in zip(last.mean, run.mean))
            out[-1] = Run(run.support, last.start, run.end, mean)
        else:
            out.append(run)
    return out


def shape_of(runs: Sequence[Sequence[Run]], together: float = 0.0, *, reverse_ties: bool = False,
             twins: float = 0.0) -> Shape:
    """The shape of per-information-set runs: supports, the cut points ordered by place, the guesses.

    Cut points of different information sets less than ``together`` apart are one point (a group); with
    ``twins``, only the ``k``-th cut points of information sets with the same supports (symmetric players:
    seed 000 section 4's II and III) less than ``twins`` apart.  Cut points at the same place are ordered by
    information set, or the other way with ``reverse_ties``.
    """
    sign = -1 if reverse_ties else 1
    cuts = sorted(((infoset_runs[k].end, (h, k)) for h, infoset_runs in enumerate(runs)
                   for k in range(len(infoset_runs) - 1)), key=lambda item: (item[0], sign * item[1][0]))
    supports = [tuple(run.support for run in infoset_runs) for infoset_runs in runs]
    groups: list[list[tuple[float, tuple[int, int]]]] = []
    for place, cut in cuts:
        twin = next((g for g in groups if twins and any(c[1] == cut[1] and supports[c[0]] == supports[cut[0]]
                                                         and place - p < twins for p, c in g)), None)
        group = groups[-1] if groups else None
        if twin is not None:
            twin.append((place, cut))
        elif group is not None and place - group[0][0] < together and cut[0] not in {c[0] for _p, c in group}:
            group.append((place, cut))
        else:
            groups.append([(place, cut)])
    order = tuple(tuple(cut for _place, cut in group) for group in groups)
    guesses = {cut_symbol(group[0][1]): sum(place for place, _cut in group) / len(group) for group in groups}
    for h, infoset_runs in enumerate(runs):
        for s, run in enumerate(infoset_runs):
            for a in run.support[1:]:
                guesses[mix_symbol(h, s, a)] = run.mean[a] / max(sum(run.mean[b] for b in run.support), 1e-9)
    return Shape(tuple(supports), order, guesses)


def runs_of(shape: Shape, values: dict, actions: Sequence[int]) -> list[list[Run]]:
    """A solved shape as runs (its exact values as floats): the form the variants are made in."""
    runs = []
    for h, segments in enumerate(shape.segments):
        ends = [0.0] + [float(values[shape.symbol_of((h, k))]) for k in range(len(segments) - 1)] + [1.0]
        runs.append([Run(support, ends[s], ends[s + 1],
                         tuple(float(p) for p in shape.probabilities(h, s, actions[h], values)))
                     for s, support in enumerate(segments)])
    return runs


def absorbed(infoset_runs: list[Run], k: int) -> list[Run]:
    """The runs with run ``k`` taken over by its neighbours (split between them), equal neighbours joined."""
    runs = list(infoset_runs)
    gone = runs.pop(k)
    if k == 0:
        runs[0] = replace(runs[0], start=gone.start)
    elif k == len(runs):
        runs[-1] = replace(runs[-1], end=gone.end)
    else:
        middle = (gone.start + gone.end) / 2
        runs[k - 1], runs[k] = replace(runs[k - 1], end=middle), replace(runs[k], start=middle)
    return _merged(runs)


def _purified(runs: list[Run]) -> list[Run]:
    """Every mixed run split into pure runs of widths proportional to its mix, each action next to its like.

    The action of the left neighbour comes first, the right neighbour's last: a mixed
    run read from one vertex of a family becomes the pure member with the same measures.
    """
    out: list[Run] = []
    for k, run in enumerate(runs):
        if len(run.support) == 1:
            out.append(run)
            continue
        left = runs[k - 1].support if k > 0 else ()
        right = runs[k + 1].support if k + 1 < len(runs) else ()
        order = sorted(run.support, key=lambda a: (a not in left, a in right))
        total = sum(run.mean[a] for a in order) or 1.0
        start = run.start
        for a in order:
            end = start + (run.end - run.start) * run.mean[a] / total
            out.append(Run((a,), start, end, run.mean))
            start = end
    return _merged(out)


def _variants(runs: list[list[Run]]) -> Iterator[list[list[Run]]]:
    """The runs with every mixed segment split into pure ones; then, from the runs as read and from the split
    ones, the shortest segment merged away, repeatedly."""
    bases = [runs]
    if any(len(run.support) > 1 for infoset_runs in runs for run in infoset_runs):
        bases.append([_purified(infoset_runs) for infoset_runs in runs])
        yield bases[-1]
    for base in bases:
        yield from _thin_merged(base)
        yield from _shortest_merged(base)


def _thin_merged(runs: list[list[Run]]) -> Iterator[list[list[Run]]]:
    """Each thin run (one or two cards: a run the finite deck barely resolves) given to its neighbours, one at a
    time (a bluff read on the second-lowest card leaves a one-card pure run below it)."""
    for h, infoset_runs in enumerate(runs):
        for k, run in enumerate(infoset_runs):
            if len(infoset_runs) > 1 and run.end - run.start <= THIN:
                yield runs[:h] + [absorbed(infoset_runs, k)] + runs[h + 1:]


def _shortest_merged(runs: list[list[Run]], steps: int = 4) -> Iterator[list[list[Run]]]:
    """The shortest segment (of any information set) given to its neighbour, ``steps`` times in turn."""
    current = [list(infoset_runs) for infoset_runs in runs]
    for _ in range(steps):
        candidates = [(run.end - run.start, h, k) for h, infoset_runs in enumerate(current)
                      for k, run in enumerate(infoset_runs) if len(infoset_runs) > 1]
        if not candidates:
            return
        _width, h, k = min(candidates)
        current[h] = absorbed(current[h], k)
        yield [list(r) for r in current]


#: A run at most this wide (a fraction of the hands) may be a thin mixed region read as pure cards.
THIN = 0.05


def _collapsed(infoset_runs: list[Run]) -> list[Run]:
    """Every stretch of two or more consecutive thin runs made one mixed run (the union of their actions)."""
    out: list[Run] = []
    stretch: list[Run] = []
    for run in infoset_runs + [Run((), 1.0, 1.0, ())]:
        if run.support and run.end - run.start <= THIN:
            stretch.append(run)
            continue
        if len(stretch) >= 2:
            width = stretch[-1].end - stretch[0].start
            mean = tuple(sum(r.mean[a] * (r.end - r.start) for r in stretch) / width
                         for a in range(len(stretch[0].mean)))
            support = tuple(sorted({a for r in stretch for a in r.support}))
            out.append(Run(support, stretch[0].start, stretch[-1].end, mean))
        else:
            out.extend(stretch)
        stretch = []
        if run.support:
            out.append(run)
    return _merged(out)


def _thin_mixed(infoset_runs: list[Run]) -> list[Run]:
    """Every thin pure run between two different actions made a mix of its action and its right neighbour's."""
    out = list(infoset_runs)
    for k, run in enumerate(infoset_runs[:-1]):
        if len(run.support) == 1 and run.end - run.start <= THIN and k > 0:
            support = tuple(sorted(set(run.support) | set(infoset_runs[k + 1].support)))
            out[k] = Run(support, run.start, run.end, tuple(0.5 if a in support else 0.0 for a in range(len(run.mean))))
    return _merged(out)


def _mixed_variants(runs: list[list[Run]]) -> Iterator[list[list[Run]]]:
    """A thin mixed region the cards cannot resolve reads as alternating pure runs or as one pure run: the
    runs with those read as mixed, in every information set at once (symmetric players mix alike)."""
    for change in (_collapsed, _thin_mixed):
        changed = [change(infoset_runs) for infoset_runs in runs]
        if changed != runs:
            yield changed


#: An action played with at least this probability on a card its run does not play is a lost trace.
TRACE = 0.2


def _restored(runs: list[list[Run]], tables: Sequence[np.ndarray]) -> Iterator[list[list[Run]]]:
    """Actions the partition lost: a few cards play an action their run does not (a thin region, e.g. a bluff
    read as one card, or bluff raises whose place in a tie is free, spread by the finite LP).  Each cluster of
    such cards is put back as one pure run of that action, as wide as its probability mass."""
    restored = [list(infoset_runs) for infoset_runs in runs]
    changed = False
    for h, (infoset_runs, table) in enumerate(zip(runs, tables)):
        n = table.shape[0]
        for a in range(table.shape[1]):
            cards = [k for k in range(n) if table[k, a] >= TRACE
                     and a not in next(r for r in infoset_runs if r.start <= (k + 0.5) / n <= r.end).support]
            for cluster in _clusters(cards):
                mass = sum(float(table[k, a]) for k in cluster) / n
                centre = (cluster[0] + cluster[-1] + 1) / (2 * n)
                restored[h] = _inserted(restored[h], a, max(centre - mass / 2, 0.0), min(centre + mass / 2, 1.0))
                changed = True
    if changed:
        yield restored


def _clusters(cards: list[int]) -> list[list[int]]:
    """Consecutive card indices grouped."""
    groups: list[list[int]] = []
    for k in cards:
        if groups and k == groups[-1][-1] + 1:
            groups[-1].append(k)
        else:
            groups.append([k])
    return groups


def _inserted(infoset_runs: list[Run], action: int, start: float, end: float) -> list[Run]:
    """The runs with a pure run of ``action`` on ``[start, end]`` cut into them."""
    out: list[Run] = []
    for run in infoset_runs:
        if run.end <= start or run.start >= end:
            out.append(run)
            continue
        if run.start < start:
            out.append(replace(run, end=start))
        if not out or out[-1].support != (action,):
            out.append(Run((action,), start, end, tuple(float(b == action) for b in range(len(run.mean)))))
        if run.end > end:
            out.append(replace(run, start=end))
    return _merged(out)


def hypotheses(readings: Sequence[Reading]) -> Iterator[Shape]:
    """Shapes to try, the most plausible first, without repeats (module docstring).

    Each partition is offered with the like cut points of symmetric players
    made one point, then with the cut points of different information sets
    that fall within a card of each other made one point, then with every
    cut point its own (in either order where they fall together).
    """
    seen: set[tuple] = set()
    ordered = sorted(readings, key=lambda r: -r.cards)
    for penalty, mixed_cost in PENALTIES:
        for reading in ordered:
            runs = [partition(table, penalty, mixed_cost) for table in reading.tables]
            variants = list(_variants(runs))
            mixed = [m for v in [runs, *variants] for m in _mixed_variants(v)]
            lost = [r for v in [runs, *variants] for r in _restored(v, reading.tables)]
            for candidate in [runs, *lost, *variants, *mixed]:
                for options in ({"twins": 3.01 / reading.cards}, {"together": 1.01 / reading.cards}, {},
                                {"reverse_ties": True}):
                    shape = shape_of(candidate, **options)
                    key = (shape.segments, shape.order)
                    if key not in seen:
                        seen.add(key)
                        yield shape
