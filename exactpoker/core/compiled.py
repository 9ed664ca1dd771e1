"""A compiled betting game: exact multilinear payoffs in sequence form.

Each player's choices are indexed as *sequences* (von Stengel's sequence form):
sequence 0 is the empty one; every other sequence is one action at one
information set ``(card, node label)``, the last own move on the way to a
leaf.  The payoff of player ``p`` under a behaviour profile is

.. math::

    u_p = \\frac{1}{D} \\sum_e c_{e,p} \\prod_q r_q(s_{e,q}),

where the sum runs over the aggregated entries ``e`` of the game, ``s_{e,q}``
is player ``q``'s sequence in that entry, ``r_q(s)`` its realization weight
(the product of ``q``'s behaviour probabilities along ``s``) and the integer
coefficients ``c`` share one common denominator ``D``.  Written out in the
behaviour probabilities this is the multilinear payoff polynomial of the
papers (see :meth:`CompiledGame.payoff_polynomials`).

Layouts: every player's information sets and sequences are described by a
:class:`SequenceLayout`, the only view of them that solvers and the
certificate use.  Two kinds exist.  A card game
(:class:`~exactpoker.core.game.BettingGame`) has a :class:`PlayerLayout`:
player ``p`` has node labels ``labels[p]``; the information set of card ``c``
(1-based) at label number ``l`` has index ``(c-1) * len(labels[p]) + l`` and
its ``a``-th action is sequence ``1 + (c-1) * K_p + offset_p[l] + a``, where
``K_p`` counts the actions over all of ``p``'s labels.  A game given as a tree
(:class:`~exactpoker.core.tree.GameTree`: the game language, Gambit files,
OpenSpiel) has a :class:`TreeLayout` that lists its information sets by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Callable

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    import sympy

    from exactpoker.core.flat_tree import FlatTree
    from exactpoker.core.game import BettingGame
    from exactpoker.core.tree import GameTree

__all__ = ["SequenceLayout", "PlayerLayout", "TreeLayout", "CompiledGame", "entry_keys"]


class SequenceLayout:
    """The interface every player layout offers the solvers and the certificate.

    Information sets are numbered ``0..num_infosets-1`` so that an information
    set comes after the one holding its parent sequence; the actions of
    information set ``I`` are the consecutive sequences
    :meth:`infoset_sequences` ``(I)``; sequence 0 is the empty sequence.
    Subclasses give :attr:`num_infosets`, :attr:`num_sequences`,
    :meth:`infoset_sequences`, :meth:`parent_sequence`,
    :meth:`infoset_actions` and :meth:`infoset_name`.
    """

    num_infosets: int
    num_sequences: int

    def infoset_sequences(self, infoset: int) -> range:  # pragma: no cover - abstract
        raise NotImplementedError

    def parent_sequence(self, infoset: int) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def infoset_actions(self, infoset: int) -> tuple[str, ...]:  # pragma: no cover - abstract
        raise NotImplementedError

    def infoset_name(self, infoset: int) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    @cached_property
    def children(self) -> tuple[tuple[int, ...], ...]:
        """For each sequence, the information sets that directly follow it."""
        kids: list[list[int]] = [[] for _ in range(self.num_sequences)]
        for infoset in range(self.num_infosets):
            kids[self.parent_sequence(infoset)].append(infoset)
        return tuple(tuple(k) for k in kids)

    @cached_property
    def sequence_infoset(self) -> tuple[int, ...]:
        """For each sequence, the information set it is an action of (-1 for the empty sequence)."""
        owner = [-1] * self.num_sequences
        for infoset in range(self.num_infosets):
            for s in self.infoset_sequences(infoset):
                owner[s] = infoset
        return tuple(owner)


@dataclass(frozen=True)
class PlayerLayout(SequenceLayout):
    """Where one player's information sets and sequences live in a card game.

    Attributes
    ----------
    labels : tuple of str
        The player's decision-node labels, in tree order.
    actions : tuple of tuple of str
        The action names at each label.
    parent : tuple of (int, int) or None
        For each label, the player's own previous ``(label index, action
        index)`` on every path to it (perfect recall), or ``None`` at a first
        decision.
    cards : int
        Number of card values.
    """

    labels: tuple[str, ...]
    actions: tuple[tuple[str, ...], ...]
    parent: tuple[tuple[int, int] | None, ...]
    cards: int
    offsets: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        offsets, total = [], 0
        for acts in self.actions:
            offsets.append(total)
            total += len(acts)
        object.__setattr__(self, "offsets", tuple(offsets))

    @property
    def actions_per_card(self) -> int:
        """``K_p``: the number of sequences one card contributes."""
        return sum(len(a) for a in self.actions)

    @property
    def num_infosets(self) -> int:  # type: ignore[override]
        return self.cards * len(self.labels)

    @property
    def num_sequences(self) -> int:  # type: ignore[override]
        return 1 + self.cards * self.actions_per_card

    def infoset(self, card: int, label: int) -> int:
        """Index of the information set of ``card`` (1-based) at label number ``label``."""
        return (card - 1) * len(self.labels) + label

    def infoset_card_label(self, infoset: int) -> tuple[int, int]:
        """Inverse of :meth:`infoset`: ``(card, label index)``."""
        card0, label = divmod(infoset, len(self.labels))
        return card0 + 1, label

    def sequence(self, card: int, label: int, action: int) -> int:
        """Index of the sequence "at ``card``, label ``label``, play ``action``"."""
        return 1 + (card - 1) * self.actions_per_card + self.offsets[label] + action

    def parent_sequence(self, infoset: int) -> int:
        """The player's own sequence leading to ``infoset`` (0 if none)."""
        card, label = self.infoset_card_label(infoset)
        prev = self.parent[label]
        return 0 if prev is None else self.sequence(card, *prev)

    def infoset_sequences(self, infoset: int) -> range:
        """The sequences ``(infoset, a)`` for each action ``a``."""
        card, label = self.infoset_card_label(infoset)
        first = self.sequence(card, label, 0)
        return range(first, first + len(self.actions[label]))

    def infoset_actions(self, infoset: int) -> tuple[str, ...]:
        return self.actions[self.infoset_card_label(infoset)[1]]

    def infoset_name(self, infoset: int) -> str:
        card, label = self.infoset_card_label(infoset)
        return f"{card}:{self.labels[label]}"


