"""Range dominance read off the rules (exactpoker.solve.structure.dominance): the card game's test against the tree's."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.core.tree import Chance, GameTree, Move, Terminal
from exactpoker.games.papers import kuhn3
from exactpoker.games import von_neumann
from exactpoker.solve.structure.dominance import card_range_dominance, range_dominated


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


def _random_tree(data, depth=0):
    """A random tree whose information sets span several nodes (named by player, depth and a drawn tag, the
    action count fixed by the name), with zero-probability chance outcomes and shared subtrees."""
    kind = data.draw(st.sampled_from(["leaf", "move", "move", "chance"] if depth < 3 else ["leaf"]))
    if kind == "leaf":
        return Terminal(tuple(data.draw(st.integers(-3, 3)) for _ in range(2)))
    if kind == "chance":
        shared = _random_tree(data, depth + 1)
        zero = _random_tree(data, depth + 1)
        return Chance((("a", Fraction(1, 2), shared), ("b", Fraction(1, 2), shared), ("z", Fraction(0), zero)))
    player, tag = data.draw(st.integers(0, 1)), data.draw(st.integers(0, 1))
    arity = 2 + tag
    return Move(player, f"{player}:{depth}:{tag}", tuple((f"m{a}", _random_tree(data, depth + 1)) for a in range(arity)))


def _leaves(node):
    if isinstance(node, Terminal):
        return [node.payoffs]
    if isinstance(node, Move):
        return [leaf for _, child in node.actions for leaf in _leaves(child)]
    return [leaf for _, prob, child in node.outcomes if prob > 0 for leaf in _leaves(child)]


def _decisions(node):
    if isinstance(node, Move):
        yield node
    children = [c for _, c in node.actions] if isinstance(node, Move) else \
        [] if isinstance(node, Terminal) else [c for _, prob, c in node.outcomes if prob > 0]
    for child in children:
        yield from _decisions(child)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_range_dominance_is_its_definition_node_by_node(data):
    """Against the module docstring's definition, leaf by leaf: at every node of the information set, the worst
    payoff below the kept action is at least the best below the dropped one (a kept action is never dropped)."""
    root = Move(0, "root", (("l", _random_tree(data, 1)), ("r", _random_tree(data, 1))))
    tree = GameTree("random", ("P1", "P2"), root)
    holds = {}
    for node in _decisions(root):
        below = [[leaf[node.player] for leaf in _leaves(child)] for _, child in node.actions]
        verdict = holds.setdefault((node.player, node.infoset), {})
        for keep, kept in enumerate(below):
            for drop, dropped in enumerate(below):
                if keep != drop:
                    verdict[(keep, drop)] = verdict.get((keep, drop), True) and min(kept) >= max(dropped)
    expected = {}
    for key, verdict in holds.items():
        dropped = {}
        for (keep, drop), dominates in sorted(verdict.items()):
            if dominates and drop not in dropped and keep not in dropped:
                dropped[drop] = keep
        if dropped:
            expected[key] = dropped
    assert range_dominated(tree) == expected
