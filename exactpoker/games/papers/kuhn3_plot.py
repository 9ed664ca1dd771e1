"""Figures for three-player Kuhn poker (seed 003): expectations along a branch, bars per node.

Imported only when a figure is asked for (matplotlib).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence

from exactpoker.games.papers import kuhn3

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.solve import BranchPoint

__all__ = ["plot_values", "plot_nodes"]


def plot_values(points: Sequence["BranchPoint"], path: str | None = None, ax=None):  # noqa: ANN001, ANN201
    """``E_1, E_2, E_3`` against ``P`` along a branch (the style of the seed's Figures 5, 6, 8)."""
    if ax is None:
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(7, 4))
    else:
        fig = ax.figure
    pots = [p.at for p in points]
    for i in range(3):
        ax.plot(pots, [p.values[i] for p in points], label=f"$E_{i + 1}$")
    ax.set_xlabel("pot $P$")
    ax.set_ylabel("expectation")
    ax.legend()
    if path:
        _save(fig, path)
    return fig


def plot_nodes(cards: int, table: Mapping[str, Sequence[object]], path: str | None = None):  # noqa: ANN201
    """One equilibrium, node by node (the style of the seed's Figure 10).

    Each bar is a card (lowest left); its height is the share of that holding
    still in the player's range at the node (what the player's own earlier
    choices leave), the dark part the share that bets or calls there.
    """
    import matplotlib.pyplot as plt

    paths = kuhn3._node_paths(kuhn3.game(cards, 3).root, [])
    fig, axes = plt.subplots(4, 3, figsize=(9, 8), sharey=True)
    for node in kuhn3.NODES:
        ax = axes[(node - 1) // 3][(node - 1) % 3]
        player = kuhn3.node_player(node)
        heights = []
        for c in range(cards):
            h = 1.0
            for step, action in paths[node]:
                if kuhn3.node_player(step) == player:
                    x = float(table[str(step)][c])
                    h *= x if action == 1 else 1 - x
            heights.append(h)
        shaded = [h * float(table[str(node)][c]) for c, h in enumerate(heights)]
        ax.bar(range(1, cards + 1), heights, color="lightgrey", edgecolor="grey")
        ax.bar(range(1, cards + 1), shaded, color="black")
        ax.set_title(f"node {node} (player {player + 1})", fontsize=9)
        ax.set_xticks(range(1, cards + 1))
        ax.tick_params(labelsize=7)
    fig.tight_layout()
    if path:
        _save(fig, path)
    return fig


def _save(fig, path: str) -> None:  # noqa: ANN001
    """Save ``fig`` whole or not at all (the format from the file name's suffix, PNG by default)."""
    from exactpoker.files import atomic_path

    suffix = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    with atomic_path(path, "--plot") as temporary:
        fig.savefig(temporary, dpi=120, bbox_inches="tight", format=suffix or "png")
