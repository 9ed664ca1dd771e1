"""The continuous-deck engine (issue 40): one-card betting rules with hands uniform on [0, 1], solved exactly.

Published values are expectations: seed 000 section 1 (von Neumann's cut points and value), seed 000
section 4 (the three-player game: through ``three continuous``), seed 002 (Goldman-Stone).  The classic
games of the library are checked against an independent derivation (tests/continuous_reference.py:
the expected payoff as exact areas of the unit square of hands, cut points from first-order
conditions) and against the exact finite-deck values, which must approach the continuous value.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy

from exactpoker.cli import main
from exactpoker.core.continuous_deck import ContinuousGame, UniformDeck, continuous_deck
from exactpoker.core.poker import Betting, CardDeck, Deal, PokerGame
from exactpoker.errors import InvalidGameError
from exactpoker.games import von_neumann
from exactpoker.games.library import at_default_sizes, la_relance, poker_game, von_neumann_raise, von_neumann_sizes
from exactpoker.solve import solve_game
from exactpoker.solve.continuous import NoCertifiedShape, solve_continuous
from exactpoker.solve.continuous.certificate import certify
from exactpoker.solve.continuous.over import solve_over_continuous
from exactpoker.solve.continuous.profile import PiecewiseProfile
from tests.continuous_reference import expected_payoff, solve_cuts


def _rational(value: object) -> sympy.Rational:
    return sympy.Rational(str(value))


# -- the deck --------------------------------------------------------------------------------------


def test_a_continuous_deck_is_the_same_rules_with_another_deck():
    game = continuous_deck(von_neumann.game(5, 2))
    assert isinstance(game, ContinuousGame) and game.deck == UniformDeck()
    assert game.player_names == ("I", "II") and dict(game.parameters) == {"b": Fraction(2)}
    assert game.on_cards(9).deck.cards == 9 and game.on_cards(9).root == game.rules.root


@pytest.mark.parametrize("spec, reason", [
    ("library:leduc", "deals cards after the first betting"),
    ("library:two_round", "deals cards after the first betting"),
    ("library:dice", "LiarsDice"),
    ("library:ladder(rake=1/10)", "rake"),
])
def test_anything_else_is_refused_in_one_line(spec, reason, capsys):
    assert main(["solve", spec, "--continuous"]) == 2
    err = capsys.readouterr().err
    assert reason in err and err.count("\n") == 1 and "Traceback" not in err


def test_files_and_finite_options_are_refused(tmp_path, capsys):
    assert main(["solve", str(tmp_path / "x.efg"), "--continuous"]) == 2
    assert "game file" in capsys.readouterr().err
    assert main(["solve", "library:kuhn", "--continuous", "--all"]) == 2
    assert "--all is for finite decks" in capsys.readouterr().err


def test_rules_in_a_python_file_take_a_continuous_deck(tmp_path, capsys):
    """``solve FILE.py --continuous``: a user's one-card rules, not the library's, solved and certified; the same
    rules as the library's Kuhn poker with bet 2 give the same answer."""
    path = tmp_path / "mine.py"
    path.write_text("from exactpoker.core.poker import Betting, CardDeck, Deal, PokerGame\n"
                    "game = PokerGame('mine', 2, CardDeck.numbered(5), [Deal(hole=1), Betting(sizes=2, max_bets=1)], "
                    "ante=1)\n")
    assert main(["solve", str(path), "--continuous", "--json"]) == 0
    mine = json.loads(capsys.readouterr().out)
    assert main(["solve", "library:kuhn(bet=2)", "--continuous", "--json"]) == 0
    library = json.loads(capsys.readouterr().out)
    assert mine["equilibria"][0]["certified"] and mine["equilibria"][0]["values"] == library["equilibria"][0]["values"]
    assert [c["exact"] for c in mine["continuous"]["cut_points"]] == \
        [c["exact"] for c in library["continuous"]["cut_points"]]
    assert main(["solve", str(path), "--continuous", "--over", "bet=1..2"]) == 2
    assert "library game's parameter" in capsys.readouterr().err


