"""What the commands print (issue 29, items 5 and 6): labels, decimal readings beside exact numbers, one vocabulary.

The exact numbers themselves are tested per game; here: that the output names
what it lists, that an irrational number always has a correct decimal beside
it and a rational never needs one, and that every command speaks the same JSON.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal, localcontext
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, strategies as st

from exactpoker.algebraic import RealNumberField
from exactpoker.cli import main
from exactpoker.display import approx_table, decimal, has_irrational, is_irrational, shown
from exactpoker.results import snake_case, with_snake_keys
from tests.paths import DATA


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert status == 0, err
    return out


# -- decimal readings -------------------------------------------------------------------------


@given(st.fractions(max_denominator=10**6).filter(lambda q: q.denominator > 1))
def test_a_rational_is_shown_exactly_and_rounded_correctly(q):
    assert not is_irrational(q) and shown(q) == f"{q.numerator}/{q.denominator}"
    with localcontext() as context:
        context.prec = 10
        assert decimal(q) == str(Decimal(q.numerator) / Decimal(q.denominator))


@given(st.integers(2, 10**6).filter(lambda k: int(k**0.5) ** 2 != k))
def test_a_square_root_gets_correct_digits(k):
    """sqrt(k) two ways: sympy's evalf (display) and the isolating interval in arb balls (algebraic.py)."""
    root = sympy.sqrt(k)
    field = RealNumberField([-k, 0, 1], 0, k)  # the positive root of x^2 - k
    assert is_irrational(root) and is_irrational(field.generator)
    with localcontext() as context:
        context.prec = 10
        rounded = +Decimal(str(sympy.N(root, 40)))  # the 40-digit value rounded to 10 digits
    assert Decimal(decimal(root)) == Decimal(decimal(field.generator)) == rounded
    assert shown(root) == f"{root} ≈ {decimal(root)}"


def test_symbols_and_strings_are_not_numbers():
    b = sympy.Symbol("b")
    assert not is_irrational(b / (b + 4)) and shown(b / 2) == "b/2"
    assert decimal("0.123±1e-30") == "0.123±1e-30" and decimal(None) is None


def test_approx_keeps_the_shape():
    table = {"I": [Fraction(1, 3), sympy.sqrt(2)], "II": {"C": None}}
    assert has_irrational(table) and not has_irrational({"I": [Fraction(1, 3)]})
    assert approx_table(table) == {"I": ["0.3333333333", "1.414213562"], "II": {"C": None}}


@pytest.mark.slow
def test_irrational_equilibrium_text_and_json(capsys):
    """nash-shapley at a = b = 1 (seed 001): alpha = 21/10 - sqrt(321)/10, with its decimal beside it."""
    text = run(capsys, "nash-shapley", "--a", "1", "--b", "1")
    assert "alpha: 21/10 - sqrt(321)/10 ≈ 0.3083527133;" in text
    eq = json.loads(run(capsys, "nash-shapley", "--a", "1", "--b", "1", "--json"))["equilibria"][0]
    assert eq["strategies"]["1"]["alpha"] == "21/10 - sqrt(321)/10"  # the exact value stays
    assert eq["approx"]["strategies"]["1"]["alpha"] == "0.3083527133" and eq["approx"]["strategies"]["1"]["beta"] == "0"
    assert len(eq["approx"]["values"]) == 3


def test_rational_equilibria_have_no_approx(capsys):
    eq = json.loads(run(capsys, "vn", "mixed", "--n", "3", "--b", "2", "--json"))["equilibria"][0]
    assert "approx" not in eq
    assert "≈" not in run(capsys, "vn", "mixed", "--n", "3", "--b", "2")


def test_three_continuous_approx_is_its_certified_decimals(capsys):
    data = json.loads(run(capsys, "three", "continuous", "--b", "2", "--digits", "20", "--json"))
    eq = data["equilibria"][0]
    assert "CRootOf" in eq["values"][0] and eq["approx"]["values"][0] == data["value"]
    assert eq["approx"]["values"][1] == eq["approx"]["values"][2] and eq["approx"]["values"][1].startswith("-0.0612785")
    assert eq["approx"]["strategies"]["II"]["C"] == data["cuts"]["C"] and data["cuts"]["C"].startswith("0.6413041159")


# -- labels ----------------------------------------------------------------------------------


