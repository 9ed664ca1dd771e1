"""One engine: a paper's named command and ``exactpoker solve library:...`` give the same certified answer.

Issue 27: ``exactpoker kuhn3 --cards N --pot P`` (seed 003) and ``exactpoker solve
'library:kuhn3(cards=N,pot=P)'`` reach the same staged N-player finish, so they
return the same equilibrium values, certified the same way (rational,
algebraic, or an isolating box proved in ball arithmetic).
"""

import json

import pytest
import sympy

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


CASES = [(4, "3"), (5, "3"), (5, "5/2"), (6, "2")]
SLOW = [(n, p) for n in range(4, 14) for p in ("2", "5/2", "3", "5")]


def _same(capsys, cards, pot):
    named = _json(capsys, ["kuhn3", "--cards", str(cards), "--pot", pot])
    general = _json(capsys, ["solve", f"library:kuhn3(cards={cards},pot={pot})"])
    assert _values(general) == _values(named)
    for eq in general["equilibria"]:
        assert eq["certified"] and eq["certificate"]["holds"]
    return named, general


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


@pytest.mark.parametrize("cards", [4, 5, 9])
def test_range_dominance_on_the_library_game_finds_the_seeds_22_choices(cards):
    """Seed 003 section 2 lists 22 dominated choices; the generic range test finds the same number, and as
    the seed says: the top card never passes at a later decision, card 1 never calls or raises there."""
    from fractions import Fraction

    from exactpoker.games import kuhn3, library
    from exactpoker.solve.dominance import range_dominated

    found = range_dominated(library.game("kuhn3", cards=cards, pot=Fraction(3)))
    assert sum(len(d) for d in found.values()) == sum(len(f) for f in kuhn3.dominated_fixings(cards).values()) == 22
    for (player, name), dropped in found.items():
        card = int(name.split("|")[0])
        assert (card == cards and dropped == {0: 1}) or (card in (1, 2) and dropped == {1: 0})
