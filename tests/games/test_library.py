"""The shipped library (games/library.py): each game against an independent description of it."""

import json
import re
from fractions import Fraction

import pytest

from exactpoker.cli import main
from exactpoker.core.tree import compile_tree
from exactpoker.errors import InvalidParameterError
from exactpoker.formats import load_game
from exactpoker.games.papers import kuhn3
from exactpoker.games.library import describe_library, game, poker_game
from exactpoker.solve import solve_game
from tests.example_games import kuhn_tree, leduc_tree, sequence_form_entries

#: Leduc Hold'em's value for the first player (computed by this project; OpenSpiel's CFR gives about -0.0856).
LEDUC_VALUE = Fraction(-1454920850547486749701863871533, 16995463438839962469905132501930)


def test_kuhn_is_the_hand_written_kuhn():
    def rename(player, infoset, action):  # kuhn_tree: "Kpb" with p/b; the library: "K|cb" with c/b/f
        card, history = infoset[0], infoset[1:]
        return f"{card}|{history.replace('p', 'c')}", _facing_action(history, action)

    assert sequence_form_entries(compile_tree(game("kuhn"))) == sequence_form_entries(compile_tree(kuhn_tree()), rename)


def _facing_action(history: str, action: str) -> str:
    """Kuhn's pass/bet as the language's names: after a bet, pass is a fold and bet a call."""
    facing = "b" in history
    return {"p": "fc"[not facing], "b": "cb"[not facing]}[action[0].lower()]


KUHN3_NODES = {1: "", 2: "c", 3: "cc", 4: "ccb", 5: "ccbf", 6: "ccbc", 7: "cb", 8: "cbf", 9: "cbc", 10: "b",
               11: "bf", 12: "bc"}


@pytest.mark.parametrize("cards, pot", [(4, 3), (5, Fraction(5, 2))])
def test_kuhn3_is_the_seed_003_model(cards, pot):
    """library:kuhn3(cards=N, pot=P) is `exactpoker kuhn3 --cards N --pot P` (ante P/3, bets of 1)."""
    def rename(player, infoset, action):
        card, node = infoset.split(":")
        return f"{card}|{KUHN3_NODES[int(node)]}", {"check": "c", "bet": "b", "fold": "f", "call": "c"}[action]

    ours = compile_tree(game("kuhn3", cards=cards, pot=pot))
    assert ours.is_zero_sum
    assert sequence_form_entries(ours) == sequence_form_entries(kuhn3.compiled(cards, pot), rename)


def test_leduc_is_the_hand_written_leduc():
    suit = {"1": "s", "2": "h"}

    def rename(player, infoset, action):  # leduc_tree: "J1Q2:cr/r" with f/c/r; the library: "Js:Qh|cb/b"
        cards, history = infoset.split(":")
        names = [cards[i:i + 2] for i in range(0, len(cards), 2)]
        shown = ":".join(name[0] + suit[name[1]] for name in names)
        rounds = [rnd.replace("r", "b", 1) for rnd in history.split("/")]
        if action == "r":
            action = "r" if "b" in rounds[-1] else "b"
        return f"{shown}|{'/'.join(rounds)}", action

    ours = compile_tree(game("leduc"))
    assert [layout.num_infosets for layout in ours.layouts] == [468, 468]
    assert sequence_form_entries(ours) == sequence_form_entries(compile_tree(leduc_tree()), rename)


def test_leduc_value_exact_and_certified():
    """Leduc without suits (J J Q Q K K as a multiset: 144 information sets each) has Leduc's value."""
    compiled = compile_tree(game("leduc", suits="false"))
    assert [layout.num_infosets for layout in compiled.layouts] == [144, 144]
    result = solve_game(compiled)
    assert result.value == LEDUC_VALUE and result.equilibria[0].certified


def _openspiel_leduc_rename(ranks: str):
    """OpenSpiel's Leduc information-state strings and actions in the language's names (card id = 2 rank + suit)."""
    names = [rank + suit for rank in ranks for suit in "sh"]
    letters = {"0": "f", "1": "c", "2": "b"}

    def history(actions: str) -> str:
        out = ""
        for a in actions.split():
            out += "r" if a == "2" and "b" in out else letters[a]
        return out

    def rename(player, infoset, action):
        fields = dict(re.findall(r"\[(\w[\w ]*): ([^\]]*)\]", infoset))
        cards = names[int(fields["Private"])] + (f":{names[int(fields['Public'])]}" if "Public" in fields else "")
        rounds = [history(fields["Round1"])] + ([history(fields["Round2"])] if "Public" in fields else [])
        letter = {"Fold": "f", "Call": "c", "Raise": "r" if "b" in rounds[-1] else "b"}[action]
        return f"{cards}|{'/'.join(rounds)}", letter

    return rename


