"""Export a betting game to Gambit's extensive-form text format (``.efg``, version 2, rational).

The tree starts with one chance node that deals every possible deal with its
exact probability; below each deal the betting tree is repeated, with each
decision in the information set ``(player, own card, node label)``.  Payoffs
are the exact rationals of each leaf.  Open the file in Gambit (or
``pygambit.read_efg``) to use its solvers on the same game.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from exactpoker.core.game import BettingGame, Decision, Node, Outcome
from exactpoker.numbers import exact_str

__all__ = ["to_efg"]


def _quote(text: str) -> str:
    return '"' + text.replace('"', "'") + '"'


def _deals(game: BettingGame) -> list[tuple[int, ...]]:
    cards = range(1, game.deck.cards + 1)
    deals = itertools.product(cards, repeat=game.num_players)
    if game.deck.replacement:
        return list(deals)
    return [d for d in deals if len(set(d)) == game.num_players]


def to_efg(game: BettingGame) -> str:
    """The game as the text of a Gambit ``.efg`` file."""
    deals = _deals(game)
    probability = exact_str(Fraction(1, len(deals)))
    players = " ".join(_quote(name) for name in game.player_names)
    params = ", ".join(f"{k}={exact_str(v) if isinstance(v, (int, Fraction)) else v}" for k, v in game.parameters)
    lines = [f"EFG 2 R {_quote(f'{game.name}({params})')} {{ {players} }}", '""', ""]
    branches = " ".join(f"{_quote(','.join(map(str, d)))} {probability}" for d in deals)
    lines.append(f'c "deal" 1 "deal" {{ {branches} }} 0')
    infosets: dict[tuple[int, int, str], int] = {}
    outcome_count = [0]

    def emit(node: Node, cards: tuple[int, ...]) -> None:
        if isinstance(node, Outcome):
            outcome_count[0] += 1
            payoffs = ", ".join(exact_str(v) for v in node.payoffs(cards))
            lines.append(f't "" {outcome_count[0]} "" {{ {payoffs} }}')
            return
        assert isinstance(node, Decision)
        key = (node.player, cards[node.player], node.label)
        number = infosets.setdefault(key, 1 + sum(1 for k in infosets if k[0] == node.player))
        name = f"{game.player_names[node.player]}: card {cards[node.player]}, {node.label}"
        actions = " ".join(_quote(a) for a in node.action_names)
        lines.append(f"p \"\" {node.player + 1} {number} {_quote(name)} {{ {actions} }} 0")
        for _, child in node.actions:
            emit(child, cards)

    for deal in deals:
        emit(game.root, deal)
    return "\n".join(lines) + "\n"
