"""OpenSpiel games read exactly (exactpoker.formats.openspiel), solved, and checked by OpenSpiel's own nash_conv."""

import json
import math
import re
import subprocess
import sys
import time
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import exploitability  # noqa: E402

from exactpoker.cli import main  # noqa: E402
from exactpoker.core.tree import compile_tree  # noqa: E402
from exactpoker.errors import InvalidGameError, InvalidParameterError  # noqa: E402
from exactpoker.formats import load_game  # noqa: E402
from exactpoker.formats.openspiel import exact_fraction, load_openspiel, to_tabular_policy  # noqa: E402
from exactpoker.games.papers import kuhn3  # noqa: E402
from exactpoker.solve import solve_game  # noqa: E402
from tests.example_games import leduc_tree  # noqa: E402

pytestmark = pytest.mark.openspiel


def solve(game_string):
    loaded = load_openspiel(game_string)
    return solve_game(compile_tree(loaded.tree), tables=loaded.tables)


def nash_conv(game_string, strategies):
    game = pyspiel.load_game(game_string)
    return exploitability.nash_conv(game, to_tabular_policy(game, strategies))


# -- two-player Kuhn -------------------------------------------------------------------------


def test_kuhn_value_exact_and_nash_conv():
    result = solve("kuhn_poker")
    [eq] = result.equilibria
    assert eq.certified and result.value == Fraction(-1, 18) and eq.values[1] == Fraction(1, 18)
    # per player, one row per information state, the legal actions (Pass, Bet) in action-id order
    assert set(eq.strategies) == {"0", "1"}
    assert set(eq.strategies["0"]) == {f"{card}{history}" for card in "012" for history in ("", "pb")}
    assert set(eq.strategies["1"]) == {f"{card}{history}" for card in "012" for history in ("p", "b")}
    assert all(len(row) == 2 and sum(row) == 1 for table in eq.strategies.values() for row in table.values())
    assert nash_conv("kuhn_poker", eq.strategies) < 1e-12
    # the same rows named by OpenSpiel's action_to_string
    assert {key: list(row.values()) for key, row in eq.labelled["0"].items()} == eq.strategies["0"]
    assert eq.labelled["0"]["1pb"] == {"Pass": Fraction(1, 3), "Bet": Fraction(2, 3)}


def test_the_flat_table_of_earlier_releases_is_still_read():
    strategies = solve("kuhn_poker").equilibria[0].strategies
    flat = {key: row for table in strategies.values() for key, row in table.items()}
    assert nash_conv("kuhn_poker", flat) < 1e-12


def test_kuhn_tree_sizes_and_names():
    loaded = load_game("openspiel:kuhn_poker")
    assert loaded.source == "openspiel:kuhn_poker()"
    compiled = compile_tree(loaded.tree)
    assert [layout.num_sequences for layout in compiled.layouts] == [13, 13]
    assert compiled.layouts[0].infoset_actions(0) == ("Pass", "Bet")
    assert compiled.denominator == 6 and compiled.is_zero_sum
    assert dict(loaded.tree.parameters) == {"players": 2}


def test_a_bad_policy_is_seen_by_nash_conv():
    uniform = {key: ["1/2", "1/2"] for table in solve("kuhn_poker").equilibria[0].strategies.values() for key in table}
    assert nash_conv("kuhn_poker", uniform) > 0.1


def test_to_tabular_policy_checks_the_table():
    strategies = {key: row for table in solve("kuhn_poker").equilibria[0].strategies.values()
                  for key, row in table.items()}
    with pytest.raises(InvalidParameterError, match="legal actions"):
        to_tabular_policy("kuhn_poker", {**strategies, "0": ["1"]})
    del strategies["0pb"]
    with pytest.raises(InvalidParameterError, match="missing, e.g. '0pb'"):
        to_tabular_policy("kuhn_poker", strategies)


# -- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize("name, message", [
    ("nonexistent", "Unknown game 'nonexistent'"),
    ("kuhn_poker(foo=3)", "Unknown parameter 'foo'"),
    ("kuhn_poker(players=30)", "num_players"),
    ("kuhn_poker(players=3", "closing bracket"),
    ("", "give a game name"),
])
def test_bad_names_are_one_line(name, message):
    with pytest.raises(InvalidParameterError, match=re.escape(message)) as info:
        load_openspiel(name)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("name, message", [
    ("matrix_rps", "not sequential"),
    ("goofspiel(num_cards=3)", "not sequential"),
    ("pig", "no information_state_string"),
])
def test_games_without_an_exact_tree_are_refused(name, message):
    with pytest.raises(InvalidGameError, match=message):
        load_openspiel(name)


