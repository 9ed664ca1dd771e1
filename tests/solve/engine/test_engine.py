"""One engine, every door: ``exactpoker solve GAME`` and ``solve_game`` run the same function (issue 27).

Both reach :func:`exactpoker.solve.engine.dispatch.solve_game` through the one question a game is asked
(:func:`exactpoker.solve.engine.loaded.as_loaded`): the same method, equilibria, strategies and certificate, whether
the game is Liar's Dice (compiled from its rules, without the bids that can never hold), a seed paper's rules,
a poker-language game or a Gambit file of von Neumann poker.
"""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import dataclass, field
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker import guard
from exactpoker.cli import main
from exactpoker.core.poker_compile import compile_poker
from exactpoker.core.tree import GameTree
from exactpoker.errors import InvalidParameterError, ResourceLimitError
from exactpoker.formats import load_game
from exactpoker.formats.efg import to_efg
from exactpoker.games import von_neumann
from exactpoker.games.library import poker_game
from exactpoker.games.liars_dice import RULES, liars_dice
from exactpoker.results import with_snake_keys
from exactpoker.solve import solve_game
from exactpoker.solve.engine.loaded import CompilingRules, TreeRules, as_loaded


def cli_json(*argv: str) -> dict:
    """``exactpoker solve ARGV --json``, run here, as parsed JSON."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["solve", *argv, "--json"]) == 0
    return json.loads(out.getvalue())


def api_json(result) -> dict:
    """A result of the Python door as the CLI prints it (the same JSON vocabulary)."""
    return json.loads(json.dumps(with_snake_keys(result.to_dict())))


def assert_same_answer(api: dict, cli: dict) -> None:
    """The same method, values, strategies and certificate (and the rest of the document)."""
    assert api["method"] == cli["method"]
    for ours, theirs in zip(api["equilibria"], cli["equilibria"], strict=True):
        for key in ("values", "strategies", "certified", "certificate"):
            assert ours[key] == theirs[key], key
        assert ours.get("labelled_strategies") == theirs.get("labelled_strategies")
    assert api == cli


# -- Liar's Dice: the API reaches the rules' own path ---------------------------------------------------------

@pytest.mark.parametrize("sides", [2, pytest.param(3, marks=pytest.mark.slow)])
def test_solve_game_on_dice_with_hopeless_bids_is_the_cli(sides):
    spec = f"dice(sides={sides},dice=2v1,rule=stairs)"
    rules = poker_game("dice", sides=sides, dice="2v1", rule="stairs")
    assert rules.hopeless_bids()
    api, cli = api_json(solve_game(rules)), cli_json(f"library:{spec}")
    assert_same_answer(api, cli)
    lifted = api["details"]["hopeless_bids"]  # solved without them, certified on the full rules
    assert lifted["left_out"] == [f"{count}x{face}" for count, face in rules.hopeless_bids()]
    assert api["method"].endswith("without the hopeless bids, lifted")
    assert api["equilibria"][0]["certificate"]["scope"] == "all strategies"


def test_solve_game_on_dice_without_hopeless_bids_is_the_cli():
    rules = liars_dice(sides=3, dice="1v1")
    assert not rules.hopeless_bids()
    api, cli = api_json(solve_game(rules)), cli_json("library:dice(sides=3,dice=1v1)")
    assert_same_answer(api, cli)
    assert "hopeless_bids" not in api["details"] and api["equilibria"][0]["values"] == ["-1/9", "1/9"]


def test_the_lift_through_the_api_agrees_with_the_full_rules_solved_directly():
    # two independent methods on one game: the lifted solve (default) and the LP on every bid (a method asked)
    rules = liars_dice(sides=2, dice="2v1", rule="stairs")
    lifted, direct = solve_game(rules), solve_game(rules, method="lp")
    assert "hopeless_bids" in lifted.details and "hopeless_bids" not in direct.details
    assert lifted.equilibria[0].exact_values == direct.equilibria[0].exact_values == (Fraction(3, 8), Fraction(-3, 8))


@settings(max_examples=6, deadline=None)
@given(st.sampled_from(RULES), st.sampled_from(["1v1", "2v1", "1v2"]))
def test_every_small_dice_cell_gets_one_answer_from_both_doors(rule, dice):
    rules = liars_dice(sides=2, dice=dice, rule=rule)
    assert_same_answer(api_json(solve_game(rules)), cli_json(f"library:dice(sides=2,dice={dice},rule={rule})"))


# -- a Gambit file: structure detection on one path -----------------------------------------------------------

@pytest.fixture
def vn_efg(tmp_path):
    path = tmp_path / "vn8.efg"
    path.write_text(to_efg(von_neumann.game(8, 2)))
    return str(path)


def test_an_efg_of_von_neumann_poker_gets_one_answer_from_both_doors(vn_efg):
    cli = cli_json(vn_efg)
    loaded = load_game(vn_efg)
    assert_same_answer(api_json(solve_game(loaded)), cli)
    assert_same_answer(api_json(solve_game(loaded.tree, tables=loaded.tables)), cli)
    assert cli["details"]["structure"]["source"] == "game tree"  # the structured path, found in the tree


def test_the_tree_alone_is_laid_out_by_information_sets_with_the_same_answer(vn_efg):
    loaded = load_game(vn_efg)
    gambit, plain = api_json(solve_game(loaded)), api_json(solve_game(loaded.tree))
    assert gambit["method"] == plain["method"]
    (ours,), (theirs,) = gambit["equilibria"], plain["equilibria"]
    assert ours["strategies"] != theirs["strategies"]  # a Gambit behaviour profile against information sets
    for key in ("values", "labelled_strategies", "certificate"):
        assert ours[key] == theirs[key]


def test_a_seed_papers_rules_get_one_answer_from_both_doors():
    assert_same_answer(api_json(solve_game(von_neumann.game(8, 2))), cli_json("library:vn(n=8,b=2)"))
    forced = api_json(solve_game(von_neumann.game(8, 2), method="lp"))
    assert forced == cli_json("library:vn(n=8,b=2)", "--method", "lp")
    assert forced["method"] != cli_json("library:vn(n=8,b=2)")["method"]


def test_every_option_reaches_a_seed_papers_rules():
    # --all was once left out for rules (one equilibrium of the structured path came back): now asked of the engine
    api = api_json(solve_game(von_neumann.game(4, 2), all_equilibria=True))
    assert api == cli_json("library:vn(n=4,b=2)", "--all")
    assert len(api["equilibria"]) == 2 and api["convex_sets"]


@settings(max_examples=5, deadline=None)
@given(st.fractions(0, 3, max_denominator=4), st.fractions(Fraction(1, 4), 3, max_denominator=4))
def test_kuhn_gets_one_answer_from_both_doors(ante, bet):
    rules = poker_game("kuhn", ante=ante, bet=bet)
    assert_same_answer(api_json(solve_game(rules)), cli_json(f"library:kuhn(ante={ante},bet={bet})"))


# -- the one question: rules are asked by protocol, not by their attributes ----------------------------------

@dataclass(frozen=True)
class _Compiling:
    """Rules that compile themselves (Kuhn poker), counting what the engine asks them; no solve of their own."""

    calls: list = field(default_factory=list)
    name: str = "own kuhn"

    def compiled(self):
        self.calls.append("compiled")
        return compile_poker(poker_game("kuhn"))

    def solve_memory(self) -> tuple[int, str]:
        self.calls.append("solve_memory")
        return 10_000, "a few sequences"

    def restriction(self):
        self.calls.append("restriction")
        return None


def test_rules_that_compile_themselves_are_asked_never_called_back():
    rules = _Compiling()
    assert isinstance(rules, CompilingRules) and isinstance(liars_dice(sides=2), CompilingRules)
    assert solve_game(rules).equilibria[0].exact_values[0] == Fraction(-1, 18)
    assert rules.calls == ["solve_memory", "compiled", "restriction"]  # asked once each, in that order
    assert solve_game(rules, method="lp").equilibria[0].exact_values[0] == Fraction(-1, 18)
    with guard.memory_limit(5_000), pytest.raises(ResourceLimitError, match=r"solve own kuhn \(a few sequences\)"):
        solve_game(rules)


@dataclass(frozen=True)
class _TreeOnly:
    """Rules with a tree and a ``hopeless_bids`` attribute, but no ``compiled``: not Liar's Dice."""

    def tree(self) -> GameTree:
        return poker_game("kuhn").tree()

    def hopeless_bids(self) -> tuple:
        return ((9, 9),)


