"""The continuous-deck engine: one-card betting rules with hands uniform on [0, 1], solved and certified exactly.

``exactpoker solve GAME --continuous`` and :func:`solve_continuous` (issue 40).  The map, stage by stage:

rules -> model
    :mod:`~exactpoker.solve.continuous.model`: the betting tree as information sets ``(player, label)``
    and leaves (steps, contributions, who is still in); the parameters as symbols for ``--over``.
shape from finite decks
    :mod:`~exactpoker.solve.continuous.readings` (the same rules on cards ``1..n``, solved exactly by
    :func:`exactpoker.solve.solve_game`, read card by card) and
    :mod:`~exactpoker.solve.continuous.shapes` (runs of cards -> segments of hands -> cut points
    ``~ k/n``; the variants a noisy reading calls for);
    :mod:`~exactpoker.solve.continuous.profile` (a shape, and a piecewise-constant profile).
piecewise payoffs
    :mod:`~exactpoker.solve.continuous.payoffs`: every action's expected payoff at every hand, an exact
    polynomial in the hand on each interval between cut points (degree ``N - 1``).
system
    :mod:`~exactpoker.solve.continuous.equations` (indifference at the cut points, identities on mixed
    segments) and :mod:`~exactpoker.solve.continuous.system` (the one door to the project's
    polynomial-system solver; families; solutions as functions of a parameter; a field's generator).
certificate
    :mod:`~exactpoker.solve.continuous.certificate` over :mod:`~exactpoker.solve.continuous.signs`:
    no action gains at any hand, by exact signs on every interval.
search
    :mod:`~exactpoker.solve.continuous.attempt` (one shape: solve, order, certify) and
    :mod:`~exactpoker.solve.continuous.engine` (decks, hypotheses, simplification; :func:`solve_continuous`).
answers
    :mod:`~exactpoker.solve.continuous.result` (intervals with exact ends, JSON, text),
    :mod:`~exactpoker.solve.continuous.families` (ties and free unknowns: where other members may lie),
    :mod:`~exactpoker.solve.continuous.over` (``--over``: pieces certified for every parameter value),
    :mod:`~exactpoker.solve.continuous.plot` (strategy diagrams, matplotlib on demand).

The deck itself is :mod:`exactpoker.core.continuous_deck`; the papers' presentations of its answers
are :mod:`exactpoker.continuous`.
"""

from exactpoker.solve.continuous.engine import NoCertifiedShape, solve_continuous

__all__ = ["solve_continuous", "NoCertifiedShape"]
