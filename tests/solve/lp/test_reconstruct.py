"""Rational reconstruction of the optimal vertex from HiGHS's floats (exactpoker.solve.lp.reconstruct).

Cross-checked against the exact block solve of the same basis: where the
reconstruction is accepted it gives the same numbers; a wrong guess is never
accepted (the exact checks reject it) and the exact solve answers instead.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.core.tree import compile_tree
from exactpoker.games.library import game
from exactpoker.solve.lp.basis import solve_from_basis
from exactpoker.solve.lp.float_guide import float_optimum
from exactpoker.solve.lp.reconstruct import reconstructed_optimum
from exactpoker.solve.lp.sequence_form import standard_lp


def _lp_and_optimum(name: str, **options):
    lp = standard_lp(compile_tree(game(name, **options)))
    return lp, float_optimum(lp)


@pytest.mark.parametrize("name,options", [("kuhn", {}), ("ladder", {"n": 20, "sizes": (1, 2)}), ("kuhn", {"ante": 2})])
def test_the_reconstruction_is_the_exact_solve_of_the_basis(name, options):
    lp, found = _lp_and_optimum(name, **options)
    primal, duals = reconstructed_optimum(lp, found.columns, found.rows, found.values, found.duals)
    exact = solve_from_basis(lp, found.columns, found.rows)  # the block solve, no guess
    assert primal == exact.primal and duals == exact.duals
    quick = solve_from_basis(lp, found.columns, found.rows, guess=(found.values, found.duals))
    assert (quick.primal, quick.duals, quick.objective, quick.pivots) == (exact.primal, exact.duals, exact.objective, 0)


def test_large_denominators_are_left_to_the_exact_solve():
    lp, found = _lp_and_optimum("leduc", ranks=3)  # the value of Leduc has a 31-digit denominator
    assert reconstructed_optimum(lp, found.columns, found.rows, found.values, found.duals) is None
    exact = solve_from_basis(lp, found.columns, found.rows)
    assert solve_from_basis(lp, found.columns, found.rows, guess=(found.values, found.duals)) == exact


@settings(deadline=None, max_examples=25)
@given(st.data())
def test_a_wrong_guess_is_never_accepted(data):
    """One value or multiplier moved by a small fraction: an exact check fails, the exact solve answers."""
    lp, found = _lp_and_optimum("ladder", n=20, sizes=(1, 2))
    values, duals = found.values.copy(), found.duals.copy()
    moved = values if data.draw(st.booleans()) else duals
    where = found.columns if moved is values else [i for i in range(lp.num_rows) if i not in set(found.rows)]
    k = data.draw(st.sampled_from(where))
    moved[k] += float(data.draw(st.sampled_from([Fraction(1, 7), Fraction(-1, 3), Fraction(1, 1000)])))
    assert reconstructed_optimum(lp, found.columns, found.rows, values, duals) is None
    exact = solve_from_basis(lp, found.columns, found.rows)
    assert solve_from_basis(lp, found.columns, found.rows, guess=(values, duals)) == exact


def test_a_basis_that_is_not_optimal_is_not_accepted():
    """The exact vertex of a basis HiGHS found for another objective, with its multipliers: the checks refuse it."""
    import dataclasses

    lp = standard_lp(compile_tree(game("kuhn")))
    tilted = dataclasses.replace(lp, cost={1: -3, 2: 3, 6: 3, **lp.cost})
    found = float_optimum(tilted)
    assert solve_from_basis(lp, found.columns, found.rows, max_pivots=200).pivots > 0  # not optimal for Kuhn's LP
    exact_tilted = solve_from_basis(tilted, found.columns, found.rows)  # its exact vertex and multipliers
    guess = (np.array([float(v) for v in exact_tilted.primal]), np.array([float(v) for v in exact_tilted.duals]))
    assert reconstructed_optimum(tilted, found.columns, found.rows, *guess) is not None  # right for the tilted LP
    assert reconstructed_optimum(lp, found.columns, found.rows, *guess) is None
