"""A game ready for the engine, and the one question every door asks a game to get it.

:func:`as_loaded` turns whatever a user hands in into a :class:`LoadedGame`;
``exactpoker solve``'s library front end
(:func:`~exactpoker.games.library.load_library`) and the Python door
(:func:`~exactpoker.solve.dispatch.solve_game`) both ask it, and both then run
:func:`~exactpoker.solve.dispatch.solve_loaded`.  A game is, in the order asked:

* rules that load themselves (:class:`SelfLoadingRules`): they make their own
  sequence form and may carry a certified solve of their own (Liar's Dice,
  compiled straight from its rules and, under the stairs rule, solved without
  the bids that can never hold);
* a seed paper's card game (:class:`~exactpoker.core.game.BettingGame`): its
  rules, whose structure the engine detects before anything is compiled;
* a poker-language game (:class:`~exactpoker.core.poker.PokerGame`): when its
  rules are a seed paper's card game with a structured path
  (:func:`~exactpoker.solve.poker_structure.detect_poker_game`), that path is its
  own solve and it is compiled only if another method is asked; else compiled
  straight from its rules (:func:`~exactpoker.core.poker_compile.compile_poker`);
* a compiled game, a game tree, or rules that build their tree
  (:class:`TreeRules`).

The file and OpenSpiel front ends (:mod:`exactpoker.formats`) make their
:class:`LoadedGame` themselves, with their own strategy layout.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Callable, Protocol, runtime_checkable

from exactpoker import guard
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.game import BettingGame
from exactpoker.core.poker import PokerGame
from exactpoker.core.tree import GameTree
from exactpoker.errors import InvalidParameterError
from exactpoker.solve.tables import Tables, infoset_tables, labelled_tables

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.results import SolveResult

__all__ = ["LoadedGame", "SelfLoadingRules", "TreeRules", "as_loaded"]


@dataclass(frozen=True)
class LoadedGame:
    """A game ready for :func:`~exactpoker.core.tree.compile_tree` (or compiled already), and its strategies' layout."""

    tree: "GameTree | None"
    tables: Tables = infoset_tables
    source: str = ""
    #: A seed paper's card game given by its rules (then ``tree`` is None): its structure is detected before
    #: anything is built (:func:`~exactpoker.solve.structured.solve_structured`), else it is compiled.
    rules: "BettingGame | None" = None
    #: The game already compiled from its rules (the library's poker-language games,
    #: :func:`~exactpoker.core.poker_compile.compile_poker`; Liar's Dice,
    #: :meth:`~exactpoker.games.liars_dice.LiarsDice.compiled`); then ``tree`` is its ``game``, built on first read.
    compiled: "CompiledGame | None" = None
    #: The rules' own certified solve, when they have one for the default options (Liar's Dice without the
    #: bids that can never hold, :mod:`exactpoker.games.liars_dice_lift`; a poker-language game that is a seed
    #: paper's card game, :mod:`exactpoker.solve.poker_structure`).
    solve: "Callable[[], SolveResult] | None" = None
    #: How to compile the game from its rules when another method is asked (a poker-language game whose
    #: structured path comes first is compiled only then).
    compile: "Callable[[], CompiledGame] | None" = None
    #: The rules' own estimate of the solve's peak memory in bytes (Liar's Dice:
    #: :func:`~exactpoker.guard.array_game_solve`), checked instead of the engine's per-entry estimate
    #: (:func:`~exactpoker.guard.compiled_game`).
    solve_memory: int | None = None


@runtime_checkable
class SelfLoadingRules(Protocol):
    """Rules that make their own :class:`LoadedGame` (e.g. :class:`~exactpoker.games.liars_dice.LiarsDice`).

    ``loaded_game(source)`` may refuse, by
    :class:`~exactpoker.errors.ResourceLimitError`, a game too large to
    build; ``source`` names the game in such messages.
    """

    def loaded_game(self, source: str) -> LoadedGame:
        """The game ready for the engine (compiled, perhaps with its own solve)."""
        ...


@runtime_checkable
class TreeRules(Protocol):
    """Rules that build their game tree, and nothing more (the engine compiles the tree)."""

    def tree(self) -> GameTree:
        """The game tree."""
        ...


def as_loaded(game: object, source: str = "", tables: Tables | None = None) -> LoadedGame:
    """``game`` ready for :func:`~exactpoker.solve.dispatch.solve_loaded` (module docstring).

    Parameters
    ----------
    game : LoadedGame, SelfLoadingRules, BettingGame, PokerGame, CompiledGame, GameTree or TreeRules
    source : str
        The game's name in messages (``"library:dice(sides=3)"``); by default its own name.
    tables : callable, optional
        The result's ``strategies`` layout (default: :func:`~exactpoker.solve.tables.infoset_tables`,
        or the given :class:`LoadedGame`'s own).

    Raises
    ------
    InvalidParameterError
        If ``game`` is none of these.
    ResourceLimitError
        If a poker-language game's tree, counted from its rules (:func:`exactpoker.guard.poker_rules`), would not
        fit in the limit.
    """
    if isinstance(game, LoadedGame):
        return game if tables is None else replace(game, tables=tables)
    source = source or _name(game)
    layout = infoset_tables if tables is None else tables
    if isinstance(game, SelfLoadingRules):
        loaded = game.loaded_game(source)
        return loaded if tables is None else replace(loaded, tables=tables)
    if isinstance(game, BettingGame):  # guarded as it is solved (its structured path, or compiled)
        return LoadedGame(None, layout, source, rules=game)
    if isinstance(game, PokerGame):
        guard.poker_rules(game, f"solve {source}")
        structured = _structured_poker(game, source, layout)
        if structured is not None:
            return structured
        from exactpoker.core.poker_compile import compile_poker

        game = compile_poker(game)
    if isinstance(game, CompiledGame):
        return LoadedGame(game.game if isinstance(game.game, GameTree) else None, layout, source, compiled=game)
    if isinstance(game, TreeRules):
        game = game.tree()
    if isinstance(game, GameTree):
        return LoadedGame(game, layout, source)
    raise InvalidParameterError(
        "solve_game(): game must be a CompiledGame, a GameTree, a PokerGame, a BettingGame, rules with a "
        f"loaded_game(source) or tree() method, or a LoadedGame; got {type(game).__name__}")


def _structured_poker(game: PokerGame, source: str, layout: Tables) -> LoadedGame | None:
    """A poker-language game that is a seed paper's card game with a structured path, solved by it by default."""
    from exactpoker.core.poker_compile import compile_poker
    from exactpoker.solve.poker_structure import detect_poker_game
    from exactpoker.solve.structured import has_structure
    from exactpoker.solve.structured_tree import solve_detected

    detected = detect_poker_game(game, accept=has_structure)
    if detected is None:
        return None
    compile = lambda: compile_poker(game)  # noqa: E731
    return LoadedGame(detected.tree.game, layout, source, compile=compile,
                      solve=lambda: solve_detected(detected, compile, layout, labelled_tables))


def _name(game: object) -> str:
    """The game's own name for messages (a compiled game's is its game's)."""
    named = game.game if isinstance(game, CompiledGame) else game
    return str(getattr(named, "name", type(game).__name__))
