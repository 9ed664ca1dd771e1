"""The zero-sum path at scale (issue 30 item 2): integer compiling, the array-built LP, HiGHS's algorithm order."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.core.tree import Chance, GameTree, Move, Terminal, compile_tree
from exactpoker.errors import DegenerateSystemError
from exactpoker.games.library import game
from exactpoker.solve.lp import float_guide, zerosum
from exactpoker.solve.lp.basis import solve_from_basis
from exactpoker.solve.lp.float_guide import lp_algorithms, optimal_basis
from exactpoker.solve.lp.sequence_form import StandardLP, realization_matrix, standard_lp
from exactpoker.solve.lp.zerosum import solve_zero_sum


def _reference_entries(tree: GameTree) -> dict[tuple[int, int], tuple[Fraction, Fraction]]:
    """Sequence-form entries by a plain recursion in Fractions, sequences numbered as the compiler does.

    An independent re-derivation: reach probability times payoff, summed per
    pair of last sequences, with the compiled game's own layouts naming the
    sequences (the layouts are checked separately by the tree tests).
    """
    compiled = compile_tree(tree)
    firsts = [{layout.infoset_name(i): layout.infoset_sequences(i).start for i in range(layout.num_infosets)}
              for layout in compiled.layouts]
    totals: dict[tuple[int, int], list[Fraction]] = {}

    def walk(node, prob: Fraction, last: tuple[int, int]) -> None:
        if isinstance(node, Terminal):
            entry = totals.setdefault(last, [Fraction(0), Fraction(0)])
            for p in range(2):
                entry[p] += prob * node.payoffs[p]
        elif isinstance(node, Chance):
            for _, q, child in node.outcomes:
                walk(child, prob * q, last)
        else:
            first = firsts[node.player][node.infoset]
            for a, (_, child) in enumerate(node.actions):
                moved = (first + a, last[1]) if node.player == 0 else (last[0], first + a)
                walk(child, prob, moved)

    walk(tree.root, Fraction(1), (0, 0))
    return {key: (v[0], v[1]) for key, v in totals.items() if any(v)}


def _compiled_entries(tree: GameTree) -> dict[tuple[int, int], tuple[Fraction, Fraction]]:
    compiled = compile_tree(tree)
    d = compiled.denominator
    return {(int(s), int(t)): (Fraction(int(a), d), Fraction(int(b), d))
            for (s, t), (a, b) in zip(compiled.sequences.tolist(), compiled.coefficients.tolist())}


def _random_tree(data: st.DataObject) -> GameTree:
    """Random two-player trees with nested chance nodes, zero and fractional probabilities and payoffs."""
    cards = data.draw(st.integers(1, 3), label="cards")
    fractions = st.fractions(min_value=-5, max_value=5, max_denominator=12)

    def chance(depth: int, history: str, deal: tuple[int, ...]):
        weights = [data.draw(st.integers(0, 4), label="weight") for _ in range(cards)]
        if not any(weights):
            weights[0] = 1
        total = sum(weights)
        return Chance(tuple((str(c), Fraction(w, total), move(depth, history, deal + (c,)))
                            for c, w in enumerate(weights)))

    def move(depth: int, history: str, deal: tuple[int, ...]):
        if depth == 0 or (history and data.draw(st.booleans(), label="stop")):
            won = data.draw(fractions, label="payoff")
            return Terminal((won, -won))
        if len(deal) < 2:
            return chance(depth, history, deal)
        player = len(history) % 2
        actions = tuple((a, move(depth - 1, history + a, deal)) for a in "xy")
        return Move(player, f"{deal[player]}:{history}", actions)

    return GameTree("random", ("P1", "P2"), chance(data.draw(st.integers(1, 3), label="depth"), "", ()))


@settings(deadline=None, max_examples=60)
@given(data=st.data())
def test_integer_compiling_equals_fraction_sums(data):
    tree = _random_tree(data)
    try:
        compiled = compile_tree(tree)
    except ValueError:  # the random information sets broke perfect recall
        return
    assert _compiled_entries(tree) == _reference_entries(tree)
    # the denominator is the least one: some numerator shares no factor with it
    d = compiled.denominator
    assert d == 1 or np.gcd.reduce([d, *map(int, compiled.coefficients.ravel().tolist())]) == 1


@settings(deadline=None, max_examples=40)
@given(data=st.data())
def test_realization_matrix_is_the_constraint_of_every_information_set(data):
    try:
        compiled = compile_tree(_random_tree(data))
    except ValueError:  # the random information sets broke perfect recall
        return
    for layout in [*compiled.layouts, *(compile_tree(game(name)).layouts[0] for name in ("kuhn", "leduc"))]:
        matrix = realization_matrix(layout).toarray()
        expected = np.zeros((1 + layout.num_infosets, layout.num_sequences), dtype=np.int64)
        expected[0, 0] = 1
        for i in range(layout.num_infosets):
            expected[1 + i, layout.parent_sequence(i)] -= 1
            expected[1 + i, list(layout.infoset_sequences(i))] += 1
        assert np.array_equal(matrix, expected)


def test_compiling_keeps_the_least_common_denominator_of_kuhn():
    compiled = compile_tree(game("kuhn"))
    assert compiled.denominator == 6


def _old_standard_lp(compiled) -> StandardLP:
    """The column-by-column construction the array version replaced (the cross-check)."""
    rows, cols, vals = compiled.payoff_matrix()
    first, second = compiled.layouts
    num_x, num_y = first.num_sequences, second.num_sequences
    columns: list[dict[int, int]] = [{} for _ in range(num_x + 1 + second.num_infosets)]
    for s, t, v in zip(rows.tolist(), cols.tolist(), vals.tolist()):
        if v:
            columns[s][t] = columns[s].get(t, 0) - int(v)
    for r, c, v in zip(*(lambda m: (m.row.tolist(), m.col.tolist(), m.data.tolist()))(realization_matrix(second).tocoo())):
        columns[num_x + r][c] = int(v)
    for r, c, v in zip(*(lambda m: (m.row.tolist(), m.col.tolist(), m.data.tolist()))(realization_matrix(first).tocoo())):
        columns[c][num_y + r] = int(v)
    num_rows = num_y + 1 + first.num_infosets
    return StandardLP(tuple(columns), tuple(1 if i == num_y else 0 for i in range(num_rows)), {num_x: 1}, num_y, num_x)


@pytest.mark.parametrize("name, params", [("kuhn", {}), ("leduc", {"ranks": 2}), ("ladder", {"n": 6, "sizes": "1/2;2"}),
                                          ("two_round", {"ranks": 3, "bet1": Fraction(1, 2), "bet2": 1})])
def test_standard_lp_from_arrays_equals_the_column_construction(name, params):
    compiled = compile_tree(game(name, **params))
    new, old = standard_lp(compiled), _old_standard_lp(compiled)
    assert [list(c.items()) for c in new.columns] == [list(c.items()) for c in old.columns]  # order too: HiGHS sees it
    assert (new.rhs, new.cost, new.num_ineq, new.num_nonneg) == (old.rhs, old.cost, old.num_ineq, old.num_nonneg)
    for kept, rebuilt in zip(new.csc(), StandardLP(old.columns, old.rhs, old.cost, old.num_ineq, old.num_nonneg).csc()):
        assert kept.tolist() == rebuilt.tolist()


def _lp_of(rows: int, per_row: int) -> StandardLP:
    columns = tuple({i: 1 for i in range(r, r + per_row)} for r in range(rows))
    return StandardLP(columns, (0,) * (rows + per_row), {}, rows, rows)


def test_large_dense_lps_go_to_the_interior_point_method_first():
    assert lp_algorithms(_lp_of(float_guide.IPM_FROM_ROWS, 12)) == ("interior point", "dual simplex")
    assert lp_algorithms(_lp_of(float_guide.IPM_FROM_ROWS, 6)) == ("dual simplex", "interior point")
    assert lp_algorithms(_lp_of(100, 30)) == ("dual simplex", "interior point")
    # rows denser still (a ladder's payoff blocks, every card against every card): the dual simplex first again
    assert lp_algorithms(_lp_of(float_guide.IPM_FROM_ROWS, 150)) == ("dual simplex", "interior point")
    # very large LPs (Liar's Dice with two dice against one): the dual simplex first again
    assert lp_algorithms(_lp_of(float_guide.IPM_UP_TO_ROWS - 12, 12)) == ("interior point", "dual simplex")
    assert lp_algorithms(_lp_of(float_guide.IPM_UP_TO_ROWS + 1, 12)) == ("dual simplex", "interior point")


def test_both_algorithms_reach_the_same_exact_value_on_leduc():
    lp = standard_lp(compile_tree(game("leduc", ranks=2)))
    values = {solve_from_basis(lp, *optimal_basis(lp, algorithm)).objective for algorithm in lp_algorithms(lp)}
    assert len(values) == 1


def test_the_second_algorithm_is_tried_when_the_first_basis_fails(monkeypatch):
    compiled = compile_tree(game("kuhn"))
    tried = []

    def failing_first(lp, algorithm="dual simplex", refinement=None):
        tried.append(algorithm)
        if len(tried) == 1:
            raise DegenerateSystemError("made to fail")
        return float_guide.float_optimum(lp, algorithm, refinement)

    monkeypatch.setattr(zerosum, "float_optimum", failing_first)
    _, certificate, used = solve_zero_sum(compiled, method="basis")
    assert used == "basis" and certificate.holds
    assert tried == list(lp_algorithms(standard_lp(compiled)))
    assert certificate.payoffs[0] == Fraction(-1, 18)  # Kuhn's value


def _counting_verify(monkeypatch) -> list[int]:
    """Count the exact checks the zero-sum solver and the dispatcher make (the certificate's only entry points)."""
    from exactpoker import certify
    from exactpoker.solve.engine import dispatch

    calls = []

    def counted(compiled, profile):
        calls.append(sum(layout.num_sequences for layout in compiled.layouts))
        return certify.verify(compiled, profile)

    monkeypatch.setattr(zerosum, "verify", counted)
    monkeypatch.setattr(dispatch, "verify", counted)
    return calls


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_the_solver_certificate_is_the_one_returned_no_second_check(monkeypatch, name):
    from exactpoker import certify
    from exactpoker.solve import solve_game

    calls = _counting_verify(monkeypatch)
    compiled = compile_tree(game(name))
    result = solve_game(compiled, abstraction=False)
    assert len(calls) == 1  # the solver's check; dispatch keeps it
    equilibrium = result.equilibria[0]
    assert equilibrium.certificate.holds
    assert equilibrium.certificate == certify.verify(compiled, equilibrium.profile)  # an independent re-check


def test_a_lifted_or_shifted_profile_is_certified_on_the_game_asked():
    from exactpoker.solve import solve_game
    from exactpoker.core.tree import map_terminals

    compiled = compile_tree(game("leduc"))
    lifted = solve_game(compiled)
    assert "abstraction" in lifted.details and lifted.equilibria[0].certificate.holds
    shifted = compile_tree(map_terminals(game("kuhn"), lambda payoffs: (payoffs[0] + 2, payoffs[1])))
    result = solve_game(shifted, abstraction=False)
    assert result.equilibria[0].certificate.payoffs == (Fraction(-1, 18) + 2, Fraction(1, 18))


def test_the_solve_restores_the_cycle_collector():
    import gc

    from exactpoker.solve import solve_game

    assert gc.isenabled()
    solve_game(compile_tree(game("kuhn")))
    assert gc.isenabled()
    gc.disable()
    try:
        solve_game(compile_tree(game("kuhn")))
        assert not gc.isenabled()  # a caller's choice is kept
    finally:
        gc.enable()


def test_the_collector_pauses_for_two_players_only(monkeypatch):
    import gc

    from exactpoker.solve.engine import dispatch

    seen = []
    real = dispatch._profiles

    def spy(compiled, *args):
        seen.append((compiled.num_players, gc.isenabled()))
        return real(compiled, *args)

    monkeypatch.setattr(dispatch, "_profiles", spy)
    dispatch.solve_game(compile_tree(game("kuhn3")))
    dispatch.solve_game(compile_tree(game("kuhn")), abstraction=False)
    assert seen == [(3, True), (2, False)] and gc.isenabled()


def test_verify_checks_afresh_each_time():
    from exactpoker import certify
    from exactpoker.core.profile import BehaviourProfile

    compiled = compile_tree(game("kuhn"))
    profile, certificate, _ = solve_zero_sum(compiled)
    again = certify.verify(compiled, profile)
    assert again is not certificate and again == certificate
    wrong = BehaviourProfile(tuple(tuple((Fraction(1),) + (Fraction(0),) * (len(s) - 1) for s in strategy)
                                   for strategy in profile.strategies))
    assert not certify.verify(compiled, wrong).holds


@pytest.mark.parametrize("name,options", [("kuhn", {}), ("leduc", {"ranks": 2}), ("ladder", {"n": 12, "sizes": (1, 2)})])
@pytest.mark.parametrize("algorithm", ["dual simplex", "interior point"])
def test_the_basis_read_from_highs_basic_variables_is_its_basis_status(name, options, algorithm):
    """optimal_basis reads HiGHS's basic variables as one array: the same basis as its per-variable status."""
    import highspy

    lp = standard_lp(compile_tree(game(name, **options)))
    columns, rows = optimal_basis(lp, algorithm)
    solver = float_guide.quiet_highs()
    solver.setOptionValue("solver", "simplex" if algorithm == "dual simplex" else "ipm")
    float_guide.pass_lp(solver, lp)
    solver.run()
    basis, basic = solver.getBasis(), highspy.HighsBasisStatus.kBasic
    assert basis.valid
    assert columns == [j for j, status in enumerate(basis.col_status) if status == basic]
    assert rows == [i for i, status in enumerate(basis.row_status) if status == basic]
    assert len(columns) + len(rows) == lp.num_rows


@settings(deadline=None, max_examples=40)
@given(st.lists(st.dictionaries(st.integers(0, 5), st.integers(-5, 5).filter(bool), max_size=4), min_size=1, max_size=6),
       st.sampled_from([1, 2**60]), st.data())
def test_exact_products_with_the_lp_matrix_are_the_plain_sums(columns, scale, data):
    """basis._Entries (object arrays, from the float copy or the exact columns) against plain Python sums."""
    from flint import fmpq

    from exactpoker.solve.lp.basis import _Entries

    columns = tuple({i: scale * v for i, v in sorted(column.items())} for column in columns)
    lp = StandardLP(columns, (0,) * 6, {0: 1}, 3, 2)
    fractions = st.fractions(min_value=-3, max_value=3, max_denominator=5).map(lambda f: fmpq(f.numerator, f.denominator))
    duals = [data.draw(fractions) for _ in range(6)]
    values = {j: data.draw(fractions) for j in range(len(columns))}
    entries = _Entries.of(lp)
    reduced = entries.reduced_costs(duals)
    for j, column in enumerate(columns):
        assert reduced[j] == lp.cost.get(j, 0) - sum((duals[i] * v for i, v in column.items()), fmpq(0))
    product = entries.times(values)
    for i in range(6):
        assert product[i] == sum((values[j] * column.get(i, 0) for j, column in enumerate(columns)), fmpq(0))


def test_the_columns_are_built_only_when_asked_and_equal_the_arrays():
    """standard_lp's exact columns are made from its arrays on first use: the same dicts as a tuple of them."""
    lp = standard_lp(compile_tree(game("leduc", ranks=2)))
    assert "_built" not in vars(lp.columns) and lp.num_cols == len(lp.columns)
    starts, rows, floats = lp.csc()
    assert "_built" not in vars(lp.columns)  # the float copy and the sizes need no dicts
    built = tuple(lp.columns)
    assert len(built) == lp.num_cols and lp.columns == built and lp.columns[3:5] == built[3:5]
    for j, column in enumerate(built):
        a, b = int(starts[j]), int(starts[j + 1])
        assert list(column) == rows[a:b].tolist() and list(column.values()) == floats[a:b].astype(int).tolist()
        assert all(type(v) is int for v in column.values())


def test_a_failed_basis_is_reported_and_the_other_algorithm_tried(monkeypatch):
    """HiGHS's first algorithm failing (a solve error, e.g. out of memory) is shown as a stage, with HiGHS's
    status, and the second algorithm's basis is made exact instead."""
    from exactpoker import progress

    real = zerosum.float_optimum

    def dual_simplex_fails(lp, algorithm="dual simplex", refinement=None):
        if algorithm == "dual simplex":
            raise DegenerateSystemError("HiGHS (dual simplex) found no optimal basis: Solve error")
        return real(lp, algorithm, refinement)

    class Recorder(progress.Reporter):
        def __init__(self) -> None:
            self.stages: list[str] = []

        def stage(self, name: str, total: int | None = None, unit: str = "") -> None:
            self.stages.append(name)

    monkeypatch.setattr(zerosum, "float_optimum", dual_simplex_fails)
    with progress.reporting(Recorder()) as recorder:
        _, certificate, method = solve_zero_sum(compile_tree(game("leduc", ranks=2)), method="basis")
    assert certificate.holds and method == "basis"
    failed = [s for s in recorder.stages if "basis failed" in s]
    assert failed == ["the dual simplex's basis failed: HiGHS (dual simplex) found no optimal basis: Solve error"]
