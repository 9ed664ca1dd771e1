"""Strategies in and out (issue 42, item 7): certify someone else's profile, convert any game for Gambit,
Gambit's NE lines, solve_game by name, and poker-language games in Python files.

The pygambit and OpenSpiel cross-checks are in tests/formats/test_interop_external.py."""

from __future__ import annotations

import json
import os
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.certify import best_deviation, verify
from exactpoker.cli import main
from exactpoker.core.profile import BehaviourProfile
from exactpoker.core.tree import compile_tree
from exactpoker.errors import InvalidParameterError
from exactpoker.formats import load_game
from exactpoker.formats.certify_profile import certify_profile
from exactpoker.formats.efg import read_efg, write_efg
from exactpoker.formats.gambit_order import count_reduced, infoset_order, mixed_profile, ne_line, reduced_strategies
from exactpoker.formats.nfg import read_nfg, write_nfg
from exactpoker.games.library import game as library_game
from exactpoker.schema import schema
from exactpoker.solve.engine.dispatch import solve_game
from tests.strategies import trees
from tests.paths import DATA

#: Kuhn poker's behaviour profile with every action at probability 1/2: not an equilibrium.
UNIFORM_KUHN = "NE," + ",".join(["1/2"] * 24)


def run(capsys, argv):
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def validated(data):
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(data, schema())
    return data


def kuhn_equilibrium_line(capsys) -> str:
    status, out, _ = run(capsys, ["solve", "library:kuhn", "--format", "gambit"])
    assert status == 0 and out.count("\n") == 1 and out.startswith("NE,")
    return out.strip()


# ---------------------------------------------------------------- the best deviation


@st.composite
def games_and_profiles(draw):
    """A random tree game and a random exact behaviour profile of it."""
    compiled = compile_tree(draw(trees()))
    strategies = []
    for layout in compiled.layouts:
        strategy = []
        for infoset in range(layout.num_infosets):
            weights = draw(st.lists(st.integers(0, 3), min_size=len(layout.infoset_actions(infoset)),
                                    max_size=len(layout.infoset_actions(infoset))).filter(any))
            strategy.append(tuple(Fraction(w, sum(weights)) for w in weights))
        strategies.append(tuple(strategy))
    return compiled, BehaviourProfile(tuple(strategies))


@settings(max_examples=60, deadline=None)
@given(games_and_profiles())
def test_the_best_deviation_is_a_best_response_changed_only_where_it_must_be(found):
    compiled, profile = found
    certificate = verify(compiled, profile)
    for p, check in enumerate(certificate.checks):
        deviation = best_deviation(compiled, profile, p)  # raises if the changed strategy is not a best response
        assert deviation.payoff == check.best_response
        assert (deviation.changes == {}) == (check.regret == 0)
        for infoset, action in deviation.changes.items():  # each change leaves an action the profile played
            assert profile.strategies[p][infoset][action] < 1


# ---------------------------------------------------------------- certify: Gambit's lines


def test_an_equilibrium_line_is_certified_and_its_json_has_the_shape(capsys):
    line = kuhn_equilibrium_line(capsys)
    status, out, _ = run(capsys, ["certify", "library:kuhn", line, "--json"])
    data = validated(json.loads(out))
    assert status == 0 and data["holds"] is True
    [checked] = data["profiles"]
    assert checked["holds"] and checked["best_deviations"] == []
    assert [c["regret"] for c in checked["certificate"]["players"]] == ["0", "0"]
    assert data["equilibria"][0]["values"] == ["-1/18", "1/18"] == checked["values"]


def test_a_wrong_line_is_refuted_with_exact_regrets_and_the_best_deviation(capsys):
    status, out, _ = run(capsys, ["certify", "library:kuhn", UNIFORM_KUHN, "--json"])
    data = validated(json.loads(out))
    assert status == 1 and data["holds"] is False and data["equilibria"] == []
    [checked] = data["profiles"]
    players = checked["certificate"]["players"]
    # payoffs by hand: uniform play in Kuhn poker is worth 1/8 to P1; the regrets equal pygambit's (the gambit test)
    assert [(c["payoff"], c["best_response"], c["regret"]) for c in players] == [
        ("1/8", "1/2", "3/8"), ("-1/8", "5/12", "13/24")]
    first, second = checked["best_deviations"]
    assert (first["player"], first["gain"], first["payoff"]) == ("P1", "3/8", "1/2")
    assert {(c["information_set"], c["deviate_to"]) for c in first["changes"]} == {("J|", "b"), ("Q|", "b"),
                                                                                   ("K|cb", "c")}
    assert second["player"] == "P2" and len(second["changes"]) == 6
    status, text, _ = run(capsys, ["certify", "library:kuhn", UNIFORM_KUHN])
    assert status == 1 and "NOT a Nash equilibrium (largest regret 13/24)" in text
    assert 'at "J|" play "b" (the profile: "c": 1/2, "b": 1/2)' in text


