"""Resource guard: refuse an exact method whose memory would exceed the limit, before it starts.

An exact method on a large deck can ask for more memory than the machine has
(``vn mixed --n 100000 --method simplex`` asks numpy for 74.5 GiB; ``three mixed --n 100000 --method generic``
for 10.7 PiB).  Each estimator here gives the peak resident memory, in bytes,
from the game's size, calibrated against measured runs (peak RSS by
``/usr/bin/time -f %M``, see ``benchmarks/README.md``):

========================================  ========
command                                   peak RSS
========================================  ========
``vn mixed --n 10000 --b 2``              0.16 GB
``vn mixed --n 1000 --method simplex``    0.64 GB
``vn mixed --n 2000 --method simplex``    2.1 GB
``three mixed --n 500 --b 2``             0.09 GB
``three mixed --n 100 --method generic``  0.74 GB
``three mixed --n 200 --method generic``  5.3 GB
``newman mixed --n 300 --b 300``          0.53 GB
``newman mixed --n 3000 --b 40``          0.70 GB
``goldman-stone --a 3 --b 2 --n 300``     0.49 GB
``kuhn3 --cards 13 --pot 3``              > 0.12 GB
``kuhn3 --cards 20 --pot 3``              > 0.26 GB
``kuhn3 --cards 26 --pot 3``              0.60 GB
``kuhn3 --cards 40 --pot 3``              > 1.6 GB
``kuhn3 --cards 60 --pot 3``              > 5.4 GB
``solve library:leduc(ranks=5)`` (build)  0.07 GB
``solve library:leduc(ranks=8)`` (build)  0.19 GB
``solve openspiel:liars_dice`` (build)    0.24 GB
``solve vn150.efg`` (4.4 MB, build)        0.29 GB
========================================  ========

(``>``: still growing when stopped after 200 or 300 s on a shared machine;
kuhn3's float guide holds its ``N^3`` deals, about 25 kB each.  "build":
reading and building the tree and compiling it, before any solver: about
700 bytes per tree node (Leduc with 5 and 8 ranks has 55 361 and 255 617
nodes, liars_dice about 295 000), and 60 bytes per byte of a Gambit file.)

:func:`require` compares an estimate with the limit (the machine's available
memory, or ``--max-memory``) and raises :class:`ResourceLimitError` with both
figures.  Estimates use Python integers, so an absurd size such as
``--n 10**400`` is refused, never overflowed.  An estimator returns ``None``
when its parameters do not parse; the game's own check then names the error.
"""

from __future__ import annotations

import os
import re
import time
from fractions import Fraction
from typing import TYPE_CHECKING, Iterator
from contextlib import contextmanager

from exactpoker.errors import InvalidParameterError, ResourceLimitError

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.core.game import BettingGame
    from exactpoker.core.poker import PokerGame

__all__ = ["require_digits", "parse_size", "available_memory", "limit", "require", "memory_limit", "limit_text",
           "vn_mixed", "vn_efg", "three_mixed", "newman_mixed", "goldman_stone", "compiled_game", "array_game_solve",
           "kuhn3",
           "n_player_guide", "n_player_regret", "game_tree", "game_file", "tree_nodes_within", "structured_rules", "deal_paths",
           "poker_rules", "MAX_BETTING_DECISIONS", "seed_deals", "betting_rules", "ENUMERATION_SECONDS", "time_limit",
           "WorkBudget", "exact_lp_seconds"]

_UNITS = {"": 1, "B": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}
_BASE = 150 * 1024**2  # the interpreter with sympy, numpy, scipy and flint loaded
_limit: int | None = None


def parse_size(text: str) -> int:
    """``"2G"``, ``"500M"``, ``"1.5G"`` or a number of bytes, as bytes.

    >>> parse_size("2G"), parse_size("500M"), parse_size("1024")
    (2147483648, 524288000, 1024)
    """
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?\s*", str(text), re.IGNORECASE)
    if match is None or len(match.group(1)) > 30:
        raise InvalidParameterError(f"--max-memory must be a size such as 2G, 500M or 1024 (bytes); got {text!r}")
    size = int(Fraction(match.group(1)) * _UNITS[match.group(2).upper()])
    if size <= 0:
        raise InvalidParameterError(f"--max-memory must be > 0; got {text!r}")
    return size


