"""The exact core: the game description, its compiler and payoff polynomials."""

from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.core import BehaviourProfile, BettingGame, Decision, Deck, Outcome, compile_game
from exactpoker.core.evaluate import sequence_values
from exactpoker.formats.efg import to_efg
from exactpoker.errors import InvalidGameError
from exactpoker.games import von_neumann
from tests.strategies import bets


def _expected_value(game: BettingGame, tables) -> list[Fraction]:
    """Brute-force expected payoffs by walking the tree for every deal (independent of the compiler)."""
    n, k = game.deck.cards, game.num_players
    import itertools

    deals = [d for d in itertools.product(range(1, n + 1), repeat=k) if game.deck.replacement or len(set(d)) == k]
    totals = [Fraction(0)] * k

    def walk(node, cards, prob):
        if isinstance(node, Outcome):
            for p, v in enumerate(node.payoffs(cards)):
                totals[p] += prob * v
            return
        dist = tables[node.player][node.label][cards[node.player] - 1]
        for (_, child), q in zip(node.actions, dist):
            if q:
                walk(child, cards, prob * q)

    for deal in deals:
        walk(game.root, deal, Fraction(1, len(deals)))
    return totals


def test_chance_and_zero_sum_structure():
    g = von_neumann.compiled(5, 2)
    assert g.is_zero_sum
    assert g.denominator % (5 * 4) == 0
    # player I: one label with 2 actions per card; player II likewise
    assert [layout.num_sequences for layout in g.layouts] == [11, 11]
    assert [layout.num_infosets for layout in g.layouts] == [5, 5]


def test_paper_payoff_bilinear_form():
    """Seed 000 section 2, PayOffP1P2: the payoff as a bilinear form in p_i and q_j."""
    n, b = 4, sympy.Integer(3)
    g = von_neumann.compiled(n, 3)
    poly = g.payoff_polynomials()[0]
    p = [sympy.Symbol(f"I_open_{i}") for i in range(1, n + 1)]
    q = [sympy.Symbol(f"II_facing_a_bet_{j}") for j in range(1, n + 1)]
    total = 0
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            if i == j:
                continue
            sign = 1 if i > j else -1
            total += sign * (1 - p[i - 1]) + p[i - 1] * (1 - q[j - 1]) + sign * (b + 1) * p[i - 1] * q[j - 1]
    assert sympy.expand(poly - total / (n * (n - 1))) == 0


@settings(deadline=None, max_examples=25)
@given(n=st.integers(2, 5), b=bets, data=st.data())
def test_compiled_payoff_equals_tree_walk(n, b, data):
    """Sequence-form payoffs agree with a direct walk of the tree for random behaviour."""
    game = von_neumann.game(n, b)
    g = compile_game(game)
    probs = st.fractions(min_value=0, max_value=1, max_denominator=7)
    bet = [data.draw(probs) for _ in range(n)]
    call = [data.draw(probs) for _ in range(n)]
    tables = [{"open": [(1 - x, x) for x in bet]}, {"facing a bet": [(1 - x, x) for x in call]}]
    profile = BehaviourProfile.from_tables(g, [{"open": bet}, {"facing a bet": call}])
    weights = [profile.realization(g, p) for p in range(2)]
    values = [sequence_values(g, p, weights).value(weights[p]) for p in range(2)]
    assert values == _expected_value(game, tables)


def _three_player_game(replacement: bool, b: Fraction = Fraction(2)) -> BettingGame:
    """A small three-player game with ties and a simultaneous (hidden) response."""
    third = lambda contrib_two: Decision(  # noqa: E731
        2, "facing a bet",
        (("fold", Outcome((1 + b, contrib_two, 1), (0, 1) if contrib_two > 1 else (0,))),
         ("call", Outcome((1 + b, contrib_two, 1 + b), (0, 1, 2) if contrib_two > 1 else (0, 2)))),
    )
    second = Decision(1, "facing a bet", (("fold", third(1)), ("call", third(1 + b))))
    root = Decision(0, "open", (("check", Outcome((1, 1, 1), (0, 1, 2))), ("bet", second)))
    return BettingGame("three", Deck(4, replacement=replacement), root, ("I", "II", "III"))