def test_the_library_and_solve_game_ask_the_same_question():
    dice = load_game("library:dice(sides=2,dice=2v1,rule=stairs)")
    assert dice.compiled is not None and dice.restriction is not None
    assert dice.source == "library:dice(sides=2,dice=2v1,rule=stairs)"
    assert as_loaded(liars_dice(sides=2, dice="2v1", rule="stairs")).restriction == dice.restriction
    assert load_game("library:vn(n=4)").rules == as_loaded(von_neumann.game(4, 1)).rules
    assert load_game("library:kuhn").compiled is not None and as_loaded(poker_game("kuhn")).compiled is not None
    other = as_loaded(_TreeOnly())
    assert isinstance(_TreeOnly(), TreeRules) and not isinstance(_TreeOnly(), CompilingRules)
    assert (other.compiled, other.restriction, other.rules) == (None, None, None) and isinstance(other.tree, GameTree)
    assert solve_game(_TreeOnly()).equilibria[0].exact_values[0] == Fraction(-1, 18)


def test_bad_input_names_what_is_allowed():
    with pytest.raises(InvalidParameterError, match="game must be a CompiledGame.*got int"):
        solve_game(3)
    with pytest.raises(InvalidParameterError, match="unknown option 'methd'; allowed: method"):
        solve_game(poker_game("kuhn"), methd="lp")


def test_the_size_guard_is_on_the_api_path_too():
    tree = poker_game("kuhn").tree()
    with guard.memory_limit(1000), pytest.raises(ResourceLimitError, match=r"solve kuhn \(\d+ sequences"):
        solve_game(tree, method="lp")
    with guard.memory_limit(1000), pytest.raises(ResourceLimitError, match=r"solve von-neumann \(56 deals\)"):
        solve_game(von_neumann.game(8, 2), method="lp")
