"""Where games come from: files, other libraries and the shipped library, all as :class:`GameTree`.

:func:`load_game` reads the ``GAME`` argument of ``exactpoker solve``:

* ``PATH.efg``: a Gambit extensive game (:mod:`exactpoker.formats.efg`);
* ``PATH.nfg``: a Gambit strategic game (:mod:`exactpoker.formats.nfg`);
* ``openspiel:NAME`` (a pyspiel game string such as ``kuhn_poker(players=3)``):
  an OpenSpiel game walked once (:mod:`exactpoker.formats.openspiel`);
* ``library:NAME`` or ``library:NAME(key=value,...)``: a game of
  :mod:`exactpoker.games.library`, written in the poker language.

Each front end also says how a certified profile is laid out in the result's
``strategies`` (its :attr:`LoadedGame.tables`): a Gambit behaviour profile for
``.efg``, OpenSpiel's information-state strings for OpenSpiel, the game's own
information-set labels for the library.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from exactpoker.core.compiled import CompiledGame
from exactpoker.core.game import BettingGame
from exactpoker.core.tree import GameTree
from exactpoker.errors import InvalidParameterError
from exactpoker.solve.dispatch import Tables, infoset_tables

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.results import SolveResult

__all__ = ["LoadedGame", "load_game", "parse_call"]


@dataclass(frozen=True)
class LoadedGame:
    """A game ready for :func:`~exactpoker.core.tree.compile_tree` (or compiled already), and its strategies' layout."""

    tree: "GameTree | None"
    tables: Tables = infoset_tables
    source: str = ""
    #: A seed paper's card game given by its rules (then ``tree`` is None): solved by
    #: :func:`exactpoker.solve.rules.solve_rules`, which detects its structure before building anything.
    rules: "BettingGame | None" = None
    #: The game already compiled from its rules (the library's poker-language games,
    #: :func:`~exactpoker.core.poker_compile.compile_poker`; Liar's Dice,
    #: :meth:`~exactpoker.games.liars_dice.LiarsDice.compiled`); then ``tree`` is its ``game``, built on first read.
    compiled: "CompiledGame | None" = None
    #: The rules' own certified solve, when they have one for the default options (Liar's Dice without the
    #: bids that can never hold, :mod:`exactpoker.games.liars_dice_lift`).
    solve: "Callable[[], SolveResult] | None" = None


def parse_call(text: str) -> tuple[str, dict[str, str]]:
    """``"name(a=1,b=x)"`` -> ``("name", {"a": "1", "b": "x"})``; a plain ``"name"`` has no parameters."""
    text = text.strip()
    if "(" not in text:
        return text, {}
    if not text.endswith(")"):
        raise InvalidParameterError(f"GAME: {text!r} must look like name or name(key=value,...)")
    name, inner = text[:-1].split("(", 1)
    params: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in inner.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InvalidParameterError(f"GAME: parameter {item!r} of {name!r} must look like key=value")
        params[key.strip()] = value.strip()
    return name.strip(), params


def load_game(spec: str) -> LoadedGame:
    """The game named by ``spec`` (see the module docstring).

    Raises
    ------
    InvalidParameterError
        For an unknown kind of source, a missing or unreadable file, or an
        unknown game name (the message names it and what is allowed).
    """
    if spec.startswith("openspiel:"):
        from exactpoker.formats.openspiel import load_openspiel

        return load_openspiel(spec[len("openspiel:"):])
    if spec.startswith("library:"):
        from exactpoker.games.library import load_library

        return load_library(spec[len("library:"):])
    lower = spec.lower()
    if lower.endswith(".efg") or lower.endswith(".nfg"):
        if not os.path.isfile(spec):
            raise InvalidParameterError(f"GAME: no such file: {spec}")
        try:
            with open(spec, encoding="utf-8") as handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError) as error:
            raise InvalidParameterError(f"GAME: cannot read {spec}: {error}") from None
        if lower.endswith(".efg"):
            from exactpoker.formats.efg import read_efg

            return read_efg(text, source=spec)
        from exactpoker.formats.nfg import read_nfg

        return read_nfg(text, source=spec)
    raise InvalidParameterError(
        f"GAME must be a .efg or .nfg file, openspiel:NAME or library:NAME (see exactpoker solve --list); got {spec!r}"
    )
