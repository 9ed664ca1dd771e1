"""The ``exactpoker`` command line.

One subcommand per game (each game's subcommands live in
:mod:`exactpoker.commands`), each with ``--json`` (the shape of
:meth:`exactpoker.results.SolveResult.to_dict`, a public interface), plus
``verify`` for the catalog of published claims.  Bad input gives a one-line
message on stderr and exit status 2, never a traceback: a parameter out of
range, an unwritable output file (checked before the work starts), or a game
whose estimated memory exceeds the limit (:mod:`exactpoker.guard`,
``--max-memory``).  Ctrl-C prints ``interrupted`` and exits with 130.
Long jobs draw their stage and progress on stderr when it is a terminal
(:mod:`exactpoker.progress`), never under ``--json``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
from typing import Callable, Iterator, NoReturn, Sequence

from exactpoker import progress
from exactpoker.commands import COMMAND_MODULES
from exactpoker.commands.common import ImageFile, OutputFile, check_image
from exactpoker.errors import ExactPokerError
from exactpoker.files import check_writable
from exactpoker.guard import memory_limit, parse_size
from exactpoker.parallel import check_interrupt, watching_interrupts

__all__ = ["main", "build_parser", "commands", "COMMAND_LINE"]


# -- the parser --------------------------------------------------------------------------


def commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every runnable command under ``parser``: its words (``("vn", "mixed")``) and its parser.

    The walk over the argparse tree that the documentation, the JSON schema test
    and the fuzz test share, so a new subcommand is covered without editing a list.
    """
    if parser.get_default("run") is not None:
        yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from commands(child, path + (name,))


class _Parser(argparse.ArgumentParser):
    """argparse's parser whose errors are one line (``exactpoker vn mixed: error: ...; see --help``), exit 2.

    argparse prints the whole usage before its message (seven lines for ``--max-memory -5G``); the usage is
    one ``--help`` away, named in the line.  Subcommands' parsers are made of the same class.
    """

    def error(self, message: str) -> NoReturn:
        if "expected one argument" in message:
            message += " (a value that starts with '-' is given as --option=VALUE)"
        self.exit(2, f"{self.prog}: error: {message}; see {self.prog} --help\n")


class _Version(argparse.Action):
    """``--version``: the installed distribution's version, read only when asked (start-up stays fast)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        from importlib import metadata

        try:
            version = metadata.version("exactpoker")
        except metadata.PackageNotFoundError:  # run from a source tree that is not installed
            version = "unknown (not installed)"
        print(f"exactpoker {version}")
        parser.exit(0)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for tests and documentation)."""
    parser = _Parser(prog="exactpoker", description="Exact, certified solutions of small poker models.")
    parser.add_argument("--version", action=_Version)
    games = parser.add_subparsers(dest="command", required=True)

    for module in COMMAND_MODULES:
        module.add_commands(games)

    for words, command in commands(parser):
        command.add_argument("--max-memory", default=argparse.SUPPRESS, metavar="SIZE",
                             help="refuse an exact method whose estimated memory exceeds SIZE (e.g. 2G, 500M; "
                                  "default: the machine's available memory)")
        outputs = tuple((a.dest, a.option_strings[0], isinstance(a, ImageFile))
                        for a in command._actions if isinstance(a, OutputFile))
        command.set_defaults(command_words=" ".join(words), option_names=_option_names(command),
                             output_files=outputs)
    return parser


def _option_names(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Parameter name (as the library says it) -> the option a command-line user types."""
    names = {}
    for action in parser._actions:
        flags = [f for f in action.option_strings if f.startswith("--")]
        if flags:
            names[action.dest] = flags[0]
            names[flags[0][2:]] = flags[0]
    return names


def _cli_words(message: str, args: argparse.Namespace) -> str:
    """A library message in command-line words: ``n must be ...`` -> ``--n must be ...``.

    Drops a leading ``function(): `` (the library's name for where it failed),
    names the parameter by its option, and shortens numbers of more than 30
    digits (``100000...(401 digits)``) so the message stays one readable line.
    """
    message = re.sub(r"\d{31,}", lambda m: f"{m.group()[:6]}...({len(m.group())} digits)", message)
    message = " ".join(message.split())
    message = re.sub(r"^[A-Za-z_][\w.]*\(\): ", "", message)
    match = re.match(r"([A-Za-z_][\w-]*)(?= must | is |: | =)", message)
    options = getattr(args, "option_names", {})
    if match and match.group(1) in options:
        message = options[match.group(1)] + message[match.end():]
    return message


def _check_files(args: argparse.Namespace) -> None:
    """Refuse an unwritable output path before the work starts (one line naming it); for a figure, also a missing
    matplotlib (naming the install command) and an existing file that is not an image (without ``--force``)."""
    for dest, flag, image in getattr(args, "output_files", ()):
        if getattr(args, dest, None) is not None:
            check_writable(getattr(args, dest), flag)
            if image:
                check_image(getattr(args, dest), flag, getattr(args, "force", False))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 done, 1 certify refuted a profile, 2 bad input or refused,
    130 interrupted)."""
    args = argparse.Namespace(command_words="exactpoker")
    status: int | None = 0
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        args.command_line = COMMAND_LINE  # handed down: a sweep runs the commands it varies
        run: Callable[[argparse.Namespace], int | None] = args.run
        size = getattr(args, "max_memory", None)
        reporter = None if getattr(args, "json", False) else progress.TerminalReporter()
        stdout = progress.ClearingStream(sys.stdout, reporter) if reporter and reporter.enabled else sys.stdout
        with watching_interrupts(), memory_limit(None if size is None else parse_size(size)), \
                progress.reporting(reporter), contextlib.redirect_stdout(stdout):
            _check_files(args)
            status = run(args)  # None: done; a command may return 1 for an answer "no" (certify)
            check_interrupt()  # an interrupt whose exception a finalizer dropped still ends the run as one
            sys.stdout.flush()  # a full disk or device (`> /dev/full`) is reported here, not at exit
    except BrokenPipeError:  # the reader went away (`exactpoker ... | head`): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as error:
        if not _stdout_failed(error):
            raise
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to flush at exit
        print(f"exactpoker: error: {args.command_words}: cannot write the output ({error.strerror or error})",
              file=sys.stderr)
        return 2
    except (ExactPokerError, ValueError) as error:
        print(f"exactpoker: error: {_cli_words(str(error), args)}", file=sys.stderr)
        return 2
    except OverflowError as error:  # a number beyond a fixed-width (int64, float) stage of a method
        print(f"exactpoker: error: {args.command_words}: a parameter is too large for this method "
              f"({_cli_words(str(error), args)})", file=sys.stderr)
        return 2
    except MemoryError:
        print(f"exactpoker: error: {args.command_words} ran out of memory; choose a smaller game "
              "(or a lower --max-memory to be refused early)", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("exactpoker: interrupted", file=sys.stderr)
        return 130
    return status or 0


def _stdout_failed(error: OSError) -> bool:
    """Whether ``error`` is a write to standard output failing (a full disk, ``/dev/full``): a full or failing
    device with no file name (an output file's own errors name the file, :mod:`exactpoker.files`)."""
    import errno

    return error.errno in (errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT) and error.filename is None


#: The parser factory and entry point a sweep runs (registered as the entry point ``exactpoker.command_line``).
COMMAND_LINE = (build_parser, main)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
