"""Progress of long jobs: a context-local reporter that any layer may feed, drawn on a terminal by the CLI.

Lower layers (tree building, compiling, the LP stages, case searches, sweeps)
say what they are doing without knowing who listens::

    from exactpoker import progress

    progress.stage("building the tree", total=len(first_cards), unit="cards")
    for card in first_cards:
        ...
        progress.advance()

By default nobody listens: :func:`stage` and :func:`advance` cost a
context-variable lookup and do nothing.  The command line installs a
:class:`TerminalReporter` with :func:`reporting` (unless ``--json``), which
draws one line on stderr, redrawn in place::

    building the tree  [########..........] 12/40 cards  3.1/s  about 9 s left

and only when stderr is a terminal: under ``--json`` or with stderr in a file
or pipe nothing at all is written.  Nothing goes to stdout, and what the
command prints there erases the line first (:class:`ClearingStream`).  A stage without a
total shows its count (if any) and the time spent; a ticker thread redraws it
so a stage busy in one long call still shows that it is alive.

This is a bottom-layer module: it imports nothing from exactpoker.
"""

from __future__ import annotations

import contextvars
import sys
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator, TextIO, TypeVar

__all__ = ["Reporter", "TerminalReporter", "ClearingStream", "reporting", "stage", "advance", "counter", "each", "part", "current"]

T = TypeVar("T")


class Reporter:
    """The silent reporter (the default): every call does nothing."""

    def stage(self, name: str, total: int | None = None, unit: str = "") -> None:
        """A new stage of the job named ``name``, with ``total`` steps of ``unit`` if known."""

    def advance(self, count: int = 1) -> None:
        """``count`` more steps of the current stage are done."""

    def close(self) -> None:
        """The job is over: leave the terminal clean."""


_SILENT = Reporter()
_current: contextvars.ContextVar[Reporter] = contextvars.ContextVar("exactpoker_progress", default=_SILENT)
_prefix: contextvars.ContextVar[str] = contextvars.ContextVar("exactpoker_progress_prefix", default="")


def current() -> Reporter:
    """The reporter in force in this context (the silent one unless :func:`reporting` installed another)."""
    return _current.get()


def stage(name: str, total: int | None = None, unit: str = "") -> None:
    """Start the stage ``name`` of the current job (``total`` steps of ``unit``, if known)."""
    _current.get().stage(_prefix.get() + name, total, unit)


def advance(count: int = 1) -> None:
    """``count`` more steps of the current stage are done."""
    _current.get().advance(count)


def counter(name: str, unit: str = "") -> Callable[[int, int], None]:
    """A ``progress(done, total)`` callback (the form some solvers take) feeding the current reporter."""
    reporter = _current.get()
    seen = [0, -1]  # done so far, the total the stage was started with

    label = _prefix.get() + name

    def report(done: int, total: int) -> None:
        if total != seen[1]:
            reporter.stage(label, total, unit)
            seen[:] = [0, total]
        reporter.advance(done - seen[0])
        seen[0] = done

    return report


def each(items: Iterable[T], name: str, unit: str = "", total: int | None = None) -> Iterator[T]:
    """``items`` one by one as the stage ``name``, a step per item (``total``: ``len(items)`` if it has one)."""
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    reporter = _current.get()
    reporter.stage(_prefix.get() + name, total, unit)
    for item in items:
        yield item
        reporter.advance()


@contextmanager
def part(label: str) -> Iterator[None]:
    """Within the block every stage is shown as a part of ``label`` (``"b = 3: float LP basis"``).

    For a job made of repeated solves (one per bet size, per case): the inner
    solver's own stages stay readable as parts of the outer step.
    """
    token = _prefix.set(f"{_prefix.get()}{label}: ")
    try:
        yield
    finally:
        _prefix.reset(token)


@contextmanager
def reporting(reporter: Reporter | None) -> Iterator[Reporter]:
    """Within the block, :func:`stage` and :func:`advance` go to ``reporter`` (``None``: silence).

    The reporter is closed when the block ends, however it ends.
    """
    chosen = _SILENT if reporter is None else reporter
    token = _current.set(chosen)
    try:
        yield chosen
    finally:
        _current.reset(token)
        chosen.close()


