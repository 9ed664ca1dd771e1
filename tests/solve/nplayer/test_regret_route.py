"""The N-player regret route (issue 41, items 1-2): the vectorised sequence-form walk, regret minimisation, the
purified play completed and polished, and the exact finish.

The walk is checked against the independent per-product evaluation (:class:`GainSystem`) and the exact
certificate; the route's answers are certified exactly like every other answer.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.certify import verify
from exactpoker.core.binary_form import binary_form
from exactpoker.core.sequence_walk import SequenceWalk
from exactpoker.core.tree import compile_tree
from exactpoker.errors import CertificationError, InvalidParameterError, NotZeroSumError
from exactpoker.games import library
from exactpoker.solve import solve_game
from exactpoker.solve.nplayer import pipeline, regret_route
from exactpoker.solve.nplayer.finish import profile_of
from exactpoker.solve.nplayer.gain_system import GainSystem
from exactpoker.solve.nplayer.regret import VARIANTS, minimise_regret
from exactpoker.solve.nplayer.support_newton import ZERO, complete, own_reach, payoff_mass, polish


def kuhn3():
    return binary_form(compile_tree(library.game("kuhn3"))).game


def kuhn3_cards(cards):
    return compile_tree(library.game("kuhn3") if cards == 3 else library.game("kuhn3", cards=cards, pot=Fraction(3)))


def variables(walk, pis):
    return np.concatenate([pi[walk.firsts(p) + 1] for p, pi in enumerate(pis)])


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([3, 4]))
def test_the_walks_gains_and_jacobian_equal_the_per_product_system(seed, cards):
    game = kuhn3() if cards == 3 else kuhn3_cards(cards)
    walk, system = SequenceWalk(game), GainSystem.from_game(game)
    x = np.random.default_rng(seed).random(system.num_vars)
    f, jacobian, _ = system.evaluate(x, 0.0)
    walked, walked_jacobian = walk.jacobian(x)
    assert np.allclose(walk.gains(x), f, atol=1e-13) and np.allclose(walked, f, atol=1e-13)
    assert np.allclose(walked_jacobian.toarray(), jacobian, atol=1e-13)
    reaches = [walk.realization(p, pi) for p, pi in enumerate(walk.behaviour_of(x))]
    for p, values in enumerate(walk.sequence_values(reaches)):
        assert np.allclose(walk.sequence_values_of(p, reaches), values, atol=1e-13)
    rows, columns = np.array([5, 1, 30]), np.array([40, 2, 17, 3])
    assert np.allclose(walk.jacobian(x, rows, columns)[1].toarray(), jacobian[np.ix_(rows, columns)], atol=1e-13)


@settings(max_examples=10, deadline=None)
@given(st.lists(st.fractions(0, 1, max_denominator=7), min_size=48, max_size=48))
def test_the_walks_regrets_are_the_exact_certificates(values):
    game = kuhn3()
    walk = SequenceWalk(game)
    certificate = verify(game, profile_of(game, values))
    regrets = walk.regrets(walk.behaviour_of(np.array([float(v) for v in values])))
    assert np.allclose(regrets, [float(check.regret) for check in certificate.checks], atol=1e-12)


def test_every_variant_approaches_the_equilibrium_of_two_player_kuhn_poker():
    """Two players, zero sum: there every variant's average converges (Zinkevich et al. 2007)."""
    walk = SequenceWalk(compile_tree(library.game("kuhn")))
    for variant in VARIANTS:
        run = minimise_regret(walk, variant=variant, iterations=1000, check_every=500)
        assert run.history[0][1] > run.nash_conv and run.nash_conv < 1e-2, variant
    with pytest.raises(InvalidParameterError, match="variant must be one of"):
        minimise_regret(walk, variant="cfr++")


