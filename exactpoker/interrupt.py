"""Ctrl-C that is never lost: an interrupt is remembered as well as raised.

Python turns ``SIGINT`` into :class:`KeyboardInterrupt` in whatever the main
thread runs at that moment; when that is a finalizer (a ``__del__``, such as a
Dask future's) or a callback whose exceptions are "ignored", the exception is
printed and dropped, and the job goes on as if nothing had happened (a sweep on
a Dask cluster ran all its points and exited 0).  Within :func:`watching` (the
command line's whole run) the handler also sets a flag, and the loops that
wait for work (:class:`~exactpoker.parallel.Runner`, the sweep) call
:func:`check`, which raises :class:`KeyboardInterrupt` again if an interrupt
was seen: the run stops at the next task, and the command line exits 130.

This is a bottom-layer module: it imports nothing from exactpoker.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from types import FrameType
from typing import Iterator

__all__ = ["watching", "deferred", "check", "seen"]

_seen = False


def _handler(signum: int, frame: FrameType | None) -> None:
    global _seen
    _seen = True
    raise KeyboardInterrupt


def _remember(signum: int, frame: FrameType | None) -> None:
    global _seen
    _seen = True


@contextmanager
def watching() -> Iterator[None]:
    """Within the block, ``SIGINT`` raises :class:`KeyboardInterrupt` and is remembered (:func:`seen`).

    Only on the main thread, and only where ``SIGINT`` has Python's default
    handler: an interrupt the shell ignores (a job started with ``&`` or
    ``nohup``) stays ignored.
    """
    global _seen
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    previous, _seen = _seen, False
    signal.signal(signal.SIGINT, _handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        _seen = previous


@contextmanager
def deferred() -> Iterator[None]:
    """Within the block an interrupt is only remembered, and raised as the block ends.

    For a start-up that must not be cut in half (a Dask cluster whose worker
    processes, orphaned mid-start, print tracebacks and leave the cluster for
    an exit handler that fails): the interrupt waits the few seconds it takes,
    then stops the run as any other.  An ignored ``SIGINT`` stays ignored.
    """
    global _seen
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGINT) not in (signal.default_int_handler, _handler):
        yield
        return
    before, _seen = _seen, False
    previous = signal.signal(signal.SIGINT, _remember)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        came, _seen = _seen, _seen or before
    if came:
        if previous is not _handler:  # outside watching(): nothing else reads the flag
            _seen = before
        raise KeyboardInterrupt


def seen() -> bool:
    """Whether an interrupt came within :func:`watching` (even one whose exception was dropped)."""
    return _seen


def check() -> None:
    """Raise :class:`KeyboardInterrupt` if an interrupt came (:func:`seen`): call it where the work waits."""
    if _seen:
        raise KeyboardInterrupt
