"""`exactpoker solve GAME --all`, two players: every extreme equilibrium exactly, and the maximal convex sets.

Issue 28: Battle of the Sexes gave the pure (2, 3) only.  Vertex enumeration of
the best-response polytopes (Avis, Rosenberg, Savani, von Stengel 2010) is
checked against an independent brute force written here (every choice of
tight constraints, solved by Gaussian elimination), against the optimal sets
of zero-sum games, and against Gambit's ``enummixed`` on its catalog.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.certify import verify
from exactpoker.cli import main
from exactpoker.core.tree import compile_tree
from exactpoker.errors import InvalidParameterError
from exactpoker.formats import load_game
from exactpoker.formats.nfg import read_nfg
from exactpoker.solve.enumeration.two_player import LABEL_METHOD, all_equilibria_two_player
from exactpoker.solve.enumeration.convex_sets import maximal_bicliques
from exactpoker.solve import solve_game
from exactpoker.solve.enumeration.vertices import basis_limit, vertices
from tests.example_games import kuhn_tree, matrix_tree

F = Fraction


def mixed(profile):
    """A normal-form profile (one information set each) as (row mixture, column mixture)."""
    return tuple(tuple(strategy[0]) for strategy in profile.strategies)


def solve_all(tree, **kwargs):
    return solve_game(compile_tree(tree), all_equilibria=True, **kwargs)


def equilibria_set(result):
    return {mixed(eq.profile) for eq in result.equilibria}


# ------------------------------------------------------------------------ an independent brute force


def _solve(rows, rhs):
    """The unique solution of a square system by Gaussian elimination over the rationals, or None."""
    size = len(rows)
    a = [list(map(F, row)) + [F(b)] for row, b in zip(rows, rhs)]
    for col in range(size):
        pivot = next((r for r in range(col, size) if a[r][col] != 0), None)
        if pivot is None:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(size):
            if r != col and a[r][col] != 0:
                factor = a[r][col] / a[col][col]
                a[r] = [v - factor * w for v, w in zip(a[r], a[col])]
    return [a[r][size] / a[r][r] for r in range(size)]


def brute_vertices(payoff, own_offset, other_offset):
    """Vertices of {(x, v): x >= 0, sum x = 1, payoff^T x <= v} with their labels, by every choice of tight rows.

    ``payoff[i][j]``: the opponent's payoff when this player plays ``i`` and the opponent ``j``.
    """
    m, n = len(payoff), len(payoff[0])
    constraints = [([F(-int(k == i)) for k in range(m)] + [F(0)], F(0), own_offset + i) for i in range(m)]
    constraints += [([F(payoff[i][j]) for i in range(m)] + [F(-1)], F(0), other_offset + j) for j in range(n)]
    found = {}
    for chosen in itertools.combinations(constraints, m):
        point = _solve([[F(1)] * m + [F(0)]] + [c for c, _, _ in chosen], [F(1)] + [b for _, b, _ in chosen])
        if point is None or any(sum(a * z for a, z in zip(c, point)) > b for c, b, _ in constraints):
            continue
        labels = frozenset(label for c, b, label in constraints if sum(a * z for a, z in zip(c, point)) == b)
        found[tuple(point[:m])] = labels
    return found


def brute_extreme_equilibria(cells):
    """Every extreme equilibrium of the bimatrix game ``cells[i][j] = (a, b)``: complementary vertex pairs."""
    m, n = len(cells), len(cells[0])
    B = [[cells[i][j][1] for j in range(n)] for i in range(m)]
    A_T = [[cells[i][j][0] for i in range(m)] for j in range(n)]
    rows = brute_vertices(B, 0, m)
    columns = brute_vertices(A_T, m, 0)
    everything = frozenset(range(m + n))
    return {(x, y) for x, lx in rows.items() for y, ly in columns.items() if lx | ly == everything}


# ------------------------------------------------------------------------ known games


def test_battle_of_the_sexes_has_three_equilibria():
    """Issue 28: tests/data/bos.nfg gave the pure (2, 1) only; --all gives the pure pair and the mixed one."""
    loaded = load_game("tests/data/bos.nfg")
    result = solve_game(compile_tree(loaded.tree), all_equilibria=True, tables=loaded.tables)
    assert equilibria_set(result) == {((1, 0), (1, 0)), ((0, 1), (0, 1)), ((F(2, 3), F(1, 3)), (F(1, 3), F(2, 3)))}
    assert {tuple(eq.exact_values) for eq in result.equilibria} == {(2, 1), (1, 2), (F(2, 3), F(2, 3))}
    assert all(eq.certified for eq in result.equilibria)
    data = result.to_dict()
    assert data["complete"] is True and len(data["convex_sets"]) == 3  # three isolated equilibria
    assert sorted(i for s in data["convex_sets"] for i in s["equilibria"]) == [0, 1, 2]


def test_matching_pennies_has_one_equilibrium_by_both_methods():
    pennies = [[(1, -1), (-1, 1)], [(-1, 1), (1, -1)]]
    compiled = compile_tree(matrix_tree(pennies))
    for optimal_sets in (True, False):
        found = all_equilibria_two_player(compiled, optimal_sets=optimal_sets)
        assert [mixed(p) for p in found.profiles(compiled)] == [((F(1, 2), F(1, 2)), (F(1, 2), F(1, 2)))]
    result = solve_all(load_game("tests/data/matching_pennies.efg").tree)
    assert len(result.equilibria) == 1 and result.extras["complete"]


def test_a_degenerate_game_gives_its_segment_of_equilibria():
    """The degenerate 3 x 2 game of von Stengel (Handbook of Game Theory 3, 2002, ch. 45, section 2.6).

    Against the top row the column player is indifferent (3, 3), and the top
    row is a best response (3 against 2 + 3 y2 and 6 y2) while the column plays
    right with probability y2 <= 1/3: the segment {top} x [(1, 0), (2/3, 1/3)]
    is one convex set with two extreme equilibria.  The game has one more,
    isolated: rows (0, 1/3, 2/3) make the columns indifferent (8/3 each) and
    columns (1/3, 2/3) make the lower rows best (4 each, against 3).
    """
    cells = [[(3, 3), (3, 3)], [(2, 2), (5, 6)], [(0, 3), (6, 1)]]
    result = solve_all(matrix_tree(cells))
    top, segment_end = (1, 0, 0), (F(2, 3), F(1, 3))
    mixed_point = ((0, F(1, 3), F(2, 3)), (F(1, 3), F(2, 3)))
    assert equilibria_set(result) == {(top, (1, 0)), (top, segment_end), mixed_point}
    sets = [sorted(s["equilibria"]) for s in result.extras["convex_sets"]]
    index = {mixed(eq.profile): k for k, eq in enumerate(result.equilibria)}
    assert sorted(sets) == sorted([sorted([index[(top, (1, 0))], index[(top, segment_end)]]), [index[mixed_point]]])
    assert equilibria_set(result) == brute_extreme_equilibria(cells)


def test_kuhn_poker_gives_the_one_parameter_family():
    """Kuhn (1950): player I's optimal strategies are a segment (alpha in [0, 1/3]: bet a jack with alpha, a
    king with 3 alpha, call with a queen after check-bet with alpha + 1/3), player II's is unique, value -1/18."""
    result = solve_all(load_game("library:kuhn").tree)
    assert len(result.equilibria) == 2 and all(eq.certified for eq in result.equilibria)
    assert {eq.exact_values for eq in result.equilibria} == {(F(-1, 18), F(1, 18))}
    first = {(s["J|"][1], s["K|"][1], s["Q|cb"][1]) for s in (eq.exact_strategies["P1"] for eq in result.equilibria)}
    assert first == {(0, 0, F(1, 3)), (F(1, 3), 1, F(2, 3))}  # alpha = 0 and alpha = 1/3
    second = {tuple(map(tuple, eq.exact_strategies["P2"].values())) for eq in result.equilibria}
    assert len(second) == 1
    [one_set] = result.extras["convex_sets"]
    assert one_set["product_of_optimal_sets"] and sorted(one_set["equilibria"]) == [0, 1]
    assert [len(v) for v in one_set["extreme_strategies"].values()] == [2, 1]


