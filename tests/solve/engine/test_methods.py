"""The one ``method`` vocabulary (issue 39): every name does what it says where it applies and refuses elsewhere.

Each method is checked against an independent one on the same game: the strategic form and the per-card LP
against the sequence-form LP, the structured paths against the general ones, the nearest optimum against
the exact set of optimal strategies (``family=True``), and the restricted strategic form against the full one.
"""

import functools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.certify import verify
from exactpoker.core.poker_compile import compile_poker
from exactpoker.core.profile import realization_weights
from exactpoker.errors import InvalidParameterError, NotZeroSumError
from exactpoker.games import newman, von_neumann
from exactpoker.games.library import poker_game
from exactpoker.solve import METHODS, payoff_table, solve_game, weight_range
from exactpoker.solve.engine.structured import STRUCTURED_METHOD, STRUCTURED_PURE_METHOD
from tests.strategies import bets

F = Fraction


def kuhn():
    return compile_poker(poker_game("kuhn"))


def test_the_vocabulary_is_the_cli_s():
    from exactpoker.cli import build_parser

    solve = next(a for a in build_parser()._subparsers._group_actions[0].choices["solve"]._actions
                 if "--method" in a.option_strings)
    assert list(solve.choices) == list(METHODS) and all(METHODS[name] for name in METHODS)
    assert {"auto", "structured", "lp", "basis", "simplex", "strategic", "per-card", "lemke", "n-player"} == set(METHODS)


# -- structured: the rules' structure, asked for ---------------------------------------------------------------


def test_structured_is_the_default_path_of_a_structured_game_and_refused_elsewhere():
    rules = von_neumann.game(6, 2)
    forced, default, general = solve_game(rules, method="structured"), solve_game(rules), solve_game(rules, method="lp")
    assert forced.method == default.method == STRUCTURED_METHOD != general.method
    assert forced.value == general.value
    with pytest.raises(InvalidParameterError, match="--method structured needs a one-card betting game"):
        solve_game(kuhn(), method="structured")  # came compiled
    with pytest.raises(InvalidParameterError, match="--method structured needs"):
        solve_game(poker_game("kuhn"), method="structured")  # no structured path
    with pytest.raises(InvalidParameterError, match="without 'family'"):
        solve_game(rules, method="structured", family=True)
    with pytest.raises(InvalidParameterError, match="every pure equilibrium by prefix counts needs"):
        solve_game(newman.game(4, 2), method="structured", all_pure=True)  # II has two decisions


@settings(max_examples=12, deadline=None)
@given(st.integers(2, 6), bets)
def test_every_pure_equilibrium_by_prefix_counts_is_the_strategic_form_s(n, b):
    by_counts = solve_game(von_neumann.game(n, b), method="structured", all_pure=True)
    by_table = solve_game(von_neumann.compiled(n, b), method="strategic", all_pure=True)
    assert by_counts.method == STRUCTURED_PURE_METHOD
    assert [eq.exact_strategies for eq in by_counts.equilibria] == [eq.exact_strategies for eq in by_table.equilibria]
    assert all(eq.certificate == verify(von_neumann.compiled(n, b), eq.profile) for eq in by_counts.equilibria)


# -- strategic: the strategic form as a matrix game ---------------------------------------------------------------


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 5), bets)
def test_the_strategic_form_has_the_sequence_form_s_value(n, b):
    game = von_neumann.compiled(n, b)
    strategic, lp = solve_game(game, method="strategic"), solve_game(game, method="lp")
    assert strategic.value == lp.value and strategic.equilibria[0].certificate.scope == "all strategies"
    mixtures = strategic.details["mixtures"]
    assert all(sum(weight for _, weight in mixtures[name]) == 1 for name in ("I", "II"))
    assert strategic.details["matrix_certificate"]["holds"]


def test_the_strategic_form_of_a_tree_and_its_refusals():
    game = kuhn()
    assert solve_game(game, method="strategic").value == F(-1, 18)
    assert solve_game(game, method="strategic", all_pure=True).equilibria == ()  # Kuhn has no pure equilibrium
    with pytest.raises(NotZeroSumError):
        solve_game(compile_poker(poker_game("kuhn3")), method="strategic")


def test_given_pure_strategies_are_a_restricted_game():
    game = von_neumann.compiled(4, 2)
    rows, cols, table, _ = payoff_table(game)
    everything = solve_game(game, strategies=(rows, cols))  # every pure strategy given: the full game's value
    assert everything.value == solve_game(game, method="lp").value
    assert everything.equilibria[0].certificate.scope == f"the given pure strategies ({len(rows)} and {len(cols)})"
    assert [eq.profile for eq in solve_game(game, all_pure=True, strategies=(rows, cols)).equilibria] == \
        [eq.profile for eq in solve_game(game, all_pure=True, method="strategic").equilibria]
    few = solve_game(game, strategies=(rows[:3], cols[-2:]))  # three against two: the matrix game's own value
    sub = table[:3, -2:]
    x = [weight for _, weight in few.details["mixtures"]["I"]]
    assert min(sum(w * int(sub[i, j]) for i, w in enumerate(_dense(few, "I", rows[:3]))) for j in range(2)) \
        == few.value * game.denominator and sum(x) == 1
    with pytest.raises(InvalidParameterError, match="strategies"):
        solve_game(game, strategies=(rows, cols), method="lp")
    with pytest.raises(InvalidParameterError, match="action index"):
        solve_game(game, strategies=(rows[:, :2], cols))


