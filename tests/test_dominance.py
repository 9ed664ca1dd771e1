"""Range dominance read off the rules (exactpoker.solve.dominance): the card game's test against the tree's."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.games import kuhn3, von_neumann
from exactpoker.solve.dominance import card_range_dominance, range_dominated


@settings(max_examples=12, deadline=None)
@given(st.integers(2, 6), st.fractions(min_value=Fraction(1, 4), max_value=5, max_denominator=4))
def test_the_card_games_test_is_the_trees(n, b):
    """Von Neumann poker (one node per label): deal by deal on the rules = information set by set on the tree."""
    rules = von_neumann.game(n, b)
    found = range_dominated(rules.tree())
    for player, label in ((0, von_neumann.OPEN), (1, von_neumann.RESPOND)):
        for card in range(1, n + 1):
            verdict = [card_range_dominance(rules, label, card, keep)[1] for keep in (0, 1)]
            dropped = found.get((player, f"{card}:{label}"), {})
            for keep in (0, 1):
                if dropped.get(1 - keep) == keep:
                    assert verdict[keep]
                if verdict[keep] and not verdict[1 - keep]:
                    assert dropped == {1 - keep: keep}


def test_the_seeds_22_choices_are_proved():
    """Seed 003 section 2 at N = 6, P = 5: every listed choice dominated, card 2 strictly at 6, 9, 12."""
    proofs = kuhn3.dominance_proofs(6, 5)
    assert len(proofs) == 22 and all(p.dominates for p in proofs)
    assert all(card_range_dominance(kuhn3.game(6, 5), str(node), 2, 0)[2] for node in (6, 9, 12))
    assert not any(card_range_dominance(kuhn3.game(6, 5), str(node), 2, 0)[1] for node in (4, 5, 7, 8, 10, 11))
