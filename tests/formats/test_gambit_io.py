"""Gambit's .efg/.nfg files in the exact pipeline: reading, writing, errors, CLI, and pygambit cross-checks."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactpoker.cli import main
from exactpoker.core.tree import compile_tree
from exactpoker.errors import InvalidGameError
from exactpoker.formats import load_game
from exactpoker.formats.efg import efg_tables, gambit_profile, read_efg, to_efg, write_efg
from exactpoker.formats.gambit_text import tokenize
from exactpoker.formats.nfg import gambit_mixed, read_nfg
from exactpoker.games import von_neumann
from exactpoker.solve import solve_game
from tests.paths import DATA


def solve_file(path: Path, **kwargs):
    loaded = load_game(str(path))
    return solve_game(compile_tree(loaded.tree), tables=loaded.tables, **kwargs)


# ---------------------------------------------------------------- numbers and tokens


@pytest.mark.parametrize("text, value", [
    ("3", Fraction(3)), ("-2/6", Fraction(-1, 3)), ("1.25", Fraction(5, 4)), ("1e-3", Fraction(1, 1000)),
    ("-0.1", Fraction(-1, 10)), ("2.5E2", Fraction(250)), (".5", Fraction(1, 2)),
])
def test_numbers_are_exact(text, value):
    [token, end] = tokenize(text, "x")
    assert token.kind == "number" and token.value == value and end.kind == "end"


@given(st.fractions())
def test_every_rational_reads_back(value):
    [token, _] = tokenize(f"{value.numerator}/{value.denominator}", "x")
    assert token.value == value


def test_strings_keep_escaped_quotes():
    tokens = tokenize('"say \\"hi\\"" { }', "x")
    assert [t.value for t in tokens[:3]] == ['say "hi"', "{", "}"]


# ---------------------------------------------------------------- reading .efg


def test_matching_pennies_profile_is_gambit_layout():
    result = solve_file(DATA / "matching_pennies.efg")
    [eq] = result.equilibria
    assert eq.values == (0, 0)
    assert eq.strategies == {"Alice": [[Fraction(1, 2)] * 2], "Bob": [[Fraction(1, 2)] * 2]}
    assert result.game == 'Matching pennies with a "quote"'


def test_odd_numbers_decimals_and_shared_outcomes():
    loaded = read_efg((DATA / "odd_numbers.efg").read_text(), "odd_numbers.efg")
    assert loaded.tree.player_names == ("1", "2")
    result = solve_game(compile_tree(loaded.tree), tables=loaded.tables)
    [eq] = result.equilibria
    # Tables follow the information sets' numbers: player 1's #2 ("low card") before #7 ("high card").
    low, high = eq.strategies["1"]
    assert high == [1, 0]  # betting the high card dominates
    assert sum(low) == 1 and len(eq.strategies["2"]) == 1
    # The value computed independently by hand: P1 bluffs 1/3, P2 calls 1/3 -> value 1/3.
    assert eq.values == (Fraction(1, 3), Fraction(-1, 3))


def test_outcome_on_inner_node_adds_to_leaves():
    text = 'EFG 2 R "g" { "A" }\n"" \np "" 1 1 "" { "x" "y" } 1 "" { 5 }\nt "" 2 "" { 1 }\nt "" 0\n'
    [eq] = solve_game(compile_tree(read_efg(text).tree)).equilibria
    assert eq.values == (6,)


@pytest.mark.parametrize("text, where, what", [
    ('EFG 2 R "g" { "A" }\n""\np "" 1 1 "" { "x" } 0\nq "" 1\n', "x.efg:4:1", "expected a node"),
    ('EFG 2 R "g" { "A" }\n""\np "" 1 1 "" { "x" } 0\n', "x.efg:4:1", "ends before the tree is complete"),
    ('EFG 3 R "g" { "A" }\n', "x.efg:1:5", "version 2"),
    ('EFG 2 R "g" { "A" }\n""\np "" 2 1 "" { "x" } 0\nt "" 0\n', "x.efg:3:6", "player 2 does not exist"),
    ('EFG 2 R "g" { "A" }\n""\np "" 1 1 "" { "x" } 0\nt "" 4\n', "x.efg:4:6", "outcome 4 is used before"),
    ('EFG 2 R "g" { "A" }\n""\nt "" 1 "" { 1 2 }\n', "x.efg:3:11", "2 payoffs for 1 players"),
    ('EFG 2 R "g" { "A" }\n""\nt "" 1 "" { 1/0 }\n', "x.efg:3:13", "zero denominator"),
    ('EFG 2 R "g { "A" }\n', "x.efg:1:16", "unterminated string"),
    ('EFG 2 R "g" { "A" }\n""\np "" 1 1 "" { "x" } 0\nt "" 1 "" { 1 # }\n', "x.efg:4:15", "unexpected character '#'"),
    ('EFG 2 R "g" { "A" }\n""\np "" 1 1 "two\nlines" { "x" } 0\nt "" 1 "" { 1 } @\n', "x.efg:5:17", "unexpected"),
    ('EFG 2 R "g" { "A" }\n""\np "" 1 1 "" { "x" } 0\nt "" 1 "" { 1 \n', "x.efg:5:1", "expected a payoff, found end"),
    ('EFG 2 R "g" { "A" }\n""\np "" 1 1 "" { "x" 0\n', "x.efg:3:19", "expected an action's name, found 0"),
    ('EFG 2 R "g" { "A" }\n""\nc "" 1 "" { "x" 1 "y" } 0\n', "x.efg:3:23", "expected the action's probability, "
                                                                         "found '}'"),
    ('EFG 2 R "g" { "A" }\n""\nt "" 1/2 "" { 1 }\n', "x.efg:3:6", "expected the outcome's number, found 1/2"),
    ('EFG 2 R "g" { "A" }\n""\np "" 1 1 "" { "x" } 0\nt "" 1 "" { 2/00 }\n', "x.efg:4:13",
     "zero denominator in '2/00'"),
    ('EFG 2 R "g" { "A" }\n""\np "" 1 1 "" { "x" } 0\np "" 1 1 "" { "y" } 0\nt "" 0\n', "x.efg:4:8",
     "information set 1 was given other actions before (['x'])"),
    ('EFG 2 R "g" { "A" }\n""\np "" 1 1 "" { "x" "x" } 0\nt "" 0\nt "" 0\n', "x.efg:3:1", "repeats an action name"),
    ('EFG 2 R "g" { "A" }\n""\nt "" 0\nt "" 0\n', "x.efg:4:1", "the tree is complete"),
    ('EFG 2 R "g" { "A" }\n"a comment"\n', "x.efg:3:1", "the game has no nodes"),
])
def test_malformed_efg_names_line_and_column(text, where, what):
    with pytest.raises(InvalidGameError) as error:
        read_efg(text, "x.efg")
    message = str(error.value)
    assert message.startswith(where + ": ") and what in message and "\n" not in message


@pytest.mark.parametrize("probs, problem", [("1/2 1/3", "sum to 1; they sum to 5/6"), ("3/2 -0.5", "negative")])
def test_chance_probabilities_are_checked(probs, problem):
    text = f'EFG 2 R "g" {{ "A" }}\n""\nc "the deal" 1 "" {{ "a" {probs.split()[0]} "b" {probs.split()[1]} }} 0\nt "" 0\nt "" 0\n'
    with pytest.raises(InvalidGameError, match=problem) as error:
        read_efg(text, "x.efg")
    assert "the deal" in str(error.value) and "x.efg:3:1" in str(error.value)


def test_imperfect_recall_names_the_infoset():
    text = ('EFG 2 R "forgetful" { "A" }\n""\np "" 1 1 "first" { "L" "R" } 0\np "" 1 2 "second" { "l" "r" } 0\n'
            't "" 1 "" { 1 }\nt "" 0\np "" 1 2 0\nt "" 0\nt "" 1\n')
    with pytest.raises(InvalidGameError, match="information set 'second'.*perfect recall"):
        compile_tree(read_efg(text).tree)


# ---------------------------------------------------------------- writing .efg


def test_write_read_round_trip_keeps_the_game():
    game = read_efg((DATA / "odd_numbers.efg").read_text()).tree
    again = read_efg(write_efg(game)).tree
    a, b = compile_tree(game), compile_tree(again)
    assert [l.names for l in a.layouts] == [l.names for l in b.layouts]
    assert a.denominator == b.denominator and (a.coefficients == b.coefficients).all()
    assert write_efg(again) == write_efg(game)


def test_von_neumann_export_reads_back_to_the_same_value():
    game = von_neumann.game(5, Fraction(3, 2))
    loaded = read_efg(to_efg(game), "vn.efg")
    [eq] = solve_game(compile_tree(loaded.tree), tables=loaded.tables).equilibria
    [direct] = solve_game(compile_tree(read_efg(write_efg(loaded.tree)).tree)).equilibria
    assert eq.values == direct.values
    assert len(gambit_profile(eq.strategies)) == 2


# ---------------------------------------------------------------- reading .nfg


def test_nfg_outcome_form():
    [eq] = solve_file(DATA / "rps_outcomes.nfg").equilibria
    assert eq.values == (0, 0)
    assert eq.strategies == {"1": {s: Fraction(1, 3) for s in "RPS"}, "2": {s: Fraction(1, 3) for s in "RPS"}}


def test_nfg_payoff_form_pure_equilibria():
    result = solve_file(DATA / "bos.nfg", all_pure=True)
    assert sorted(eq.values for eq in result.equilibria) == [(1, 2), (2, 1)]
    assert gambit_mixed(result.equilibria[0].strategies) in ([[1, 0], [1, 0]], [[0, 1], [0, 1]])


def test_nfg_three_players_by_count():
    text = 'NFG 1 R "three" { "a" "b" "c" } { 2 1 1 }\n\n1 0 0 0 1 0\n'
    loaded = read_nfg(text)
    assert compile_tree(loaded.tree).num_players == 3


@pytest.mark.parametrize("text, where, what", [
    ('NFG 1 R "g" { "a" "b" } { 2 2 }\n1 2 3\n', "y.nfg:2:1", "expected 8 payoffs"),
    ('NFG 1 R "g" { "a" "b" } { 2 }\n', "y.nfg:1:29", "strategies for 2 players"),
    ('NFG 1 R "g" { "a" } { 2 }\n{ { "" 1 } }\n1 5\n', "y.nfg:3:3", "outcome 5 does not exist"),
])
def test_malformed_nfg_names_line_and_column(text, where, what):
    with pytest.raises(InvalidGameError) as error:
        read_nfg(text, "y.nfg")
    assert str(error.value).startswith(where) and what in str(error.value)


# ---------------------------------------------------------------- command line


def test_cli_solve_efg_json(capsys):
    assert main(["solve", str(DATA / "odd_numbers.efg"), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    [eq] = payload["equilibria"]
    assert eq["values"] == ["1/3", "-1/3"] and eq["certified"] is True
    assert list(eq["strategies"]) == ["1", "2"] and len(eq["strategies"]["1"]) == 2


def test_cli_malformed_file_is_one_line(capsys, tmp_path):
    path = tmp_path / "bad.efg"
    path.write_text('EFG 2 R "g" { "A" }\n""\nz\n')
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "bad.efg:3:1: expected a node" in err and "\n" not in err


# ---------------------------------------------------------------- pygambit (independent checks)


def _catalog_two_player():
    gbt = pytest.importorskip("pygambit")
    from pygambit import catalog

    root = Path(gbt.__file__).parent / "catalog_data"
    for slug in catalog.games()["Game"]:
        path = next(root.glob(slug + ".*"))
        game = catalog.load(slug)
        if len(game.players) == 2 and game.is_perfect_recall:
            yield slug, path, game


def _our_profile(gbt, game, path, strategies):
    """Our strategies as a pygambit profile (behaviour for .efg, matched by information-set label)."""
    if path.suffix == ".nfg":
        return game.mixed_strategy_profile(data=gambit_mixed(strategies), rational=True)
    profile = game.mixed_behavior_profile(rational=True)
    loaded = read_efg(path.read_text(), str(path))
    order = efg_tables(loaded).order
    for p, (player, table) in enumerate(zip(game.players, strategies.values())):
        assert len(table) == len(order[p]) == len(player.infosets)
        by_key = dict(zip(order[p], table))
        labels = [infoset.label for infoset in player.infosets]
        unique = len(set(labels)) == len(labels) and set(labels) <= set(by_key)
        # matched by label where the labels tell the sets apart (pygambit lists them in first-met order,
        # our table in the file's number order); else both are in number order
        for infoset, position in zip(player.infosets, range(len(table))):
            probabilities = by_key[infoset.label] if unique else table[position]
            for action, prob in zip(infoset.actions, probabilities):
                profile[action] = gbt.Rational(prob.numerator, prob.denominator)
    return profile


@pytest.mark.gambit
def test_gambit_rebuilds_our_behaviour_profile():
    gbt = pytest.importorskip("pygambit")
    path = DATA / "odd_numbers.efg"
    [eq] = solve_file(path).equilibria
    game = gbt.read_efg(str(path))
    profile = _our_profile(gbt, game, path, eq.strategies)
    assert profile.max_regret() == 0 and profile.liap_value() == 0


@pytest.mark.gambit
def test_gambit_rebuilds_profile_directly_for_numbered_files():
    gbt = pytest.importorskip("pygambit")
    path = DATA / "matching_pennies.efg"
    [eq] = solve_file(path).equilibria
    data = [[[gbt.Rational(p.numerator, p.denominator) for p in row] for row in table]
            for table in gambit_profile(eq.strategies)]
    profile = gbt.read_efg(str(path)).mixed_behavior_profile(data=data, rational=True)
    assert profile.max_regret() == 0


@pytest.mark.gambit
def test_catalog_zero_sum_games_match_gambit_lp():
    gbt = pytest.importorskip("pygambit")
    checked = 0
    for slug, path, game in _catalog_two_player():
        if not game.is_const_sum:
            continue
        loaded = load_game(str(path))
        compiled = compile_tree(loaded.tree)
        if not compiled.is_zero_sum:
            continue
        [eq] = solve_game(compiled, tables=loaded.tables).equilibria
        theirs = gbt.nash.lp_solve(game, rational=True).equilibria[0]
        assert eq.values == tuple(Fraction(str(theirs.payoff(p))) for p in game.players), slug
        assert _our_profile(gbt, game, path, eq.strategies).max_regret() == 0, slug
        checked += 1
    assert checked >= 4


@pytest.mark.gambit
def test_catalog_general_sum_games_against_gambit_lcp():
    gbt = pytest.importorskip("pygambit")
    checked = 0
    for slug, path, game in _catalog_two_player():
        loaded = load_game(str(path))
        compiled = compile_tree(loaded.tree)
        if compiled.is_zero_sum:
            continue
        [eq] = solve_game(compiled, tables=loaded.tables).equilibria[:1]
        assert _our_profile(gbt, game, path, eq.strategies).max_regret() == 0, slug
        theirs = gbt.nash.lcp_solve(game, rational=True).equilibria
        if len(theirs) == 1:
            assert eq.values == tuple(Fraction(str(theirs[0].payoff(p))) for p in game.players), slug
        checked += 1
    assert checked >= 10
