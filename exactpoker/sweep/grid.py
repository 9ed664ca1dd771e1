"""The grid of a sweep: ``--grid n=2..200 --grid b=1,2,5/2 --fixed method=fast``.

A value list is ``v1,v2,...``; a range is ``a..b`` (step 1) or ``a..b..step``;
ends and steps are exact rationals (``5/2``, ``0.5``).  Values of a list are
kept as typed (strings for the command line), so ``--grid method=fast,slow``
works too.  The points are the Cartesian product, in the order given, first
parameter slowest.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from exactpoker.errors import InvalidParameterError
from exactpoker.numbers import exact_str

__all__ = ["parse_assignment", "parse_values", "points", "MAX_POINTS"]

#: Most points one sweep may have.
MAX_POINTS = 1_000_000


def _number(text: str, where: str) -> Fraction:
    try:
        return Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise InvalidParameterError(f"{where}: {text.strip()!r} is not a number such as 2, 5/2 or 0.5") from None


def parse_values(name: str, spec: str) -> list[str]:
    """The values of one parameter, as command-line strings."""
    where = f"--grid {name}={spec}"
    spec = spec.strip()
    if not spec:
        raise InvalidParameterError(f"{where}: no values (give a list 1,2,3 or a range 2..20 or 2..20..2)")
    if ".." in spec:
        parts = spec.split("..")
        if len(parts) not in (2, 3) or not all(p.strip() for p in parts):
            raise InvalidParameterError(f"{where}: a range is a..b or a..b..step")
        start, stop = _number(parts[0], where), _number(parts[1], where)
        step = _number(parts[2], where) if len(parts) == 3 else Fraction(1)
        if step <= 0:
            raise InvalidParameterError(f"{where}: the step must be positive")
        if stop < start:
            raise InvalidParameterError(f"{where}: the range is empty ({exact_str(stop)} < {exact_str(start)})")
        count = int((stop - start) / step) + 1
        if count > MAX_POINTS:
            raise InvalidParameterError(f"{where}: {count} values; at most {MAX_POINTS}")
        return [exact_str(start + k * step) for k in range(count)]
    values = [v.strip() for v in spec.split(",")]
    if any(not v for v in values):
        raise InvalidParameterError(f"{where}: an empty value in the list")
    if len(set(values)) != len(values):
        raise InvalidParameterError(f"{where}: a value is given twice")
    return values


def parse_assignment(text: str, option: str) -> tuple[str, str]:
    """``"n=2..20"`` -> ``("n", "2..20")``; the name without dashes."""
    name, sep, value = text.partition("=")
    name = name.strip().lstrip("-")
    if not sep or not name:
        raise InvalidParameterError(f"{option} {text!r}: must look like name=values (e.g. {option} n=2..20)")
    return name, value


def points(grid: dict[str, list[str]]) -> list[dict[str, str]]:
    """Every point of the grid (first parameter slowest)."""
    total = 1
    for values in grid.values():
        total *= len(values)
    if total > MAX_POINTS:
        raise InvalidParameterError(f"--grid: {total} points; at most {MAX_POINTS}")
    names = list(grid)
    return [dict(zip(names, combo)) for combo in itertools.product(*(grid[n] for n in names))]
