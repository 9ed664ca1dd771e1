"""The structure of a support's indifference system (issue 41): the free variables of a family and the rank of
the rest, which the regret route's failure reports (:func:`support_newton.support_structure`)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.core.binary_form import binary_form
from exactpoker.core.sequence_walk import SequenceWalk
from exactpoker.core.tree import compile_tree
from exactpoker.games import library
from exactpoker.solve.nplayer.gain_system import GainSystem
from exactpoker.solve.nplayer.regret import minimise_regret
from exactpoker.solve.nplayer.support_newton import _State, complete, support_structure


def purified(walk, iterations, threshold):
    run = minimise_regret(walk, iterations=iterations, check_every=iterations)
    x = np.concatenate([pi[walk.firsts(p) + 1] for p, pi in enumerate(run.average)])
    x = complete(walk, np.where(x < threshold, 0.0, np.where(x > 1 - threshold, 1.0, x)))
    return x, _State.of(walk, x, np.arange(len(x))).interior


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_at_a_generic_point_nothing_is_free_and_the_rank_is_the_per_product_systems(seed):
    """Every variable mixed at a random point of three-player Kuhn poker: the rank is the independent dense
    Jacobian's (:class:`GainSystem`)."""
    game = binary_form(compile_tree(library.game("kuhn3"))).game
    walk, system = SequenceWalk(game), GainSystem.from_game(game)
    x = np.random.default_rng(seed).uniform(0.05, 0.95, system.num_vars)
    structure = support_structure(walk, x, np.arange(system.num_vars))
    _f, jacobian, _ = system.evaluate(x, 0.0)
    assert structure.free == () and structure.mixed == system.num_vars
    assert structure.rank == np.linalg.matrix_rank(jacobian, tol=1e-10 * np.linalg.norm(jacobian, 2))


def test_a_free_variable_of_three_player_leduc_moves_no_mixed_gain():
    """Three-player Leduc poker on two ranks, no suits, purified after 1000 DCFR iterations: some mixed choices are
    free (a family); each gain is affine in each single variable, so setting a free one anywhere in [0, 1] leaves
    every mixed gain where it was, and its own at zero."""
    game = binary_form(compile_tree(library.game("leduc", players=3, ranks=2, suits=False))).game
    walk = SequenceWalk(game)
    x, interior = purified(walk, 1000, 1e-3)
    structure = support_structure(walk, x, interior)
    assert structure.free and structure.rank is not None and structure.rank <= structure.mixed - len(structure.free)
    before = walk.gains(x)[interior]
    for k in structure.free:
        for value in (0.0, 1.0):
            moved = x.copy()
            moved[k] = value
            assert np.allclose(walk.gains(moved)[interior], before, atol=1e-12)
    assert str(structure).startswith(f"{len(interior)} mixed: {len(structure.free)} free, rank {structure.rank} of")
