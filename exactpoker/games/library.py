"""Ready games written in the poker language (:mod:`exactpoker.core.poker`).

``exactpoker solve library:NAME`` or ``library:NAME(key=value,...)`` loads one
(:func:`~exactpoker.formats.load_game`: :func:`poker_game`, made ready for the
engine); ``exactpoker solve --list`` lists them
(:func:`describe_library`); :func:`game` gives the
:class:`~exactpoker.core.tree.GameTree` in Python.

=============  ====================================================================
kuhn           two-player Kuhn poker (Kuhn 1950): J Q K, ante 1, one bet of 1
               (``ante`` and ``bet`` may be any rationals)
kuhn3          three-player Kuhn poker as in OpenSpiel's ``kuhn_poker(players=3)``
               and seed 003 (cards ``1..N``, pot ``P``, ante ``P/3``, bets of 1)
leduc          Leduc Hold'em with OpenSpiel's rules (Southey et al. 2005); bets
               ``bet1`` (2) and ``bet2`` (4) in the two rounds; ``rake``: the
               house's share of the pot (general-sum when > 0)
ladder         one-card poker, cards ``1..n``, one bet chosen from a ladder of
               sizes; ``rake`` as for leduc
two_round      two betting rounds of one bet each, a board card between them
vn             seed 000's von Neumann poker (as ``exactpoker vn`` builds it); ``sizes``:
               a choice of bets, ``raise=true``: II may raise
la_relance     Borel's La Relance (I folds or bets, II folds or calls)
newman         seed 000's Newman poker
three          seed 000's three-player poker
simple         seed 004's simple poker (the Euler notes)
goldman_stone  seed 002's Goldman-Stone poker on a finite deck
nash_shapley   seed 001's Nash-Shapley poker; the seed games
               are solved from their rules: structure detected before any tree
dice           the end game of Liar's Dice with the rules of the ``snyd`` project
               (:mod:`exactpoker.games.liars_dice`): ``sides``, ``dice`` (``2v1``),
               ``rule`` (normal, joker, stairs, or OpenSpiel's)
=============  ====================================================================

:func:`parametric` gives a game as a function of one of its sizes (an ante,
a bet, the pot) for ``exactpoker solve --over``: the payoffs of these games are
affine in each of those (every leaf pays a sum of contributions), so the
declared degree is 1.

Strategies are keyed by the games' own information-set labels (see
:mod:`exactpoker.core.poker`), e.g. ``"K|b"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

from exactpoker import guard
from exactpoker.core.game import BettingGame, Decision, Deck, Node, Outcome
from exactpoker.core.parametric import ParametricGame
from exactpoker.core.poker import Betting, CardDeck, Deal, PokerGame, high_card, pairs_then_high_card
from exactpoker.core.poker_compile import compile_poker
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.tree import GameTree, compile_tree
from exactpoker.errors import InvalidParameterError
from exactpoker.numbers import exact_str, parse_int, parse_positive, to_fraction

__all__ = ["poker_game", "game", "compiled_game", "describe_library", "parametric", "rules_over", "at_default_sizes",
           "la_relance", "von_neumann_sizes", "von_neumann_raise", "GAMES"]


def _kuhn(ante: Fraction, bet: Fraction) -> PokerGame:
    """Kuhn poker: J Q K, one card each, ante, one bet (with ``--continuous``: hands uniform on ``[0, 1]``).

    References: H. W. Kuhn, "A simplified two-person poker", Contributions to the
    Theory of Games I, Annals of Mathematics Studies 24 (1950), 97-103; its
    continuous version is one of the "[0,1] games" of B. Chen and J. Ankenman,
    *The Mathematics of Poker* (ConJelCo, 2006), part III.
    """
    return PokerGame("kuhn", 2, CardDeck("JQK"), [Deal(hole=1), Betting(sizes=bet, max_bets=1)], ante=ante,
                     parameters=(("ante", ante), ("bet", bet)) if (ante, bet) != (1, 1) else ())


def _kuhn3(cards: int, pot: Fraction) -> PokerGame:
    """Three-player Kuhn poker: cards ``1..cards``, pot ``pot`` (ante ``pot/3``), bets of 1.

    References: D. Szafron, R. Gibson and N. Sturtevant, "A parameterized family
    of equilibrium profiles for three-player Kuhn poker", AAMAS 2013 (four cards);
    J. Billingham, seed 003 (``N`` cards, pot ``P``).  With ``--continuous`` (hands
    uniform on ``[0, 1]``) it is, as far as we know, unsolved in the literature.
    """
    return PokerGame("kuhn3", 3, CardDeck.numbered(cards), [Deal(hole=1), Betting(sizes=1, max_bets=1)],
                     ante=pot / 3, player_names=("1", "2", "3"), parameters=(("cards", cards), ("pot", pot)))


def _leduc(players: int, ranks: int, suits: bool, bet1: Fraction, bet2: Fraction, rake: Fraction) -> PokerGame:
    # OpenSpiel's leduc_poker: two cards of each of players + 1 ranks; raises of 2 then 4, two per round.
    names = "23456789TJQKA"[-ranks - 1:-1] if ranks <= 12 else [str(i) for i in range(1, ranks + 1)]
    deck = CardDeck(names, suits=2) if suits else CardDeck(names, copies=2)
    steps = [Deal(hole=1), Betting(sizes=bet1, max_bets=2), Deal(board=1), Betting(sizes=bet2, max_bets=2)]
    sizes = (("bet1", bet1), ("bet2", bet2)) if (bet1, bet2) != (2, 4) else ()
    return PokerGame("leduc", players, deck, steps, ante=1, ranking=pairs_then_high_card, rake=rake,
                     parameters=(("players", players), ("ranks", ranks), ("suits", suits)) + sizes + _raked(rake))


def _ladder(n: int, sizes: tuple[Fraction, ...], rake: Fraction) -> PokerGame:
    return PokerGame("ladder", 2, CardDeck.numbered(n), [Deal(hole=1), Betting(sizes=sizes, max_bets=1)], ante=1,
                     ranking=high_card, rake=rake,
                     parameters=(("n", n), ("sizes", ";".join(map(exact_str, sizes)))) + _raked(rake))


def la_relance(n: int, bet: Fraction) -> BettingGame:
    """Borel's La Relance on cards ``1..n`` (with ``--continuous``: hands uniform on ``[0, 1]``).

    Both players ante 1; player I folds (losing the ante) or bets ``bet``; player II
    then folds or calls, and a call goes to the showdown.

    References: E. Borel, *Traite du calcul des probabilites et de ses applications*,
    tome IV, fascicule 2, "Applications aux jeux de hasard" (Gauthier-Villars, 1938),
    chapter 5; C. Ferguson, T. S. Ferguson and C. Gawargy, "Uniform(0,1) two-person
    poker models", Game Theory and Applications 12 (2007), section 2.
    """
    respond = Decision(1, "facing a bet", (("fold", Outcome((1 + bet, 1), (0,))),
                                          ("call", Outcome((1 + bet, 1 + bet), (0, 1)))))
    root = Decision(0, "open", (("fold", Outcome((1, 1), (1,))), ("bet", respond)))
    return BettingGame("la-relance", Deck(n), root, ("I", "II"), (("n", n), ("bet", bet)))


def von_neumann_sizes(n: int, sizes: tuple[Fraction, ...]) -> BettingGame:
    """von Neumann's poker with a choice of bet sizes, on cards ``1..n`` (``--continuous``: hands uniform on ``[0, 1]``).

    Both ante 1; player I checks (a showdown for the antes) or bets one of
    ``sizes``; player II folds or calls, knowing the size.  One size is seed 000's
    game (von Neumann and Morgenstern, *Theory of Games and Economic Behavior*,
    1944, section 19.4-19.10); the choice of sizes is the discrete counterpart of
    Newman's game (seed 000 section 3) studied by C. Ferguson, T. S. Ferguson and
    C. Gawargy, "Uniform(0,1) two-person poker models", Game Theory and
    Applications 12 (2007), section 5.
    """
    actions: list[tuple[str, Node]] = [("check", Outcome((1, 1), (0, 1)))]
    for size in sizes:
        name = exact_str(size)
        respond = Decision(1, f"facing {name}", (("fold", Outcome((1 + size, 1), (0,))),
                                                 ("call", Outcome((1 + size, 1 + size), (0, 1)))))
        actions.append((f"bet {name}", respond))
    return BettingGame("von-neumann-sizes", Deck(n), Decision(0, "open", tuple(actions)), ("I", "II"),
                       (("n", n), ("sizes", ";".join(map(exact_str, sizes)))))


def von_neumann_raise(n: int, b: Fraction) -> BettingGame:
    """von Neumann's poker where player II may raise, on cards ``1..n`` (``--continuous``: hands uniform on ``[0, 1]``).

    Both ante 1; player I checks (a showdown for the antes) or bets ``b``; player
    II folds, calls, or raises by ``b`` more (``2b`` in all); after a raise player
    I folds or calls.  References: S. Karlin and R. Restrepo, "Multistage poker
    models", Annals of Mathematics Studies 39 (1957); C. Ferguson, T. S. Ferguson
    and C. Gawargy, "Uniform(0,1) two-person poker models", Game Theory and
    Applications 12 (2007), section 4.
    """
    raised = Decision(0, "facing a raise", (("fold", Outcome((1 + b, 1 + 2 * b), (1,))),
                                            ("call", Outcome((1 + 2 * b, 1 + 2 * b), (0, 1)))))
    respond = Decision(1, "facing a bet", (("fold", Outcome((1 + b, 1), (0,))),
                                          ("call", Outcome((1 + b, 1 + b), (0, 1))), ("raise", raised)))
    root = Decision(0, "open", (("check", Outcome((1, 1), (0, 1))), ("bet", respond)))
    return BettingGame("von-neumann-raise", Deck(n), root, ("I", "II"), (("n", n), ("b", b), ("raise", True)))


def _vn(**values: Any) -> BettingGame:
    """``library:vn``: seed 000's game (``n``, ``b``), with a choice of ``sizes`` (then ``b`` is not used) or II's
    ``raise``."""
    n, bet, sizes, raises = values["n"], values["b"], values["sizes"], values["raise"]
    if sizes and raises:
        raise InvalidParameterError("library:vn: give either sizes (I's choice of bets) or raise=true, not both")
    if sizes:
        return von_neumann_sizes(parse_int(n, "n", 2), sizes)
    if raises:
        bet = parse_positive(bet, "b")
        return von_neumann_raise(parse_int(n, "n", 2), bet)
    return _paper("von_neumann")(n=n, b=bet)


def _raked(rake: Fraction) -> tuple[tuple[str, Fraction], ...]:
    """The ``rake`` parameter of a game's name, shown only when there is one."""
    return (("rake", rake),) if rake else ()