def available_memory() -> int | None:
    """The memory the machine can still give (``MemAvailable`` of ``/proc/meminfo``), or ``None`` if unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def limit() -> int | None:
    """The limit in force: ``--max-memory`` if given, else the available memory."""
    return _limit if _limit is not None else available_memory()


@contextmanager
def memory_limit(size: int | None) -> Iterator[None]:
    """Within the block, :func:`require` uses ``size`` bytes as the limit (``None``: the available memory)."""
    global _limit
    previous, _limit = _limit, size
    try:
        yield
    finally:
        _limit = previous


def human(size: int) -> str:
    """A byte count in words: ``"7.4 GB"``, or ``"10^403 bytes"`` beyond what floats hold."""
    if size >= 1024**6:
        return f"10^{len(str(size)) - 1} bytes"
    for unit, scale in (("TB", 1024**4), ("GB", 1024**3), ("MB", 1024**2)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} bytes"


def limit_text() -> str:
    """The limit in force in words: ``"2.0 GB (--max-memory)"`` or ``"7.4 GB (available memory)"``."""
    bound = limit()
    source = "--max-memory" if _limit is not None else "available memory"
    return "unknown" if bound is None else f"{human(bound)} ({source})"


def require(estimate: int | None, what: str) -> None:
    """Refuse ``what`` (e.g. ``"vn mixed --n 30000"``) when ``estimate`` bytes exceed the limit."""
    bound = limit()
    if estimate is None or bound is None or estimate <= bound:
        return
    raise ResourceLimitError(f"{what} would need about {human(estimate)} of memory; the limit is {limit_text()}; "
                             "choose a smaller game or raise --max-memory")


def require_digits(value: object, option: str, digits: int, what: str) -> None:
    """Refuse an exact rational ``value`` whose numerator or denominator has more than ``digits`` digits.

    For exact algebra whose cost grows with the size of the numbers (a Groebner
    basis in the bet ``b``): ``three continuous --b 10**200`` would run for hours.
    """
    try:
        number = Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError):
        return
    size = max(len(str(abs(number.numerator))), len(str(number.denominator)))
    if size > digits:
        raise ResourceLimitError(f"{what}: {option} has {size} digits; the exact algebra grows with them, "
                                 f"at most {digits} are accepted")


def _integer(value: object) -> int | None:
    """``value`` as an int if it is one (a string like ``"400"``); ``None`` otherwise."""
    from exactpoker.numbers import MAX_PARAMETER  # here: the parser is built without the exact number types

    try:
        number = Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError):
        return None
    return int(number) if number.denominator == 1 and 0 < number <= MAX_PARAMETER else None  # else parse_int names it


def vn_mixed(n: object, method: str = "fast") -> int | None:
    """``vn mixed``: the structured LP (``fast``) needs about 4 kB per card; the general one n x n exact tables (460 bytes per entry)."""
    cards = _integer(n)
    if cards is None or method == "slow":  # slow is capped at n <= 9 by the game itself
        return None
    return _BASE + (4000 * cards if method == "fast" else 460 * cards**2)


def vn_efg(n: object) -> int | None:
    """``vn efg``: the exported tree has a node per deal, n (n - 1) of them, about 2 kB each as text and objects."""
    cards = _integer(n)
    return None if cards is None else _BASE + 2000 * cards**2


def three_mixed(n: object, method: str = "structured") -> int | None:
    """``three mixed``: 20 kB per card by the order of the cards; the compiled game's tables over card triples, 660 bytes each."""
    cards = _integer(n)
    if cards is None:
        return None
    return _BASE + (20_000 * cards if method == "structured" else 660 * cards**3)


def newman_mixed(n: object, b: object, method: str = "sequence") -> int | None:
    """``newman mixed``: the card-by-card LP about 6 kB per card and bet level (measured: n = 300, b = 300: 0.53 GB;
    n = 3000, b = 40: 0.70 GB); the compiled game's about 180 kB (n = 100, b = 50: 0.84 GB; n = 200: 2.0 GB)."""
    cards, bets = _integer(n), _integer(b)
    if cards is None or bets is None:
        return None
    return _BASE + (6000 if method == "sequence" else 180_000) * cards * bets


def goldman_stone(n: object) -> int | None:
    """``goldman-stone --n``: the LP over n^2 card pairs, 4 kB each (measured: n = 300: 0.49 GB; n = 800: > 2.2 GB)."""
    cards = _integer(n)
    return None if cards is None else _BASE + 4000 * cards**2


def compiled_game(sequences: int, terminals: int) -> int:
    """A compiled game (``solve``): 1.5 kB per payoff entry (measured: OpenSpiel liars_dice 0.40 GB, Leduc 0.19 GB)."""
    return _BASE + 1500 * terminals + 500 * sequences


