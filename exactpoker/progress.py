"""A progress bar on the terminal: done / total, rate and time left; silent when stderr is not a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["ProgressBar"]


class ProgressBar:
    """``[#####.....] 12/40 tasks  3.1/s  about 9 s left`` on one line of ``stream``, redrawn as work finishes.

    ``quiet`` (e.g. under ``--json``) or a stream that is not a terminal draws nothing.
    """

    def __init__(self, total: int, unit: str = "tasks", *, quiet: bool = False, stream: TextIO | None = None,
                 width: int = 30):
        self.total, self.unit, self.width = total, unit, width
        self.stream = sys.stderr if stream is None else stream
        self.enabled = not quiet and total > 0 and self.stream.isatty()
        self.done = 0
        self.start = time.monotonic()

    def line(self) -> str:
        elapsed = max(time.monotonic() - self.start, 1e-9)
        rate = self.done / elapsed
        filled = int(self.width * self.done / self.total) if self.total else self.width
        left = f"about {(self.total - self.done) / rate:.0f} s left" if 0 < rate and self.done < self.total else ""
        return f"[{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{self.total} {self.unit}  {rate:.2g}/s  {left}"

    def advance(self, count: int = 1) -> None:
        self.done += count
        if self.enabled:
            end = "\n" if self.done >= self.total else ""
            print("\r" + self.line().ljust(self.width + 50), end=end, file=self.stream, flush=True)

    def close(self) -> None:
        if self.enabled and self.done < self.total:
            print(file=self.stream, flush=True)
