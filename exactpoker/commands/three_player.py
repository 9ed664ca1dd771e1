"""``exactpoker three ...``: three-player poker (seed 000, section 4)."""

from __future__ import annotations

import argparse

from exactpoker import guard
from exactpoker.commands.common import add_json, emit, emit_with_legend
from exactpoker.lazy import lazy

# imported when a command runs, not when the parser is built
results = lazy("exactpoker.results")

__all__ = ["add_commands"]

#: ``three mixed --method``: the game's names (kept) and the one vocabulary's
#: (:data:`exactpoker.solve.engine.dispatch.METHODS`; ``n-player`` is the compiled game's ``generic``).
_METHODS = {"structured": "structured", "generic": "generic", "n-player": "generic"}

_SCOPE = ("Figure 2's cut-point strategies (I bets below A and above B; II, III call above C): equations A, B, C "
          "hold exactly; values: Player I's only")  # three best-bet: at the algebraic bet b*, in ball arithmetic


def _mixed(args: argparse.Namespace) -> None:
    from exactpoker.games.papers import three_player

    method = _METHODS[args.method]
    guard.require(guard.three_mixed(args.n, method), f"three mixed --n {args.n}")
    result = three_player.equilibrium(args.n, args.b, method=method)
    emit_with_legend(args, result.to_dict(), str(result), "per card 1..n, I's probability of betting (else "
                     "checking), and II's and III's probability of calling a bet (else folding)")


def _continuous(args: argparse.Namespace) -> None:
    from exactpoker.algebraic import AlgebraicNumber
    from exactpoker.continuous import three_player
    from exactpoker.numbers import to_sympy
    from exactpoker.solve.continuous.certificate import SCOPE

    guard.require_digits(args.b, "--b", 40, "three continuous")

    solution = three_player.solve(args.b, args.digits)
    payload = solution.to_dict()
    exact, decimals = payload["exact"], solution.decimals()
    values = [str(v.to_sympy() if isinstance(v, AlgebraicNumber) else to_sympy(v)) for v in solution.values]
    shown = [decimals["value"]] + [_digits(v, solution.digits) for v in solution.values[1:]]
    payload["equilibria"] = [results.cut_equilibrium(
        values, _cut_strategies(exact), True, f"{SCOPE} (the continuous engine)",
        approx={"values": shown, "strategies": _cut_strategies(decimals)},
        digits=solution.digits, decimals=decimals)]
    emit(args, payload, solution.describe())


def _digits(number: object, digits: int) -> str:
    from exactpoker.display import decimal

    return decimal(number, digits)


def _cut_strategies(cuts: dict[str, str]) -> dict[str, dict[str, str]]:
    """Figure 2's strategies from the cut points: I's ``A``, ``B``; II's and III's ``C``."""
    return {"I": {"A": cuts["A"], "B": cuts["B"]}, "II": {"C": cuts["C"]}, "III": {"C": cuts["C"]}}


def _best_bet(args: argparse.Namespace) -> None:
    from exactpoker.continuous import three_player

    result = three_player.best_bet(args.digits)
    payload = results.shaped(result.to_dict(), "three-player-continuous", {"digits": result.digits})
    payload["best_bet"] = {"b": payload["best bet"], "value": payload["value"]}  # the shape of vn continuous
    payload["equilibria"] = [results.cut_equilibrium(
        [payload["value"], None, None], _cut_strategies(payload["cuts"]),
        True, _SCOPE + " at the bet b*; figures are certified decimals", digits=result.digits, exact=False)]
    emit(args, payload, result.describe())


def add_commands(games: argparse._SubParsersAction) -> None:
    """Register ``three mixed``, ``three continuous`` and ``three best-bet``."""
    parser = games.add_parser("three", help="three-player poker (seed 000 section 4): finite and continuous decks")
    commands = parser.add_subparsers(dest="three_command", required=True)

    mixed = commands.add_parser(
        "mixed",
        help="an exact, certified equilibrium of the n-card game (the paper's FastMNE)",
        description="Strategies list, per card 1..n, the probability that I bets and that II, III call. "
        "Where the equilibria form a segment its two end points are listed.",
    )
    mixed.add_argument("--n", required=True, help="deck size n >= 3")
    mixed.add_argument("--b", required=True, help="the bet, a rational > 0")
    mixed.add_argument("--method", choices=list(_METHODS), default="structured",
                       help="the game seen through the order of the cards (O(n), default) or through its "
                            "compiled n^3 deals (generic, n-player)")
    add_json(mixed)
    mixed.set_defaults(run=_mixed)

    continuous = commands.add_parser(
        "continuous",
        help="the continuous game's cut points A, B, C and value (the paper's Optimal)",
    )
    continuous.add_argument("--b", required=True, help="the bet, a rational > 0")
    continuous.add_argument("--digits", default=50, help="certified significant digits (default 50)")
    add_json(continuous)
    continuous.set_defaults(run=_continuous)

    best = commands.add_parser("best-bet", help="the bet b* that maximises Player I's value, and that value")
    best.add_argument("--digits", default=50, help="certified significant digits (default 50)")
    add_json(best)
    best.set_defaults(run=_best_bet)
