"""Three-player Kuhn poker's branch of equilibria in the pot (seed 003, section 3): the paper's presentation.

The regularised system of :mod:`exactpoker.games.papers.kuhn3` followed in ``P`` by
the engine's continuation (:mod:`exactpoker.solve.parametric.branch`, which
``solve --over`` uses for any general-sum game): the branch in the paper's
variables (:func:`branch`: floats, a guide, never certified), exact certified
equilibria at rational pots on it (:func:`exact_on_branch`), and the branch
as the paper's CSV (:func:`write_csv`).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from exactpoker.errors import InvalidParameterError
from exactpoker.games.papers.kuhn3 import (NODES, compiled, exact_from_guide, gain_system, parse_cards, parse_pot, result_of,
                                    variable_index)
from exactpoker.numbers import exact_str, parse_positive
from exactpoker.results import SolveResult
from exactpoker.solve import BranchPoint, crossing, follow_branch, guide_on_branch

__all__ = ["branch", "exact_on_branch", "write_csv"]


def branch(cards: object, pot_min: object, pot_max: object, *, eps: float = 1e-6,
           max_steps: int = 200000) -> list[BranchPoint]:
    """The branch of solutions of the regularised system as the pot goes from ``pot_min`` to ``pot_max``.

    Seed 003, section 3: start at ``pot_min`` (followed down in ``epsilon``),
    then arc-length continuation in ``P`` at fixed ``eps`` with adaptive steps
    (:func:`~exactpoker.solve.parametric.branch.follow_branch`); the branch may
    fold back (several equilibria at one pot).  Stops when the pot leaves
    ``[pot_min, pot_max]``.  Floats: a guide, not certified; use
    :func:`exact_on_branch` for exact equilibria at rational pots on it.
    """
    n = parse_cards(cards)
    low, high = float(parse_positive(pot_min, "pot_min")), float(parse_positive(pot_max, "pot_max"))
    if high <= low:
        raise InvalidParameterError(f"pot-max must be > pot-min; got {pot_min}, {pot_max}")
    system = gain_system(n)
    rows = []
    for X in follow_branch(system, low, high, eps=eps, max_steps=max_steps):
        x = system.full(X[:-1])
        rows.append(BranchPoint(float(X[-1]), tuple(float(v) for v in system.payoffs(x, X[-1])), tuple(x.tolist())))
    return rows


def exact_on_branch(cards: object, points: Sequence[BranchPoint], pot: object, *, eps: float = 1e-6) -> SolveResult:
    """An exact certified equilibrium at the rational ``pot`` on the branch (Newton from the branch there).

    ``eps`` must be the branch's regularisation parameter.  The guide at
    ``pot`` is :func:`~exactpoker.solve.parametric.branch.guide_on_branch`'s
    (where Newton cannot land on the branch, a stiff spot, it is recomputed
    at ``pot`` from a large ``epsilon``, which may pick another equilibrium);
    the exact finish is the seed's (:func:`~exactpoker.games.papers.kuhn3.exact_from_guide`).
    """
    n, p = parse_cards(cards), parse_pot(pot)
    system = gain_system(n)
    arrays = [np.append(np.array(point.x)[system.free], point.at) for point in points]
    if crossing(arrays, float(p)) is None:
        raise InvalidParameterError(f"pot must lie on the branch; got {exact_str(p)}")
    x, trend = guide_on_branch(system, arrays, float(p), eps)
    solution = exact_from_guide(n, p, system.full(x), trend=trend)
    return result_of(n, p, solution, "branch of the regularised system (seed 003), exact finish")


def write_csv(points: Sequence[BranchPoint], path: str, cards: int) -> None:
    """The branch as CSV: ``P, E1, E2, E3`` and ``x_<node>_<card>`` for every node and card."""
    import csv

    from exactpoker.files import atomic_path

    g = compiled(cards, 3)
    order = [(node, c) for node in NODES for c in range(1, cards + 1)]
    with atomic_path(path, "--csv") as temporary, open(temporary, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["P", "E1", "E2", "E3"] + [f"x_{node}_{c}" for node, c in order])
        for point in points:
            writer.writerow([repr(point.at)] + [repr(v) for v in point.values]
                            + [repr(point.x[variable_index(g, node, c)]) for node, c in order])
