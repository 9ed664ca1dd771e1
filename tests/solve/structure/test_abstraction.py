"""Lossless abstraction (exactpoker.solve.structure.symmetry, exactpoker.solve.structure.abstraction; issue 30 item 1).

Published and independent values: Leduc with its suits has the value of Leduc
without them (the same game up to relabelling); the reduced game compiled from
the renamed tree equals the one merged on the sequence form; every lifted
equilibrium passes the exact certificate on the full game.
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.certify import verify
from exactpoker.cli import main
from exactpoker.core.tree import Chance, GameTree, Move, Terminal, compile_tree, map_terminals
from exactpoker.formats import load_game
from exactpoker.solve.structure.abstraction import abstraction_size, lossless_abstraction
from exactpoker.solve import solve_game
from exactpoker.solve.structure.symmetry import SymmetryGraph, is_automorphism, stable_colouring, symmetry_orbits
from exactpoker.solve.lp.zerosum import solve_zero_sum
from tests.example_games import kuhn_tree, leduc_tree, sequence_form_entries


def _library(spec: str):
    return compile_tree(load_game(spec).tree)


def _reduced(spec: str):
    return [layout.num_infosets for layout in lossless_abstraction(_library(spec)).reduced.layouts]


# -- Kuhn: nothing to merge ------------------------------------------------------------------


def test_kuhn_has_no_isomorphic_information_sets():
    compiled = compile_tree(kuhn_tree())
    found = lossless_abstraction(compiled)
    assert not found.reduces and found.reduced is compiled
    assert abstraction_size(compiled)["factor"] == "1"
    result = solve_game(compiled)
    assert "abstraction" not in result.details and result.value == Fraction(-1, 18)


def test_a_wrong_permutation_fails_the_exact_check():
    compiled = compile_tree(kuhn_tree())
    graph = SymmetryGraph.of(compiled)
    identity = np.arange(graph.entry_offset)
    assert is_automorphism(graph, identity)
    # swap player 0's information sets "J" and "K" (and their sequences): the payoffs are not kept
    layout, i0 = compiled.layouts[0], graph.inf_offsets[0]
    jack, king = layout.index["J"], layout.index["K"]
    swapped = identity.copy()
    swapped[i0 + jack], swapped[i0 + king] = i0 + king, i0 + jack
    for a, b in zip(layout.infoset_sequences(jack), layout.infoset_sequences(king)):
        swapped[a], swapped[b] = b, a
    assert not is_automorphism(graph, swapped)
    # a permutation that breaks the action order fails too
    broken = identity.copy()
    first = layout.infoset_sequences(jack)
    broken[first.start], broken[first.start + 1] = first.start + 1, first.start
    assert not is_automorphism(graph, broken)


# -- Leduc: the suits --------------------------------------------------------------------------


@pytest.mark.parametrize("ranks", [2, 3, 4])
def test_leduc_suits_merge_into_the_suitless_game(ranks):
    with_suits = _library(f"library:leduc(ranks={ranks})")
    without = _library(f"library:leduc(ranks={ranks},suits=False)")
    size = abstraction_size(with_suits)
    found = lossless_abstraction(with_suits)
    assert found.summary() == size
    assert size["information_sets"]["full"] == [layout.num_infosets for layout in with_suits.layouts]
    if ranks > 2:  # two ranks have one more symmetry (the ranks swapped), checked below
        assert size["information_sets"]["reduced"] == [layout.num_infosets for layout in without.layouts]
        assert size["sequences"]["reduced"] == [layout.num_sequences for layout in without.layouts]
    full_value = solve_game(with_suits, abstraction=False).value
    reduced = solve_game(with_suits)
    assert reduced.details["abstraction"] == size
    assert reduced.equilibria[0].certificate.holds
    assert reduced.value == full_value == solve_game(without, abstraction=False).value


def test_leduc_value_three_ranks():
    result = solve_game(compile_tree(leduc_tree()))
    assert float(result.value) == pytest.approx(-0.0856064240780, abs=1e-11)  # HiGHS's float value (OpenSpiel)
    assert result.details["abstraction"]["information_sets"] == {"full": [468, 468], "reduced": [144, 144]}
    assert result.details["abstraction"]["factor"] == "1093/337"


def test_two_ranks_also_swap_the_ranks():
    # Leduc with two ranks: a pair wins, else equal ranks split; swapping the ranks keeps every payoff
    assert _reduced("library:leduc(ranks=2,suits=False)") == [33, 33]
    assert _reduced("library:leduc(ranks=2)") == [33, 33]
    assert solve_game(_library("library:leduc(ranks=2)")).value == 0


def test_the_renamed_tree_compiles_to_the_merged_game():
    """Two constructions of the reduced game: merged on the sequence form, and compiled from the renamed tree."""
    found = lossless_abstraction(compile_tree(leduc_tree(ranks=3)))
    recompiled = compile_tree(found.reduced.game)
    assert [layout.names for layout in recompiled.layouts] == [layout.names for layout in found.reduced.layouts]
    assert sequence_form_entries(recompiled) == sequence_form_entries(found.reduced)


def test_lifted_profile_is_certified_on_the_full_game():
    compiled = compile_tree(leduc_tree(ranks=3))
    found = lossless_abstraction(compiled)
    profile, _, _ = solve_zero_sum(found.reduced)
    lifted = found.lift(profile)
    certificate = verify(compiled, lifted)
    assert certificate.holds
    names = compiled.layouts[0].index
    assert lifted.strategies[0][names["J1:"]] == lifted.strategies[0][names["J2:"]]


def test_orbits_are_those_of_exact_automorphisms():
    compiled = _library("library:leduc(ranks=3)")
    orbits = symmetry_orbits(compiled)
    assert orbits.generators == 3 and orbits.failures == 0  # one suit swap per rank
    graph = SymmetryGraph.of(compiled)
    base = stable_colouring(graph.colours, graph.src, graph.dst, graph.label)
    first = graph.inf_offsets[0]
    # every orbit lies in one colour class of the refinement (an automorphism keeps colours)
    for rep, colour in zip(orbits.representative[0].tolist(), base[first:first + compiled.layouts[0].num_infosets]):
        assert base[first + rep] == colour


# -- planted symmetries ------------------------------------------------------------------------


def _twin_game(types: list[tuple[int, list[int]]], order: list[int], general: bool) -> GameTree:
    """Chance deals player 0 a type (weight, payoffs); each type comes twice, as ``a`` and ``b``.

    Player 0 sees the card, bets or checks; player 1 sees only that, then
    calls or folds; after a call player 0 moves once more.  The twins have the
    same payoffs under different names: a symmetry that abstraction must find.
    """
    total = 2 * sum(weight for weight, _ in types)

    def subtree(t: int, twin: str) -> Move:
        _, pay = types[t]

        def leaf(k: int) -> Terminal:
            return Terminal((pay[k], pay[(k + 3) % len(pay)] if general else -pay[k]))

        def second(a: str, k: int) -> Move:
            return Move(0, f"x{t}{twin}/{a}c", (("l", leaf(k)), ("r", leaf(k + 1))))

        return Move(0, f"x{t}{twin}", tuple(
            (a, Move(1, f"y{a}", (("f", leaf(2 * i + 4)), ("c", second(a, 2 * i + 6)))))
            for i, a in enumerate("pb")))

    outcomes = [(f"{t}{twin}", Fraction(types[t][0], total), subtree(t, twin))
                for t in range(len(types)) for twin in "ab"]
    return GameTree("twins", ("P1", "P2"), Chance(tuple(outcomes[i] for i in order), "deal"))


@st.composite
def twin_games(draw, general=False):
    count = draw(st.integers(1, 3))
    types = [(draw(st.integers(1, 4)), draw(st.lists(st.integers(-5, 5), min_size=10, max_size=10)))
             for _ in range(count)]
    order = draw(st.permutations(range(2 * count)))
    return _twin_game(types, list(order), general)


@settings(deadline=None, max_examples=25)
@given(twin_games())
def test_planted_symmetry_zero_sum(game):
    compiled = compile_tree(game)
    with_it = solve_game(compiled)
    without = solve_game(compiled, abstraction=False)
    assert with_it.value == without.value
    assert with_it.equilibria[0].certificate.holds
    sizes = with_it.details["abstraction"]["information_sets"]
    assert 2 * sizes["reduced"][0] <= sizes["full"][0]  # every twin merged (more if two types are alike)


@settings(deadline=None, max_examples=15)
@given(twin_games(general=True))
def test_planted_symmetry_general_sum(game):
    compiled = compile_tree(game)
    result = solve_game(compiled)
    [equilibrium] = result.equilibria
    assert equilibrium.certificate.holds  # Lemke on the reduced game, certified on the full game
    if not compiled.is_zero_sum:
        assert "abstraction" in result.details and "Lemke" in result.method


def test_constant_sum_game_is_solved_on_its_abstraction():
    game = _twin_game([(1, [3, -1, 2, 0, -2, 1, 4, -3, 0, 2]), (2, [1, 1, -2, 3, 0, -1, 2, 2, -4, 1])],
                      [0, 2, 1, 3], general=False)
    shifted = map_terminals(game, lambda payoffs: (payoffs[0] + 1, payoffs[1]))
    zero_sum = solve_game(compile_tree(game))
    result = solve_game(compile_tree(shifted))
    assert "abstraction" in result.details and "constant-sum" in result.method
    assert result.equilibria[0].certificate.holds
    assert result.equilibria[0].certificate.payoffs[0] == zero_sum.value + 1


# -- the command line --------------------------------------------------------------------------


def test_cli_reports_and_turns_off_the_abstraction(capsys):
    assert main(["solve", "library:leduc(ranks=2)", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["details"]["abstraction"]["sequences"] == {"full": ["449", "449"], "reduced": ["78", "78"]}
    assert any("Lossless abstraction" in note for note in data["notes"])
    assert main(["solve", "library:leduc(ranks=2)", "--no-abstraction", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert "abstraction" not in plain["details"]
    assert plain["equilibria"][0]["values"] == data["equilibria"][0]["values"]


# -- OpenSpiel's Leduc -------------------------------------------------------------------------


@pytest.mark.openspiel
def test_openspiel_leduc_is_reduced_by_its_suits():
    pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import exploitability

    import pyspiel
    from exactpoker.formats.openspiel import load_openspiel, to_tabular_policy

    loaded = load_openspiel("leduc_poker")
    result = solve_game(compile_tree(loaded.tree), tables=loaded.tables)
    assert result.details["abstraction"]["information_sets"] == {"full": [468, 468], "reduced": [144, 144]}
    assert result.value == solve_game(compile_tree(leduc_tree(suits=False))).value
    game = pyspiel.load_game("leduc_poker")
    policy = to_tabular_policy(game, result.equilibria[0].strategies)
    assert exploitability.nash_conv(game, policy) < 1e-12


# -- the size after abstraction, counted from the rules -----------------------------------------


@pytest.mark.parametrize("ranks", [3, 4, 5])
def test_suit_isomorphic_count_matches_the_built_game(ranks):
    from exactpoker.core.poker_size import suit_isomorphic_size
    from exactpoker.games.library import poker_game

    rules = poker_game("leduc", ranks=ranks)
    counted = suit_isomorphic_size(rules)
    found = abstraction_size(compile_tree(rules.tree()))
    assert list(counted.infosets) == found["information_sets"]["reduced"]
    assert list(counted.sequences) == found["sequences"]["reduced"]


def test_view_classes_by_hand():
    from exactpoker.core.poker import CardDeck
    from exactpoker.core.poker_size import view_classes

    deck = CardDeck("JQK", suits=2)
    # a card, then a board card: 30 ordered pairs; one suit swap for all ranks fixes none of them
    assert view_classes(deck, 1, 1, suits_together=True) == 15
    # a swap per rank: the two ranks (9 pairs), the suits then only tell a pair's two cards apart (same or not)
    assert view_classes(deck, 1, 1) == 9
    # 52 cards, one own card: 13 classes; with a board card, 13 * 12 * 2 (same suit or not) + 13 pairs
    full = CardDeck("23456789TJQKA", suits=4)
    assert view_classes(full, 1, 0, suits_together=True) == 13
    assert view_classes(full, 1, 1, suits_together=True) == 13 * 12 * 2 + 13


def test_suit_isomorphic_count_needs_distinct_cards():
    from exactpoker.core.poker_size import suit_isomorphic_size
    from exactpoker.errors import InvalidParameterError
    from exactpoker.games.library import poker_game

    with pytest.raises(InvalidParameterError, match="distinct cards"):
        suit_isomorphic_size(poker_game("leduc", ranks=3, suits=False))


def test_no_search_when_the_classes_cannot_merge_enough():
    compiled = _library("library:leduc(ranks=3)")  # the classes can merge 324 of 468 information sets a player
    skipped = symmetry_orbits(compiled, min_merge=0.9)
    assert skipped.generators == 0 and all(len(np.unique(r)) == 468 for r in skipped.representative)
    assert symmetry_orbits(compiled, min_merge=0.5).generators == 3


# -- the fast paths: entry keys and tree rebuilding ----------------------------------------------


@settings(max_examples=40, deadline=None)
@given(radices=st.lists(st.integers(1, 50), min_size=1, max_size=3), data=st.data())
def test_entry_keys_sort_and_match_as_the_rows(radices, data):
    from exactpoker.core.compiled import entry_keys

    rows = data.draw(st.lists(st.tuples(*(st.integers(0, r - 1) for r in radices)), max_size=30))
    sequences = np.array(rows, dtype=np.int64).reshape(len(rows), len(radices))
    keys = entry_keys(sequences, tuple(radices))
    assert [tuple(r) for r in sequences[np.argsort(keys, kind="stable")].tolist()] == sorted(rows)
    assert len(set(keys.tolist())) == len(set(rows))


def test_entry_keys_that_would_overflow_are_refused():
    from exactpoker.core.compiled import entry_keys

    assert entry_keys(np.zeros((1, 3), dtype=np.int64), (2**21, 2**21, 2**21)) is None


def test_rebuild_tree_shares_what_does_not_change():
    from exactpoker.core.tree import rebuild_tree
    from exactpoker.solve.structure.abstraction import relabel_infosets

    game = leduc_tree(ranks=3)
    assert rebuild_tree(game).root is game.root
    compiled = compile_tree(game)
    name = compiled.layouts[0].infoset_name(0)  # the first player's first decision with the first card
    renamed = relabel_infosets(game, [{name: name + "'"}, {}])
    assert renamed.root is not game.root
    layouts = compile_tree(renamed).layouts
    assert layouts[0].infoset_name(0) == name + "'" and layouts[1].names == compiled.layouts[1].names
    # Only the subtree of the first player's first card holds the renamed set; the others stay shared.
    kept = [new is old for (_, _, new), (_, _, old) in zip(renamed.root.outcomes, game.root.outcomes)]
    assert kept == [False] + [True] * (len(kept) - 1)


# -- the cheap parts of the search (issue 30's exact/float ratio) ---------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(-2**40, 2**40)), min_size=1, max_size=40))
def test_coefficient_classes_are_the_rows_lexicographic_ranks(rows):
    from exactpoker.solve.structure.symmetry import _coefficient_classes

    coefficients = np.array(rows, dtype=np.int64)
    expected = np.unique(coefficients, axis=0, return_inverse=True)[1].reshape(-1)
    assert np.array_equal(_coefficient_classes(coefficients), expected)
    as_objects = _coefficient_classes(coefficients.astype(object))  # Python ints: equal rows, equal classes
    assert all((as_objects[a] == as_objects[b]) == (rows[a] == rows[b]) for a in range(len(rows)) for b in range(a))


@pytest.mark.parametrize("spec", ["library:kuhn", "library:leduc", "openspiel:kuhn_poker",
                                  "library:ladder(n=12,sizes=1;2)"])
def test_layout_arrays_read_the_layout(spec):
    from exactpoker.solve.structure.symmetry import LayoutArrays

    for layout in _library(spec).layouts:
        arrays = LayoutArrays.of(layout)
        sequences = [layout.infoset_sequences(i) for i in range(layout.num_infosets)]
        assert arrays.firsts.tolist() == [s.start for s in sequences]
        assert arrays.widths.tolist() == [len(s) for s in sequences]
        assert arrays.parents.tolist() == [layout.parent_sequence(i) for i in range(layout.num_infosets)]


@pytest.mark.parametrize("spec", ["library:leduc(ranks=3)", "library:ladder(n=12,sizes=1;2)", "library:kuhn"])
@pytest.mark.parametrize("min_merge", [0.0, 0.05, 0.3, 0.99])
def test_the_early_stop_decides_as_the_stable_colouring_does(spec, min_merge):
    """Refinement stopped once too few information sets could merge: the same answer as at the stable colouring."""
    compiled = _library(spec)
    graph = SymmetryGraph.of(compiled)
    base = stable_colouring(graph.colours, graph.src, graph.dst, graph.label)
    first, cut = graph.inf_offsets[0], graph.entry_offset
    mergeable = cut - first - len(np.unique(base[first:cut]))
    orbits = symmetry_orbits(compiled, min_merge=min_merge)
    searched = symmetry_orbits(compiled)  # no bound: the search runs
    if mergeable < min_merge * (cut - first):
        assert orbits.generators == 0 and orbits.failures == 0
        assert all(np.array_equal(r, np.arange(len(r))) for r in orbits.representative)
    else:
        assert orbits.generators == searched.generators
        assert all(np.array_equal(a, b) for a, b in zip(orbits.representative, searched.representative))


@pytest.mark.parametrize("spec", ["library:leduc(ranks=3)", "library:leduc", "library:kuhn", "openspiel:kuhn_poker",
                                  "library:ladder(n=12,sizes=1;2)", "library:leduc(ranks=3,suits=False)"])
def test_the_signature_bound_never_exceeds_the_orbits(spec):
    """The one-pass signatures split information sets only where no automorphism can join them."""
    from exactpoker.solve.structure.symmetry import _signature_classes

    compiled = _library(spec)
    orbits = symmetry_orbits(compiled)  # the full search, no shortcut
    count = sum(len(np.unique(r)) for r in orbits.representative)
    assert 0 < _signature_classes(compiled) <= count
    if orbits.generators:  # a game with symmetry: the bound must leave its merges possible
        assert _signature_classes(compiled) < sum(layout.num_infosets for layout in compiled.layouts)


@settings(deadline=None, max_examples=25)
@given(st.booleans().flatmap(lambda general: twin_games(general=general)))
def test_the_signature_bound_never_exceeds_the_orbits_of_planted_twins(game):
    """On random games with planted twins the bound stays at or below the orbits the full search finds."""
    from exactpoker.solve.structure.symmetry import _signature_classes

    compiled = compile_tree(game)
    orbits = symmetry_orbits(compiled)
    assert _signature_classes(compiled) <= sum(len(np.unique(r)) for r in orbits.representative)


def test_liars_dice_histories_are_told_apart_without_the_graph(monkeypatch):
    """Every history with the same last bid has the same subtree: only the own paths down to the information
    sets tell them apart, and with them the bound alone rules out the search (no graph is built)."""
    from exactpoker.games.liars_dice import liars_dice
    from exactpoker.solve.engine.dispatch import MIN_MERGE
    from exactpoker.solve.structure.symmetry import _signature_classes

    compiled = liars_dice(sides=3, dice="2v1", rule="normal").compiled()
    infosets = sum(layout.num_infosets for layout in compiled.layouts)
    assert infosets - _signature_classes(compiled) < MIN_MERGE * infosets
    monkeypatch.setattr(SymmetryGraph, "of", classmethod(lambda cls, compiled: pytest.fail("graph built")))
    orbits = symmetry_orbits(compiled, min_merge=MIN_MERGE)
    assert orbits.generators == 0 and orbits.failures == 0