def _dense(result, player, rows):
    """The mixture of ``result`` over ``rows`` as one weight per row."""
    weights = {tuple(choice): w for choice, w in result.details["mixtures"][player]}
    return [weights.get(tuple(int(a) for a in row), F(0)) for row in rows]


def test_weight_range_brackets_every_optimal_mixture():
    game = von_neumann.compiled(4, 2)
    solved = solve_game(game, method="strategic")
    rows = payoff_table(game)[0]
    for k, weight in enumerate(_dense(solved, "I", rows)):
        low, high = weight_range(game, 0, k)
        assert low <= weight <= high
    with pytest.raises(InvalidParameterError, match="player must be 0 or 1"):
        weight_range(game, 2, 0)


# -- per-card: the LP against player II's pure choices at each card ---------------------------------------------


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 6), st.integers(1, 3))
def test_the_per_card_lp_has_the_structured_value(n, b):
    rules = newman.game(n, b)
    per_card = solve_game(rules, method="per-card")
    assert per_card.value == solve_game(rules).value and per_card.equilibria[0].certified


def test_the_per_card_lp_refuses_what_it_cannot_take():
    assert solve_game(von_neumann.game(5, 3), method="per-card").value == solve_game(von_neumann.game(5, 3)).value
    with pytest.raises(InvalidParameterError, match="needs a one-card game"):
        solve_game(kuhn(), method="per-card")
    with pytest.raises(InvalidParameterError, match="rows"):
        solve_game(newman.game(40, 5), method="per-card")


# -- nearest: the optimal strategy nearest to a target ----------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _kuhn_segment():
    """Kuhn's compiled game and the realization plans of the two vertices of player 1's optimal segment."""
    game = kuhn()
    vertices = solve_game(game, family=True).details["optimal strategies"]["P1"]["vertices"]
    return game, [_plan(game, 0, vertex) for vertex in vertices]


def _plan(game, player, table):
    layout = game.layouts[player]
    strategy = tuple(tuple(F(v) for v in (table[layout.infoset_name(i)] or [1] + [0] * (len(layout.infoset_actions(i)) - 1)))
                     for i in range(layout.num_infosets))
    return realization_weights(layout, strategy)


@settings(max_examples=8, deadline=None)
@given(st.lists(st.fractions(0, 1, max_denominator=6), min_size=6, max_size=6))
def test_the_nearest_optimum_is_the_minimum_over_the_optimal_segment(bets_of):
    """Kuhn's player 1 has a segment of optimal strategies (``family=True``: two vertices); the L1 distance
    along the segment is convex and piecewise linear, so its exact minimum is at an end or a kink."""
    game, ends = _kuhn_segment()
    layout = game.layouts[0]
    target = {layout.infoset_name(i): [1 - p, p] for i, p in enumerate(bets_of)}
    found = solve_game(game, nearest={"P1": target})
    assert found.equilibria[0].certified and set(found.details["nearest"]) == {"P1"}
    goal = _plan(game, 0, target)
    assert len(ends) == 2
    kinks = {F(0), F(1)} | {(g - a) / (b - a) for a, b, g in zip(*ends, goal) if a != b and 0 <= (g - a) / (b - a) <= 1}
    best = min(sum(abs((1 - t) * a + t * b - g) for a, b, g in zip(*ends, goal)) for t in kinks)
    assert found.details["nearest"]["P1"]["distance"] == best
    assert sum(abs(x - g) for x, g in zip(found.equilibria[0].profile.realization(game, 0), goal)) == best


def test_nearest_refusals():
    with pytest.raises(InvalidParameterError, match="unknown player 'P3'"):
        solve_game(kuhn(), nearest={"P3": {}})
    with pytest.raises(InvalidParameterError, match="give it alone"):
        solve_game(kuhn(), nearest={"P1": {}}, all_pure=True)
    with pytest.raises(InvalidParameterError, match="information set 'J\\|'"):
        solve_game(kuhn(), nearest={"P1": {}})


# -- games/ holds rules: a rules module imports nothing of the solvers; a paper's module only their public face --


RULES = ["von_neumann", "newman", "simple_poker", "goldman_stone", "liars_dice", "liars_dice_compile", "library",
         "kuhn3", "three_player", "nash_shapley"]


def _imports(path):
    import ast

    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            yield node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


@pytest.mark.parametrize("name", RULES)
def test_a_rules_module_imports_no_solver(name):
    from pathlib import Path

    import exactpoker.games

    path = Path(exactpoker.games.__file__).parent / f"{name}.py"
    assert [module for module in _imports(path) if module.startswith("exactpoker.solve")] == []


def test_a_paper_s_module_imports_only_the_solvers_public_face():
    from pathlib import Path

    import exactpoker.games.papers

    for path in Path(exactpoker.games.papers.__file__).parent.rglob("*.py"):
        inner = [module for module in _imports(path) if module.startswith("exactpoker.solve.")]
        assert inner == [], (path.name, inner)
