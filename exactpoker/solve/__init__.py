"""The solvers, from any compiled game to certified equilibria.

Entry point
    :mod:`~exactpoker.solve.dispatch` -- :func:`~exactpoker.solve.dispatch.solve_compiled`
    picks the method from the compiled game's shape and certifies every answer.

Two players, zero-sum (von Stengel's sequence form)
    :mod:`~exactpoker.solve.sequence_form` (the LP), :mod:`~exactpoker.solve.zerosum`
    (support, basis or simplex path), :mod:`~exactpoker.solve.float_guide` (HiGHS),
    :mod:`~exactpoker.solve.support` and :mod:`~exactpoker.solve.basis` (exact point from the
    guide's support or optimal basis), :mod:`~exactpoker.solve.sparse_exact` (exact sparse LU),
    :mod:`~exactpoker.solve.simplex` (exact simplex, the fallback),
    :mod:`~exactpoker.solve.sign_games` (games whose payoffs depend on which card is higher:
    O(n) structure; their LP in :mod:`~exactpoker.solve.sign_games_lp`, their pure equilibria in
    :mod:`~exactpoker.solve.sign_games_pure`), :mod:`~exactpoker.solve.optimal_set` (every optimal strategy).

Two players, general-sum
    :mod:`~exactpoker.solve.lemke` (Lemke's method on the sequence form, exact).

Every equilibrium of a two-player game (``solve --all``)
    :mod:`~exactpoker.solve.all_equilibria` (the best-response polytopes of the sequence form, their
    complementary vertices; zero-sum: the products of the optimal sets), over
    :mod:`~exactpoker.solve.vertex_enumeration` (exact lexicographic pivoting) and
    :mod:`~exactpoker.solve.convex_sets` (the maximal convex sets as maximal bicliques).

Pure equilibria
    :mod:`~exactpoker.solve.pure` (two players), :func:`~exactpoker.solve.nplayer.pure_equilibria_n`
    (any number).

Three or more players: one staged entry point, :mod:`~exactpoker.solve.nplayer`
    guide (:mod:`~exactpoker.solve.continuation`: the regularised system, arc-length
    continuation) -> support -> exact finish (:mod:`~exactpoker.solve.support_solve`: rational,
    then algebraic via :mod:`~exactpoker.solve.elimination` and
    :mod:`~exactpoker.solve.algebraic_roots`, then an isolating box by
    :mod:`~exactpoker.solve.krawczyk`) -> certificate.  Seed 003's three-player Kuhn poker
    (:mod:`exactpoker.games.kuhn3`) runs the same stages; seed 000's three-player poker uses the
    indifference systems of :mod:`~exactpoker.solve.indifference` (segments of equilibria), whose
    support search sees the game through a model: the compiled game, or
    :mod:`~exactpoker.solve.ordered_games` (games decided by the order of the cards, O(n)).

Every equilibrium, three or more players (issue 28)
    :mod:`~exactpoker.solve.support_enumeration` (every support a task, the list proved complete)
    over :mod:`~exactpoker.solve.support_systems` (a support's exact system in realization weights)
    and :mod:`~exactpoker.solve.support_decide` (Groebner bases, exact roots, families, box exclusion).

Regions of parameters
    :mod:`~exactpoker.solve.parametric` (the value piecewise in a parameter),
    :mod:`~exactpoker.solve.open_box` (algebra on a box), :mod:`~exactpoker.solve.box_exclusion`
    (proved bisection), :mod:`~exactpoker.solve.multilinear_region` (regions of free coefficients).
"""
