"""The sequence form of a Liar's Dice end game straight from its rules, as integer arrays.

:meth:`LiarsDice.compiled() <exactpoker.games.liars_dice.LiarsDice.compiled>`
calls :func:`compile_dice`.  The result is identical to
``compile_tree(game.tree())`` (:func:`exactpoker.core.tree.compile_tree`: the
same layouts, entries, coefficients and denominator, in the same order) but no
tree node is built: the bidding is the same after every deal, so its ``2^B``
histories are enumerated once (:class:`Bidding`) and tiled over the deals with
numpy.

How ``compile_tree`` orders a tree walked depth first, and so this module:

* player 1's information sets in the order of their rolls, each roll's in the
  pre-order of player 1's bidding nodes; player 2's likewise (each is first
  met after player 1's first roll);
* each information set's actions are consecutive sequences, numbered in that
  order; a parent sequence is the player's own previous bid;
* the entries, one per call leaf and deal (every one has both players' last
  sequences, so no two leaves share an entry), by player 1's roll, then player
  2's, then the leaves in the post-order of the bidding nodes that are called
  (a call is the last action of its node);
* each entry's payoff to player 1 is ``+-w1 w2 / (T1 T2)`` (``w`` a roll's
  number of ordered rolls, ``T`` all of them), over the least common
  denominator of the reduced fractions.

References
----------
B. von Stengel, "Efficient computation of behavior strategies", Games and
Economic Behavior 14 (1996), section 3: sequences, realization plans and the
sparse payoff matrix of the sequence form.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

import numpy as np

from exactpoker.core.compiled import CompiledGame, TreeLayout
from exactpoker.core.tree import GameTree

__all__ = ["CALL", "Bidding", "DiceRules", "compile_dice", "roll_name"]

#: The call that ends the game (snyd's "snyd").
CALL = "call"

_INT64_SAFE = 2**62  # compile_tree's bound for int64 coefficients


def roll_name(roll: tuple[int, ...]) -> str:
    """A roll as its information sets show it: ``(2, 1)`` -> ``"2,1"``."""
    return ",".join(map(str, roll))


class DiceRules(Protocol):
    """What the compiler reads of the rules (:class:`~exactpoker.games.liars_dice.LiarsDice` has it)."""

    sides: int
    dice: tuple[int, int]

    def bids(self) -> tuple[tuple[int, int], ...]: ...

    def rolls(self, player: int) -> tuple[tuple[int, ...], ...]: ...

    def weight(self, roll: tuple[int, ...]) -> int: ...

    def counts(self, roll: tuple[int, ...], face: int) -> int: ...


@dataclass(frozen=True)
class Bidding:
    """The bidding tree after one deal, as arrays over its ``2^B`` nodes in pre-order.

    Attributes
    ----------
    bids : int
        The number of bids ``B``.
    last : numpy.ndarray
        The index of each node's last bid (-1 at the root).
    parent : numpy.ndarray
        Each node's parent node (-1 at the root).
    depth : numpy.ndarray
        The number of bids so far; the mover is ``depth % 2``.
    postorder : numpy.ndarray
        The nodes in post-order (children before their parent).
    histories : list of str
        Each node's bids so far, as ``"1x2 2x3"``.
    """

    bids: int
    last: np.ndarray
    parent: np.ndarray
    depth: np.ndarray
    postorder: np.ndarray
    histories: list[str]

    @classmethod
    def of(cls, names: list[str]) -> "Bidding":
        """Enumerate the increasing bid sequences of the bids ``names`` (lowest first) depth first."""
        last, parent, depth, histories, post = [], [], [], [], []

        def visit(bid: int, up: int, level: int, history: str) -> None:
            node = len(last)
            last.append(bid)
            parent.append(up)
            depth.append(level)
            histories.append(history)
            prefix = history + " " if history else history
            for j in range(bid + 1, len(names)):
                visit(j, node, level + 1, prefix + names[j])
            post.append(node)

        visit(-1, -1, 0, "")
        return cls(len(names), *(np.array(values, dtype=np.int64) for values in (last, parent, depth, post)),
                   histories)

    @property
    def actions(self) -> np.ndarray:
        """Each node's number of actions: the higher bids, and a call after the first bid."""
        return self.bids - 1 - self.last + (self.last >= 0)

    def offsets(self, player: int) -> tuple[np.ndarray, np.ndarray, int]:
        """``player``'s nodes (pre-order), each node's first action's number among ``player``'s actions
        after one roll, and their total."""
        mine = np.flatnonzero(self.depth % 2 == player)
        widths = self.actions[mine]
        starts = np.zeros(len(self.last), dtype=np.int64)
        starts[mine] = np.cumsum(widths) - widths
        return mine, starts, int(widths.sum())

    def bid_action(self, node: np.ndarray) -> np.ndarray:
        """The action number, at each node's parent, of the bid that leads to the node."""
        return self.last[node] - self.last[self.parent[node]] - 1