def test_a_file_of_lines_checks_each_and_gambit_format_prints_those_that_hold(capsys, tmp_path):
    path = tmp_path / "lines.txt"
    path.write_text(f"# two profiles\n{kuhn_equilibrium_line(capsys)}\n\n{UNIFORM_KUHN}\n")
    status, out, _ = run(capsys, ["certify", "library:kuhn", str(path), "--json"])
    data = json.loads(out)
    assert status == 1 and [p["holds"] for p in data["profiles"]] == [True, False]
    assert [p["source"] for p in data["profiles"]] == [f"line 2 of {path}", f"line 4 of {path}"]
    status, out, _ = run(capsys, ["certify", "library:kuhn", str(path), "--format", "gambit"])
    assert status == 1 and out.strip() == kuhn_equilibrium_line(capsys)


def test_decimals_are_read_as_written_or_as_the_floats_they_are(capsys):
    # an equilibrium as a float tool prints it: 2/3 and 1/3 as the doubles nearest them
    floats = "NE,1,0,1,0,1,0,0.6666666666666666,0.3333333333333333,1,0,0,1,1,0,0.6666666666666666,0.3333333333333333," \
             "0,1,0,1,0.6666666666666666,0.3333333333333333,1,0"
    status, _, err = run(capsys, ["certify", "library:kuhn", floats])
    assert status == 2 and "adding up to 0.9999999999999999" in err and "--decimals fractions" in err
    assert err.count("\n") == 1
    status, out, _ = run(capsys, ["certify", "library:kuhn", floats, "--decimals", "fractions", "--json"])
    assert status == 0 and json.loads(out)["profiles"][0]["strategies"]["P1"]["Q|cb"] == ["2/3", "1/3"]
    # decimals that add up are read exactly as written: a profile near the equilibrium, refuted by a tiny regret
    near = floats.replace("0.3333333333333333", "0.3333333333333334")
    status, out, _ = run(capsys, ["certify", "library:kuhn", near, "--json"])
    checked = json.loads(out)["profiles"][0]
    assert status == 1 and [Fraction(x) for x in checked["strategies"]["P1"]["Q|cb"]] == [
        Fraction("0.6666666666666666"), Fraction("0.3333333333333334")]
    assert 0 < max(Fraction(c["regret"]) for c in checked["certificate"]["players"]) < Fraction(1, 10**15)
    status, _, err = run(capsys, ["certify", "library:kuhn", near, "--decimals", "fractions"])
    assert status == 2 and "is the float 0.3333333333333334, which is no fraction" in err


@pytest.mark.parametrize("profile, message", [
    ("NE,1,0", "2 numbers; this game's behaviour profile has 24"),
    ("NE,1,0,x", "line 1, number 3: expected a number"),
    ("NE," + ",".join(["1/2"] * 23) + ",-1/2", "adding up to 0"),
    ("no-such-file.txt", "PROFILE: no such file"),
])
def test_bad_profiles_are_one_line(capsys, profile, message):
    status, _, err = run(capsys, ["certify", "library:kuhn", profile])
    assert status == 2 and message in err and err.count("\n") == 1, err


def test_a_mixed_profile_over_the_reduced_strategic_form_is_read_by_kuhns_theorem(capsys, tmp_path):
    # the strategic form written by convert, solved there; its mixed equilibrium checked on the tree
    nfg = tmp_path / "kuhn.nfg"
    assert run(capsys, ["convert", "library:kuhn", "-o", str(nfg)])[0] == 0
    status, out, _ = run(capsys, ["solve", str(nfg), "--format", "gambit"])
    mixed = out.strip()
    assert status == 0 and len(mixed.split(",")) == 1 + 27 + 64
    status, out, _ = run(capsys, ["certify", "library:kuhn", mixed, "--json"])
    data = json.loads(out)
    assert status == 0 and data["profiles"][0]["values"] == ["-1/18", "1/18"]
    status, _, err = run(capsys, ["certify", "library:kuhn", mixed, "--as", "behaviour"])
    assert status == 2 and "(--as behaviour)" in err