@pytest.mark.slow
def test_kuhn_by_vertex_enumeration_equals_the_optimal_sets():
    """Two independent routes on a zero-sum sequence-form game: the polytopes' complementary vertices and the
    products of the optimal sets' vertices."""
    compiled = compile_tree(kuhn_tree())
    by_sets = all_equilibria_two_player(compiled)
    by_vertices = all_equilibria_two_player(compiled, optimal_sets=False)
    assert [set(plans) for plans in by_sets.plans] == [set(plans) for plans in by_vertices.plans]
    assert len(by_vertices.pairs) == 2 and len(by_vertices.convex_sets) == 1


# ------------------------------------------------------------------------ random games


payoff = st.integers(-2, 3)


@st.composite
def bimatrix(draw, zero_sum=False):
    m, n = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    cells = []
    for _ in range(m):
        row = []
        for _ in range(n):
            a = draw(payoff)
            row.append((a, -a) if zero_sum else (a, draw(payoff)))
        cells.append(row)
    return cells


@settings(max_examples=60, deadline=None)
@given(bimatrix())
def test_random_bimatrix_games_equal_the_brute_force(cells):
    """Small integer payoffs make many games degenerate: the lexicographic rule must still find every vertex."""
    result = solve_all(matrix_tree(cells))
    compiled = compile_tree(matrix_tree(cells))
    assert all(verify(compiled, eq.profile).holds for eq in result.equilibria)
    assert equilibria_set(result) == brute_extreme_equilibria(cells)
    covered = sorted(i for s in result.extras["convex_sets"] for i in s["equilibria"])
    assert sorted(set(covered)) == list(range(len(result.equilibria)))


