"""Pure-equilibrium enumeration: the separable fast path against brute force."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.errors import InvalidParameterError
from exactpoker.games import von_neumann
from exactpoker.solve.enumeration.pure import matrix_pure_equilibria, pure_equilibria, strategic_form
from tests.strategies import bets


@settings(deadline=None, max_examples=30)
@given(n=st.integers(2, 7), b=bets)
def test_separable_equals_brute_force(n, b):
    g = von_neumann.compiled(n, b)
    assert pure_equilibria(g, method="separable") == pure_equilibria(g, method="brute-force")


def test_brute_force_matches_strategic_form_definition():
    g = von_neumann.compiled(4, 1)
    rows, cols, m1, m2 = strategic_form(g)
    assert m1.shape == (16, 16)
    assert np.all(m1 == -m2)
    cells = matrix_pure_equilibria(m1, m2)
    for i, j in cells:
        assert m1[i, j] == m1[:, j].max() and m2[i, j] == m2[i, :].max()


def test_matrix_pure_equilibria_on_a_known_bimatrix():
    # prisoner's dilemma: (defect, defect) only
    m1 = np.array([[3, 0], [5, 1]])
    m2 = np.array([[3, 5], [0, 1]])
    assert matrix_pure_equilibria(m1, m2) == [(1, 1)]


def test_payoffs_are_exact_fractions():
    found = pure_equilibria(von_neumann.compiled(7, 2))
    assert {p.payoffs for p in found} == {(Fraction(2, 21), Fraction(-2, 21))}


def test_separable_refuses_games_with_repeated_own_moves():
    from exactpoker.core import BettingGame, Decision, Deck, Outcome, compile_game

    leaf = Outcome((1, 1), (0, 1))
    again = Decision(0, "again", (("a", leaf), ("b", leaf)))
    root = Decision(0, "open", (("x", again), ("y", leaf)))
    g = compile_game(BettingGame("repeat", Deck(2), root, ("I", "II")))
    with pytest.raises(InvalidParameterError, match="brute-force"):
        pure_equilibria(g, method="separable")
    assert len(pure_equilibria(g)) == 2**4 * 1  # every pure strategy of I is optimal, II has none