@pytest.mark.openspiel
def test_leduc_is_openspiel_leduc_poker():
    pytest.importorskip("pyspiel")
    from exactpoker.formats.openspiel import load_openspiel

    theirs = compile_tree(load_openspiel("leduc_poker").tree)
    assert sequence_form_entries(compile_tree(game("leduc"))) == sequence_form_entries(theirs, _openspiel_leduc_rename("JQK"))


@pytest.mark.slow
@pytest.mark.openspiel
def test_three_player_leduc_is_openspiel_leduc_poker_three_players():
    """8600 information sets a player; about three minutes."""
    pytest.importorskip("pyspiel")
    from exactpoker.formats.openspiel import load_openspiel

    theirs = sequence_form_entries(compile_tree(load_openspiel("leduc_poker(players=3)").tree),
                                   _openspiel_leduc_rename("TJQK"))
    assert sequence_form_entries(compile_tree(game("leduc", players=3))) == theirs


@pytest.mark.openspiel
def test_kuhn3_is_openspiel_kuhn_poker_three_players():
    pytest.importorskip("pyspiel")
    from exactpoker.formats.openspiel import load_openspiel

    def rename(player, infoset, action):  # OpenSpiel: "0pb" (card 0..3, pass/bet)
        card, history = int(infoset[0]), infoset[1:]
        ours, facing = "", False
        for move in history:
            ours += _facing_action("b" if facing else "", move)
            facing = facing or move == "b"
        return f"{card + 1}|{ours}", _facing_action(history, action)

    theirs = compile_tree(load_openspiel("kuhn_poker(players=3)").tree)
    assert sequence_form_entries(compile_tree(game("kuhn3"))) == sequence_form_entries(theirs, rename)


def test_ladder_and_two_round_solve_certified():
    for name, params in [("ladder", {"n": "4", "sizes": "1;2;4"}), ("two_round", {})]:
        result = solve_game(compile_tree(game(name, **params)))
        assert result.equilibria[0].certified and result.details["zero-sum"]
        assert result.value == -result.equilibria[0].values[1]


def test_ladder_sizes_are_the_actions():
    compiled = compile_tree(game("ladder", n=3, sizes="1/2;3"))
    first = compiled.layouts[0]
    assert first.infoset_actions(first.index["1|"]) == ("c", "b1_2", "b3")
    assert "2|cb3" in first.index


def test_load_library_and_bad_names():
    loaded = load_game("library:ladder(n=5, sizes=1;2)")
    assert loaded.tree.parameters == (("n", 5), ("sizes", "1;2")) and loaded.source.startswith("library:")
    assert load_game("library:kuhn").tree.name == "kuhn"
    with pytest.raises(InvalidParameterError, match="unknown game 'poker'.*kuhn, kuhn3, leduc, ladder, two_round"):
        load_game("library:poker")
    with pytest.raises(InvalidParameterError, match="unknown parameter 'bet'; allowed: n, sizes"):
        load_game("library:ladder(bet=2)")
    with pytest.raises(InvalidParameterError, match="cards must be an integer >= 4"):
        poker_game("kuhn3", cards=3)
    with pytest.raises(InvalidParameterError, match="sizes"):
        poker_game("ladder", sizes="1;1")
    with pytest.raises(InvalidParameterError, match="suits must be true or false"):
        poker_game("leduc", suits="maybe")


def test_describe_library():
    entries = {entry["name"]: entry for entry in describe_library()}
    assert set(entries) == {"kuhn", "kuhn3", "leduc", "ladder", "two_round", "vn", "newman", "three", "simple",
                            "goldman_stone", "nash_shapley", "dice", "la_relance"}
    assert entries["kuhn3"]["parameters"] == {"cards": 4, "pot": "3"}
    assert all(entry["description"] for entry in entries.values())


def test_cli_solve_library_kuhn_json(capsys):
    status = main(["solve", "library:kuhn", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert status == 0 and data["game"] == "kuhn"
    [eq] = data["equilibria"]
    assert eq["values"] == ["-1/18", "1/18"] and eq["certified"]
    assert set(eq["strategies"]["P1"]) == {"J|", "J|cb", "Q|", "Q|cb", "K|", "K|cb"}
    assert eq["strategies"]["P2"]["K|b"] == ["0", "1"]


def test_cli_solve_list_and_errors(capsys):
    assert main(["solve", "--list"]) == 0
    out = capsys.readouterr().out
    assert all(f"library:{name}" in out for name in ("kuhn", "kuhn3", "leduc", "ladder", "two_round"))
    assert main(["solve", "--list", "--json"]) == 0
    assert [e["name"] for e in json.loads(capsys.readouterr().out)["library"]][:2] == ["kuhn", "kuhn3"]
    assert main(["solve", "library:ladder(n=1)"]) == 2
    err = capsys.readouterr().err.strip()
    assert "n must be an integer >= 2" in err and "\n" not in err