def test_the_time_budget_holds_between_nash_conv_checks():
    """The clock is read every iteration, not only where nash_conv is checked (six-player Kuhn overran its 90 s
    budget by 15 s): 5000 iterations take far more than 0.05 s, and no check comes before the last one."""
    run = minimise_regret(SequenceWalk(kuhn3()), iterations=5000, check_every=5000, seconds=0.05)
    assert 0 < run.iterations < 5000


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_complete_plays_a_best_response_where_the_owner_never_goes_and_changes_nothing_else(seed):
    game = kuhn3()
    walk = SequenceWalk(game)
    rng = np.random.default_rng(seed)
    x = np.where(rng.random(48) < 0.4, rng.integers(0, 2, 48).astype(float), rng.random(48))
    done = complete(walk, x)
    reached = own_reach(walk, x) > 0
    assert np.array_equal(done[reached], x[reached])
    before, after = walk.regrets(walk.behaviour_of(x)), walk.regrets(walk.behaviour_of(done))
    assert np.all(after <= before + 1e-12)  # a best response off the own path never hurts its owner
    gains = walk.gains(done)
    unreached = ~reached
    assert np.all(done[unreached & (gains > 1e-12)] == 1.0) and np.all(done[unreached & (gains < -1e-12)] == 0.0)


def test_polish_gives_a_float_solution_of_condition_one():
    """Seed 003's condition (1) at the polished point: interior gains zero, ends with gains of the right sign."""
    game = kuhn3_cards(5)
    walk = SequenceWalk(game)
    run = minimise_regret(walk, iterations=3000, check_every=1000)
    point = polish(walk, variables(walk, run.average), threshold=1e-3)
    scaled = walk.gains(point.x) / np.maximum(payoff_mass(walk, point.x), 1e-300)
    assert np.all(np.abs(scaled[list(point.interior)]) <= ZERO)
    assert np.all(scaled[list(point.zeros)] <= ZERO) and np.all(scaled[list(point.ones)] >= -ZERO)
    assert np.all(point.x[list(point.zeros)] == 0.0) and np.all(point.x[list(point.ones)] == 1.0)


@pytest.mark.parametrize("cards, boxed", [(3, False), (5, True)])
def test_three_player_kuhn_forced_down_the_regret_route_is_certified(cards, boxed):
    """``max_terms=1``: the continuation is over its limit, the regret route alone answers."""
    game = kuhn3_cards(cards)
    found = pipeline.solve_n_player(game, max_terms=1)
    assert "regret minimisation" in found.notes[0]
    assert (found.box is not None) == boxed
    if not boxed:
        assert found.certificate.holds and verify(game, found.profile).holds


def test_the_route_names_what_it_tried_when_nothing_certifies(monkeypatch):
    monkeypatch.setattr(regret_route, "CHECKPOINTS", (50,))
    monkeypatch.setattr(regret_route, "THRESHOLDS", (1e-3,))
    game = compile_tree(library.game("leduc", players=3, ranks=2, suits=False))
    with pytest.raises(CertificationError, match=r"regret route found no certified point in \d+ s \(budget 90 s\): "
                                                 r"50 iterations \(nash_conv .*\), purified at 0.001 the polish stopped after \d+ rounds "
                                                 r"\(\d+ ends misread, largest scaled gain [^;]*; \d+ mixed: \d+ free, "
                                                 r"rank \d+ of the other \d+\)"):
        regret_route.solve_by_regret(binary_form(game).game, {})


def test_a_game_over_the_routes_size_is_refused_before_work(monkeypatch):
    monkeypatch.setattr(regret_route, "MAX_ENTRY_PLAYERS", 100)
    with pytest.raises(InvalidParameterError, match=r"regret route \(3 players, binary information sets per player "
                                                    r"16, 16, 16; 312 payoff entries\) is too large: 936 entries "
                                                    r"times players"):
        pipeline.solve_n_player(kuhn3_cards(4), max_terms=1)


def test_two_player_methods_are_refused_at_once_on_three_players():
    game = compile_tree(library.game("kuhn3"))
    with pytest.raises(NotZeroSumError, match="--method lp needs a two-player zero-sum game; this one has 3"):
        solve_game(game, method="lp")
    with pytest.raises(InvalidParameterError, match="--method lemke needs a two-player game"):
        solve_game(game, method="lemke")