def array_game_solve(sequences: int, terminals: int) -> int:
    """The zero-sum solve of a sequence form made straight from the rules as integer arrays, no tree held
    (Liar's Dice, :meth:`~exactpoker.games.liars_dice.LiarsDice.compiled`): 500 bytes per payoff entry and 500
    per sequence (measured whole processes: 2v1 with 5 sides, 2.5 M entries, 1.6 GB with the JSON's tables;
    joker 1v2 with 6 sides, 4.1 M entries, 2.2 GB; 2v1 and 1v2 with 6 sides, 33 M entries, 12.0 and 12.1 GB,
    most of it HiGHS's dual simplex), where :func:`compiled_game` counts a tree's objects as well."""
    return _BASE + 500 * terminals + 500 * sequences


def kuhn3(cards: object) -> int | None:
    """``kuhn3 --cards N``: the float guide's system over the ``N^3`` deals, about 25 kB each (table above)."""
    n = _integer(cards)
    return None if n is None else _BASE + 25_000 * n**3


def n_player_guide(terms: int) -> int:
    """The N-player float guide's system of ``terms`` products (:func:`exactpoker.solve.nplayer.gain_system.guide_terms`):
    about 100 bytes each (three-player Leduc without suits: 0.91 GB at 11.5 million, built and evaluated once)."""
    return _BASE + 100 * terms


def n_player_regret(entries: int, players: int, sequences: int) -> int:
    """The N-player regret route (:mod:`exactpoker.solve.nplayer.regret_route`): the vectorised walk's arrays and
    the sparse Jacobians of the finish, about 600 bytes per payoff entry and player and 4 kB per sequence
    (measured: three-player Leduc poker, 127 thousand entries, 1.2 GB)."""
    return _BASE + 600 * entries * players + 4000 * sequences


def sequence_arrays(entries: int, sequences: int) -> int:
    """A sequence form compiled straight from rules as arrays (``LiarsDice.compiled()``): about 100 bytes per
    payoff entry (the arrays and their temporaries) and 200 per sequence (its information set's name and layout)."""
    return _BASE + 100 * entries + 200 * sequences


_PER_NODE = 700  # bytes per node of a built and compiled game tree (table above)


def game_tree(nodes: int, sequences: int) -> int:
    """``solve`` of a game tree of ``nodes`` nodes and ``sequences`` sequences, built and compiled."""
    return _BASE + _PER_NODE * nodes + 500 * sequences


