"""``exactpoker solve GAME --over NAME=FROM..TO [--maximize value[PLAYER]] [--plot FILE.png]``.

The game's equilibria as exact functions of one parameter (issue 28): the game
is compiled with payoffs polynomial in the parameter
(:mod:`exactpoker.core.parametric`), solved piece by piece
(:mod:`exactpoker.solve.parametric.game`), and printed with every piece's
value and strategies as rational functions, the breakpoints as exact numbers,
and on request the parameter value maximising a player's value.  A
general-sum or many-player game gets certified equilibria at rational points
of a continuation branch instead (:mod:`exactpoker.solve.parametric.branch`).
"""

from __future__ import annotations

import argparse
import re
from fractions import Fraction
from typing import Any

from exactpoker.errors import InvalidParameterError
from exactpoker.numbers import exact_str, to_fraction
from exactpoker.results import jsonable, shaped

__all__ = ["run_over", "parse_over", "parse_maximize", "parametric_game", "over_payload", "branch_payload"]

_OVER = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([^.]+?)\s*\.\.\s*(\S+)\s*$")


def parse_over(text: str) -> tuple[str, Fraction, Fraction]:
    """``"b=1/2..4"`` -> ``("b", 1/2, 4)``."""
    found = _OVER.match(text)
    if found is None:
        raise InvalidParameterError(f"--over must be NAME=FROM..TO with rationals, e.g. bet=1/4..8; got {text!r}")
    lower, upper = to_fraction(found.group(2), "--over FROM"), to_fraction(found.group(3), "--over TO")
    if not lower < upper:
        raise InvalidParameterError(f"--over needs FROM < TO; got {exact_str(lower)}..{exact_str(upper)}")
    return found.group(1), lower, upper


def parse_maximize(text: str, players: tuple[str, ...]) -> int:
    """``"value[0]"`` or ``"value[P1]"`` -> the player's index."""
    found = re.fullmatch(r"\s*value\[\s*([^\]]+?)\s*\]\s*", text)
    key = found.group(1) if found else None
    if key is not None and key in players:
        return players.index(key)
    if key is not None and key.isdigit() and int(key) < len(players):
        return int(key)
    allowed = ", ".join([f"value[{k}]" for k in range(len(players))] + [f"value[{p}]" for p in players])
    raise InvalidParameterError(f"--maximize must be one of {allowed}; got {text!r}")


def parametric_game(spec: str, parameter: str, lower: Fraction, upper: Fraction):  # noqa: ANN201 - a ParametricGame
    """The game named by ``spec`` as a function of ``parameter`` (``library:...`` or a parametric ``.efg``/``.nfg``)."""
    if spec.startswith("library:"):
        from exactpoker.games.library import parametric

        return parametric(spec[len("library:"):], parameter, (lower, upper))
    if spec.lower().endswith((".efg", ".nfg")):
        from exactpoker.formats.parametric import parametric_file

        return parametric_file(spec, parameter, (lower, upper))
    raise InvalidParameterError(f"--over works on library:NAME games and on .efg/.nfg files with parameters; "
                                f"got {spec!r}")


def _sample_points(lower: Fraction, upper: Fraction, count: int) -> list[Fraction]:
    return [lower + (upper - lower) * Fraction(k, count + 1) for k in range(1, count + 1)]


def _labelled(solution: Any, piece: Any, show: Any = str) -> dict[str, dict[str, Any]]:
    """Per player, per information set, ``{action: probability}`` of one piece (``None``: unreached)."""
    return {solution.game.player_names[p]: {
        layout.infoset_name(i): None if probs is None else dict(zip(layout.infoset_actions(i), map(show, probs)))
        for i, probs in enumerate(piece.behaviour[p])} for p, layout in enumerate(solution.game.layouts)}


def _piece_dict(solution: Any, piece: Any) -> dict[str, Any]:
    names = solution.game.player_names
    strategies = {}
    for p, layout in enumerate(solution.game.layouts):
        strategies[names[p]] = {layout.infoset_name(i): (None if probs is None else [str(v) for v in probs])
                                for i, probs in enumerate(piece.behaviour[p])}
    return {"from": str(piece.start), "to": str(piece.end), "value": [str(piece.value), str(-piece.value)],
            "strategies": strategies, "certified": True, "sample": exact_str(piece.sample),
            "certificate": piece.certificate.to_dict(), "labelled_strategies": _labelled(solution, piece),
            "found_by": piece.found_by}


def over_payload(spec: str, solution: Any, lower: Fraction, upper: Fraction, maximum: Any = None) -> dict[str, Any]:
    """The JSON of a solution over an interval (keys in ``exactpoker/schema/result.json``)."""
    from exactpoker.solve.parametric.game import describe_number

    value_changes = {str(b) for b in solution.breakpoints()}
    breakpoints = [dict(describe_number(p.start), value_changes=str(p.start) in value_changes)
                   for p in solution.pieces[1:]]
    payload: dict[str, Any] = {
        "method": "parametric sequence-form LP: exact optimal bases over Q(parameter), certified piece by piece",
        "over": {"parameter": str(solution.symbol), "from": exact_str(lower), "to": exact_str(upper)},
        "pieces": [_piece_dict(solution, piece) for piece in solution.pieces],
        "breakpoints": breakpoints,
        "piecewise": solution.to_dict(),
    }
    if maximum is not None:
        payload["maximum"] = {"player": maximum.player, "value": describe_number(maximum.value),
                              "at": [describe_number(a) for a in maximum.at],
                              "flat": [[str(s), str(e)] for s, e in maximum.flat]}
    return shaped(payload, spec, {})


