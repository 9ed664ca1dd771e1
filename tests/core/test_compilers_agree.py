"""The compilers give one sequence form: each rules compiler against the tree compiler (seed games, issue 27).

``compile_game`` (a seed paper's card game, vectorised over the deals) numbers
information sets card by card, ``compile_tree`` in the order a depth-first walk
first meets them; both must describe the same game: the same information sets
and actions by name, and the same payoff for every tuple of named sequences.
(``compile_poker`` and Liar's Dice's direct compiler are held to the stronger
identity, array by array: tests/core/test_poker_compile.py, tests/games/test_liars_dice.py.)
"""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.core.compiled import CompiledGame
from exactpoker.core.compiler import compile_game
from exactpoker.core.tree import compile_tree
from exactpoker.games import library


def named_sequence_form(compiled: CompiledGame) -> tuple[list[dict], dict]:
    """Each player's information sets ``{name: actions}`` and the payoffs keyed by named sequences.

    A sequence is named by its information set and action (the empty sequence
    by ``None``); a payoff entry by the tuple of its players' named sequences,
    its value the exact payoff vector.
    """
    names, infosets = [], []
    for layout in compiled.layouts:
        name_of: dict[int, object] = {0: None}
        actions = {}
        for i in range(layout.num_infosets):
            actions[layout.infoset_name(i)] = (layout.infoset_actions(i), _parent_name(layout, i, name_of))
            for action, s in zip(layout.infoset_actions(i), layout.infoset_sequences(i)):
                name_of[s] = (layout.infoset_name(i), action)
        names.append(name_of)
        infosets.append(actions)
    entries = {}
    for row, coefficients in zip(compiled.sequences.tolist(), compiled.coefficients.tolist()):
        key = tuple(names[p][s] for p, s in enumerate(row))
        assert key not in entries
        entries[key] = tuple(Fraction(int(c), compiled.denominator) for c in coefficients)
    return infosets, entries


def _parent_name(layout, infoset: int, name_of: dict) -> object:
    parent = layout.parent_sequence(infoset)
    return name_of.get(parent, ("later", parent))


SEED_GAMES = [
    ("vn", {"n": 5, "b": "2"}),
    ("vn", {"n": 4, "b": "1/3"}),
    ("newman", {"n": 5, "b": "3"}),
    ("three", {"n": 5, "b": "2"}),
    ("simple", {}),
    ("goldman_stone", {}),
    ("nash_shapley", {}),
]


@pytest.mark.parametrize("name, params", SEED_GAMES)
def test_card_game_compiler_and_tree_compiler_give_one_game(name, params):
    rules = library.poker_game(name, **params)
    by_rules, by_tree = compile_game(rules), compile_tree(rules.tree())
    assert named_sequence_form(by_rules) == named_sequence_form(by_tree)
    assert [layout.num_sequences for layout in by_rules.layouts] == [layout.num_sequences for layout in by_tree.layouts]


@settings(deadline=None, max_examples=20)
@given(n=st.integers(3, 7), b=st.fractions(min_value=Fraction(1, 4), max_value=6, max_denominator=4),
       name=st.sampled_from(["vn", "newman", "three"]))
def test_the_two_compilers_agree_on_random_seed_games(n, b, name):
    rules = library.poker_game(name, n=n, b=str(b) if name != "newman" else str(max(1, int(b))))
    assert named_sequence_form(compile_game(rules)) == named_sequence_form(compile_tree(rules.tree()))


def test_a_changed_payoff_is_seen():
    """The comparison can fail: one payoff entry of the tree's game changed."""
    rules = library.poker_game("vn", n=4, b="2")
    by_tree = compile_tree(rules.tree())
    coefficients = by_tree.coefficients.copy()
    coefficients[3, 0] += 1
    coefficients[3, 1] -= 1
    changed = CompiledGame(by_tree.game, by_tree.layouts, by_tree.sequences, coefficients, by_tree.denominator)
    assert named_sequence_form(compile_game(rules)) != named_sequence_form(changed)
