"""The binary form (core.binary_form): the same payoffs for every profile, so the same equilibria."""

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.certify import verify
from exactpoker.core.binary_form import binary_form, needs_binary_form
from exactpoker.core.profile import BehaviourProfile
from exactpoker.core.tree import compile_tree
from exactpoker.games import library
from exactpoker.solve import solve_game
from tests.solve.nplayer.test_nplayer import simultaneous

probability = st.fractions(min_value=0, max_value=1, max_denominator=12)


def random_binary_profile(game, data):
    return BehaviourProfile(tuple(
        tuple((1 - q, q) if len(layout.infoset_sequences(i)) == 2 else (Fraction(1),) * len(layout.infoset_sequences(i))
              for i in range(layout.num_infosets)
              for q in [data.draw(probability)])
        for layout in game.layouts))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=2, max_size=3), st.data())
def test_lifted_profiles_have_the_same_payoffs(actions, data):
    table = {c: tuple(data.draw(st.integers(-5, 5)) for _ in actions)
             for c in itertools.product(*[range(a) for a in actions])}
    original = compile_tree(simultaneous(lambda c: table[c], tuple(actions)))
    form = binary_form(original)
    assert all(len(form.game.layouts[p].infoset_sequences(i)) <= 2
               for p in range(len(actions)) for i in range(form.game.layouts[p].num_infosets))
    binary = random_binary_profile(form.game, data)
    lifted = form.lift(binary)
    for p, row in enumerate(lifted.strategies):
        assert all(sum(probs) == 1 and min(probs) >= 0 for probs in row)
    assert verify(original, lifted).payoffs == verify(form.game, binary).payoffs


def test_every_original_strategy_is_reached():
    """A profile of the original game: its chain probabilities lift back to it exactly."""
    original = compile_tree(simultaneous(lambda c: (c[0], -c[0], 0), (4, 2, 2)))
    form = binary_form(original)
    target = (Fraction(1, 10), Fraction(2, 10), Fraction(3, 10), Fraction(4, 10))
    q1 = target[0]
    q2 = target[1] / (1 - q1)
    q3 = target[2] / ((1 - q1) * (1 - q2))
    # each link plays its action (first) or passes on (second)
    binary = BehaviourProfile((((q1, 1 - q1), (q2, 1 - q2), (q3, 1 - q3)),
                               ((Fraction(1), Fraction(0)),), ((Fraction(1), Fraction(0)),)))
    assert form.lift(binary).strategies[0][0] == target
    assert [form.game.layouts[0].infoset_actions(i) for i in range(3)] == [
        ("0", "one of 1/2/3"), ("1", "one of 2/3"), ("2", "3")]


def test_two_action_games_need_no_binary_form():
    assert not needs_binary_form(compile_tree(library.game("kuhn3")))
    assert needs_binary_form(compile_tree(simultaneous(lambda c: (0, 0, 0), (3, 2, 2))))


@settings(max_examples=8, deadline=None)
@given(st.data())
def test_three_player_games_with_three_actions_are_solved_and_certified(data):
    table = {c: tuple(data.draw(st.integers(-3, 3)) for _ in range(3))
             for c in itertools.product(range(3), range(2), range(3))}
    compiled = compile_tree(simultaneous(lambda c: table[c], (3, 2, 3)))
    [eq] = solve_game(compiled).equilibria
    assert eq.certified and verify(compiled, eq.profile).holds
