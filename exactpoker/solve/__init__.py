"""The solvers: one pipeline from a game to certified equilibria (the map of ``docs/architecture.md``).

rules -> representation -> compiled game (+ structure) -> guide -> support -> exact finish -> certificate

Doors (every command ends here)
    :func:`~exactpoker.solve.dispatch.solve_loaded`, the one entry point of ``exactpoker solve GAME`` and of
    :func:`~exactpoker.solve.dispatch.solve_game` (any game, made a :class:`~exactpoker.solve.loaded.LoadedGame`
    by :func:`~exactpoker.solve.loaded.as_loaded`: rules that load themselves, e.g. Liar's Dice, by the
    :class:`~exactpoker.solve.loaded.SelfLoadingRules` protocol): the game's own path, else compile, guard,
    :func:`~exactpoker.solve.dispatch.solve_compiled` (the method from the compiled game's shape),
    :func:`~exactpoker.solve.rules.solve_rules` (a paper's card game: structure detected from its rules
    before anything is compiled), :func:`~exactpoker.solve.structured_tree.solve_structured_tree` (a tree
    that is such a game: its rules recovered by :mod:`~exactpoker.solve.card_structure`; a poker-language
    game's read from its rules by :mod:`~exactpoker.solve.poker_structure`),
    :func:`~exactpoker.solve.parametric_game.solve_over` (``--over``).

Structure
    :mod:`~exactpoker.solve.structured` (the structured paths of a one-card game's rules),
    :mod:`~exactpoker.solve.sign_games` (two players, decided by the higher card: O(n)),
    :mod:`~exactpoker.solve.ordered_games` (three players, decided by the order of the cards: O(n)) and
    :mod:`~exactpoker.solve.ordered_solve` (its support search: symmetry detected, the rules' guide),
    :mod:`~exactpoker.solve.dominance` (actions range-dominated in the rules, fixed before the guide);
    the binary form of larger information sets is :mod:`exactpoker.core.binary_form`.

Lossless abstraction (two-player game trees, before the solve)
    :mod:`~exactpoker.solve.symmetry` (the game's automorphisms: colour refinement, individualisation,
    each candidate checked exactly) and :mod:`~exactpoker.solve.abstraction` (the orbits merged, the answer
    lifted back); the size after it from the rules: :func:`exactpoker.core.poker_size.suit_isomorphic_size`.

Two players, zero-sum: the sequence-form LP
    :mod:`~exactpoker.solve.sequence_form` (the LP), :mod:`~exactpoker.solve.float_guide` (guide: HiGHS),
    :mod:`~exactpoker.solve.zerosum` (support, basis or simplex path), :mod:`~exactpoker.solve.support`
    and :mod:`~exactpoker.solve.basis` (exact finish from the support or the basis),
    :mod:`~exactpoker.solve.sparse_exact` (exact sparse LU), :mod:`~exactpoker.solve.simplex` (exact
    simplex), :mod:`~exactpoker.solve.sign_games_lp` (the O(n) LP), :mod:`~exactpoker.solve.optimal_set`.

Two players, general-sum
    :mod:`~exactpoker.solve.lemke` (sequence-form Lemke, exact).

Three or more players: :mod:`~exactpoker.solve.nplayer`, one staged entry point
    dominance -> guide (the gains of :mod:`~exactpoker.solve.gain_system` followed by
    :mod:`~exactpoker.solve.continuation`) -> support and exact finish
    (:mod:`~exactpoker.solve.support_solve` on the square system of
    :mod:`~exactpoker.solve.square_system`: rational, algebraic by :mod:`~exactpoker.solve.elimination`
    and :mod:`~exactpoker.solve.algebraic_roots`, else an isolating box by
    :mod:`~exactpoker.solve.krawczyk`, proved by :mod:`exactpoker.certify_balls`, left-out gains by the
    identities of :mod:`exactpoker.polynomial_combination`) -> certificate;
    segments of equilibria: :mod:`~exactpoker.solve.indifference`.

Every equilibrium (``--all``) and every pure one (``--all-pure``)
    two players: :mod:`~exactpoker.solve.all_equilibria` over
    :mod:`~exactpoker.solve.vertex_enumeration` and :mod:`~exactpoker.solve.convex_sets`; more players:
    :mod:`~exactpoker.solve.support_enumeration` over :mod:`~exactpoker.solve.support_systems` and
    :mod:`~exactpoker.solve.support_decide`; pure: :mod:`~exactpoker.solve.pure`,
    :func:`~exactpoker.solve.nplayer.pure_equilibria_n`, :mod:`~exactpoker.solve.sign_games_pure`.

Over a parameter (``--over``)
    :mod:`~exactpoker.solve.parametric_game` (pieces, maximum) over :mod:`~exactpoker.solve.parametric_lp`
    (an LP polynomial in r: bases over Q(r)) and :mod:`~exactpoker.solve.sign_intervals`;
    :mod:`~exactpoker.solve.parametric` (matrix games), :mod:`~exactpoker.solve.parametric_branch`
    (N players: certified points of a continuation branch).

Continuous decks (``solve GAME --continuous``)
    :mod:`exactpoker.solve.continuous`: one-card rules with hands uniform on [0, 1]; the shape read from
    exact finite decks solved by this pipeline, its exact system, a certificate at every hand.

Regions and boxes
    :mod:`~exactpoker.solve.open_box`, :mod:`~exactpoker.solve.box_exclusion`,
    :mod:`~exactpoker.solve.multilinear_region`, :mod:`~exactpoker.solve.multilinear_box` (vertex values and
    strict signs of integer multilinear polynomials on a 0/1 box: the case search of seed 001 section 6).

Certificates live beside the solvers and import none: :mod:`exactpoker.certify` (exact),
:mod:`exactpoker.certify_sequential` (sequential), :mod:`exactpoker.certify_balls` (an isolating box).
"""

__all__ = ["solve_game"]


def __getattr__(name: str) -> object:
    """``solve_game``, the one public way in, imported on first use (``import exactpoker.solve`` stays light)."""
    if name == "solve_game":
        from exactpoker.solve.dispatch import solve_game

        return solve_game
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