# ---------------------------------------------------------------- certify: CSV and JSON tables


def test_a_csv_profile_by_name(capsys, tmp_path):
    rows = ["player,information_set,action,probability"]
    for player, table in json.loads(run(capsys, ["solve", "library:kuhn", "--json"])[1])["equilibria"][0][
            "labelled_strategies"].items():
        rows += [f"{player},{key},{action},{prob}" for key, actions in table.items()
                 for action, prob in actions.items() if prob != "0"]  # actions left out are 0
    path = tmp_path / "kuhn.csv"
    path.write_text("\n".join(rows) + "\n")
    status, out, _ = run(capsys, ["certify", "library:kuhn", str(path)])
    assert status == 0 and "1 Nash equilibrium" in out
    path.write_text("\n".join(row for row in rows if not row.startswith("P2,K|b")) + "\n")
    status, _, err = run(capsys, ["certify", "library:kuhn", str(path)])
    assert status == 2 and "reaches the information set 'K|b', which is not given" in err


def test_an_information_set_the_strategy_cannot_reach_may_be_left_out():
    game = load_game("library:kuhn")
    # P1 always bets with the king: K|cb can never be reached, so it may be left out
    table = {"P1": {"J|": {"c": 1}, "J|cb": {"f": 1}, "Q|": {"c": 1}, "Q|cb": {"f": 1, "c": 0}, "K|": {"b": 1}},
             "P2": {key: {"c": 1} if key.endswith("b") else {"c": 1} for key in
                    ("Q|c", "Q|b", "K|c", "K|b", "J|c", "J|b")}}
    report = certify_profile(game, json.dumps(table))
    [check] = report.checks
    assert check.profile.strategies[0][-1] == (1, 0)  # K|cb: its first action, which changes nothing
    with pytest.raises(InvalidParameterError, match="reaches the information set 'K|cb'"):
        certify_profile(game, json.dumps({**table, "P1": {**table["P1"], "K|": {"c": 1}}}))


def test_an_exactpoker_result_certifies_again(capsys, tmp_path):
    path = tmp_path / "leduc.json"
    status, out, _ = run(capsys, ["solve", "library:leduc(ranks=2)", "--json"])
    path.write_text(out)
    status, out, _ = run(capsys, ["certify", "library:leduc(ranks=2)", str(path), "--json"])
    data = json.loads(out)
    assert status == 0 and data["profiles"][0]["source"] == f"equilibrium 1 of {path}"
    assert data["profiles"][0]["values"] == json.loads(path.read_text())["equilibria"][0]["values"]


def test_flat_and_per_player_tables_and_unknown_names():
    game = "library:kuhn"
    result = solve_game(game)
    per_player = {name: {key: [str(x) for x in row] for key, row in table.items()}
                  for name, table in result.equilibria[0].strategies.items()}
    flat = {key: row for table in per_player.values() for key, row in table.items()}
    for profile in (per_player, flat):
        assert certify_profile(game, json.dumps(profile)).holds
    with pytest.raises(InvalidParameterError, match="no player has the information set 'X'"):
        certify_profile(game, json.dumps({**flat, "X": [1, 0]}))
    with pytest.raises(InvalidParameterError, match="no action 'raise' at 'J|'"):
        certify_profile(game, json.dumps({**flat, "J|": {"raise": 1}}))


# ---------------------------------------------------------------- convert


@pytest.mark.parametrize("spec", ["library:kuhn", "library:leduc(ranks=2,suits=false)", "library:vn(n=4,b=2)",
                                  "library:dice(sides=2)", "library:three(n=3,b=2)", "library:kuhn3(cards=4)",
                                  str(DATA / "odd_numbers.efg"), str(DATA / "bos.nfg")])
def test_convert_to_efg_reads_back_to_the_same_exact_value(spec, capsys, tmp_path):
    path = tmp_path / "game.efg"
    assert run(capsys, ["convert", spec, "-o", str(path)])[0] == 0
    direct, converted = solve_game(spec), solve_game(path)
    assert converted.equilibria[0].values == direct.equilibria[0].values
    assert converted.equilibria[0].certified


