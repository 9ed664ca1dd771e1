"""The flat tree read off the poker rules (core/poker_compile.flat_poker) against the tree's (core/flat_tree.flatten).

Range dominance (solve/dominance.range_dominated) must give the same verdicts
on the arrays walked from the rules as on the arrays of the built tree, and
the N-player finish must then never build the tree.
"""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings

from exactpoker.core import PokerGame
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.flat_tree import FlatTreeBuilder, flatten
from exactpoker.core.poker_compile import compile_poker, flat_poker
from exactpoker.core.tree import Chance, GameTree, Move, Terminal, compile_tree
from exactpoker.games.library import poker_game
from exactpoker.solve.structure.dominance import dominated_variables, range_dominated
from tests.strategies import poker_games


def assert_same_verdicts(game: PokerGame) -> dict:
    """The verdicts, information sets and root ranges from the rules equal the tree's; the verdicts returned."""
    rules, tree = flat_poker(game), flatten(game.tree())
    assert sorted(rules.infosets) == sorted(tree.infosets)
    for mine, theirs in zip(rules.ranges(), tree.ranges()):  # the root comes last in post-order
        assert np.array_equal(mine[-1], theirs[-1])
    found = range_dominated(rules)
    assert found == range_dominated(tree) == range_dominated(game.tree())
    return found


@pytest.mark.parametrize("cards", range(4, 14))
@pytest.mark.parametrize("pot", [Fraction(2), Fraction(3), Fraction(9, 2)])
def test_kuhn3_verdicts_from_the_rules_are_the_trees(cards, pot):
    found = assert_same_verdicts(poker_game("kuhn3", cards=cards, pot=pot))
    assert sum(len(d) for d in found.values()) == 22 or pot != 3  # seed 003 section 2 at P = 3


@pytest.mark.slow
@pytest.mark.parametrize("pot", [Fraction(3), Fraction(5)])
def test_kuhn3_26_cards_verdicts_from_the_rules_are_the_trees(pot):
    assert assert_same_verdicts(poker_game("kuhn3", cards=26, pot=pot))


@pytest.mark.parametrize("name, params", [("kuhn", {}), ("leduc", {}), ("leduc", {"players": 3, "ranks": 2}),
                                          ("leduc", {"ranks": 3, "rake": "1/10"}), ("two_round", {"ranks": 2})])
def test_library_verdicts_from_the_rules_are_the_trees(name, params):
    assert_same_verdicts(poker_game(name, **params))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(game=poker_games())
def test_random_games_verdicts_from_the_rules_are_the_trees(game):
    found = assert_same_verdicts(game)
    event("some action dominated" if found else "nothing dominated")


def test_the_n_player_fixings_come_from_the_rules_without_the_tree(monkeypatch):
    """dominated_variables on a game compiled from its rules equals the tree route's, and builds no tree."""
    game = poker_game("kuhn3", cards=6, pot=Fraction(3))
    expected = dominated_variables(compile_tree(game.tree()))
    assert len(expected) == 22

    def refuse(self):
        raise AssertionError("a tree was built")

    monkeypatch.setattr(PokerGame, "tree", refuse)
    compiled = compile_poker(game)
    assert compiled.flat is not None and dominated_variables(compiled) == expected
    assert not compiled.game.built


@pytest.mark.slow
def test_the_kuhn3_command_builds_no_tree(monkeypatch, capsys):
    """``kuhn3 --json`` (the N-player finish with range dominance) prints what it prints with the tree's arrays,
    and builds no tree."""
    from exactpoker.cli import main
    from exactpoker.core import poker_compile

    command = ["kuhn3", "--cards", "5", "--pot", "3", "--json"]
    with monkeypatch.context() as patched:
        patched.setattr(poker_compile, "flat_poker", lambda game: flatten(game.tree()))
        assert main(command) == 0
    expected = capsys.readouterr().out

    def refuse(self):
        raise AssertionError("a tree was built")

    monkeypatch.setattr(PokerGame, "tree", refuse)
    assert main(command) == 0
    assert capsys.readouterr().out == expected


def test_the_builder_numbers_children_first_and_measures_heights():
    """A chance node over a decision and a shared leaf, by hand: post-order numbers, heights, ranks."""
    built = FlatTreeBuilder(2)
    low, high = built.leaf((Fraction(-1), Fraction(1))), built.leaf((Fraction(1, 2), Fraction(-1, 2)))
    move = built.move(1, "x", [low, high])
    root = built.chance([move, low])
    flat = built.build()
    assert (low, high, move, root) == (0, 1, 2, 3)
    assert flat.height.tolist() == [0, 0, 1, 2] and flat.infosets == ((1, "x"),)
    assert flat.player.tolist() == [-1, -1, 1, -1] and flat.infoset.tolist() == [-1, -1, 0, -1]
    assert flat.leaf_ranks.tolist() == [[0, 3], [2, 1]]  # -1 < -1/2 < 1/2 < 1
    worst, best = flat.ranges()
    assert worst[root].tolist() == [0, 1] and best[root].tolist() == [2, 3]


def test_flatten_reads_a_shared_subtree_once_and_skips_impossible_outcomes():
    shared = Move(0, "a", (("l", Terminal((0, 0))), ("r", Terminal((1, -1)))))
    never = Move(1, "b", (("l", Terminal((5, 5))),))
    root = Chance((("x", Fraction(1, 2), shared), ("y", Fraction(1, 2), shared), ("z", Fraction(0), never)))
    flat = flatten(GameTree("shared", ("P1", "P2"), root))
    assert len(flat.height) == 4 and flat.infosets == ((0, "a"),)
    assert range_dominated(flat) == {(0, "a"): {0: 1}}


def test_the_lossless_abstraction_relabels_the_rules_arrays_as_its_tree():
    """Three-player Leduc merges suit-isomorphic information sets: the reduced game's arrays (the full game's,
    relabelled) give its tree's verdicts, and the tree is not built for them."""
    from exactpoker.solve.structure.abstraction import lossless_abstraction

    game = poker_game("leduc", players=3, ranks=2)
    found = lossless_abstraction(compile_poker(game))
    reduced = found.reduced
    assert found.reduces and reduced.flat is not None
    flat = reduced.flat()
    assert not reduced.game.built and not found.full.game.built
    assert len(flat.infosets) == sum(layout.num_infosets for layout in reduced.layouts)
    assert sorted(flat.infosets) == sorted(flatten(reduced.game).infosets)
    assert range_dominated(flat) == range_dominated(reduced.game)
    assert dominated_variables(reduced) == dominated_variables(
        CompiledGame(reduced.game, reduced.layouts, reduced.sequences, reduced.coefficients, reduced.denominator))


def test_relabelling_merges_information_sets():
    shared = Move(0, "a", (("l", Terminal((0, 0))), ("r", Terminal((1, -1)))))
    other = Move(0, "b", (("l", Terminal((2, 0))), ("r", Terminal((1, -1)))))
    root = Chance((("x", Fraction(1, 2), shared), ("y", Fraction(1, 2), other)))
    flat = flatten(GameTree("two", ("P1", "P2"), root))
    assert range_dominated(flat) == {(0, "a"): {0: 1}, (0, "b"): {1: 0}}
    merged = flat.relabelled([{"b": "a"}, {}])
    assert merged.infosets == ((0, "a"),) and merged.infoset.tolist() == flat.infoset.clip(-1, 0).tolist()
    assert range_dominated(merged) == {}  # "r" dominates at one node, "l" at the other: neither everywhere
