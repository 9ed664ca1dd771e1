"""One engine for three players: a game decided by the order of the cards is detected from its rules (issue 27).

``exactpoker solve 'library:three(n=N,b=B)'`` and ``exactpoker three mixed --n N --b B`` (seed 000,
section 4) reach the same call, :func:`exactpoker.solve.solve_game`, which takes the O(n)
ordered-games path; the named command adds the paper's tables only.
"""

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.certify import verify
from exactpoker.cli import main
from exactpoker.core import BettingGame, Decision, Deck, Outcome, compile_game
from exactpoker.games.papers import three_player
from exactpoker.solve.structure.ordered_games import ORDERS, OrderedGame, ordered_game
from exactpoker.solve.nplayer.ordered_solve import ORDERED_METHOD, OrderedGuide, solve_ordered, symmetric_ties
from exactpoker.solve import solve_game
from exactpoker.solve.engine.structured import has_structure

F = Fraction


def _json(capsys, argv):
    assert main(argv + ["--json"]) in (0, None)
    return json.loads(capsys.readouterr().out)


def _same_equilibria(named, general):
    """The named command's tables are the aggressive action of each information set of ``solve``'s."""
    assert general["method"] == named["method"] == ORDERED_METHOD
    assert len(general["equilibria"]) == len(named["equilibria"])
    for mine, theirs in zip(general["equilibria"], named["equilibria"]):
        assert mine["values"] == theirs["values"] and mine["certificate"] == theirs["certificate"]
        assert mine["certified"] and mine["certificate"]["holds"]
        for player, table in theirs["strategies"].items():
            rows = list(mine["strategies"][player].values())
            assert all(float(F(a)) + float(F(b)) == 1 for a, b in rows)
            assert [b for _, b in rows] == table
    assert general["details"]["supports_tried"] == named["details"]["supports_tried"]
    assert general["details"]["family_dimension"] == named["details"]["family_dimension"]


@pytest.mark.parametrize("n, b", [(5, "2"), (20, "2"), (65, "2")])
def test_library_game_and_named_command_give_the_same_equilibria(capsys, n, b):
    named = _json(capsys, ["three", "mixed", "--n", str(n), "--b", b])
    general = _json(capsys, ["solve", f"library:three(n={n},b={b})"])
    _same_equilibria(named, general)
    assert any("order of the cards" in note for note in general["notes"])


@pytest.mark.slow
@pytest.mark.parametrize("n, b", [(13, "20"), (200, "2"), (500, "2")])
def test_library_game_and_named_command_agree_on_the_benchmark_decks(capsys, n, b):
    """The sizes of the issue (200 and 500 cards, seconds each), and a 12-dimensional family's corners."""
    _same_equilibria(_json(capsys, ["three", "mixed", "--n", str(n), "--b", b]),
                     _json(capsys, ["solve", f"library:three(n={n},b={b})"]))


def test_the_rules_say_the_game_is_ordered_and_options_take_the_compiled_game():
    rules = three_player.game(6, 2)
    assert has_structure(rules)
    assert solve_game(rules).method == ORDERED_METHOD
    assert solve_game(rules, method="n-player").method != ORDERED_METHOD


def test_the_guide_is_no_part_of_the_game():
    with_guide = three_player.game(20, 2)
    without = BettingGame(with_guide.name, with_guide.deck, with_guide.root, with_guide.player_names,
                          with_guide.parameters)
    assert with_guide == without and hash(with_guide) == hash(without)
    assert isinstance(with_guide.guide(), OrderedGuide) and without.guide is None


def _uneven(n: int, bet: Fraction, bet_iii: Fraction) -> BettingGame:
    """Three-player poker in which III's call costs ``bet_iii``: still decided by the order of the cards."""
    def showdown(calls_ii: bool, calls_iii: bool) -> Outcome:
        contributions = (1 + bet, 1 + bet if calls_ii else 1, 1 + bet_iii if calls_iii else 1)
        return Outcome(contributions, (0,) + ((1,) if calls_ii else ()) + ((2,) if calls_iii else ()))

    def third(calls_ii: bool) -> Decision:
        return Decision(2, "facing", (("fold", showdown(calls_ii, False)), ("call", showdown(calls_ii, True))))

    second = Decision(1, "facing", (("fold", third(False)), ("call", third(True))))
    root = Decision(0, "open", (("check", Outcome((1, 1, 1), (0, 1, 2))), ("bet", second)))
    return BettingGame("uneven", Deck(n), root, ("I", "II", "III"), (("n", n),))


def test_interchangeable_players_are_detected():
    assert symmetric_ties(ordered_game(three_player.game(7, F(3, 2)))) == {(2, h): (1, h) for h in range(7)}
    assert symmetric_ties(ordered_game(_uneven(7, F(2), F(3)))) == {}


@settings(max_examples=6, deadline=None)
@given(n=st.integers(3, 6), bet=st.sampled_from([F(1, 2), F(1), F(2)]), bet_iii=st.sampled_from([F(1), F(3, 2), F(3)]))
def test_a_users_ordered_game_is_solved_and_verify_agrees(n, bet, bet_iii):
    """Any game of the kind, symmetric or not: every corner passes certify.verify on the compiled game."""
    rules = _uneven(n, bet, bet_iii)
    result = solve_game(rules)
    assert result.method == ORDERED_METHOD and result.equilibria
    compiled = compile_game(rules)
    for eq in result.equilibria:
        check = verify(compiled, eq.profile)
        assert check.holds and list(check.payoffs) == list(eq.values)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=3 * 6 * 8, max_size=3 * 6 * 8), st.booleans())
def test_symmetry_is_exactly_the_swap_of_ii_and_iii(numbers, symmetrise):
    """Random payoff tables: tied iff swapping II and III (actions, ranks and payoffs) changes nothing."""
    values = iter(numbers)
    actions = [(a0, a1, a2) for a0 in (0, 1) for a1 in (0, 1) for a2 in (0, 1)]
    payoffs = {a: {r: tuple(F(next(values)) for _ in range(3)) for r in ORDERS} for a in actions}
    if symmetrise:
        for (a0, a1, a2) in actions:
            for r in ORDERS:
                mine = payoffs[(a0, a1, a2)][r]
                payoffs[(a0, a2, a1)][(r[0], r[2], r[1])] = (mine[0], mine[2], mine[1])
    game = OrderedGame(4, payoffs, ("o", "f", "f"), ("I", "II", "III"))
    swapped = all(payoffs[(a0, a2, a1)][(r[0], r[2], r[1])] == (v[0], v[2], v[1])
                  for (a0, a1, a2), table in payoffs.items() for r, v in table.items())
    assert bool(symmetric_ties(game)) == swapped
    if symmetrise:
        assert swapped


def test_a_handed_in_guide_is_used():
    """The rules' guide decides where the search starts: its supports are tried when none near it certifies."""
    rules = three_player.game(20, 2)
    result = solve_ordered(rules, ordered_game(rules))
    assert result.details["supports_tried"] == 35  # the continuous cut points' guide, as three mixed reports
    plain = BettingGame(rules.name, rules.deck, rules.root, rules.player_names, rules.parameters)
    other = solve_ordered(plain, ordered_game(plain))  # smoothed fictitious play finds the same equilibrium
    assert [eq.values for eq in other.equilibria] == [eq.values for eq in result.equilibria]
