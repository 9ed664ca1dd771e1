"""``exactpoker nash-shapley ...``: Nash--Shapley three-person poker (seed 001).

``exactpoker nash-shapley --a A --b B [--exhaustive]``
    every equilibrium point the paper's systems give at this ante and bet, certified;
    with ``--exhaustive``, every other case of condition (C) decided too (slow: a proof that the list is complete);
``exactpoker nash-shapley regions [--digits D]``
    the ranges of ``a/b``, their boundaries ``A_1, A_2, A_3`` and system (I)'s closed form;
``exactpoker nash-shapley coalitions --a A --b B``
    the characteristic function of the coalition game (exact LPs, slow: minutes).
"""

from __future__ import annotations

import argparse

from exactpoker.commands.common import add_json, add_runner_options, emit, runner_of
from exactpoker.errors import InvalidParameterError
from exactpoker.lazy import lazy

# imported when a command runs, not when the parser is built
results = lazy("exactpoker.results")

__all__ = ["add_commands"]


def _need(args: argparse.Namespace) -> None:
    if args.a is None or args.b is None:
        raise InvalidParameterError(f"nash-shapley {args.job}: --a and --b are required")


def _nash_shapley(args: argparse.Namespace) -> None:
    if args.job == "regions":
        from exactpoker.games.papers.nash_shapley import regions
        from exactpoker.numbers import parse_int

        digits = parse_int(args.digits, "digits", 1, 1000)
        payload = regions.regions(digits)
        payload = results.shaped({**payload, "regions": {"boundaries": payload["boundaries"], "ranges": payload["ranges"]}},
                         "nash-shapley", {"digits": digits})
        lines = [f"system (I), S = {payload['S']}: " + ", ".join(f"{k} = {v}" for k, v in payload["system I"].items())]
        lines.append("values in R_I: " + ", ".join(payload["values in R_I"]))
        lines += [f"{bd['name']} = {bd['decimal']}...  root of {bd['polynomial']} in [{bd['interval'][0]}, "
                  f"{bd['interval'][1]}]  ({bd['where']})" for bd in payload["boundaries"]]
        lines += [f"{name}: {text}" for name, text in payload["ranges"].items()]
        emit(args, payload, "\n".join(lines))
        return
    _need(args)
    if args.job == "coalitions":
        from exactpoker.games.papers.nash_shapley.coalitions import characteristic_function

        values = characteristic_function(args.a, args.b)
        payload = results.shaped({"coalitions": [results.with_snake_keys(v.to_dict()) for v in values.values()]},
                                 "nash-shapley",
                         {"a": args.a, "b": args.b})
        text = "\n".join(f"v({{{', '.join(str(p + 1) for p in c)}}}) = {v.to_dict()['value']}" for c, v in values.items())
        emit(args, payload, text)
        return
    if args.exhaustive:
        from exactpoker.games.papers.nash_shapley.exhaustive import exhaustive

        result = exhaustive(args.a, args.b, runner=runner_of(args))
    else:
        from exactpoker.games.papers.nash_shapley.equilibria import equilibria

        result = equilibria(args.a, args.b)
    emit(args, result.to_dict(), str(result))


def add_commands(games: argparse._SubParsersAction) -> None:
    """Register ``nash-shapley [regions|coalitions] [--a A --b B] [--digits D] [--json]``."""
    parser = games.add_parser(
        "nash-shapley",
        help="Nash-Shapley three-person poker (seed 001): equilibrium points, ranges of a/b, coalitions",
        description="Without a job: all equilibrium points at ante a and bet b (behaviour coefficients "
        "alpha..omega, certified).  'regions': the ranges of a/b and their boundaries.  'coalitions': "
        "the characteristic function by exact LPs.",
    )
    parser.add_argument("job", nargs="?", choices=("points", "regions", "coalitions"), default="points",
                        help="what to compute (default: the equilibrium points)")
    parser.add_argument("--a", default=None, help="the ante, a rational > 0")
    parser.add_argument("--b", default=None, help="the bet, a rational > 0")
    parser.add_argument("--digits", default="10", help="decimal digits of the boundaries (regions)")
    parser.add_argument("--exhaustive", action="store_true",
                        help="points: decide every case of condition (C) too, proving the list complete (slow)")
    add_runner_options(parser)  # --exhaustive: where the cases run (a local Dask cluster by default)
    add_json(parser)
    parser.set_defaults(run=_nash_shapley)