class TerminalReporter(Reporter):
    """One progress line on ``stream`` (default stderr), drawn only when it is a terminal.

    Parameters
    ----------
    stream : text stream, optional
        Where to draw (default ``sys.stderr``); nothing is drawn unless ``stream.isatty()``.
    delay : float
        Seconds of silence first: a job that ends sooner draws nothing.
    interval : float
        The fewest seconds between two redraws (and the ticker's period).
    width : int
        Characters of the bar.
    """

    def __init__(self, stream: TextIO | None = None, *, delay: float = 0.5, interval: float = 0.2,
                 width: int = 24) -> None:
        self.stream = sys.stderr if stream is None else stream
        try:
            self.enabled = bool(self.stream.isatty())
        except (AttributeError, ValueError):  # a closed or odd stream
            self.enabled = False
        self.delay, self.interval, self.width = delay, interval, width
        self.born = self.drawn_at = time.monotonic()
        self.name, self.total, self.unit, self.done, self.start = "", None, "", 0, self.born
        self.shown = 0  # characters of the line now on the terminal
        self.lock = threading.Lock()
        self.ticker: threading.Thread | None = None
        self.closed = threading.Event()

    def stage(self, name: str, total: int | None = None, unit: str = "") -> None:
        if not self.enabled:
            return
        with self.lock:
            self.name, self.total, self.unit, self.done = name, total, unit, 0
            self.start = time.monotonic()
            self.draw(force=True)
        if self.ticker is None:
            self.ticker = threading.Thread(target=self.tick, name="exactpoker-progress", daemon=True)
            self.ticker.start()

    def advance(self, count: int = 1) -> None:
        if not self.enabled:
            return
        with self.lock:
            self.done += count
            self.draw(force=self.total is not None and self.done >= self.total)

    def close(self) -> None:
        self.closed.set()
        if not self.enabled:
            return
        with self.lock:
            self.erase()
            self.enabled = False

    def clear(self) -> None:
        """Erase the line now (before other output reaches the terminal); the next step draws it again."""
        if self.enabled:
            with self.lock:
                self.erase()

    def tick(self) -> None:
        while not self.closed.wait(self.interval):
            with self.lock:
                if self.enabled:
                    self.draw()

    def line(self) -> str:
        """The line as it would be drawn now."""
        now = time.monotonic()
        elapsed = max(now - self.start, 1e-9)
        unit = f" {self.unit}" if self.unit else ""
        rate = self.done / elapsed
        if self.total:
            filled = min(self.width, self.width * self.done // self.total)
            left = (f"  about {_duration((self.total - self.done) / rate)} left"
                    if rate > 0 and self.done < self.total else "")
            return (f"{self.name}  [{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{self.total}{unit}"
                    f"  {rate:.3g}/s{left}")
        counted = f"  {self.done}{unit}  {rate:.3g}/s" if self.done else ""
        return f"{self.name}{counted}  {_duration(elapsed)}"

    def draw(self, force: bool = False) -> None:
        """Redraw the line (the caller holds the lock): not before ``delay``, at most every ``interval``."""
        now = time.monotonic()
        if now - self.born < self.delay or (not force and now - self.drawn_at < self.interval):
            return
        text = self.line()
        try:
            self.stream.write("\r" + text.ljust(self.shown))
            self.stream.flush()
        except (OSError, ValueError):  # the terminal went away: stop drawing, never fail the job
            self.enabled = False
            return
        self.shown, self.drawn_at = len(text), now

    def erase(self) -> None:
        if self.shown:
            try:
                self.stream.write("\r" + " " * self.shown + "\r")
                self.stream.flush()
            except (OSError, ValueError):
                pass
            self.shown = 0


class ClearingStream:
    """``stream`` (stdout) that first erases ``reporter``'s line, so output never lands inside a progress line."""

    def __init__(self, stream: TextIO, reporter: TerminalReporter) -> None:
        self._stream, self._reporter = stream, reporter

    def write(self, text: str) -> int:
        if text:
            self._reporter.clear()
        return self._stream.write(text)

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


def _duration(seconds: float) -> str:
    """``"42 s"``, ``"3 min 5 s"``, ``"2 h 10 min"``."""
    whole = int(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60} min"
