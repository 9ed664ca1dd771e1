"""The ``exactpoker`` command line.

One subcommand per game, each with ``--json`` (the shape of
:meth:`exactpoker.results.SolveResult.to_dict`, a public interface), plus
``verify`` for the catalog of published claims.  Bad input gives a one-line
message on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, Sequence

from exactpoker.errors import ExactPokerError

__all__ = ["main", "build_parser"]


def _emit(args: argparse.Namespace, payload: dict[str, Any], text: str) -> None:
    print(json.dumps(payload, indent=2) if args.json else text)


# -- von Neumann -----------------------------------------------------------------------


def _vn_pure(args: argparse.Namespace) -> None:
    from exactpoker.games import von_neumann

    if args.restricted:
        result = von_neumann.restricted_equilibria(args.n, args.b)
    else:
        result = von_neumann.pure_equilibria(args.n, args.b)
    _emit(args, result.to_dict(), str(result))


def _vn_mixed(args: argparse.Namespace) -> None:
    from exactpoker.games import von_neumann

    result = von_neumann.equilibrium(args.n, args.b, method=args.method)
    text = von_neumann.advice(result) if args.advice else str(result)
    _emit(args, result.to_dict(), text)


def _vn_continuous(args: argparse.Namespace) -> None:
    from exactpoker.continuous import von_neumann as continuous

    solution = continuous.solve(args.b) if args.b is not None else continuous.solve_symbolic()
    payload = solution.to_dict()
    if args.b is None:
        best_b, best_value = continuous.best_bet()
        payload["best_bet"] = {"b": str(best_b), "value": str(best_value)}
    text = solution.advice()
    if args.b is None:
        text += f"\nThe bet that maximizes Player I's value: b = {best_b}, value {best_value}."
    _emit(args, payload, text)


def _vn_efg(args: argparse.Namespace) -> None:
    from exactpoker.efg import to_efg
    from exactpoker.games import von_neumann

    text = to_efg(von_neumann.game(args.n, args.b))
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)


# -- verify ------------------------------------------------------------------------------


def _verify(args: argparse.Namespace) -> None:
    from exactpoker.claims import report

    show_progress = not args.json and sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if show_progress:
            print(f"\rchecking claim {done + 1}/{total}", end="", file=sys.stderr, flush=True)

    checks = list(report(args.paper, progress))
    if show_progress:
        print(file=sys.stderr)
    counts: dict[str, int] = {}
    for item in checks:
        counts[item.verdict] = counts.get(item.verdict, 0) + 1
    payload = {"claims": [c.to_dict() for c in checks], "summary": counts}
    lines = []
    for item in checks:
        d = item.to_dict()
        lines.append(f"[{d['verdict']:>13}] {d['id']} (seed {d['paper']}, section {d['section']}): {d['statement']}")
        if item.verdict != "exact":
            lines.append(f"{'':16}printed {d['printed']}; exact {d['computed']}")
    lines.append("summary: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    _emit(args, payload, "\n".join(lines))


# -- the parser --------------------------------------------------------------------------


def _add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for tests and documentation)."""
    parser = argparse.ArgumentParser(prog="exactpoker", description="Exact, certified solutions of small poker models.")
    games = parser.add_subparsers(dest="command", required=True)

    vn = games.add_parser("vn", help="von Neumann poker (seed 000, sections 1-2)")
    vn_jobs = vn.add_subparsers(dest="job", required=True)

    pure = vn_jobs.add_parser("pure", help="all pure Nash equilibria (vnNE)")
    pure.add_argument("--n", required=True, help="deck size, 2 <= n <= 24")
    pure.add_argument("--b", required=True, help="bet size, a positive rational such as 2 or 5/2")
    pure.add_argument("--restricted", action="store_true", help="interval strategies only, plus one mixed equilibrium")
    _add_json(pure)
    pure.set_defaults(run=_vn_pure)

    mixed = vn_jobs.add_parser("mixed", help="one mixed Nash equilibrium (vnMNE / MNE)")
    mixed.add_argument("--n", required=True, help="deck size, n >= 2 (n <= 9 for --method slow)")
    mixed.add_argument("--b", required=True, help="bet size, a positive rational")
    mixed.add_argument("--method", choices=["fast", "slow", "simplex"], default="fast",
                       help="fast: card-by-card LP; slow: LP over all 2^n strategies; simplex: card-by-card LP, exact simplex")
    mixed.add_argument("--advice", action="store_true", help="spell the strategies out in words (vnMNEv)")
    _add_json(mixed)
    mixed.set_defaults(run=_vn_mixed)

    continuous = vn_jobs.add_parser("continuous", help="the continuous game: cut points and value")
    continuous.add_argument("--b", default=None, help="bet size (omit for formulas in b and the best bet)")
    _add_json(continuous)
    continuous.set_defaults(run=_vn_continuous)

    efg = vn_jobs.add_parser("efg", help="export the game in Gambit's .efg format")
    efg.add_argument("--n", required=True, help="deck size, n >= 2")
    efg.add_argument("--b", required=True, help="bet size, a positive rational")
    efg.add_argument("--output", "-o", default=None, help="file to write (default: standard output)")
    efg.set_defaults(run=_vn_efg)

    verify = games.add_parser("verify", help="recompute the papers' published claims")
    verify.add_argument("--paper", default=None, help="a paper id such as 000 (default: all)")
    _add_json(verify)
    verify.set_defaults(run=_verify)
    return parser


def _parse_int_args(args: argparse.Namespace) -> None:
    """Integers like ``--n`` stay strings until the API checks them; convert plain digits here."""
    for name in ("n",):
        value = getattr(args, name, None)
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            setattr(args, name, int(value))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _parse_int_args(args)
    run: Callable[[argparse.Namespace], None] = args.run
    try:
        run(args)
    except (ExactPokerError, ValueError) as error:
        print(f"exactpoker: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("exactpoker: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
