"""Sparse exact Lemke (revised path, float first, exact finish): agreement with the dense exact path, certificates."""

import json
import random
from fractions import Fraction

import pytest
from flint import fmpq_mat
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.certify import verify
from exactpoker.cli import main
from exactpoker.core.profile import BehaviourProfile
from exactpoker.core.tree import GameTree, Move, compile_tree
from exactpoker.errors import InvalidParameterError
from exactpoker.games.library import game as library_game
from exactpoker.solve.lemke import sparse as lemke_sparse
from exactpoker.solve import solve_game
from exactpoker.solve.lemke.lcp import MAX_PIVOTS, lcp_of, lemke, lemke_run, sparse_lcp_of
from exactpoker.solve.lemke.bases import ExactBasis, FloatBasis
from exactpoker.solve.lemke.sparse import exact_path, sparse_lemke
from tests.example_games import matrix_tree
from tests.solve.lemke.test_lemke import random_tree

F = Fraction
payoff = st.integers(-4, 4)


def random_game(data):
    if data.draw(st.booleans()):
        rows, cols = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 4))
        return compile_tree(matrix_tree([[(data.draw(payoff), data.draw(payoff)) for _ in range(cols)]
                                         for _ in range(rows)]))
    root = Move(0, "root", (("l", random_tree(data, "l")), ("r", random_tree(data, "r"))))
    return compile_tree(GameTree("random", ("P1", "P2"), root))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_sparse_exact_path_is_the_dense_exact_path(data):
    """Same start, same lexicographic rule: the revised exact path ends where the integer tableau does."""
    game = random_game(data)
    M, q = lcp_of(game)
    z, _ = exact_path(sparse_lcp_of(game), MAX_PIVOTS)
    assert z == lemke(M, q)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_float_first_answer_solves_the_lcp_and_is_certified(data):
    game = random_game(data)
    lcp = sparse_lcp_of(game)
    z, run = sparse_lemke(lcp, MAX_PIVOTS)
    assert lcp.is_solution(z) and run.finish
    profile, _ = lemke_run(game)
    assert verify(game, profile).holds


def raked_ladder(n, sizes="1;2;4", rake="1/10"):
    return compile_tree(library_game("ladder", n=n, sizes=sizes, rake=rake))


def test_a_rejected_float_basis_resumes_exactly_from_a_checkpoint(monkeypatch):
    """The float path's last basis refused: the exact path goes on from a checkpoint of the float path."""
    monkeypatch.setattr(lemke_sparse, "CHECKPOINT_EVERY", 5)
    monkeypatch.setattr(lemke_sparse, "_exact_at", lambda lcp, basic: None)
    lcp = sparse_lcp_of(raked_ladder(4))
    z, run = sparse_lemke(lcp, MAX_PIVOTS)
    assert run.finish.startswith("exact path from float pivot") and run.exact_pivots > 0
    assert lcp.is_solution(z)
    assert z == exact_path(lcp, MAX_PIVOTS)[0]  # the same path, so the same end


def test_without_the_float_path_the_exact_path_starts_from_the_beginning(monkeypatch):
    monkeypatch.setattr(lemke_sparse, "_float_path", lambda *args: (None, []))
    game = raked_ladder(3)
    profile, run = lemke_run(game)
    assert run.finish == "exact path from the start" and run.float_pivots == 0
    assert verify(game, profile).holds


def test_a_float_path_that_ends_on_a_ray_is_not_trusted(monkeypatch):
    monkeypatch.setattr(FloatBasis, "choose_row", lambda self, x, d: None)
    lcp = sparse_lcp_of(raked_ladder(3))
    z, run = sparse_lemke(lcp, MAX_PIVOTS)
    assert lcp.is_solution(z) and "float path ended: ray" in run.notes and run.finish == "exact path from the start"


@pytest.mark.parametrize("every", [1, 3, 1000])
def test_the_exact_eta_file_and_the_refactored_basis_agree(every):
    """After pivots, FTRAN and BTRAN equal solves with the exact inverse of the basis matrix."""
    lcp = sparse_lcp_of(raked_ladder(3))
    n = lcp.n
    basis = ExactBasis(lcp, list(range(n)), refactor_every=every)
    x = basis.values()
    rng = random.Random(3)
    for var in rng.sample(range(n, 2 * n + 1), 12):
        d = basis.ftran(lcp.column(var))
        rows = [i for i in d if basis.basic[i] < n]  # replace a slack, keeping the basis nonsingular
        if rows:
            x = basis.replace(rows[0], d, var, x)
    dense = fmpq_mat(n, n)
    for k, var in enumerate(basis.basic):
        for i, v in lcp.column(var).items():
            dense[i, k] = v
    inverse = dense.inv()
    solution = inverse * fmpq_mat(n, 1, lcp.q)
    assert basis.values() == [solution[i, 0] for i in range(n)]
    assert basis.btran(5) == [inverse[5, j] for j in range(n)]
    assert x == basis.values()