@pytest.mark.parametrize("b", [Fraction(2), Fraction(1, 2), Fraction(3, 4)])
@pytest.mark.parametrize("replacement", [False, True])
def test_three_player_compile_matches_tree_walk(replacement, b):
    """Ties split pots with fractional stakes exactly (a pot of 9/2 shared by two, say)."""
    game = _three_player_game(replacement, b)
    g = compile_game(game)
    assert g.is_zero_sum
    bet = [Fraction(1, 3), 0, Fraction(1, 2), 1]
    call = [0, Fraction(1, 4), Fraction(2, 3), 1]
    profile = BehaviourProfile.from_tables(g, [{"open": bet}, {"facing a bet": call}, {"facing a bet": call}])
    weights = [profile.realization(g, p) for p in range(3)]
    values = [sequence_values(g, p, weights).value(weights[p]) for p in range(3)]
    tables = [{"open": [(1 - x, x) for x in bet]}] + [{"facing a bet": [(1 - x, x) for x in call]}] * 2
    assert values == _expected_value(game, tables)
    assert sum(values) == 0


def test_invalid_games_are_rejected():
    with pytest.raises(InvalidGameError):
        Deck(0)
    with pytest.raises(InvalidGameError):
        Decision(0, "x", (("only", Outcome((1, 1), (0, 1))),))
    clash = Decision(
        0, "open",
        (("check", Decision(1, "r", (("a", Outcome((1, 1), (0, 1))), ("b", Outcome((1, 1), (0, 1)))))),
         ("bet", Decision(1, "r", (("a", Outcome((1, 1), (0, 1))), ("c", Outcome((1, 1), (0, 1)))))))
    )
    with pytest.raises(InvalidGameError, match="different actions"):
        compile_game(BettingGame("clash", Deck(3), clash, ("I", "II")))
    forgetful = Decision(
        0, "open",
        (("check", Decision(0, "again", (("a", Outcome((1, 1), (0, 1))), ("b", Outcome((1, 1), (0, 1)))))),
         ("bet", Decision(1, "r", (("x", Decision(0, "again", (("a", Outcome((1, 1), (0, 1))), ("b", Outcome((1, 1), (0, 1)))))),
                                  ("y", Outcome((1, 1), (0, 1)))))))
    )
    with pytest.raises(InvalidGameError, match="perfect recall"):
        compile_game(BettingGame("forgetful", Deck(3), forgetful, ("I", "II")))
    with pytest.raises(InvalidGameError):
        BettingGame("tiny", Deck(1), Outcome((1, 1), (0, 1)), ("I", "II"))


def test_efg_export_lists_every_deal_and_exact_payoffs():
    text = to_efg(von_neumann.game(3, Fraction(5, 2)))
    lines = text.splitlines()
    assert lines[0].startswith('EFG 2 R "von-neumann(n=3, b=5/2)" { "I" "II" }')
    chance = next(line for line in lines if line.startswith("c "))
    assert chance.count("1/6") == 6
    terminals = [line for line in lines if line.startswith("t ")]
    assert len(terminals) == 6 * 3
    assert any("{ 7/2, -7/2 }" in line for line in terminals)
    # information sets: 3 per player
    assert len({line.split('"')[3] for line in lines if line.startswith("p ")}) == 6


def test_efg_payoffs_match_compiled_values():
    """Read the .efg back and evaluate a profile: same value as the compiled game."""
    game = von_neumann.game(4, 3)
    g = compile_game(game)
    bet, call = [Fraction(1, 2), 0, Fraction(1, 3), 1], [0, Fraction(1, 5), 1, 1]
    profile = BehaviourProfile.from_tables(g, [{"open": bet}, {"facing a bet": call}])
    weights = [profile.realization(g, p) for p in range(2)]
    expected = sequence_values(g, 0, weights).value(weights[0])

    lines = [line for line in to_efg(game).splitlines() if line[:2] in ("c ", "p ", "t ")]
    position = 0

    def evaluate(cards):
        nonlocal position
        line = lines[position]
        position += 1
        if line.startswith("t "):
            return Fraction(line.split("{")[1].split(",")[0].strip())
        player = int(line.split()[2])
        card = cards[player - 1]
        prob = bet[card - 1] if player == 1 else call[card - 1]
        first = evaluate(cards)
        second = evaluate(cards)
        return (1 - prob) * first + prob * second

    chance = lines[0]
    position = 1
    deals = [tuple(int(c) for c in part.split('"')[0].split(",")) for part in chance.split('{')[1].split('"')[1::2]]
    total = sum(evaluate(deal) for deal in deals) / len(deals)
    assert total == expected
