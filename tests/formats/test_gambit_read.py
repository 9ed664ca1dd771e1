"""Reading Gambit text fast (issue 30): random games written and read back, numbers spelled every way,
the reader's errors, and pygambit reading the same files."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.core.tree import GameTree, Move, Terminal, compile_tree
from exactpoker.errors import InvalidGameError
from exactpoker.formats.efg import read_efg, to_efg, write_efg
from exactpoker.formats.gambit_text import tokenize
from exactpoker.formats.nfg import read_nfg
from exactpoker.games import von_neumann
from exactpoker.numbers import exact_str
from tests.example_games import matrix_tree, sequence_form_entries
from tests.strategies import PAYOFFS, trees


def same_compiled(a: GameTree, b: GameTree) -> None:
    x, y = compile_tree(a), compile_tree(b)
    assert [(l.names, l.actions, l.parents) for l in x.layouts] == [(l.names, l.actions, l.parents) for l in y.layouts]
    assert (x.sequences == y.sequences).all() and x.denominator == y.denominator
    assert x.coefficients.tolist() == y.coefficients.tolist()


# ---------------------------------------------------------------- written and read back


@settings(deadline=None, max_examples=60)
@given(trees())
def test_random_games_read_back_to_the_same_compiled_game(tree):
    again = read_efg(write_efg(tree), "random.efg").tree
    assert again.name == tree.name and again.player_names == tree.player_names
    same_compiled(tree, again)
    assert write_efg(again) == write_efg(tree)


def _spellings(value: Fraction) -> list[str]:
    """Every way the format writes ``value``: p/q, unreduced, a sign, a decimal and an exponent when exact."""
    p, q = value.numerator, value.denominator
    ways = [exact_str(value), f"{2 * p}/{2 * q}", ("+" if p >= 0 else "") + exact_str(value)]
    k = next((k for k in range(8) if (value * 10**k).denominator == 1), None)
    if k is not None:
        m = int(value * 10**k)
        digits = str(abs(m)).rjust(k + 1, "0")
        ways += [("-" if m < 0 else "") + digits[:len(digits) - k] + "." + digits[len(digits) - k:], f"{m}e-{k}",
                 f"{m}E-{k}" if k else f"{m}.0e0"]
    return ways


@settings(deadline=None, max_examples=40)
@given(trees(), st.data())
def test_numbers_spelled_every_way_read_the_same(tree, data):
    def respell(line: re.Match) -> str:
        values = [Fraction(text) for text in line.group(2).split(", ")]
        spelled = [data.draw(st.sampled_from(_spellings(v))) for v in values]
        return line.group(1) + data.draw(st.sampled_from([", ", " ", ","])).join(spelled) + " }"

    text = re.sub(r'(?m)^(t "" \d+ "" \{ )([-\d/, ]+) \}$', respell, write_efg(tree))
    same_compiled(tree, read_efg(text).tree)


@settings(deadline=None, max_examples=15)
@given(st.integers(2, 6), st.fractions(min_value=Fraction(1, 4), max_value=4, max_denominator=8))
def test_to_efg_reads_back_to_the_rules_sequence_form(n, b):
    game = von_neumann.game(n, b)
    loaded = read_efg(to_efg(game), "vn.efg").tree

    def rename(player, infoset, action):  # "I: card 3, label" -> the rules' tree key "3:label"
        card, label = re.fullmatch(r".*?: card (\d+), (.*)", infoset).groups()
        return f"{card}:{label}", action

    assert sequence_form_entries(compile_tree(loaded), rename) == sequence_form_entries(compile_tree(game.tree()))


def test_leaves_with_the_same_payoffs_are_one_node():
    text = ('EFG 2 R "g" { "A" "B" }\n""\np "" 1 1 "" { "x" "y" "z" } 0\nt "" 1 "" { 1/2, -1/2 }\n'
            't "" 2 "" { 1/2 -1/2 }\nt "" 1\n')
    root = read_efg(text).tree.root
    first, second, third = (child for _, child in root.actions)
    assert first is second is third and first.payoffs == (Fraction(1, 2), Fraction(-1, 2))


def test_deep_trees_are_read_without_recursion():
    depth = 20_000  # far beyond Python's recursion limit
    lines = [f'p "" 1 {k} "" {{ "stop" "go" }} 0\nt "" {k} "" {{ {k} }}' for k in range(1, depth + 1)]
    tree = read_efg('EFG 2 R "deep" { "A" }\n""\n' + "\n".join(lines) + '\nt "" 0\n').tree
    assert sum(1 for _ in tree.nodes()) == 2 * depth + 1
    node = tree.root
    while isinstance(node, Move):
        node = node.actions[1][1]
    assert node.payoffs == (0,)


def test_actions_given_again_written_otherwise_are_the_same():
    text = ('EFG 2 R "g" { "A" }\n""\nc "" 1 "" { "l" 1/2 "r" 1/2 } 0\np "" 1 1 "s" { "a" "b" } 0\n'
            't "" 1 "" { 1 }\nt "" 2 "" { 2 }\np "" 1 1 "s" { "\\a", "b" } 0\nt "" 3 "" { 3 }\nt "" 4 "" { 4 }\n')
    compiled = compile_tree(read_efg(text).tree)
    assert compiled.layouts[0].actions == (("a", "b"),)


@settings(deadline=None, max_examples=30)
@given(st.integers(1, 4), st.integers(1, 4), st.data())
def test_nfg_both_forms_read_as_the_matrix_game(m, n, data):
    cells = [[tuple(data.draw(PAYOFFS) for _ in range(2)) for _ in range(n)] for _ in range(m)]
    rows, columns = " ".join(f'"r{i}"' for i in range(m)), " ".join(f'"c{j}"' for j in range(n))
    head = f'NFG 1 R "m" {{ "row" "column" }} {{ {{ {rows} }} {{ {columns} }} }}\n'
    order = [cells[i][j] for j in range(n) for i in range(m)]  # player 1's strategy changing fastest

    def spell(value: Fraction) -> str:
        return data.draw(st.sampled_from(_spellings(value)))

    payoff_list = head + " ".join(f"{spell(a)} {spell(b)}" for a, b in order) + "\n"
    distinct = list(dict.fromkeys(order))
    outcome_list = (head + "{ " + " ".join(f'{{ "" {spell(a)}, {spell(b)} }}' for a, b in distinct) + " }\n"
                    + " ".join(str(1 + distinct.index(cell)) for cell in order) + "\n")
    expected = sequence_form_entries(compile_tree(matrix_tree(cells)))

    def rename(player, infoset, action):
        return ("rows", action) if player == 0 else ("cols", action)

    for text in (payoff_list, outcome_list):
        tree = read_nfg(text, "m.nfg").tree
        assert sequence_form_entries(compile_tree(tree), rename) == expected
    leaves = {id(node) for node in read_nfg(outcome_list).tree.nodes() if isinstance(node, Terminal)}
    assert len(leaves) == len(distinct)  # one leaf per outcome of the file


# ---------------------------------------------------------------- errors


def test_bad_characters_inside_strings_are_text():
    loaded = read_efg('EFG 2 R "g#@{" { "A, B" }\n""\nt "}" 1 "{" { 1 }\n')
    assert loaded.tree.name == "g#@{" and loaded.tree.player_names == ("A, B",)


def test_tokens_keep_their_lines_and_columns():
    tokens = tokenize('EFG 2\n  "a\nb" { 1/2,-3 }\n', "x")
    assert [(t.kind, t.value, t.line, t.column) for t in tokens] == [
        ("word", "EFG", 1, 1), ("number", 2, 1, 5), ("string", "a\nb", 2, 3), ("{", "{", 3, 4),
        ("number", Fraction(1, 2), 3, 6), ("number", -3, 3, 10), ("}", "}", 3, 13), ("end", None, 4, 1)]


def test_nfg_payoff_list_errors():
    with pytest.raises(InvalidGameError, match=r"^y\.nfg:2:3: expected a payoff, found 'x'"):
        read_nfg('NFG 1 R "g" { "a" } { 2 }\n1 x\n', "y.nfg")


# ---------------------------------------------------------------- pygambit reads the same files


def _gambit_leaves(gbt, game):
    """Each leaf's payoffs (the outcomes on its path added, as Gambit does), in preorder."""
    players = list(game.players)
    leaves, stack = [], [(game.root, (Fraction(0),) * len(players))]
    while stack:
        node, above = stack.pop()
        if node.outcome:  # a proxy, false when the node has no outcome
            above = tuple(a + Fraction(str(node.outcome[p])) for a, p in zip(above, players))
        if node.is_terminal:
            leaves.append(above)
        stack.extend((child, above) for child in reversed(list(node.children)))
    return leaves


