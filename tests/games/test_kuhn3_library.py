"""Seed 003's presentation of the library game kuhn3 (exactpoker.games.papers.kuhn3_tables).

The node tables are checked against the seed's own rules (games/papers/kuhn3.py's
BettingGame, compiled by the other compiler): the same table played in both
games gives the same payoffs, an independent check of the history -> node map.
"""

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.certify import verify
from exactpoker.cli import main
from exactpoker.core.profile import BehaviourProfile
from exactpoker.core.tree import compile_tree
from exactpoker.games.papers import kuhn3
from exactpoker.games import library
from exactpoker.games.papers.kuhn3_tables import HISTORIES, node_of, node_tables


def _library_profile(compiled, table):
    """The library game's profile that plays the node ``table`` (the aggressive action by its name)."""
    strategies = []
    for layout in compiled.layouts:
        rows = []
        for i in range(layout.num_infosets):
            node, card = node_of(layout.infoset_name(i))
            q = table[str(node)][card - 1]
            rows.append(tuple(q if action == ("b" if node <= 3 else "c") else 1 - q
                              for action in layout.infoset_actions(i)))
        strategies.append(tuple(rows))
    return BehaviourProfile(tuple(strategies))


def test_every_information_set_of_the_library_game_is_one_of_the_seeds_nodes():
    compiled = compile_tree(library.game("kuhn3", cards=5, pot=Fraction(3)))
    found = {node_of(layout.infoset_name(i)) for layout in compiled.layouts for i in range(layout.num_infosets)}
    assert found == {(node, card) for node in range(1, 13) for card in range(1, 6)}
    assert sorted(HISTORIES.values()) == list(range(1, 13))
    assert node_of("2:3|cbc") == (9, 3) and node_of("4|") == (1, 4)


@settings(max_examples=8, deadline=None)
@given(st.integers(4, 5), st.sampled_from([Fraction(2), Fraction(5, 2), Fraction(3)]), st.data())
def test_a_node_table_pays_the_same_in_the_library_game_and_the_seeds_rules(cards, pot, data):
    probability = st.fractions(min_value=0, max_value=1, max_denominator=7)
    table = {str(node): data.draw(st.lists(probability, min_size=cards, max_size=cards)) for node in range(1, 13)}
    lib = compile_tree(library.game("kuhn3", cards=cards, pot=pot))
    profile = _library_profile(lib, table)
    assert node_tables(lib, profile) == table
    seed = kuhn3.compiled(cards, pot)
    assert verify(lib, profile).payoffs == verify(seed, kuhn3.profile_from_nodes(seed, table)).payoffs


def test_the_command_names_the_engines_support_by_node_and_card(capsys):
    assert main(["kuhn3", "--cards", "4", "--pot", "3", "--json"]) == 0
    named = json.loads(capsys.readouterr().out)
    assert main(["solve", "library:kuhn3(cards=4,pot=3)", "--json"]) == 0
    general = json.loads(capsys.readouterr().out)
    assert [node_of(name) for name in general["details"]["mixed"]] == [tuple(map(int, m))
                                                                       for m in named["details"]["mixed"]]
    assert [[*node_of(name), value] for name, value in general["details"]["pinned"]] == [
        [int(node), int(card), value] for node, card, value in named["details"]["pinned"]]
    strategies = named["equilibria"][0]["strategies"]
    for node, card, value in named["details"]["pinned"]:
        assert strategies[node][int(card) - 1] == value
    assert named["method"] == general["method"] and "legend" in named


@pytest.mark.parametrize("cards,pot", [(4, "3"), (5, "5/2")])
def test_the_python_api_is_the_command(cards, pot):
    """kuhn3.equilibrium (the API door) returns the engine's certified equilibrium in node tables."""
    result = kuhn3.equilibrium(cards, pot)
    [eq] = result.equilibria
    assert eq.certified and eq.certificate.scope.startswith("all strategies, and optimal at every own information set")
    seed = kuhn3.compiled(cards, pot)
    assert verify(seed, kuhn3.profile_from_nodes(seed, eq.exact_strategies)).holds
