"""``exactpoker solve GAME --continuous [--over NAME=FROM..TO [--maximize value[P]]] [--plot FILE.png]``.

The game's rules with hands uniform on ``[0, 1]`` instead of its finite deck
(:mod:`exactpoker.core.continuous_deck`), solved by the continuous engine
(:mod:`exactpoker.solve.continuous`): the shape read from exact finite decks,
its system solved exactly, the answer certified at every hand.  Only one-card
betting rules can take a continuous deck -- a library game, or a
poker-language game in a Python file (``solve FILE.py --continuous``);
anything else is refused in one line.  ``--over`` gives the solution as
exact functions of one of the game's sizes, piece by piece
(:mod:`exactpoker.solve.continuous.over`); ``--plot`` draws the strategy
diagram (:mod:`exactpoker.solve.continuous.plot`), or with ``--over`` the cut
points against the parameter.
"""

from __future__ import annotations

import argparse

from exactpoker.errors import InvalidGameError, InvalidParameterError

__all__ = ["run_continuous"]

#: ``solve`` options that have no meaning for a continuous deck.
_FINITE_ONLY = (("method", "auto", "--method"), ("all_pure", False, "--all-pure"), ("all", False, "--all"),
                ("family", False, "--family"), ("no_abstraction", False, "--no-abstraction"))


def _rules(spec: str) -> object:
    """The rules named by ``spec``: a library game, or a poker-language game in a Python file (``FILE.py``,
    :mod:`exactpoker.formats.python_file`); anything else (a game tree has no rules to deal from) is refused in one
    line."""
    from exactpoker.formats.python_file import is_python_spec, python_game

    if is_python_spec(spec):
        return python_game(spec)
    if not spec.startswith("library:"):
        kind = "an OpenSpiel game" if spec.startswith("openspiel:") else "a game file"
        raise InvalidGameError(f"solve --continuous: {spec} is {kind}; a continuous deck needs one-card betting "
                               f"rules: a library game (library:NAME) or a poker-language game in a Python file "
                               f"(FILE.py)")
    from exactpoker.formats import parse_call
    from exactpoker.games.library import poker_game

    name, params = parse_call(spec[len("library:"):])
    return poker_game(name, **params)


def _run_over(args: argparse.Namespace, game: object) -> None:
    """``--continuous --over``: pieces of the parameter, each certified for every value in it."""
    from exactpoker.commands._over import parse_maximize, parse_over
    from exactpoker.commands.common import emit
    from exactpoker.games.library import rules_over
    from exactpoker.solve.continuous.over import solve_over_continuous

    name, lower, upper = parse_over(args.over)
    build = rules_over(args.game[len("library:"):], name)
    player = None if args.maximize is None else parse_maximize(args.maximize, game.player_names)  # type: ignore[attr-defined]
    solution = solve_over_continuous(build, name, lower, upper, source=args.game)
    maximum = None if player is None else solution.maximize(player)
    if args.plot:
        from exactpoker.solve.continuous.plot import plot_over_cuts

        plot_over_cuts(solution, args.plot)
    emit(args, solution.to_dict(maximum), solution.text(maximum))


def _solve(game: object, spec: str) -> object:
    """The engine's answer for ``game``; for a library game none of whose shapes read from the finite decks
    certifies, the shapes certified for the same rules at the default sizes (:func:`~exactpoker.games.library.
    at_default_sizes`: ``vn(b=1)`` for ``vn(b=1/100)``, whose bluffing range is narrower than a card of the
    largest deck read) are tried too."""
    from exactpoker.solve.continuous import solve_continuous

    lenders = (lambda: _at_default_sizes(spec)) if spec.startswith("library:") else ()
    return solve_continuous(game, source=spec, shapes_from=lenders)


#: Seconds of trying shapes a default size gets to lend one (on the first deck only): a refusal is then at most
#: about this (and one deck's solve) slower for each size the game sets.
LENDER_SECONDS = 20.0


def _at_default_sizes(spec: str) -> list[object]:
    """The certified answers of ``spec``'s game at its default sizes, where the engine certifies one from the
    first deck within :data:`LENDER_SECONDS` (the library's default sizes are read there: two-player games on 60
    cards, three-player ones on 12)."""
    from exactpoker.core.continuous_deck import continuous_deck
    from exactpoker.formats import parse_call
    from exactpoker.games.library import at_default_sizes, poker_game
    from exactpoker.solve.continuous import NoCertifiedShape, solve_continuous
    from exactpoker.solve.continuous.readings import default_decks

    lenders = []
    for text in at_default_sizes(spec[len("library:"):]):
        name, params = parse_call(text)
        try:
            game = continuous_deck(poker_game(name, **params), f"library:{text}")
            lenders.append(solve_continuous(game, decks=default_decks(game.num_players)[:1], seconds=LENDER_SECONDS))
        except (NoCertifiedShape, InvalidParameterError):
            continue  # not a game (e.g. a > b broken), or no answer there either
    return lenders


def run_continuous(args: argparse.Namespace) -> None:
    """The ``--continuous`` branch of ``exactpoker solve``."""
    from exactpoker.commands.common import emit
    from exactpoker.core.continuous_deck import continuous_deck

    for key, default, flag in _FINITE_ONLY:
        if getattr(args, key) != default:
            raise InvalidParameterError(f"solve --continuous: {flag} is for finite decks; --continuous goes with "
                                        f"--over, --maximize, --plot and --json")
    if args.game is None:
        raise InvalidParameterError("solve --continuous: give a GAME (library:NAME or FILE.py: one-card betting "
                                    "rules)")
    if args.over is not None and not args.game.startswith("library:"):
        raise InvalidParameterError("solve --continuous --over: varies a library game's parameter (library:NAME); "
                                    f"{args.game} is not one")
    if args.maximize is not None and args.over is None:
        raise InvalidParameterError("solve --continuous: --maximize goes with --over NAME=FROM..TO")
    game = continuous_deck(_rules(args.game), args.game)
    if args.over is not None:
        _run_over(args, game)
        return
    result = _solve(game, args.game)
    if args.plot:
        from exactpoker.solve.continuous.plot import plot_strategies

        plot_strategies(result, args.plot)
    emit(args, result.to_dict(), str(result))
