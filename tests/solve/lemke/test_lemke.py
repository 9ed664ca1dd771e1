"""Two-player general-sum games: Lemke's method on the sequence form (KMvS 1996), exact and certified."""

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.certify import verify
from exactpoker.cli import main
from exactpoker.core.poker import Betting, CardDeck, Deal, PokerGame, high_card
from exactpoker.core.tree import Chance, GameTree, Move, Terminal, compile_tree
from exactpoker.errors import InvalidParameterError
from exactpoker.solve.lemke import sparse as lemke_sparse
from exactpoker.solve import solve_game
from exactpoker.solve.lemke.lcp import lcp_of, lemke, solve_lemke
from tests.example_games import kuhn_tree, matrix_tree

F = Fraction


def strategies(result):
    return result.equilibria[0].profile.strategies


def test_battle_of_the_sexes_gives_an_equilibrium_with_the_right_values():
    game = compile_tree(matrix_tree([[(2, 1), (0, 0)], [(0, 0), (1, 2)]]))
    result = solve_game(game)
    assert result.method == "sequence-form Lemke (exact)"
    [eq] = result.equilibria
    assert eq.certified and eq.values in ((2, 1), (1, 2), (F(2, 3), F(2, 3)))


def test_a_unique_mixed_equilibrium_is_found_exactly():
    # no pure equilibrium; indifference: the row's p makes -p + (1 - p) = 2p, the column's q makes 3q = 1 - q
    game = compile_tree(matrix_tree([[(3, -1), (0, 2)], [(0, 1), (1, 0)]]))
    [[rows], [cols]] = strategies(solve_game(game))
    assert rows == (F(1, 4), F(3, 4)) and cols == (F(1, 4), F(3, 4))


def test_a_degenerate_game_terminates():
    # every cell ties for the column player: highly degenerate
    game = compile_tree(matrix_tree([[(1, 0), (1, 0), (0, 0)], [(0, 0), (1, 0), (1, 0)], [(1, 0), (0, 0), (1, 0)]]))
    assert solve_game(game, method="lemke").equilibria[0].certified


def test_kuhn_by_lemke_has_the_lp_value():
    """Independent methods agree: on a zero-sum game, Lemke's equilibrium has the LP's value."""
    game = compile_tree(kuhn_tree())
    assert solve_game(game, method="lemke").value == solve_game(game).value == F(-1, 18)


def raked(n, rake=F(1, 10)):
    return PokerGame("ladder-rake", 2, CardDeck.numbered(n), [Deal(hole=1), Betting(sizes=(1, 2), max_bets=2)],
                     ante=1, ranking=high_card, rake=rake)


@pytest.mark.parametrize("n", [3, 5])
def test_poker_with_a_rake_is_general_sum_and_solved(n):
    game = compile_tree(raked(n).tree())
    assert not game.is_zero_sum
    result = solve_game(game)
    [eq] = result.equilibria
    assert eq.certified and result.method == "sequence-form Lemke (exact)"
    assert sum(eq.values) < 0  # the house takes its share


def test_the_exact_path_and_the_float_guided_basis_agree_on_the_lcp(monkeypatch):
    """The exact integer path alone (the float guide switched off) also ends at an exact LCP solution."""
    game = compile_tree(raked(3).tree())
    monkeypatch.setattr(lemke_sparse, "_float_path", lambda *args, **kwargs: (None, []))
    result = solve_game(game)
    assert result.equilibria[0].certified


def test_the_lcp_solution_is_complementary():
    M, q = lcp_of(compile_tree(matrix_tree([[(3, -1), (0, 2)], [(0, 1), (1, 0)]])))
    z = lemke(M, q)
    w = [q[i] + sum(M[i, j] * z[j] for j in range(len(z))) for i in range(len(z))]
    assert all(v >= 0 for v in z) and all(v >= 0 for v in w)
    assert sum(a * b for a, b in zip(z, w)) == 0


def test_constant_sum_goes_to_the_lp_and_keeps_its_values():
    # matching pennies where the two payoffs add up to 1 at every leaf
    game = compile_tree(matrix_tree([[(1, 0), (0, 1)], [(0, 1), (1, 0)]]))
    result = solve_game(game)
    assert "constant-sum (1) solved as zero-sum" in result.method
    assert result.equilibria[0].values == (F(1, 2), F(1, 2)) and result.equilibria[0].certified


def test_basis_method_can_be_asked_for():
    game = compile_tree(kuhn_tree())
    result = solve_game(game, method="basis")
    assert result.value == F(-1, 18) and "basis" in result.method


def test_three_players_are_refused():
    game = compile_tree(GameTree("three", ("a", "b", "c"), Move(0, "x", (("l", Terminal((1, 0, 0))),
                                                                          ("r", Terminal((0, 1, 0)))))))
    with pytest.raises(InvalidParameterError, match="two-player"):
        solve_lemke(game)


payoff = st.integers(-4, 4)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.data())
def test_random_bimatrix_games_are_solved_and_certified(rows, cols, data):
    matrix = [[(data.draw(payoff), data.draw(payoff)) for _ in range(cols)] for _ in range(rows)]
    game = compile_tree(matrix_tree(matrix))
    assert verify(game, solve_lemke(game)).holds


def random_tree(data, path="", depth=0):
    kind = data.draw(st.sampled_from(["leaf", "move", "chance"] if depth < 3 else ["leaf"]))
    if kind == "leaf":
        return Terminal((data.draw(payoff), data.draw(payoff)))
    if kind == "chance":
        return Chance(tuple((o, p, random_tree(data, path + o, depth + 1)) for o, p in (("h", F(1, 3)), ("t", F(2, 3)))))
    player = data.draw(st.integers(0, 1))
    # each node its own information set, keyed by its path: perfect recall by construction
    return Move(player, f"{player}:{path}", tuple((a, random_tree(data, path + a, depth + 1)) for a in ("a", "b")))


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_random_extensive_games_are_solved_and_certified(data):
    root = Move(0, "root", (("l", random_tree(data, "l")), ("r", random_tree(data, "r"))))
    game = compile_tree(GameTree("random", ("P1", "P2"), root))
    assert verify(game, solve_lemke(game)).holds


@pytest.mark.gambit
def test_the_values_agree_with_gambits_lcp_on_a_game_with_one_equilibrium():
    pygambit = pytest.importorskip("pygambit")
    matrix = [[(3, -1), (0, 2)], [(0, 1), (1, 0)]]
    g = pygambit.Game.from_arrays([[c[0] for c in row] for row in matrix], [[c[1] for c in row] for row in matrix])
    [theirs] = pygambit.nash.lcp_solve(g, rational=True).equilibria
    ours = solve_game(compile_tree(matrix_tree(matrix))).equilibria[0]
    assert [F(str(theirs.payoff(p))) for p in g.players] == list(ours.values)


def test_cli_solves_a_general_sum_library_game(capsys):
    assert main(["solve", "library:kuhn", "--method", "lemke", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["equilibria"][0]["values"] == ["-1/18", "1/18"]
    assert "Lemke" in data["method"]
