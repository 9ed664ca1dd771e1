"""Nash--Shapley three-person poker (seed 001): the paper's analysis on its rules (:mod:`exactpoker.games.nash_shapley`).

``payoffs``     sections 3-6: the 24 behaviour coefficients, the payoff polynomials and discriminants
                ``Delta_u = 16 dP/du``, the situations' reach (from the engine's one builder).
``cases``       condition (C), case by case: the branch-and-prune search and each case's system solved.
``equilibria``  the equilibrium points at one rational ``a/b``: the paper's systems (I), (II), the gap, the threat.
``exhaustive``  every case decided over the open unit box, so the list of points is proved complete.
``families``    a case whose coefficients are all free: its equilibrium points as an exact region.
``regions``     as functions of ``t = a/b``: system (I) in closed form, the ranges and their ends A1..A10.
``coalitions``  section 11: the characteristic function of the coalition game.
"""