@settings(max_examples=30, deadline=None)
@given(bimatrix(zero_sum=True))
def test_random_zero_sum_games_optimal_sets_equal_vertex_enumeration(cells):
    compiled = compile_tree(matrix_tree(cells))
    by_sets = all_equilibria_two_player(compiled)
    by_vertices = all_equilibria_two_player(compiled, optimal_sets=False)
    as_set = lambda found: {mixed(p) for p in found.profiles(compiled)}  # noqa: E731
    assert as_set(by_sets) == as_set(by_vertices) == brute_extreme_equilibria(cells)
    assert len(by_vertices.convex_sets) == 1  # a zero-sum game's equilibria are one product set


def test_a_constant_sum_game_is_solved_as_its_zero_sum_game():
    cells = [[(3, 2), (1, 4), (4, 1)], [(2, 3), (2, 3), (0, 5)], [(1, 4), (3, 2), (2, 3)]]  # payoffs add up to 5
    result = solve_all(matrix_tree(cells))
    assert result.details["constant-sum"] == "5"
    [one_set] = result.extras["convex_sets"]
    assert one_set["product_of_optimal_sets"] and equilibria_set(result) == brute_extreme_equilibria(cells)
    assert all(eq.certified and sum(eq.exact_values) == 5 for eq in result.equilibria)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 15), min_size=1, max_size=6))
def test_bicliques_are_the_maximal_ones(neighbours):
    right = max(neighbours).bit_length()
    found = set(maximal_bicliques(neighbours))
    brute = set()
    for bits in range(1, 1 << len(neighbours)):
        left = [i for i in range(len(neighbours)) if bits >> i & 1]
        common = (1 << right) - 1
        for i in left:
            common &= neighbours[i]
        closure = sum(1 << i for i, mask in enumerate(neighbours) if mask & common == common)
        if common and closure == bits:
            brute.add((bits, common))
    assert found == brute


