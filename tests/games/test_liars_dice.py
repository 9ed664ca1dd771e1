"""Liar's Dice end games (exactpoker.games.liars_dice): the snyd project's tables, sizes, rules and OpenSpiel.

The expected values are the fractions printed by github.com/thomasahle/snyd (tests/data/snyd_liars_dice.json,
from its floating-point LP); exactpoker's exact values must equal them.
"""

import itertools
import json
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exactpoker.cli import main
from exactpoker.core.tree import Move, Terminal, compile_tree
from exactpoker.errors import InvalidParameterError, ResourceLimitError
from exactpoker.formats import load_game
from exactpoker.games.library import poker_game
from exactpoker.games.liars_dice import RULES, LiarsDice, liars_dice, parse_dice
from exactpoker import guard
from exactpoker.certify import verify
from exactpoker.solve import solve_game
from tests.example_games import sequence_form_entries
from tests.paths import DATA

SNYD = json.loads((DATA / "snyd_liars_dice.json").read_text())["values"]


def snyd_cells(max_sequences):
    """(rule, dice, sides, printed value) of snyd's printed cells with at most ``max_sequences`` sequences."""
    for rule, tables in SNYD.items():
        for dice, column in tables.items():
            for sides, printed in column.items():
                size = liars_dice(sides=int(sides), dice=dice, rule=rule).size()
                if printed is not None and sum(size.sequences) <= max_sequences:
                    yield pytest.param(rule, dice, int(sides), Fraction(printed), id=f"{rule}-{dice}-{sides}")


FAST = list(snyd_cells(6_000))
SLOW = [cell for cell in snyd_cells(50_000) if cell not in FAST]


def value(rule, dice, sides):
    result = solve_game(liars_dice(sides=sides, dice=dice, rule=rule).compiled())
    (equilibrium,) = result.equilibria
    assert equilibrium.certified
    return equilibrium.values[0]


@pytest.mark.parametrize("rule, dice, sides, printed", FAST)
def test_snyd_table_small(rule, dice, sides, printed):
    assert value(rule, dice, sides) == printed


@pytest.mark.slow
@pytest.mark.parametrize("rule, dice, sides, printed", SLOW)
def test_snyd_table_larger(rule, dice, sides, printed):
    assert value(rule, dice, sides) == printed


def test_fast_and_slow_cells_are_the_printed_cells_up_to_50000_sequences():
    # 41 printed cells (45 less stairs 2v1 and 1v2 with 5 and 6 sides); the larger ones (up to 12.6 million
    # sequences) are the benchmark's (bench_liars_dice.py)
    printed = [value for tables in SNYD.values() for column in tables.values() for value in column.values()]
    assert (len(printed), sum(value is not None for value in printed)) == (45, 41)
    assert (len(FAST), len(SLOW)) == (19, 8)


# -- the rules ----------------------------------------------------------------------------------------------

def test_bids_per_rule():
    assert liars_dice(sides=3, rule="normal").bids() == ((1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3))
    assert liars_dice(sides=3, rule="joker").bids() == ((1, 2), (1, 3), (2, 2), (2, 3))
    assert liars_dice(sides=3, rule="stairs").bids() == tuple((c, f) for c in range(1, 5) for f in (2, 3))
    assert len(liars_dice(sides=6, dice="2v1", rule="stairs").bids()) == 6 * 5


def test_what_counts_as_a_face():
    joker, stairs, spiel = (liars_dice(sides=6, dice="2v1", rule=r) for r in ("joker", "stairs", "openspiel"))
    assert joker.counts((1, 4), 4) == 2 and joker.counts((1, 1), 5) == 2 and joker.counts((2, 3), 4) == 0
    assert stairs.counts((1, 2), 5) == 3  # a stair of two dice counts three of any face
    assert stairs.counts((2, 1), 2) == 1  # only in the order rolled (snyd_or.py's is_correct_call)
    assert stairs.counts((1, 1), 3) == 0  # ones are not wild under the stairs rule
    assert stairs.counts((1,), 4) == 2  # a single die showing 1 is a stair
    assert spiel.counts((6, 2), 2) == 2 and spiel.counts((6, 6), 6) == 2 and spiel.counts((1, 3), 6) == 0
    assert liars_dice(sides=4, rule="normal").counts((3,), 3) == 1


