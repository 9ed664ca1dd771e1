"""``exactpoker solve GAME``: any finite game, exactly (a Gambit file, OpenSpiel, or the shipped library)."""

from __future__ import annotations

import argparse

from exactpoker import guard
from exactpoker.commands.common import add_json, add_output, emit
from exactpoker.results import shaped

__all__ = ["add_commands"]


def _solve(args: argparse.Namespace) -> None:
    from exactpoker.core.tree import compile_tree
    from exactpoker.errors import InvalidParameterError
    from exactpoker.formats import load_game
    from exactpoker.solve.dispatch import solve_compiled

    if args.list:
        from exactpoker.games.library import describe_library

        emit(args, shaped({"library": describe_library()}, "library", {}), "\n".join(
            f"library:{entry['name']:<16} {entry['description']}" for entry in describe_library()))
        return
    if args.over is not None:
        from exactpoker.commands._over import run_over

        run_over(args)
        return
    if args.maximize is not None or args.plot is not None:
        raise InvalidParameterError("solve: --maximize and --plot go with --over NAME=FROM..TO")
    if args.game is None:
        raise InvalidParameterError("solve: give a GAME (a .efg or .nfg file, openspiel:NAME or library:NAME) or --list")
    loaded = load_game(args.game)
    compiled = compile_tree(loaded.tree)
    sequences = sum(layout.num_sequences for layout in compiled.layouts)
    guard.require(guard.compiled_game(sequences, len(compiled.sequences)),
                  f"solve {args.game} ({sequences} sequences, {len(compiled.sequences)} payoff entries)")
    result = solve_compiled(compiled, method=args.method, all_pure=args.all_pure, family=args.family,
                            tables=loaded.tables)
    emit(args, result.to_dict(), _text(result))


def _text(result) -> str:
    """The result, and with ``--family`` each player's optimal strategies as exact vertices."""
    lines = [str(result)]
    for player, family in result.details.get("optimal strategies", {}).items():
        vertices = family["vertices"]
        shape = "unique" if family["dimension"] == 0 else f"a {family['dimension']}-dimensional polytope"
        lines.append(f"{player}'s optimal strategies: {shape}, the convex hull in realization plans of "
                     f"{len(vertices)} vertices:")
        for k, vertex in enumerate(vertices, 1):
            cells = "; ".join(f"{key}: " + ("unreached" if probs is None else "[" + ", ".join(map(str, probs)) + "]")
                              for key, probs in vertex.items())
            lines.append(f"  vertex {k}: {cells}")
    return "\n".join(lines)


def add_commands(games: argparse._SubParsersAction) -> None:
    """Register ``solve``."""
    from exactpoker.solve.dispatch import METHODS

    solve = games.add_parser(
        "solve", help="any finite game: PATH.efg|PATH.nfg, openspiel:NAME, library:NAME",
        description="Solve any finite game exactly; the method follows from the game "
                    "(two-player zero-sum: sequence-form LP; two-player: Lemke; more players: float guide + exact "
                    "finish). Every equilibrium is certified exactly.")
    solve.add_argument("game", nargs="?", default=None,
                       help="PATH.efg, PATH.nfg, openspiel:NAME (e.g. 'kuhn_poker(players=3)') or library:NAME")
    solve.add_argument("--method", choices=METHODS, default="auto", help="force a method (default: from the game)")
    solve.add_argument("--all-pure", action="store_true", help="every pure equilibrium (best-response enumeration)")
    solve.add_argument("--family", action="store_true",
                       help="two-player zero-sum: every optimal strategy of each player (exact vertices; small games)")
    solve.add_argument("--list", action="store_true", help="list the games of the shipped library")
    solve.add_argument("--over", default=None, metavar="NAME=FROM..TO",
                       help="two-player zero-sum: the exact solution as a function of a parameter on an interval "
                            "(e.g. bet=1/4..8): pieces, breakpoints, each piece certified")
    solve.add_argument("--maximize", default=None, metavar="value[PLAYER]",
                       help="with --over: the parameter value maximising a player's value (value[0] or a name)")
    add_output(solve, "--plot", help="with --over: a PNG of the value and strategies against the parameter")
    add_json(solve)
    solve.set_defaults(run=_solve)
