"""A game ready for the engine, and the one question every door asks a game to get it.

:func:`as_loaded` turns whatever a user hands in into a :class:`LoadedGame`;
``exactpoker solve``'s library front end
(:func:`~exactpoker.formats.load_game`) and the Python door
(:func:`~exactpoker.solve.engine.dispatch.solve_game`) both ask it, and both then run
:func:`~exactpoker.solve.engine.dispatch.solve_game`'s own steps.  A game is, in the order asked:

* rules that compile themselves (:class:`CompilingRules`): they make their own
  sequence form and may declare a smaller game to solve first (Liar's Dice,
  compiled straight from its rules and, under the stairs rule, solved without
  the bids that can never hold: :mod:`~exactpoker.solve.engine.restricted`);
* a seed paper's card game (:class:`~exactpoker.core.game.BettingGame`): its
  rules, whose structure the engine detects before anything is compiled;
* a poker-language game (:class:`~exactpoker.core.poker.PokerGame`): when its
  rules are a seed paper's card game with a structured path
  (:func:`~exactpoker.solve.structure.poker_structure.detect_poker_game`), that path is its
  own solve and it is compiled only if another method is asked; else compiled
  straight from its rules (:func:`~exactpoker.core.poker_compile.compile_poker`);
* a compiled game, a game tree, or rules that build their tree
  (:class:`TreeRules`).

The file and OpenSpiel front ends (:mod:`exactpoker.formats`) make their
:class:`LoadedGame` themselves, with their own strategy layout.  A game given
by name (a spec string such as ``"library:kuhn"``, ``"openspiel:kuhn_poker"`` or
a path, or an ``os.PathLike``) or as another library's object (a
``pyspiel.Game``, a ``pygambit.Game``) is read by those front ends through
:func:`exactpoker.load_game`: the package root hands the engine the formats
layer's reader, so this module imports no higher layer.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Callable, Protocol, runtime_checkable

from exactpoker import guard
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.game import BettingGame
from exactpoker.core.poker import PokerGame
from exactpoker.core.restriction import Restriction
from exactpoker.core.tree import GameTree
from exactpoker.errors import InvalidParameterError
from exactpoker.lazy import is_instance
from exactpoker.solve.engine.tables import Tables, infoset_tables, labelled_tables

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.results import SolveResult

__all__ = ["LoadedGame", "CompilingRules", "TreeRules", "as_loaded"]


@dataclass(frozen=True)
class LoadedGame:
    """A game ready for :func:`~exactpoker.core.tree.compile_tree` (or compiled already), and its strategies' layout."""

    tree: "GameTree | None"
    tables: Tables = infoset_tables
    source: str = ""
    #: A seed paper's card game given by its rules (then ``tree`` is None): its structure is detected before
    #: anything is built (:mod:`~exactpoker.solve.engine.structured`), else it is compiled.
    rules: "BettingGame | None" = None
    #: The game already compiled from its rules (the library's poker-language games,
    #: :func:`~exactpoker.core.poker_compile.compile_poker`; Liar's Dice,
    #: :meth:`~exactpoker.games.liars_dice.LiarsDice.compiled`); then ``tree`` is its ``game``, built on first read.
    compiled: "CompiledGame | None" = None
    #: The structured path of a poker-language game that is a seed paper's card game
    #: (:mod:`exactpoker.solve.structure.poker_structure`), made by the engine: its solve under the default options.
    solve: "Callable[[], SolveResult] | None" = None
    #: How to compile the game from its rules when another method is asked (a poker-language game whose
    #: structured path comes first is compiled only then).
    compile: "Callable[[], CompiledGame] | None" = None
    #: The rules' own estimate of the solve's peak memory in bytes (Liar's Dice:
    #: :func:`~exactpoker.guard.array_game_solve`), checked instead of the engine's per-entry estimate
    #: (:func:`~exactpoker.guard.compiled_game`).
    solve_memory: int | None = None
    #: A smaller game the rules declare (Liar's Dice without the bids that can never hold): under the default
    #: options it is solved and its equilibrium lifted and certified on ``compiled``
    #: (:mod:`exactpoker.solve.engine.restricted`).
    restriction: Restriction | None = None


