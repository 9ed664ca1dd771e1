"""The poker language (core/poker.py): deals, betting, views, payoffs, and cross-checks with the papers' models."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.core import Betting, Card, CardDeck, Deal, PokerGame, View, high_card, pairs_then_high_card
from exactpoker.core.tree import Chance, Terminal, compile_tree
from exactpoker.errors import InvalidGameError, InvalidParameterError, NotZeroSumError
from exactpoker.games.papers.nash_shapley import payoffs as nash_shapley
from exactpoker.games.papers import von_neumann
from exactpoker.solve import solve_game
from tests.example_games import sequence_form_entries

KUHN = dict(players=2, deck=CardDeck("JQK"), steps=[Deal(hole=1), Betting(sizes=1, max_bets=1)], ante=1)


def kuhn(**changes) -> PokerGame:
    return PokerGame("kuhn", **{**KUHN, **changes})


def test_kuhn_value_and_the_family_of_the_first_player():
    """Kuhn (1950): player 1 bets J with alpha, K with 3 alpha, calls with Q with alpha + 1/3, alpha in [0, 1/3]."""
    result = solve_game(kuhn(), family=True)
    assert result.value == Fraction(-1, 18) and result.equilibria[0].certified
    family = result.details["optimal strategies"]["P1"]
    assert family["dimension"] == 1 and family["value"] == Fraction(-1, 18)
    alphas = []
    for vertex in family["vertices"]:
        alpha = vertex["J|"][1]
        assert vertex["K|"][1] == 3 * alpha and vertex["Q|cb"][1] == alpha + Fraction(1, 3)
        assert vertex["Q|"] == [1, 0] and vertex["J|cb"] == [1, 0]
        alphas.append(alpha)
    assert sorted(alphas) == [0, Fraction(1, 3)]
    second = result.details["optimal strategies"]["P2"]
    assert second["dimension"] == 0  # player 2's optimal strategy is unique


@pytest.mark.parametrize("n, b", [(3, 1), (5, 2), (6, Fraction(3, 2))])
def test_von_neumann_rules_give_the_seed_000_model(n, b):
    """One card each from 1..n, ante 1; only I may bet (b); II folds or calls: seed 000's von Neumann poker."""
    game = PokerGame("vn", 2, CardDeck.numbered(n), [Deal(hole=1), Betting(sizes=b, max_bets=1, bettors=[0])])
    ours = compile_tree(game.tree())

    def rename(player, infoset, action):  # "3:open" / "3:facing a bet"
        card, label = infoset.split(":")
        return f"{card}|{'' if label == von_neumann.OPEN else 'b'}", {"check": "c", "bet": "b", "fold": "f",
                                                                       "call": "c"}[action]

    assert sequence_form_entries(ours) == sequence_form_entries(von_neumann.compiled(n, b), rename)
    assert solve_game(ours).value == von_neumann.equilibrium(n, b).value


@pytest.mark.parametrize("ante, bet", [(1, 2), (2, 1), (3, 5)])
def test_nash_shapley_with_replacement_and_an_explicit_payoff(ante, bet):
    """Seed 001: High/Low cards with replacement, three players; three passes return the antes (a payoff rule)."""
    def payoff(s):
        if s.history == ("ccc",):
            return (0, 0, 0)
        best = max(s.hands[p][0].rank for p in s.active)
        winners = [p for p in s.active if s.hands[p][0].rank == best]
        return tuple((s.pot / len(winners) if p in winners else 0) - c for p, c in enumerate(s.contributions))

    game = PokerGame("ns", 3, CardDeck.numbered(2), [Deal(hole=1, replacement=True), Betting(bet, 1)], ante=ante,
                     payoff=payoff)

    def rename(player, infoset, action):
        card, label = infoset.split(":")
        history, facing = "", False
        for bid in "" if label == nash_shapley.OPEN else label:
            history += ("fc" if facing else "cb")[bid == "B"]
            facing = facing or bid == "B"
        return f"{card}|{history}", {"pass": "c", "bet": "b", "fold": "f", "call": "c"}[action]

    ours = compile_tree(game.tree())
    assert ours.is_zero_sum
    assert sequence_form_entries(ours) == sequence_form_entries(nash_shapley.compiled(ante, bet), rename)


def _chance_probabilities(node):
    return {name: p for name, p, _ in node.outcomes}