def test_the_enumeration_refuses_past_its_limit_with_the_count():
    cells = [[((3 * i + 5 * j) % 7, (2 * i + 3 * j * j) % 5) for j in range(6)] for i in range(6)]
    with pytest.raises(InvalidParameterError, match=r"more than 5 lex-feasible bases.* stopped after 5 bases and"):
        all_equilibria_two_player(compile_tree(matrix_tree(cells)), limit=5, method="vertices")
    assert basis_limit(11, 22) == 20_000_000 // (11 * 33)  # the default: bases by the tableau's size


def test_past_the_limit_the_label_search_finds_the_same_equilibria():
    """A degenerate 6 x 6 game: the table of bases stopped at 5 bases hands over to the label search, whose
    extreme equilibria, convex sets and counts are those of the full table search."""
    cells = [[((3 * i + 5 * j) % 7, (2 * i + 3 * j * j) % 5) for j in range(6)] for i in range(6)]
    compiled = compile_tree(matrix_tree(cells))
    by_table = all_equilibria_two_player(compiled, method="vertices")
    by_labels = all_equilibria_two_player(compiled, limit=5)
    assert by_labels.method == LABEL_METHOD and by_labels.bases == (5, 0) and by_labels.search.nodes > 0
    as_set = lambda found: {mixed(p) for p in found.profiles(compiled)}  # noqa: E731
    assert as_set(by_labels) == as_set(by_table)
    sets = lambda found: {frozenset(mixed(found.profiles(compiled)[k]) for k in s.equilibria)  # noqa: E731
                          for s in found.convex_sets}
    assert sets(by_labels) == sets(by_table)


def test_vertices_of_a_degenerate_square():
    """The unit square as {z >= 0 : z1 + s1 = 1, z2 + s2 = 1, z1 + z2 + s3 = 2}: degenerate at (1, 1)."""
    found = vertices([[1, 0, 1, 0, 0], [0, 1, 0, 1, 0], [1, 1, 0, 0, 1]], [1, 1, 2])
    assert {p[:2] for p in found.points} == {(0, 0), (1, 0), (0, 1), (1, 1)}
    assert found.bases >= 4  # (1, 1) has several bases


# ------------------------------------------------------------------------ the command line


