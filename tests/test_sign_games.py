"""The structured solver of games decided by the higher card (exactpoker.solve.sign_games).

Cross-checks against the generic machinery: the prefix-sum certificate equals
exactpoker.certify.verify on any profile (equilibrium or not), and the
structured card-by-card LP gives the generic sequence-form LP's value.
"""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.certify import verify
from exactpoker.core import BehaviourProfile, BettingGame, Decision, Deck, Outcome
from exactpoker.games import von_neumann
from exactpoker.solve.sign_games import certify_sign_game, sign_game, solve_sign_game
from tests.strategies import bets, probabilities


def _generic_certificate(n, b, bet, call):
    g = von_neumann.compiled(n, b)
    return verify(g, BehaviourProfile.from_tables(g, [{"open": bet}, {"facing a bet": call}]))


@settings(max_examples=40, deadline=None)
@given(st.data(), st.integers(min_value=2, max_value=9), bets)
def test_prefix_sum_certificate_is_the_generic_one(data, n, b):
    bet = data.draw(st.lists(probabilities, min_size=n, max_size=n))
    call = data.draw(st.lists(probabilities, min_size=n, max_size=n))
    structured = certify_sign_game(sign_game(von_neumann.game(n, b)), bet, call)
    assert structured == _generic_certificate(n, b, bet, call)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=2, max_value=40), bets)
def test_structured_lp_equals_generic_sequence_form_lp(n, b):
    fast = von_neumann.equilibrium(n, b)
    generic = von_neumann.equilibrium(n, b, method="generic")
    assert fast.value == generic.value
    eq = fast.equilibria[0]
    assert eq.certified and eq.certificate == _generic_certificate(n, b, eq.strategies["I"], eq.strategies["II"])


def test_large_deck_is_certified():
    r = von_neumann.equilibrium(2000, 2)
    eq = r.equilibria[0]
    assert eq.certified and eq.certificate.max_regret == 0
    assert 0 < r.value < Fraction(1, 9)  # the continuous game's value is b/((b+1)(b+4)) = 1/9 at b = 2


def test_a_rigged_profile_fails_the_certificate():
    g = sign_game(von_neumann.game(30, 2))
    bet, call, certificate = solve_sign_game(g)
    assert certificate.holds
    k = next(i for i, p in enumerate(bet) if p == 1)
    worse = list(bet)
    worse[k] = Fraction(1, 2)
    assert not certify_sign_game(g, worse, call).holds


def test_other_trees_are_not_sign_games():
    fold = Outcome((1, 1), (0, 1))
    raise_ = Decision(0, "again", (("a", fold), ("b", fold)))
    deep = Decision(0, "open", (("check", fold), ("bet", Decision(1, "r", (("x", fold), ("y", raise_))))))
    assert sign_game(BettingGame("deep", Deck(4), deep, ("I", "II"), ())) is None
    assert sign_game(BettingGame("ties", Deck(4, replacement=True), von_neumann.game(4, 2).root, ("I", "II"), ())) is None
    assert sign_game(von_neumann.game(4, 2)) is not None


def _pairs(result):
    return [(eq.strategies["I"], eq.strategies["II"]) for eq in result.equilibria]


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=2, max_value=9), bets)
def test_prefix_count_pure_enumeration_equals_the_general_ones(n, b):
    fast = von_neumann.pure_equilibria(n, b)
    assert all(eq.certified for eq in fast.equilibria)
    assert _pairs(fast) == _pairs(von_neumann.pure_equilibria(n, b, method="separable"))
    if n <= 7:
        assert _pairs(fast) == _pairs(von_neumann.pure_equilibria(n, b, method="brute-force"))
    for eq in fast.equilibria:  # the prefix-sum certificate used here is the general one
        assert eq.certificate == _generic_certificate(n, b, eq.strategies["I"], eq.strategies["II"])
