"""``exactpoker goldman-stone ...``: Goldman--Stone symmetric poker (seed 002)."""

from __future__ import annotations

import argparse

from exactpoker import guard
from exactpoker.commands.common import add_json, emit
from exactpoker.lazy import lazy

# imported when a command runs, not when the parser is built
results = lazy("exactpoker.results")

__all__ = ["add_commands"]


def _goldman_stone(args: argparse.Namespace) -> None:
    if args.n is None:
        from exactpoker.continuous import goldman_stone as continuous

        solution = continuous.solve(args.a, args.b)
        payload = solution.to_dict()
        strategy = {"g": solution.g, "g'": solution.g_prime, **payload["strategy"]}
        payload["equilibria"] = [results.cut_equilibrium(
            [solution.value, -solution.value], {"I": strategy, "II": strategy}, solution.certified,
            "all strategies (the symmetric game's optimality conditions R1..R4, exact)")]
        emit(args, payload, solution.describe())
        return
    from exactpoker.games.papers import goldman_stone

    guard.require(guard.goldman_stone(args.n), f"goldman-stone --n {args.n}")
    result = goldman_stone.equilibrium(args.n, args.a, args.b)
    legend = goldman_stone.LEGEND
    emit(args, {**result.to_dict(), "legend": {"strategies": legend}}, f"{result}\nlegend: {legend}")


def add_commands(games: argparse._SubParsersAction) -> None:
    """Register ``goldman-stone --a A --b B [--n N] [--json]``."""
    parser = games.add_parser(
        "goldman-stone",
        help="Goldman-Stone symmetric poker (seed 002): continuous solution, or the n-card game",
        description="Strategies list, per card, the probabilities of (drop, bet b folding to a, "
        "bet b seeing a, bet a).",
    )
    parser.add_argument("--a", required=True, help="the higher bet level, a rational > b")
    parser.add_argument("--b", required=True, help="the lower bet level, a rational > 1")
    parser.add_argument("--n", default=None, help="deck size n >= 2 (omit for the continuous game)")
    add_json(parser)
    parser.set_defaults(run=_goldman_stone)