def test_call_pays_the_bidder_when_the_bid_holds():
    tree = liars_dice(sides=2, rule="normal").tree()
    one, two = tree.root.outcomes[0][2], tree.root.outcomes[1][2]
    bidding = one.outcomes[1][2]  # player 1 rolled 1, player 2 rolled 2
    assert isinstance(bidding, Move) and bidding.player == 0 and bidding.infoset == "1|"
    after = dict(bidding.actions)["1x1"]  # "at least one 1": true
    assert after.player == 1 and after.infoset == "2|1x1"
    assert dict(after.actions)["call"].payoffs == (1, -1)
    wrong = dict(bidding.actions)["2x1"]  # "at least two 1s": false
    assert dict(wrong.actions)["call"].payoffs == (-1, 1)
    assert two.outcomes[0][1] == Fraction(1, 2)


class _StairInAnyOrder(LiarsDice):
    """The README's reading of the stairs rule: ``1..k`` rolled in any order is a stair."""

    def counts(self, roll, face):
        if sorted(roll) == list(range(1, len(roll) + 1)):
            return len(roll) + 1
        return sum(die == face for die in roll)


def test_snyd_counts_a_stair_only_in_the_order_rolled():
    # snyd prints 3/8 (2v1) and -1/4 (1v2) with two sides: the stair (1, 2) counts, (2, 1) does not
    for dice, printed, any_order in (("2v1", Fraction(3, 8), Fraction(1, 4)), ("1v2", Fraction(-1, 4), 0)):
        game = liars_dice(sides=2, dice=dice, rule="stairs")
        assert value("stairs", dice, 2) == printed == Fraction(SNYD["stairs"][dice]["2"])
        assert solve_game(_StairInAnyOrder(*vars(game).values())).equilibria[0].values[0] == any_order


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(RULES), st.integers(2, 3), st.sampled_from(["1v1", "2v1", "1v2"]))
def test_size_counted_without_building_is_the_built_size(rule, sides, dice):
    game = liars_dice(sides=sides, dice=dice, rule=rule)
    size = game.size()
    if size.nodes > 60_000:
        return
    tree = game.tree()
    nodes = list(tree.nodes())
    assert len(nodes) == size.nodes
    assert sum(isinstance(node, Terminal) for node in nodes) == size.terminals
    compiled = compile_tree(tree)
    assert tuple(layout.num_sequences for layout in compiled.layouts) == size.sequences
    assert tuple(layout.num_infosets for layout in compiled.layouts) == size.infosets


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(RULES), st.integers(2, 4), st.sampled_from(["1v1", "2v1", "1v2"]))
def test_the_basis_and_the_lp_methods_agree(rule, sides, dice):
    game = liars_dice(sides=sides, dice=dice, rule=rule)
    if sum(game.size().sequences) > 1200:
        return
    compiled = compile_tree(game.tree())
    values = {method: solve_game(compiled, method=method).equilibria[0].values[0] for method in ("lp", "basis")}
    assert values["lp"] == values["basis"] and -1 <= values["lp"] <= 1


def test_a_game_with_no_bid_against_its_rule_is_won_by_the_first_bidder():
    # one face: "at least N ones" always holds, the first player bids it and wins (snyd's row "1": value 1)
    assert value("normal", "2v1", 1) == 1 and value("openspiel", "1v2", 1) == 1


# -- the library entry and bad input ------------------------------------------------------------------------

def test_library_entry():
    loaded = load_game("library:dice(sides=3,dice=2v1,rule=joker)")
    assert loaded.tree.parameters == (("sides", 3), ("dice", "2v1"), ("rule", "joker"))
    assert poker_game("dice") == LiarsDice(6, (1, 1), "normal")
    assert parse_dice("2;1") == parse_dice("2V1") == parse_dice((2, 1)) == (2, 1)


