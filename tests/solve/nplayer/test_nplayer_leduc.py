"""Three-player Leduc and other N-player games of three-action information sets (issue 27).

The N-player route (float guide -> support -> exact finish -> certificate) on
a reduced deck of three-player Leduc, its lossless abstraction, the sparse
Newton steps of the guide and the refusal of a guide too large to finish.
"""

import json
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker import guard
from exactpoker.certify import verify
from exactpoker.cli import main
from exactpoker.core.binary_form import binary_form
from exactpoker.core.poker import Betting, CardDeck, Deal, PokerGame, high_card
from exactpoker.core.tree import compile_tree
from exactpoker.errors import InvalidParameterError, ResourceLimitError
from exactpoker.games import library
from exactpoker.solve.nplayer import continuation
from exactpoker.solve.nplayer import pipeline as nplayer
from exactpoker.solve.nplayer import regret_route
from exactpoker.solve.nplayer.point import CertifiedPoint
from exactpoker.solve.nplayer.continuation import trace_down
from exactpoker.solve import solve_game
from exactpoker.solve.nplayer.gain_system import GainSystem, guide_terms


def kuhn3_binary():
    return binary_form(compile_tree(library.game("kuhn3"))).game


def suited_three_player():
    """Three players, ranks Q K in two suits, one card each, one bet: suits that play no role."""
    return PokerGame("suited", 3, CardDeck("QK", suits=2), [Deal(hole=1), Betting(sizes=1, max_bets=1)], ante=1,
                     ranking=high_card).tree()


@pytest.mark.parametrize("game", [
    lambda: kuhn3_binary(),
    lambda: binary_form(compile_tree(library.game("leduc", ranks=2, suits=False))).game,
    lambda: binary_form(compile_tree(suited_three_player())).game,
])
def test_guide_terms_counts_the_products_of_the_built_system(game):
    compiled = game()
    assert guide_terms(compiled) == GainSystem.from_game(compiled).terms


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(-2, 2))
def test_jacobian_and_slope_are_the_differences_of_the_gains(seed, t):
    """The gains are affine in each variable and in ``t``: a difference quotient is the derivative (to rounding),
    an independent check of the Jacobian's and the slope's shared products and coefficients."""
    game = compile_tree(library.game("kuhn3", cards=4, pot=Fraction(3)))
    system = GainSystem.from_games((0.0, game), (1.0, compile_tree(library.game("kuhn3", cards=4, pot=Fraction(5)))))
    rng = np.random.default_rng(seed)
    x = rng.random(system.num_vars)
    f, jacobian, slope = system.evaluate(x, t)
    assert np.allclose(system.evaluate(x, t + 1.0, jacobian=False)[0] - f, slope, atol=1e-12)
    for k in rng.choice(system.num_vars, 5, replace=False):
        step = np.zeros(system.num_vars)
        step[k] = 1.0
        assert np.allclose(system.evaluate(x + step, t, jacobian=False)[0] - f, jacobian[:, k], atol=1e-12)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_sparse_jacobian_equals_the_dense_one(seed):
    system = GainSystem.from_game(kuhn3_binary())
    x = np.random.default_rng(seed).random(system.num_vars)
    f_dense, dense, _ = system.evaluate(x, 0.0)
    f_sparse, sparse, _ = system.evaluate(x, 0.0, sparse=True)
    assert np.array_equal(f_dense, f_sparse)
    assert np.allclose(sparse.toarray(), dense, rtol=1e-13, atol=1e-13)


def test_the_guide_with_sparse_newton_steps_equals_the_dense_guide(monkeypatch):
    system = GainSystem.from_game(kuhn3_binary())
    dense = trace_down(system, 0.0, 1e-7)
    monkeypatch.setattr(continuation, "SPARSE_SIZE", 0)
    monkeypatch.setattr(continuation, "SPARSE_DENSITY", 1.0)
    sparse = trace_down(system, 0.0, 1e-7)
    assert np.allclose(sparse, dense, atol=1e-8)


def test_the_sparse_steps_are_for_sparse_jacobians():
    assert GainSystem.from_game(kuhn3_binary()).jacobian_density > continuation.SPARSE_DENSITY
    leduc = binary_form(compile_tree(library.game("leduc", players=3, ranks=2, suits=False))).game
    assert GainSystem.from_game(leduc).jacobian_density < continuation.SPARSE_DENSITY


