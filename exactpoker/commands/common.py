"""Helpers shared by the command modules."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable

__all__ = ["add_json", "emit", "stderr_progress"]


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