def _rake(value: object, name: str) -> Fraction:
    """The house's share of every pot, taken from the winner (a general-sum game when > 0)."""
    number = to_fraction(value, name)
    if not 0 <= number < 1:
        raise InvalidParameterError(f"{name} must be a fraction of the pot in [0, 1); got {exact_str(number)}")
    return number


def _two_round(ranks: int, bet1: Fraction, bet2: Fraction) -> PokerGame:
    deck = CardDeck.numbered(ranks, copies=2)
    steps = [Deal(hole=1), Betting(sizes=bet1, max_bets=1), Deal(board=1), Betting(sizes=bet2, max_bets=1)]
    return PokerGame("two_round", 2, deck, steps, ante=1, ranking=pairs_then_high_card,
                     parameters=(("ranks", ranks), ("bet1", bet1), ("bet2", bet2)))


def _rules(module: str, function: str) -> Callable[..., Any]:
    """A game written as its own generator (``exactpoker.games.<module>.<function>``), built on demand."""
    def build(**params: object) -> Any:
        from importlib import import_module

        return getattr(import_module(f"exactpoker.games.{module}"), function)(**params)

    return build


def _paper(module: str) -> Callable[..., BettingGame]:
    """The rules of a seed paper's card game (``exactpoker.games.<module>.game``), built on demand."""
    return _rules(module, "game")


