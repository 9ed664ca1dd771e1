"""Sweeps: one command over a grid of parameters, every point a task on Dask, resumable.

``exactpoker sweep vn mixed --grid n=2..200 --grid b=1,2,5/2 -o vn.jsonl``
runs ``exactpoker vn mixed --n N --b B --json`` at every point; ``exactpoker sweep
solve library:kuhn --grid bet=1,2,3`` varies a library game's own parameters
(``solve library:kuhn(bet=B) --json``)
(:class:`~exactpoker.sweep.task.CommandTask`) through a
:class:`~exactpoker.parallel.Runner` (a local Dask cluster, a Dask scheduler,
or this process), writes each record as it finishes
(:class:`~exactpoker.sweep.store.SweepStore`), skips the points already in
the output when run again, and can draw the result
(:func:`~exactpoker.sweep.plot.plot_sweep`).

A record is the command's own ``--json`` output plus ``point`` (the grid
point), ``status`` (``"ok"``) and ``seconds``; a point that failed has
``status`` ``"error"`` or ``"timeout"`` and its ``error`` message instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from exactpoker.errors import InvalidParameterError
from exactpoker.parallel import Runner
from exactpoker.sweep.grid import parse_assignment, parse_values, points
from exactpoker.sweep.store import SweepStore, point_key
from exactpoker.sweep.task import CommandLine, CommandTask, command_parser, library_parameters, options

__all__ = ["Sweep", "SweepReport", "plan", "run_sweep"]


@dataclass(frozen=True)
class Sweep:
    """A planned sweep: the command, its grid and fixed options, and every point."""

    command: tuple[str, ...]
    grid: dict[str, list[str]]
    fixed: dict[str, str]
    task: CommandTask
    points: list[dict[str, str]]

    def header(self) -> dict[str, Any]:
        return {"command": list(self.command), "grid": self.grid, "fixed": self.fixed}


@dataclass
class SweepReport:
    """What a run did: points in the grid, skipped (already in the output), run now, and failures."""

    total: int
    skipped: int = 0
    ran: int = 0
    failed: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"points": self.total, "skipped": self.skipped, "ran": self.ran,
                "failed": [{"point": r["point"], "status": r["status"], "error": r["error"]} for r in self.failed]}


def plan(command: list[str], grid: list[str], fixed: list[str] | None = None,
         command_line: CommandLine | None = None) -> Sweep:
    """Check the command and its parameters and list the points (one-line errors naming what is wrong).

    ``command_line`` is the command line's parser factory and entry point, which every point runs; by default
    the installed ``exactpoker`` command line (:meth:`CommandLine.installed`).
    """
    command_line = command_line or CommandLine.installed()
    parser = command_parser(command, command_line)
    known = options(parser)
    if not grid:
        raise InvalidParameterError("sweep: give at least one --grid name=values")
    values: dict[str, list[str]] = {}
    settled: dict[str, str] = {}
    for text in grid:
        name, spec = parse_assignment(text, "--grid")
        if name in values:
            raise InvalidParameterError(f"--grid {name}: given twice")
        values[name] = parse_values(name, spec)
    for text in fixed or []:
        name, value = parse_assignment(text, "--fixed")
        if name in values or name in settled:
            raise InvalidParameterError(f"--fixed {name}: given twice (or also in --grid)")
        settled[name] = value.strip()
    library = library_parameters(command)
    game = library[2] if library is not None else ()
    for name in [*values, *settled]:
        if name not in known and name not in game:
            allowed = ", ".join(sorted(known)) or "none"
            if game:
                allowed = f"the game's {', '.join(game)}; the command's {allowed}"
            raise InvalidParameterError(
                f"sweep: 'exactpoker {' '.join(command)}' has no parameter --{name}; its parameters: {allowed}")
        if library is not None and name in library[1]:
            raise InvalidParameterError(f"sweep: {name} is also fixed in {command[1]}; give it only once")
    flags = tuple(name for name, action in known.items() if action.nargs == 0)
    varied = tuple(name for name in game if name in values or name in settled)
    task = CommandTask(tuple(command), tuple(settled.items()), flags, command_line, varied)
    return Sweep(tuple(command), values, settled, task, points(values))


def run_sweep(sweep: Sweep, output: str, runner: Runner,
              on_record: Callable[[dict[str, Any]], None] | None = None,
              on_skipped: Callable[[int], None] | None = None) -> tuple[SweepReport, list[dict[str, Any]]]:
    """Run every point not yet in ``output``; returns the report and every record (old and new) in grid order."""
    store = SweepStore(output, sweep.header())
    todo = [p for p in sweep.points if not store.done(p)]
    report = SweepReport(total=len(sweep.points), skipped=len(sweep.points) - len(todo))
    if on_skipped is not None:
        on_skipped(report.skipped)
    try:
        for index, (status, value) in runner.run(sweep.task, todo):
            point = todo[index]
            if status == "ok":
                record = {**value["result"], "point": point, "status": "ok", "seconds": value["seconds"]}
            else:
                record = {"point": point, "status": status, "error": value}
                report.failed.append(record)
            store.add(record)
            report.ran += 1
            if on_record is not None:
                on_record(record)
    finally:
        store.close()
    return report, [store.records[point_key(p)] for p in sweep.points if store.done(p)]
