"""A one-card betting game detected inside any game tree (issue 27 item 2).

Seed 000's games (von Neumann poker, section 2; Newman poker, section 3;
three-player poker, section 4) given as a tree -- ``BettingGame.tree()``, a
``.efg`` file -- are recognised, their rules recovered exactly, and solved by
the structured paths of the named commands; the answer comes back in the
tree's own names and is checked on the tree.  Trees that are not such a game
give ``None``.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactpoker.certify import verify
from exactpoker.cli import main
from exactpoker.core import BettingGame, Decision, Deck, Outcome, compile_game
from exactpoker.core.tree import Chance, GameTree, Move, Terminal, compile_tree, map_terminals, rebuild_tree
from exactpoker.formats import load_game
from exactpoker.formats.efg import read_efg, to_efg, write_efg
from exactpoker.games.library import poker_game
from exactpoker.errors import InvalidParameterError
from exactpoker.solve import solve_game
from exactpoker.solve.engine import structured_tree
from exactpoker.solve.engine.structured import STRUCTURED_METHOD, has_structure
from exactpoker.solve.structure.card_structure import detect_betting_game

F = Fraction
SEED_GAMES = [("vn", {"n": 6, "b": 2}), ("vn", {"n": 5, "b": F(1, 2)}), ("newman", {"n": 6, "b": 2}),
              ("three", {"n": 5, "b": 2})]


def entries(compiled) -> dict:
    """The sequence form as exact payoffs by sequences (entry order and the common denominator aside)."""
    pairs = zip(map(tuple, compiled.sequences.tolist()), compiled.coefficients.tolist())
    return {seqs: tuple(F(int(v), compiled.denominator) for v in row) for seqs, row in pairs if any(row)}


def layouts(layouts) -> list:
    return [(layout.names, layout.actions, layout.parents) for layout in layouts]


def solve_tree(tree: GameTree):
    """The tree solved by its structured path (``method="structured"``); ``None`` when it has none."""
    try:
        return solve_game(tree, method="structured")
    except InvalidParameterError as error:
        assert "--method structured needs a one-card betting game" in str(error)
        return None


# -- the seed's games are found, through BettingGame.tree() and .efg files ---------------------------------------


@pytest.mark.parametrize("name,params", SEED_GAMES)
def test_seed_games_recovered_from_their_trees(name, params):
    rules = poker_game(name, **params)
    tree = rules.tree()
    found = detect_betting_game(tree)
    assert found is not None
    assert found.rules.deck == rules.deck and found.rules.player_names == rules.player_names
    assert entries(compile_game(found.rules)) == entries(compile_game(rules))
    assert layouts(found.tree.layouts) == layouts(compile_tree(tree).layouts)


@pytest.mark.parametrize("name,params", SEED_GAMES)
@pytest.mark.parametrize("writer", [to_efg, lambda rules: write_efg(rules.tree())], ids=["to_efg", "write_efg"])
def test_seed_games_recovered_through_efg(name, params, writer):
    rules = poker_game(name, **params)
    tree = read_efg(writer(rules)).tree
    found = detect_betting_game(tree)
    assert found is not None
    assert entries(compile_game(found.rules)) == entries(compile_game(rules))
    assert layouts(found.tree.layouts) == layouts(compile_tree(tree).layouts)


@pytest.mark.parametrize("name,params", SEED_GAMES)
def test_tree_result_equals_the_rules_result(name, params):
    rules = poker_game(name, **params)
    tree = rules.tree()  # its information sets are named "card:label", as the rules' results key them
    mine, theirs = solve_tree(tree), solve_game(rules)
    assert mine.method == theirs.method
    assert [e.exact_values for e in mine.equilibria] == [e.exact_values for e in theirs.equilibria]
    assert [e.exact_strategies for e in mine.equilibria] == [e.exact_strategies for e in theirs.equilibria]
    compiled = compile_tree(tree)
    for equilibrium in mine.equilibria:
        assert verify(compiled, equilibrium.profile).holds
        assert equilibrium.certificate.scope == "all strategies" and equilibrium.certified
    assert mine.details["structure"]["verified_on_tree"]


def test_large_tree_keeps_the_structured_certificate(monkeypatch):
    rules = poker_game("vn", n=7, b=3)
    tree = rules.tree()
    monkeypatch.setattr(structured_tree, "VERIFY_LEAVES", 10)
    unchecked = solve_tree(tree)
    assert not unchecked.details["structure"]["verified_on_tree"]
    assert unchecked.equilibria[0].certified
    assert unchecked.equilibria[0].exact_values == solve_game(rules).equilibria[0].exact_values
    assert verify(compile_tree(tree), unchecked.equilibria[0].profile).holds


def test_efg_file_solved_by_the_card_by_card_lp(tmp_path, capsys):
    """``solve FILE.efg`` of von Neumann poker: the named command's method, the same values, Gambit's layout."""
    path = tmp_path / "vn.efg"
    assert main(["vn", "efg", "--n", "9", "--b", "2", "-o", str(path)]) in (0, None)
    capsys.readouterr()
    assert main(["solve", str(path), "--json"]) in (0, None)
    mine = json.loads(capsys.readouterr().out)
    assert main(["solve", "library:vn(n=9,b=2)", "--json"]) in (0, None)
    theirs = json.loads(capsys.readouterr().out)
    assert mine["method"] == theirs["method"] == STRUCTURED_METHOD
    assert mine["equilibria"][0]["values"] == theirs["equilibria"][0]["values"]
    assert mine["details"]["structure"] == {"source": "game tree", "cards": "9", "replacement": False,
                                            "leaves": "216", "verified_on_tree": True}
    jsonschema = pytest.importorskip("jsonschema")
    from exactpoker.schema import schema
    from tests.cli.test_schema import undocumented

    jsonschema.Draft202012Validator(schema()).validate(mine)
    assert undocumented(mine, schema()) == []
    loaded = load_game(str(path))
    strategies = mine["equilibria"][0]["strategies"]
    assert [len(rows) for rows in strategies.values()] == [9, 9]  # Gambit's behaviour profile: per information set
    labelled = mine["equilibria"][0]["labelled_strategies"]
    assert set(labelled["I"]) == set(compile_tree(loaded.tree).layouts[0].names)
    assert main(["solve", str(path), "--method", "lp", "--json"]) in (0, None)  # an option: the general path
    general = json.loads(capsys.readouterr().out)
    assert general["method"] != STRUCTURED_METHOD and general["equilibria"][0]["values"] == mine["equilibria"][0]["values"]


def test_solve_game_takes_the_structured_path():
    tree = poker_game("newman", n=5, b=2).tree()
    found = solve_game(tree)
    assert found.method == STRUCTURED_METHOD
    general = solve_game(tree, method="lp")
    assert general.method != STRUCTURED_METHOD
    assert general.equilibria[0].exact_values == found.equilibria[0].exact_values


# -- names are arbitrary; order of deals too; chance may deal card by card -----------------------------------------


def test_names_and_deal_order_do_not_matter():
    rules = poker_game("vn", n=5, b=2)
    tree = rules.tree()
    shuffled = list(tree.root.outcomes)
    random.Random(3).shuffle(shuffled)
    renamed = [(f"deal {k}", p, child) for k, (_, p, child) in enumerate(shuffled)]
    secret = {}
    tree2 = rebuild_tree(GameTree("x", ("A", "B"), Chance(tuple(renamed))),
                         infoset=lambda node: secret.setdefault(node.infoset, f"s{len(secret) * 7 % 11}-{len(secret)}"))
    found = detect_betting_game(tree2)
    assert found is not None and entries(compile_game(found.rules)) == entries(compile_game(rules))
    result = solve_tree(tree2)
    assert result.equilibria[0].exact_values == solve_game(rules).equilibria[0].exact_values
    assert set(result.equilibria[0].exact_strategies["A"]) == {secret[f"{c}:open"] for c in range(1, 6)}


def test_chance_dealing_card_by_card():
    """Chance deals I's card, then II's (as OpenSpiel does): the deals are the paths through the chance nodes."""
    rules = poker_game("vn", n=4, b=1)
    subtree = {name: child for name, _, child in rules.tree().root.outcomes}
    first = tuple((f"I gets {i}", F(1, 4), Chance(tuple(
        (f"II gets {j}", F(1, 3), subtree[f"{i},{j}"]) for j in range(1, 5) if j != i))) for i in range(1, 5))
    found = detect_betting_game(GameTree("vn", ("I", "II"), Chance(first)))
    assert found is not None and entries(compile_game(found.rules)) == entries(compile_game(rules))


# -- trees that are not such a game, or not exactly ---------------------------------------------------------------


def _vn_tree():
    return poker_game("vn", n=4, b=2).tree()


def _replace_deal(tree: GameTree, index: int, change) -> GameTree:
    outcomes = list(tree.root.outcomes)
    name, p, child = outcomes[index]
    outcomes[index] = change(name, p, child)
    return GameTree(tree.name, tree.player_names, Chance(tuple(outcomes)), tree.parameters)


def test_kuhn_is_a_betting_game_without_a_structured_path():
    tree = poker_game("kuhn").tree()
    found = detect_betting_game(tree)
    assert found is not None  # one card each, one betting tree: recovered, and its value is Kuhn's
    assert solve_game(found.rules).equilibria[0].exact_values[0] == F(-1, 18)
    assert solve_tree(tree) is None and solve_game(tree).method.startswith("sequence-form LP")
    drafts = []
    assert detect_betting_game(tree, accept=lambda draft: drafts.append(draft) or False) is None
    assert [draft.deck for draft in drafts] == [Deck(3)] and not has_structure(drafts[0])
    vn = detect_betting_game(_vn_tree(), accept=has_structure)
    assert vn is not None and vn.rules.deck == Deck(4)


@pytest.mark.parametrize("name", ["leduc", "two_round"])
def test_board_card_games_are_not_detected(name):
    assert detect_betting_game(poker_game(name).tree()) is None


def test_one_payoff_changed():
    changed = _replace_deal(_vn_tree(), 5, lambda name, p, child: (name, p, map_terminals(
        GameTree("d", ("I", "II"), child), lambda pay: (pay[0] + 1, pay[1] - 1)).root))
    assert detect_betting_game(changed) is None


def test_one_leaf_not_zero_sum_or_not_an_outcome():
    tree = _vn_tree()
    payoffs = iter(range(10**6))
    first = _replace_deal(tree, 0, lambda name, p, child: (name, p, rebuild_tree(
        GameTree("d", ("I", "II"), child), leaf=lambda leaf: Terminal((F(next(payoffs)), -leaf.payoffs[1]))).root))
    assert detect_betting_game(first) is None


def test_information_set_merged_across_cards():
    merged = rebuild_tree(_vn_tree(), infoset=lambda node: "1:open" if node.infoset == "2:open" else node.infoset)
    assert compile_tree(merged)  # still a valid game
    assert detect_betting_game(merged) is None


def test_card_in_one_information_set_swapped():
    """Deal (1,2): I's information set named as if he held card 3 (he then knows less than the rules say)."""
    swapped = _replace_deal(_vn_tree(), 0, lambda name, p, child: (name, p, Move(
        child.player, "3:open", child.actions)))
    assert compile_tree(swapped)
    assert detect_betting_game(swapped) is None