def _as_given(value: object, name: str) -> object:
    """A seed game's parameter, passed on as given: the game's own builder checks it, naming it."""
    return value


def _flag(value: object, name: str) -> bool:
    text = str(value).strip().lower()
    if isinstance(value, bool) or text in ("true", "false", "1", "0", "yes", "no"):
        return value if isinstance(value, bool) else text in ("true", "1", "yes")
    raise InvalidParameterError(f"{name} must be true or false; got {value!r}")


def _sizes(value: object, name: str) -> tuple[Fraction, ...]:
    """A ladder of sizes: a sequence, or text separated by ``;`` or spaces (``"1;2;4"``, ``"1/2;1"``)."""
    items = value if isinstance(value, (list, tuple)) else str(value).replace(";", " ").split()
    sizes = tuple(parse_positive(item, name) for item in items)
    if not sizes or len(set(sizes)) != len(sizes):
        raise InvalidParameterError(f"{name} must be distinct sizes > 0 separated by ';' (e.g. 1;2;4); got {value!r}")
    return sizes


@dataclass(frozen=True)
class _Entry:
    build: Callable[..., "PokerGame | BettingGame"]
    description: str
    #: parameter name -> (default, parser)
    params: dict[str, tuple[Any, Callable[[object, str], Any]]]
    #: the parameters the payoffs are affine in (they may vary in ``--over``)
    linear: tuple[str, ...] = ()
    #: the estimated memory of the game's solve and what it counts (``(bytes, "3 cards")``), from its parsed
    #: parameters before anything is built (a lower bound for the poker-language games, whose tree is then
    #: counted from the rules: :func:`guard.poker_rules`)
    memory: "Callable[..., tuple[int | None, str]] | None" = None


