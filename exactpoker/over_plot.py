"""The figure of a solution over a parameter: the value and the strategies against it, breakpoints marked.

Imported only when a figure is asked for (matplotlib).  Curves are the exact
piece formulas evaluated in floating point for drawing only.
"""

from __future__ import annotations

from typing import Any

__all__ = ["plot_over"]


def _curve(expr: Any, symbol: Any, start: float, end: float, count: int = 60) -> tuple[list[float], list[float]]:
    import sympy

    f = sympy.lambdify(symbol, expr, "math")
    xs = [start + (end - start) * k / (count - 1) for k in range(count)]
    return xs, [float(f(x)) for x in xs]


def plot_over(solution: Any, path: str | None = None, max_lines: int = 12):  # noqa: ANN201 - a matplotlib Figure
    """Player 0's value (top) and the mixed behaviour probabilities (bottom) against the parameter.

    ``solution`` is a :class:`~exactpoker.solve.parametric.game.ParametricSolution`;
    dotted vertical lines are the breakpoints of the value.  Only the first
    ``max_lines`` information sets that mix somewhere are drawn.
    """
    import matplotlib

    if path:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    symbol = solution.symbol
    lines: dict[str, Any] = {}
    for piece in solution.pieces:
        start, end = float(piece.start), float(piece.end)
        top.plot(*_curve(piece.value, symbol, start, end), color="black")
        for p, layout in enumerate(solution.game.layouts):
            for i, probs in enumerate(piece.behaviour[p]):
                if probs is None or all(v.is_number for v in probs):
                    continue
                key = f"{solution.game.player_names[p]} {layout.infoset_name(i)}: {layout.infoset_actions(i)[-1]}"
                if key not in lines and len(lines) >= max_lines:
                    continue
                colour = lines.get(key)
                (line,) = bottom.plot(*_curve(probs[-1], symbol, start, end), color=colour,
                                      label=None if colour else key)
                lines[key] = line.get_color()
    for axis in (top, bottom):
        for b in solution.breakpoints():
            axis.axvline(float(b), color="grey", linestyle=":")
    top.set_ylabel(f"value of {solution.game.player_names[0]}")
    bottom.set_ylabel("probability of the last action")
    bottom.set_xlabel(str(symbol))
    if lines:
        bottom.legend(fontsize=7)
    fig.tight_layout()
    if path:
        from exactpoker.files import atomic_path

        with atomic_path(path, "--plot") as temporary:
            fig.savefig(temporary, dpi=120, bbox_inches="tight", format="png")
    return fig