def test_deals_without_and_with_replacement():
    deck = CardDeck("JQK", copies=2)  # J J Q Q K K
    steps = [Deal(hole=1), Betting()]
    root = PokerGame("g", 2, deck, steps).tree().root
    assert _chance_probabilities(root) == {"J": Fraction(1, 3), "Q": Fraction(1, 3), "K": Fraction(1, 3)}
    after_jack = root.outcomes[0][2]
    assert _chance_probabilities(after_jack) == {"J": Fraction(1, 5), "Q": Fraction(2, 5), "K": Fraction(2, 5)}
    root = PokerGame("g", 2, deck, [Deal(hole=1, replacement=True), Betting()]).tree().root
    assert _chance_probabilities(root.outcomes[0][2]) == _chance_probabilities(root)
    # one card of each: without replacement the second card is one of the other two
    root = PokerGame("g", 2, CardDeck("JQK"), steps).tree().root
    assert _chance_probabilities(root.outcomes[2][2]) == {"J": Fraction(1, 2), "Q": Fraction(1, 2)}


def test_a_board_card_between_rounds_with_suits():
    game = PokerGame("g", 2, CardDeck("JQ", suits=2), [Deal(hole=1), Betting(), Deal(board=1), Betting(2)])
    root = game.tree().root
    assert set(_chance_probabilities(root)) == {"Js", "Jh", "Qs", "Qh"}
    compiled = compile_tree(game.tree())
    assert "Js:Qh|cc/cb" in compiled.layouts[0].index and "Jh:Js|bc/b" in compiled.layouts[1].index
    hidden = compile_tree(PokerGame("g", 2, CardDeck("JQ", suits=2), game.steps, view=View(suits=False)).tree())
    assert "J:Q|cc/cb" in hidden.layouts[0].index and hidden.layouts[0].num_infosets < compiled.layouts[0].num_infosets
    # suits nobody sees are the same game as identical copies
    copies = compile_tree(PokerGame("g", 2, CardDeck("JQ", copies=2), game.steps).tree())
    assert sequence_form_entries(hidden) == sequence_form_entries(copies)


def test_rankings():
    j, q, k = (Card(r, 0, n, n) for r, n in enumerate("JQK"))
    assert high_card((k,), (j,)) > high_card((q,), (j,))
    assert pairs_then_high_card((j,), (j,)) > pairs_then_high_card((k,), (j,))  # a pair beats a high card
    assert pairs_then_high_card((q,), (q,)) > pairs_then_high_card((j,), (j,))
    assert pairs_then_high_card((k, q), ()) > pairs_then_high_card((k, j), ())
    assert pairs_then_high_card((j, j), (k,)) > pairs_then_high_card((k, q), (j,))


def _leaves(node, path=()):
    if isinstance(node, Terminal):
        yield path, node.payoffs
    elif isinstance(node, Chance):
        for name, _, child in node.outcomes:
            yield from _leaves(child, path + (name,))
    else:
        for name, child in node.actions:
            yield from _leaves(child, path + (name,))


def test_ties_split_the_pot_and_the_board_pairs():
    game = PokerGame("g", 2, CardDeck("JQK", copies=2), [Deal(hole=1), Betting(), Deal(board=1), Betting()],
                     ranking=pairs_then_high_card)
    leaves = dict(_leaves(game.tree().root))
    assert leaves[("J", "J", "c", "c", "K", "b", "c")] == (0, 0)  # equal hands split
    assert leaves[("J", "K", "c", "c", "J", "c", "c")] == (1, -1)  # J pairs the board, beats K
    assert leaves[("J", "K", "b", "c", "Q", "c", "b", "c")] == (-3, 3)  # no pair: K wins 1 + 1 + 1
    assert leaves[("J", "K", "b", "f")] == (1, -1)


def test_three_players_folded_players_drop_out():
    game = PokerGame("g", 3, CardDeck("JQKA"), [Deal(hole=1), Betting()])
    leaves = dict(_leaves(game.tree().root))
    assert leaves[("J", "Q", "K", "b", "f", "c")] == (-2, -1, 3)  # K called J's bet and wins; Q folded
    assert leaves[("A", "Q", "K", "b", "f", "f")] == (2, -1, -1)
    assert leaves[("J", "Q", "K", "c", "c", "c")] == (-1, -1, 2)
    compiled = compile_tree(game.tree())
    assert compiled.is_zero_sum and compiled.layouts[0].index["J|ccb"] is not None


