"""``exactpoker sweep COMMAND ... --grid name=values``: a command over a grid, on Dask, resumable."""

from __future__ import annotations

import argparse

from exactpoker.commands.common import add_image_output, add_json, add_output, add_runner_options, draw_figure, emit, \
    runner_of

__all__ = ["add_commands"]


def _sweep(args: argparse.Namespace) -> None:
    from exactpoker.errors import InvalidParameterError
    from exactpoker import progress
    from exactpoker.sweep import plan, run_sweep
    from exactpoker.sweep.task import CommandLine

    sweep = plan(args.target, args.grid, args.fixed, CommandLine(*args.command_line))
    x = args.plot_x
    if args.plot is not None:
        if x is None:
            varying = [name for name, values in sweep.grid.items() if len(values) > 1] or list(sweep.grid)
            x = varying[0]
        elif x not in sweep.grid:
            raise InvalidParameterError(f"--plot-x {x}: not a --grid parameter ({', '.join(sweep.grid)})")
    runner = runner_of(args)
    progress.stage(f"sweep of {' '.join(sweep.command)}", len(sweep.points), "points")
    report, records = run_sweep(sweep, args.output, runner, on_record=lambda _: progress.advance(),
                                on_skipped=progress.advance)
    payload = {"game": "sweep", "params": {"command": " ".join(sweep.command), "output": args.output,
                                           "runner": runner.describe()},
               "method": "each grid point: the command's own --json record (in the output file)", "equilibria": [],
               "sweep": {**sweep.header(), "output": args.output, "runner": runner.describe()}, **report.to_dict()}
    lines = [f"exactpoker {' '.join(sweep.command)}: {report.total} points on {runner.describe()}; "
             f"{report.skipped} already in {args.output}, {report.ran} run now, {len(report.failed)} failed"]
    lines += [f"  {r['status']} at {r['point']}: {r['error']}" for r in report.failed]
    if args.plot is not None:
        lines.append(f"plot: {args.plot}")
    emit(args, payload, "\n".join(lines))
    if args.plot is not None:  # after the answer: a figure that fails loses nothing (the records are in the file)
        from exactpoker.sweep.plot import plot_sweep

        draw_figure(args.plot, "--plot", lambda: plot_sweep(records, sweep.command, x, args.plot, sweep.fixed))


def add_commands(games: argparse._SubParsersAction) -> None:
    """Register ``sweep``."""
    sweep = games.add_parser(
        "sweep", help="run a command over a grid of parameters (Dask; resumable)",
        description="Run 'exactpoker COMMAND ... --json' at every point of a grid, each point a task on a local "
                    "Dask cluster (default), a Dask scheduler (--scheduler) or here (--workers 1). Records are "
                    "written to -o as they finish; running the same sweep again skips the points already there.",
        epilog="example: exactpoker sweep vn mixed --grid n=2..60 --grid b=1,2,3 -o vn.jsonl --plot vn.png")
    sweep.add_argument("target", nargs="+", metavar="COMMAND", help="the command's words, e.g. vn mixed")
    sweep.add_argument("--grid", action="append", default=[], metavar="NAME=VALUES",
                       help="a parameter and its values: 1,2,5/2 or a range 2..200 or 2..200..2 (repeatable)")
    sweep.add_argument("--fixed", action="append", default=[], metavar="NAME=VALUE",
                       help="a parameter held fixed (repeatable); a switch takes true or false")
    add_output(sweep, "--output", "-o", required=True, help="the JSON-lines file of records (resumed if it exists)")
    add_image_output(sweep, "--plot", help="draw the value against a parameter into this PNG file")
    sweep.add_argument("--plot-x", default=None, help="the parameter on the x axis (default: the first that varies)")
    add_runner_options(sweep, timeout=True)
    add_json(sweep)
    sweep.set_defaults(run=_sweep)
