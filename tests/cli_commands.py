"""Every command of the CLI with a small, fast case: the walk the schema and fuzz tests share.

:func:`cases` walks the argparse tree (:func:`exactpoker.cli.commands`), so a
subcommand added later is found without editing a list: its required options
get a small value from :data:`SMALL` by option name, and a command whose
options are not there fails :func:`cases` with a message naming it (add a
case to :data:`CASES`).  Files are created under ``tmp``; ``solve`` gets
``openspiel:kuhn_poker`` (marked openspiel), ``library:kuhn`` when the library
exists, and a .efg written by ``vn efg``.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Iterator

import pytest

from exactpoker.cli import build_parser, commands

#: A small value for a required option, by its name (``--n`` -> ``"3"``).
SMALL = {"--n": "3", "--b": "2", "--a": "3", "--m": "2", "--cards": "4", "--pot": "3", "--pot-min": "2",
         "--pot-max": "3", "--digits": "10", "--ante": "1", "--bet": "1"}

#: Extra cases (argv after the command words) where the required options are not enough.
CASES: dict[str, list[list[str]]] = {
    "vn continuous": [["--b", "2"], []],
    "vn pure": [["--n", "4", "--b", "2"], ["--n", "6", "--b", "2", "--restricted"]],
    "vn mixed": [["--n", "3", "--b", "2"], ["--n", "3", "--b", "1", "--advice"], ["--n", "3", "--b", "1", "--method", "slow"]],
    "vn efg": [["--n", "3", "--b", "2"], ["--n", "3", "--b", "2", "-o", "{tmp}/out.efg"]],
    "simple": [["--m", "2"], ["--m", "3", "--piecewise"]],
    "goldman-stone": [["--a", "3", "--b", "2"], ["--a", "3", "--b", "2", "--n", "3"]],
    "three mixed": [["--n", "3", "--b", "2"]],
    "nash-shapley": [["--a", "1", "--b", "1"], ["regions", "--digits", "5"], ["coalitions", "--a", "1", "--b", "2"]],
    "kuhn3": [["--cards", "4", "--pot", "3"], ["--cards", "5", "--pot", "3"],  # rational; an isolating box
              ["--cards", "5", "--pot", "5/2"]],  # algebraic of degree 14 (slow)
    "kuhn3 branch": [["--cards", "4", "--pot-min", "2", "--pot-max", "5/2", "--csv", "{tmp}/branch.csv"]],
    "verify": [["--paper", "004"]],
    "sweep": [["vn", "mixed", "--grid", "n=2,3", "--fixed", "b=1", "-o", "{tmp}/sweep.jsonl", "--workers", "1"]],
    "certify": [["library:kuhn", "NE,1,0,1,0,1,0,2/3,1/3,1,0,0,1,1,0,2/3,1/3,0,1,0,1,2/3,1/3,1,0"],
                ["openspiel:kuhn_poker", "NE,1,0,1,0,1,0,2/3,1/3,1,0,0,1,1,0,2/3,1/3,0,1,0,1,2/3,1/3,1,0"]],
    "convert": [["library:kuhn", "-o", "{tmp}/kuhn.efg"], ["library:kuhn", "--to", "nfg"],
                ["openspiel:kuhn_poker", "--to", "efg"]],
    "solve": [["--list"], ["{tmp}/vn.efg"], ["{tmp}/vn.efg", "--all-pure"], ["library:kuhn"],
              ["library:kuhn", "--family"], ["openspiel:kuhn_poker"], ["library:leduc(ranks=2)"],
              ["library:leduc(ranks=2)", "--no-abstraction"], ["library:three(n=5,b=2)"],
              ["library:vn(n=4,b=2)", "--method", "structured"], ["library:vn(n=4,b=2)", "--method", "strategic"],
              ["library:newman(n=3,b=2)", "--method", "per-card"],
              ["library:vn(b=2)", "--continuous"], ["library:three(b=2)", "--continuous"],
              ["library:vn(b=1/100)", "--continuous"],
              ["library:vn", "--continuous", "--over", "b=1..4", "--maximize", "value[I]"]],
}

#: Cases too slow for the quick run (minutes): run with -m slow.
SLOW = {"nash-shapley coalitions --a 1 --b 2", "kuhn3 --cards 5 --pot 5/2"}


def command_table() -> list[tuple[str, argparse.ArgumentParser]]:
    """``("vn mixed", parser)`` for every runnable command."""
    return [(" ".join(words), parser) for words, parser in commands(build_parser())]


def _required_case(name: str, parser: argparse.ArgumentParser) -> list[str]:
    argv: list[str] = []
    for action in parser._actions:
        if not action.required or not action.option_strings:
            continue
        flag = next(f for f in action.option_strings if f.startswith("--"))
        if getattr(action, "metavar", None) == "FILE":
            argv += [flag, "{tmp}/" + flag.strip("-") + ".out"]
        elif flag in SMALL:
            argv += [flag, SMALL[flag]]
        else:
            raise AssertionError(f"`exactpoker {name}` needs {flag}: add a value to SMALL or a case to CASES "
                                 "in tests/cli_commands.py")
    return argv


def cases() -> Iterator[tuple[str, list[str]]]:
    """``(command words, argv template)`` for every command: its CASES, or its required options filled in."""
    for name, parser in command_table():
        for argv in CASES.get(name) or [_required_case(name, parser)]:
            yield name, argv


def params() -> list:
    """:func:`cases` as pytest parameters (openspiel cases marked, ids readable)."""
    out = []
    for name, argv in cases():
        marks = [pytest.mark.openspiel] if any(a.startswith("openspiel:") for a in argv) else []
        if " ".join([name] + argv) in SLOW:
            marks.append(pytest.mark.slow)
        out.append(pytest.param(name, argv, marks=marks, id=" ".join([name] + argv).replace("{tmp}/", "")))
    return out


def has_json(name: str) -> bool:
    parser = dict(command_table())[name]
    return any("--json" in action.option_strings for action in parser._actions)


def fill(argv: list[str], tmp: Path) -> list[str]:
    """The argv with ``{tmp}`` replaced by the temporary directory."""
    return [a.replace("{tmp}", str(tmp)) for a in argv]
