"""compile_poker (core/poker_compile.py): the poker language compiled from its rules equals compile_tree(game.tree()).

Array by array: the layouts (names, actions, parents, in order), the entries'
sequences and coefficients (values, order and dtype) and the denominator; and
the compiled game's tree is built only when a consumer reads it.
"""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings

from exactpoker.core import Betting, CardDeck, Deal, PokerGame, View, pairs_then_high_card
from exactpoker.core.poker_compile import compile_poker
from exactpoker.core.tree import GameTree, LazyTree, compile_tree
from exactpoker.errors import InvalidGameError
from exactpoker.formats import load_game
from exactpoker.games.library import compiled_game, poker_game
from exactpoker.solve.structure.abstraction import lossless_abstraction
from exactpoker.solve import solve_game
from tests.strategies import forgetful, poker_games


def assert_same(direct, tree):
    """Two compiled games equal array by array (the solvers' input, and so every answer, the same)."""
    assert direct.player_names == tree.player_names and direct.game.name == tree.game.name
    assert direct.game.parameters == tree.game.parameters
    assert [(l.names, l.actions, l.parents) for l in direct.layouts] == \
        [(l.names, l.actions, l.parents) for l in tree.layouts]
    assert direct.denominator == tree.denominator
    for mine, theirs in ((direct.sequences, tree.sequences), (direct.coefficients, tree.coefficients)):
        assert mine.dtype == theirs.dtype and mine.shape == theirs.shape
        assert np.array_equal(mine, theirs)


def compare(game: PokerGame):
    """compile_poker(game) against compile_tree(game.tree()): the same arrays, or the same error."""
    try:
        tree = compile_tree(game.tree())
    except InvalidGameError as error:
        with pytest.raises(InvalidGameError) as raised:
            compile_poker(game)
        assert str(raised.value) == str(error)
        return None
    direct = compile_poker(game)
    assert isinstance(direct.game, LazyTree) and not direct.game.built
    assert_same(direct, tree)
    return direct


LIBRARY = [("kuhn", {}), ("kuhn", {"ante": "1/2", "bet": "3/2"}), ("leduc", {"ranks": 3}),
           ("leduc", {"ranks": 3, "suits": "false", "rake": "1/10"}), ("kuhn3", {"cards": 5}),
           ("leduc", {"players": 3, "ranks": 2}), ("ladder", {}), ("ladder", {"n": 4, "sizes": "1/2;1;3"}),
           ("two_round", {})]


@pytest.mark.parametrize("name, params", LIBRARY)
def test_library_games_compile_to_the_tree_compilers_arrays(name, params):
    direct = compare(poker_game(name, **params))
    assert_same(compiled_game(name, **params), direct)
    assert not direct.game.built
    # the lazy tree, once read, is the game's own tree: it compiles to the same arrays
    assert_same(compile_tree(direct.game), direct)
    assert direct.game.built


def test_library_loading_compiles_from_the_rules():
    loaded = load_game("library:leduc(ranks=3)")
    assert loaded.compiled is not None and loaded.tree is loaded.compiled.game and not loaded.tree.built
    assert_same(loaded.compiled, compile_tree(poker_game("leduc", ranks=3).tree()))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(game=poker_games())
def test_random_games_compile_to_the_tree_compilers_arrays(game):
    compiled = compare(game)
    event("refused (perfect recall)" if compiled is None
          else f"{game.players} players, {'< 50' if len(compiled.sequences) < 50 else '>= 50'} entries")


def test_a_round_before_any_card_and_deals_in_a_row():
    steps = [Betting(sizes=(1, 2), first=1), Deal(hole=1), Deal(board=1, replacement=True), Betting(max_bets=2)]
    game = PokerGame("odd", 3, CardDeck("JQKA"), steps, ante=(1, 2, 0), ranking=pairs_then_high_card,
                     rake=Fraction(1, 20))
    assert compare(game).num_players == 3


def test_a_forgetful_view_is_refused_with_the_tree_compilers_message():
    steps = [Deal(hole=1), Betting(), Deal(board=1), Betting()]
    game = PokerGame("forgetful", 2, CardDeck("JQ", copies=2), steps, view=View(key=forgetful))
    assert compare(game) is None  # both raised, with one message
    with pytest.raises(InvalidGameError, match="perfect recall"):
        compile_poker(game)


def test_errors_and_the_leaf_limit_as_the_tree_compiler():
    kuhn = poker_game("kuhn")
    wrong = PokerGame("kuhn", 2, CardDeck("JQK"), kuhn.steps, payoff=lambda s: (0,))
    with pytest.raises(InvalidGameError, match="payoff\\(\\) returned 1 values for 2 players"):
        compile_poker(wrong)
    with pytest.raises(InvalidGameError, match="more than 20 leaves"):
        compile_poker(kuhn, max_leaves=20)
    assert compile_poker(kuhn, max_leaves=30).num_players == 2  # Kuhn has 30 leaves


def test_the_abstraction_of_a_lazy_tree_stays_lazy_and_renames_the_built_tree():
    game = poker_game("leduc", ranks=3)
    lazy, eager = lossless_abstraction(compile_poker(game)), lossless_abstraction(compile_tree(game.tree()))
    assert lazy.reduces and isinstance(lazy.reduced.game, LazyTree) and not lazy.reduced.game.built
    assert not lazy.full.game.built
    assert_same(lazy.reduced, eager.reduced)
    renamed = lazy.reduced.game
    assert isinstance(renamed.root, object) and renamed.built and lazy.full.game.built
    assert_same(compile_tree(renamed), compile_tree(eager.reduced.game))


def test_solving_leduc_builds_no_tree(monkeypatch):
    def refuse(self):
        raise AssertionError("a tree was built")

    game = poker_game("leduc", ranks=3)
    expected = solve_game(compile_tree(game.tree())).to_dict()
    monkeypatch.setattr(PokerGame, "tree", refuse)
    result = solve_game(game)
    assert result.to_dict() == expected and result.equilibria[0].certified
    assert result.details["abstraction"]["information_sets"]["reduced"] < \
        result.details["abstraction"]["information_sets"]["full"]


@pytest.mark.parametrize("name, params", [("kuhn", {"ante": "1/2"}), ("leduc", {"ranks": 2, "rake": "1/10"}),
                                          ("kuhn3", {"cards": 4}), ("two_round", {"ranks": 2})])
def test_answers_are_the_tree_routes(name, params):
    """The same answers, JSON and all, from the rules as from the tree (the consumers that read nodes build it)."""
    game = poker_game(name, **params)
    direct, tree = compile_poker(game), compile_tree(game.tree())
    assert solve_game(direct).to_dict() == solve_game(tree).to_dict()
    assert isinstance(direct.game, GameTree)


def test_the_solve_command_compiles_library_games_from_their_rules(monkeypatch, capsys):
    """``solve library:...`` builds no tree and prints what the tree route gives."""
    import json

    from exactpoker.cli import main
    from exactpoker.results import with_snake_keys

    game = poker_game("leduc", ranks=3)
    expected = json.loads(json.dumps(with_snake_keys(solve_game(compile_tree(game.tree())).to_dict())))

    def refuse(self):
        raise AssertionError("a tree was built")

    monkeypatch.setattr(PokerGame, "tree", refuse)
    assert main(["solve", "library:leduc(ranks=3)", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == expected