def test_a_float_basis_gives_rows_of_the_inverse():
    lcp = sparse_lcp_of(raked_ladder(3))
    basis = FloatBasis(lcp, list(range(lcp.n)))
    rows = basis.btran([0, 4])
    assert rows.shape == (2, lcp.n) and rows[0, 0] == 1 and rows[1, 4] == 1


@pytest.mark.parametrize("n", [3, 6])
def test_a_raked_ladder_loses_the_rake_and_is_certified(n):
    result = solve_game(raked_ladder(n))
    [eq] = result.equilibria
    assert eq.certified and result.method == "sequence-form Lemke (exact)" and sum(eq.values) < 0


def test_library_rake_parameters_are_checked():
    assert not compile_tree(library_game("leduc", ranks=2, rake="1/20")).is_zero_sum
    assert compile_tree(library_game("ladder", n=3)).is_zero_sum  # no rake by default
    for name in ("leduc", "ladder"):
        with pytest.raises(InvalidParameterError, match=r"rake must be a fraction of the pot in \[0, 1\)"):
            library_game(name, rake="1")


def test_cli_solves_a_raked_library_game(capsys):
    assert main(["solve", "library:ladder(n=4,rake=1/10)", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "Lemke" in data["method"] and data["equilibria"][0]["certified"]
    assert sum(F(v) for v in data["equilibria"][0]["values"]) < 0
    assert main(["solve", "library:leduc(rake=-1/10)"]) == 2
    assert "rake" in capsys.readouterr().err


@pytest.mark.slow
def test_the_844_row_raked_ladder_of_issue_30():
    """cards 1..30, bets 1, 2 or 4, rake 1/10: 844 LCP rows, which the dense path refused."""
    game = raked_ladder(30)
    assert sum(layout.num_sequences + layout.num_infosets + 1 for layout in game.layouts) == 844
    result = solve_game(game)
    [eq] = result.equilibria
    assert eq.certified and "Lemke" in result.method and sum(eq.values) < 0


@pytest.mark.slow
def test_raked_leduc_is_solved_exactly():
    """Leduc (3 ranks, the suits abstracted away), the house taking 1/20 of the pot: 964 LCP rows."""
    game = compile_tree(library_game("leduc", suits="false", rake="1/20"))
    assert sum(layout.num_sequences + layout.num_infosets + 1 for layout in game.layouts) == 964
    result = solve_game(game)
    [eq] = result.equilibria
    assert eq.certified and "Lemke" in result.method and sum(eq.values) < 0


def _gambit_bimatrix(rng, rows, cols):
    return [[(rng.randint(-50, 50), rng.randint(-50, 50)) for _ in range(cols)] for _ in range(rows)]


def _plans_of_mixed(gbt_profile, game):
    """A pygambit mixed profile of a bimatrix game as our realization plans (the empty sequence first)."""
    return [[F(1)] + [F(str(gbt_profile[s])) for s in player.strategies] for player in game.players]


@pytest.mark.gambit
@pytest.mark.parametrize("seed,size", [(1, 4), (2, 5), (3, 6)])
def test_our_equilibrium_is_one_of_gambits_enumerated_equilibria(seed, size):
    """Generic payoffs: equilibria are isolated, so ours is one of the extreme equilibria pygambit enumerates."""
    gbt = pytest.importorskip("pygambit")
    matrix = _gambit_bimatrix(random.Random(seed), size, size)
    game = gbt.Game.from_arrays([[c[0] for c in r] for r in matrix], [[c[1] for c in r] for r in matrix])
    theirs = [_plans_of_mixed(eq, game) for eq in gbt.nash.enummixed_solve(game, rational=True).equilibria]
    ours = compile_tree(matrix_tree(matrix))
    [[rows], [cols]] = lemke_run(ours)[0].strategies
    assert [[F(1), *rows], [F(1), *cols]] in theirs


@pytest.mark.gambit
@pytest.mark.parametrize("seed,size", [(4, 12), (5, 20), (6, 30)])
def test_larger_random_bimatrix_games_agree_with_gambits_lcp(seed, size):
    """Each side's equilibrium passes the other's exact check: ours gambit's regret, gambit's our certificate."""
    gbt = pytest.importorskip("pygambit")
    matrix = _gambit_bimatrix(random.Random(seed), size, size + 3)
    game = gbt.Game.from_arrays([[c[0] for c in r] for r in matrix], [[c[1] for c in r] for r in matrix])
    ours = compile_tree(matrix_tree(matrix))
    profile, _ = lemke_run(ours)
    mine = game.mixed_strategy_profile(
        data=[[gbt.Rational(p.numerator, p.denominator) for p in table[0]] for table in profile.strategies],
        rational=True)
    assert mine.max_regret() == 0
    [theirs] = gbt.nash.lcp_solve(game, rational=True, stop_after=1).equilibria
    assert verify(ours, BehaviourProfile.from_plans(ours, _plans_of_mixed(theirs, game))).holds