def test_a_game_too_large_for_both_guides_is_refused_with_its_sizes(monkeypatch):
    """Over the continuation's limit a game goes to the regret route; over that route's limit too, it is refused
    before any work, with its sizes."""
    game = compile_tree(library.game("kuhn3"))
    monkeypatch.setattr(regret_route, "MAX_ENTRY_PLAYERS", 100)
    with pytest.raises(InvalidParameterError, match=r"regret route \(3 players, binary information sets per player "
                                                    r".*; \d+ payoff entries\) is too large: \d+ entries times "
                                                    r"players, at most 100"):
        nplayer.solve_n_player(game, max_terms=1000)
    with guard.memory_limit(1), pytest.raises(ResourceLimitError, match="N-player float guide .* of memory"):
        nplayer.solve_n_player(game)


def test_cli_refuses_a_game_too_large_in_one_line(monkeypatch, capsys):
    monkeypatch.setattr(nplayer, "MAX_GUIDE_TERMS", 1000)
    monkeypatch.setattr(regret_route, "MAX_ENTRY_PLAYERS", 100)
    assert main(["solve", "library:kuhn3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is too large" in err and "entries times players" in err


def test_a_three_player_game_with_idle_suits_is_solved_on_its_lossless_abstraction():
    compiled = compile_tree(suited_three_player())
    result = solve_game(compiled)
    [eq] = result.equilibria
    assert eq.certified and sum(eq.values) == 0
    sizes = result.details["abstraction"]["information_sets"]
    assert sum(sizes["reduced"]) < sum(sizes["full"])
    assert verify(compiled, eq.profile).holds  # the lifted profile, checked again on the full game
    # the cards of one rank are played alike (the orbits of the suit symmetry)
    tables = eq.strategies
    for player in tables.values():
        for name, probabilities in player.items():
            twin = name.translate(str.maketrans("sh", "hs"))
            assert player[twin] == probabilities
    plain = solve_game(compiled, abstraction=False)
    assert plain.equilibria[0].certified and "abstraction" not in plain.details


@pytest.mark.slow
def test_three_player_leduc_on_two_ranks_is_solved_and_certified(capsys):
    """``solve library:leduc(players=3,ranks=2)``: 35 s (it ran over 600 s with no answer before issue 27)."""
    assert main(["solve", "library:leduc(players=3,ranks=2)", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    [eq] = data["equilibria"]
    assert eq["certified"] and sum(Fraction(v) for v in eq["values"]) == 0
    assert data["details"]["abstraction"]["information_sets"] == {"full": ["1868"] * 3, "reduced": ["315"] * 3}
    assert data["method"] == "float guide + exact finish (rational)"
    compiled = compile_tree(library.game("leduc", players=3, ranks=2))
    assert [layout.num_infosets for layout in compiled.layouts] == [1868] * 3
    profile = tuple(
        tuple(tuple(Fraction(p) for p in eq["strategies"][name][layout.infoset_name(i)])
              for i in range(layout.num_infosets))
        for name, layout in zip(compiled.player_names, compiled.layouts)
    )
    from exactpoker.core.profile import BehaviourProfile

    assert verify(compiled, BehaviourProfile(profile)).holds  # independently of the run's own certificate


def test_lifted_gives_the_orbits_their_strategy_and_marks_a_reduced_box():
    from exactpoker.core.profile import BehaviourProfile

    reduced = BehaviourProfile((((Fraction(1, 3), Fraction(2, 3)),),))
    lift = lambda p: BehaviourProfile(((p.strategies[0][0], p.strategies[0][0]),))  # noqa: E731 - one orbit of two
    exact = CertifiedPoint(reduced, None, stage="rational", notes=("n",), solved=compile_tree(library.game("kuhn3")))
    lifted = exact.lifted(lift)
    assert lifted.profile.strategies == (((Fraction(1, 3), Fraction(2, 3)),) * 2,) and lifted.notes == ("n",)
    boxed = replace(exact, stage="isolating box", box=object())
    assert "lossless abstraction" in boxed.lifted(lift).notes[-1] and boxed.lifted(lift).box is boxed.box
