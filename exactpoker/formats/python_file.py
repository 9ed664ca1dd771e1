"""A poker-language game defined in a Python file: ``exactpoker solve mygame.py`` (and ``certify``, ``convert``).

``PATH.py`` names the file's module-level ``game``; ``PATH.py:NAME`` names
another module-level name.  That name must hold a
:class:`~exactpoker.core.poker.PokerGame`, or a function that takes no
arguments and returns one (called once).  Anything else is refused in one line
that says what the file defines instead.

The file is run as ``python PATH.py`` would run it (its directory first on
``sys.path`` while it runs, so it can import its neighbours), except that
``__name__`` is ``"__exactpoker_game__"``, not ``"__main__"``: an
``if __name__ == "__main__":`` block does not run.  Running a file runs its
code: give only files you would run yourself.  An exception raised while it
runs is reported in one line (its type and message), never a traceback.
"""

from __future__ import annotations

import os
import re
import runpy
import sys

from exactpoker.core.poker import PokerGame
from exactpoker.errors import InvalidParameterError

__all__ = ["GAME_NAME", "is_python_spec", "python_game"]

#: The module-level name read from ``PATH.py`` when no ``:NAME`` is given.
GAME_NAME = "game"

_SPEC = re.compile(r"(?P<path>.+\.py)(?::(?P<name>[A-Za-z_]\w*))?", re.S | re.I)


def is_python_spec(spec: str) -> bool:
    """Whether ``spec`` names a Python file (``PATH.py`` or ``PATH.py:NAME``)."""
    return _SPEC.fullmatch(spec) is not None


def python_game(spec: str) -> PokerGame:
    """The poker-language game that ``PATH.py`` (or ``PATH.py:NAME``) defines (module docstring).

    Raises
    ------
    InvalidParameterError
        If the file is missing, raises while it runs, or does not define the
        name as a :class:`PokerGame` (or a function returning one).
    """
    match = _SPEC.fullmatch(spec)
    if match is None:
        raise InvalidParameterError(f"GAME must be PATH.py or PATH.py:NAME for a Python file; got {spec!r}")
    path, name = match.group("path"), match.group("name") or GAME_NAME
    if not os.path.isfile(path):
        raise InvalidParameterError(f"GAME: no such file: {path}")
    defined = _run(path)
    if name not in defined:
        games = sorted(key for key, value in defined.items() if isinstance(value, PokerGame))
        hint = (f"; it defines the PokerGame {'objects' if len(games) > 1 else 'object'} {', '.join(games)}: "
                f"give {path}:{games[0]}" if games else "; it defines no PokerGame at module level")
        raise InvalidParameterError(f"GAME {path}: no module-level name {name!r}{hint}")
    found = defined[name]
    if callable(found) and not isinstance(found, PokerGame):
        found = _called(found, f"{path}:{name}")
    if not isinstance(found, PokerGame):
        raise InvalidParameterError(f"GAME {path}:{name} is a {type(found).__name__}, not a PokerGame (the poker "
                                    "language, exactpoker.core.PokerGame) or a function returning one")
    return found


def _run(path: str) -> dict[str, object]:
    """The module-level names of the file, run with its directory first on ``sys.path``."""
    folder = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, folder)
    try:
        return runpy.run_path(path, run_name="__exactpoker_game__")
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # the file's own error, SystemExit included: one line, not a traceback
        raise InvalidParameterError(f"GAME {path}: running it raised {_one_line(error)}") from None
    finally:
        if sys.path and sys.path[0] == folder:
            del sys.path[0]


def _called(function: object, where: str) -> object:
    try:
        return function()  # type: ignore[operator]
    except KeyboardInterrupt:
        raise
    except BaseException as error:
        raise InvalidParameterError(f"GAME {where}: calling it raised {_one_line(error)}") from None


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text[:300]}" if text else type(error).__name__