def _nonnegative(value: object, name: str) -> Fraction:
    number = to_fraction(value, name)
    if number < 0:
        raise InvalidParameterError(f"{name} must be >= 0; got {exact_str(number)}")
    return number


def _int(minimum: int) -> Callable[[object, str], int]:
    return lambda value, name: parse_int(value, name, minimum)


def _tree_at_least(distinct: Callable[..., int], size: Callable[..., int], dealt: Callable[..., int]
                   ) -> Callable[..., int]:
    """A poker-language game's memory from its deals alone (each deal path at least one tree node), refusing at
    once a deck too small for the deals (``leduc(players=10,ranks=2)``)."""
    def memory(**values: Any) -> tuple[int, str]:
        cards, wanted = size(**values), dealt(**values)
        if wanted > cards:
            raise InvalidParameterError(f"the deck has {cards} cards; the deals need {wanted}")
        paths = guard.deal_paths(distinct(**values), cards, wanted)
        return guard.game_tree(paths, 0), f"at least {paths} tree nodes, one per deal"

    return memory


def _seed_deals(players: int, replacement: bool = False) -> Callable[..., tuple[int | None, str]]:
    """A seed paper's card game compiled over its deals of one card each (:func:`guard.seed_deals`)."""
    def memory(**values: Any) -> tuple[int | None, str]:
        cards = values.get("n", values.get("m"))
        return guard.seed_deals(cards, players, replacement), f"{cards} cards"

    return memory


def _cards(estimate: Callable[..., int | None]) -> Callable[..., tuple[int | None, str]]:
    """A seed paper's game on its structured path, estimated by the paper command's own estimator."""
    return lambda **values: (estimate(**values), f"{values['n']} cards")