def test_blinds_face_a_bet_and_raises_are_capped():
    game = PokerGame("g", 2, CardDeck("JQK"), [Deal(hole=1), Betting(sizes=2, max_bets=2)], ante=(1, 2))
    layouts = compile_tree(game.tree()).layouts
    assert layouts[0].infoset_actions(layouts[0].index["K|"]) == ("f", "c", "b")  # the small blind faces the big
    assert layouts[0].infoset_actions(layouts[0].index["K|br"]) == ("f", "c")  # two bets made: no more raises
    assert "K|c" in layouts[1].index  # the big blind may still bet after a call


def test_rake_and_explicit_payoffs_are_not_zero_sum():
    raked = compile_tree(kuhn(rake=Fraction(1, 10)).tree())
    assert not raked.is_zero_sum
    with pytest.raises(NotZeroSumError):
        solve_game(raked, method="lp")
    cooperative = compile_tree(kuhn(payoff=lambda s: (len(s.history[0]), len(s.history[0]))).tree())
    assert not cooperative.is_zero_sum


def test_explicit_key():
    blind = View(key=lambda s: ("" if s.player == 1 else str(s.hands[0][0])) + "|" + s.history[0])
    compiled = compile_tree(kuhn(view=blind).tree())
    assert sorted(compiled.layouts[1].names) == ["|b", "|c"]  # player 2 never sees their card
    assert solve_game(compiled).value > 0  # and player 1 profits


def test_perfect_recall_violation_names_the_information_set():
    forgetful = View(key=lambda s: f"{s.hands[s.player][0]}{s.board[0] if s.board else ''}|{s.history[-1]}")
    steps = [Deal(hole=1), Betting(), Deal(board=1), Betting()]  # the key forgets the first round's betting
    game = PokerGame("forgetful", 2, CardDeck("JQ", copies=2), steps, view=forgetful)
    with pytest.raises(InvalidGameError, match="information set 'JQ\\|' of player P1 is reached after different own "
                                               "moves.*perfect recall"):
        compile_tree(game.tree())


@pytest.mark.parametrize("changes, message", [
    ({"players": 1}, "players must be an integer >= 2"),
    ({"deck": CardDeck("J")}, "deck has 1 cards; the deals need 2"),
    ({"steps": [Deal(hole=1)]}, "at least one Betting"),
    ({"ante": Fraction(-1)}, "ante must be"),
    ({"ante": (1, 2, 3)}, "ante must be"),
    ({"rake": 1}, r"rake must be in \[0, 1\)"),
    ({"payoff": lambda s: (0, 0), "rake": Fraction(1, 2)}, "either payoff or ranking"),
    ({"steps": [Deal(hole=1), Betting(first=2)]}, "first must be a seat 0..1"),
    ({"player_names": ("a", "a")}, "player_names"),
    ({"ante": 0.5}, "float"),
])
def test_bad_parameters(changes, message):
    with pytest.raises(InvalidParameterError, match=message):
        kuhn(**changes)


@pytest.mark.parametrize("build, message", [
    (lambda: Betting(sizes=(1, -1)), "sizes must be"),
    (lambda: Betting(max_bets=-1), "max_bets"),
    (lambda: Deal(), "deals no card"),
    (lambda: Deal(hole=-1), "hole must be"),
    (lambda: CardDeck(""), "ranks must be non-empty"),
    (lambda: CardDeck("JQ", suits=0), "suits must be"),
    (lambda: CardDeck("JQ", copies=0), "copies must be"),
])
def test_bad_pieces(build, message):
    with pytest.raises(InvalidParameterError, match=message):
        build()


def test_payoff_of_the_wrong_length():
    with pytest.raises(InvalidGameError, match="payoff\\(\\) returned 1 values for 2 players"):
        kuhn(payoff=lambda s: (0,)).tree()


@settings(max_examples=12, deadline=None)
@given(n=st.integers(2, 4), sizes=st.sets(st.sampled_from([Fraction(1, 2), Fraction(1), Fraction(2), Fraction(3)]),
                                          min_size=1, max_size=3),
       max_bets=st.integers(1, 2), replacement=st.booleans())
