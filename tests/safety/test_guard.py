"""The resource guard: games too large for the memory are refused quickly, before any work; benchmark sizes pass."""

import json
import os
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker import guard
from exactpoker.cli import main
from exactpoker.core.poker_size import tree_size
from exactpoker.core.tree import Chance, Move, Terminal
from exactpoker.games.library import poker_game
from tests.paths import DATA


def refused(capsys, *argv):
    """Run the command line; the CPU seconds it took and its one-line error."""
    start = time.process_time()
    status = main(list(argv))
    seconds = time.process_time() - start
    err = capsys.readouterr().err
    assert status == 2 and len(err.strip().splitlines()) == 1, err
    return seconds, err


@pytest.mark.parametrize("argv, size", [
    (["kuhn3", "--cards", "3000", "--pot", "3"], "TB"),
    (["kuhn3", "branch", "--cards", "3000", "--pot-min", "2", "--pot-max", "3", "--csv", os.devnull], "TB"),
    (["solve", "library:leduc(ranks=1000)"], "at least 1000000000 tree nodes"),
    (["solve", "library:ladder(n=100000)"], "at least 9999900000 tree nodes"),
])
def test_huge_games_are_refused_at_once_naming_the_size_and_the_limit(capsys, argv, size):
    seconds, err = refused(capsys, *argv, "--max-memory", "8G")
    assert seconds < 2, f"the refusal took {seconds:.1f} s of CPU"
    assert size in err and "would need about" in err and "the limit is 8.0 GB (--max-memory)" in err


def test_the_available_memory_is_the_default_limit(capsys):
    _, err = refused(capsys, "kuhn3", "--cards", "3000", "--pot", "3")
    assert "(available memory)" in err


@pytest.mark.parametrize("estimate", [
    guard.kuhn3(26),  # benchmarks/README: kuhn3 --cards 26, 0.51 GB
    guard.kuhn3(13),
    guard.game_tree(tree_size(poker_game("leduc")).nodes, sum(tree_size(poker_game("leduc")).sequences)),
    guard.game_tree(tree_size(poker_game("leduc", players=3)).nodes, 0),
    guard.game_tree(tree_size(poker_game("ladder", n=100)).nodes, 0),
])
def test_benchmark_sizes_fit_in_two_gigabytes(estimate):
    assert estimate < 2 * 1024**3
    with guard.memory_limit(2 * 1024**3):
        guard.require(estimate, "a benchmark")


def test_the_kuhn3_estimate_covers_the_measured_peaks():
    # peak RSS (kB) by /usr/bin/time -f %M, still growing when stopped (guard.py's table)
    for cards, kilobytes in ((13, 118516), (20, 256972), (40, 1641584), (60, 5367076)):
        assert guard.kuhn3(cards) > kilobytes * 1024
    assert guard.kuhn3(26) < 0.7 * 1024**3  # measured 0.51 GB (benchmarks/README)
    assert guard.kuhn3("x") is None


def test_a_small_library_game_is_solved_under_the_guard(capsys):
    assert main(["solve", "library:kuhn", "--max-memory", "1G", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["equilibria"]


def test_a_file_is_measured_by_its_size(capsys):
    path = os.path.join(DATA, "odd_numbers.efg")
    _, err = refused(capsys, "solve", path, "--max-memory", str(guard._BASE + 10))
    assert f"({os.path.getsize(path)} bytes)" in err
    assert main(["solve", path, "--max-memory", "1G"]) == 0


@pytest.mark.openspiel
def test_an_openspiel_walk_stops_at_the_memory_limit(capsys):
    pytest.importorskip("pyspiel")
    limit = guard._BASE + 2000 * 700  # room for 2000 nodes; leduc_poker has 9457
    _, err = refused(capsys, "solve", "openspiel:leduc_poker", "--max-memory", str(limit))
    assert "more than 2000 nodes" in err and "memory limit" in err and "--max-memory" in err
    assert main(["solve", "openspiel:kuhn_poker", "--max-memory", str(limit), "--json"]) == 0  # 58 nodes


# -- the count without building the tree equals the tree's ------------------------------------


def counts(tree):
    """Nodes, leaves, and per player information sets and sequences of a built tree."""
    nodes = leaves = 0
    infosets: dict[tuple[int, str], int] = {}
    stack = [tree.root]
    while stack:
        node = stack.pop()
        nodes += 1
        if isinstance(node, Terminal):
            leaves += 1
        elif isinstance(node, Chance):
            stack.extend(child for _, _, child in node.outcomes)
        else:
            assert isinstance(node, Move)
            infosets[(node.player, node.infoset)] = len(node.actions)
            stack.extend(child for _, child in node.actions)
    players = range(len(tree.player_names))
    return (nodes, leaves, tuple(sum(1 for p, _ in infosets if p == q) for q in players),
            tuple(1 + sum(a for (p, _), a in infosets.items() if p == q) for q in players))


GAMES = st.one_of(
    st.builds(lambda n: ("kuhn3", {"cards": n}), st.integers(4, 6)),
    st.builds(lambda n, k: ("ladder", {"n": n, "sizes": ";".join(map(str, range(1, k + 1)))}),
              st.integers(2, 7), st.integers(1, 3)),
    st.builds(lambda r, p: ("leduc", {"ranks": r, "players": p}), st.integers(2, 4), st.just(2)),
    st.just(("kuhn", {})),
)


@settings(max_examples=15, deadline=None)
@given(GAMES)
def test_tree_size_is_exact_for_decks_of_distinct_cards(spec):
    game = poker_game(spec[0], **spec[1])
    size = tree_size(game)
    assert (size.nodes, size.terminals, size.infosets, size.sequences) == counts(game.tree())


@settings(max_examples=8, deadline=None)
@given(st.integers(2, 4), st.sampled_from(["leduc", "two_round"]))
def test_tree_size_is_an_upper_bound_with_identical_copies(ranks, name):
    game = poker_game(name, ranks=ranks, **({"suits": "false"} if name == "leduc" else {}))
    size, (nodes, leaves, infosets, sequences) = tree_size(game), counts(game.tree())
    assert size.nodes >= nodes and size.terminals >= leaves
    assert all(a >= b for a, b in zip(size.infosets + size.sequences, infosets + sequences))
    assert size.nodes <= 2 * nodes  # and close
