"""``exactpoker kuhn3 ...``: three-player Kuhn poker with N cards and pot P (seed 003).

::

    exactpoker kuhn3 --cards N --pot P [--digits D]  # an exact certified equilibrium at this pot
    exactpoker kuhn3 skp --pot P              # simplified Kuhn poker (N = 4, card 1 passive)
    exactpoker kuhn3 branch --cards N --pot-min A --pot-max B --csv FILE [--plot FILE]

``kuhn3 --cards N --pot P`` is ``exactpoker solve 'library:kuhn3(cards=N,pot=P)'``
(the same engine, equilibrium and certificate) in the seed's presentation
(:mod:`exactpoker.games.papers.kuhn3_tables`).
``strategies`` is keyed by node number ``"1"`` .. ``"12"``: per node, the
probability of the aggressive action (bet or call) for cards ``1..N``; the
output's ``legend`` (a block at the end of the text) says who acts at each node
and after what.  ``branch`` writes floats and says that they are uncertified.
"""

from __future__ import annotations

import argparse

from typing import TYPE_CHECKING

from exactpoker import guard
from exactpoker.commands.common import add_image_output, add_json, add_output, draw_figure, emit
from exactpoker.errors import InvalidParameterError
from exactpoker.lazy import lazy

# imported when a command runs, not when the parser is built
display = lazy("exactpoker.display")
results = lazy("exactpoker.results")

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.results import SolveResult

__all__ = ["add_commands"]


def _solve(args: argparse.Namespace) -> None:
    from exactpoker.games.papers import kuhn3

    if args.cards is None or args.pot is None:
        raise InvalidParameterError("kuhn3: give --cards N and --pot P (or a subcommand: skp, branch)")
    guard.require(guard.kuhn3(args.cards), f"kuhn3 --cards {args.cards}")
    result = kuhn3.equilibrium(args.cards, args.pot, digits=kuhn3.DIGITS if args.digits is None else args.digits)
    emit(args, {**result.to_dict(), "legend": _legend()}, _text(result) + "\n" + _legend_text())


#: What happened before each node (seed 003 section 2, Figure 10); who acts and the actions come from ``NODES``.
_SITUATIONS = {1: "opening", 2: "after player 1 checked", 3: "after two checks", 4: "player 3 bet after two checks",
               5: "player 3 bet, player 1 folded", 6: "player 3 bet, player 1 called",
               7: "player 2 bet after player 1 checked", 8: "player 2 bet, player 3 folded",
               9: "player 2 bet, player 3 called", 10: "player 1 bet", 11: "player 1 bet, player 2 folded",
               12: "player 1 bet, player 2 called"}


def _legend() -> dict[str, object]:
    """The JSON ``legend``: what ``strategies`` lists, and each node number's situation."""
    from exactpoker.games.papers.kuhn3 import NODES

    return {"strategies": "keyed by node number (seed 003's numbering): per node, for cards 1..N, the probability "
                          "that the player to act takes the aggressive action (bet or call)",
            "nodes": {str(node): f"player {player + 1}, {_SITUATIONS[node]}: {high} (else {low})"
                      for node, (player, low, high) in NODES.items()}}


def _legend_text() -> str:
    legend = _legend()
    return "\n".join([f"legend: strategies {legend['strategies']}; nodes:"]
                     + [f"  {node}: {meaning}" for node, meaning in legend["nodes"].items()])  # type: ignore[union-attr]


def _text(result: "SolveResult") -> str:
    """The result as text; an irrational equilibrium (long exact expressions) shown to 10 certified digits."""
    field = result.details.get("field")
    if field is None:
        return str(result)
    eq = result.equilibria[0]
    params = ", ".join(f"{name} = {value}" for name, value in result.params.items())
    lines = [f"{result.game} ({params}) by {result.method}: irrational equilibrium, certified {eq.certified}; "
             f"entries in Q(theta), theta the root of {field['minimal_polynomial']} in "
             f"({field['interval'][0]}, {field['interval'][1]})",
             "values: " + ", ".join(_entry(v) for v in eq.exact_values)]
    lines += [f"  node {node}: " + ", ".join(_entry(v) for v in row) for node, row in eq.exact_strategies.items()]
    lines.append("(irrational entries as certified decimals, ≈; their exact values in Q(theta): --json)")
    return "\n".join(lines)