def over_text(spec: str, solution: Any, maximum: Any = None) -> str:
    """The solution as readable text: each piece's value and strategies, breakpoints, the maximum."""
    import sympy

    x = solution.symbol
    lines = [f"{spec} over {x} in [{solution.lower}, {solution.upper}]: {len(solution.pieces)} pieces, "
             f"each certified optimal for every {x} in it; strategies per player, information set: "
             "{action: probability}"]
    for piece in solution.pieces:
        lines.append(f"{piece.start} <= {x} <= {piece.end}: value {sympy.factor(piece.value)} of "
                     f"{solution.game.player_names[0]} (checked again at {x} = {exact_str(piece.sample)})")
        for player, table in _labelled(solution, piece, lambda v: str(sympy.factor(v))).items():
            cells = [f"{infoset}: " + ("unreached" if probs is None else
                                       "{" + ", ".join(f"{action}: {v}" for action, v in probs.items()) + "}")
                     for infoset, probs in table.items()]
            lines.append(f"  {player}: " + "; ".join(cells))
    breaks = solution.breakpoints()
    lines.append("value breakpoints: " + (", ".join(f"{b} (~{float(b):.6g})" for b in breaks) if breaks else "none"))
    if maximum is not None:
        where = ", ".join(str(a) for a in maximum.at)
        flat = "".join(f"; constant on [{s}, {e}]" for s, e in maximum.flat)
        lines.append(f"maximum of {maximum.player}'s value: {maximum.value} (~{float(maximum.value):.6g}) "
                     f"at {x} = {where}{flat}")
    return "\n".join(lines)


def branch_payload(spec: str, branch: Any) -> dict[str, Any]:
    """The JSON of a general-sum / many-player game over an interval: certified points and the float branch."""
    points = [{"at": exact_str(p.at), "certified": p.equilibrium is not None,
               **({"equilibrium": p.equilibrium.to_dict()} if p.equilibrium is not None else {"error": p.error})}
              for p in branch.points]
    return shaped({
        "method": "certified equilibria at rational points on the continuation branch of the regularised system "
                  "(seed 003, section 3); the branch itself is floating point, not certified",
        "over": {"parameter": branch.parameter, "from": exact_str(branch.lower), "to": exact_str(branch.upper)},
        "points": points,
        "branch": [{"at": f"{b.at:.12g}", "values": [f"{v:.12g}" for v in b.values], "certified": False}
                   for b in branch.branch],
    }, spec, {})


def branch_text(spec: str, branch: Any) -> str:
    lines = [f"{spec} over {branch.parameter} in [{exact_str(branch.lower)}, {exact_str(branch.upper)}]: "
             f"{len(branch.branch)} branch points (floats, NOT certified), exact equilibria at rational points:"]
    for point in branch.points:
        if point.equilibrium is None:
            lines.append(f"  {branch.parameter} = {exact_str(point.at)}: {point.error}")
        else:
            values = ", ".join(map(str, point.equilibrium.values))
            lines.append(f"  {branch.parameter} = {exact_str(point.at)}: values {values}, certified: "
                         f"{'yes' if point.equilibrium.certified else 'NO'}")
    step = max(1, len(branch.branch) // 10)
    lines.append("the float branch (uncertified), every " + (f"{step}th point:" if step > 1 else "point:"))
    lines += [f"  {b.at:.6g}: " + ", ".join(f"{v:.6g}" for v in b.values) for b in branch.branch[::step]]
    return "\n".join(lines)


def _run_branch(args: argparse.Namespace, compiled: Any, lower: Fraction, upper: Fraction) -> None:
    from exactpoker.commands.common import emit
    from exactpoker.solve.parametric.branch import solve_branch

    if args.maximize is not None or args.plot is not None:
        raise InvalidParameterError("--maximize and --plot need exact pieces: a two-player zero-sum game")
    branch = solve_branch(compiled, lower, upper)
    emit(args, jsonable(branch_payload(args.game, branch)), branch_text(args.game, branch))


def run_over(args: argparse.Namespace) -> None:
    """The ``--over`` branch of ``exactpoker solve``."""
    from exactpoker import guard
    from exactpoker.commands.common import emit
    from exactpoker.core.parametric import compile_parametric
    from exactpoker.solve.parametric.game import solve_over

    if args.game is None:
        raise InvalidParameterError("solve --over: give a GAME (library:NAME or a parametric .efg/.nfg file)")
    other = [flag for flag, asked in (("--all", args.all), ("--all-pure", args.all_pure), ("--family", args.family),
                                      ("--method", args.method != "auto"), ("--no-abstraction", args.no_abstraction))
             if asked]
    if other:
        raise InvalidParameterError(f"solve --over: {other[0]} is not taken with --over (its pieces are one exact "
                                    "solution per interval, by the parametric LP); give one or the other")
    name, lower, upper = parse_over(args.over)
    game = parametric_game(args.game, name, lower, upper)
    compiled = compile_parametric(game, _sample_points(lower, upper, game.degree + 2))
    sequences = sum(layout.num_sequences for layout in compiled.layouts)
    guard.require(guard.compiled_game(sequences, len(compiled.entries)),
                  f"solve {args.game} --over ({sequences} sequences, {len(compiled.entries)} payoff entries)")
    player = None if args.maximize is None else parse_maximize(args.maximize, compiled.player_names)
    if compiled.num_players != 2 or not compiled.is_zero_sum:
        _run_branch(args, compiled, lower, upper)
        return
    solution = solve_over(compiled, lower, upper)
    maximum = None if player is None else solution.maximize(player)
    emit(args, jsonable(over_payload(args.game, solution, lower, upper, maximum)),
         over_text(args.game, solution, maximum))
    if args.plot:  # after the answer: a figure that fails loses nothing
        from exactpoker.commands.common import draw_figure
        from exactpoker.over_plot import plot_over

        draw_figure(args.plot, "--plot", lambda: plot_over(solution, args.plot))