def test_solve_game_points_a_continuous_deck_to_solve_continuous():
    with pytest.raises(ValueError, match=r"got ContinuousGame \(a continuous deck's game is solved by "
                                         r"exactpoker\.solve\.solve_continuous\)"):
        solve_game(continuous_deck(poker_game("kuhn")))


def test_a_poker_game_with_its_own_payoffs_is_refused():
    game = PokerGame("own", 2, CardDeck("JQK"), [Deal(hole=1), Betting()], payoff=lambda s: (0, 0))
    with pytest.raises(InvalidGameError, match="payoff="):
        continuous_deck(game)


# -- seed 000 section 1: von Neumann's game ------------------------------------------------------


@pytest.mark.parametrize("bet", [Fraction(1), Fraction(3, 2), Fraction(2)])
def test_von_neumann_cut_points_and_value_of_seed_000(bet):
    result = solve_continuous(von_neumann.game(3, bet))
    b = _rational(bet)
    assert result.cut("I", "open", 1) == b / ((b + 4) * (b + 1))
    assert result.cut("I", "open", 2) == (b**2 + 4 * b + 2) / ((b + 4) * (b + 1))
    assert result.cut("II", "facing a bet", 1) == b * (b + 3) / ((b + 4) * (b + 1))
    assert result.value == b / ((b + 4) * (b + 1))
    assert result.certificate.holds


def test_over_b_gives_the_seed_formula_on_one_certified_piece():
    over = solve_over_continuous(lambda v: von_neumann.game(3, v), "b", Fraction(1), Fraction(4))
    [piece] = over.pieces
    b = sympy.Symbol("b")
    assert (piece.start.lower, piece.end.lower) == (1, 4) and not over.uncovered
    assert sympy.cancel(piece.cuts["I:open:1"] - b / ((b + 4) * (b + 1))) == 0
    assert sympy.cancel(piece.values[0] - b / ((b + 4) * (b + 1))) == 0
    best = over.maximize(0)
    assert best.value.lower == Fraction(1, 9) and [a.lower for a in best.at] == [2]


# -- a size the finite decks cannot see: the shape of the same rules at another size ------------------


def test_a_bluffing_range_narrower_than_a_card_takes_the_shape_certified_at_another_bet():
    bet = Fraction(1, 100)  # I bluffs below b/((b+1)(b+4)) = 100/40501: under half a card of 180
    with pytest.raises(NoCertifiedShape):
        solve_continuous(von_neumann.game(3, bet))
    lender = solve_continuous(von_neumann.game(3, Fraction(1)), source="library:vn(b=1)")
    result = solve_continuous(von_neumann.game(3, bet), shapes_from=[lender])
    b = _rational(bet)
    assert result.value == b / ((b + 4) * (b + 1)) == sympy.Rational(100, 40501)
    assert result.cut("II", "facing a bet", 1) == b * (b + 3) / ((b + 4) * (b + 1))
    assert result.certificate.holds and result.lent_by == "library:vn(b=1)"
    from exactpoker.solve.continuous.model import betting_model

    rules = betting_model(continuous_deck(von_neumann.game(3, bet)).rules).exact()  # a model of its own
    assert certify(rules, result.solved.profile).holds


def test_other_sizes_are_solved_only_when_the_decks_fail():
    def never() -> list:
        raise AssertionError("asked for other sizes although a shape read from the decks certifies")

    assert solve_continuous(von_neumann.game(3, Fraction(2)), shapes_from=never).lent_by is None
    lender = solve_continuous(von_neumann.game(3, Fraction(1)), source="library:vn(b=1)")
    assert solve_continuous(von_neumann.game(3, Fraction(1, 100)), shapes_from=lambda: [lender]).lent_by \
        == "library:vn(b=1)"


def test_a_shape_of_other_rules_is_not_borrowed():
    kuhn = solve_continuous(poker_game("kuhn"))
    with pytest.raises(NoCertifiedShape) as raised:
        solve_continuous(von_neumann.game(3, Fraction(1, 100)), shapes_from=[kuhn])
    assert f"nor any of {kuhn.game}'s certifies" in str(raised.value)


