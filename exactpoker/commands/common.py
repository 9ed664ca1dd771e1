"""Helpers shared by the command modules."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable

__all__ = ["OutputFile", "add_json", "add_output", "emit", "stderr_progress"]


class OutputFile(argparse._StoreAction):
    """An option naming a file to write; the command line checks it before the work starts."""


def add_output(parser: argparse.ArgumentParser, *flags: str, required: bool = False, help: str) -> None:
    """Add a file-to-write option (written atomically with :func:`exactpoker.files.atomic_path`)."""
    parser.add_argument(*flags, action=OutputFile, default=None, required=required, metavar="FILE", help=help)


def add_json(parser: argparse.ArgumentParser) -> None:
    """Add the ``--json`` flag every command has."""
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def emit(args: argparse.Namespace, payload: dict[str, Any], text: str) -> None:
    """Print ``payload`` as JSON when ``--json`` was given, else ``text``."""
    print(json.dumps(payload, indent=2) if args.json else text)


def stderr_progress(unit: str) -> Callable[[int, int], None] | None:
    """A progress line on stderr (``done/total unit``) when stderr is a terminal, else ``None``."""
    if not sys.stderr.isatty():
        return None

    def report(done: int, total: int) -> None:
        end = "\n" if done >= total else ""
        print(f"\r{done}/{total} {unit}", end=end, file=sys.stderr, flush=True)

    return report