@runtime_checkable
class CompilingRules(Protocol):
    """Rules that make their own sequence form (e.g. :class:`~exactpoker.games.liars_dice.LiarsDice`).

    They are asked, never called back: the sequence form, the estimated
    memory of its solve (with what was counted, for a refusal), and a smaller
    game to solve first, if any (:mod:`~exactpoker.solve.engine.restricted`).
    """

    def compiled(self) -> CompiledGame:
        """The sequence form."""
        ...

    def solve_memory(self) -> tuple[int, str]:
        """The solve's estimated peak memory in bytes, and what it counted (``"250 sequences, ..."``)."""
        ...

    def restriction(self) -> Restriction | None:
        """The smaller game to solve first, or ``None``."""
        ...


@runtime_checkable
class TreeRules(Protocol):
    """Rules that build their game tree, and nothing more (the engine compiles the tree)."""

    def tree(self) -> GameTree:
        """The game tree."""
        ...


def as_loaded(game: object, source: str = "", tables: Tables | None = None) -> LoadedGame:
    """``game`` ready for :func:`~exactpoker.solve.engine.dispatch.solve_game`'s steps (module docstring).

    Parameters
    ----------
    game : LoadedGame, CompilingRules, BettingGame, PokerGame, CompiledGame, GameTree or TreeRules, or by name
        A spec string (``"library:kuhn"``, ``"openspiel:kuhn_poker"``, a path), an
        ``os.PathLike``, a ``pyspiel.Game`` or a ``pygambit.Game`` (module docstring).
    source : str
        The game's name in messages (``"library:dice(sides=3)"``); by default its own name.
    tables : callable, optional
        The result's ``strategies`` layout (default: :func:`~exactpoker.solve.engine.tables.infoset_tables`,
        or the given :class:`LoadedGame`'s own).

    Raises
    ------
    InvalidParameterError
        If ``game`` is none of these.
    ResourceLimitError
        If a poker-language game's tree, counted from its rules (:func:`exactpoker.guard.poker_rules`), would not
        fit in the limit.
    """
    if isinstance(game, (str, os.PathLike)) or is_instance(game, "pyspiel", "Game") \
            or is_instance(game, "pygambit", "Game"):
        from exactpoker import load_game  # the formats layer's reader, handed over by the package root

        game = load_game(game)
    if isinstance(game, LoadedGame):
        return game if tables is None else replace(game, tables=tables)
    source = source or _name(game)
    layout = infoset_tables if tables is None else tables
    if isinstance(game, CompilingRules):
        return _compiling_rules(game, source, layout)
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
    continuous = (" (a continuous deck's game is solved by exactpoker.solve.solve_continuous)"
                  if is_instance(game, "exactpoker.core.continuous_deck", "ContinuousGame") else "")
    raise InvalidParameterError(
        "solve_game(): game must be a CompiledGame, a GameTree, a PokerGame, a BettingGame, rules with "
        "compiled(), solve_memory() and restriction() or with tree(), a LoadedGame, a spec string ('library:kuhn', "
        f"'openspiel:kuhn_poker', a path), a pyspiel.Game or a pygambit.Game; got {type(game).__name__}{continuous}")


def _compiling_rules(rules: CompilingRules, source: str, tables: Tables) -> LoadedGame:
    """Rules that compile themselves, ready for the engine: guarded, compiled, their restriction attached.

    Raises
    ------
    ResourceLimitError
        If the rules' estimate of the solve's memory is over the limit (before anything is built).
    """
    estimate, counted = rules.solve_memory()
    guard.require(estimate, f"solve {source} ({counted})")
    compiled = rules.compiled()
    restriction = rules.restriction()
    # with a restriction the estimate counted the smaller game: the full one, if asked, is guarded as compiled
    return LoadedGame(compiled.game, tables, source, compiled=compiled, restriction=restriction,
                      solve_memory=estimate if restriction is None else None)


def _structured_poker(game: PokerGame, source: str, layout: Tables) -> LoadedGame | None:
    """A poker-language game that is a seed paper's card game with a structured path, solved by it by default."""
    from exactpoker.core.poker_compile import compile_poker
    from exactpoker.solve.structure.poker_structure import detect_poker_game
    from exactpoker.solve.engine.structured import has_structure
    from exactpoker.solve.engine.structured_tree import _solve_detected

    detected = detect_poker_game(game, accept=has_structure)
    if detected is None:
        return None
    compile = lambda: compile_poker(game)  # noqa: E731
    return LoadedGame(detected.tree.game, layout, source, compile=compile,
                      solve=lambda: _solve_detected(detected, compile, layout, labelled_tables))


def _name(game: object) -> str:
    """The game's own name for messages (a compiled game's is its game's)."""
    named = game.game if isinstance(game, CompiledGame) else game
    return str(getattr(named, "name", type(game).__name__))
