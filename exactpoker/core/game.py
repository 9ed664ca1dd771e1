"""The declarative description of a finite betting game.

A game is data: a :class:`Deck` (cards ``1..n``, dealt one per player with or
without replacement, every deal equally likely), a betting tree of
:class:`Decision` and :class:`Outcome` nodes, and nothing else.  Solvers never
look at this description directly; they work on the
:class:`~exactpoker.core.compiled.CompiledGame` that
:func:`~exactpoker.core.compiler.compile_game` makes from it.

Information
-----------
A player who moves at a :class:`Decision` knows their own card and the node's
``label``, nothing more.  Two decisions of the same player with the same label
are one information set per card: that is how simultaneous moves
(Goldman--Stone) and players who do not see each other's choice (three-player
poker, seed 000 section 4) are described.  The compiler checks that such nodes
offer the same actions and that the player has perfect recall.

Payoffs
-------
An :class:`Outcome` lists what each player has put into the pot (antes
included) and which players are still in.  The pot goes to the highest card
among those still in (``showdown=True``; equal highest cards split it), or is
split equally among them (``showdown=False``, e.g. antes returned after
everybody passed).  A player's payoff is their share of the pot minus their
contribution, so every such game is zero-sum.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Callable, Union

from exactpoker.errors import InvalidGameError

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.core.tree import GameTree, TreeNode

__all__ = ["Deck", "Decision", "Outcome", "Node", "BettingGame"]


@dataclass(frozen=True)
class Deck:
    """Cards ``1..cards``; each player is dealt one card, every deal equally likely.

    Parameters
    ----------
    cards : int
        Number of distinct card values.
    replacement : bool
        ``False``: the players' cards are distinct (a real deck, seed 000).
        ``True``: each player's card is drawn independently, so ties are
        possible (the Euler notes, seed 004; Nash--Shapley, seed 001).
    """

    cards: int
    replacement: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.cards, int) or self.cards < 1:
            raise InvalidGameError(f"Deck(): cards must be a positive integer; got {self.cards!r}")


@dataclass(frozen=True)
class Outcome:
    """A leaf of the betting tree.

    Parameters
    ----------
    contributions : tuple of Fraction
        What each player has put into the pot, antes included.
    active : tuple of int
        The players still in the hand (0-based), in increasing order.
    showdown : bool
        Whether the pot goes to the best card among ``active`` (ties split) or
        is shared equally among them.
    """

    contributions: tuple[Fraction, ...]
    active: tuple[int, ...]
    showdown: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "contributions", tuple(Fraction(c) for c in self.contributions))
        if not self.active:
            raise InvalidGameError("Outcome(): at least one player must still be in")
        if tuple(sorted(set(self.active))) != tuple(self.active):
            raise InvalidGameError(f"Outcome(): active must be increasing player indices; got {self.active}")

    def payoffs(self, cards: tuple[int, ...]) -> tuple[Fraction, ...]:
        """Each player's payoff at this leaf when the players hold ``cards``."""
        pot = sum(self.contributions, Fraction(0))
        if self.showdown:
            best = max(cards[p] for p in self.active)
            winners = [p for p in self.active if cards[p] == best]
        else:
            winners = list(self.active)
        return tuple(
            (pot / len(winners) if p in winners else Fraction(0)) - c for p, c in enumerate(self.contributions)
        )


@dataclass(frozen=True)
class Decision:
    """A node where ``player`` chooses one of ``actions``.

    Parameters
    ----------
    player : int
        The player to move (0-based).
    label : str
        The node's name.  Together with the player's own card it is everything
        the player knows here; see the module docstring.
    actions : tuple of (str, Node)
        The action names and the subtrees they lead to.  For two-action nodes
        list the passive action first (check, fold) and the aggressive one
        second (bet, call): the behaviour variable of a node is the
        probability of its last action.
    """

    player: int
    label: str
    actions: tuple[tuple[str, "Node"], ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if len(self.actions) < 2:
            raise InvalidGameError(f"Decision {self.label!r}: needs at least two actions")
        names = [name for name, _ in self.actions]
        if len(set(names)) != len(names):
            raise InvalidGameError(f"Decision {self.label!r}: action names repeat: {names}")

    @property
    def action_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.actions)


Node = Union[Decision, Outcome]


@dataclass(frozen=True)
class BettingGame:
    """A finite betting game: players, deck and betting tree.

    Parameters
    ----------
    name : str
        A short identifier used in results and JSON (``"von-neumann"``).
    deck : Deck
        How the cards are dealt.
    root : Node
        The betting tree.
    player_names : tuple of str
        Display names, one per player (``("I", "II")``).
    parameters : dict
        The parameters the game was built from, for display and JSON only.
    guide : callable, optional
        What the game's paper suggests to a solver's float guide (e.g. the
        continuous game's cut points for a large deck), called with no
        arguments when a solver wants it; floats and shapes only, never an
        answer (the solver's exact finish and certificate decide).  Not part
        of the game: games that differ only here are equal.
    """

    name: str
    deck: Deck
    root: Node
    player_names: tuple[str, ...]
    parameters: tuple[tuple[str, object], ...] = ()
    guide: Callable[[], object] | None = field(default=None, compare=False, repr=False)

    @property
    def num_players(self) -> int:
        return len(self.player_names)

    def __post_init__(self) -> None:
        if not self.deck.replacement and self.deck.cards < self.num_players:
            raise InvalidGameError(
                f"{self.name}: a deck of {self.deck.cards} cards cannot deal "
                f"{self.num_players} distinct cards"
            )

    @property
    def num_deals(self) -> int:
        """How many deals there are: ``n**k`` with replacement, ``n (n - 1) ... (n - k + 1)`` without."""
        n, k = self.deck.cards, self.num_players
        return n**k if self.deck.replacement else math.perm(n, k)

    def deals(self) -> list[tuple[int, ...]]:
        """Every deal (one card per player, 1-based), all equally likely, in lexicographic order."""
        cards = range(1, self.deck.cards + 1)
        if self.deck.replacement:
            return list(itertools.product(cards, repeat=self.num_players))
        return list(itertools.permutations(cards, self.num_players))

    def tree(self) -> "GameTree":
        """The game as a :class:`~exactpoker.core.tree.GameTree`: a chance node deals, then the betting tree.

        A player's information set is keyed ``"card:label"`` (own card and the
        node's label, as the module docstring says a player knows), the key
        :meth:`~exactpoker.core.compiled.PlayerLayout.infoset_name` gives the
        compiled card game, so strategies read the same either way.
        """
        from exactpoker.core.tree import Chance, GameTree

        deals = self.deals()
        probability = Fraction(1, len(deals))
        outcomes = tuple((",".join(map(str, deal)), probability, _deal_tree(self.root, deal)) for deal in deals)
        return GameTree(self.name, self.player_names, Chance(outcomes, "deal"), self.parameters)


def _deal_tree(node: Node, deal: tuple[int, ...]) -> "TreeNode":
    """The betting tree below one deal, as tree nodes."""
    from exactpoker.core.tree import Move, Terminal

    if isinstance(node, Outcome):
        return Terminal(node.payoffs(deal))
    return Move(node.player, f"{deal[node.player]}:{node.label}",
                tuple((name, _deal_tree(child, deal)) for name, child in node.actions))
