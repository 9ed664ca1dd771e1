"""Newman poker (seed 000, section 3): finite decks and the continuous limit."""

import json

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.cli import main
from exactpoker.continuous import newman as continuous
from exactpoker.games.papers import newman, von_neumann


def test_bet_one_is_von_neumann_poker_with_bet_one():
    for n in (3, 5, 8):
        assert newman.equilibrium(n, 1).value == von_neumann.equilibrium(n, 1).value


@settings(deadline=None, max_examples=15)
@given(n=st.integers(2, 6), b=st.integers(1, 4))
def test_sequence_form_and_paper_lp_agree(n, b):
    """The paper's LP (n 2^b constraints) and the sequence form (n (b+1)) give the same value."""
    fast = newman.equilibrium(n, b)
    paper = newman.equilibrium(n, b, method="per-card")
    assert fast.value == paper.value
    assert fast.equilibria[0].certificate.holds and paper.equilibria[0].certificate.holds


def test_strategy_tables_have_the_papers_shape():
    eq = newman.equilibrium(6, 4).equilibria[0]
    assert len(eq.strategies["I"]) == 6 and all(len(row) == 5 and sum(row) == 1 for row in eq.strategies["I"])
    assert all(row[0] == 1 and len(row) == 5 for row in eq.strategies["II"])  # q_j[0] = 1


@settings(deadline=None, max_examples=10)
@given(n=st.integers(2, 9), b=st.integers(1, 5))
def test_more_bet_sizes_never_hurt_player_one(n, b):
    """Player I's options at b are a subset of those at b + 1, so the value cannot fall."""
    assert newman.equilibrium(n, b + 1).value >= newman.equilibrium(n, b).value


def test_saturation_for_small_decks():
    r = newman.saturation(8)
    b = r.details["saturation b"]
    values = r.details["values"]
    assert values[str(b)] == values[str(b + 3)]
    assert b == 1 or values[str(b - 1)] != values[str(b)]


def test_values_approach_one_seventh():
    """Seed 000 section 3: as n grows (at saturation) the value approaches Newman's 1/7."""
    gaps = [abs(newman.equilibrium(n, 2 * n).value - sympy.Rational(1, 7)) for n in (6, 12, 24)]
    assert gaps[0] > gaps[1] > gaps[2]


def test_continuous_solution():
    """Newman (1959): A bluffs below 1/7, checks up to 4/7, bets for value above; value 1/7."""
    sol = continuous.solve()
    assert sol.certified
    assert (sol.bluff_below, sol.value_above, sol.value) == (sympy.Rational(1, 7), sympy.Rational(4, 7), sympy.Rational(1, 7))
    s, x = continuous.s, continuous.x
    # the bet size vanishes at 4/7 and grows without bound as x -> 1; II's threshold starts at 1/7
    assert sympy.simplify(sol.bet_of_hand.subs(x, sympy.Rational(4, 7))) == 0
    assert sympy.limit(sol.bet_of_hand, x, 1, "-") == sympy.oo
    assert sol.call_threshold.subs(s, 0) == sympy.Rational(1, 7)
    assert sympy.limit(sol.call_threshold, s, sympy.oo) == 1


def test_cli(capsys):
    assert main(["newman", "mixed", "--n", "4", "--b", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "newman" and data["equilibria"][0]["values"] == ["1/12", "-1/12"]
    assert main(["newman", "continuous", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == "1/7"
    assert main(["newman", "saturation", "--n", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["saturation_b"] == 2


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: newman.equilibrium(1, 2), "n must be an integer >= 2"),
        (lambda: newman.equilibrium(5, 0), "b must be an integer >= 1"),
        (lambda: newman.equilibrium(5, "5/2"), "b must be an integer"),
        (lambda: newman.equilibrium(20, 8, method="per-card"), "use --method sequence or structured"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()
