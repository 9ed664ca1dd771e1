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
information-set labels for the library.  :class:`LoadedGame` (defined in
:mod:`exactpoker.solve.engine.loaded`, the engine's input) goes to
:func:`~exactpoker.solve.engine.dispatch.solve_game`, the one entry point that
``exactpoker solve`` and the Python door share.
"""

from __future__ import annotations

import os

from exactpoker.errors import InvalidParameterError
from exactpoker.formats.calls import parse_call
from exactpoker.solve.engine.loaded import LoadedGame

__all__ = ["LoadedGame", "load_game", "parse_call"]


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
    if spec.startswith("library:"):  # the rules, made ready by the engine's one question (as solve_game asks)
        from exactpoker.games.library import poker_game
        from exactpoker.solve.engine.loaded import as_loaded

        name, params = parse_call(spec[len("library:"):])
        return as_loaded(poker_game(name, **params), source=spec)
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
