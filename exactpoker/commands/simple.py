"""``exactpoker simple ...``: the most simple poker game of the Euler notes (seed 004)."""

from __future__ import annotations

import argparse

from exactpoker.commands.common import add_json, emit, emit_with_legend
from exactpoker.lazy import lazy

# imported when a command runs, not when the parser is built
results = lazy("exactpoker.results")

__all__ = ["add_commands"]


def _simple(args: argparse.Namespace) -> None:
    from exactpoker.games.papers import simple_poker

    if args.piecewise:
        pv = simple_poker.piecewise_value(args.m, threshold=args.threshold)
        tactics = "threshold tactics" if args.threshold else "all tactics"
        payload = results.shaped({"method": f"parametric exact LP over {tactics}, value / A as a function of r = B/A",
                          "piecewise": pv.to_dict()}, "simple", {"m": str(args.m), "threshold": args.threshold})
        text = f"player I's value / A as a function of r = B/A (m = {args.m}, {tactics}):\n" + pv.describe()
        emit(args, payload, text)
        return
    result = simple_poker.solve(args.m, args.ante, args.bet, threshold=args.threshold)
    lines = [str(result)]
    for name, mixture in result.details["mixtures"].items():
        lines.append(f"optimal mixture of {name}: " + ", ".join(f"{k} {w}" for k, w in mixture.items()))
    emit_with_legend(args, result.to_dict(), "\n".join(lines), "per card 1..m, each player's probability of holding "
                     "(else passing)")


def add_commands(games: argparse._SubParsersAction) -> None:
    """Register ``simple --m M --ante A --bet B [--threshold] [--piecewise] [--json]``."""
    parser = games.add_parser(
        "simple",
        help="the most simple poker game (seed 004, Euler notes): hold or pass, cards 1..m with replacement",
        description="Strategies list, per card, the probability of holding. Values are player I's gain "
        "(the notes' G). --piecewise gives the value / A as an exact piecewise function of B/A.",
    )
    parser.add_argument("--m", required=True, help="number of card values, m >= 1")
    parser.add_argument("--ante", default="1", help="the ante A, a rational > 0 (default 1)")
    parser.add_argument("--bet", default="1", help="the bet B, a rational > 0 (default 1)")
    parser.add_argument("--threshold", action="store_true", help="only threshold tactics: hold iff card >= t")
    parser.add_argument("--piecewise", action="store_true",
                        help="the value / A as an exact piecewise rational function of r = B/A (ignores --ante/--bet)")
    add_json(parser)
    parser.set_defaults(run=_simple)
