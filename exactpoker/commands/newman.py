"""``exactpoker newman ...``: Newman poker (seed 000, section 3)."""

from __future__ import annotations

import argparse

from exactpoker import guard
from exactpoker.commands.common import add_json, emit, emit_with_legend
from exactpoker.lazy import lazy

# imported when a command runs, not when the parser is built
results = lazy("exactpoker.results")

__all__ = ["add_commands"]

#: ``newman mixed --method``: the paper's names (kept: a public interface) and the one vocabulary's
#: (:data:`exactpoker.solve.engine.dispatch.METHODS`), each mapped onto the vocabulary.
_METHODS = {"sequence": "structured", "generic": "lp", "paper": "per-card",
            "structured": "structured", "lp": "lp", "per-card": "per-card"}


def _mixed(args: argparse.Namespace) -> None:
    from exactpoker.games.papers import newman

    method = _METHODS[args.method]
    guard.require(guard.newman_mixed(args.n, args.b, "sequence" if method == "structured" else method),
                  f"newman mixed --n {args.n} --b {args.b}")
    result = newman.equilibrium(args.n, args.b, method=method)
    emit_with_legend(args, result.to_dict(), "\n".join([result.headline(), newman.describe(result),
                                                         result.certified_line()]),
                     "per card 1..n, I's probabilities of checking and of betting 1..b; II's 1 (a check is always "
                     "seen), then its probabilities of calling a bet of 1..b", in_text=False)


def _fewest_bets(lookahead: object) -> int:
    """The fewest bet sizes ``saturation`` solves: ``lookahead + 1`` (1 when ``lookahead`` does not parse)."""
    try:
        return max(1, int(str(lookahead)) + 1)
    except ValueError:
        return 1


def _saturation(args: argparse.Namespace) -> None:
    from exactpoker.games.papers import newman

    # it solves b = 1, 2, ... up to at least lookahead + 1
    guard.require(guard.newman_mixed(args.n, _fewest_bets(args.lookahead)), f"newman saturation --n {args.n}")
    result = newman.saturation(args.n, lookahead=args.lookahead)
    values = result.details["values"]
    lines = [f"b = {b}: value {v}" for b, v in values.items()] + list(result.notes)
    payload = {"game": result.game, "params": {"n": str(args.n)}, "method": result.method,
               "values": {b: str(v) for b, v in values.items()},
               "saturation_b": result.details["saturation b"],
               "equilibria": [eq.to_dict() for eq in result.equilibria]}
    emit(args, payload, "\n".join(lines))


def _continuous(args: argparse.Namespace) -> None:
    from exactpoker.continuous import newman as continuous

    solution = continuous.solve()
    payload = solution.to_dict()
    payload["equilibria"] = [results.cut_equilibrium(
        [solution.value, -solution.value],
        {"I": {"bluff_below": solution.bluff_below, "value_above": solution.value_above,
               "bet_of_hand": solution.bet_of_hand},
         "II": {"call_threshold": solution.call_threshold}},
        solution.certified, "all strategies (Newman's indifference conditions, integrated exactly)")]
    emit(args, payload, solution.describe())


def add_commands(games: argparse._SubParsersAction) -> None:
    """Register ``newman mixed|saturation|continuous``."""
    parser = games.add_parser("newman", help="Newman poker, bets 0..b (seed 000, section 3)")
    jobs = parser.add_subparsers(dest="job", required=True)

    mixed = jobs.add_parser("mixed", help="one exact equilibrium (djnMNE)")
    mixed.add_argument("--n", required=True, help="deck size, n >= 2")
    mixed.add_argument("--b", required=True, help="largest bet, an integer >= 1")
    mixed.add_argument("--method", choices=list(_METHODS), default="sequence",
                       help="sequence (= structured): card-by-card LP (fast); generic (= lp): the general "
                            "sequence-form solver; paper (= per-card): the paper's LP with n 2^b constraints")
    add_json(mixed)
    mixed.set_defaults(run=_mixed)

    saturation = jobs.add_parser("saturation", help="values for b = 1, 2, ... until they stop changing")
    saturation.add_argument("--n", required=True, help="deck size, n >= 2")
    saturation.add_argument("--lookahead", type=int, default=3, help="how many further b must repeat the value")
    add_json(saturation)
    saturation.set_defaults(run=_saturation)

    continuous = jobs.add_parser("continuous", help="Newman's continuous solution (value 1/7)")
    add_json(continuous)
    continuous.set_defaults(run=_continuous)
