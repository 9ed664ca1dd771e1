"""A sweep's output: JSON lines, written as each task finishes, read back to resume.

The first line identifies the sweep (``{"sweep": {"command", "grid",
"fixed"}}``); every other line is one grid point's record.  A record is
appended, flushed and synced to disk as soon as its task ends, so a crash or
Ctrl-C loses at most the tasks still running.  Opening an existing file keeps
its records (points done are not run again) after checking that it belongs
to the same sweep; a file of another sweep is refused and left untouched.
A last line cut short by a crash is dropped.  A device or named pipe
(``-o /dev/null``) is written through (:mod:`exactpoker.files`): no resume,
never replaced.
"""

from __future__ import annotations

import io
import json
import os
from typing import Any, TextIO

from exactpoker.errors import InvalidParameterError
from exactpoker.files import open_stream, resolve_output

__all__ = ["SweepStore", "point_key"]


def point_key(point: dict[str, str]) -> str:
    """A grid point as a canonical string."""
    return json.dumps(point, sort_keys=True)


class SweepStore:
    """The JSON-lines file of one sweep (module docstring)."""

    def __init__(self, path: str, header: dict[str, Any]):
        self.path = path
        self.header = {"sweep": header}
        self.records: dict[str, dict[str, Any]] = {}
        self._handle: TextIO | None = None
        self._target = resolve_output(path, "-o")  # a device or named pipe is written through, never read
        if self._target.exists and not self._target.stream:
            self._read()

    def _read(self) -> None:
        try:
            with open(self.path, encoding="utf-8") as handle:
                lines = handle.read().split("\n")
        except (OSError, UnicodeDecodeError) as error:
            raise InvalidParameterError(f"-o {self.path}: cannot read it ({error})") from None
        if not lines or not lines[0].strip():
            raise InvalidParameterError(f"-o {self.path}: exists but is not a sweep's output; choose another file")
        try:
            first = json.loads(lines[0])
        except json.JSONDecodeError:
            first = None
        if not isinstance(first, dict) or "sweep" not in first:
            raise InvalidParameterError(f"-o {self.path}: exists but is not a sweep's output; choose another file")
        if first["sweep"] != self.header["sweep"]:
            raise InvalidParameterError(
                f"-o {self.path}: belongs to a different sweep ({' '.join(first['sweep'].get('command', []))} "
                f"with another grid); choose another file"
            )
        self._valid_bytes = len(lines[0].encode("utf-8")) + 1
        for line in lines[1:]:
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:  # cut short by a crash: only ever the last line
                break
            self.records[point_key(record["point"])] = record
            self._valid_bytes += len(line.encode("utf-8")) + 1

    def done(self, point: dict[str, str]) -> bool:
        return point_key(point) in self.records

    def _open_file(self) -> TextIO:
        if self._handle is None:
            if self._target.stream:
                self._handle = io.TextIOWrapper(open_stream(self._target.target), encoding="utf-8")
                self._write(self.header)
            elif os.path.exists(self.path):
                with open(self.path, "r+b") as raw:  # drop a line cut short by a crash
                    raw.truncate(self._valid_bytes)
                self._handle = open(self.path, "a", encoding="utf-8")
            else:
                self._handle = open(self.path, "w", encoding="utf-8")
                self._write(self.header)
        return self._handle

    def _write(self, payload: dict[str, Any]) -> None:
        handle = self._handle
        assert handle is not None
        handle.write(json.dumps(payload, separators=(",", ":")) + "\n")
        handle.flush()
        if not self._target.stream:
            os.fsync(handle.fileno())

    def add(self, record: dict[str, Any]) -> None:
        """Append one point's record, durably."""
        try:
            self._open_file()
            self._write(record)
        except OSError as error:  # e.g. ENOSPC on a full disk or on -o /dev/full
            raise InvalidParameterError(f"-o {self.path}: cannot write it ({error.strerror or error})") from None
        self.records[point_key(record["point"])] = record

    def close(self) -> None:
        if self._handle is not None:
            handle, self._handle = self._handle, None
            try:
                handle.close()
            except OSError:  # every record was flushed when written: a failure here was already reported
                pass