def tree_nodes_within() -> int | None:
    """The most tree nodes whose building fits in the limit (``None``: no limit known)."""
    bound = limit()
    return None if bound is None else max(0, (bound - _BASE) // _PER_NODE)


def game_file(size: int) -> int:
    """``solve FILE``: a Gambit file of ``size`` bytes, read, built and compiled (60 bytes per byte)."""
    return _BASE + 60 * size


def structured_rules(cards: int, players: int, infosets_per_card: int) -> int:
    """A seed paper's card game on its structured O(n) path (:func:`~exactpoker.solve.engine.structured._solve_structured`):
    two players about 6 kB per card and information set beyond the first (von Neumann ``n = 10000``: 0.16 GB
    measured, Newman 6 kB per card and bet level as :func:`newman_mixed`); more players 5 kB per card and
    information set (three-player poker, four of them: 20 kB per card as :func:`three_mixed`)."""
    if players == 2:
        return _BASE + 6000 * cards * max(1, infosets_per_card - 1)
    return _BASE + 5000 * cards * infosets_per_card


def seed_deals(n: object, players: int, replacement: bool) -> int | None:
    """A seed paper's card game compiled (:func:`compiled_game`) over its deals of one card each from ``1..n``, at
    least (its sequences not counted); ``None`` when ``n`` does not parse (the game's own check names it)."""
    cards = _integer(n)
    if cards is None:
        return None
    return compiled_game(0, cards**players if replacement else deal_paths(cards, cards, players))


def deal_paths(distinct: int, size: int, dealt: int, cap: int = 10**40) -> int:
    """A lower bound on the deals of ``dealt`` cards without replacement from ``size`` cards of ``distinct`` kinds:
    the product of ``min(distinct, size - j)`` (exact for distinct cards), stopped once it passes ``cap``
    (so that ``players=10**6`` costs nothing).  ``0`` when the deck has fewer than ``dealt`` cards."""
    if dealt > size:
        return 0
    paths = 1
    for j in range(dealt):
        paths *= min(distinct, size - j)
        if paths > cap:
            break
    return paths


#: The most decisions of a poker-language game's betting that the guard counts (about a second): a game whose
#: betting alone has more (ten-player Leduc) is refused as too large to count, let alone solve.
MAX_BETTING_DECISIONS = 100_000


def poker_rules(game: "PokerGame", what: str) -> None:
    """Refuse a poker-language game whose tree, counted from its rules (:func:`~exactpoker.core.poker_size.tree_size`,
    at most :data:`MAX_BETTING_DECISIONS` decisions of betting), would not fit in the limit (:func:`game_tree`)."""
    from exactpoker.core.poker_size import BettingTooLarge, tree_size

    try:
        size = tree_size(game, max_decisions=MAX_BETTING_DECISIONS)
    except BettingTooLarge as error:
        raise ResourceLimitError(f"{what}: {error.reason}") from None
    require(game_tree(size.nodes, sum(size.sequences)), f"{what} ({size.nodes} tree nodes, {sum(size.sequences)} sequences)")


def betting_rules(game: "BettingGame", what: str) -> None:
    """Refuse a seed paper's card game whose structured path (:func:`structured_rules`, from its deck and the
    decisions of its betting tree) would not fit in the limit (a game without that structure is compiled, and
    guarded then by :func:`compiled_game`)."""
    from exactpoker.core.game import Decision

    decisions, stack = 0, [game.root]
    while stack:
        node = stack.pop()
        if isinstance(node, Decision):
            decisions += 1
            stack.extend(child for _, child in node.actions)
    require(structured_rules(game.deck.cards, game.num_players, decisions), f"{what} ({game.deck.cards} cards)")


#: Seconds an enumeration of every equilibrium or optimal strategy (``--all``, ``--family``) may take: about a
#: minute, as the README says; :class:`WorkBudget` stops it then (or sooner, when its own estimate is twice that).
ENUMERATION_SECONDS = 60.0
_seconds: float | None = None


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Within the block, :class:`WorkBudget` allows ``seconds`` (``None``: :data:`ENUMERATION_SECONDS`)."""
    global _seconds
    previous, _seconds = _seconds, seconds
    try:
        yield
    finally:
        _seconds = previous


def exact_lp_seconds(rows: int, columns: int) -> float:
    """A low estimate of one exact simplex solve (Fractions) of ``rows`` inequalities in ``columns`` variables:
    ``10^-7 s * rows * columns * (rows + columns)`` (measured: Kuhn's optimal face, 27 x 20, 0.04 s; a ladder's,
    115 x 82, 4.3 s; Leduc's, 2187 x 1562, more than 100 s), for refusing at once what cannot end in time."""
    return 1e-7 * rows * columns * (rows + columns)


class WorkBudget:
    """The time an enumeration may take (:data:`ENUMERATION_SECONDS`), checked as it goes; it stops with its counts.

    ``check(done, total, counts)`` raises :class:`ResourceLimitError` when the
    time is up, or, ``total`` being known, when after a few seconds the rate
    so far says the whole would take more than twice the time; ``refuse_at_once``
    when an estimate made before any work (:func:`exact_lp_seconds`) already does.
    """

    def __init__(self, what: str, seconds: float | None = None) -> None:
        self.what = what
        self.seconds = seconds if seconds is not None else (_seconds if _seconds is not None else ENUMERATION_SECONDS)
        self.start = time.monotonic()

    def _stop(self, reason: str) -> ResourceLimitError:
        return ResourceLimitError(f"{self.what}: {reason}; more than the {self.seconds:.0f} s an enumeration may take "
                                  "(the game is too large for it; a single equilibrium: leave out --all/--family)")

    def refuse_at_once(self, estimate: float, counts: str) -> None:
        """Refuse before any work when ``estimate`` seconds (a low estimate) exceed twice the budget."""
        if estimate > 2 * self.seconds:
            raise self._stop(f"{counts}, about {_duration(estimate)} by a low estimate")

    def check(self, done: int, total: int | None = None, counts: str = "") -> None:
        """After ``done`` of ``total`` steps: raise if the time is up or the rate says the whole would not end."""
        elapsed = time.monotonic() - self.start
        counted = counts or (f"{done} of {total} done" if total else f"{done} done")
        if elapsed > self.seconds:
            raise self._stop(f"stopped after {elapsed:.0f} s ({counted})")
        if total and done and elapsed > min(3.0, self.seconds / 20):
            projected = elapsed / done * total
            if projected > 2 * self.seconds:
                raise self._stop(f"stopped after {elapsed:.0f} s ({counted}): about {_duration(projected)} in all "
                                 "at this rate")


def _duration(seconds: float) -> str:
    """``"42 s"``, ``"12 min"``, ``"3.5 h"``, ``"40 days"``."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 3 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.0f} days"
