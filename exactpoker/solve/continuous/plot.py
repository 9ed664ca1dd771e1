"""Strategy diagrams of continuous games, as the papers draw them (seed 000, figures 1 and 2).

:func:`plot_strategies`: the hand on the horizontal axis, one band per
information set, each interval of hands coloured by its action (a mixed
interval split across the band in proportion to its probabilities), the cut
points marked.  :func:`plot_over_cuts`: with ``--over``, every cut point and
the first player's value against the parameter, piece by piece.  Imported
only when a figure is asked for (matplotlib); the exact numbers are drawn in
floating point.
"""

from __future__ import annotations

from typing import Any

__all__ = ["plot_strategies", "plot_over_cuts"]


def _save(figure: Any, path: str | None) -> None:
    if path:
        from exactpoker.files import atomic_path

        with atomic_path(path, "--plot") as temporary:
            figure.savefig(temporary, dpi=120, bbox_inches="tight", format="png")


def _pyplot(path: str | None) -> Any:
    import matplotlib

    if path:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_strategies(result: Any, path: str | None = None):  # noqa: ANN201 - a matplotlib Figure
    """The strategy diagram of a :class:`~exactpoker.solve.continuous.result.ContinuousResult` (module docstring)."""
    plt = _pyplot(path)
    bands = [(player, label, pieces) for player, table in result.strategies.items()
             for label, pieces in table.items()]
    actions = list(dict.fromkeys(name for _p, _l, pieces in bands for piece in pieces
                                 for name, p in piece.probabilities if p != 0))
    palette = plt.get_cmap("tab10")
    colour = {name: palette(k % 10) for k, name in enumerate(actions)}
    figure, axis = plt.subplots(figsize=(8, 0.7 * len(bands) + 1.2))
    for row, (_player, _label, pieces) in enumerate(reversed(bands)):
        for piece in pieces:
            start, end, bottom = float(piece.start), float(piece.end), row + 0.1
            for name, p in piece.probabilities:
                if p == 0:
                    continue
                height = 0.8 * float(p)
                axis.broken_barh([(start, end - start)], (bottom, height), facecolor=colour[name], edgecolor="white")
                bottom += height
    cuts = sorted({float(c.value) for c in result.cut_points})
    for cut in cuts:
        axis.axvline(cut, color="grey", linewidth=0.6, linestyle=":")
    axis.set_yticks([row + 0.5 for row in range(len(bands))])
    axis.set_yticklabels([f"{player} at {label!r}" for player, label, _ in reversed(bands)])
    axis.set_xlim(0, 1)
    axis.set_ylim(0, len(bands))
    axis.set_xlabel("hand")
    values = ", ".join(f"{name} {float(v):.5g}" for name, v in zip(result.player_names, result.values))
    axis.set_title(f"{result.game}, hands uniform on [0, 1]: values {values}", fontsize=9)
    handles = [plt.Rectangle((0, 0), 1, 1, facecolor=colour[name]) for name in actions]
    axis.legend(handles, actions, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    figure.tight_layout()
    _save(figure, path)
    return figure


def plot_over_cuts(solution: Any, path: str | None = None):  # noqa: ANN201 - a matplotlib Figure
    """Cut points (top) and the first player's value (bottom) against the parameter of a
    :class:`~exactpoker.solve.continuous.over.ContinuousOver`."""
    import sympy

    plt = _pyplot(path)
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    symbol = solution.symbol
    drawn: dict[str, Any] = {}
    for piece in solution.pieces:
        start, end = float(piece.start), float(piece.end)
        xs = [start + (end - start) * k / 59 for k in range(60)]
        for name, cut in piece.cuts.items():
            f = sympy.lambdify(symbol, cut, "math")
            (line,) = top.plot(xs, [float(f(x)) for x in xs], color=drawn.get(name),
                               label=None if name in drawn else name)
            drawn.setdefault(name, line.get_color())
        value = sympy.lambdify(symbol, piece.value, "math")
        bottom.plot(xs, [float(value(x)) for x in xs], color="black")
    for piece in solution.pieces[1:]:
        for axis in (top, bottom):
            axis.axvline(float(piece.start), color="grey", linestyle=":")
    top.set_ylabel("cut points (hand)")
    top.legend(fontsize=7)
    bottom.set_ylabel(f"value of {solution.player_names[0]}")
    bottom.set_xlabel(solution.parameter)
    figure.tight_layout()
    _save(figure, path)
    return figure