def test_the_cli_prints_the_sets_and_the_schema_holds(capsys):
    jsonschema = pytest.importorskip("jsonschema")
    from exactpoker.schema import schema

    assert main(["solve", "tests/data/bos.nfg", "--all", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    jsonschema.Draft202012Validator(schema()).validate(data)
    assert data["complete"] is True and len(data["equilibria"]) == 3
    assert data["extreme_strategies"]["Row"][0] == {"strategy": ["2/3", "1/3"]}
    assert main(["solve", "library:kuhn", "--all"]) == 0
    text = capsys.readouterr().out
    assert "2 equilibria" in text and "P1: conv of strategies 1, 2; P2: conv of strategies 1" in text
    assert "K|cb: unreached" in text


@pytest.mark.parametrize("flags", [["--method", "lemke"], ["--all-pure"], ["--family"]])
def test_all_takes_no_other_question(flags, capsys):
    assert main(["solve", "tests/data/bos.nfg", "--all", *flags]) == 2
    assert "--all chooses its own method" in capsys.readouterr().err


def test_three_players_go_to_support_enumeration_or_are_refused(capsys):
    """Two players are this module's; more go to exactpoker.solve.enumeration.supports (another branch)."""
    text = 'NFG 1 R "three" { "A" "B" "C" } { 2 2 2 }\n\n' + " ".join(["1 0 0"] * 8) + "\n"
    compiled = compile_tree(read_nfg(text).tree)
    if importlib.util.find_spec("exactpoker.solve.enumeration.supports") is None:
        with pytest.raises(InvalidParameterError, match="two-player games only; this game has 3 players"):
            solve_game(compiled, all_equilibria=True)
    else:
        assert "complete" in solve_game(compiled, all_equilibria=True).to_dict()


# ------------------------------------------------------------------------ Gambit's catalog


def _catalog():
    """Every two-player game of pygambit's catalog, as pytest parameters."""
    if importlib.util.find_spec("pygambit") is None:
        return [pytest.param(None, marks=pytest.mark.skip(reason="pygambit is not installed"), id="no-pygambit")]
    import pygambit.catalog

    return [pytest.param(slug, id=slug) for slug in pygambit.catalog.games(n_players=2)["Game"]]


@pytest.mark.gambit
@pytest.mark.parametrize("slug", _catalog())
def test_gambit_catalog_extreme_equilibria_equal_enummixed(slug):
    """Normal-form games as they are; extensive games on their reduced strategic form (Gambit's ``to_nfg``),
    which is what ``enummixed`` solves (and the only form it takes for the imperfect-recall ones)."""
    import io

    import pygambit as gbt
    import pygambit.catalog

    text = pygambit.catalog.load(slug).to_nfg()
    game = gbt.read_nfg(io.StringIO(text))
    theirs = set()
    for eq in gbt.nash.enummixed_solve(game, rational=True).equilibria:
        theirs.add(tuple(tuple(F(str(eq[s])) for s in player.strategies) for player in game.players))
    result = solve_all(read_nfg(text).tree)
    assert equilibria_set(result) == theirs
    assert all(eq.certified for eq in result.equilibria)


def _perfect_recall_trees():
    if importlib.util.find_spec("pygambit") is None:
        return [pytest.param(None, marks=pytest.mark.skip(reason="pygambit is not installed"), id="no-pygambit")]
    import pygambit.catalog

    slugs = pygambit.catalog.games(n_players=2, is_tree=True, is_perfect_recall=True)["Game"]
    return [pytest.param(slug, id=slug) for slug in slugs]


def _in_hull(point, vertices):
    from exactpoker.errors import InfeasibleError
    from exactpoker.solve.lp.simplex import solve_lp

    rows = [[v[k] for v in vertices] for k in range(len(point))] + [[F(1)] * len(vertices)]
    try:
        solve_lp([0] * len(vertices), A_eq=rows, b_eq=list(point) + [F(1)])
    except InfeasibleError:
        return False
    return True


@pytest.mark.gambit
@pytest.mark.parametrize("slug", _perfect_recall_trees())
def test_gambit_catalog_trees_every_enummixed_equilibrium_lies_in_one_of_our_sets(slug):
    """On the tree itself (the sequence form, no strategic form): each of Gambit's extreme equilibria, turned
    into realization plans, lies in one of our maximal convex sets -- the sets cover every equilibrium."""
    import pygambit as gbt
    import pygambit.catalog

    from exactpoker.core.profile import BehaviourProfile
    from exactpoker.formats.efg import efg_tables, read_efg

    game = pygambit.catalog.load(slug)
    loaded = read_efg(game.to_efg())
    compiled = compile_tree(loaded.tree)
    found = all_equilibria_two_player(compiled)
    assert all(verify(compiled, p).holds for p in found.profiles(compiled))
    order = efg_tables(loaded).order
    for eq in gbt.nash.enummixed_solve(game, rational=True).equilibria:
        behaviour = eq.as_behavior()
        tables = []
        for p, player in enumerate(game.players):
            labels = [infoset.label for infoset in player.infosets]
            by_label = len(set(labels)) == len(labels) and set(labels) <= set(order[p])
            table = {}
            for k, infoset in enumerate(player.infosets):
                probabilities = [F(str(behaviour[action])) for action in infoset.actions]
                if sum(probabilities):  # Gambit gives zeros where its profile never reaches: any behaviour there
                    table[infoset.label if by_label else order[p][k]] = probabilities
            tables.append(table)
        profile = BehaviourProfile.from_infosets(compiled, tables)
        x, y = profile.realization(compiled, 0), profile.realization(compiled, 1)
        assert any(_in_hull(x, [found.plans[0][i] for i in s.strategies[0]])
                   and _in_hull(y, [found.plans[1][j] for j in s.strategies[1]]) for s in found.convex_sets), slug