def test_the_command_line_lends_the_default_sizes_shape(capsys):
    data = _json(capsys, "solve", "library:kuhn(bet=1/100)", "--continuous")
    assert data["equilibria"][0]["values"] == ["-100/4080501", "100/4080501"]  # -b^2/((b+1)(b+2)^2)
    assert data["continuous"]["shape_from"] == "library:kuhn(bet=1)"
    assert "shape_from" not in _json(capsys, "solve", "library:kuhn(bet=2)", "--continuous")["continuous"]


def test_default_sizes_of_a_library_game():
    assert at_default_sizes("vn(b=1/100)") == ["vn(b=1)"]
    assert at_default_sizes("vn(b=1/100,raise=true)") == ["vn(b=1,raise=true)"]
    assert at_default_sizes("kuhn(bet=1/50,ante=2)") == ["kuhn(bet=1/50,ante=1)", "kuhn(bet=1,ante=2)",
                                                         "kuhn(bet=1,ante=1)"]
    assert at_default_sizes("vn") == at_default_sizes("vn(b=1)") == at_default_sizes("leduc(players=3)") == []


# -- the certificate -----------------------------------------------------------------------------


@pytest.mark.parametrize("game", [von_neumann.game(3, 2), poker_game("kuhn"), la_relance(3, Fraction(2)),
                                  poker_game("goldman_stone")], ids=["vn", "kuhn", "la_relance", "goldman_stone"])
def test_a_wrong_cut_point_fails_the_certificate(game):
    result = solve_continuous(game)
    profile = result.solved.profile
    exact = result.model.exact()
    assert certify(exact, profile).holds
    for k in range(1, len(profile.breaks) - 1):
        if profile.breaks[k] == profile.breaks[k - 1] or profile.breaks[k] == profile.breaks[k + 1]:
            continue
        for shift in (Fraction(-1, 1000), Fraction(1, 1000)):
            breaks = list(profile.breaks)
            breaks[k] += shift
            assert not certify(exact, PiecewiseProfile(tuple(breaks), profile.behaviour)).holds, (k, shift)


def test_the_certificate_reads_nothing_but_the_rules_and_the_profile():
    """A profile typed in by hand: von Neumann's at b = 2 holds; II calling everything does not."""
    exact = continuous_deck(von_neumann.game(3, 2))
    from exactpoker.solve.continuous.model import betting_model

    model = betting_model(exact.rules).exact()
    bet, check, fold, call = (0, 1), (1, 0), (1, 0), (0, 1)
    breaks = (0, Fraction(1, 9), Fraction(5, 9), Fraction(7, 9), 1)
    assert certify(model, PiecewiseProfile(breaks, ((bet, check, check, bet), (fold, fold, call, call)))).holds
    assert not certify(model, PiecewiseProfile(breaks, ((bet, check, check, bet), (call,) * 4))).holds


# -- the papers' commands are the engine ---------------------------------------------------------


