"""Helpers shared by the command modules."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.parallel import Runner

__all__ = ["OutputFile", "ImageFile", "add_json", "add_output", "add_image_output", "emit", "emit_with_legend",
           "add_runner_options",
           "runner_of", "check_image", "draw_figure", "PLOT_INSTALL"]

#: How to install what ``--plot`` needs (matplotlib is not in the base install: it would double its size).
PLOT_INSTALL = "pip install 'exactpoker[plot]'"


class OutputFile(argparse._StoreAction):
    """An option naming a file to write; the command line checks it before the work starts."""


class ImageFile(OutputFile):
    """An option naming a figure to draw: besides the path, matplotlib and the file's kind are checked before the
    work starts (:func:`check_image`)."""


def add_image_output(parser: argparse.ArgumentParser, *flags: str, help: str) -> None:
    """Add a figure option (``--plot FILE``) and ``--force``, checked before the work starts (:func:`check_image`)."""
    parser.add_argument(*flags, action=ImageFile, default=None, metavar="FILE",
                        help=help + f" (needs matplotlib: {PLOT_INSTALL})")
    if not any("--force" in action.option_strings for action in parser._actions):
        parser.add_argument("--force", action="store_true",
                            help="replace an existing file with the figure even if it is not an image")


def check_image(path: str, option: str, force: bool) -> None:
    """Before the work: matplotlib is importable, and ``path`` is not an existing file other than an image.

    Raises
    ------
    InvalidParameterError
        Naming the install command, or the file that would be lost.
    """
    from importlib.util import find_spec

    from exactpoker.errors import InvalidParameterError
    from exactpoker.files import check_image_target

    if find_spec("matplotlib") is None:
        raise InvalidParameterError(f"{option} needs matplotlib, which the base install leaves out: {PLOT_INSTALL} "
                                    f"(or leave out {option}); nothing was computed")
    check_image_target(path, option, force)


def draw_figure(path: str, option: str, draw: Callable[[], object]) -> None:
    """Call ``draw()`` (which writes the figure to ``path``) after the answer was printed; a failure is one line.

    Raises
    ------
    FigureError
        If the figure could not be drawn (the answer printed before stands).
    """
    from exactpoker.errors import ExactPokerError, FigureError

    try:
        draw()
    except (ExactPokerError, ValueError, OSError, RuntimeError, ImportError) as error:
        raise FigureError(f"{option} {path}: the figure could not be drawn ({' '.join(str(error).split())}); "
                          "the answer above is complete") from None


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


def emit_with_legend(args: argparse.Namespace, payload: dict[str, Any], text: str, legend: str,
                     in_text: bool = True) -> None:
    """:func:`emit`, the strategies' caption added: ``legend: ...`` after the text (unless ``in_text`` is false: a
    text in words needs none), ``{"legend": {"strategies": ...}}`` in the JSON (the papers' tables list numbers
    per card; the caption says whose and of which action)."""
    emit(args, {**payload, "legend": {"strategies": legend}}, f"{text}\nlegend: {legend}" if in_text else text)


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