def test_tree_size_limit():
    with pytest.raises(InvalidGameError, match="more than 1000 nodes"):
        load_openspiel("leduc_poker", max_nodes=1000)


@pytest.mark.parametrize("name", ["go", "chess"])
def test_a_huge_tree_is_refused_before_the_walk(name):
    """Knuth's estimate refuses go and chess at once (go used to be walked for 112 s and 836 MB first)."""
    start = time.perf_counter()
    with pytest.raises(InvalidGameError, match="Knuth's estimate"):
        load_openspiel(name)
    assert time.perf_counter() - start < 5


def test_knuths_estimate_is_unbiased():
    """Averaged over many random paths the estimate is the tree's size (kuhn_poker: 58 nodes, leduc_poker's
    count from the walk); the median used for refusals lies below the mean on these skewed trees."""
    import pyspiel
    from exactpoker.formats.openspiel import estimate_nodes

    for name in ("kuhn_poker", "leduc_poker"):
        game = pyspiel.load_game(name)
        nodes = len(list(load_openspiel(name).tree.nodes()))
        mean = sum(estimate_nodes(game, 10**9, probes=1, seed=k) for k in range(3000)) / 3000
        assert abs(mean - nodes) < 0.1 * nodes
        assert estimate_nodes(game, 10**9) <= 1.1 * nodes


def test_simultaneous_game_wrapped_turn_based_is_read():
    result = solve("turn_based_simultaneous_game(game=matrix_rps())")
    assert result.value == 0 and result.equilibria[0].certified


# -- exact numbers from floats ---------------------------------------------------------------


@pytest.mark.parametrize("value, exact", [
    (1 / 3, Fraction(1, 3)), (0.1, Fraction(1, 10)), (1 / 6, Fraction(1, 6)), (-2.5, Fraction(-5, 2)),
    (0.0, Fraction(0)), (3.0, Fraction(3)), (1 / 999983, Fraction(1, 999983)),
])
def test_exact_fraction_of_clean_floats(value, exact):
    assert exact_fraction(value, "p") == exact


@given(st.integers(-10**6, 10**6), st.integers(1, 10**6))
def test_exact_fraction_recovers_every_small_fraction(numerator, denominator):
    assert exact_fraction(numerator / denominator, "p") == Fraction(numerator, denominator)


@pytest.mark.parametrize("value", [math.pi / 4, 0.7000000000000001, 1 / 1000003, 1e-9, math.inf, math.nan])
def test_exact_fraction_refuses_the_rest(value):
    with pytest.raises(InvalidGameError, match="the chance probability"):
        exact_fraction(value, "the chance probability")


# -- small Python games: chance that is not clean, imperfect recall --------------------------


def python_game(chance=(), returns=(1.0, -1.0), forgetful=False):
    """A two-player OpenSpiel game written in Python.

    With ``chance`` (float probabilities), chance deals an outcome first;
    player 0 then moves L or R, player 1 moves, player 0 moves again; player
    0 wins ``returns`` if their two moves agree.  ``forgetful``: player 0's
    second information state forgets the first move (imperfect recall).
    """
    kind = pyspiel.GameType(
        short_name="python_exactpoker_test", long_name="exactpoker test game",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2, min_num_players=2, provides_information_state_string=True,
        provides_information_state_tensor=False, provides_observation_string=False,
        provides_observation_tensor=False, parameter_specification={})
    info = pyspiel.GameInfo(num_distinct_actions=2, max_chance_outcomes=len(chance), num_players=2,
                            min_utility=-max(returns), max_utility=max(returns), utility_sum=0.0,
                            max_game_length=4)
    skip = 0 if chance else 1

    class State(pyspiel.State):
        def __init__(self, game):
            super().__init__(game)
            self.moves = []

        def _step(self):
            return len(self.moves) + skip

        def current_player(self):
            return [pyspiel.PlayerId.CHANCE, 0, 1, 0, pyspiel.PlayerId.TERMINAL][self._step()]

        def is_chance_node(self):
            return self._step() == 0

        def chance_outcomes(self):
            return list(enumerate(chance))

        def _legal_actions(self, player):
            return [0, 1]

        def _apply_action(self, action):
            self.moves.append(action)

        def _action_to_string(self, player, action):
            return f"deal {action}" if player < 0 else "LR"[action]

        def is_terminal(self):
            return self._step() == 4

        def returns(self):
            mine = self.moves[-3::2]
            return list(returns) if mine[0] == mine[1] else [-returns[0], -returns[1]]

        def information_state_string(self, player):
            seen = self.moves if not (forgetful and player == 0 and self._step() == 3) else self.moves[-1:]
            return f"p{player}:{seen}"

        def __str__(self):
            return str(self.moves)

    class Game(pyspiel.Game):
        def __init__(self):
            super().__init__(kind, info, {})

        def new_initial_state(self):
            return State(self)

    return Game()


