"""The structured solver of games decided by the higher card (exactpoker.solve.structure.sign_games).

Cross-checks against the generic machinery: the prefix-sum certificate equals
exactpoker.certify.verify on any profile (equilibrium or not), for von Neumann
poker (two actions), Newman poker (one decision of II per bet size) and a
tree where two of I's actions lead to the same decision of II; and the
structured card-by-card LP gives the generic sequence-form LP's value.
"""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.certify import verify
from exactpoker.core import BehaviourProfile, BettingGame, Decision, Deck, Outcome, compile_game
from exactpoker.games.papers import newman, von_neumann
from exactpoker.solve import solve_game
from exactpoker.solve.structure.sign_games import SignProfile, certify_sign_game, sign_game
from exactpoker.solve.lp.sign_games_lp import solve_sign_game
from exactpoker.solve.enumeration.sign_games_pure import pure_equilibria
from exactpoker.solve.lp.zerosum import solve_zero_sum
from tests.strategies import bets, probabilities


def _generic_certificate(n, b, bet, call):
    g = von_neumann.compiled(n, b)
    return verify(g, BehaviourProfile.from_tables(g, [{"open": bet}, {"facing a bet": call}]))


@settings(max_examples=40, deadline=None)
@given(st.data(), st.integers(min_value=2, max_value=9), bets)
def test_prefix_sum_certificate_is_the_generic_one(data, n, b):
    bet = data.draw(st.lists(probabilities, min_size=n, max_size=n))
    call = data.draw(st.lists(probabilities, min_size=n, max_size=n))
    structured = certify_sign_game(sign_game(von_neumann.game(n, b)), SignProfile.binary(bet, call))
    assert structured == _generic_certificate(n, b, bet, call)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=2, max_value=40), bets)
def test_structured_lp_equals_generic_sequence_form_lp(n, b):
    fast = von_neumann.equilibrium(n, b)
    generic = von_neumann.equilibrium(n, b, method="lp")
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
    profile, certificate = solve_sign_game(g)
    assert certificate.holds
    k = next(i for i, (_, p) in enumerate(profile.p) if p == 1)
    worse = list(profile.p)
    worse[k] = (Fraction(1, 2), Fraction(1, 2))
    assert not certify_sign_game(g, SignProfile(tuple(worse), profile.q)).holds


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
    separable = solve_game(von_neumann.compiled(n, b), all_pure=True)  # no rules: the compiled game's enumeration
    assert separable.method == "pure-enumeration (best responses, exact)"
    assert _pairs(fast) == [tuple([row[1] for row in eq.strategies[p].values()] for p in ("I", "II"))
                            for eq in separable.equilibria]
    if n <= 7:
        assert _pairs(fast) == _pairs(von_neumann.pure_equilibria(n, b, method="strategic"))
    for eq in fast.equilibria:  # the prefix-sum certificate used here is the general one
        assert eq.certificate == _generic_certificate(n, b, eq.strategies["I"], eq.strategies["II"])


def _shared_label_game(n, stake):
    """I checks, bets 1 or bets ``stake``; after either bet II folds or calls at the same decision."""
    def bet(size):
        return Decision(1, "facing", (("fold", Outcome((1 + size, 1), (0,))), ("call", Outcome((1 + size, 1 + size), (0, 1)))))
    root = Decision(0, "open", (("check", Outcome((1, 1), (0, 1))), ("small", bet(1)), ("big", bet(stake))))
    return BettingGame("shared", Deck(n), root, ("I", "II"), ())


_SHAPES = [lambda n, b: newman.game(n, b.numerator % 4 + 1), lambda n, b: _shared_label_game(n, b)]


@settings(max_examples=40, deadline=None)
@given(st.data(), st.integers(min_value=2, max_value=7), bets, st.sampled_from(range(len(_SHAPES))))
def test_prefix_sum_certificate_is_the_generic_one_for_many_actions(data, n, b, shape):
    rules = _SHAPES[shape](n, b)
    g = sign_game(rules)
    rows = data.draw(st.lists(st.lists(st.integers(0, 4), min_size=g.num_actions, max_size=g.num_actions)
                              .filter(any), min_size=n, max_size=n))
    p = tuple(tuple(Fraction(x, sum(row)) for x in row) for row in rows)
    q = tuple(tuple(data.draw(st.lists(probabilities, min_size=n, max_size=n))) for _ in g.labels)
    profile = SignProfile(p, q)
    compiled = compile_game(rules)
    assert certify_sign_game(g, profile) == verify(compiled, BehaviourProfile.from_tables(compiled, profile.tables(g)))


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=2, max_value=14), bets, st.sampled_from(range(len(_SHAPES))))
def test_structured_lp_equals_generic_sequence_form_lp_for_many_actions(n, b, shape):
    rules = _SHAPES[shape](n, b)
    g = sign_game(rules)
    profile, certificate = solve_sign_game(g)
    compiled = compile_game(rules)
    assert certificate == verify(compiled, BehaviourProfile.from_tables(compiled, profile.tables(g)))
    assert certificate.holds and certificate.payoffs[0] == solve_zero_sum(compiled)[1].payoffs[0]


def test_newman_structured_equals_the_papers_lp():
    for n, b in ((3, 1), (5, 3), (7, 2)):
        assert newman.equilibrium(n, b).value == newman.equilibrium(n, b, method="per-card").value


def test_pure_enumeration_needs_two_actions():
    with pytest.raises(ValueError, match="two actions"):
        pure_equilibria(sign_game(newman.game(4, 2)))