def test_random_ladders_are_zero_sum_and_certified(n, sizes, max_bets, replacement):
    """The deal is symmetric, so letting the second player act first mirrors the game: the value changes sign."""
    def ladder(first):
        steps = [Deal(hole=1, replacement=replacement), Betting(sorted(sizes), max_bets, first=first)]
        return compile_tree(PokerGame("ladder", 2, CardDeck.numbered(n), steps).tree())

    compiled = ladder(0)
    assert compiled.is_zero_sum
    result = solve_game(compiled)
    [eq] = result.equilibria
    assert eq.certified and eq.values[0] == -eq.values[1]
    assert solve_game(compiled, method="simplex").value == result.value
    assert solve_game(ladder(1)).value == -result.value


def test_a_multiset_deck_with_unequal_counts():
    deck = CardDeck("JQQK")
    assert deck.size == 4 and deck.counts == (1, 2, 1) and [c.name for c in deck.cards] == ["J", "Q", "K"]
    root = PokerGame("g", 2, deck, [Deal(hole=1), Betting()]).tree().root
    assert _chance_probabilities(root) == {"J": Fraction(1, 4), "Q": Fraction(1, 2), "K": Fraction(1, 4)}
    assert _chance_probabilities(root.outcomes[1][2]) == {"J": Fraction(1, 3), "Q": Fraction(1, 3),
                                                           "K": Fraction(1, 3)}


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(ranks=st.integers(2, 3), players=st.integers(2, 3), max_bets=st.integers(0, 2),
       board=st.booleans(), rake=st.sampled_from([Fraction(0), Fraction(1, 10)]))
def test_hidden_suits_are_identical_copies(ranks, players, max_bets, board, rake):
    """Two suits nobody sees give exactly the sequence form of a deck with two identical copies of each rank."""
    steps = [Deal(hole=1), Betting(sizes=1, max_bets=max_bets)]
    if board:
        steps += [Deal(board=1), Betting(sizes=2, max_bets=max_bets)]
    names = "JQK"[:ranks]
    hidden = PokerGame("g", players, CardDeck(names, suits=2), steps, view=View(suits=False),
                       ranking=pairs_then_high_card, rake=rake)
    copies = PokerGame("g", players, CardDeck(names, copies=2), steps, ranking=pairs_then_high_card, rake=rake)
    compiled = compile_tree(hidden.tree())
    assert sequence_form_entries(compiled) == sequence_form_entries(compile_tree(copies.tree()))
    assert compiled.is_zero_sum == (rake == 0)  # every pot is raked


def _nodes_pass_their_checks(root) -> int:
    """Rebuild every inner node through its checking constructor (the builder skips the checks); the count."""
    from exactpoker.core.tree import Move

    count, stack = 0, [root]
    while stack:
        node = stack.pop()
        if isinstance(node, Chance):
            Chance(node.outcomes, node.label)  # exact probabilities summing to one
            stack.extend(child for _, _, child in node.outcomes)
        elif isinstance(node, Move):
            Move(node.player, node.infoset, node.actions)  # distinct action names
            stack.extend(child for _, child in node.actions)
        count += 1
    return count


@settings(max_examples=8, deadline=None)
@given(spread=st.sampled_from([(1, 1), (2, 1), (1, 2)]), players=st.integers(2, 3),
       sizes=st.sets(st.sampled_from([Fraction(1, 2), Fraction(1), Fraction(2)]), min_size=1, max_size=2),
       max_bets=st.integers(0, 1), replacement=st.booleans())
def test_built_nodes_pass_the_checks_they_skip(spread, players, sizes, max_bets, replacement):
    """The poker builder makes its chance and decision nodes without their checks: they would all pass."""
    deck = CardDeck("TJQK"[:players + 1], suits=spread[0], copies=spread[1])  # enough cards for every deal
    steps = [Deal(hole=1, replacement=replacement), Betting(sorted(sizes), max_bets)]
    if players == 2:  # a board and a second round (with three players the tree would take seconds)
        steps += [Deal(board=1, replacement=replacement), Betting(sorted(sizes), max_bets, first=1)]
    game = PokerGame("g", players, deck, steps, ranking=pairs_then_high_card)
    assert _nodes_pass_their_checks(game.tree().root) > 1
