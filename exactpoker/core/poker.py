"""The poker language: a finite poker-like game in a few lines of Python, built into a :class:`GameTree`.

A :class:`PokerGame` is a deck, the players' antes, a list of steps and a way
to settle the pot.  The steps run in order; each is either a :class:`Deal`
(cards to every player still in, and/or to the board, as chance nodes with
exact probabilities) or a :class:`Betting` round.  So chance can come anywhere:
a board card between two betting rounds is ``Deal(board=1)`` between two
``Betting`` steps.  :meth:`PokerGame.tree` builds the :class:`GameTree`;
:func:`~exactpoker.core.poker_compile.compile_poker` compiles the rules straight
to its sequence form (what :func:`~exactpoker.core.tree.compile_tree` gives, no
tree built), and :func:`~exactpoker.solve.engine.dispatch.solve_game` picks the
method from the compiled game and certifies every answer.  Example, Kuhn poker:

>>> kuhn = PokerGame("kuhn", players=2, deck=CardDeck("JQK"), ante=1,
...                  steps=[Deal(hole=1), Betting(sizes=1, max_bets=1)])
>>> from exactpoker.solve import solve_game
>>> result = solve_game(kuhn)
>>> result.value, result.equilibria[0].strategies["P2"]["K|b"]
(-1/18, [0, 1])

Cards
    :class:`CardDeck` is a multiset of :class:`Card` (rank, suit): ranks are
    listed from lowest to highest, ``suits`` gives distinct cards of each rank
    (Leduc: ``CardDeck("JQK", suits=2)``), a repeated rank or ``copies``
    identical ones (``CardDeck("JQQK")``; Leduc with suits nobody can see is
    ``CardDeck("JQK", copies=2)``: a smaller tree, the same game).  A chance
    node has one outcome per distinct card left, with probability
    (copies left) / (cards left); with ``Deal(replacement=True)`` the cards
    dealt stay in the deck (independent draws).

Betting
    In a round, players act in seat order from ``first`` (folded players
    skipped).  Not facing a bet a player checks (``c``) or bets (``b``);
    facing one they fold (``f``), call (``c``) or raise (``r``).  A bet or
    raise puts the player ``size`` above the highest contribution so far; a
    round allows ``max_bets`` bets and raises in all, and only the
    ``bettors`` may make them.  The round ends when everybody still in has
    acted since the last bet; the hand ends when one player is left.  A player
    whose only legal action is to check does so without a decision node.  With
    several sizes the actions are named ``b2``, ``r4`` and so on.

Information
    By default a player knows their own cards, the board and the whole betting
    (their :class:`View`); the information-set label is
    ``own cards[:board]|history`` with the rounds separated by ``/``, e.g.
    ``"K|b"`` (Kuhn, king, facing a bet) or ``"Q:K|cbrc/c"`` (Leduc, queen in
    the hand, king on the board, second round after a check).  ``View(suits=False)``
    hides suits; ``View(key=...)`` gives any other key, a function of the
    :class:`Situation`.  Perfect recall is checked by
    :func:`~exactpoker.core.tree.compile_tree`, naming the information set.

Payoffs
    Antes and bets go into the pot.  When one player is left, or at the
    showdown to the best hand by ``ranking`` among the players still in (equal
    hands split the pot), minus a ``rake`` (a fraction of every pot, which makes
    the game non-zero-sum).  ``ranking(hole, board)`` returns anything
    comparable (:func:`high_card`, :func:`pairs_then_high_card` or your own);
    ``payoff(situation)`` replaces all of this with an explicit payoff vector at
    every end of the hand.  Whether the game is zero-sum is read from the
    compiled game (:attr:`~exactpoker.core.compiled.CompiledGame.is_zero_sum`).

References
----------
H. W. Kuhn, "A simplified two-person poker", Contributions to the Theory of
Games I (1950); F. Southey et al., "Bayes' bluff: opponent modelling in
poker", UAI 2005 (Leduc Hold'em); D. Koller, N. Megiddo, B. von Stengel,
Games and Economic Behavior 14 (1996) (the sequence form the tree compiles to).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, NamedTuple, Sequence, Union

from exactpoker import progress
from exactpoker.core.tree import Chance, GameTree, Move, Terminal, TreeNode, paused_gc, unchecked
from exactpoker.errors import InvalidGameError, InvalidParameterError
from exactpoker.numbers import exact_str, to_fraction

__all__ = [
    "Card",
    "CardDeck",
    "Deal",
    "Betting",
    "View",
    "Situation",
    "PokerGame",
    "high_card",
    "pairs_then_high_card",
]


@dataclass(frozen=True, order=True)
class Card:
    """One card: ``rank`` and ``suit`` are 0-based (rank 0 is the lowest); ``name`` is how it prints."""

    rank: int
    suit: int
    name: str = field(compare=False)
    rank_name: str = field(compare=False)

    def __str__(self) -> str:
        return self.name


class CardDeck:
    """A multiset of cards.

    Parameters
    ----------
    ranks : str or sequence of str
        The rank names from lowest to highest: ``"JQK"`` or ``["1", "2", "10"]``;
        a name given again is one more identical card (``"JQQK"``: two queens).
    suits : int or str or sequence of str
        Distinct cards per rank: a count (named ``s h d c`` up to four, else
        ``1 2 3 ...``) or the suit names.  A card prints as rank and suit
        (``"Jh"``), or as its rank alone when there is one suit.
    copies : int
        Identical copies of every card (a multiset: ``CardDeck("JQK", copies=2)``
        is J J Q Q K K).
    """

    def __init__(self, ranks: "str | Sequence[str]", suits: "int | str | Sequence[str]" = 1, copies: int = 1) -> None:
        listed = [str(r) for r in ranks]
        rank_names = list(dict.fromkeys(listed))
        if not rank_names or not all(rank_names):
            raise InvalidParameterError(f"CardDeck(): ranks must be non-empty names, at least one; got {ranks!r}")
        if isinstance(suits, int) and not isinstance(suits, bool):
            if suits < 1:
                raise InvalidParameterError(f"CardDeck(): suits must be >= 1 or a list of names; got {suits}")
            suit_names = list("shdc"[:suits]) if suits <= 4 else [str(i) for i in range(1, suits + 1)]
        else:
            suit_names = [str(s) for s in suits]
            if not suit_names or len(set(suit_names)) != len(suit_names):
                raise InvalidParameterError(f"CardDeck(): suits must be distinct names, at least one; got {suits!r}")
        if not isinstance(copies, int) or isinstance(copies, bool) or copies < 1:
            raise InvalidParameterError(f"CardDeck(): copies must be an integer >= 1; got {copies!r}")
        one_suit = len(suit_names) == 1
        self.ranks: tuple[str, ...] = tuple(rank_names)
        self.suits: tuple[str, ...] = tuple(suit_names)
        self.cards: tuple[Card, ...] = tuple(
            Card(r, s, rank if one_suit else rank + suit, rank)
            for r, rank in enumerate(rank_names)
            for s, suit in enumerate(suit_names)
        )
        #: Identical copies of each card of :attr:`cards`.
        listed_counts = Counter(listed)
        self.counts: tuple[int, ...] = tuple(listed_counts[card.rank_name] * copies for card in self.cards)

    @classmethod
    def numbered(cls, n: int, suits: "int | str | Sequence[str]" = 1, copies: int = 1) -> "CardDeck":
        """Cards ``1..n`` (the decks of the one-card poker papers)."""
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise InvalidParameterError(f"CardDeck.numbered(): n must be an integer >= 1; got {n!r}")
        return cls([str(i) for i in range(1, n + 1)], suits, copies)

    @property
    def size(self) -> int:
        """The number of cards, counting copies."""
        return sum(self.counts)

    def __repr__(self) -> str:
        return f"CardDeck({self.ranks!r}, suits={self.suits!r}, counts={self.counts!r})"


@dataclass(frozen=True)
class Deal:
    """A chance step: ``hole`` cards to every player still in (in seat order), then ``board`` public cards.

    ``replacement=True``: each card of this step is an independent draw from
    the deck as it is (the cards stay in it), so two players may hold the same
    card (ties, as in Nash and Shapley's or Euler's games).
    """

    hole: int = 0
    board: int = 0
    replacement: bool = False

    def __post_init__(self) -> None:
        for name in ("hole", "board"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise InvalidParameterError(f"Deal(): {name} must be an integer >= 0; got {value!r}")
        if self.hole + self.board == 0:
            raise InvalidParameterError("Deal(): deals no card; give hole >= 1 or board >= 1")


@dataclass(frozen=True)
class Betting:
    """A betting round (see the module docstring).

    Parameters
    ----------
    sizes : rational or sequence of rationals
        The bet and raise sizes allowed (each ``> 0``).
    max_bets : int
        Bets and raises allowed in the round, the first bet included (Kuhn 1,
        Leduc 2).
    first : int
        The seat (0-based) that acts first; folded players are skipped.
    bettors : sequence of int, optional
        The players who may bet or raise (default: everybody); the others
        check, call or fold.
    """

    sizes: Any = 1
    max_bets: int = 1
    first: int = 0
    bettors: "Sequence[int] | None" = None

    def __post_init__(self) -> None:
        raw = self.sizes if isinstance(self.sizes, (list, tuple)) else (self.sizes,)
        sizes = tuple(to_fraction(s, "Betting(): sizes") for s in raw)
        if not sizes or any(s <= 0 for s in sizes) or len(set(sizes)) != len(sizes):
            raise InvalidParameterError(
                f"Betting(): sizes must be distinct exact numbers > 0, at least one; got {[exact_str(s) for s in sizes]}"
            )
        object.__setattr__(self, "sizes", sizes)
        if not isinstance(self.max_bets, int) or isinstance(self.max_bets, bool) or self.max_bets < 0:
            raise InvalidParameterError(f"Betting(): max_bets must be an integer >= 0; got {self.max_bets!r}")
        if self.bettors is not None:
            object.__setattr__(self, "bettors", tuple(self.bettors))


@dataclass(frozen=True)
class Situation:
    """What is true at a node: given to a :class:`View` key (``player`` set) and to a payoff function.

    Attributes
    ----------
    player : int or None
        The player to move (``None`` at the end of the hand).
    hands : tuple of tuple of Card
        Every player's hole cards, each sorted (a key function must only use
        what the player may know).
    board : tuple of Card
        The public cards, in the order dealt.
    history : tuple of str
        The betting: one string per round so far, the current one last.
    contributions : tuple of Fraction
        What each player has put into the pot, antes included.
    active : tuple of int
        The players still in.
    """

    player: "int | None"
    hands: tuple[tuple[Card, ...], ...]
    board: tuple[Card, ...]
    history: tuple[str, ...]
    contributions: tuple[Fraction, ...]
    active: tuple[int, ...]

    @property
    def pot(self) -> Fraction:
        return sum(self.contributions, Fraction(0))


@dataclass(frozen=True)
class View:
    """What a player knows when they move: how their information-set label is made.

    ``suits=False`` shows cards by rank only.  ``key`` replaces the default
    label ``own cards[:board]|history`` by any string computed from the
    :class:`Situation`; nodes with equal keys of one player are one
    information set (perfect recall is checked by the compiler).
    """

    suits: bool = True
    key: "Callable[[Situation], str] | None" = None

    def label(self, situation: Situation) -> str:
        """The information-set label of ``situation.player`` at this node."""
        if self.key is not None:
            return str(self.key(situation))
        assert situation.player is not None
        return self.default(situation.hands[situation.player], situation.board, situation.history)

    def default(self, own: Sequence[Card], board: Sequence[Card], history: Sequence[str]) -> str:
        """The label without a ``key``: ``own cards[:board]|history``, rounds separated by ``/``."""
        return f"{self.shown(own, board)}|{'/'.join(history)}"

    def shown(self, own: Sequence[Card], board: Sequence[Card]) -> str:
        """The cards part of the default label: ``own cards[:board]``."""
        return f"{self.cards(own)}:{self.cards(board)}" if board else self.cards(own)

    def cards(self, cards: Sequence[Card]) -> str:
        names = [card.name if self.suits else card.rank_name for card in cards]
        return "".join(names) if len({len(n) for n in names}) <= 1 else ",".join(names)


def high_card(hole: Sequence[Card], board: Sequence[Card]) -> tuple[int, ...]:
    """Hole cards' ranks, highest first (the board is shared, so it does not count)."""
    return tuple(sorted((card.rank for card in hole), reverse=True))