def _compare_with_gambit(gbt, path):
    tree = read_efg(path.read_text(), str(path)).tree
    game = gbt.read_efg(str(path))
    nodes = list(tree.nodes())
    assert len(nodes) == len(list(game.nodes))
    assert [len(layout.names) for layout in compile_tree(tree).layouts] == [len(p.infosets) for p in game.players]
    assert [node.payoffs for node in nodes if isinstance(node, Terminal)] == _gambit_leaves(gbt, game)


@pytest.mark.gambit
def test_pygambit_reads_our_files_alike(tmp_path):
    gbt = pytest.importorskip("pygambit")
    path = tmp_path / "vn.efg"
    path.write_text(to_efg(von_neumann.game(6, Fraction(3, 2))))
    _compare_with_gambit(gbt, path)


@pytest.mark.gambit
@settings(deadline=None, max_examples=10)
@given(trees(names=st.text(alphabet=st.sampled_from(list('ab":')), min_size=1, max_size=4)))
def test_pygambit_reads_random_files_alike(tmp_path_factory, tree):
    # Labels as pygambit 16.7 takes them (printable ASCII, no space at either end).  No backslashes: Gambit's
    # own reader keeps a backslash that escapes one (it reads "b\\c" as b\\\c), ours reads it as std::quoted writes it.
    gbt = pytest.importorskip("pygambit")
    path = tmp_path_factory.mktemp("efg") / "random.efg"
    path.write_text(write_efg(tree))
    _compare_with_gambit(gbt, path)
