"""The exact finish from a float basis (solve/lp/basis.py) and the games it opens: Leduc Hold'em."""

import dataclasses
from fractions import Fraction

import pytest
from flint import fmpq, fmpq_mat
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.core.tree import Chance, GameTree, Move, Terminal, compile_tree
from exactpoker.errors import DegenerateSystemError, InvalidParameterError
from exactpoker.games import von_neumann
from exactpoker.solve.lp.basis import solve_from_basis
from exactpoker.solve import solve_game
from exactpoker.solve.lp.float_guide import optimal_basis
from exactpoker.solve.lp.sequence_form import standard_lp
from exactpoker.solve.lp.simplex import solve_lp
from exactpoker.solve.lp import sparse_exact
from exactpoker.solve.lp.sparse_exact import BlockTriangular
from exactpoker.solve.lp.zerosum import solve_zero_sum
from tests.example_games import kuhn_tree, leduc_tree
from tests.strategies import small_lps, standard_lp_of

LEDUC_FLOAT_VALUE = -0.0856064240780  # HiGHS, and OpenSpiel's CFR about -0.0856


# -- Leduc Hold'em ---------------------------------------------------------------------


def test_leduc_sizes_match_openspiel():
    compiled = compile_tree(leduc_tree())
    assert [layout.num_infosets for layout in compiled.layouts] == [468, 468]
    assert [layout.num_sequences for layout in compiled.layouts] == [1093, 1093]
    assert compiled.is_zero_sum


def test_leduc_without_suits_has_rank_information_sets():
    compiled = compile_tree(leduc_tree(suits=False))
    assert [layout.num_infosets for layout in compiled.layouts] == [144, 144]
    assert [layout.num_sequences for layout in compiled.layouts] == [337, 337]


