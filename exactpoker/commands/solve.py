"""``exactpoker solve GAME``: any finite game, exactly (a Gambit file, OpenSpiel, the library, a Python file)."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from exactpoker import guard
from exactpoker.commands._gambit import add_format, wants_gambit
from exactpoker.commands.common import add_image_output, add_json, emit
from exactpoker.lazy import lazy

# imported when a command runs, not when the parser is built
results = lazy("exactpoker.results")

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.formats import LoadedGame

__all__ = ["add_commands"]


def _solve(args: argparse.Namespace) -> None:
    from exactpoker.errors import InvalidParameterError
    from exactpoker.solve import solve_game

    if args.format != "text" and (args.over is not None or args.list):
        raise InvalidParameterError("solve: --format gambit prints equilibria; not with --over or --list")
    if args.list:
        from exactpoker.games.library import describe_library

        emit(args, results.shaped({"library": describe_library()}, "library", {}), "\n".join(
            f"library:{entry['name']:<16} {entry['description']}" for entry in describe_library()))
        return
    if args.continuous:
        from exactpoker.commands._continuous import run_continuous

        run_continuous(args)
        return
    if args.over is not None:
        from exactpoker.commands._over import run_over

        run_over(args)
        return
    if args.maximize is not None or args.plot is not None:
        raise InvalidParameterError("solve: --maximize and --plot go with --over NAME=FROM..TO")
    if args.game is None:
        raise InvalidParameterError("solve: give a GAME (a .efg, .nfg or .py file, openspiel:NAME or library:NAME) "
                                    "or --list")
    # the engine's one entry point: the game's own path (a smaller game its rules declare, its structure),
    # else compiled, its size guarded, and solved by the method its shape calls for
    gambit = wants_gambit(args)
    loaded = guarded_load(args.game)
    result = solve_game(loaded, method=args.method, all_pure=args.all_pure, family=args.family,
                        all_equilibria=args.all, abstraction=not args.no_abstraction)
    if gambit:
        from exactpoker.commands._gambit import gambit_lines

        lines = gambit_lines(loaded, [eq.profile for eq in result.equilibria])
        if lines:
            print(lines)
        return
    data = result.to_dict()
    emit(args, data, _text(result, data))


def guarded_load(spec: str) -> "LoadedGame":
    """The game of ``spec``, refused before it is built if its estimated memory is over the limit.

    A library game or a poker-language game of a Python file is counted from
    its rules (:func:`~exactpoker.core.poker_size.tree_size`), a file by its
    size; an OpenSpiel game is walked with a node budget that fits the limit.
    ``certify`` and ``convert`` load their game here too.
    """
    from exactpoker.errors import InvalidParameterError
    from exactpoker.formats import load_game, parse_call
    from exactpoker.formats.python_file import is_python_spec

    if spec.startswith("library:") or is_python_spec(spec):
        from exactpoker.core.poker import PokerGame
        from exactpoker.core.poker_size import tree_size
        from exactpoker.formats.python_file import python_game
        from exactpoker.games.library import poker_game
        from exactpoker.solve.engine.loaded import as_loaded

        if spec.startswith("library:"):
            name, params = parse_call(spec[len("library:"):])
            rules = poker_game(name, **params)
        else:
            rules = python_game(spec)
        if not isinstance(rules, PokerGame):  # a seed game's or self-loading rules: guarded as they are solved
            return load_game(spec)
        size = tree_size(rules)
        guard.require(guard.game_tree(size.nodes, sum(size.sequences)),
                      f"solve {spec} ({size.nodes} tree nodes, {sum(size.sequences)} sequences)")
        if not spec.startswith("library:"):
            return as_loaded(rules, source=spec)  # the file is run once
    elif spec.startswith("openspiel:"):
        from exactpoker.formats.openspiel import MAX_NODES, load_openspiel

        budget = guard.tree_nodes_within()
        if budget is not None and budget < MAX_NODES:
            return load_openspiel(spec[len("openspiel:"):], max_nodes=budget,
                                  limit=f"as many as fit in the memory limit of {guard.limit_text()}")
    elif os.path.isdir(spec):
        raise InvalidParameterError(f"GAME: {spec} is a directory; give a .efg or .nfg file, openspiel:NAME or "
                                    "library:NAME")
    elif os.path.isfile(spec):
        guard.require(guard.game_file(os.path.getsize(spec)), f"solve {spec} ({os.path.getsize(spec)} bytes)")
    return load_game(spec)


def _text(result, data: dict) -> str:
    """The result (``data`` its ``to_dict()``); with ``--family`` each player's optimal strategies as exact
    vertices; with ``--all`` the sets."""
    lines = [str(result)] + _convex_sets_text(data) + _supports_text(data)
    for player, family in result.details.get("optimal strategies", {}).items():
        vertices = family["vertices"]
        shape = "unique" if family["dimension"] == 0 else f"a {family['dimension']}-dimensional polytope"
        lines.append(f"{player}'s optimal strategies: {shape}, the convex hull in realization plans of "
                     f"{len(vertices)} {'vertex' if len(vertices) == 1 else 'vertices'}:")
        for k, vertex in enumerate(vertices, 1):
            cells = "; ".join(f"{key}: " + ("unreached" if probs is None else "[" + ", ".join(map(str, probs)) + "]")
                              for key, probs in vertex.items())
            lines.append(f"  vertex {k}: {cells}")
    return "\n".join(lines)


def _convex_sets_text(data: dict) -> list[str]:
    """``--all`` (two players): the maximal convex sets of equilibria and the extreme strategies they are made of."""
    sets, strategies = data.get("convex_sets"), data.get("extreme_strategies")
    if not sets or not strategies:
        return []
    lines = [f"Maximal convex sets of equilibria ({len(sets)}; each the product of the players' convex hulls):"]
    for k, item in enumerate(sets, 1):
        sides = "; ".join(f"{player}: conv of strategies {', '.join(str(i + 1) for i in chosen)}"
                          for player, chosen in item["extreme_strategies"].items())
        lines.append(f"  set {k}: {sides}; extreme equilibria {', '.join(str(i + 1) for i in item['equilibria'])}")
    lines.append("Extreme strategies:")
    for player, tables in strategies.items():
        for k, table in enumerate(tables, 1):
            cells = "; ".join(f"{key}: " + ("unreached" if probs is None else f"[{', '.join(probs)}]")
                              for key, probs in table.items())
            lines.append(f"  {player} {k}: {cells}")
    return lines


def _supports_text(data: dict) -> list[str]:
    """``--all`` (three or more players): whether every support was decided, how, and the families found."""
    decided = data.get("supports_decided")
    if decided is None:
        return []
    how = ", ".join(f"{count} {reason}" for reason, count in sorted(decided.items()))
    verdict = "Complete: every support decided" if data.get("complete") else "NOT complete: some supports undecided"
    lines = [f"{verdict} ({data.get('supports')} supports: {how})."]
    for k, family in enumerate(data.get("families", []), 1):
        exact = "" if family.get("dimension_exact", True) else " at most"
        corners = f", {len(family['vertices'])} vertices" if family.get("vertices") else ""
        lines.append(f"  family {k}: dimension{exact} {family['dimension']}{corners}; a point of it: "
                     + "; ".join(f"{player}: " + ", ".join(f"{key} [{', '.join(probs)}]" for key, probs in table.items())
                                 for player, table in family["witness"].items()))
    return lines


class _Methods:
    """The ``--method`` choices (:data:`exactpoker.solve.engine.dispatch.METHODS`), read from the engine only when
    ``--method`` is given or ``solve --help`` is shown: building the parser imports no solver."""

    def _all(self) -> tuple[str, ...]:
        from exactpoker.solve import METHODS

        return METHODS

    def __contains__(self, item: object) -> bool:
        return item in self._all()

    def __iter__(self):  # noqa: ANN204 - an iterator of str
        return iter(self._all())


def add_commands(games: argparse._SubParsersAction) -> None:
    """Register ``solve``."""
    solve = games.add_parser(
        "solve", help="any finite game: PATH.efg|PATH.nfg|PATH.py, openspiel:NAME, library:NAME",
        description="Solve any finite game exactly; the method follows from the game "
                    "(two-player zero-sum: sequence-form LP; two-player: Lemke; more players: float guide + exact "
                    "finish). Every equilibrium is certified exactly.")
    solve.add_argument("game", nargs="?", default=None,
                       help="PATH.efg, PATH.nfg, openspiel:NAME (e.g. 'kuhn_poker(players=3)'), library:NAME, or "
                            "PATH.py[:NAME]: a poker-language game (exactpoker.core.PokerGame) that a Python file "
                            "defines as the module-level name game (or NAME), or a function of no arguments "
                            "returning one; the file is run")
    solve.add_argument("--method", choices=_Methods(), default="auto", metavar="METHOD",
                       help="force a method, one of %(choices)s (default: auto, from the game)")
    solve.add_argument("--all-pure", action="store_true", help="every pure equilibrium (best-response enumeration)")
    solve.add_argument("--all", action="store_true",
                       help="every extreme equilibrium and the maximal convex sets of equilibria (two players: vertex "
                            "enumeration of the best-response polytopes, exact; small games)")
    solve.add_argument("--family", action="store_true",
                       help="two-player zero-sum: every optimal strategy of each player (exact vertices; small games)")
    solve.add_argument("--no-abstraction", action="store_true",
                       help="game trees: solve the game as given, not its lossless abstraction "
                            "(isomorphic information sets merged, e.g. Leduc's suits)")
    solve.add_argument("--list", action="store_true", help="list the games of the shipped library")
    solve.add_argument("--continuous", action="store_true",
                       help="one-card betting games (library:NAME): hands uniform on [0, 1] instead of the finite "
                            "deck; the equilibrium's shape read from exact finite decks, solved exactly, certified at "
                            "every hand (with --over: exact functions of the parameter; --plot: the strategy diagram)")
    solve.add_argument("--over", default=None, metavar="NAME=FROM..TO",
                       help="two-player zero-sum: the exact solution as a function of a parameter on an interval "
                            "(e.g. bet=1/4..8): pieces, breakpoints, each piece certified")
    solve.add_argument("--maximize", default=None, metavar="value[PLAYER]",
                       help="with --over: the parameter value maximising a player's value (value[0] or a name)")
    add_image_output(solve, "--plot", help="with --over: a PNG of the value and strategies against the parameter; "
                                           "with --continuous: the strategy diagram (hand on the x axis)")
    add_format(solve, "the equilibria")
    add_json(solve)
    solve.set_defaults(run=_solve)