def test_convert_to_nfg_is_gambits_reduced_strategic_form(capsys, tmp_path):
    path = tmp_path / "kuhn.nfg"
    status, out, _ = run(capsys, ["convert", "library:kuhn", "-o", str(path), "--json"])
    data = validated(json.loads(out))
    assert status == 0 and data["output"] == str(path) and "nfg" not in data
    loaded = read_nfg(path.read_text(), str(path))
    counts = [len(layout.infoset_actions(0)) for layout in compile_tree(loaded.tree).layouts]
    assert counts == [27, 64]  # Kuhn poker: 3^3 and 2^6 reduced strategies
    assert solve_game(loaded).value == Fraction(-1, 18)
    tree = library_game("kuhn")
    compiled = compile_tree(tree)
    order = infoset_order(tree, compiled)
    labels = [s.label for s in reduced_strategies(compiled.layouts[0], order[0])]
    assert labels[:4] == ["111111", "111112", "11112*", "111211"] and labels[-1] == "2*2*2*"
    assert [count_reduced(layout) for layout in compiled.layouts] == counts


def test_convert_refuses_a_strategic_form_too_large_and_a_wrong_suffix(capsys, tmp_path):
    status, _, err = run(capsys, ["convert", "library:leduc", "-o", str(tmp_path / "leduc.nfg")])
    assert status == 2 and "the strategic form has about 10^132 contingencies" in err and err.count("\n") == 1
    assert not (tmp_path / "leduc.nfg").exists()
    status, _, err = run(capsys, ["convert", "library:kuhn", "-o", str(tmp_path / "k.efg"), "--to", "nfg"])
    assert status == 2 and "names a .efg file" in err
    status, _, err = run(capsys, ["convert", "library:kuhn"])
    assert status == 2 and "give -o FILE.efg" in err


def test_convert_prints_to_standard_output(capsys):
    status, out, _ = run(capsys, ["convert", "library:kuhn", "--to", "efg"])
    assert status == 0 and read_efg(out).tree.name == "kuhn"
    status, out, _ = run(capsys, ["convert", str(DATA / "bos.nfg"), "--to", "nfg", "--json"])
    data = validated(json.loads(out))
    read_back = read_nfg(data["nfg"])  # a table keeps its strategies' names
    assert [layout.infoset_actions(0) for layout in compile_tree(read_back.tree).layouts] == \
        [layout.infoset_actions(0) for layout in compile_tree(load_game(str(DATA / "bos.nfg")).tree).layouts]


@settings(max_examples=40, deadline=None)
@given(trees(), st.data())
def test_every_contingency_of_the_strategic_form_pays_what_the_tree_pays(tree, data):
    compiled = compile_tree(tree)
    table = compile_tree(read_nfg(write_nfg(tree, compiled)).tree)
    order = infoset_order(tree, compiled)
    counts = [count_reduced(layout) for layout in compiled.layouts]
    chosen = [data.draw(st.integers(0, count - 1)) for count in counts]  # one reduced strategy a player
    numbers = [Fraction(int(k == pick)) for count, pick in zip(counts, chosen) for k in range(count)]
    pure = BehaviourProfile(tuple((tuple(Fraction(int(k == pick)) for k in range(count)),)
                                  for count, pick in zip(counts, chosen)))
    assert verify(table, pure).payoffs == verify(compiled, mixed_profile(compiled, order, numbers)).payoffs


# ---------------------------------------------------------------- --format gambit


def test_gambit_lines_follow_the_file_order_of_information_sets(capsys):
    # odd_numbers.efg numbers "high card" 7 and "low card" 2, "high card" first in the file: Gambit's order
    status, out, _ = run(capsys, ["solve", str(DATA / "odd_numbers.efg"), "--format", "gambit"])
    assert status == 0 and out == "NE,1,0,1/3,2/3,2/3,1/3\n"
    status, out, _ = run(capsys, ["solve", str(DATA / "bos.nfg"), "--all", "--format", "gambit"])
    assert status == 0 and len(out.splitlines()) == 3


def test_gambit_lines_are_refused_with_json_and_for_irrational_equilibria(capsys):
    status, _, err = run(capsys, ["solve", "library:kuhn", "--format", "gambit", "--json"])
    assert status == 2 and "give one of them" in err
    from exactpoker.algebraic import RealNumberField
    from exactpoker.lazy import lazy

    sympy = lazy("sympy")
    _, half_root = RealNumberField.from_sympy(sympy.sqrt(2) / 2)
    profile = BehaviourProfile((((half_root, 1 - half_root),),))
    with pytest.raises(InvalidParameterError, match="the equilibrium is irrational"):
        ne_line(profile, ((0,),))