@pytest.mark.openspiel
def test_leduc_information_sets_count_like_openspiel():
    pyspiel = pytest.importorskip("pyspiel")
    seen: list[set[str]] = [set(), set()]
    stack = [pyspiel.load_game("leduc_poker").new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend(state.child(a) for a, _ in state.chance_outcomes())
            continue
        player = state.current_player()
        seen[player].add(state.information_state_string(player))
        stack.extend(state.child(a) for a in state.legal_actions())
    assert [len(s) for s in seen] == [layout.num_infosets for layout in compile_tree(leduc_tree()).layouts]


def test_leduc_by_ranks_is_solved_exactly_and_certified():
    profile, certificate, used = solve_zero_sum(compile_tree(leduc_tree(suits=False)), method="basis")
    value = certificate.payoffs[0]
    assert used == "basis" and certificate.holds
    assert isinstance(value, Fraction) and abs(float(value) - LEDUC_FLOAT_VALUE) < 1e-9


@pytest.mark.slow
def test_leduc_is_solved_exactly_and_certified():
    compiled = compile_tree(leduc_tree())
    result = solve_game(compiled)
    equilibrium = result.equilibria[0]
    assert equilibrium.certificate.holds
    value = equilibrium.certificate.payoffs[0]
    assert isinstance(value, Fraction) and abs(float(value) - LEDUC_FLOAT_VALUE) < 1e-9
    # the suits only relabel cards: the same exact value as the game of ranks
    assert value == solve_zero_sum(compile_tree(leduc_tree(suits=False)), method="basis")[1].payoffs[0]


# -- the basis path against the others ---------------------------------------------------


@pytest.mark.parametrize("method", ["support", "basis", "simplex"])
def test_kuhn_value_by_every_method(method):
    _, certificate, _ = solve_zero_sum(compile_tree(kuhn_tree()), method=method)
    assert certificate.holds and certificate.payoffs[0] == Fraction(-1, 18)


@pytest.mark.parametrize("n, b", [(20, 2), (12, Fraction(3, 2))])
def test_von_neumann_basis_equals_support(n, b):
    compiled = von_neumann.compiled(n, b)
    _, by_basis, used = solve_zero_sum(compiled, method="basis")
    _, by_support, _ = solve_zero_sum(compiled, method="support")
    assert used == "basis" and by_basis.holds
    assert by_basis.payoffs == by_support.payoffs


def _random_game(data: st.DataObject) -> GameTree:
    """A random two-player zero-sum card game: private cards, public betting of random shape and payoffs.

    Information sets are (own card, public history), so perfect recall holds.
    """
    cards = data.draw(st.integers(2, 3), label="cards")
    depth = data.draw(st.integers(1, 3), label="depth")

    def node(deal: tuple[int, int], history: str):
        if len(history) == depth or (history and data.draw(st.booleans(), label="stop")):
            won = data.draw(st.integers(-3, 3), label="payoff")
            return Terminal((won, -won))
        player = len(history) % 2
        width = 2 + len(history) % 2  # the same actions wherever the history repeats
        actions = tuple((str(a), node(deal, history + str(a))) for a in range(width))
        return Move(player, f"{deal[player]}:{history}", actions)

    deals = [(a, b) for a in range(cards) for b in range(cards)]
    weights = [data.draw(st.integers(1, 3), label="weight") for _ in deals]
    total = sum(weights)
    return GameTree(
        "random",
        ("P1", "P2"),
        Chance(tuple((str(d), Fraction(w, total), node(d, "")) for d, w in zip(deals, weights))),
    )


@settings(deadline=None, max_examples=25)
@given(data=st.data())
def test_random_games_basis_equals_simplex(data):
    try:
        compiled = compile_tree(_random_game(data))
    except ValueError:  # a history ended at one deal and went on at another: the actions differ
        return
    _, by_basis, _ = solve_zero_sum(compiled, method="basis")
    _, by_simplex, _ = solve_zero_sum(compiled, method="simplex")
    assert by_basis.holds and by_simplex.holds
    assert by_basis.payoffs == by_simplex.payoffs


# -- the exact pivots ------------------------------------------------------------------



def test_pivots_from_the_slack_basis_reach_the_optimum():
    lp = standard_lp_of([[1, 0], [0, 1], [2, 2]], [1, 1, 3], [1, 1])
    solution = solve_from_basis(lp, [], [0, 1, 2])
    assert solution.objective == Fraction(3, 2)
    assert solution.pivots >= 2
    assert solution.duals == [0, 0, Fraction(1, 2)]


def test_a_free_variable_can_enter_downwards():
    # max -y s.t. -y <= 2 (y free): y = -2
    lp = standard_lp_of([[-1]], [2], [-1], free=1)
    solution = solve_from_basis(lp, [], [0])
    assert solution.primal == [-2] and solution.objective == 2


@settings(deadline=None, max_examples=40)
@given(
    small_lps,
    st.lists(st.integers(0, 6), min_size=5, max_size=5),
)
def test_pivots_agree_with_the_exact_simplex(problem, bounds):
    rows, cost = problem
    n = len(cost)
    rows = rows + [[1] * n]  # keeps the region bounded
    rhs = bounds[: len(rows) - 1] + [bounds[-1] + 1]
    solution = solve_from_basis(standard_lp_of(rows, rhs, cost), [], list(range(len(rows))), max_pivots=100)
    reference = solve_lp(cost, rows, rhs, maximize=True, method="exact")
    assert solution.objective == reference.objective


@settings(deadline=None, max_examples=15)
@given(st.lists(st.integers(-3, 3), min_size=13, max_size=13))
def test_pivots_from_another_objectives_basis_reach_kuhns_value(tilt):
    # HiGHS's optimal basis for max q_0 + tilt . x is feasible for Kuhn's LP, rarely optimal
    compiled = compile_tree(kuhn_tree())
    lp = standard_lp(compiled)
    tilted = dataclasses.replace(lp, cost={**{j: t for j, t in enumerate(tilt) if t}, **lp.cost})
    solution = solve_from_basis(lp, *optimal_basis(tilted), max_pivots=200)
    assert solution.objective == Fraction(-1, 18) * compiled.denominator


def test_the_float_basis_of_kuhn_is_optimal_without_pivots():
    lp = standard_lp(compile_tree(kuhn_tree()))
    solution = solve_from_basis(lp, *optimal_basis(lp))
    assert solution.pivots == 0 and solution.objective == Fraction(-1, 18) * compile_tree(kuhn_tree()).denominator


# -- the block triangular solves ---------------------------------------------------------


@settings(deadline=None, max_examples=60)
@given(
    st.integers(1, 9).flatmap(
        lambda n: st.tuples(
            st.lists(st.lists(st.sampled_from([0, 0, 0, 1, -1, 2, 3]), min_size=n, max_size=n), min_size=n, max_size=n),
            st.lists(st.integers(-5, 5), min_size=n, max_size=n),
        )
    )
)
def test_block_triangular_solves_agree_with_dense_flint(problem):
    rows, rhs = problem
    n = len(rows)
    dense = fmpq_mat(n, n, [v for row in rows for v in row])
    columns = [{i: rows[i][j] for i in range(n)} for j in range(n)]
    for limit in (40, 0):  # blocks solved densely, then by the exact sparse LU
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(sparse_exact, "_DENSE_LIMIT", limit)
            if dense.rank() < n:
                with pytest.raises(DegenerateSystemError, match="singular"):
                    BlockTriangular(columns).solve(rhs)
                continue
            matrix = BlockTriangular(columns)
            x = dense.solve(fmpq_mat(n, 1, rhs))
            w = dense.transpose().solve(fmpq_mat(n, 1, rhs))
            assert matrix.solve(rhs) == [x[k, 0] for k in range(n)]
            assert matrix.solve_transpose(rhs) == [w[k, 0] for k in range(n)]


@settings(deadline=None, max_examples=40)
@given(st.integers(2, 12).flatmap(lambda n: st.tuples(
    st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(-3, 3)), max_size=3 * n),
    st.permutations(range(n)), st.lists(st.integers(-5, 5), min_size=n, max_size=n))))
