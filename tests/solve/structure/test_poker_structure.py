"""A poker-language game read as a one-card betting game from its rules (issue 27: structure detected, not chosen).

The rules :func:`~exactpoker.core.poker_cards.card_game` writes must be the
game itself (compiled by the card-game compiler, the same sequence form by
name as ``compile_poker``), the layouts :func:`detect_poker_game` gives must be
``compile_poker``'s exactly (the strategies' order), and anything that is not
a one-card game must give ``None``.
"""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.core.compiler import compile_game
from exactpoker.core.poker import Betting, CardDeck, Deal, PokerGame, View, pairs_then_high_card
from exactpoker.core.poker_cards import card_game, card_tables
from exactpoker.core.poker_compile import compile_poker
from exactpoker.core.tree import compile_tree
from exactpoker.errors import InvalidGameError
from exactpoker.solve import solve_game
from exactpoker.solve.structure.poker_structure import detect_poker_game
from exactpoker.solve.engine.structured import has_structure
from tests.core.test_compilers_agree import named_sequence_form
from tests.core.test_poker_compile import compare


@st.composite
def one_card_games(draw) -> PokerGame:
    """Random poker-language games of one hole card each: players, deck, antes, one or two betting rounds."""
    players = draw(st.integers(2, 3))
    cards = draw(st.integers(players, 5 if players == 2 else 4))
    replacement = draw(st.booleans())
    ante = draw(st.lists(st.integers(0, 2), min_size=players, max_size=players))
    rounds = []
    count = draw(st.integers(1, 2 if players == 2 else 1))  # small trees: the tree compiler is the reference
    for _ in range(count):
        sizes = draw(st.lists(st.fractions(min_value=Fraction(1, 2), max_value=3, max_denominator=2),
                              min_size=1, max_size=3 - count, unique=True))
        bettors = draw(st.one_of(st.none(), st.lists(st.integers(0, players - 1), min_size=1, max_size=players,
                                                     unique=True)))
        rounds.append(Betting(sizes=sizes, max_bets=draw(st.integers(1, 2)), first=draw(st.integers(0, players - 1)),
                              bettors=bettors))
    deck = CardDeck.numbered(cards) if draw(st.booleans()) else CardDeck("ABCDEFG"[:cards])
    return PokerGame("random", players=players, deck=deck, ante=ante,
                     steps=[Deal(hole=1, replacement=replacement), *rounds])


def _renamed(detected, compiled):
    """``compiled`` (the card-game compiler's, information sets ``card:label``) named as the poker game names them."""
    renames = [{f"{card}:{label}": key for key, (card, label) in infosets.items()} for infosets in detected.infosets]
    infosets, entries = named_sequence_form(compiled)
    by_name = []
    for p, actions in enumerate(infosets):
        by_name.append({renames[p][k]: (acts, None if parent is None else (renames[p][parent[0]], parent[1]))
                        for k, (acts, parent) in actions.items()})
    renamed = {tuple(None if s is None else (renames[p][s[0]], s[1]) for p, s in enumerate(key)): value
               for key, value in entries.items()}
    return by_name, renamed


@settings(deadline=None, max_examples=50)
@given(game=one_card_games())
def test_rules_read_from_a_poker_game_are_the_game_itself(game):
    detected = detect_poker_game(game)
    assert detected is not None
    by_poker = compile_poker(game)
    # the layouts are compile_poker's, in its order: the strategies read the same either way
    for ours, theirs in zip(detected.tree.layouts, by_poker.layouts):
        assert (ours.names, ours.actions, ours.parents) == (theirs.names, theirs.actions, theirs.parents)
    assert _renamed(detected, compile_game(detected.rules)) == named_sequence_form(by_poker)
    assert detected.leaves == len(list(_leaves(by_poker.game.root)))


@settings(deadline=None, max_examples=50)
@given(game=one_card_games())
def test_one_card_games_compile_over_all_deals_at_once_to_the_tree_compilers_arrays(game):
    assert card_tables(game) is not None  # compile_poker takes the vectorised card path
    compare(game)


def test_the_leaf_limit_of_the_card_path_is_the_tree_compilers():
    game = von_neumann(6)  # 30 deals, 3 leaves each
    with pytest.raises(InvalidGameError) as tree:
        compile_tree(game.tree(), max_leaves=89)
    with pytest.raises(InvalidGameError) as cards:
        compile_poker(game, max_leaves=89)
    assert str(cards.value) == str(tree.value)
    compile_poker(game, max_leaves=90)


