"""Games of three or more players: the staged exact finish (solve.nplayer) and every pure equilibrium."""

import itertools
import json
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.certify import verify
from exactpoker.cli import main
from exactpoker.core.profile import BehaviourProfile
from exactpoker.core.tree import GameTree, Move, Terminal, compile_tree
from exactpoker.errors import CertificationError, InvalidParameterError
from exactpoker.games import library
from exactpoker.solve import solve_game
from exactpoker.solve.nplayer.pipeline import pure_equilibria_n, solve_n_player
from exactpoker.solve.enumeration.pure import pure_equilibria
from tests.example_games import matrix_tree


def simultaneous(payoffs, actions):
    """An N-player game in strategic form as a tree: players move in turn, none seeing the earlier moves."""
    players = len(actions)

    def node(player, chosen):
        if player == players:
            return Terminal(payoffs(chosen))
        return Move(player, f"p{player}", tuple((str(a), node(player + 1, chosen + (a,))) for a in range(actions[player])))

    return GameTree("strategic", tuple(f"P{p + 1}" for p in range(players)), node(0, ()))


def pennies(chosen):
    """Jordan's three-player matching pennies: 1 matches 2, 2 matches 3, 3 mismatches 1; the only equilibrium is 1/2."""
    a, b, c = chosen
    return (1 if a == b else -1, 1 if b == c else -1, 1 if c != a else -1)


def test_three_player_kuhn_from_the_library_is_solved_exactly_and_certified():
    result = solve_game(compile_tree(library.game("kuhn3")))
    [eq] = result.equilibria
    assert eq.certified and sum(eq.values) == 0
    assert result.method == "float guide + exact finish (rational)"
    assert all(isinstance(p, Fraction) for row in eq.profile.strategies[0] for p in row)


def test_kuhn3_at_another_deck_and_pot():
    result = solve_game(compile_tree(library.game("kuhn3", cards=5, pot=Fraction(5, 2))))
    assert result.equilibria[0].certified


def test_jordans_pennies_unique_mixed_equilibrium():
    result = solve_game(compile_tree(simultaneous(pennies, (2, 2, 2))))
    [eq] = result.equilibria
    assert eq.certified
    assert eq.profile.strategies == tuple(((Fraction(1, 2), Fraction(1, 2)),) for _ in range(3))
    assert pure_equilibria_n(compile_tree(simultaneous(pennies, (2, 2, 2)))) == []


def test_more_than_two_actions_are_solved_through_the_binary_form():
    game = compile_tree(simultaneous(lambda c: (c[0], c[1], -c[0] - c[1]), (3, 2, 2)))
    found = solve_n_player(game)
    assert verify(game, found.profile).holds
    assert found.profile.strategies[0] == ((0, 0, 1),) and "binary" in " ".join(found.notes)


def test_a_failing_stage_is_named(monkeypatch):
    from exactpoker.solve.nplayer import finish as support_solve

    def no_finish(*args, **kwargs):
        raise CertificationError("nothing certifies")

    monkeypatch.setattr(support_solve, "solve_exact", no_finish)
    game = compile_tree(simultaneous(pennies, (2, 2, 2)))
    found = solve_n_player(game)  # the simpler methods take over (issue 41), and say why
    assert "after the float guide's route failed" in found.method and found.certificate.holds
    assert re.search("stage 3 .* failed .*3 players.*nothing certifies", found.notes[0])
    from exactpoker.solve.nplayer import fallback

    monkeypatch.setattr(fallback, "FALLBACK_SUPPORTS", 1)
    monkeypatch.setattr(fallback, "_pure", lambda compiled, tried, pure: tried.append("no pure equilibrium (stubbed)"))
    with pytest.raises(CertificationError, match="stage 3 .* failed .*3 players.*then no pure equilibrium .*; "
                                                 "support enumeration not run"):
        solve_n_player(game)


def brute_force(compiled):
    """Every pure profile checked by the exact certificate: the independent definition."""
    found = []
    ranges = [[range(len(layout.infoset_sequences(i))) for i in range(layout.num_infosets)]
              for layout in compiled.layouts]
    for profile_choices in itertools.product(*[list(itertools.product(*r)) for r in ranges]):
        strategies = tuple(
            tuple(tuple(Fraction(int(a == c)) for a in range(len(layout.infoset_sequences(i))))
                  for i, c in enumerate(choices))
            for layout, choices in zip(compiled.layouts, profile_choices))
        if verify(compiled, BehaviourProfile(strategies)).holds:
            found.append(tuple(tuple(c) for c in profile_choices))
    return sorted(found)


payoff = st.integers(-3, 3)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=3, max_size=3), st.data())
def test_pure_enumeration_equals_brute_force_on_random_three_player_games(actions, data):
    table = {cells: tuple(data.draw(payoff) for _ in range(3))
             for cells in itertools.product(*[range(a) for a in actions])}
    compiled = compile_tree(simultaneous(lambda c: table[c], tuple(actions)))
    fast = pure_equilibria_n(compiled)
    assert sorted(p.choices for p in fast) == brute_force(compiled)
    for p in fast:
        assert p.payoffs == tuple(Fraction(v) for v in table[tuple(c[0] if c else 0 for c in p.choices)])


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.data())
def test_pure_enumeration_equals_the_two_player_method(rows, cols, data):
    """Two players: the N-player strategic-form enumeration agrees with solve.pure's independent one."""
    matrix = [[(data.draw(payoff), data.draw(payoff)) for _ in range(cols)] for _ in range(rows)]
    compiled = compile_tree(matrix_tree(matrix))
    assert [(p.choices, p.payoffs) for p in pure_equilibria_n(compiled)] == \
        [(p.choices, p.payoffs) for p in pure_equilibria(compiled)]


def test_all_pure_through_the_dispatcher_with_sequential_moves():
    """A three-player game where later players see earlier moves (not separable): pure equilibria exist."""
    def node(history):
        if len(history) == 3:
            ones = sum(history)
            return Terminal((ones - history[0] * 2, ones - history[1] * 2, 3 - ones - history[2]))
        return Move(len(history), "seen " + "".join(map(str, history)),
                    (("0", node(history + (0,))), ("1", node(history + (1,)))))

    compiled = compile_tree(GameTree("seq", ("A", "B", "C"), node(())))
    result = solve_game(compiled, all_pure=True)
    assert result.equilibria and all(eq.certified for eq in result.equilibria)
    assert sorted(p.choices for p in pure_equilibria_n(compiled)) == brute_force(compiled)


def test_all_pure_too_large_is_refused():
    with pytest.raises(InvalidParameterError, match="--all-pure: the strategic form has"):
        pure_equilibria_n(compile_tree(library.game("kuhn3")))
    # far too many strategies to count in floating point: still the size, in one line
    with pytest.raises(InvalidParameterError, match=r"about 10\^\d+ x"):
        pure_equilibria_n(compile_tree(library.game("leduc", players=3, suits=False)))


def test_cli_solve_library_kuhn3_json(capsys):
    assert main(["solve", "library:kuhn3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    [eq] = data["equilibria"]
    assert eq["certified"] and sum(Fraction(v) for v in eq["values"]) == 0
    assert set(eq["strategies"]) == {"1", "2", "3"}


def test_cli_all_pure_too_large_is_one_line(capsys):
    assert main(["solve", "library:kuhn3", "--all-pure"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--all-pure" in err
