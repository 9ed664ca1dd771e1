"""Files named on the command line: checked before the work starts, written whole or not at all.

An output path is written *through* to what it names (:func:`resolve_output`):

- a regular file (new or existing) is written atomically: the bytes go to a
  temporary file in the target's directory, renamed over the target only when
  the write finished (``os.replace`` is atomic within one file system), so an
  interrupted or failed write never leaves a half-written file.  A symbolic
  link is followed to its final target, which is the file replaced; the link
  itself is kept.  An existing file keeps its permission bits;
- a character or block device (``/dev/null``), a named pipe or an open
  descriptor's name (``/dev/stdout``, ``/dev/fd/3``, whatever it has open)
  is opened and written, never replaced, unlinked or created: the bytes are
  collected in a temporary file first and then copied through, so a failed
  job writes nothing there either.  Opening a pipe waits for its reader, as
  ``echo > pipe`` does;
- a directory, a socket, a missing directory or a path without permission is
  refused with one line naming the option and the path.

:func:`check_writable` and :func:`check_readable` turn a bad path into an
:class:`~exactpoker.errors.InvalidParameterError` (the command line prints it
as one line, exit status 2); so does a write that fails (``ENOSPC`` on
``/dev/full``).
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from typing import BinaryIO, Iterator

from exactpoker.errors import InvalidParameterError

__all__ = ["OutputTarget", "resolve_output", "check_writable", "check_readable", "atomic_path", "write_text",
           "open_stream", "check_image_target"]


@dataclass(frozen=True)
class OutputTarget:
    """What an output path names once symbolic links are followed.

    Attributes
    ----------
    path : str
        The path as the user gave it (used in messages).
    target : str
        The final target: ``path`` with every symbolic link resolved.
    stream : bool
        True for a character or block device or a named pipe (written
        through, never replaced); False for a regular file or a new one.
    exists : bool
        Whether ``target`` exists.
    mode : int
        The permission bits an existing regular file has (0 otherwise).
    """

    path: str
    target: str
    stream: bool
    exists: bool
    mode: int = 0


def _refuse(option: str, path: str, why: str) -> InvalidParameterError:
    return InvalidParameterError(f"{option}: cannot write {path}: {why}")


def resolve_output(path: str, option: str) -> OutputTarget:
    """Follow ``path``'s symbolic links and say how it will be written (module docstring).

    Parameters
    ----------
    path : str
        The output path as given on the command line or to the API.
    option : str
        The option that named it (``--output``, ``--csv``), used in messages.

    Returns
    -------
    OutputTarget
        The final target and whether it is written through (a device, a
        named pipe or a descriptor's name) or replaced atomically.

    Raises
    ------
    InvalidParameterError
        Naming ``option`` and ``path``: an empty name, a directory, a missing
        directory, a socket or other special file, a symbolic-link loop, or no
        permission to write.
    """
    if not path.strip():
        raise InvalidParameterError(f"{option}: needs a file name; got an empty one")
    if _names_a_descriptor(path):
        return _descriptor_target(path, option)
    target = os.path.realpath(path)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        directory = os.path.dirname(target)
        if not os.path.isdir(directory):
            raise _refuse(option, path, f"no such directory {directory}") from None
        if not os.access(directory, os.W_OK | os.X_OK):
            raise _refuse(option, path, "permission denied") from None
        return OutputTarget(path, target, stream=False, exists=False)
    except OSError as error:  # a link loop, a file used as a directory, no permission to look
        raise _refuse(option, path, error.strerror or str(error)) from None
    if stat.S_ISDIR(mode):
        raise InvalidParameterError(f"{option}: {path} is a directory, not a file")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISFIFO(mode):
        if not os.access(target, os.W_OK):
            raise _refuse(option, path, "permission denied")
        return OutputTarget(path, target, stream=True, exists=True)
    if not stat.S_ISREG(mode):
        raise _refuse(option, path, "it is not a regular file, a device or a named pipe")
    if not os.access(os.path.dirname(target), os.W_OK | os.X_OK) or not os.access(target, os.W_OK):
        raise _refuse(option, path, "permission denied")
    return OutputTarget(path, target, stream=False, exists=True, mode=stat.S_IMODE(mode))


_DESCRIPTOR = re.compile(r"/(?:proc/[^/]+|dev)/fd/\d+|/dev/std(?:out|err)")


def _names_a_descriptor(path: str) -> bool:
    """Whether ``path`` (or a link it leads through) names an open descriptor: ``/dev/stdout``, ``/dev/fd/3``.

    Such a name stands for whatever the descriptor has open (a pipe, a
    terminal, a file opened by the shell's ``>>``): it is written through,
    never resolved to a file and replaced.
    """
    current = os.path.abspath(path)
    for _ in range(40):  # the kernel's own limit on a chain of links
        if _DESCRIPTOR.fullmatch(current):
            return True
        if not os.path.islink(current):
            return False
        current = os.path.normpath(os.path.join(os.path.dirname(current), os.readlink(current)))
    return False


def _descriptor_target(path: str, option: str) -> OutputTarget:
    """An open descriptor's name (:func:`_names_a_descriptor`) as a target written through."""
    try:
        mode = os.stat(path).st_mode
    except OSError as error:  # a closed descriptor
        raise _refuse(option, path, error.strerror or str(error)) from None
    if stat.S_ISDIR(mode):
        raise InvalidParameterError(f"{option}: {path} is a directory, not a file")
    if not os.access(path, os.W_OK):
        raise _refuse(option, path, "permission denied")
    return OutputTarget(path, path, stream=True, exists=True)


def check_writable(path: str, option: str) -> None:
    """Raise :class:`InvalidParameterError` unless ``path`` can be written (see :func:`resolve_output`)."""
    resolve_output(path, option)


#: The first bytes of the image files a figure may replace: PNG, JPEG, GIF, PDF, PostScript, SVG (or XML).
_IMAGE_STARTS = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF8", b"%PDF", b"%!PS", b"<svg", b"<?xml")


def check_image_target(path: str, option: str, force: bool = False) -> None:
    """Refuse to replace an existing regular file that is not an image (``--plot keep.efg``) unless ``force``.

    An empty file, a device or a pipe is written as any output is
    (:func:`check_writable`); a file whose first bytes are an image's (PNG,
    JPEG, GIF, PDF, PostScript, SVG) may be replaced by a new figure.
    """
    target = resolve_output(path, option)
    if force or not target.exists or target.stream:
        return
    try:
        with open(target.target, "rb") as handle:
            start = handle.read(16)
    except OSError as error:
        raise _refuse(option, path, error.strerror or str(error)) from None
    if start and not start.lstrip().startswith(_IMAGE_STARTS):
        raise InvalidParameterError(f"{option}: {path} exists and is not an image; it is kept (choose another "
                                    "file, or give --force to replace it)")


def check_readable(path: str, option: str) -> None:
    """Raise :class:`InvalidParameterError` unless ``path`` is a readable file."""
    if not os.path.isfile(path):
        raise InvalidParameterError(f"{option}: no such file: {path}")
    if not os.access(path, os.R_OK):
        raise InvalidParameterError(f"{option}: cannot read {path}: permission denied")


def open_stream(target: str) -> BinaryIO:
    """Open an existing device, named pipe or descriptor for writing (never creating, truncating or replacing it).

    Writes append, so ``-o /dev/stdout >> log`` adds to the log.
    """
    descriptor = os.open(target, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOCTTY", 0))
    return os.fdopen(descriptor, "wb")


def _write_through(temporary: str, target: str) -> None:
    """Copy the finished ``temporary`` file into the device or pipe ``target``."""
    import shutil  # (and its compression modules) only when a device or pipe is written

    with open(temporary, "rb") as source, open_stream(target) as sink:
        shutil.copyfileobj(source, sink)


def _new_temporary(directory: str, name: str, mode: int) -> str:
    handle, temporary = tempfile.mkstemp(prefix=f".{name[:40]}.", suffix=os.path.splitext(name)[1][:20],
                                         dir=directory)
    os.close(handle)
    if not mode:  # a new file: the permissions a plain open() would have given
        mask = os.umask(0)
        os.umask(mask)
        mode = 0o666 & ~mask
    os.chmod(temporary, mode)
    return temporary


def _finish(temporary: str, path: str, option: str) -> None:
    """Put the finished ``temporary`` where ``path`` points, looking again at what it is now."""
    target = resolve_output(path, option)
    if target.stream:
        _write_through(temporary, target.target)
    else:
        os.replace(temporary, target.target)


@contextmanager
def atomic_path(path: str, option: str = "output") -> Iterator[str]:
    """A temporary path (same suffix) to write; put where ``path`` points when the block ends without error.

    A regular file (or a symbolic link's final target) is replaced by renaming
    the temporary over it; a device or named pipe gets the temporary's bytes
    written into it (module docstring).  On an error (or Ctrl-C) the temporary
    file is removed and ``path`` is left as it was.  An ``OSError`` while
    writing becomes an :class:`InvalidParameterError` naming ``option`` and
    ``path``.
    """
    target = resolve_output(path, option)
    directory = tempfile.gettempdir() if target.stream else os.path.dirname(target.target)
    try:
        temporary = _new_temporary(directory, os.path.basename(target.target), target.mode)
    except OSError as error:
        raise _refuse(option, path, error.strerror or str(error)) from None
    try:
        yield temporary
        _finish(temporary, path, option)
    except OSError as error:
        raise _refuse(option, path, error.strerror or str(error)) from None
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def write_text(path: str, text: str, option: str = "output") -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all."""
    with atomic_path(path, option) as temporary:
        with open(temporary, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