def _leaves(node):
    stack = [node]
    while stack:
        current = stack.pop()
        children = getattr(current, "actions", None) or getattr(current, "outcomes", None)
        if children is None:
            yield current
        else:
            stack.extend(child[-1] for child in children)


KUHN_STEPS = [Deal(hole=1), Betting(sizes=1, max_bets=1)]


@pytest.mark.parametrize("game", [
    PokerGame("suits", players=2, deck=CardDeck("JQK", suits=2), steps=KUHN_STEPS),
    PokerGame("copies", players=2, deck=CardDeck("JQQK"), steps=KUHN_STEPS),
    PokerGame("board", players=2, deck=CardDeck("JQKA"), steps=[Deal(hole=1, board=1), Betting()]),
    PokerGame("two deals", players=2, deck=CardDeck("JQKA"), steps=[*KUHN_STEPS, Deal(board=1), Betting()]),
    PokerGame("bet first", players=2, deck=CardDeck("JQK"), steps=[Betting(), Deal(hole=1), Betting()]),
    PokerGame("two cards", players=2, deck=CardDeck("JQKA"), steps=[Deal(hole=2), Betting()]),
    PokerGame("rake", players=2, deck=CardDeck("JQK"), steps=KUHN_STEPS, rake=Fraction(1, 10)),
    PokerGame("ranking", players=2, deck=CardDeck("JQK"), steps=KUHN_STEPS, ranking=pairs_then_high_card),
    PokerGame("payoff", players=2, deck=CardDeck("JQK"), steps=KUHN_STEPS, payoff=lambda s: (0, 0)),
    PokerGame("view", players=2, deck=CardDeck("JQK"), steps=KUHN_STEPS, view=View(key=lambda s: s.history[-1])),
], ids=lambda game: game.name)
def test_games_that_are_not_one_card_games_are_left_alone(game):
    assert card_game(game) is None
    assert detect_poker_game(game) is None


def von_neumann(n: int) -> PokerGame:
    """Von Neumann poker (seed 000 section 2) in the poker language: only the first player may bet, 2 into 2."""
    return PokerGame("vn", players=2, deck=CardDeck.numbered(n), ante=1,
                     steps=[Deal(hole=1), Betting(sizes=2, max_bets=1, bettors=(0,))])


@pytest.mark.parametrize("n", [3, 6, 11])
def test_the_structured_path_gives_the_general_paths_equilibrium(n):
    game = von_neumann(n)
    found = solve_game(game)  # the structured path, found in the rules
    general = solve_game(compile_poker(game))
    assert found.method.startswith("card-by-card LP")
    assert found.value == general.value
    assert found.equilibria[0].strategies == general.equilibria[0].strategies
    assert found.details["structure"] == {"source": "poker rules", "cards": n, "replacement": False,
                                          "leaves": n * (n - 1) * 3, "verified_on_tree": True}


def test_a_large_deck_is_solved_from_the_rules_without_a_tree(monkeypatch):
    from exactpoker.core import poker_compile
    from exactpoker.solve.engine.loaded import as_loaded

    game = von_neumann(1500)
    monkeypatch.setattr(poker_compile, "compile_poker", lambda *args: pytest.fail("compiled a game of 6.7 million leaves"))
    loaded = as_loaded(game)
    found = solve_game(loaded)
    assert found.equilibria[0].certificate.holds
    assert found.details["structure"]["verified_on_tree"] is False
    assert not loaded.tree.built  # the lazy tree was never read
    assert list(found.equilibria[0].strategies["P1"])[:2] == ["1|", "2|"]


def test_kuhn_is_read_but_has_no_structured_path():
    kuhn = PokerGame("kuhn", players=2, deck=CardDeck("JQK"), ante=1, steps=KUHN_STEPS)
    assert detect_poker_game(kuhn) is not None
    assert detect_poker_game(kuhn, accept=has_structure) is None


def test_solve_game_takes_the_structured_path_of_a_poker_game_and_compiles_only_when_asked(monkeypatch):
    from exactpoker.core import poker_compile

    game = von_neumann(9)
    structured, by_lp = solve_game(game), solve_game(game, method="lp")
    assert structured.method.startswith("card-by-card LP") and by_lp.method.startswith("sequence-form LP")
    assert structured.value == by_lp.value
    assert structured.details["structure"]["source"] == "poker rules"

    def refuse(*args, **kwargs):
        raise AssertionError("compiled")

    monkeypatch.setattr(poker_compile, "compile_poker", refuse)
    large = solve_game(von_neumann(1200))  # 4.3 million leaves: never compiled, never built
    assert large.equilibria[0].certificate.holds and not large.details["structure"]["verified_on_tree"]