def _entry(value: object) -> str:
    """A rational exactly; an irrational number by its certified decimal (``≈ 0.1234567890``)."""
    return f"≈ {display.decimal(value)}" if display.is_irrational(value) else display.shown(value)


def _skp(args: argparse.Namespace) -> None:
    from exactpoker.games.papers import kuhn3_skp

    result = kuhn3_skp.equilibrium(args.pot)
    emit(args, {**result.to_dict(), "legend": _legend()}, str(result) + "\n" + _legend_text())


def _branch(args: argparse.Namespace) -> None:
    from exactpoker.games.papers import kuhn3, kuhn3_branch

    guard.require(guard.kuhn3(args.cards), f"kuhn3 branch --cards {args.cards}")
    points = kuhn3_branch.branch(args.cards, args.pot_min, args.pot_max)
    kuhn3_branch.write_csv(points, args.csv, kuhn3.parse_cards(args.cards))
    payload = results.shaped({
        "method": "arc-length continuation of the regularised system (seed 003 section 3), floats",
        "points": len(points),
        "csv": args.csv,
        "plot": args.plot,
        "certified": False,
        "notes": [_UNCERTIFIED],
    }, kuhn3.NAME, {"cards": str(args.cards), "pot-min": str(args.pot_min), "pot-max": str(args.pot_max)})
    text = (f"{len(points)} points of the branch written to {args.csv}" + (f"; plot in {args.plot}" if args.plot else "")
            + f"\n{_UNCERTIFIED}")
    emit(args, payload, text)
    if args.plot:  # after the answer: a figure that fails loses nothing
        from exactpoker.games.papers.kuhn3_plot import plot_values

        draw_figure(args.plot, "--plot", lambda: plot_values(points, args.plot))


_UNCERTIFIED = ("uncertified: the branch's points are floating-point solutions of the regularised system, not "
                "checked equilibria (an exact, certified equilibrium at one pot: exactpoker kuhn3 --cards N --pot P)")


def add_commands(games: argparse._SubParsersAction) -> None:
    """Register ``kuhn3 [--cards N --pot P]``, ``kuhn3 skp --pot P`` and ``kuhn3 branch ...``."""
    parser = games.add_parser(
        "kuhn3",
        help="three-player Kuhn poker with N cards and pot P (seed 003)",
        description="Exact certified equilibria (float-guided by the seed's regularised system). "
        "strategies: per node 1..12, the probability of betting or calling for cards 1..N.",
    )
    parser.add_argument("--cards", default=None, help="N, the number of cards (an integer > 3)")
    parser.add_argument("--pot", default=None, help="P, the pot (a rational > 0, e.g. 3 or 5/2)")
    parser.add_argument("--digits", default=None,
                        help="certified decimal places of an equilibrium given by an isolating box (high algebraic "
                        "degree), an integer from 1 to 1000 (default 30)")
    add_json(parser)
    parser.set_defaults(run=_solve)
    sub = parser.add_subparsers(dest="kuhn3_command", required=False)

    skp = sub.add_parser("skp", help="simplified Kuhn poker: N = 4, card 1 never bets or calls (section 4)")
    skp.add_argument("--pot", required=True, help="P, a rational > 0")
    add_json(skp)
    skp.set_defaults(run=_skp)

    branch = sub.add_parser("branch", help="the branch of equilibria as the pot varies (floats, CSV)")
    branch.add_argument("--cards", required=True, help="N, an integer > 3")
    branch.add_argument("--pot-min", required=True, help="the smallest pot, a rational > 0")
    branch.add_argument("--pot-max", required=True, help="the largest pot, a rational > pot-min")
    add_output(branch, "--csv", required=True, help="the CSV file to write")
    add_image_output(branch, "--plot", help="a PNG file for the expectations plot (Figures 5-9 style)")
    add_json(branch)
    branch.set_defaults(run=_branch)
