"""exactpoker: exact, certified solutions of the small poker models of game theory."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.solve.engine.loaded import LoadedGame

__all__ = ["load_game"]


def load_game(game: object) -> "LoadedGame":
    """A game given by name or as another library's object, ready for the engine.

    The same as :func:`exactpoker.formats.load_game` (``"library:kuhn"``,
    ``"openspiel:kuhn_poker"``, a ``.efg``, ``.nfg`` or ``.py`` path, an
    ``os.PathLike``, a ``pyspiel.Game``, a ``pygambit.Game``), imported when first
    called.  It lives here, at the package root, so that the engine
    (:func:`~exactpoker.solve.engine.loaded.as_loaded`, behind
    :func:`~exactpoker.solve.engine.dispatch.solve_game`) can read such games without
    importing the formats layer, which sits above it.
    """
    from exactpoker.formats import load_game as read

    return read(game)
