"""A continuous deck: one-card betting rules with every hand drawn uniformly from ``[0, 1]``.

The classic poker models (von Neumann's game, Borel's La Relance, seed 000
section 4's three-player game, Goldman and Stone's game, seed 002) deal each
player one "card" that is a real number, independent and uniform on
``[0, 1]``; the highest hand still in wins the pot, and two hands are equal
with probability zero.  Their rules are otherwise exactly those of a finite
one-card betting game: a betting tree of
:class:`~exactpoker.core.game.Decision` and
:class:`~exactpoker.core.game.Outcome` nodes, a player knowing their own hand
and the decision's label.  So a continuous game here is those rules and
another deck::

    >>> from exactpoker.games import von_neumann
    >>> game = continuous_deck(von_neumann.game(3, 2))     # the deck of 3 cards is replaced
    >>> game.deck, game.player_names
    (UniformDeck(), ('I', 'II'))
    >>> game.on_cards(9).deck.cards                        # the same rules on cards 1..9
    9

:func:`continuous_deck` takes a seed paper's
:class:`~exactpoker.core.game.BettingGame` or a poker-language
:class:`~exactpoker.core.poker.PokerGame` whose rules are a one-card betting
game (one hole card each, no board, the pot to the highest card; see
:func:`~exactpoker.core.poker_cards.card_game`), for two players or more,
with any bet sizes, raises, folds, checks and simultaneous moves (decisions
sharing a label).  Anything else is refused with one line saying why
(:class:`~exactpoker.errors.InvalidGameError`).  The engine that solves such a
game is :func:`exactpoker.solve.continuous.solve_continuous`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from exactpoker.core.game import BettingGame, Deck
from exactpoker.core.poker import PokerGame
from exactpoker.errors import InvalidGameError

__all__ = ["UniformDeck", "ContinuousGame", "continuous_deck"]


@dataclass(frozen=True)
class UniformDeck:
    """Each player's hand is an independent uniform draw from ``[0, 1]`` (ties have probability zero)."""

    def __str__(self) -> str:
        return "hands uniform on [0, 1]"


@dataclass(frozen=True)
class ContinuousGame:
    """One-card betting rules dealt from a :class:`UniformDeck`.

    Attributes
    ----------
    rules : BettingGame
        The betting: its tree, labels and outcomes (its own finite deck is not used).
    source : str
        How the game was named by the user (``"library:vn(b=2)"``), for messages and results.
    """

    rules: BettingGame
    source: str = ""
    deck: UniformDeck = field(default_factory=UniformDeck)

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def player_names(self) -> tuple[str, ...]:
        return self.rules.player_names

    @property
    def num_players(self) -> int:
        return self.rules.num_players

    @property
    def parameters(self) -> tuple[tuple[str, Any], ...]:
        """The rules' parameters but the finite deck's size (it is not part of the continuous game)."""
        return tuple((k, v) for k, v in self.rules.parameters if k not in ("n", "cards"))

    def on_cards(self, n: int) -> BettingGame:
        """The same rules on the finite deck ``1..n`` without replacement (no guide: the deck is all that changes)."""
        return replace(self.rules, deck=Deck(n), guide=None)


def continuous_deck(game: object, source: str = "") -> ContinuousGame:
    """``game``'s rules with hands uniform on ``[0, 1]`` (module docstring).

    Raises
    ------
    InvalidGameError
        If ``game`` is not a one-card betting game; the message says why in one line.
    """
    if isinstance(game, ContinuousGame):
        return game if not source else replace(game, source=source)
    name = source or str(getattr(game, "name", type(game).__name__))
    if isinstance(game, BettingGame):
        return ContinuousGame(game, source)
    if isinstance(game, PokerGame):
        from exactpoker.core.poker_cards import card_game, one_card_refusal

        reason = one_card_refusal(game)
        rules = card_game(game) if reason is None else None
        if rules is None:
            raise InvalidGameError(f"{name}: not a one-card betting game ({reason}); a continuous deck needs one")
        return ContinuousGame(rules, source)
    kind = type(game).__name__
    raise InvalidGameError(f"{name}: a continuous deck needs one-card betting rules (a BettingGame or a one-card "
                           f"PokerGame); got a {kind}")
