"""Small games built as explicit trees, shared by the tests (factories, not fixtures)."""

from __future__ import annotations

import itertools
from fractions import Fraction

from exactpoker.core.tree import Chance, GameTree, Move, Terminal


def kuhn_tree() -> GameTree:
    """Two-player Kuhn poker (Kuhn 1950): cards J < Q < K, ante 1, one bet of 1; value -1/18 for the first player."""
    folded = {"pbp": (-1, 1), "bp": (1, -1)}
    stakes = {"pp": 1, "pbb": 2, "bb": 2}

    def node(history: str, deal: tuple[int, int]):
        if history in folded:
            return Terminal(folded[history])
        if history in stakes:
            won = stakes[history] if deal[0] > deal[1] else -stakes[history]
            return Terminal((won, -won))
        player = len(history) % 2
        key = "JQK"[deal[player]] + history
        return Move(player, key, (("p", node(history + "p", deal)), ("b", node(history + "b", deal))))

    deals = list(itertools.permutations(range(3), 2))
    return GameTree("kuhn", ("P1", "P2"), Chance(tuple((str(d), Fraction(1, 6), node("", d)) for d in deals), "deal"))


def matrix_tree(payoffs: list[list[tuple[Fraction, ...]]], name: str = "matrix") -> GameTree:
    """A bimatrix game as a tree: the row player moves, then the column player without seeing the row."""
    rows = [
        (f"r{i}", Move(1, "cols", tuple((f"c{j}", Terminal(cell)) for j, cell in enumerate(row))))
        for i, row in enumerate(payoffs)
    ]
    return GameTree(name, ("row", "column"), Move(0, "rows", tuple(rows)))