def _json(capsys, *argv):
    assert main(list(argv) + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_three_player_game_of_seed_000_section_4(capsys):
    engine = _json(capsys, "solve", "library:three(b=2)", "--continuous")
    paper = _json(capsys, "three", "continuous", "--b", "2")
    polynomials = {cut["player"]: cut["minimal_polynomial"] for cut in engine["continuous"]["cut_points"]}
    x = sympy.Symbol("x")
    assert sympy.expand(sympy.sympify(polynomials["II"]).subs(x, sympy.Symbol("C"))
                        - sympy.sympify(paper["minimal_polynomial_of_c"])) == 0
    assert polynomials["II"] == polynomials["III"]
    assert engine["equilibria"][0]["approx"]["values"][0] == paper["value"][:12]


def test_goldman_stone_of_seed_002(capsys):
    engine = _json(capsys, "solve", "library:goldman_stone(a=3,b=2)", "--continuous")
    paper = _json(capsys, "goldman-stone", "--a", "3", "--b", "2")
    pieces = engine["equilibria"][0]["strategies"]["I"]["choose"]
    assert [p.get("action") or p["probabilities"] for p in pieces] == [
        "drop", {"b-fold": paper["strategy"]["(g, g')"]["b-fold"], "a": paper["strategy"]["(g, g')"]["a"]}, "a"]
    assert [pieces[1]["from"], pieces[1]["to"]] == [paper["cuts"]["g"], paper["cuts"]["g'"]]
    assert engine["equilibria"][0]["values"] == ["0", "0"]


# -- the library's classic games, against an independent derivation -------------------------------


def _pure_plans(result, player: str) -> dict[str, list[str]]:
    """The player's action on each interval of the common partition of both players' cut points."""
    breaks = sorted({0, 1, *(c.value for c in result.cut_points)})
    plans = {}
    for label, pieces in result.strategies[player].items():
        plans[label] = [next(p.action for p in pieces if p.start <= lo and hi <= p.end)
                        for lo, hi in zip(breaks, breaks[1:])]
    return plans, breaks


def _check_against_reference(result, payoff):
    """The engine's cut points satisfy the reference first-order conditions, and its value is the reference
    expected payoff there."""
    first, breaks = _pure_plans(result, result.player_names[0])
    second, _ = _pure_plans(result, result.player_names[1])
    symbols = [sympy.Symbol(f"g{k}") for k in range(1, len(breaks) - 1)]
    value = expected_payoff(payoff, first, second, [0, *symbols, 1])
    at = {s: _rational(v) for s, v in zip(symbols, breaks[1:-1])}
    assert value.subs(at) == _rational(result.value)
    owners = {s: [c.player for c in result.cut_points if c.value == v] for s, v in zip(symbols, breaks[1:-1])}
    for symbol in symbols:
        if owners[symbol] == [result.player_names[0]] or owners[symbol] == [result.player_names[1]]:
            assert sympy.diff(value, symbol).subs(at) == 0, symbol
    return value, symbols


def _la_relance_payoff(bet):
    def payoff(x, y, first_higher):
        if x["open"] == "fold":
            return -1
        if y["facing a bet"] == "fold":
            return 1
        return (1 + bet) if first_higher else -(1 + bet)
    return payoff


@pytest.mark.parametrize("bet", [Fraction(1, 2), Fraction(2), Fraction(5)])
def test_la_relance_against_its_derivation(bet):
    """I bets iff x > a, II calls iff y > c: indifference gives c = B/(B+2), a = c^2, value -c^2 (derived
    by hand: II at c, 2c - a - 1 = -(1 - a)/(1 + B); I at a, c - (1 + B)(1 - c) = -1)."""
    result = solve_continuous(la_relance(3, bet))
    b = _rational(bet)
    c = b / (b + 2)
    assert result.cut("I", "open", 1) == c**2 and result.cut("II", "facing a bet", 1) == c
    assert result.value == -c**2
    value, symbols = _check_against_reference(result, _la_relance_payoff(b))
    solved = solve_cuts(value, symbols[:1], symbols[1:])
    assert list(solved.values()) == [c**2, c]


def _kuhn_payoff(bet):
    def payoff(x, y, first_higher):
        win = 1 if first_higher else -1
        if x[""] == "b":
            return 1 if y["b"] == "f" else win * (1 + bet)
        if y["c"] == "c":
            return win
        return -1 if x["cb"] == "f" else win * (1 + bet)
    return payoff


@pytest.mark.parametrize("bet", [Fraction(1, 2), Fraction(1), Fraction(2), Fraction(3)])
def test_continuous_kuhn_against_the_reference(bet):
    result = solve_continuous(poker_game("kuhn", bet=bet))
    _check_against_reference(result, _kuhn_payoff(_rational(bet)))


def test_von_neumann_raise_and_sizes_against_the_reference():
    raised = solve_continuous(von_neumann_raise(3, Fraction(2)))

    def raise_payoff(x, y, first_higher):
        win = 1 if first_higher else -1
        if x["open"] == "check":
            return win
        response = y["facing a bet"]
        if response == "fold":
            return 1
        if response == "call":
            return 3 * win
        return -3 if x["facing a raise"] == "fold" else 5 * win

    _check_against_reference(raised, raise_payoff)
    sizes = solve_continuous(von_neumann_sizes(3, (Fraction(1), Fraction(2))))

    def sizes_payoff(x, y, first_higher):
        win = 1 if first_higher else -1
        if x["open"] == "check":
            return win
        size = int(x["open"].split()[1])
        return 1 if y[f"facing {size}"] == "fold" else (1 + size) * win

    _check_against_reference(sizes, sizes_payoff)


# -- finite decks approach the continuous game ----------------------------------------------------


@pytest.mark.parametrize("game", [von_neumann.game(3, 2), la_relance(3, Fraction(2)), poker_game("kuhn"),
                                  von_neumann_raise(3, Fraction(2)), von_neumann_sizes(3, (Fraction(1), Fraction(2))),
                                  poker_game("goldman_stone")],
                         ids=["vn", "la_relance", "kuhn", "vn_raise", "vn_sizes", "goldman_stone"])
def test_finite_deck_values_approach_the_continuous_value(game):
    value = float(solve_continuous(game).value)
    rules = continuous_deck(game)
    errors = [abs(float(solve_game(rules.on_cards(n)).value) - value) for n in (15, 30, 60, 120)]
    assert errors[-1] <= errors[0] and errors[-1] < 1 / 120 + 1e-12
    assert all(e < 1 / n for e, n in zip(errors, (15, 30, 60, 120)))


# -- families ------------------------------------------------------------------------------------


def test_von_neumann_family_ii_may_call_anywhere_in_a_b():
    result = solve_continuous(von_neumann.game(3, 2))
    [tie] = result.family.ties
    assert (tie.player, tie.start, tie.end) == ("II", Fraction(1, 9), Fraction(7, 9))
    assert dict(tie.measures) == {"fold": Fraction(4, 9), "call": Fraction(2, 9)}


# -- the answer a reader gets --------------------------------------------------------------------


def test_json_intervals_and_text(capsys):
    data = _json(capsys, "solve", "library:vn(b=2)", "--continuous")
    assert data["equilibria"][0]["strategies"]["I"]["open"] == [
        {"from": "0", "to": "1/9", "action": "bet"}, {"from": "1/9", "to": "7/9", "action": "check"},
        {"from": "7/9", "to": "1", "action": "bet"}]
    assert data["continuous"]["cut_points"][0] == {"player": "I", "infoset": "open", "index": 1, "exact": "1/9",
                                                   "approx": "0.111111111111", "minimal_polynomial": None}
    assert main(["solve", "library:three(b=2)", "--continuous"]) == 0
    text = capsys.readouterr().out
    assert "[≈ 0.6413041160, 1]: call" in text and "the root near it of x**8" in text


def test_plot_writes_the_strategy_diagram(tmp_path, capsys):
    path = tmp_path / "kuhn.png"
    assert main(["solve", "library:kuhn", "--continuous", "--plot", str(path)]) == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# -- a game no shape certifies is reported, not answered ------------------------------------------


def test_no_certified_shape_is_reported_with_what_was_tried():
    with pytest.raises(NoCertifiedShape) as raised:
        solve_continuous(poker_game("kuhn"), decks=(6,), max_shapes=1)
    assert raised.value.attempts and "1 tried" in str(raised.value)


# -- random one-card betting rules: solved and certified, or refused with a reason ----------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from exactpoker.core.game import BettingGame, Decision, Deck, Outcome  # noqa: E402

SIZES = st.sampled_from([Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3)])


