"""The picture of a sweep: player 1's value against one parameter, one line per value of the others.

For von Neumann poker against the deck size ``n`` the continuous game's value
``b / ((b + 4)(b + 1))`` (seed 000, section 2) is drawn too, dashed, for each
bet: the finite values approach it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

from exactpoker.errors import InvalidParameterError

__all__ = ["value_of", "series", "plot_sweep"]


def value_of(record: dict[str, Any]) -> float | None:
    """Player 1's value in a finished record (``equilibria[0].values[0]``), as a float; ``None`` if absent."""
    try:
        text = record["equilibria"][0]["values"][0]
    except (KeyError, IndexError, TypeError):
        return None
    try:
        return float(Fraction(str(text)))
    except (ValueError, ZeroDivisionError):
        import sympy

        try:
            return float(sympy.sympify(str(text)))
        except (sympy.SympifyError, TypeError, ValueError):
            return None


def _number(text: str) -> float | str:
    try:
        return float(Fraction(text))
    except (ValueError, ZeroDivisionError):
        return text


def series(records: Sequence[dict[str, Any]], x: str) -> dict[tuple[tuple[str, str], ...], list[tuple[Any, float]]]:
    """``{other parameters: [(x, value), ...]}`` from the finished records, sorted by ``x``."""
    lines: dict[tuple[tuple[str, str], ...], list[tuple[Any, float]]] = {}
    for record in records:
        if record.get("status") != "ok":
            continue
        value = value_of(record)
        if value is None or x not in record["point"]:
            continue
        others = tuple(sorted((k, v) for k, v in record["point"].items() if k != x))
        lines.setdefault(others, []).append((_number(record["point"][x]), value))
    return {key: sorted(points, key=lambda p: (isinstance(p[0], str), p[0])) for key, points in sorted(lines.items())}


def plot_sweep(records: Sequence[dict[str, Any]], command: Sequence[str], x: str, path: str,
               fixed: dict[str, str] | None = None) -> None:
    """Draw the sweep into ``path`` (PNG, written whole or not at all)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lines = series(records, x)
    if not lines:
        raise InvalidParameterError(f"--plot {path}: no finished record has a value to draw against {x}")
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for others, points in lines.items():
        label = ", ".join(f"{k} = {v}" for k, v in others) or "value"
        drawn = axes.plot([p[0] for p in points], [p[1] for p in points], marker=".", label=label)
        limit = _continuous_limit(command, x, {**(fixed or {}), **dict(others)})
        if limit is not None:
            axes.axhline(limit, linestyle="--", linewidth=0.8, color=drawn[0].get_color())
    axes.set_xlabel(x)
    axes.set_ylabel("value of player 1")
    title = "exactpoker " + " ".join(command)
    if any(_continuous_limit(command, x, {**(fixed or {}), **dict(o)}) is not None for o in lines):
        title += "  (dashed: the continuous game b/((b+4)(b+1)))"
    axes.set_title(title, fontsize=9)
    axes.legend(fontsize=8)
    axes.grid(alpha=0.3)
    from exactpoker.files import atomic_path

    try:
        with atomic_path(path, "--plot") as temporary:
            figure.savefig(temporary, dpi=120, bbox_inches="tight", format="png")
    finally:
        plt.close(figure)


def _continuous_limit(command: Sequence[str], x: str, others: dict[str, str]) -> float | None:
    if list(command) != ["vn", "mixed"] or x != "n" or "b" not in others:
        return None
    b = Fraction(others["b"])
    return float(b / ((b + 4) * (b + 1)))
