"""One point of a sweep: the single command run in-process, its ``--json`` record captured.

The task runs exactly what ``exactpoker WORDS --name value ... --json`` runs, through the command line's own
entry point, so a sweep's record is the single command's JSON, plus the point and the seconds taken.  The
command line hands its parser and entry point down (:class:`CommandLine`, from what
:func:`exactpoker.cli.main` sets on the parsed arguments, or as registered in the package's entry points when a
sweep is planned from Python): a sweep, below the command line, never imports it.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import time
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Callable, NamedTuple, Sequence

from exactpoker.errors import InvalidParameterError

__all__ = ["COMMAND_LINE_GROUP", "CommandLine", "command_parser", "CommandTask", "SWEEPABLE_EXCLUDED"]


class CommandLine(NamedTuple):
    """The command line's parser factory and entry point (``exactpoker.cli.build_parser`` and ``main``), handed
    down to the sweep by the command line itself; module-level functions, so a task pickles for Dask workers."""

    build_parser: Callable[[], argparse.ArgumentParser]
    main: Callable[[Sequence[str]], int]

    @classmethod
    def installed(cls) -> "CommandLine":
        """The ``exactpoker`` command line as installed: the one the package registers in its entry-point group
        ``exactpoker.command_line`` (pyproject.toml), so the sweep names no higher layer."""
        found = entry_points(group=COMMAND_LINE_GROUP, name="exactpoker")
        for point in found:
            return cls(*point.load())
        raise InvalidParameterError(
            "sweep: the exactpoker command line is not registered (install the package: pip install -e .), "
            "or pass command_line=CommandLine(build_parser, main)")


#: The entry-point group where the package registers its command line (``exactpoker.cli:COMMAND_LINE``).
COMMAND_LINE_GROUP = "exactpoker.command_line"

#: Commands a sweep does not run (itself; file writers with no JSON).
SWEEPABLE_EXCLUDED = ("sweep",)


def _subcommands(parser: argparse.ArgumentParser, *, required_only: bool = False) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse keeps subparsers here; there is no public accessor
        if isinstance(action, argparse._SubParsersAction) and (action.required or not required_only):
            return dict(action.choices)
    return {}


def command_parser(words: list[str], command_line: CommandLine) -> argparse.ArgumentParser:
    """The parser of the subcommand ``words`` (e.g. ``["vn", "mixed"]``, or ``["solve", "library:kuhn"]``: words
    after a command without subcommands are its own arguments), or a one-line error naming what exists."""
    parser = command_line.build_parser()
    path: list[str] = []
    for word in words:
        choices = _subcommands(parser)
        if not choices and path:  # the command's own arguments (solve's GAME)
            break
        if word not in choices or word in SWEEPABLE_EXCLUDED:
            allowed = ", ".join(sorted(c for c in choices if c not in SWEEPABLE_EXCLUDED))
            where = " ".join(["exactpoker", *path]) if path else "exactpoker"
            raise InvalidParameterError(f"sweep: {word!r} is not a command of {where}; allowed: {allowed}")
        parser, path = choices[word], path + [word]
    rest = _subcommands(parser, required_only=True)
    if rest:
        raise InvalidParameterError(f"sweep: '{' '.join(words)}' needs one more word: {', '.join(sorted(rest))}")
    if not any("--json" in action.option_strings for action in parser._actions):
        raise InvalidParameterError(f"sweep: 'exactpoker {' '.join(words)}' has no --json record to collect")
    return parser


def options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """The command's options by name without dashes (``--n`` -> ``n``), apart from ``--json``."""
    found = {}
    for action in parser._actions:
        for option in action.option_strings:
            if option.startswith("--") and option not in ("--json", "--help"):
                found[option[2:]] = action
    return found


def library_parameters(words: tuple[str, ...] | list[str]) -> tuple[str, dict[str, str], tuple[str, ...]] | None:
    """For ``solve library:NAME(...)``: the game's name, the parameters given, and every parameter it has."""
    if len(words) < 2 or words[0] != "solve" or not words[1].startswith("library:"):
        return None
    from exactpoker.formats.calls import parse_call
    from exactpoker.games.library import GAMES

    name, given = parse_call(words[1][len("library:"):])
    if name not in GAMES:
        raise InvalidParameterError(f"sweep: library: unknown game {name!r}; the library has {', '.join(GAMES)}")
    return name, given, tuple(GAMES[name].params)


@dataclass(frozen=True)
class CommandTask:
    """``exactpoker WORDS`` at one point of the grid (picklable, so it can run on any Dask worker).

    ``game`` names the parameters that belong to the game of ``solve library:NAME`` rather than to the command:
    they go into the game's call, ``library:NAME(key=value,...)``, at every point.
    """

    words: tuple[str, ...]
    fixed: tuple[tuple[str, str], ...]
    flags: tuple[str, ...]  # options that take no value (store_true): "true" adds them, "false" leaves them out
    command_line: CommandLine
    game: tuple[str, ...] = ()

    def argv(self, point: dict[str, str]) -> list[str]:
        argv = list(self.words)
        settings = [*self.fixed, *point.items()]
        if self.game:
            library = library_parameters(self.words)
            assert library is not None
            name, given, _ = library
            call = {**given, **{k: v for k, v in settings if k in self.game}}
            argv[1] = f"library:{name}(" + ",".join(f"{k}={v}" for k, v in call.items()) + ")"
            settings = [(k, v) for k, v in settings if k not in self.game]
        for name, value in settings:
            if name in self.flags:
                if value.lower() in ("true", "1", "yes"):
                    argv.append(f"--{name}")
                elif value.lower() not in ("false", "0", "no"):
                    raise InvalidParameterError(f"--{name} is a switch: give true or false; got {value!r}")
            else:
                argv += [f"--{name}", value]
        return argv + ["--json"]

    def __call__(self, point: dict[str, str]) -> dict[str, Any]:
        out, err = io.StringIO(), io.StringIO()
        start = time.perf_counter()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = self.command_line.main(self.argv(point))
        seconds = time.perf_counter() - start
        if status == 130:  # Ctrl-C reached the command: the sweep stops too, and this point is not recorded
            raise KeyboardInterrupt
        if status != 0:
            message = err.getvalue().strip().splitlines()
            raise InvalidParameterError(message[-1].removeprefix("exactpoker: error: ") if message else
                                        f"exit status {status}")
        return {"result": json.loads(out.getvalue()), "seconds": round(seconds, 6)}