@st.composite
def betting_rules(draw):
    """Two players, ante 1, at most two bets on any path: I folds or checks, or bets; II facing a bet folds, calls
    or (maybe) raises, then I folds or calls; after a check II (maybe) bets, then I folds or calls."""
    bet, raise_by, second = draw(SIZES), draw(SIZES), draw(SIZES)
    fold_first, may_raise, may_bet_back = draw(st.booleans()), draw(st.booleans()), draw(st.booleans())

    def showdown(i, ii):
        return Outcome((i, ii), (0, 1))

    respond = [("fold", Outcome((1 + bet, 1), (0,))), ("call", showdown(1 + bet, 1 + bet))]
    if may_raise:
        top = 1 + bet + raise_by
        respond.append(("raise", Decision(0, "raised", (("fold", Outcome((1 + bet, top), (1,))),
                                                       ("call", showdown(top, top))))))
    if fold_first:
        passive = ("fold", Outcome((1, 1), (1,)))
    elif may_bet_back:
        back = Decision(0, "check-bet", (("fold", Outcome((1, 1 + second), (1,))),
                                         ("call", showdown(1 + second, 1 + second))))
        passive = ("check", Decision(1, "checked", (("check", showdown(1, 1)), ("bet", back))))
    else:
        passive = ("check", showdown(1, 1))
    root = Decision(0, "open", (passive, ("bet", Decision(1, "bet", tuple(respond)))))
    return BettingGame("random", Deck(3), root, ("I", "II"))