def pairs_then_high_card(hole: Sequence[Card], board: Sequence[Card]) -> tuple[int, ...]:
    """A pair (a hole card's rank found again among the hole and board cards) beats any unpaired hand.

    Pairs compare by rank, then by :func:`high_card`; Leduc Hold'em's ranking.
    """
    ranks = [card.rank for card in (*hole, *board)]
    paired = [card.rank for card in hole if ranks.count(card.rank) >= 2]
    return (1 + max(paired) if paired else 0, *high_card(hole, board))


Step = Union[Deal, Betting]


@dataclass(frozen=True, eq=False)
class PokerGame:
    """A finite poker-like game (see the module docstring).

    Parameters
    ----------
    name : str
    players : int
        Two or more.
    deck : CardDeck
    steps : sequence of Deal and Betting
        In order; at least one :class:`Betting`.
    ante : rational or sequence of rationals
        Each player's forced contribution (one number for all, or one per
        player: unequal antes are blinds, and the small blind faces a bet).
    ranking : callable, optional
        ``ranking(hole, board)`` -> a comparable strength; default
        :func:`high_card`.
    payoff : callable, optional
        ``payoff(situation)`` -> one exact payoff per player at every end of
        the hand; replaces ``ranking`` and ``rake``.
    rake : rational
        The fraction of every pot the house keeps, in ``[0, 1)``.
    view : View
    player_names : sequence of str, optional
        Default ``P1, P2, ...``.
    parameters : tuple of (str, object)
        What to show as the game's parameters (default: none).
    """

    name: str
    players: int
    deck: CardDeck
    steps: Sequence[Step]
    ante: Any = 1
    ranking: "Callable[[Sequence[Card], Sequence[Card]], Any] | None" = None
    payoff: "Callable[[Situation], Sequence[Any]] | None" = None
    rake: Any = 0
    view: View = View()
    player_names: "Sequence[str] | None" = None
    parameters: tuple[tuple[str, object], ...] = ()

    def __post_init__(self) -> None:
        n = self.players
        if not isinstance(n, int) or isinstance(n, bool) or n < 2:
            raise InvalidParameterError(f"PokerGame(): players must be an integer >= 2; got {n!r}")
        if not isinstance(self.deck, CardDeck):
            raise InvalidParameterError(f"PokerGame(): deck must be a CardDeck; got {self.deck!r}")
        steps = tuple(self.steps)
        if not all(isinstance(s, (Deal, Betting)) for s in steps):
            raise InvalidParameterError("PokerGame(): steps must be Deal(...) and Betting(...) objects")
        if not any(isinstance(s, Betting) for s in steps):
            raise InvalidParameterError("PokerGame(): steps need at least one Betting round")
        object.__setattr__(self, "steps", steps)
        for s in steps:
            if isinstance(s, Betting):
                if not isinstance(s.first, int) or not 0 <= s.first < n:
                    raise InvalidParameterError(f"Betting(): first must be a seat 0..{n - 1}; got {s.first}")
                if s.bettors is not None and not all(isinstance(p, int) and 0 <= p < n for p in s.bettors):
                    raise InvalidParameterError(f"Betting(): bettors must be seats 0..{n - 1}; got {list(s.bettors)}")
        kept = sum(n * s.hole + s.board for s in steps if isinstance(s, Deal) and not s.replacement)
        needed = kept + any(isinstance(s, Deal) and s.replacement for s in steps)
        if needed > self.deck.size:
            raise InvalidParameterError(
                f"PokerGame(): deck has {self.deck.size} cards; the deals need {needed} for {n} players"
            )
        antes = self.ante if isinstance(self.ante, (list, tuple)) else (self.ante,) * n
        antes = tuple(to_fraction(a, "PokerGame(): ante") for a in antes)
        if len(antes) != n or any(a < 0 for a in antes):
            raise InvalidParameterError(
                f"PokerGame(): ante must be one number >= 0 or one per player ({n}); got {[exact_str(a) for a in antes]}"
            )
        object.__setattr__(self, "ante", antes)
        rake = to_fraction(self.rake, "PokerGame(): rake")
        if not 0 <= rake < 1:
            raise InvalidParameterError(f"PokerGame(): rake must be in [0, 1); got {exact_str(rake)}")
        object.__setattr__(self, "rake", rake)
        if self.payoff is not None and (self.ranking is not None or rake):
            raise InvalidParameterError("PokerGame(): give either payoff or ranking/rake, not both")
        names = tuple(self.player_names) if self.player_names is not None else tuple(f"P{i + 1}" for i in range(n))
        if len(names) != n or len(set(names)) != n:
            raise InvalidParameterError(f"PokerGame(): player_names must be {n} distinct names; got {list(names)}")
        object.__setattr__(self, "player_names", names)

    def tree(self) -> GameTree:
        """The game as a :class:`~exactpoker.core.tree.GameTree`."""
        progress.stage(f"building the tree of {self.name}", unit="decision nodes")
        with paused_gc():
            root = _Builder(self).step(0, _State.start(self))
        return GameTree(self.name, self.player_names, root, self.parameters)  # type: ignore[arg-type]


