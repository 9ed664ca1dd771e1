"""Every optimal strategy of a zero-sum game, exactly: Kuhn poker's one-parameter family (Kuhn 1950)."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.certify import verify
from exactpoker.core.profile import realization_weights
from exactpoker.core.tree import compile_tree
from exactpoker.errors import NotZeroSumError
from exactpoker.solve import solve_game
from exactpoker.solve.lp.optimal_set import optimal_set
from exactpoker.solve.lp.zerosum import behaviour_profile_of_plans
from tests.example_games import kuhn_tree, matrix_tree


def test_kuhn_first_player_family():
    compiled = compile_tree(kuhn_tree())
    family = optimal_set(compiled, 0, Fraction(-1, 18))
    assert family.dimension == 1
    ends = family.behaviours(compiled.layouts[0])
    # The literature: bet J with alpha in [0, 1/3], K with 3 alpha, call with Q after check-bet with alpha + 1/3.
    alphas = sorted(vertex["J"][1] for vertex in ends)
    assert alphas == [0, Fraction(1, 3)]
    for vertex in ends:
        alpha = vertex["J"][1]
        assert vertex["K"][1] == 3 * alpha
        assert vertex["Qpb"][1] == alpha + Fraction(1, 3)
        assert vertex["Q"][1] == 0 and vertex["Jpb"][1] == 0


def test_kuhn_second_player_is_unique():
    compiled = compile_tree(kuhn_tree())
    family = optimal_set(compiled, 1, Fraction(1, 18))
    assert family.dimension == 0 and len(family.vertices) == 1
    [vertex] = family.behaviours(compiled.layouts[1])
    assert vertex["Jb"] == [1, 0] and vertex["Kb"] == [0, 1] and vertex["Qp"] == [1, 0]
    assert vertex["Qb"] == [Fraction(2, 3), Fraction(1, 3)] and vertex["Jp"] == [Fraction(2, 3), Fraction(1, 3)]


def test_family_through_the_dispatcher():
    result = solve_game(compile_tree(kuhn_tree()), family=True)
    families = result.details["optimal strategies"]
    assert families["P1"]["dimension"] == 1 and families["P2"]["dimension"] == 0


def test_family_needs_zero_sum():
    game = compile_tree(matrix_tree([[(1, 1), (0, 0)], [(0, 0), (1, 1)]]))
    with pytest.raises(NotZeroSumError):
        optimal_set(game, 0, Fraction(1, 2))


matrices = st.lists(st.lists(st.integers(-3, 3), min_size=2, max_size=3), min_size=2, max_size=3).filter(
    lambda m: len({len(r) for r in m}) == 1)


@settings(deadline=None, max_examples=15)
@given(matrices)
def test_every_vertex_is_optimal_and_the_solver_lies_in_the_hull(matrix):
    """Each vertex with the opponent's equilibrium strategy certifies; the LP's answer is in the hull."""
    compiled = compile_tree(matrix_tree([[(v, -v) for v in row] for row in matrix]))
    result = solve_game(compiled)
    value = result.equilibria[0].values[0]
    found = result.equilibria[0].profile
    family = optimal_set(compiled, 0, Fraction(int(value.p), int(value.q)))
    other = found.realization(compiled, 1)
    for plan in family.vertices:
        profile = behaviour_profile_of_plans(compiled, [list(plan), other])
        assert verify(compiled, profile).holds
    # The row player's mixed strategy is a convex combination of the vertices: check with an exact LP.
    from exactpoker.solve.lp.simplex import solve_lp

    plan = realization_weights(compiled.layouts[0], found.strategies[0])
    size = len(family.vertices)
    rows = [[v[k] for v in family.vertices] for k in range(len(plan))] + [[1] * size]
    solve_lp([0] * size, A_eq=rows, b_eq=list(plan) + [1])  # raises InfeasibleError if outside