def test_python_game_with_clean_chance_is_exact():
    loaded = load_openspiel(python_game(chance=(1 / 3, 1 / 3, 1 / 3)))
    outcomes = loaded.tree.root.outcomes
    assert [p for _, p, _ in outcomes] == [Fraction(1, 3)] * 3 and outcomes[0][0] == "deal 0"
    result = solve_game(compile_tree(loaded.tree), tables=loaded.tables)
    assert result.value == 1 and result.equilibria[0].certified  # player 0 repeats their move


@pytest.mark.parametrize("chance, message", [
    ((math.pi / 4, 1 - math.pi / 4), r"chance probability of outcome 0 at history \[\]"),
    ((0.5, 0.25), r"history \[\]': probabilities must sum to 1; they sum to 3/4"),
])
def test_unclean_chance_is_refused_naming_the_history(chance, message):
    with pytest.raises(InvalidGameError, match=message):
        load_openspiel(python_game(chance=chance))


def test_unclean_returns_are_refused_naming_the_history():
    with pytest.raises(InvalidGameError, match=r"the return at history \[0, 0, 0\]"):
        load_openspiel(python_game(returns=(math.e, -math.e)))


def test_imperfect_recall_is_refused_naming_the_information_set():
    loaded = load_openspiel(python_game(forgetful=True))  # reading works; compiling checks recall
    with pytest.raises(InvalidGameError, match=r"'p0:\[0\]' of player 0 .*does not have perfect recall"):
        compile_tree(loaded.tree)


# -- the command line ------------------------------------------------------------------------


def test_cli_json_shape(capsys):
    status = main(["solve", "openspiel:kuhn_poker", "--json"])
    out, _ = capsys.readouterr()
    assert status == 0
    data = json.loads(out)
    assert data["game"] == "kuhn_poker" and data["params"] == {"players": "2"}
    [eq] = data["equilibria"]
    assert eq["values"] == ["-1/18", "1/18"] and eq["certified"] is True
    assert list(eq["strategies"]) == ["0", "1"] and len(eq["strategies"]["0"]) == 6
    assert eq["strategies"]["0"]["2"] == ["0", "1"]  # the king always bets
    assert eq["labelled_strategies"]["0"]["2"] == {"Pass": "0", "Bet": "1"}
    assert nash_conv("kuhn_poker", eq["strategies"]) < 1e-12