def _plain(number: Fraction) -> "Fraction | int":
    """An integral ``number`` as an ``int`` (the builder's arithmetic stays exact and gets faster)."""
    return number.numerator if number.denominator == 1 else number


class _State(NamedTuple):
    """The public and private state of a hand between nodes (a named tuple: the builder makes millions)."""

    counts: tuple[int, ...]  # copies left of each distinct card of the deck
    hands: tuple[tuple[int, ...], ...]  # card indices per player
    board: tuple[int, ...]
    contributions: tuple[Fraction | int, ...]  # ints where integral: much faster than Fraction
    active: tuple[int, ...]
    history: tuple[str, ...]

    @classmethod
    def start(cls, game: PokerGame) -> "_State":
        antes = tuple(_plain(a) for a in game.ante)  # type: ignore[attr-defined]
        return cls(game.deck.counts, ((),) * game.players, (), antes, tuple(range(game.players)), ())


class _Builder:
    """Builds the tree of a :class:`PokerGame`, step by step.

    Everything that repeats across deals is computed once and cached: the
    cards part of each label, each chance probability, the winners of each
    showdown and each distinct leaf.
    """

    def __init__(self, game: PokerGame) -> None:
        self.game = game
        self.cards = game.deck.cards
        # Leaves with the same contributions and winners are one (immutable) Terminal; strengths are computed once.
        self.leaves: dict[tuple[tuple[Fraction, ...], tuple[int, ...]], Terminal] = {}
        self.strengths: dict[tuple[tuple[int, ...], tuple[int, ...]], Any] = {}
        self.winners: dict[tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}
        self.hands: dict[tuple[tuple[int, ...], bool], tuple[Card, ...]] = {}
        self.shown: dict[tuple[tuple[int, ...], tuple[int, ...]], str] = {}
        self.probabilities: dict[tuple[int, int], Fraction] = {}

    def situation(self, state: _State, player: "int | None") -> Situation:
        return Situation(
            player,
            tuple(self.hand(h) for h in state.hands),
            self.hand(state.board, sort=False),
            state.history,
            tuple(Fraction(c) for c in state.contributions),
            state.active,
        )

    def hand(self, cards: tuple[int, ...], sort: bool = True) -> tuple[Card, ...]:
        """The cards of indices ``cards`` (sorted for a player's hand), cached."""
        found = self.hands.get((cards, sort))
        if found is None:
            found = tuple(self.cards[c] for c in cards)
            found = tuple(sorted(found)) if sort else found
            self.hands[(cards, sort)] = found
        return found

    def label(self, state: _State, player: int) -> str:
        """``player``'s information-set label (the default one without building a :class:`Situation`)."""
        view = self.game.view
        if view.key is not None:
            return view.label(self.situation(state, player))
        key = (state.hands[player], state.board)
        shown = self.shown.get(key)
        if shown is None:
            shown = self.shown[key] = view.shown(self.hand(key[0]), self.hand(key[1], sort=False))
        return f"{shown}|{'/'.join(state.history)}"

    def step(self, index: int, state: _State) -> TreeNode:
        if len(state.active) == 1 or index == len(self.game.steps):
            return self.end(state)
        step = self.game.steps[index]
        if isinstance(step, Deal):
            targets = [p for _ in range(step.hole) for p in state.active] + [-1] * step.board
            return self.deal(index, step, targets, state)
        first = [p for p in (*range(step.first, self.game.players), *range(step.first)) if p in state.active]
        opened = _State(state.counts, state.hands, state.board, state.contributions, state.active,
                        state.history + ("",))
        return self.bet(index, step, opened, tuple(first), 0)

    def deal(self, index: int, step: Deal, targets: list[int], state: _State) -> TreeNode:
        """Chance nodes dealing one card to each of ``targets`` (-1: the board), then the next step."""
        if not targets:
            return self.step(index + 1, state)
        target, rest = targets[0], targets[1:]
        left = sum(state.counts)
        outcomes = []
        for card, count in enumerate(state.counts):
            if count == 0:
                continue
            counts = state.counts if step.replacement else state.counts[:card] + (count - 1,) + state.counts[card + 1:]
            if target < 0:
                hands, board = state.hands, state.board + (card,)
            else:
                hands = state.hands[:target] + (state.hands[target] + (card,),) + state.hands[target + 1:]
                board = state.board
            after = _State(counts, hands, board, state.contributions, state.active, state.history)
            probability = self.probabilities.get((count, left))
            if probability is None:
                probability = self.probabilities[(count, left)] = Fraction(count, left)
            outcomes.append((self.cards[card].name, probability, self.deal(index, step, rest, after)))
        who = "the board" if target < 0 else self.game.player_names[target]  # type: ignore[index]
        # Exact probabilities (copies left / cards left) that sum to one by construction.
        return unchecked(Chance, tuple(outcomes), f"card to {who}")  # type: ignore[return-value]

    def bet(self, index: int, step: Betting, state: _State, pending: tuple[int, ...], bets: int) -> TreeNode:
        """The node where ``pending[0]`` acts; ``bets`` bets and raises made so far this round."""
        if len(state.active) == 1:
            return self.end(state)
        if not pending:
            return self.step(index + 1, state)
        player, rest = pending[0], pending[1:]
        level = max(state.contributions)
        facing = state.contributions[player] < level
        may_bet = bets < step.max_bets and (step.bettors is None or player in step.bettors)
        if not (facing or may_bet):  # a check nobody decides
            return self.call(index, step, state, player, rest, bets, level)
        actions: list[tuple[str, TreeNode]] = []
        if facing:
            actions.append(("f", self.fold(index, step, state, player, rest, bets)))
        actions.append(("c", self.call(index, step, state, player, rest, bets, level)))
        if may_bet:
            kind = "r" if bets else "b"
            for size in map(_plain, step.sizes):
                name = kind if len(step.sizes) == 1 else kind + exact_str(size).replace("/", "_")
                actions.append((name, self.raise_(index, step, state, player, bets, name, level + size)))
        return self.decision(state, player, tuple(actions))

    def decision(self, state: _State, player: int, actions: tuple[tuple[str, Any], ...]) -> Any:
        """The decision node of ``player`` at ``state`` (a subclass may build something else)."""
        progress.advance()
        return unchecked(Move, player, self.label(state, player), actions)  # distinct action names

    def moved(self, state: _State, action: str, contributions: tuple[Fraction, ...], active: tuple[int, ...]) -> _State:
        history = state.history[:-1] + (state.history[-1] + action,)
        return _State(state.counts, state.hands, state.board, contributions, active, history)

    def fold(self, index: int, step: Betting, state: _State, player: int, rest: tuple[int, ...], bets: int) -> TreeNode:
        active = tuple(p for p in state.active if p != player)
        return self.bet(index, step, self.moved(state, "f", state.contributions, active), rest, bets)

    def call(self, index: int, step: Betting, state: _State, player: int, rest: tuple[int, ...], bets: int,
             level: Fraction) -> TreeNode:
        contributions = state.contributions[:player] + (level,) + state.contributions[player + 1:]
        return self.bet(index, step, self.moved(state, "c", contributions, state.active), rest, bets)

    def raise_(self, index: int, step: Betting, state: _State, player: int, bets: int, name: str,
               to: Fraction) -> TreeNode:
        contributions = state.contributions[:player] + (to,) + state.contributions[player + 1:]
        seat = state.active.index(player)
        others = state.active[seat + 1:] + state.active[:seat]
        return self.bet(index, step, self.moved(state, name, contributions, state.active), others, bets + 1)

    def end(self, state: _State) -> Terminal:
        """The leaf: the explicit payoff, or the pot (less the rake) to the best hand still in."""
        game = self.game
        if game.payoff is not None:
            payoffs = tuple(game.payoff(self.situation(state, None)))
            if len(payoffs) != game.players:
                raise InvalidGameError(
                    f"{game.name}: payoff() returned {len(payoffs)} values for {game.players} players"
                )
            return Terminal(tuple(to_fraction(v, f"{game.name}: payoff()") for v in payoffs))
        winners = self.pot_winners(state.hands, state.board, state.active)
        leaf = self.leaves.get((state.contributions, winners))
        if leaf is None:
            share = Fraction(sum(state.contributions)) * (1 - game.rake) / len(winners)  # type: ignore[operator]
            leaf = Terminal(tuple((share if p in winners else 0) - c for p, c in enumerate(state.contributions)))
            self.leaves[(state.contributions, winners)] = leaf
        return leaf

    def pot_winners(self, hands: tuple[tuple[int, ...], ...], board: tuple[int, ...], active: tuple[int, ...]
                    ) -> tuple[int, ...]:
        """Who shares the pot: the one player left, or the best hands at the showdown."""
        return active if len(active) == 1 else self.showdown(hands, board, active)

    def showdown(self, hands: tuple[tuple[int, ...], ...], board: tuple[int, ...], active: tuple[int, ...]
                 ) -> tuple[int, ...]:
        """The players of ``active`` with the best hand at the showdown, cached."""
        key = (hands, board, active)
        found = self.winners.get(key)
        if found is None:
            strength = {p: self.strength(hands[p], board) for p in active}
            best = max(strength.values())
            found = self.winners[key] = tuple(p for p in active if strength[p] == best)
        return found

    def strength(self, hand: tuple[int, ...], board: tuple[int, ...]) -> Any:
        """``ranking(hole, board)`` of a player's hand, cached."""
        found = self.strengths.get((hand, board))
        if found is None:
            ranking = self.game.ranking or high_card
            found = ranking(self.hand(hand), self.hand(board, sort=False))
            self.strengths[(hand, board)] = found
        return found