def compile_dice(game: DiceRules, tree: GameTree) -> CompiledGame:
    """The sequence form of ``game`` from its rules (see the module docstring); ``tree`` becomes its ``game``."""
    names = [f"{count}x{face}" for count, face in game.bids()]
    bidding = Bidding.of(names)
    rolls = (game.rolls(0), game.rolls(1))
    plans = [bidding.offsets(p) for p in (0, 1)]
    layouts = tuple(_layout(bidding, names, rolls[p], plans[p]) for p in (0, 1))
    sequences, values, denominator = _entries(game, bidding, rolls, plans)
    coefficients = np.stack([values, -values], axis=1)
    return CompiledGame(tree, layouts, sequences, coefficients, denominator)


def _layout(bidding: Bidding, names: list[str], rolls: tuple[tuple[int, ...], ...],
            plan: tuple[np.ndarray, np.ndarray, int]) -> TreeLayout:
    """A player's information sets (``plan``: :meth:`Bidding.offsets`): every roll, then every own node;
    parents are own previous bids."""
    mine, starts, width = plan
    choices: dict[int, tuple[str, ...]] = {}
    for bid in np.unique(bidding.last[mine]).tolist():
        choices[bid] = tuple(names[bid + 1:]) + ((CALL,) if bid >= 0 else ())
    actions = [choices[bid] for bid in bidding.last[mine].tolist()]
    above = bidding.parent[np.maximum(bidding.parent[mine], 0)]  # own previous node (-1 below depth 2)
    local = np.where(bidding.depth[mine] >= 2,
                     starts[np.maximum(above, 0)] + bidding.bid_action(np.maximum(bidding.parent[mine], 0)), -1)
    histories = [bidding.histories[n] for n in mine.tolist()]
    all_names, all_actions, all_parents = [], [], []
    for r, roll in enumerate(rolls):
        seen = roll_name(roll) + "|"
        all_names.extend(seen + history for history in histories)
        all_actions.extend(actions)
        all_parents.append(np.where(local >= 0, 1 + r * width + local, 0))
    parents = np.concatenate(all_parents).tolist() if all_parents else []
    return TreeLayout(tuple(all_names), tuple(all_actions), tuple(parents))


def _entries(game: DiceRules, bidding: Bidding, rolls: tuple[tuple[tuple[int, ...], ...], ...],
             plans: list[tuple[np.ndarray, np.ndarray, int]]) -> tuple[np.ndarray, np.ndarray, int]:
    """Every (deal, call) entry's sequences and player 1's payoff numerators, and the common denominator."""
    called = bidding.postorder[bidding.last[bidding.postorder] >= 0]  # the nodes with a call, leaves' order
    caller = bidding.depth[called] % 2
    call_local = [plans[p][1][called] + bidding.actions[called] - 1 for p in (0, 1)]
    bid_local = [plans[p][1][bidding.parent[called]] + bidding.bid_action(called) for p in (0, 1)]
    local = [np.where(caller == p, call_local[p], bid_local[p]) for p in (0, 1)]
    bidder_sign = np.where(caller == 1, 1, -1)  # +1 when player 1 made the called bid
    bids = game.bids()
    counts = [np.array([[game.counts(roll, face) for _, face in bids] for roll in side], dtype=np.int64)
              for side in rolls]
    need = np.array([count for count, _ in bids], dtype=np.int64)
    holds = counts[0][:, None, :] + counts[1][None, :, :] >= need  # (roll 1, roll 2, bid)
    weights = [np.array([game.weight(roll) for roll in side], dtype=object) for side in rolls]
    totals = [game.sides**k for k in game.dice]
    chance = [[Fraction(int(a) * int(b), totals[0] * totals[1]) for b in weights[1]] for a in weights[0]]
    denominator = math.lcm(1, *(q.denominator for row in chance for q in row))
    scale = np.array([[int(q * denominator) for q in row] for row in chance], dtype=np.int64)
    r1, r2, leaves = len(rolls[0]), len(rolls[1]), len(called)
    widths = (plans[0][2], plans[1][2])
    first = [1 + np.arange(n, dtype=np.int64) * width for n, width in zip((r1, r2), widths)]
    sequences = np.empty((r1, r2, leaves, 2), dtype=np.int64)
    sequences[..., 0] = first[0][:, None, None] + local[0][None, None, :]
    sequences[..., 1] = first[1][None, :, None] + local[1][None, None, :]
    signs = np.where(holds[:, :, bidding.last[called]], bidder_sign, -bidder_sign)
    values = (signs * scale[:, :, None]).reshape(-1)
    if int(scale.max()) >= _INT64_SAFE // max(1, len(values)):  # as compile_tree: Python ints when int64 might not do
        values = values.astype(object)
    return sequences.reshape(-1, 2), values, denominator
