"""``exactpoker three ...``: three-player poker (seed 000, section 4)."""

from __future__ import annotations

import argparse

from exactpoker import guard
from exactpoker.commands.common import add_json, emit
from exactpoker.algebraic import AlgebraicNumber
from exactpoker.numbers import to_sympy
from exactpoker.results import cut_equilibrium, shaped

__all__ = ["add_commands"]

_SCOPE = ("Figure 2's cut-point strategies (I bets below A and above B; II, III call above C): equations A, B, C "
          "hold exactly; values: Player I's only")  # three best-bet: at the algebraic bet b*, in ball arithmetic


def _mixed(args: argparse.Namespace) -> None:
    from exactpoker.games import three_player

    guard.require(guard.three_mixed(args.n, args.method), f"three mixed --n {args.n}")
    result = three_player.equilibrium(args.n, args.b, method=args.method)
    emit(args, result.to_dict(), str(result))


def _continuous(args: argparse.Namespace) -> None:
    from exactpoker.continuous import three_player

    guard.require_digits(args.b, "--b", 40, "three continuous")
    from exactpoker.solve.continuous.certificate import SCOPE

    solution = three_player.solve(args.b, args.digits)
    payload = solution.to_dict()
    exact, decimals = payload["exact"], solution.decimals()
    values = [str(v.to_sympy() if isinstance(v, AlgebraicNumber) else to_sympy(v)) for v in solution.values]
    shown = [decimals["value"]] + [_digits(v, solution.digits) for v in solution.values[1:]]
    payload["equilibria"] = [cut_equilibrium(
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
    payload = shaped(result.to_dict(), "three-player-continuous", {"digits": result.digits})
    payload["best_bet"] = {"b": payload["best bet"], "value": payload["value"]}  # the shape of vn continuous
    payload["equilibria"] = [cut_equilibrium(
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
    mixed.add_argument("--method", choices=["structured", "generic"], default="structured",
                       help="the game seen through the order of the cards (O(n), default) or through its "
                            "compiled n^3 deals")
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