@pytest.mark.parametrize("params, message", [
    ({"rule": "perudo"}, "rule must be one of normal, joker, stairs, openspiel"),
    ({"sides": 1, "rule": "joker"}, "sides must be an integer >= 2"),
    ({"sides": 10}, "sides must be an integer >= 1 and <= 9"),
    ({"sides": "2.5"}, "sides must be an integer"),
    ({"dice": "3"}, "dice must be the dice of player 1 and of player 2"),
    ({"dice": "0v1"}, "dice must be an integer >= 1"),
    ({"dice": "1v1v1"}, "dice must be the dice of player 1 and of player 2"),
    ({"players": 3}, "unknown parameter 'players'"),
])
def test_bad_parameters_are_named(params, message):
    with pytest.raises(InvalidParameterError, match=message):
        poker_game("dice", **params)


def test_the_guard_refuses_a_tree_too_large_before_building_it():
    with guard.memory_limit(2 * 1024**3), pytest.raises(ResourceLimitError, match="tree nodes"):
        liars_dice(sides=6, dice="2v1", rule="stairs").tree()


def test_cli_refuses_snyds_unfinished_cells_before_building_them(capsys):
    # stairs 2v1 with 6 sides: 30,064,771,046 sequences (45,097,156,568 before the stairs classes), 939,524,070
    # without the bids that can never hold, counted from the rules and refused before anything is made
    assert sum(liars_dice(sides=6, dice="2v1", rule="stairs").size().sequences) == 30_064_771_046
    assert main(["solve", "library:dice(sides=6,dice=2v1,rule=stairs)"]) == 2
    err = capsys.readouterr().err.strip()
    assert "939524070 sequences" in err and "can never hold" in err and "TB of memory" in err and "\n" not in err
    with guard.memory_limit(16 * 1024**3):  # stairs 1v1 6 (snyd printed 0): its solve, not its arrays, is too large
        assert main(["solve", "library:dice(sides=6,dice=1v1,rule=stairs)"]) == 2
    err = capsys.readouterr().err.strip()
    assert "12582902 sequences, 37748700 payoff entries)" in err and "GB of memory" in err


def test_the_solve_is_guarded_by_the_rules_own_estimate():
    """Without hopeless bids the solve runs on the arrays alone, which :func:`guard.array_game_solve` counts
    (a quarter of the general estimate per entry: 12 GB measured where that one says 49.6 GB)."""
    game = liars_dice(sides=3, dice="1v1")
    size = game.size()
    own = guard.array_game_solve(sum(size.sequences), size.terminals)
    assert own < guard.compiled_game(sum(size.sequences), size.terminals)
    with guard.memory_limit(own):
        assert solve_game(game).value == Fraction(-1, 9)
    with guard.memory_limit(own - 1), pytest.raises(ResourceLimitError, match="payoff entries"):
        solve_game(game)


def test_the_guard_refuses_the_arrays_too_large_before_making_them():
    with guard.memory_limit(2 * 1024**3), pytest.raises(ResourceLimitError, match="payoff entries"):
        liars_dice(sides=6, dice="1v1", rule="stairs").compiled()