def test_blocks_in_any_label_order_are_sorted_by_their_dependencies(problem):
    # a unit lower triangular matrix with extra entries, rows and columns permuted: nonsingular, many blocks
    extra, order, rhs = problem
    n = len(order)
    rows = [[int(i == j) for j in range(n)] for i in range(n)]
    for i, j, v in extra:
        if i != j:
            rows[max(i, j)][min(i, j)] = v
    rows = [[rows[order[i]][order[j]] for j in range(n)] for i in range(n)]
    dense = fmpq_mat(n, n, [v for row in rows for v in row])
    columns = [{i: rows[i][j] for i in range(n)} for j in range(n)]
    x = dense.solve(fmpq_mat(n, 1, rhs))
    real = sparse_exact.csgraph.connected_components
    for relabel in (lambda labels: labels, lambda labels: labels.max() - labels):  # SciPy's order, then reversed
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(sparse_exact, "_DENSE_LIMIT", 0)
            patch.setattr(sparse_exact.csgraph, "connected_components",
                          lambda *a, **k: (lambda c, lab: (c, relabel(lab)))(*real(*a, **k)))
            matrix = BlockTriangular(columns)
        assert len(matrix.blocks) == n  # triangular: every block one unknown
        assert matrix.solve(rhs) == [x[k, 0] for k in range(n)]


def test_block_triangular_finds_the_blocks(monkeypatch):
    monkeypatch.setattr(sparse_exact, "_DENSE_LIMIT", 0)  # look for blocks even in a small matrix
    # rows (5 2 1), (0 1 3), (1 0 0): x0 comes first from the last row, then the 2 x 2 block
    matrix = BlockTriangular([{2: 1, 0: 5}, {0: 2, 1: 1}, {0: 1, 1: 3}])
    assert [len(rows) for rows, _, _ in matrix.blocks] == [1, 2]
    assert matrix.solve([7, 4, 1]) == [1, fmpq(2, 5), fmpq(6, 5)]
    assert matrix.solve_transpose([1, 0, 0]) == [0, 0, 1]


