"""Helpers shared by the command modules."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.parallel import Runner

__all__ = ["OutputFile", "add_json", "add_output", "emit", "add_runner_options", "runner_of"]


class OutputFile(argparse._StoreAction):
    """An option naming a file to write; the command line checks it before the work starts."""


def add_output(parser: argparse.ArgumentParser, *flags: str, required: bool = False, help: str) -> None:
    """Add a file-to-write option, checked before the work starts and written through to what it names.

    A regular file (or a symbolic link's target) is replaced atomically, a
    device or named pipe is written into, never replaced; a directory or a
    missing directory is refused in one line (:mod:`exactpoker.files`).
    """
    parser.add_argument(*flags, action=OutputFile, default=None, required=required, metavar="FILE", help=help)


def add_json(parser: argparse.ArgumentParser) -> None:
    """Add the ``--json`` flag every command has."""
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def emit(args: argparse.Namespace, payload: dict[str, Any], text: str) -> None:
    """Print ``payload`` as JSON when ``--json`` was given, else ``text``.

    The payload's keys are given in the one JSON vocabulary: a key that is not
    snake_case is also given under its snake_case name
    (:func:`exactpoker.results.with_snake_keys`; the old one is deprecated).
    """
    from exactpoker.results import with_snake_keys

    print(json.dumps(with_snake_keys(payload), indent=2) if args.json else text)


def add_runner_options(parser: argparse.ArgumentParser, *, timeout: bool = False) -> None:
    """``--workers K`` / ``--scheduler ADDRESS`` (and ``--timeout S``): where independent tasks run (Dask)."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", default=None,
                       help="local worker processes, an integer >= 1 (default: one per CPU; 1 runs here)")
    where.add_argument("--scheduler", default=None,
                       help="address of a running Dask scheduler (tcp://host:8786) to run the tasks on a cluster")
    if timeout:
        parser.add_argument("--timeout", default=None, help="seconds each task may take, a positive number")


def runner_of(args: argparse.Namespace) -> "Runner":
    """The :class:`~exactpoker.parallel.Runner` the options of :func:`add_runner_options` ask for."""
    from exactpoker.numbers import parse_int, parse_positive
    from exactpoker.parallel import Runner

    workers = None if args.workers is None else parse_int(args.workers, "--workers", 1, 4096)
    timeout = getattr(args, "timeout", None)
    seconds = None if timeout is None else float(parse_positive(timeout, "--timeout"))
    return Runner(workers, args.scheduler, seconds)