# ---------------------------------------------------------------- games by name, and in Python files


GAME_FILE = '''
from exactpoker.core import Betting, CardDeck, Deal, PokerGame
from neighbour import BET

game = PokerGame("kuhn", players=2, deck=CardDeck("JQK"), ante=1, steps=[Deal(hole=1), Betting(sizes=BET, max_bets=1)])
big = PokerGame("kuhn2", players=2, deck=CardDeck("JQK"), ante=1, steps=[Deal(hole=1), Betting(sizes=2, max_bets=1)])
number = 3


def build():
    return big


if __name__ == "__main__":
    raise SystemExit("not run when exactpoker reads the file")
'''


@pytest.fixture()
def game_file(tmp_path):
    (tmp_path / "neighbour.py").write_text("BET = 1\n")
    path = tmp_path / "mygame.py"
    path.write_text(GAME_FILE)
    return path


def test_solve_a_python_file(capsys, game_file):
    status, out, _ = run(capsys, ["solve", str(game_file), "--json"])
    assert status == 0 and json.loads(out)["equilibria"][0]["values"] == ["-1/18", "1/18"]
    status, out, _ = run(capsys, ["solve", f"{game_file}:build", "--json"])
    assert status == 0 and json.loads(out)["game"] == "kuhn2"
    assert solve_game(f"{game_file}:big").value == solve_game("library:kuhn(bet=2)").value
    status, out, _ = run(capsys, ["convert", str(game_file), "--to", "efg"])
    assert status == 0 and read_efg(out).tree.name == "kuhn"
    status, _, _ = run(capsys, ["certify", str(game_file), kuhn_equilibrium_line(capsys)])
    assert status == 0


@pytest.mark.parametrize("suffix, text, message", [
    (":nothing", None, "no module-level name 'nothing'; it defines the PokerGame objects big, game: give"),
    (":number", None, ":number is a int, not a PokerGame"),
    ("", "raise ValueError('bad\\nrules')\n", "running it raised ValueError: bad rules"),
    ("", "x = 1\n", "no module-level name 'game'; it defines no PokerGame at module level"),
    ("", "import sys\nsys.exit(3)\n", "running it raised SystemExit: 3"),
])
def test_python_files_are_refused_in_one_line(capsys, game_file, suffix, text, message):
    if text is not None:
        game_file.write_text(text)
    status, _, err = run(capsys, ["solve", f"{game_file}{suffix}"])
    assert status == 2 and message in err and err.count("\n") == 1, err


def test_a_missing_python_file(capsys, tmp_path):
    status, _, err = run(capsys, ["solve", str(tmp_path / "none.py")])
    assert status == 2 and "no such file" in err


def test_solve_game_takes_a_spec_string_and_a_path():
    assert solve_game("library:kuhn").value == Fraction(-1, 18)
    assert solve_game(DATA / "matching_pennies.efg").value == 0
    assert solve_game(os.fspath(DATA / "bos.nfg")).equilibria[0].certified
    with pytest.raises(InvalidParameterError, match="a spec string"):
        solve_game(3.5)
    tree = library_game("kuhn")
    assert read_efg(write_efg(tree)).tree.player_names == tree.player_names


def test_pygambits_nested_lists(capsys):
    line = kuhn_equilibrium_line(capsys)
    numbers = line.split(",")[1:]
    widths = [[2] * 6, [2] * 6]
    nested, at = [], 0
    for player in widths:
        nested.append([])
        for width in player:
            nested[-1].append(numbers[at:at + width])
            at += width
    assert certify_profile("library:kuhn", json.dumps(nested)).holds
    with pytest.raises(InvalidParameterError, match="lists have the lengths"):
        certify_profile("library:kuhn", json.dumps([nested[0][:-1], nested[1]]))
    # a strategic form's mixed profile: players, then strategies (Battle of the Sexes: both at the first)
    assert certify_profile(DATA / "bos.nfg", json.dumps([["1", "0"], ["1", "0"]])).holds
    assert not certify_profile(DATA / "bos.nfg", json.dumps([["1", "0"], ["0", "1"]])).holds