def test_cli_solves_and_reports_bad_input_in_one_line(capsys):
    assert main(["solve", "library:dice(sides=2,dice=1v2,rule=stairs)", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["equilibria"][0]["values"] == ["-1/4", "1/4"]
    process = subprocess.run([sys.executable, "-m", "exactpoker", "solve", "library:dice(rule=liar)"],
                             capture_output=True, text=True)
    assert process.returncode != 0 and "Traceback" not in process.stderr
    assert len(process.stderr.strip().splitlines()) == 1 and "rule must be one of" in process.stderr


# -- OpenSpiel's liars_dice: the same game under the "openspiel" rule ---------------------------------------

def _openspiel_names(player, infoset, action):
    """OpenSpiel's "3 1-2 2-2" / "2-3" / "Liar" as this generator's "3|1x2 2x2" / "2x3" / "call"."""
    roll, _, bids = infoset.partition(" ")
    return f"{roll}|{bids.replace('-', 'x')}", "call" if action == "Liar" else action.replace("-", "x")


@pytest.mark.openspiel
@pytest.mark.parametrize("sides", [2, 3, 4])
def test_openspiel_liars_dice_is_the_openspiel_rule(sides):
    pytest.importorskip("pyspiel")
    from exactpoker.formats.openspiel import load_openspiel

    theirs = compile_tree(load_openspiel(f"liars_dice(dice_sides={sides})").tree)
    ours = compile_tree(liars_dice(sides=sides, rule="openspiel").tree())
    assert sequence_form_entries(theirs, _openspiel_names) == sequence_form_entries(ours)
    assert solve_game(theirs).equilibria[0].values == solve_game(ours).equilibria[0].values


@pytest.mark.openspiel
@pytest.mark.slow
def test_openspiel_liars_dice_six_sides_value():
    pytest.importorskip("pyspiel")
    from exactpoker.formats.openspiel import load_openspiel

    theirs = solve_game(compile_tree(load_openspiel("liars_dice").tree)).equilibria[0].values[0]
    assert theirs == value("openspiel", "1v1", 6)


def test_rolls_are_multisets_except_under_the_stairs_rule():
    game = liars_dice(sides=3, dice="2v1")
    assert game.rolls(0) == ((1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (3, 3)) and game.rolls(1) == ((1,), (2,), (3,))
    assert [game.weight(roll) for roll in game.rolls(0)] == [1, 2, 2, 1, 2, 1]
    stairs = liars_dice(sides=3, dice="2v1", rule="stairs")  # the stair (1, 2) split from the rest of {1, 2}
    assert stairs.rolls(0) == ((1, 1), (1, 2), (2, 1), (1, 3), (2, 2), (2, 3), (3, 3))
    assert [stairs.weight(roll) for roll in stairs.rolls(0)] == [1, 1, 1, 2, 1, 2, 1]
    assert stairs.rolls(1) == ((1,), (2,), (3,))
    three = liars_dice(sides=4, dice="3v1", rule="stairs")
    assert (1, 2, 3) in three.rolls(0) and (3, 2, 1) in three.rolls(0)
    assert (three.weight((1, 2, 3)), three.weight((3, 2, 1))) == (1, 5)
    assert len(liars_dice(sides=4, dice="2v1", rule="stairs").rolls(0)) == 11  # of 16 ordered rolls


class _Ordered(LiarsDice):
    """Every ordered roll dealt, each with weight 1: the game before the multiset abstraction."""

    def rolls(self, player):
        return tuple(itertools.product(range(1, self.sides + 1), repeat=self.dice[player]))

    def weight(self, roll):
        return 1


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(["normal", "joker", "openspiel"]), st.integers(2, 3), st.sampled_from(["2v1", "1v2", "2v2", "3v1"]))
@example("joker", 3, "2v1")  # 568 + 190 ordered sequences, 379 + 190 as multisets
def test_dealing_multisets_is_lossless(rule, sides, dice):
    # the same value as dealing every ordered roll, and the weights of a player's rolls sum to sides^k
    game = liars_dice(sides=sides, dice=dice, rule=rule)
    for player in (0, 1):
        assert sum(map(game.weight, game.rolls(player))) == sides ** game.dice[player]
    ordered = _Ordered(*vars(game).values())
    if sum(ordered.size().sequences) > 2000:
        return
    assert sum(game.size().sequences) < sum(ordered.size().sequences)
    values = [solve_game(g).equilibria[0].values[0] for g in (game, ordered)]
    assert values[0] == values[1]


# -- the sequence form straight from the rules (LiarsDice.compiled) ------------------------------------------

def assert_same_compiled(direct, walked):
    """Two compiled games are identical: layouts (names, actions, parents in order), entries, denominator."""
    for ours, theirs in zip(direct.layouts, walked.layouts, strict=True):
        assert (ours.names, ours.actions, ours.parents) == (theirs.names, theirs.actions, theirs.parents)
    assert direct.denominator == walked.denominator
    assert direct.sequences.dtype == walked.sequences.dtype and direct.coefficients.dtype == walked.coefficients.dtype
    assert np.array_equal(direct.sequences, walked.sequences)
    assert np.array_equal(direct.coefficients, walked.coefficients)


def small_cells(max_sequences):
    for rule in RULES:
        for dice in ("1v1", "2v1", "1v2"):
            for sides in range(1 if rule in ("normal", "openspiel") else 2, 7):
                for possible in (False, True):
                    game = LiarsDice(sides, parse_dice(dice), rule, possible)
                    if sum(game.size().sequences) <= max_sequences:
                        yield pytest.param(game, id=game.name)


CELLS = list(small_cells(12_000))


def test_every_small_cell_is_compared():
    # all four rules, three dice, every bid set; stairs 2v1 and 1v2 with three sides only without the hopeless bids
    assert len(CELLS) == 74
    assert LiarsDice(3, (2, 1), "stairs", True) in [cell.values[0] for cell in CELLS]


@pytest.mark.parametrize("game", CELLS)
def test_compiled_from_the_rules_is_the_compiled_tree(game):
    direct = game.compiled()
    assert not direct.game.built  # no node made
    assert_same_compiled(direct, compile_tree(game.tree()))


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(RULES), st.integers(2, 3), st.sampled_from(["2v2", "3v1", "1v3"]), st.booleans())
def test_compiled_from_the_rules_with_more_dice(rule, sides, dice, possible):
    game = LiarsDice(sides, parse_dice(dice), rule, possible)
    if sum(game.size().sequences) > 20_000:
        return
    assert_same_compiled(game.compiled(), compile_tree(game.tree()))


def test_the_lazy_tree_is_the_tree():
    game = liars_dice(sides=3, dice="2v1", rule="joker")
    compiled = game.compiled()
    assert compiled.game.parameters == game.tree().parameters and compiled.game.name == "dice"
    assert_same_compiled(compile_tree(compiled.game), compiled)  # reading root builds the nodes
    assert compiled.game.built


def test_the_library_and_the_cli_take_the_direct_path():
    loaded = load_game("library:dice(sides=4,dice=2v1,rule=stairs)")
    assert loaded.compiled is not None and loaded.tree is loaded.compiled.game and not loaded.tree.built


# -- stairs as multisets plus the stair -----------------------------------------------------------------------

@pytest.mark.parametrize("dice", ["1v1", "2v1", "1v2", "3v1"])
@pytest.mark.parametrize("sides", [2, 3, 4])
def test_stairs_classes_weigh_every_ordered_roll(dice, sides):
    game = liars_dice(sides=sides, dice=dice, rule="stairs")
    for player in (0, 1):
        rolls = game.rolls(player)
        assert sum(map(game.weight, rolls)) == sides ** game.dice[player] and len(set(rolls)) == len(rolls)
        for roll in itertools.product(range(1, sides + 1), repeat=game.dice[player]):  # each ordered roll
            same = [r for r in rolls if sorted(r) == sorted(roll) and game.counts(r, 2) == game.counts(roll, 2)]
            assert len(same) == 1 and all(game.counts(same[0], f) == game.counts(roll, f) for f in range(2, sides + 1))


@pytest.mark.parametrize("dice", ["2v1", "1v2"])
def test_stairs_classes_are_lossless(dice):
    # the value of every ordered roll dealt (the game before the classes) and the engine finds nothing to merge
    from exactpoker.solve.structure.abstraction import lossless_abstraction

    game = liars_dice(sides=2, dice=dice, rule="stairs")
    ordered = _Ordered(*vars(game).values())
    values = [solve_game(g.compiled()).equilibria[0].values[0] for g in (game, ordered)]
    assert values[0] == values[1] == Fraction(SNYD["stairs"][dice]["2"])
    # with three sides the engine's symmetry search merges no two of the two-dice player's roll classes (it
    # merges some information sets late in the bidding, where a bid is false whatever the roll)
    compiled = liars_dice(sides=3, dice=dice, rule="stairs").compiled()
    two = 0 if dice == "2v1" else 1
    layout, orbit = compiled.layouts[two], lossless_abstraction(compiled).orbit[two].tolist()
    by_roll = {}
    for infoset, name in enumerate(layout.names):
        by_roll.setdefault(name.split("|")[0], []).append(orbit[infoset])
    assert len(by_roll) == 7 and len({tuple(orbits) for orbits in by_roll.values()}) == 7


@pytest.mark.slow
@pytest.mark.parametrize("dice", ["2v1", "1v2"])
def test_stairs_classes_are_lossless_with_three_sides(dice):
    game = liars_dice(sides=3, dice=dice, rule="stairs")
    ordered = _Ordered(*vars(game).values())
    assert sum(game.size().sequences) == 28_666 + 12_286 < sum(ordered.size().sequences) == 36_856 + 12_286
    values = [solve_game(g.compiled()).equilibria[0].values[0] for g in (game, ordered)]
    assert values[0] == values[1] == Fraction(SNYD["stairs"][dice]["3"])


# -- bids that can never hold: solved without them, lifted, certified on the full rules -----------------------

def test_hopeless_bids_are_counted_from_the_rules():
    stairs = liars_dice(sides=4, dice="2v1", rule="stairs")  # two dice with a stair count 3, one die 2: at most 5
    assert stairs.hopeless_bids() == ((6, 2), (6, 3), (6, 4))
    assert (len(stairs.all_bids()), len(LiarsDice(4, (2, 1), "stairs", True).bids())) == (18, 15)
    assert LiarsDice(4, (2, 1), "stairs", True).size().sequences == (360_438, 131_069)
    assert liars_dice(sides=4, dice="2v2", rule="stairs").hopeless_bids() == tuple(
        (count, face) for count in (7, 8) for face in (2, 3, 4))
    assert liars_dice(sides=6, dice="1v1", rule="stairs").hopeless_bids() == ()
    for rule in ("normal", "joker", "openspiel"):
        assert liars_dice(sides=4, dice="2v1", rule=rule).hopeless_bids() == ()


def _lifted(sides, dice):
    """``solve_game`` on stairs rules with hopeless bids: the smaller game solved, lifted, certified on the full."""
    game = liars_dice(sides=sides, dice=dice, rule="stairs")
    result = solve_game(game)
    assert result.method.endswith(", without the hopeless bids, lifted")
    return game, result


@pytest.mark.parametrize("dice", ["2v1", "1v2"])
@pytest.mark.parametrize("sides", [2, 3])
def test_the_lifted_equilibrium_is_certified_on_the_full_rules(sides, dice):
    game, lifted = _lifted(sides, dice)
    (equilibrium,) = lifted.equilibria
    assert equilibrium.certificate.holds and equilibrium.certificate.scope == "all strategies"
    assert equilibrium.exact_values[0] == Fraction(SNYD["stairs"][dice][str(sides)])
    full = game.compiled()
    assert tuple(layout.num_sequences for layout in full.layouts) == game.size().sequences
    assert equilibrium.certificate == verify(full, equilibrium.profile)  # an independent re-check on the full rules
    hopeless = {f"{count}x{face}" for count, face in game.hopeless_bids()}
    for player, layout in enumerate(full.layouts):  # never bid; call right after one
        for infoset, name in enumerate(layout.names):
            probabilities = dict(zip(layout.actions[infoset], equilibrium.profile.strategies[player][infoset]))
            assert all(probabilities.get(bid, 0) == 0 for bid in hopeless)
            if name.split(" ")[-1].split("|")[-1] in hopeless:
                assert probabilities["call"] == 1
    notes = lifted.details["hopeless_bids"]
    assert notes["solved_value"] == str(equilibrium.exact_values[0])
    assert notes["bids"]["full"] - notes["bids"]["solved"] == len(notes["left_out"]) > 0


def test_a_lifted_profile_that_raises_after_a_hopeless_bid_fails_the_check():
    # player 2 answering player 1's hopeless 6x2 with the hopeless 6x3 lets player 1 bid it and win (caught)
    from exactpoker.core.profile import BehaviourProfile

    game, lifted = _lifted(3, "2v1")
    full, profile = game.compiled(), lifted.equilibria[0].profile
    layout = full.layouts[1]
    second = list(profile.strategies[1])
    for infoset, name in enumerate(layout.names):
        if name.endswith(" 6x2") or name.endswith("|6x2"):
            second[infoset] = tuple(Fraction(action == "6x3") for action in layout.actions[infoset])
    tampered = BehaviourProfile((profile.strategies[0], tuple(second)))
    assert not verify(full, tampered).holds


@settings(max_examples=6, deadline=None)
@given(st.integers(2, 3), st.sampled_from(["2v1", "1v2", "2v2", "3v1"]))
def test_the_lift_agrees_with_solving_the_full_rules(sides, dice):
    game = liars_dice(sides=sides, dice=dice, rule="stairs")
    if sum(game.size().sequences) > 3_000:
        return
    assert _lifted(sides, dice)[1].value == solve_game(game.compiled()).value


def test_lift_by_names_refuses_what_it_cannot_match():
    from exactpoker.errors import InvalidGameError
    from exactpoker.solve.structure.restricted_lift import lift_by_names

    game = liars_dice(sides=2, dice="2v1", rule="stairs")
    full, smaller = game.compiled(), LiarsDice(2, (2, 1), "stairs", True).compiled()
    profile = solve_game(smaller).equilibria[0].profile
    with pytest.raises(InvalidGameError, match="'1x2' is not an action of"):
        lift_by_names(full, smaller, profile, "1x2")
    with pytest.raises(InvalidGameError, match="is not in the full game"):
        lift_by_names(smaller, full, solve_game(full).equilibria[0].profile, "call")


def test_cli_solves_a_stairs_cell_without_its_hopeless_bids(capsys):
    jsonschema = pytest.importorskip("jsonschema")
    from exactpoker.schema import schema

    assert main(["solve", "library:dice(sides=3,dice=2v1,rule=stairs)", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (equilibrium,) = data["equilibria"]
    assert equilibrium["values"] == ["1/27", "-1/27"] and equilibrium["certified"]
    assert data["details"]["sequences"] == ["28666", "12286"]  # the full rules' game, certified there
    lifted = data["details"]["hopeless_bids"]
    assert lifted["left_out"] == ["6x2", "6x3"] and lifted["sequences"]["solved"] == ["7162", "3070"]
    assert "can never hold" in data["notes"][0]
    jsonschema.Draft202012Validator(schema()).validate(data)
    assert main(["solve", "library:dice(sides=2,dice=2v1,rule=stairs)", "--method", "lp", "--json"]) == 0
    forced = json.loads(capsys.readouterr().out)  # a forced method solves the full rules themselves
    assert "hopeless_bids" not in forced["details"] and forced["equilibria"][0]["values"] == ["3/8", "-3/8"]


def test_the_bidding_tree_in_pre_order():
    from exactpoker.games.liars_dice_compile import Bidding

    bidding = Bidding.of(["1x2", "2x2", "3x2"])  # 2^3 histories: "", 1x2, 1x2 2x2, 1x2 2x2 3x2, 1x2 3x2, 2x2, ...
    assert bidding.histories == ["", "1x2", "1x2 2x2", "1x2 2x2 3x2", "1x2 3x2", "2x2", "2x2 3x2", "3x2"]
    assert bidding.last.tolist() == [-1, 0, 1, 2, 2, 1, 2, 2] and bidding.parent.tolist() == [-1, 0, 1, 2, 1, 0, 5, 0]
    assert bidding.postorder.tolist() == [3, 2, 4, 1, 6, 5, 7, 0]
    assert bidding.actions.tolist() == [3, 3, 2, 1, 1, 2, 1, 1]  # the higher bids, and a call after the first
    mine, starts, width = bidding.offsets(1)  # player 2 moves after one bid or three
    assert mine.tolist() == [1, 3, 5, 7] and starts[mine].tolist() == [0, 3, 4, 6] and width == 7
