"""``exactpoker vn ...``: von Neumann poker (seed 000, sections 1-2)."""

from __future__ import annotations

import argparse
import sys

from exactpoker import guard
from exactpoker.commands.common import add_json, add_output, emit, emit_with_legend
from exactpoker.lazy import lazy

# imported when a command runs, not when the parser is built
results = lazy("exactpoker.results")

__all__ = ["add_commands"]

#: ``vn mixed --method``: the paper's names (kept: a public interface) and the one vocabulary's
#: (:data:`exactpoker.solve.engine.dispatch.METHODS`), each mapped onto the vocabulary.
_METHODS = {"fast": "structured", "slow": "strategic", "simplex": "simplex",
            "structured": "structured", "lp": "lp", "strategic": "strategic"}
#: The memory guard's names (:func:`exactpoker.guard.vn_mixed`) of the vocabulary's.
_GUARDED = {"structured": "fast", "strategic": "slow"}
_LEGEND = ("per card 1..n, I's probability of betting (else checking) and II's probability of calling a bet "
           "(else folding)")


def _vn_pure(args: argparse.Namespace) -> None:
    from exactpoker.games.papers import von_neumann

    if args.restricted:
        result = von_neumann.restricted_equilibria(args.n, args.b)
    else:
        result = von_neumann.pure_equilibria(args.n, args.b)
    emit_with_legend(args, result.to_dict(), str(result), _LEGEND)


def _vn_mixed(args: argparse.Namespace) -> None:
    from exactpoker.games.papers import von_neumann

    method = _METHODS[args.method]
    guard.require(guard.vn_mixed(args.n, _GUARDED.get(method, method)), f"vn mixed --n {args.n}")
    result = von_neumann.equilibrium(args.n, args.b, method=method)
    payload = result.to_dict()
    if args.advice:
        advice = von_neumann.advice(result)
        payload["advice"] = advice.splitlines()
        text = "\n".join([result.headline(), advice, result.certified_line()])
    else:
        text = str(result)
    emit_with_legend(args, payload, text, _LEGEND, in_text=not args.advice)


def _vn_continuous(args: argparse.Namespace) -> None:
    from exactpoker.continuous import von_neumann as continuous

    solution = continuous.solve(args.b) if args.b is not None else continuous.solve_symbolic()
    payload = solution.to_dict()
    payload["equilibria"] = [results.cut_equilibrium(
        [solution.value, -solution.value], {"I": {"A": solution.A, "B": solution.B}, "II": {"C": solution.C}},
        solution.certified, "all strategies (indifference at the cut points, integrated exactly)")]
    if args.b is None:
        best_b, best_value = continuous.best_bet()
        payload["best_bet"] = {"b": str(best_b), "value": str(best_value)}
    text = solution.advice()
    if args.b is None:
        text += f"\nThe bet that maximizes Player I's value: b = {best_b}, value {best_value}."
    emit(args, payload, text)


def _vn_efg(args: argparse.Namespace) -> None:
    from exactpoker.files import write_text
    from exactpoker.formats.efg import to_efg
    from exactpoker.games.papers import von_neumann

    guard.require(guard.vn_efg(args.n), f"vn efg --n {args.n}")
    game = von_neumann.game(args.n, args.b)
    text = to_efg(game)
    if args.output:
        write_text(args.output, text, "--output")
    if args.json:  # the file's text in the shared shape (or, with -o, a summary of what was written)
        payload = results.shaped({"method": "export to Gambit's .efg format (version 2)", "output": args.output,
                          "bytes": len(text.encode("utf-8"))}, "von-neumann", dict(game.parameters))
        if not args.output:
            payload["efg"] = text
        emit(args, payload, "")
    elif not args.output:
        sys.stdout.write(text)


def add_commands(games: argparse._SubParsersAction) -> None:
    """Register ``vn pure|mixed|continuous|efg``."""
    vn = games.add_parser("vn", help="von Neumann poker (seed 000, sections 1-2)")
    vn_jobs = vn.add_subparsers(dest="job", required=True)

    pure = vn_jobs.add_parser("pure", help="all pure Nash equilibria (vnNE)")
    pure.add_argument("--n", required=True, help="deck size, 2 <= n <= 24")
    pure.add_argument("--b", required=True, help="bet size, a positive rational such as 2 or 5/2")
    pure.add_argument("--restricted", action="store_true", help="interval strategies only, plus one mixed equilibrium")
    add_json(pure)
    pure.set_defaults(run=_vn_pure)

    mixed = vn_jobs.add_parser("mixed", help="one mixed Nash equilibrium (vnMNE / MNE)")
    mixed.add_argument("--n", required=True, help="deck size, n >= 2 (n <= 9 for --method slow)")
    mixed.add_argument("--b", required=True, help="bet size, a positive rational")
    mixed.add_argument("--method", choices=list(_METHODS), default="fast",
                       help="fast (= structured): card-by-card LP; slow (= strategic): LP over all 2^n strategies; "
                            "simplex: card-by-card LP, exact simplex; lp: the general sequence-form LP")
    mixed.add_argument("--advice", action="store_true", help="spell the strategies out in words (vnMNEv)")
    add_json(mixed)
    mixed.set_defaults(run=_vn_mixed)

    continuous = vn_jobs.add_parser("continuous", help="the continuous game: cut points and value")
    continuous.add_argument("--b", default=None, help="bet size (omit for formulas in b and the best bet)")
    add_json(continuous)
    continuous.set_defaults(run=_vn_continuous)

    efg = vn_jobs.add_parser("efg", help="export the game in Gambit's .efg format")
    efg.add_argument("--n", required=True, help="deck size, n >= 2")
    efg.add_argument("--b", required=True, help="bet size, a positive rational")
    add_output(efg, "--output", "-o", help="file to write (default: standard output)")
    add_json(efg)
    efg.set_defaults(run=_vn_efg)
