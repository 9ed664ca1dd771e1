"""The support search of the indifference solver: supports near a float guide, solved and certified in turn.

Seed 000, section 4 (the Fast NLP of three-player poker), made exact: from a
float guide (smoothed fictitious play, :func:`~exactpoker.solve.nplayer.indifference.fictitious_play`,
or a game's own guess) :func:`candidate_supports` lists the nearby supports
most plausible first; :func:`locate_equilibrium` solves each one's
indifference system exactly (:mod:`exactpoker.solve.nplayer.indifference`), screens
the solutions in floating point and certifies them exactly, and returns the
first certified equilibrium (a :class:`~exactpoker.solve.nplayer.point.CertifiedPoint`).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import product
from typing import Iterable, Iterator, Sequence

import numpy as np

from exactpoker.core.compiled import CompiledGame
from exactpoker.core.support_system import FREE, Support, Ties
from exactpoker.errors import CertificationError
from exactpoker.solve.algebra.polynomial_system import Family, Solved, unit_box_corners
from exactpoker.solve.nplayer.indifference import (CompiledModel, as_model, behaviour_of, indifference_system,
                                                   solve_indifference)
from exactpoker.solve.nplayer.point import CertifiedPoint

__all__ = ["candidate_supports", "tie_support", "box_family", "locate_equilibrium"]


def candidate_supports(
    guide: Sequence[np.ndarray], ties: Ties | None = None, *, margin: float = 0.005, free_cost: float = 0.3,
    max_ambiguous: int = 8,
) -> Iterator[Support]:
    """Supports near a float guide, most plausible first.

    A variable whose guide value is within ``margin`` of 0 or 1 is fixed
    there.  Each of the others (the *ambiguous* ones; at most
    ``max_ambiguous``, those nearest 1/2 kept) may be fixed at 0, at 1, or
    left free; a support costs the sum over ambiguous variables of the
    distance from the guide value to the fixed one (``free_cost`` for free).
    Tied variables (``ties``) follow their representative.
    """
    ties = ties or {}
    rows = [np.asarray(x, float) for x in guide]
    base = [[0 if v < 0.5 else 1 for v in row] for row in rows]
    ambiguous = [(p, h) for p, row in enumerate(rows) for h, v in enumerate(row)
                 if margin < v < 1 - margin and (p, h) not in ties]
    ambiguous = sorted(ambiguous, key=lambda key: abs(rows[key[0]][key[1]] - 0.5))[:max_ambiguous]
    options = []
    for p, h in ambiguous:
        v = rows[p][h]
        options.append([(abs(v - 0), 0), (abs(v - 1), 1), (free_cost, FREE)])
    combos = sorted(product(*options), key=lambda combo: sum(cost for cost, _ in combo)) if options else [()]
    for combo in combos:
        support = [list(row) for row in base]
        for (p, h), (_cost, value) in zip(ambiguous, combo):
            support[p][h] = value
        yield tie_support(tuple(tuple(row) for row in support), ties)


def tie_support(support: Support, ties: Ties) -> Support:
    """``support`` with every tied information set following its representative."""
    rows = [list(row) for row in support]
    for (p, h), (q, k) in ties.items():
        rows[p][h] = rows[q][k]
    return tuple(tuple(row) for row in rows)


def box_family(solved: Solved) -> Family | None:
    """The family of a support's solutions with its corners in ``[0, 1]`` as candidate vertices, or None."""
    family = solved.family
    return None if family is None else replace(family, vertices=unit_box_corners(family))


def locate_equilibrium(
    compiled: "CompiledGame | CompiledModel",
    guide: Sequence[np.ndarray],
    *,
    ties: Ties | None = None,
    max_supports: int = 300,
    supports: Iterable[Support] | None = None,
) -> CertifiedPoint:
    """A certified equilibrium on a support near the float ``guide`` (with its support, system and family).

    The supports of :func:`candidate_supports` are tried in order (or, when
    given, those of ``supports``: e.g. a game's own list of plausible shapes;
    ``guide`` is then unused).  On each
    the indifference system is solved exactly (the engine's one solver, :func:`~exactpoker.solve.nplayer.indifference.solve_indifference`); every
    solution in ``[0, 1]`` (for a family: every corner) is screened in floating
    point and then certified exactly (:func:`exactpoker.certify.verify`, or
    the model's own exact check: ``compiled`` may be a model such as
    :class:`~exactpoker.solve.structure.ordered_games.OrderedModel`).  With ``ties`` (``(player, infoset) -> (player, infoset)``) only profiles
    in which tied sets share their probability are searched.

    Raises
    ------
    CertificationError
        If none of the first ``max_supports`` supports gives a certified equilibrium.
    """
    model = as_model(compiled)
    ties = ties or {}
    tolerance = 1e-9 * model.scale
    seen: set[Support] = set()
    tried = candidate_supports(guide, ties) if supports is None else supports
    for round_, support in enumerate(tried, start=1):
        if round_ > max_supports:
            break
        if support in seen:
            continue
        seen.add(support)
        system = indifference_system(model, support, ties)
        solved = solve_indifference(system)
        family = box_family(solved)
        candidates = family.vertices if family is not None else solved.points
        for values in candidates:
            behaviour = behaviour_of(support, system, values)
            floats = [np.array([float(v) for v in row]) for row in behaviour]
            gaps = model.float_gaps(floats)
            regret = max(float(np.max(np.maximum(g, 0) * (1 - x) + np.maximum(-g, 0) * x))
                         for g, x in zip(gaps, floats))
            if regret > tolerance:
                continue
            profile, certificate = model.certify(behaviour)
            if certificate.holds:
                return CertifiedPoint(profile, certificate, support=support, family=family, system=system,
                                      rounds=round_)
    raise CertificationError("indifference solver: no certified equilibrium on the supports near the guide")