def _solved_or_refused(rules):
    try:
        result = solve_continuous(rules)
    except NoCertifiedShape as refused:
        assert "certifies" in str(refused) and refused.attempts
        return
    assert result.certificate.holds
    finite = float(solve_game(continuous_deck(rules).on_cards(120)).value)
    assert abs(finite - float(result.value)) < 1 / 60


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=betting_rules())
def test_random_betting_rules_are_solved_or_refused(rules):
    _solved_or_refused(rules)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=betting_rules())
def test_many_random_betting_rules_are_solved_or_refused(rules):
    _solved_or_refused(rules)


# -- signs, fields, and La Relance in the bet ------------------------------------------------------


def test_signs_on_an_interval_are_exact():
    from exactpoker.algebraic import RealNumberField
    from exactpoker.solve.continuous.signs import nonnegative_on

    third, half = Fraction(1, 3), Fraction(1, 2)
    assert nonnegative_on((1, 3, 3, 1), 0, 1)[0]  # (x + 1)^3
    assert not nonnegative_on((-Fraction(2, 9), Fraction(11, 9), -2, 1), 0, 1)[0]  # (x - 1/3)(x - 2/3)(x - 1)
    assert nonnegative_on((third**2, -2 * third, 1), 0, 1)[0]  # (x - 1/3)^2 touches zero: quadratics decide it
    assert not nonnegative_on((Fraction(1, 4) - Fraction(1, 100), -1, 1), 0, 1)[0]  # dips below zero at its vertex
    root2 = RealNumberField([-2, 0, 1], 1, 2).generator  # sqrt(2)
    assert nonnegative_on((root2 - 1, -1), 0, root2 - 1)[0] and not nonnegative_on((root2 - 1, -1), 0, half)[0]
    # a cubic with a root at each end, positive inside: the roots are divided out exactly, Sturm decides the rest
    assert nonnegative_on((0, -1, 1 + third, -third), 0, 1)[0] is False  # x(x - 1)(1 - x/3) <= 0 on [0, 1]
    assert nonnegative_on((0, 1, -1 - third, third), 0, 1)[0]


def test_three_player_cut_points_in_the_field_of_c():
    from exactpoker.solve.algebra.roots import minimal_polynomial
    from exactpoker.solve.continuous.system import in_field_of

    result = solve_continuous(poker_game("three", b=2))
    c = result.cut("II", "facing bet")
    a, b, c2 = in_field_of([result.cut("I", "open", 1), result.cut("I", "open", 2), c], c)
    assert float(a) == pytest.approx(0.137058194328) and float(b) == pytest.approx(0.829422249795)
    x = sympy.Symbol("x")
    assert minimal_polynomial(c2, x) == minimal_polynomial(c, x) and c2.field.minimal_polynomial.degree() == 8


def test_la_relance_over_the_bet_is_its_hand_derivation():
    over = solve_over_continuous(lambda v: la_relance(3, v), "bet", Fraction(1, 2), Fraction(4))
    [piece] = over.pieces
    bet = sympy.Symbol("bet")
    assert sympy.cancel(piece.values[0] + (bet / (bet + 2)) ** 2) == 0
    assert sympy.cancel(piece.cuts["II:facing a bet:1"] - bet / (bet + 2)) == 0
