"""The label search (EEE) against the table of bases, Gambit's enummixed and the optimal sets; faces; refusals."""

from __future__ import annotations

import io
import random
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.certify import verify
from exactpoker.core.tree import compile_tree
from exactpoker.errors import InvalidParameterError
from exactpoker.formats import load_game
from exactpoker.formats.nfg import read_nfg
from exactpoker.solve.enumeration.two_player import LABEL_METHOD, all_equilibria_two_player
from exactpoker.solve.enumeration.label_branching import check_sizes, label_branching
from exactpoker.solve.enumeration.polytope_face import Face
from tests.example_games import kuhn_tree, matrix_tree


def extreme(found, compiled):
    """The extreme equilibria as realization plans, and each convex set as the set of its equilibria."""
    profiles = [(found.plans[0][i], found.plans[1][j]) for i, j in found.pairs]
    return set(profiles), {frozenset(profiles[k] for k in s.equilibria) for s in found.convex_sets}


def both_ways(compiled):
    by_table = all_equilibria_two_player(compiled, method="vertices", optimal_sets=False)
    by_labels = all_equilibria_two_player(compiled, method="labels", optimal_sets=False)
    assert by_labels.method == LABEL_METHOD
    assert all(verify(compiled, p).holds for p in by_labels.profiles(compiled))
    return extreme(by_table, compiled), extreme(by_labels, compiled)


@st.composite
def bimatrix(draw):
    """Small games, many degenerate (payoffs from a few values), as the table of bases handles them."""
    rows, columns = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    top = draw(st.sampled_from([1, 2, 3, 99]))
    cell = st.tuples(st.integers(0, top), st.integers(0, top))
    return [[draw(cell) for _ in range(columns)] for _ in range(rows)]


@settings(max_examples=60, deadline=None)
@given(bimatrix())
def test_random_bimatrix_games_equal_the_table_of_bases(cells):
    table, labels = both_ways(compile_tree(matrix_tree(cells)))
    assert labels == table


def test_ladder_poker_with_three_cards_and_a_rake_equals_the_table_of_bases():
    """A general-sum poker tree in sequence form (degenerate: unreached subtrees): same six extreme
    equilibria, same convex set, by both methods."""
    loaded = load_game("library:ladder(n=3,sizes=1,rake=1/10)")
    table, labels = both_ways(compile_tree(loaded.tree))
    assert labels == table and len(labels[0]) == 6


def test_kuhn_poker_by_labels_equals_its_optimal_sets():
    """A zero-sum tree: the product of the optimal sets (an LP method) against the label search."""
    compiled = compile_tree(kuhn_tree())
    by_sets = all_equilibria_two_player(compiled)
    by_labels = all_equilibria_two_player(compiled, optimal_sets=False, method="labels")
    assert extreme(by_labels, compiled) == extreme(by_sets, compiled)


@pytest.mark.slow
def test_ladder_poker_with_four_cards_equals_the_table_of_bases():
    loaded = load_game("library:ladder(n=4,sizes=1,rake=1/10)")
    table, labels = both_ways(compile_tree(loaded.tree))
    assert labels == table


def _random_nfg(n: int, seed: int) -> str:
    rng = random.Random(seed)
    payoffs = " ".join(f"{rng.randint(0, 99)} {rng.randint(0, 99)}" for _ in range(n * n))
    return f'NFG 1 R "random" {{ "I" "II" }} {{ {n} {n} }}\n\n{payoffs}\n'


def _enummixed(text: str) -> set:
    import pygambit as gbt

    game = gbt.read_nfg(io.StringIO(text))
    return {tuple(tuple(F(str(eq[s])) for s in player.strategies) for player in game.players)
            for eq in gbt.nash.enummixed_solve(game, rational=True).equilibria}


def _by_labels(text: str) -> set:
    compiled = compile_tree(read_nfg(text).tree)
    found = all_equilibria_two_player(compiled, method="labels")
    assert all(verify(compiled, p).holds for p in found.profiles(compiled))
    return {tuple(tuple(s[0]) for s in p.strategies) for p in found.profiles(compiled)}


@pytest.mark.gambit
@pytest.mark.parametrize("n, seed", [(6, 1), (7, 2), (8, 3)])
def test_random_games_equal_enummixed(n, seed):
    text = _random_nfg(n, seed)
    assert _by_labels(text) == _enummixed(text)


@pytest.mark.gambit
@pytest.mark.slow
def test_a_random_10_by_10_game_equals_enummixed():
    """enummixed takes about half a minute here (146 s at 12 x 12: the largest it is checked on)."""
    text = _random_nfg(10, 2010)
    assert _by_labels(text) == _enummixed(text)


@pytest.mark.slow
def test_a_random_15_by_15_game_past_the_table_of_bases_is_answered():
    """The table of bases refuses this game (26,041 bases); --all finds every extreme equilibrium by labels,
    each certified, and each convex set's equilibria are pairwise equilibria (the sets are bicliques)."""
    compiled = compile_tree(read_nfg(_random_nfg(15, 2025)).tree)
    found = all_equilibria_two_player(compiled)
    assert found.method == LABEL_METHOD and found.search is not None and found.bases[0] > 0
    assert all(verify(compiled, p).holds for p in found.profiles(compiled))
    assert len(found.pairs) > 0


def test_faces_force_require_and_tell_points():
    """The unit square {z1 + s1 = 1, z2 + s2 = 1}: forcing z1 and z2 leaves one point; z1 > 0 cannot be
    required once z1 is forced; a coordinate > 0 everywhere is found."""
    face = Face.of([[1, 0, 1, 0], [0, 1, 0, 1]], [1, 1])
    assert not face.is_point()
    assert face.positive_everywhere(0b1111) == 0
    corner = face.copy()
    assert corner.force(0) and corner.force(1) and corner.is_point()
    assert corner.point() == (0, 0, 1, 1)
    assert corner.positive_everywhere(0b1100) == 0b1100  # s1 = s2 = 1 on the whole (one-point) face
    assert not corner.copy().require(0)
    edge = face.copy()
    assert edge.force(0) and edge.require(1) and not edge.force(1)


def test_sizes_past_the_budget_are_refused_before_any_pivot():
    wide = [[1] * 800 for _ in range(400)]
    with pytest.raises(InvalidParameterError, match=r"exact pivots .* past the budget"):
        check_sizes(((wide, [1] * 400), (wide, [1] * 400)), 60)
    with pytest.raises(InvalidParameterError, match=r"past the budget"):
        label_branching(((wide, [1] * 400), (wide, [1] * 400)))
