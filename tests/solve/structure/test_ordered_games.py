"""The O(n) model of three-player games decided by the order of the cards (exactpoker.solve.structure.ordered_games).

Cross-checks against the generic machinery of the compiled game: the
prefix-sum certificate equals exactpoker.certify.verify and the float gaps
equal the compiled game's, on any profile; the support search through either
model finds the same certified equilibria.
"""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.certify import verify
from exactpoker.core import BettingGame, Decision, Deck, Outcome
from exactpoker.games.papers import three_player
from exactpoker.core.evaluate import float_gains as float_gaps
from exactpoker.solve.nplayer.indifference import CompiledModel, profile_from_behaviour
from exactpoker.solve.structure.ordered_games import OrderedModel, _pair_sums, certify_ordered, ordered_game
from tests.strategies import bets, probabilities


@settings(max_examples=30, deadline=None)
@given(st.data(), st.integers(min_value=3, max_value=8), bets)
def test_prefix_sum_certificate_and_gaps_are_the_generic_ones(data, n, b):
    behaviour = [data.draw(st.lists(probabilities, min_size=n, max_size=n)) for _ in range(3)]
    compiled = three_player.compiled(n, b)
    g = ordered_game(three_player.game(n, b))
    assert certify_ordered(g, behaviour) == verify(compiled, profile_from_behaviour(compiled, behaviour))
    floats = [np.array([float(v) for v in row]) for row in behaviour]
    for ours, theirs in zip(OrderedModel(g).float_gaps(floats), float_gaps(compiled, floats)):
        assert np.allclose(ours, theirs, rtol=1e-12, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-5, 5), min_size=3, max_size=9), st.lists(st.integers(-5, 5), min_size=3, max_size=9))
def test_pair_sums_split_every_pair_by_order(a, b):
    n = min(len(a), len(b))
    a, b = np.array(a[:n], dtype=object), np.array(b[:n], dtype=object)
    sums = _pair_sums(a, b)
    for c in range(n):
        for x in range(n):
            for y in range(n):
                if len({c, x, y}) == 3:
                    ranks = tuple(sorted((c, x, y)).index(v) for v in (c, x, y))
                    sums[ranks][c] -= a[x] * b[y]
    assert all(v == 0 for array in sums.values() for v in array)


def test_gap_polynomials_are_the_generic_ones_up_to_a_positive_factor():
    n, b = 7, Fraction(2)
    compiled = three_player.compiled(n, b)
    support = ((1, 1, 0, None, 0, 1, 1), (0, 0, 0, None, 1, 1, 1), (0, 0, 0, None, 1, 1, 1))
    ties = {(2, h): (1, h) for h in range(n)}
    ours, _, _ = OrderedModel(ordered_game(three_player.game(n, b))).gap_polynomials(support, ties)
    theirs, _, _ = CompiledModel(compiled).gap_polynomials(support, ties)
    for key in theirs:
        ratio = (ours[key] / theirs[key]).simplify()
        assert ratio.is_number and ratio > 0


def assert_same_equilibria(n, b):
    structured = three_player.equilibrium(n, b).to_dict()
    generic = three_player.equilibrium(n, b, method="generic").to_dict()
    for result in (structured, generic):
        for key in ("supports tried", "supports_tried"):  # the two float guides may order the candidates differently
            result["details"].pop(key)
    assert structured == generic


@pytest.mark.parametrize("b", ["1", "2", "3", "5/2"])
def test_structured_search_finds_the_generic_equilibria(b):
    for n in (3, 5, 8, 11, 14, 20):
        assert_same_equilibria(n, b)


@pytest.mark.slow
@pytest.mark.parametrize("b", ["1", "2", "3", "5/2"])
def test_structured_search_finds_the_generic_equilibria_every_deck_to_40(b):
    """Every deck n = 5..40 (the fictitious-play guide up to 12, the continuous cut points above)."""
    for n in range(5, 41):
        assert_same_equilibria(n, b)


def test_large_deck_is_certified():
    r = three_player.equilibrium(300, 2)
    eq = r.equilibria[0]
    assert eq.certified and r.details["II equals III"]
    assert 0 < eq.values[0] < Fraction(1, 4)


def test_other_trees_are_not_ordered_games():
    fold = Outcome((1, 1, 1), (0, 1, 2))
    two = Decision(1, "r", (("x", fold), ("y", fold)))
    assert ordered_game(BettingGame("two-moves", Deck(5), Decision(0, "o", (("a", fold), ("b", two))), ("I", "II", "III"), ())) is None
    assert ordered_game(BettingGame("ties", Deck(5, replacement=True), three_player.game(5, 1).root, ("I", "II", "III"), ())) is None
    assert ordered_game(three_player.game(5, 1)) is not None