def test_a_gambit_file_is_answered_in_its_own_names(capsys):
    text = run(capsys, "solve", str(DATA / "odd_numbers.efg"))
    assert '  1: {"high card": {"bet": 1, "check": 0}, "low card": {"bet": 1/3, "check": 2/3}}' in text
    eq = json.loads(run(capsys, "solve", str(DATA / "odd_numbers.efg"), "--json"))["equilibria"][0]
    assert eq["strategies"]["1"] == [["1/3", "2/3"], ["1", "0"]]  # the Gambit layout is kept
    assert eq["labelled_strategies"]["1"] == {"high card": {"bet": "1", "check": "0"},
                                              "low card": {"bet": "1/3", "check": "2/3"}}
    pennies = json.loads(run(capsys, "solve", str(DATA / "matching_pennies.efg"), "--json"))["equilibria"][0]
    assert pennies["labelled_strategies"] == {"Alice": {"Alice": {"H": "1/2", "T": "1/2"}},
                                              "Bob": {"Bob": {"h": "1/2", "t": "1/2"}}}


def test_a_library_game_is_answered_in_its_own_names(capsys):
    eq = json.loads(run(capsys, "solve", "library:kuhn", "--json"))["equilibria"][0]
    for player, table in eq["strategies"].items():
        labelled = eq["labelled_strategies"][player]
        assert list(labelled) == list(table)
        assert all(list(labelled[key].values()) == row for key, row in table.items())


def test_goldman_stone_and_kuhn3_explain_their_tables(capsys):
    text = run(capsys, "goldman-stone", "--a", "3", "--b", "2", "--n", "3")
    assert text.rstrip().splitlines()[-1].startswith("legend: strategies list, per player and card 1..n")
    data = json.loads(run(capsys, "goldman-stone", "--a", "3", "--b", "2", "--n", "3", "--json"))
    assert "[drop, b-fold, b-see, a]" in data["legend"]["strategies"]
    data = json.loads(run(capsys, "kuhn3", "skp", "--pot", "3", "--json"))
    assert set(data["legend"]["nodes"]) == set(data["equilibria"][0]["strategies"]) == {str(k) for k in range(1, 13)}
    assert data["legend"]["nodes"]["4"] == "player 1, player 3 bet after two checks: call (else fold)"
    assert "  10: player 2, player 1 bet: call (else fold)" in run(capsys, "kuhn3", "--cards", "4", "--pot", "3")


def test_kuhn3_branch_says_it_is_not_certified(capsys, tmp_path):
    argv = ["kuhn3", "branch", "--cards", "4", "--pot-min", "2", "--pot-max", "5/2", "--csv", str(tmp_path / "b.csv")]
    assert "uncertified:" in run(capsys, *argv)
    data = json.loads(run(capsys, *argv, "--json"))
    assert data["certified"] is False and data["notes"][0].startswith("uncertified") and data["equilibria"] == []


# -- one vocabulary --------------------------------------------------------------------------


def test_snake_case_keys_keep_the_old_ones():
    assert snake_case("II equals III") == "ii_equals_iii" and snake_case("minimal polynomial of b*") == \
        "minimal_polynomial_of_b"
    assert list(with_snake_keys({"zero-sum": True, "R": 1, "value": 2})) == [
        "zero_sum", "zero-sum", "optimality_conditions", "R", "value"]
    assert with_snake_keys({"best bet": "2", "best_bet": {"b": "2"}})["best_bet"] == {"b": "2"}  # never overwritten


def test_vn_efg_json_and_advice_json(capsys, tmp_path):
    data = json.loads(run(capsys, "vn", "efg", "--n", "3", "--b", "1", "--json"))
    assert data["efg"].startswith("EFG 2 R") and data["output"] is None and data["bytes"] == len(data["efg"])
    path = tmp_path / "vn.efg"
    data = json.loads(run(capsys, "vn", "efg", "--n", "3", "--b", "1", "-o", str(path), "--json"))
    assert "efg" not in data and data["output"] == str(path) and path.stat().st_size == data["bytes"]
    data = json.loads(run(capsys, "vn", "mixed", "--n", "3", "--b", "1", "--advice", "--json"))
    assert data["advice"][0] == "The value of the game (for Player I) is 1/18." and data["equilibria"]


@pytest.mark.parametrize("argv", [["newman", "mixed", "--n", "3", "--b", "2"],
                                  ["vn", "mixed", "--n", "3", "--b", "1", "--advice"]])
def test_texts_in_words_name_the_method_and_the_certificate(capsys, argv):
    lines = run(capsys, *argv).strip().splitlines()
    assert re.match(r"[\w-]+\(n=3, b=\d\) by .+: 1 equilibrium$", lines[0])
    assert lines[-1] == "certified: yes (exact best-response check)"


@pytest.mark.slow
def test_three_best_bet_has_best_bet_in_the_shape_of_vn(capsys):
    three = json.loads(run(capsys, "three", "best-bet", "--digits", "8", "--json"))
    vn = json.loads(run(capsys, "vn", "continuous", "--json"))
    assert set(three["best_bet"]) == set(vn["best_bet"]) == {"b", "value"}
    assert three["best_bet"]["b"] == three["best bet"] and vn["best_bet"] == {"b": "2", "value": "1/9"}
    assert three["minimal_polynomial_of_b"] == three["minimal polynomial of b*"]