GAMES: dict[str, _Entry] = {
    "kuhn": _Entry(_kuhn, "two-player Kuhn poker: J Q K, ante 1, one bet of 1 (value -1/18)",
                   {"ante": (Fraction(1), _nonnegative), "bet": (Fraction(1), parse_positive)}, ("ante", "bet")),
    "kuhn3": _Entry(_kuhn3, "three-player Kuhn poker (OpenSpiel's kuhn_poker(players=3)): cards 1..N, pot P",
                    {"cards": (4, _int(4)), "pot": (Fraction(3), parse_positive)}, ("pot",),
                    _tree_at_least(lambda cards, **_: cards, lambda cards, **_: cards, lambda **_: 3)),
    "leduc": _Entry(_leduc, "Leduc Hold'em, OpenSpiel's rules: a private card, a board card, two betting rounds",
                    {"players": (2, _int(2)), "ranks": (None, _int(2)), "suits": (True, _flag),
                     "bet1": (Fraction(2), parse_positive), "bet2": (Fraction(4), parse_positive),
                     "rake": (Fraction(0), _rake)}, ("bet1", "bet2"),
                    _tree_at_least(lambda ranks, **_: ranks, lambda ranks, **_: 2 * ranks,
                                   lambda players, **_: players + 1)),
    "ladder": _Entry(_ladder, "one-card poker: cards 1..n, ante 1, one bet chosen from sizes (e.g. 1;2;4)",
                     {"n": (3, _int(2)), "sizes": ((Fraction(1), Fraction(2)), _sizes), "rake": (Fraction(0), _rake)},
                     (), _tree_at_least(lambda n, **_: n, lambda n, **_: n, lambda **_: 2)),
    "two_round": _Entry(_two_round, "two betting rounds (one bet each) around a board card; cards 1..ranks, twice",
                        {"ranks": (3, _int(2)), "bet1": (Fraction(1), parse_positive),
                         "bet2": (Fraction(2), parse_positive)}, ("bet1", "bet2"),
                        _tree_at_least(lambda ranks, **_: ranks, lambda ranks, **_: 2 * ranks, lambda **_: 3)),
    "vn": _Entry(_vn, "von Neumann poker (seed 000 section 2): cards 1..n, ante 1, bet b; sizes=1;2: I's choice of "
                 "bets; raise=true: II may raise by b", {"n": (3, _as_given), "b": (Fraction(1), _as_given),
                                                         "sizes": ((), _sizes), "raise": (False, _flag)}, ("b",),
                 _cards(lambda n, **_: guard.vn_mixed(n))),
    "la_relance": _Entry(la_relance, "Borel's La Relance: ante 1, I folds or bets, II folds or calls",
                         {"n": (3, _int(2)), "bet": (Fraction(1), parse_positive)}, ("bet",),
                         _seed_deals(2)),
    "newman": _Entry(_paper("newman"), "Newman poker (seed 000 section 3): cards 1..n, bets 0..b",
                     {"n": (3, _as_given), "b": (1, _as_given)}, (), _cards(guard.newman_mixed)),
    "three": _Entry(_paper("papers.three_player"), "three-player poker (seed 000 section 4): cards 1..n, ante 1, bet b",
                    {"n": (3, _as_given), "b": (Fraction(2), _as_given)}, ("b",),
                    _cards(lambda n, **_: guard.three_mixed(n))),
    "simple": _Entry(_paper("simple_poker"), "the Euler notes' simple poker (seed 004): values 1..m with "
                     "replacement, ante, bet", {"m": (3, _as_given), "ante": (1, _as_given), "bet": (2, _as_given)},
                     ("ante", "bet"), _seed_deals(2, replacement=True)),
    "goldman_stone": _Entry(_paper("goldman_stone"), "Goldman-Stone poker (seed 002) on cards 1..n, bet levels "
                            "a > b > 1", {"n": (4, _as_given), "a": (3, _as_given), "b": (2, _as_given)},
                            ("a", "b"), _seed_deals(2)),
    "nash_shapley": _Entry(_paper("nash_shapley"), "Nash-Shapley three-person poker (seed 001): High/Low, ante a, "
                           "bet b", {"a": (1, _as_given), "b": (1, _as_given)}, ("a", "b")),
    "dice": _Entry(_rules("liars_dice", "liars_dice"), "Liar's Dice end game (snyd's rules): dice 1..sides, dice "
                   "per player (e.g. 2v1), rule normal|joker|stairs|openspiel",
                   {"sides": (6, _as_given), "dice": ("1v1", _as_given), "rule": ("normal", _as_given)}),
}


def poker_game(name: str, **params: object) -> "PokerGame | BettingGame":
    """The library game ``name``: a :class:`~exactpoker.core.poker.PokerGame`, or a seed paper's
    :class:`~exactpoker.core.game.BettingGame`.

    Raises
    ------
    InvalidParameterError
        For an unknown game or parameter (naming what is allowed) or a bad value.
    """
    entry = GAMES.get(name)
    if entry is None:
        raise InvalidParameterError(f"library: unknown game {name!r}; the library has {', '.join(GAMES)}")
    unknown = sorted(set(params) - set(entry.params))
    if unknown:
        allowed = ", ".join(entry.params) or "no parameters"
        raise InvalidParameterError(f"library:{name}: unknown parameter {unknown[0]!r}; allowed: {allowed}")
    values = {key: parse(params[key], key) if key in params else default
              for key, (default, parse) in entry.params.items()}
    if name == "leduc" and values["ranks"] is None:
        values["ranks"] = values["players"] + 1
    if entry.memory is not None:
        what = f"library:{name}({','.join(f'{k}={v}' for k, v in params.items())})" if params else f"library:{name}"
        try:
            estimate, counted = entry.memory(**values)
        except InvalidParameterError as error:
            raise InvalidParameterError(f"{what}: {error}") from None
        guard.require(estimate, f"{what} ({counted}, from its parameters before anything is built)")
    return entry.build(**values)


def game(name: str, **params: object) -> GameTree:
    """The library game ``name`` as a :class:`~exactpoker.core.tree.GameTree` (see :func:`poker_game`)."""
    return poker_game(name, **params).tree()


