"""Helpers shared by the command modules."""

from __future__ import annotations

import argparse
import json
from typing import Any

__all__ = ["add_json", "emit"]


def add_json(parser: argparse.ArgumentParser) -> None:
    """Add the ``--json`` flag every command has."""
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def emit(args: argparse.Namespace, payload: dict[str, Any], text: str) -> None:
    """Print ``payload`` as JSON when ``--json`` was given, else ``text``."""
    print(json.dumps(payload, indent=2) if args.json else text)
