"""Games as explicit trees: the compiler, perfect recall, chance, and the method chosen from the game."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.certify import verify
from exactpoker.cli import main
from exactpoker.core.profile import BehaviourProfile
from exactpoker.core.tree import (Chance, GameTree, LazyTree, Move, Terminal, _integer_entries, compile_tree,
                                  map_terminals, rebuild_tree)
from exactpoker.errors import InvalidGameError, NotZeroSumError
from exactpoker.solve import solve_game
from tests.example_games import kuhn_tree, matrix_tree


def test_kuhn_value_is_minus_one_eighteenth():
    result = solve_game(compile_tree(kuhn_tree()))
    assert result.value == Fraction(-1, 18)
    assert result.equilibria[0].certified
    assert set(result.equilibria[0].strategies["P1"]) == {"J", "Jpb", "Q", "Qpb", "K", "Kpb"}


def test_kuhn_layout_and_denominator():
    compiled = compile_tree(kuhn_tree())
    first, second = compiled.layouts
    assert (first.num_infosets, first.num_sequences) == (6, 13)
    assert (second.num_infosets, second.num_sequences) == (6, 13)
    assert compiled.denominator == 6 and compiled.is_zero_sum
    # an information set comes after the one holding its parent sequence
    for layout in compiled.layouts:
        for infoset in range(layout.num_infosets):
            parent = layout.parent_sequence(infoset)
            assert parent == 0 or layout.sequence_infoset[parent] < infoset


def test_profile_by_name_round_trip():
    compiled = compile_tree(kuhn_tree())
    tables = [{"J": ["2/3", "1/3"], "Qpb": ["1/3", "2/3"], "K": [0, 1]}, {"Kb": [0, 1]}]
    profile = BehaviourProfile.from_infosets(compiled, tables)
    assert profile.by_infoset(compiled, 0)["J"] == (Fraction(2, 3), Fraction(1, 3))
    assert profile.by_infoset(compiled, 1)["Qb"] == (Fraction(1), Fraction(0))  # left out: first action
    with pytest.raises(ValueError, match="no information set"):
        BehaviourProfile.from_infosets(compiled, [{"X": [1, 0]}, {}])


def test_imperfect_recall_names_the_information_set():
    # The player forgets whether they went left or right.
    root = Move(0, "first", (
        ("L", Move(0, "second", (("a", Terminal((1,))), ("b", Terminal((0,)))))),
        ("R", Move(0, "second", (("a", Terminal((0,))), ("b", Terminal((1,)))))),
    ))
    with pytest.raises(InvalidGameError, match="'second'.*perfect recall"):
        compile_tree(GameTree("forgetful", ("solo",), root))


def test_information_set_with_different_actions():
    root = Chance((("x", Fraction(1, 2), Move(0, "s", (("a", Terminal((1,))), ("b", Terminal((0,)))))),
                   ("y", Fraction(1, 2), Move(0, "s", (("a", Terminal((1,))), ("c", Terminal((0,))))))))
    with pytest.raises(InvalidGameError, match="'s'.*different actions"):
        compile_tree(GameTree("g", ("solo",), root))


@pytest.mark.parametrize("outcomes, message", [
    ((("a", Fraction(1, 2), Terminal((0,))), ("b", Fraction(1, 3), Terminal((0,)))), "sum to 1; they sum to 5/6"),
    ((("a", Fraction(3, 2), Terminal((0,))), ("b", Fraction(-1, 2), Terminal((0,)))), "negative"),
])
def test_chance_probabilities_are_checked(outcomes, message):
    with pytest.raises(InvalidGameError, match=message):
        Chance(outcomes, "deal")


def test_floats_are_refused_as_exact_input():
    with pytest.raises(ValueError, match="float"):
        Terminal((0.5,))


def test_wrong_number_of_payoffs_and_players():
    with pytest.raises(InvalidGameError, match="2 payoffs for 1 players"):
        compile_tree(GameTree("g", ("solo",), Move(0, "s", (("a", Terminal((1, 2))), ("b", Terminal((0,)))))))
    with pytest.raises(InvalidGameError, match="player 3"):
        compile_tree(GameTree("g", ("solo",), Move(3, "s", (("a", Terminal((1,))),))))


def test_leaf_limit():
    with pytest.raises(InvalidGameError, match="more than 4 leaves"):
        compile_tree(kuhn_tree(), max_leaves=4)


def test_one_player_game_is_a_decision_problem():
    root = Chance((("lo", Fraction(1, 3), Move(0, "lo", (("a", Terminal((1,))), ("b", Terminal((2,)))))),
                   ("hi", Fraction(2, 3), Move(0, "hi", (("a", Terminal((5,))), ("b", Terminal((-1,))))))))
    result = solve_game(compile_tree(GameTree("d", ("solo",), root)))
    assert result.value == Fraction(1, 3) * 2 + Fraction(2, 3) * 5
    assert result.equilibria[0].strategies["solo"] == {"lo": [0, 1], "hi": [1, 0]}


def test_zero_sum_only_method_refuses_general_sum():
    game = matrix_tree([[(3, 3), (0, 5)], [(5, 0), (1, 1)]], "dilemma")
    with pytest.raises(NotZeroSumError, match="two-player zero-sum"):
        solve_game(compile_tree(game), method="lp")


def test_all_pure_on_a_matrix_game():
    game = matrix_tree([[(2, 1), (0, 0)], [(0, 0), (1, 2)]], "battle")
    result = solve_game(compile_tree(game), all_pure=True)
    assert sorted(tuple(eq.values) for eq in result.equilibria) == [(1, 2), (2, 1)]


matrices = st.lists(st.lists(st.fractions(min_value=-5, max_value=5, max_denominator=6), min_size=1, max_size=3),
                    min_size=1, max_size=3).filter(lambda m: len({len(r) for r in m}) == 1)


@settings(deadline=None, max_examples=25)
@given(matrices)
def test_random_zero_sum_matrix_games_certify(matrix):
    game = matrix_tree([[(v, -v) for v in row] for row in matrix])
    compiled = compile_tree(game)
    result = solve_game(compiled)
    eq = result.equilibria[0]
    assert verify(compiled, eq.profile).holds
    # the value lies between the pure maximin and minimax
    assert max(min(row) for row in matrix) <= eq.values[0] <= min(max(col) for col in zip(*matrix))


def test_solve_command_needs_a_game(capsys):
    assert main(["solve"]) == 2
    assert "give a GAME" in capsys.readouterr().err
    assert main(["solve", "nonsense"]) == 2
    assert main(["solve", "missing.efg"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_lazy_tree_builds_its_nodes_once_and_only_when_read():
    calls = []

    def build():
        calls.append(1)
        return kuhn_tree().root

    lazy = LazyTree("kuhn", ("P1", "P2"), build, (("ante", 1),))
    assert isinstance(lazy, GameTree) and not lazy.built and not calls
    assert (lazy.name, lazy.num_players, lazy.parameters) == ("kuhn", 2, (("ante", 1),))
    first = compile_tree(lazy)
    assert lazy.built and calls == [1]
    assert lazy.root is lazy.root and calls == [1]
    again = compile_tree(kuhn_tree())
    assert first.sequences.tolist() == again.sequences.tolist()
    assert first.coefficients.tolist() == again.coefficients.tolist()
    with pytest.raises(AttributeError):
        lazy.no_such_attribute


def test_rebuilding_a_lazy_tree_stays_lazy_until_read():
    calls = []

    def build():
        calls.append(1)
        return kuhn_tree().root

    lazy = LazyTree("kuhn", ("P1", "P2"), build)
    renamed = rebuild_tree(lazy, infoset=lambda node: node.infoset.upper())
    assert isinstance(renamed, LazyTree) and not renamed.built and not lazy.built and not calls
    eager = rebuild_tree(kuhn_tree(), infoset=lambda node: node.infoset.upper())
    assert [n.infoset for n in renamed.nodes() if isinstance(n, Move)] == \
        [n.infoset for n in eager.nodes() if isinstance(n, Move)]
    assert calls == [1] and lazy.built  # the original built once, for the renamed tree
    doubled = map_terminals(rebuild_tree(lazy), lambda payoffs: tuple(2 * v for v in payoffs))
    assert not isinstance(doubled, LazyTree)  # the original is built now: rebuilt at once
    assert compile_tree(doubled).denominator * 2 == compile_tree(kuhn_tree()).denominator


@settings(max_examples=60, deadline=None)
@given(entries=st.lists(st.tuples(st.integers(0, 3), st.lists(st.tuples(
    st.sampled_from([1, 2, 3, 4, 6, 9, 10, 12, 2**40, 3**30]),
    st.lists(st.sampled_from([0, 1, -1, 2, 5, -7, 2**61, -(3**45)]), min_size=2, max_size=2)),
    min_size=1, max_size=3)), max_size=8))
def test_integer_entries_are_the_exact_sums_over_the_least_common_denominator(entries):
    """The sums of the compiler's terms, checked against Fraction arithmetic (order, dropped zeros, dtype)."""
    summed, raw = {}, {}
    for key, terms in entries:
        for d, values in terms:
            by_denominator = raw.setdefault((key, key + 1), {})
            if d in by_denominator:
                by_denominator[d] = [a + b for a, b in zip(by_denominator[d], values)]
            else:
                by_denominator[d] = list(values)
            summed[(key, key + 1)] = [s + Fraction(v, d) for s, v in zip(summed.get((key, key + 1), [0, 0]), values)]
    sequences, coefficients, denominator = _integer_entries(raw, 2)
    expected = {key: values for key, values in summed.items() if any(values)}
    assert [tuple(row) for row in sequences.tolist()] == list(expected)
    assert denominator == math.lcm(1, *(v.denominator for values in expected.values() for v in values))
    assert [[Fraction(int(c), denominator) for c in row] for row in coefficients.tolist()] == list(expected.values())
    big = any(abs(v) * denominator >= 2**62 // max(1, len(expected)) for values in expected.values() for v in values)
    assert coefficients.dtype == (object if big else np.int64)