def compiled_game(name: str, **params: object) -> CompiledGame:
    """The library game ``name`` compiled into the sequence form (see :func:`poker_game`).

    A poker-language game is compiled straight from its rules
    (:func:`~exactpoker.core.poker_compile.compile_poker`: no tree is built
    unless a consumer reads ``game.root``); a seed paper's game from its tree.
    """
    return _compiled(poker_game(name, **params))


def _compiled(built: "PokerGame | BettingGame") -> CompiledGame:
    return compile_poker(built) if isinstance(built, PokerGame) else compile_tree(built.tree())


def rules_over(text: str, parameter: str, interval: tuple[Fraction, Fraction] | None = None
               ) -> Callable[[Fraction], "PokerGame | BettingGame"]:
    """``"NAME"`` or ``"NAME(key=value,...)"``'s rules as a function of ``parameter`` (one of the game's sizes).

    ``interval`` (``--over``'s ends), if given, must lie where the game allows
    ``parameter``: the game is made at both ends (its allowed ranges are
    intervals), so ``bet=0..1`` is refused as ``bet=0`` is.

    Raises
    ------
    InvalidParameterError
        If ``parameter`` is not one the game's payoffs are affine in, or is
        also fixed in ``text``, or an end of ``interval`` is not allowed.
    """
    from exactpoker.formats.calls import parse_call

    name, params = parse_call(text)
    entry = GAMES.get(name)
    if entry is None:
        raise InvalidParameterError(f"library: unknown game {name!r}; the library has {', '.join(GAMES)}")
    if parameter not in entry.linear:
        allowed = ", ".join(entry.linear) or "none"
        raise InvalidParameterError(f"--over: library:{name} can vary {allowed}; got {parameter!r}")
    if parameter in params:
        raise InvalidParameterError(f"--over: {parameter} is also fixed in library:{text}; give it only once")
    for end in interval or ():
        try:
            poker_game(name, **params, **{parameter: end})
        except InvalidParameterError as error:
            raise InvalidParameterError(f"--over {parameter}={exact_str(interval[0])}..{exact_str(interval[1])}: "
                                        f"the interval must lie where {parameter} is allowed: {error}") from None
    return lambda value: poker_game(name, **params, **{parameter: value})


def at_default_sizes(text: str) -> list[str]:
    """``"NAME(key=value,...)"`` with each size it sets (one the payoffs are affine in, as for :func:`rules_over`)
    back at its default, one at a time and then all together: the same rules at other sizes, written out in full
    (``"vn(b=1)"`` for ``"vn(b=1/100)"``); sizes set at their defaults already give nothing."""
    from exactpoker.formats.calls import parse_call

    name, params = parse_call(text)
    entry = GAMES.get(name)
    if entry is None:
        return []
    moved = [key for key in entry.linear if key in params and params[key] != _show(entry.params[key][0])]
    choices = [(key,) for key in moved] + ([tuple(moved)] if len(moved) > 1 else [])
    specs = []
    for keys in choices:
        values = {key: (_show(entry.params[key][0]) if key in keys else value) for key, value in params.items()}
        specs.append(f"{name}({','.join(f'{key}={value}' for key, value in values.items())})")
    return specs


def parametric(text: str, parameter: str, interval: tuple[Fraction, Fraction] | None = None) -> ParametricGame:
    """``"NAME"`` or ``"NAME(key=value,...)"`` as a function of ``parameter`` (one of the game's sizes), degree 1
    (the rules of :func:`rules_over`, compiled at each value).

    Raises
    ------
    InvalidParameterError
        As :func:`rules_over`.
    """
    rules = rules_over(text, parameter, interval)
    return ParametricGame(f"library:{text}", parameter, lambda value: _compiled(rules(value)), degree=1)


def describe_library() -> list[dict[str, Any]]:
    """One entry per game: ``name``, ``description`` and ``parameters`` (name -> default)."""
    return [
        {"name": name, "description": entry.description,
         "parameters": {key: _show(default) for key, (default, _) in entry.params.items()}}
        for name, entry in GAMES.items()
    ]


def _show(default: object) -> object:
    if isinstance(default, tuple):
        return ";".join(map(exact_str, default))
    if isinstance(default, Fraction):
        return exact_str(default)
    return "players + 1" if default is None else default
