"""``exactpoker convert GAME -o FILE.efg|FILE.nfg``: any game the project reads, written for Gambit.

``.efg``: the game tree (:func:`~exactpoker.formats.efg.write_efg`: exact
probabilities and payoffs, information sets numbered in Gambit's order).
``.nfg``: its reduced strategic form (:func:`~exactpoker.formats.nfg.write_nfg`,
Gambit's strategies in Gambit's order), refused with its size when it has more
than :data:`~exactpoker.formats.nfg.MAX_CONTINGENCIES` contingencies.
"""

from __future__ import annotations

import argparse
import sys

from exactpoker.commands.common import add_json, add_output, emit
from exactpoker.lazy import lazy

# imported when a command runs, not when the parser is built
results = lazy("exactpoker.results")

__all__ = ["add_commands"]

_FORMATS = {"efg": "Gambit's .efg format (version 2)", "nfg": "Gambit's .nfg format (version 1, the reduced "
                                                               "strategic form)"}


def _target(args: argparse.Namespace) -> str:
    """``efg`` or ``nfg``: from ``--to``, else from the output file's suffix."""
    from exactpoker.errors import InvalidParameterError

    suffix = next((kind for kind in _FORMATS if args.output and args.output.lower().endswith("." + kind)), None)
    if args.to is not None and suffix is not None and args.to != suffix:
        raise InvalidParameterError(f"--to {args.to}: the output file {args.output} names a .{suffix} file")
    target = args.to or suffix
    if target is None:
        raise InvalidParameterError("convert: give -o FILE.efg or -o FILE.nfg, or --to efg|nfg")
    return target


def _convert(args: argparse.Namespace) -> None:
    from exactpoker.commands.solve import guarded_load
    from exactpoker.files import write_text
    from exactpoker.formats import game_tree

    from exactpoker.solve.engine.dispatch import guarded_compiled

    target = _target(args)
    loaded = guarded_load(args.game)
    # the compiled game's guard (1.5 kB a payoff entry) also bounds the tree and its text (a node or two an
    # entry, under 1 kB each): a seed paper's rules or Liar's Dice are refused here before their tree is built
    compiled = guarded_compiled(loaded)
    tree = game_tree(loaded)
    if target == "efg":
        from exactpoker.formats.efg import write_efg

        text = write_efg(tree)
    else:
        from exactpoker.formats.nfg import write_nfg

        text = write_nfg(tree, compiled)
    if args.output:
        write_text(args.output, text, "--output")
    if args.json:  # the text in the shared shape (or, with -o, a summary of what was written)
        payload = results.shaped({"method": f"export to {_FORMATS[target]}", "output": args.output,
                          "bytes": len(text.encode("utf-8"))}, tree.name, dict(tree.parameters))
        if not args.output:
            payload[target] = text
        emit(args, payload, "")
    elif not args.output:
        sys.stdout.write(text)


def add_commands(games: argparse._SubParsersAction) -> None:
    """Register ``convert``."""
    convert = games.add_parser(
        "convert", help="write any game as Gambit's .efg (game tree) or .nfg (reduced strategic form)",
        description="Write a game that exactpoker reads (library, OpenSpiel, a poker-language Python file, .efg or "
                    ".nfg) in Gambit's formats, with exact numbers: .efg is the game tree, .nfg its reduced strategic "
                    "form (Gambit's strategies, refused when it has more than a million contingencies).")
    convert.add_argument("game", help="the game, as solve takes it: PATH.efg, PATH.nfg, PATH.py[:NAME], "
                                      "openspiel:NAME or library:NAME")
    add_output(convert, "--output", "-o", help="file to write, FILE.efg or FILE.nfg (default: standard output)")
    convert.add_argument("--to", choices=tuple(_FORMATS), default=None,
                         help="the format (default: from the output file's suffix)")
    add_json(convert)
    convert.set_defaults(run=_convert)