def test_unequal_deal_probabilities():
    tree = _vn_tree()
    outcomes = list(tree.root.outcomes)
    share = F(1, len(outcomes))
    outcomes[0] = (outcomes[0][0], share + F(1, 100), outcomes[0][2])
    outcomes[1] = (outcomes[1][0], share - F(1, 100), outcomes[1][2])
    assert detect_betting_game(GameTree("vn", ("I", "II"), Chance(tuple(outcomes)))) is None


def test_chance_deal_names_swapped_are_only_names():
    tree = _vn_tree()
    outcomes = list(tree.root.outcomes)
    outcomes[0], outcomes[1] = (outcomes[1][0],) + outcomes[0][1:], (outcomes[0][0],) + outcomes[1][1:]
    found = detect_betting_game(GameTree("vn", ("I", "II"), Chance(tuple(outcomes))))
    assert found is not None  # the cards come from the structure, not from the names


def test_betting_differs_between_deals():
    tree = _vn_tree()
    other = poker_game("vn", n=4, b=3).tree()  # same shape, other payoffs
    kuhn_like = _replace_deal(tree, 2, lambda name, p, child: (name, p, Move(
        child.player, child.infoset, (("check", child.actions[0][1]), ("raise", child.actions[1][1])))))
    assert detect_betting_game(kuhn_like) is None
    mixed = _replace_deal(tree, 3, lambda name, p, child: (name, p, other.root.outcomes[3][2]))
    assert detect_betting_game(mixed) is None