# -- bad input -------------------------------------------------------------------------


def test_a_basis_of_the_wrong_size_is_refused():
    lp = standard_lp_of([[1, 0], [0, 1]], [1, 1], [1, 1])
    with pytest.raises(DegenerateSystemError, match="a basis needs 2 members"):
        solve_from_basis(lp, [0], [])


def test_a_singular_basis_is_refused():
    lp = standard_lp_of([[1, 1], [2, 2]], [1, 2], [1, 1])
    with pytest.raises(DegenerateSystemError, match="singular"):
        solve_from_basis(lp, [0, 1], [])


def test_an_infeasible_basis_is_refused():
    # x <= 2 tight gives x = 2, which breaks x <= 1
    with pytest.raises(DegenerateSystemError, match="not primal feasible"):
        solve_from_basis(standard_lp_of([[1], [1]], [2, 1], [1]), [0], [1])


def test_unknown_method_is_refused():
    with pytest.raises(InvalidParameterError, match="method must be"):
        solve_zero_sum(compile_tree(kuhn_tree()), method="guess")  # type: ignore[arg-type]


# -- OpenSpiel's own check ---------------------------------------------------------------


def _matched_information_sets(pyspiel, game, tree: GameTree) -> dict[str, tuple[int, str, tuple[int, ...]]]:
    """Walk OpenSpiel's tree and ours side by side: OpenSpiel's key -> (player, our key, legal action ids).

    Chance outcomes are matched by card id, actions in increasing action id
    (fold, call, raise); every terminal's returns must equal our payoffs.
    """
    matched: dict[str, tuple[int, str, tuple[int, ...]]] = {}
    stack = [(game.new_initial_state(), tree.root)]
    while stack:
        state, node = stack.pop()
        if state.is_terminal():
            assert isinstance(node, Terminal) and tuple(state.returns()) == tuple(float(v) for v in node.payoffs)
        elif state.is_chance_node():
            assert isinstance(node, Chance)
            ours = {name: child for name, _, child in node.outcomes}
            for card, probability in state.chance_outcomes():
                name = ("J1", "J2", "Q1", "Q2", "K1", "K2")[card]
                assert float(next(p for n, p, _ in node.outcomes if n == name)) == pytest.approx(probability)
                stack.append((state.child(card), ours[name]))
        else:
            assert isinstance(node, Move) and node.player == state.current_player()
            legal = tuple(state.legal_actions())
            assert [state.action_to_string(a)[0].lower() for a in legal] == list(node.action_names)
            key = state.information_state_string(node.player)
            assert matched.setdefault(key, (node.player, node.infoset, legal)) == (node.player, node.infoset, legal)
            stack.extend((state.child(a), child) for a, (_, child) in zip(legal, node.actions))
    return matched


@pytest.mark.openspiel
@pytest.mark.slow
def test_openspiel_nash_conv_of_the_exact_leduc_equilibrium():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python import policy as os_policy
    from open_spiel.python.algorithms import exploitability

    game, tree = pyspiel.load_game("leduc_poker"), leduc_tree()
    matched = _matched_information_sets(pyspiel, game, tree)
    compiled = compile_tree(tree)
    assert len({ours for _, ours, _ in matched.values()}) == len(matched) == 2 * 468
    profile, certificate, _ = solve_zero_sum(compiled)
    tabular = os_policy.TabularPolicy(game)
    for key, (player, ours, legal) in matched.items():
        behaviour = profile.strategies[player][compiled.layouts[player].index[ours]]
        row = tabular.policy_for_key(key)
        row[:] = 0.0
        for action, probability in zip(legal, behaviour):
            row[action] = float(probability)
    assert exploitability.nash_conv(game, tabular) < 1e-12
    assert certificate.holds
