"""The ``exactpoker`` command line.

One subcommand per game (each game's subcommands live in
:mod:`exactpoker.commands`), each with ``--json`` (the shape of
:meth:`exactpoker.results.SolveResult.to_dict`, a public interface), plus
``verify`` for the catalog of published claims.  Bad input gives a one-line
message on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Callable, Sequence

from exactpoker.commands import COMMAND_MODULES
from exactpoker.commands.common import add_json, emit, stderr_progress
from exactpoker.errors import ExactPokerError

__all__ = ["main", "build_parser"]


# -- verify ------------------------------------------------------------------------------


def _verify(args: argparse.Namespace) -> None:
    from exactpoker.claims import report

    checks = list(report(args.paper, stderr_progress("claims checked")))
    counts: dict[str, int] = {}
    for item in checks:
        counts[item.verdict] = counts.get(item.verdict, 0) + 1
    payload = {"claims": [c.to_dict() for c in checks], "summary": counts}
    lines = []
    for item in checks:
        d = item.to_dict()
        lines.append(f"[{d['verdict']:>13}] {d['id']} (seed {d['paper']}, section {d['section']}): {d['statement']}")
        if item.verdict != "exact":
            lines.append(f"{'':16}printed {d['printed']}; exact {d['computed']}")
    lines.append("summary: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    emit(args, payload, "\n".join(lines))


# -- the parser --------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for tests and documentation)."""
    parser = argparse.ArgumentParser(prog="exactpoker", description="Exact, certified solutions of small poker models.")
    games = parser.add_subparsers(dest="command", required=True)

    for module in COMMAND_MODULES:
        module.add_commands(games)

    verify = games.add_parser("verify", help="recompute the papers' published claims")
    verify.add_argument("--paper", default=None, help="a paper id such as 000 (default: all)")
    add_json(verify)
    verify.set_defaults(run=_verify)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], None] = args.run
    try:
        run(args)
    except (ExactPokerError, ValueError) as error:
        print(f"exactpoker: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("exactpoker: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`exactpoker ... | head`): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
