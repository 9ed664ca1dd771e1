"""Files named on the command line: checked before the work starts, written whole or not at all.

:func:`check_writable` and :func:`check_readable` turn a bad path into an
:class:`~exactpoker.errors.InvalidParameterError` naming the option and the
path (the command line prints it as one line, exit status 2).
:func:`atomic_path` and :func:`write_text` write to a temporary file in the
target's directory and rename it over the target only when the write finished,
so an interrupted or failed write never leaves a half-written file
(``os.replace`` is atomic on POSIX and Windows within one file system).
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from typing import Iterator

from exactpoker.errors import InvalidParameterError

__all__ = ["check_writable", "check_readable", "atomic_path", "write_text"]


def check_writable(path: str, option: str) -> None:
    """Raise :class:`InvalidParameterError` unless ``path`` can be created or overwritten."""
    if not path.strip():
        raise InvalidParameterError(f"{option}: needs a file name; got an empty one")
    directory = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise InvalidParameterError(f"{option}: {path} is a directory, not a file")
    if not os.path.isdir(directory):
        raise InvalidParameterError(f"{option}: cannot write {path}: no such directory {directory}")
    if not os.access(directory, os.W_OK | os.X_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise InvalidParameterError(f"{option}: cannot write {path}: permission denied")


def check_readable(path: str, option: str) -> None:
    """Raise :class:`InvalidParameterError` unless ``path`` is a readable file."""
    if not os.path.isfile(path):
        raise InvalidParameterError(f"{option}: no such file: {path}")
    if not os.access(path, os.R_OK):
        raise InvalidParameterError(f"{option}: cannot read {path}: permission denied")


@contextmanager
def atomic_path(path: str, option: str = "output") -> Iterator[str]:
    """A temporary path beside ``path`` (same suffix); renamed to ``path`` when the block ends without error.

    On an error (or Ctrl-C) the temporary file is removed and ``path`` is left
    as it was.  An ``OSError`` while writing becomes an
    :class:`InvalidParameterError` naming ``option`` and ``path``.
    """
    check_writable(path, option)
    directory, name = os.path.split(os.path.abspath(path))
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{name[:40]}.", suffix=os.path.splitext(name)[1][:20],
                                             dir=directory)
    except OSError as error:
        raise InvalidParameterError(f"{option}: cannot write {path}: {error.strerror or error}") from None
    os.close(handle)
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(temporary, 0o666 & ~mask)  # the permissions a plain open() would have given
    try:
        yield temporary
        os.replace(temporary, path)
    except OSError as error:
        raise InvalidParameterError(f"{option}: cannot write {path}: {error.strerror or error}") from None
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def write_text(path: str, text: str, option: str = "output") -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all."""
    with atomic_path(path, option) as temporary:
        with open(temporary, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