@dataclass(frozen=True, eq=False)
class TreeLayout(SequenceLayout):
    """One player's information sets listed explicitly (a game given as a tree).

    Attributes
    ----------
    names : tuple of str
        Each information set's key, as the game names it (unique per player).
    actions : tuple of tuple of str
        The action names at each information set.
    parents : tuple of int
        Each information set's parent sequence (0 for a first decision).
    """

    names: tuple[str, ...]
    actions: tuple[tuple[str, ...], ...]
    parents: tuple[int, ...]
    firsts: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        firsts, total = [], 1
        for acts in self.actions:
            firsts.append(total)
            total += len(acts)
        object.__setattr__(self, "firsts", tuple(firsts))

    @property
    def num_infosets(self) -> int:  # type: ignore[override]
        return len(self.names)

    @cached_property
    def num_sequences(self) -> int:  # type: ignore[override]
        return 1 + sum(len(a) for a in self.actions)  # once: the solvers ask for it often (24,571 on Liar's Dice)

    def infoset_sequences(self, infoset: int) -> range:
        first = self.firsts[infoset]
        return range(first, first + len(self.actions[infoset]))

    def parent_sequence(self, infoset: int) -> int:
        return self.parents[infoset]

    def infoset_actions(self, infoset: int) -> tuple[str, ...]:
        return self.actions[infoset]

    def infoset_name(self, infoset: int) -> str:
        return self.names[infoset]

    @cached_property
    def index(self) -> dict[str, int]:
        """Information set number by name."""
        return {name: i for i, name in enumerate(self.names)}


@dataclass(frozen=True, eq=False)
class CompiledGame:
    """Exact sequence-form payoffs of a finite game.

    Attributes
    ----------
    game : BettingGame or GameTree
        The description this was compiled from (both have ``name``,
        ``player_names`` and ``parameters``).
    layouts : tuple of SequenceLayout
        One per player: :class:`PlayerLayout` for a card game,
        :class:`TreeLayout` for a tree.
    sequences : numpy.ndarray, shape (E, players), int64
        Each entry's sequence per player.
    coefficients : numpy.ndarray, shape (E, players)
        Integer payoff numerators (int64, or Python ints in an object array
        when int64 could overflow).
    denominator : int
        The common denominator ``D`` of every coefficient.
    flat : callable, optional
        Gives ``game``'s tree as a :class:`~exactpoker.core.flat_tree.FlatTree`
        without building its nodes, when the compiler read the game's rules
        (:func:`~exactpoker.core.poker_compile.compile_poker`); ``None`` otherwise.
    """

    game: "BettingGame | GameTree"
    layouts: "tuple[PlayerLayout, ...] | tuple[TreeLayout, ...]"
    sequences: np.ndarray
    coefficients: np.ndarray
    denominator: int
    flat: "Callable[[], FlatTree] | None" = field(default=None, repr=False)

    @property
    def num_players(self) -> int:
        return len(self.layouts)

    @property
    def player_names(self) -> tuple[str, ...]:
        return self.game.player_names

    @property
    def cards(self) -> int:
        return self.game.deck.cards

    @cached_property
    def is_zero_sum(self) -> bool:
        """Whether the payoffs sum to zero in every entry."""
        totals = self.coefficients.sum(axis=1)
        return bool(np.all(totals == 0))

    def payoff_matrix(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Player 0's sequence-form payoff entries of a two-player game.

        Returns
        -------
        rows, cols, values : numpy.ndarray
            Coordinates and integer numerators (over :attr:`denominator`) of
            the sparse matrix ``A`` with ``u_0 = x^T A y / D``.
        """
        return self.sequences[:, 0], self.sequences[:, 1], self.coefficients[:, 0]

    def payoff_polynomials(self) -> "list[sympy.Expr]":
        """The payoff of each player as a sympy polynomial in behaviour variables.

        The variable ``x[p, card, label]`` of a two-action node is the
        probability of its last (aggressive) action; a node with more actions
        has one variable per action but the first, ``x[p, card, label, action]``,
        and the first action's probability is one minus their sum.  Meant for
        small games: the polynomial has one term per entry.
        """
        from exactpoker.core.polynomials import payoff_polynomials

        return payoff_polynomials(self)


def entry_keys(sequences: np.ndarray, radices: "tuple[int, ...]") -> "np.ndarray | None":
    """Each row of sequence numbers (one per player) as one int64 in mixed radix ``radices`` (each player's
    number of sequences), or None when the keys would not fit in int64.

    Equal rows get equal keys and the keys sort as the rows do (lexicographically), so sorting, matching and
    merging entries takes one 1-D sort instead of a sort of rows.
    """
    total = 1
    for radix in radices:
        total *= radix
    if total >= 2**63:
        return None
    keys = np.zeros(len(sequences), dtype=np.int64)
    for q, radix in enumerate(radices):
        keys = keys * radix + sequences[:, q].astype(np.int64)
    return keys

