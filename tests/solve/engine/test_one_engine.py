"""One engine: a paper's named command and ``exactpoker solve library:...`` give the same certified answer.

Issue 27: ``exactpoker kuhn3 --cards N --pot P`` (seed 003) and ``exactpoker solve
'library:kuhn3(cards=N,pot=P)'`` reach the same staged N-player finish, so they
return the same equilibrium values, certified the same way (rational,
algebraic, or an isolating box proved in ball arithmetic).
"""

import json
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.cli import main


def _json(capsys, argv):
    assert main(argv + ["--json"]) in (0, None)
    return json.loads(capsys.readouterr().out)


def _number(text):
    """A printed value as comparable data: balls and rationals as printed, algebraic numbers to 40 digits."""
    if "±" in text or "CRootOf" not in text and "sqrt" not in text:
        return text
    return str(sympy.N(sympy.sympify(text), 40))


def _values(payload):
    return [[_number(v) for v in eq["values"]] for eq in payload["equilibria"]]


CASES = [(4, "3"), (5, "3"), (6, "2")]
SLOW = [(n, p) for n in range(4, 14) for p in ("2", "5/2", "3", "5")]


def _same(capsys, cards, pot):
    named = _json(capsys, ["kuhn3", "--cards", str(cards), "--pot", pot])
    general = _json(capsys, ["solve", f"library:kuhn3(cards={cards},pot={pot})"])
    assert _values(general) == _values(named)
    for eq in general["equilibria"]:
        assert eq["certified"] and eq["certificate"]["holds"]
    [eq] = named["equilibria"]
    assert eq["certificate"] == general["equilibria"][0]["certificate"]
    assert _node_tables(general["equilibria"][0]["strategies"]) == eq["strategies"]
    return named, general


def _node_tables(strategies):
    """The general door's strategies (``"card|history"``: [passive, aggressive]) as seed 003's node tables."""
    from exactpoker.games.papers.kuhn3_tables import node_of

    rows = {}
    for table in strategies.values():
        for infoset, (_, aggressive) in table.items():  # the library's actions: check, bet or fold, call
            node, card = node_of(infoset)
            rows.setdefault(str(node), {})[card] = aggressive
    return {node: [row[card] for card in sorted(row)] for node, row in rows.items()}


@pytest.mark.parametrize("cards,pot", CASES)
def test_kuhn3_named_command_and_library_game_agree(capsys, cards, pot):
    _same(capsys, cards, pot)


def test_an_isolating_box_comes_with_its_system(capsys):
    _, general = _same(capsys, 5, "3")
    box = general["details"]["isolating_box"]
    assert box["equations"] and set(box["box"]) == set(box["unknowns"])
    assert general["equilibria"][0]["certificate"]["kind"].startswith("interval-Newton")


@pytest.mark.slow
@pytest.mark.parametrize("cards,pot", [case for case in SLOW if case not in CASES])
def test_kuhn3_agrees_on_every_deck_and_pot_of_the_issue(capsys, cards, pot):
    _same(capsys, cards, pot)


def test_a_family_s_free_choices_are_simple_rationals(capsys):
    """kuhn3 (4, 2) has a family of equilibria: its free choices are pinned at simple rationals (they were the
    float guide's dyadic values, denominators up to 2**55), and the point is still certified."""
    _, general = _same(capsys, 4, "2")
    [eq] = general["equilibria"]
    entries = [Fraction(p) for table in eq["strategies"].values() for row in table.values() for p in row]
    assert max(e.denominator for e in entries) <= 10
    assert general["details"]["pinned"] and all(Fraction(v).denominator <= 10 for _, v in general["details"]["pinned"])


@pytest.mark.parametrize("cards", [4, 5, 9])
def test_range_dominance_on_the_library_game_finds_the_seeds_22_choices(cards):
    """Seed 003 section 2 lists 22 dominated choices; the generic range test finds the same number, and as
    the seed says: the top card never passes at a later decision, card 1 never calls or raises there."""
    from fractions import Fraction

    from exactpoker.games.papers import kuhn3
    from exactpoker.games import library
    from exactpoker.solve.structure.dominance import range_dominated

    found = range_dominated(library.game("kuhn3", cards=cards, pot=Fraction(3)))
    assert sum(len(d) for d in found.values()) == sum(len(f) for f in kuhn3.dominated_fixings(cards).values()) == 22
    for (player, name), dropped in found.items():
        card = int(name.split("|")[0])
        assert (card == cards and dropped == {0: 1}) or (card in (1, 2) and dropped == {1: 0})


@pytest.mark.parametrize("named,library", [
    (["vn", "mixed", "--n", "28", "--b", "4"], "library:vn(n=28,b=4)"),
    (["vn", "mixed", "--n", "400", "--b", "5/2"], "library:vn(n=400,b=5/2)"),
    (["newman", "mixed", "--n", "30", "--b", "6"], "library:newman(n=30,b=6)"),
])
def test_seed_games_from_the_library_go_the_named_commands_way(capsys, named, library):
    """The same rules, the same detected structure, the same equilibrium: the command only presents it."""
    before = _json(capsys, named)
    general = _json(capsys, ["solve", library])
    assert general["method"] == before["method"]
    assert _values(general) == _values(before)
    [eq] = general["equilibria"]
    assert eq["certified"] and set(eq["strategies"]) == {"I", "II"}
    if named[0] == "vn":  # the paper's table is the aggressive action of each card's information set
        assert [row[1] for row in eq["strategies"]["I"].values()] == before["equilibria"][0]["strategies"]["I"]


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 7), st.fractions(min_value=Fraction(1, 4), max_value=6, max_denominator=8))
def test_a_card_game_as_a_tree_has_the_compiled_games_value(n, b):
    """BettingGame.tree() (the one representation) against the card-game compiler: independent routes."""
    from exactpoker.core.compiler import compile_game
    from exactpoker.core.tree import compile_tree
    from exactpoker.games import von_neumann
    from exactpoker.solve import solve_game

    rules = von_neumann.game(n, b)
    assert solve_game(compile_tree(rules.tree())).value == solve_game(compile_game(rules)).value


@pytest.mark.parametrize("spec", ["library:three(n=5,b=2)", "library:nash_shapley(a=1,b=1)", "library:simple(m=3)",
                                  "library:goldman_stone(n=4)", "library:kuhn3(cards=4)"])
def test_every_seed_game_is_a_library_game(capsys, spec):
    payload = _json(capsys, ["solve", spec])
    assert payload["equilibria"] and all(eq["certified"] for eq in payload["equilibria"])