def test_chance_inside_the_betting_and_missing_deals():
    tree = _vn_tree()
    inner = _replace_deal(tree, 0, lambda name, p, child: (name, p, Move(child.player, child.infoset, (
        ("check", Chance((("x", F(1), child.actions[0][1]),))), child.actions[1]))))
    assert detect_betting_game(inner) is None
    fewer = tuple((name, F(1, 11), child) for name, _, child in tree.root.outcomes[:11])
    assert detect_betting_game(GameTree("vn", ("I", "II"), Chance(fewer))) is None


# -- property: random small betting games come back exactly --------------------------------------------------------


@st.composite
def betting_games(draw) -> BettingGame:
    """A random one-card betting game; a showdown of every pair of players keeps every card's rank visible."""
    k = draw(st.integers(2, 3))
    replacement = k == 2 and draw(st.booleans())
    cards = draw(st.integers(k, 4))
    stakes = st.lists(st.integers(0, 3).map(F), min_size=k, max_size=k)
    count = [0]

    def outcome() -> Outcome:
        active = tuple(sorted(draw(st.sets(st.integers(0, k - 1), min_size=1))))
        return Outcome(tuple(draw(stakes)), active, draw(st.booleans()))

    def node(depth: int):
        if depth == 0 or draw(st.integers(0, 3)) == 0:
            return outcome()
        count[0] += 1
        player, label = draw(st.integers(0, k - 1)), f"n{count[0]}"
        actions = draw(st.integers(2, 3))
        return Decision(player, label, tuple((f"a{i}", node(depth - 1)) for i in range(actions)))

    pairs = [(p, q) for p in range(k) for q in range(p + 1, k)]
    showdowns = [Outcome(tuple(F(1) for _ in range(k)), pair, True) for pair in pairs]
    root = Decision(k - 1, f"first{k - 1}", (("go", node(2)), ("show", showdowns[(k - 1) % len(showdowns)])))
    for p in reversed(range(k - 1)):
        root = Decision(p, f"first{p}", (("go", root), ("show", showdowns[p % len(showdowns)])))
    if k == 3:
        root = Decision(0, "start", (("left", root), ("right", showdowns[2])))
    return BettingGame("random", Deck(cards, replacement), root, tuple(f"P{p}" for p in range(k)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(betting_games())
def test_random_betting_games_recovered(game):
    compiled = compile_game(game)  # every label is used once: perfect recall holds
    tree = game.tree()
    found = detect_betting_game(tree)
    assert found is not None
    assert entries(compile_game(found.rules)) == entries(compiled)
    assert layouts(found.tree.layouts) == layouts(compile_tree(tree).layouts)


def test_labels_stay_apart_when_action_names_hold_slashes():
    """II decides after "x/y" and after "x" then "y": two labels, though their action paths read alike."""
    show = Outcome((F(1), F(1)), (0, 1))
    fold_or_call = (("fold", Outcome((F(1), F(2)), (0,), False)), ("call", Outcome((F(2), F(2)), (0, 1))))
    root = Decision(0, "r", (("x/y", Decision(1, "A", fold_or_call)),
                             ("x", Decision(0, "s", (("y", Decision(1, "B", fold_or_call)), ("z", show)))),
                             ("w", show)))
    rules = BettingGame("slashes", Deck(3), root, ("I", "II"))
    found = detect_betting_game(rules.tree())
    assert found is not None and len(set(found.infosets[1].values())) == 6
    assert entries(compile_game(found.rules)) == entries(compile_game(rules))


@pytest.mark.openspiel
def test_openspiel_kuhn_is_read_card_by_card():
    """OpenSpiel deals one chance node per player and names everything its own way; Kuhn is still recovered
    (value -1/18), and, having no structured path, still solved as a general tree."""
    pytest.importorskip("pyspiel")
    tree = load_game("openspiel:kuhn_poker").tree
    found = detect_betting_game(tree)
    assert found is not None and found.rules.deck == Deck(3)
    assert solve_game(found.rules).equilibria[0].exact_values[0] == F(-1, 18)
    assert solve_tree(tree) is None


@pytest.mark.parametrize("name,params", [("newman", "n=6,b=2"), ("three", "n=5,b=2")])
def test_efg_files_of_newman_and_three_player_poker(tmp_path, capsys, name, params):
    """Newman (several labels for II) and three-player poker (the ordered model): the library's answer, from a file."""
    rules = poker_game(name, **{k: int(v) for k, v in (item.split("=") for item in params.split(","))})
    path = tmp_path / f"{name}.efg"
    path.write_text(to_efg(rules))
    assert main(["solve", str(path), "--json"]) in (0, None)
    mine = json.loads(capsys.readouterr().out)
    assert main(["solve", f"library:{name}({params})", "--json"]) in (0, None)
    theirs = json.loads(capsys.readouterr().out)
    assert mine["method"] == theirs["method"]
    assert [e["values"] for e in mine["equilibria"]] == [e["values"] for e in theirs["equilibria"]]
    assert all(e["certified"] and e["certificate"]["scope"] == "all strategies" for e in mine["equilibria"])
    assert mine["details"]["structure"]["verified_on_tree"] is True


@pytest.mark.parametrize("name", ["simple", "goldman_stone", "nash_shapley"])
def test_other_seed_games_recovered_without_a_structured_path(name):
    """The Euler notes' game and Nash-Shapley (dealt with replacement), Goldman-Stone (simultaneous moves):
    one-card betting games, recovered exactly, solved as general trees (no O(n) path applies)."""
    rules = poker_game(name)
    tree = rules.tree()
    found = detect_betting_game(tree)
    assert found is not None and found.rules.deck == rules.deck
    assert entries(compile_game(found.rules)) == entries(compile_game(rules))
    assert solve_tree(tree) is None
