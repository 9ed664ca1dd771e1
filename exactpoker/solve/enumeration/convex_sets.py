"""The maximal convex sets of equilibria of a two-player game: maximal bicliques of extreme equilibria.

Avis, Rosenberg, Savani and von Stengel ("Enumeration of Nash equilibria for
two-player games", Economic Theory 42, 2010, section 5; after Winkels 1979 and
Audet et al. 2001): join an extreme strategy ``x`` of player 1 to an extreme
strategy ``y`` of player 2 when ``(x, y)`` is an equilibrium.  For a complete
bipartite subgraph ``S x T`` every pair is an equilibrium, and so is every
point of ``conv(S) x conv(T)`` (a best response to each of several strategies
is a best response to their mixtures); the set of equilibria is the union of
these products over the *maximal* bicliques, the game's maximal convex sets of
equilibria (in mixed strategies, or in realization plans for the sequence form).

The maximal bicliques are the closed pairs ``T = N(S)``, ``S = N(T)`` (``N``: the
common neighbours).  Every closed ``T`` is an intersection of neighbourhoods
``N(x)`` of player-1 strategies, so they are found by closing the family of
neighbourhoods under intersection (the concepts of formal concept analysis;
Ganter and Wille 1999, section 1.3) -- the same sets as the Bron--Kerbosch-type
search of Avis et al., by a shorter route on the small graphs of ``--all``.
"""

from __future__ import annotations

from typing import Sequence

from exactpoker.errors import InvalidParameterError

__all__ = ["maximal_bicliques", "MAX_CLOSED_SETS"]

#: The most closed neighbour sets built before refusing.
MAX_CLOSED_SETS = 100_000


def maximal_bicliques(neighbours: Sequence[int]) -> list[tuple[int, int]]:
    """Every maximal biclique ``(S, T)`` of a bipartite graph, both sides non-empty, as bit masks.

    Parameters
    ----------
    neighbours : sequence of int
        For each left vertex ``i``, the bit mask of its right neighbours.

    Returns
    -------
    list of (int, int)
        ``(left mask, right mask)`` of each maximal biclique, sorted.

    Raises
    ------
    InvalidParameterError
        If there are more than :data:`MAX_CLOSED_SETS` closed sets.
    """
    closed: set[int] = set()
    for mask in neighbours:
        if not mask:
            continue
        fresh = {mask} | {mask & other for other in closed if mask & other}
        closed |= fresh
        if len(closed) > MAX_CLOSED_SETS:
            raise InvalidParameterError(
                f"--all: more than {MAX_CLOSED_SETS} candidate convex sets of equilibria; too many to list")
    cliques = []
    for right in closed:
        left = sum(1 << i for i, mask in enumerate(neighbours) if mask & right == right)
        cliques.append((left, right))
    return sorted(cliques)
