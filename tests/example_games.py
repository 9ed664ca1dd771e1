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


def leduc_tree(*, suits: bool = True, ranks: int = 3) -> GameTree:
    """Leduc Hold'em with OpenSpiel's rules (``leduc_poker``; Southey et al. 2005).

    Deck J J Q Q K K (cards ``0..5``, rank ``card // 2``); each player antes 1
    and gets one private card; a betting round; one public card; a second
    betting round.  The first player acts first in both rounds.  A round allows
    at most two raises, of 2 in the first round and 4 in the second; a player
    may fold only when facing a raise, and a round ends when a raise is called
    or both players check.  At the showdown a pair with the public card wins,
    else the higher rank; equal ranks split the pot.

    With ``suits`` (OpenSpiel's information sets) a player sees card ids, so
    the two jacks are different cards: 468 information sets and 1093
    sequences per player.  Without, a player sees only ranks (the same game up
    to relabelling, hence the same value): 144 information sets each.
    ``ranks`` other than 3 give the larger decks of the literature's scaled
    Leduc variants (two cards of each of the ``ranks`` ranks up to the king).
    """
    raises = (2, 4)
    names = tuple(f"{rank}{suit}" for rank in "23456789TJQK"[-ranks:] for suit in "12")
    deck = range(len(names))

    def seen(card: int) -> str:
        return names[card] if suits else names[card][0]

    def showdown(cards: tuple[int, int], board: int, stake: int) -> Terminal:
        ranks = [c // 2 for c in cards]
        strength = [(r == board // 2, r) for r in ranks]
        won = 0 if strength[0] == strength[1] else (stake if strength[0] > strength[1] else -stake)
        return Terminal((won, -won))

    def betting(cards: tuple[int, int], board: int | None, before: str, history: str, spent: tuple[int, int]):
        """The node after ``history`` in the current round; ``spent`` is each player's total contribution."""
        player = len(history) % 2
        facing = history.endswith("r")
        if board is None:
            key = f"{seen(cards[player])}:{history}"
        else:
            key = f"{seen(cards[player])}{seen(board)}:{before}/{history}"
        actions = []
        if facing:
            loss = spent[player]
            actions.append(("f", Terminal((-loss, loss) if player == 0 else (loss, -loss))))
        matched = (max(spent),) * 2
        if facing or history == "c":  # a call of a raise, or the second check, ends the round
            actions.append(("c", next_round(cards, board, history + "c", matched)))
        else:
            actions.append(("c", betting(cards, board, before, history + "c", matched)))
        if history.count("r") < 2:
            raised = list(spent)
            raised[player] = max(spent) + raises[0 if board is None else 1]
            actions.append(("r", betting(cards, board, before, history + "r", (raised[0], raised[1]))))
        return Move(player, key, tuple(actions))

    def next_round(cards: tuple[int, int], board: int | None, history: str, spent: tuple[int, int]):
        if board is not None:
            return showdown(cards, board, spent[0])
        left = [c for c in deck if c not in cards]
        return Chance(
            tuple((names[b], Fraction(1, len(left)), betting(cards, b, history, "", spent)) for b in left), "board"
        )

    def deal_second(first: int):
        return Chance(
            tuple(
                (names[c], Fraction(1, len(deck) - 1), betting((first, c), None, "", "", (1, 1)))
                for c in deck
                if c != first
            ),
            "second card",
        )

    root = Chance(tuple((names[c], Fraction(1, len(deck)), deal_second(c)) for c in deck), "first card")
    return GameTree("leduc", ("P1", "P2"), root, (("suits", suits), ("ranks", ranks)))


def sequence_form_entries(compiled, rename=None) -> dict:
    """A compiled game's exact payoff entries keyed by each player's own history of (information set, action).

    Two compilations of the same game agree on this up to names: ``rename(player,
    infoset, action) -> (infoset, action)`` translates one game's names into the other's.
    """
    def history(player: int, sequence: int) -> tuple:
        layout, steps = compiled.layouts[player], []
        while sequence:
            infoset = layout.sequence_infoset[sequence]
            name = layout.infoset_name(infoset)
            action = layout.infoset_actions(infoset)[sequence - layout.infoset_sequences(infoset).start]
            steps.append(rename(player, name, action) if rename else (name, action))
            sequence = layout.parent_sequence(infoset)
        return tuple(reversed(steps))

    entries: dict = {}
    for sequences, coefficients in zip(compiled.sequences.tolist(), compiled.coefficients.tolist()):
        key = tuple(history(p, s) for p, s in enumerate(sequences))
        assert key not in entries
        entries[key] = tuple(Fraction(int(c), compiled.denominator) for c in coefficients)
    return entries
