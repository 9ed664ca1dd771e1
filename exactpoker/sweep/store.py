"""A sweep's output: JSON lines, written as each task finishes, read back to resume.

The first line identifies the sweep (``{"sweep": {"command", "grid",
"fixed"}}``); every other line is one grid point's record.  A record is
appended, flushed and synced to disk as soon as its task ends, so a crash or
Ctrl-C loses at most the tasks still running.  Opening an existing file keeps
its records (points done are not run again) after checking that it belongs
to the same sweep; a file of another sweep is refused and left untouched.
A last line cut short by a crash is dropped.
"""

from __future__ import annotations

import json
import os
from typing import Any, TextIO

from exactpoker.errors import InvalidParameterError

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
        if not path.strip():
            raise InvalidParameterError("-o: needs a file name; got an empty one")
        if os.path.isdir(path):
            raise InvalidParameterError(f"-o {path}: is a directory")
        if os.path.exists(path):
            self._read()
        else:
            directory = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(directory) or not os.access(directory, os.W_OK):
                raise InvalidParameterError(f"-o {path}: cannot write there (no such directory, or not writable)")

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

    def _open(self) -> TextIO:
        try:
            return self._open_file()
        except OSError as error:
            raise InvalidParameterError(f"-o {self.path}: cannot write it ({error.strerror or error})") from None

    def _open_file(self) -> TextIO:
        if self._handle is None:
            if os.path.exists(self.path):
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
        os.fsync(handle.fileno())

    def add(self, record: dict[str, Any]) -> None:
        """Append one point's record, durably."""
        self._open()
        self._write(record)
        self.records[point_key(record["point"])] = record

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