def test_cli_unknown_game_is_one_line_exit_2():
    proc = subprocess.run([sys.executable, "-m", "exactpoker", "solve", "openspiel:nonexistent"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Unknown game 'nonexistent'" in proc.stderr


# -- three-player Kuhn: OpenSpiel's is kuhn3 with 4 cards and pot 3 --------------------------

#: OpenSpiel's betting history (p = Pass, b = Bet) -> kuhn3's node number (seed 003, section 2).
KUHN3_NODES = {"": 1, "p": 2, "pp": 3, "ppb": 4, "ppbp": 5, "ppbb": 6, "pb": 7, "pbp": 8, "pbb": 9, "b": 10,
               "bp": 11, "bb": 12}


def kuhn3_sequence_map(openspiel, ours):
    """OpenSpiel's sequences -> kuhn3's, per player (card c is kuhn3's card c + 1; Pass/Bet is passive/aggressive)."""
    maps = []
    for mine, theirs in zip(openspiel.layouts, ours.layouts):
        mapping = {0: 0}
        for infoset, name in enumerate(mine.names):
            card, node = int(name[0]) + 1, KUHN3_NODES[name[1:]]
            label = theirs.labels.index(str(node))
            for action, sequence in enumerate(mine.infoset_sequences(infoset)):
                mapping[sequence] = theirs.sequence(card, label, action)
        maps.append(mapping)
    return maps


def payoff_entries(compiled, maps=None):
    entries = {}
    for seqs, coefficients in zip(compiled.sequences.tolist(), compiled.coefficients.tolist()):
        if maps is not None:
            seqs = [m[s] for m, s in zip(maps, seqs)]
        entries[tuple(seqs)] = tuple(Fraction(int(c), compiled.denominator) for c in coefficients)
    return entries


def test_openspiel_three_player_kuhn_is_kuhn3_with_pot_3():
    openspiel = compile_tree(load_openspiel("kuhn_poker(players=3)").tree)
    ours = kuhn3.compiled(4, 3)
    maps = kuhn3_sequence_map(openspiel, ours)
    assert all(sorted(m.values()) == list(range(layout.num_sequences)) for m, layout in zip(maps, ours.layouts))
    assert payoff_entries(openspiel, maps) == payoff_entries(ours)
    # any other pot is another game
    assert payoff_entries(openspiel, maps) != payoff_entries(kuhn3.compiled(4, 2))


def test_kuhn3_equilibrium_passes_openspiel_nash_conv():
    result = kuhn3.equilibrium(4, 3)
    [eq] = result.equilibria
    assert eq.certified
    openspiel = compile_tree(load_openspiel("kuhn_poker(players=3)").tree)
    strategies = {}
    for layout in openspiel.layouts:
        for name in layout.names:
            x = eq.strategies[str(KUHN3_NODES[name[1:]])][int(name[0])]
            strategies[name] = [1 - x, x]
    assert nash_conv("kuhn_poker(players=3)", strategies) < 1e-12


def test_three_player_kuhn_solved_through_the_dispatcher():
    result = solve("kuhn_poker(players=3)")
    [eq] = result.equilibria
    assert eq.certified and sum(eq.values) == 0
    assert nash_conv("kuhn_poker(players=3)", eq.strategies) < 1e-12


@pytest.mark.slow
def test_five_player_kuhn_solved_certified_and_checked_by_openspiel():
    """Issue 27: OpenSpiel's kuhn_poker(players=5) (6 cards, 720 deals), exact and certified; OpenSpiel's own
    NashConv of the answer is zero to rounding (an independent check of the certificate)."""
    result = solve("kuhn_poker(players=5)")
    [eq] = result.equilibria
    assert eq.certified and sum(eq.values) == 0 and len(eq.values) == 5
    assert nash_conv("kuhn_poker(players=5)", eq.strategies) < 1e-12


# -- Leduc Hold'em ---------------------------------------------------------------------------


def test_leduc_loads_and_compiles():
    compiled = compile_tree(load_openspiel("leduc_poker").tree)
    assert [layout.num_infosets for layout in compiled.layouts] == [468, 468]
    assert [layout.num_sequences for layout in compiled.layouts] == [1093, 1093]
    assert compiled.is_zero_sum and compiled.denominator == 120
    # actions in increasing action id (Fold 0, Call 1, Raise 2); Fold is not legal before a bet
    assert compiled.layouts[0].infoset_actions(0) == ("Call", "Raise")
    assert {compiled.layouts[1].infoset_actions(i) for i in range(468)} == {("Call", "Raise"),
                                                                           ("Fold", "Call", "Raise"), ("Fold", "Call")}


@pytest.mark.slow
def test_leduc_exact_value_and_nash_conv():
    result = solve("leduc_poker")
    [eq] = result.equilibria
    assert eq.certified
    assert float(result.value) == pytest.approx(-0.0856064240780, abs=1e-11)  # HiGHS's float value
    assert nash_conv("leduc_poker", eq.strategies) < 1e-12
    # the same game written in exactpoker's own language has the same exact value
    assert solve_game(compile_tree(leduc_tree())).value == result.value
