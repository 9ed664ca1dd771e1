"""Actions dominated by the range of what they can lead to, read off a game tree.

Seed 003 (Billingham, three-player Kuhn poker with ``N`` cards, section 2)
removes 22 dominated choices before solving: at a decision, an action is
dropped when, in every deal, the *worst* payoff the other action can lead to
(over every later move of every player and of chance) is at least the *best*
payoff the dropped one can lead to.  The test reads only the rules, so it is
written here for any :class:`~exactpoker.core.tree.GameTree`:

for an information set ``I`` of player ``p`` and two of its actions ``keep``
and ``drop``, ``drop`` is *range-dominated* when at every node ``h`` of ``I``

.. math::

    \\min_{z \\succ (h, keep)} u_p(z) \\;\\ge\\; \\max_{z \\succ (h, drop)} u_p(z),

(``z`` runs over the leaves below).  Moving the probability of ``drop`` to
``keep`` then never lowers ``p``'s payoff, whatever everyone (``p`` included)
does later, so a best response exists that never plays a dropped action, and
an equilibrium of the game with ``drop`` removed is an
equilibrium of the whole game: the N-player finish may fix such actions at 0
(:func:`dominated_variables`), and the certificate, which always checks the
whole game, confirms it.
"""

from __future__ import annotations

import numpy as np

from exactpoker.core.compiled import CompiledGame
from exactpoker.core.flat_tree import FlatTree, flatten
from exactpoker.core.game import BettingGame, Decision, Node, Outcome
from exactpoker.core.tree import GameTree

__all__ = ["range_dominated", "dominated_variables", "card_range_dominance"]

Range = tuple[int, int]


def range_dominated(tree: "GameTree | FlatTree") -> dict[tuple[int, str], dict[int, int]]:
    """``{(player, information set): {dropped action index: kept action index}}`` (module docstring).

    Payoffs are compared by their rank among the tree's distinct payoffs (exact:
    ranks order as the rationals do).  The tree is read once into integer
    arrays (:func:`~exactpoker.core.flat_tree.flatten`), unless it comes as
    such (:class:`~exactpoker.core.flat_tree.FlatTree`, e.g. read off a game's
    rules); the ranges below every node and the verdicts at every decision are
    then whole-array operations, level by level.
    """
    flat = tree if isinstance(tree, FlatTree) else flatten(tree)
    low, high = flat.ranges()
    failed: dict[tuple[int, int, int], int] = {}  # (information set, keep, drop) -> nodes where keep fails
    for arity, nodes in flat.moves_by_arity().items():
        children = flat.children_of(nodes, arity)  # (m, arity): the child after each action
        mover = flat.player[nodes][:, None]
        worst, best = low[children, mover], high[children, mover]
        for keep in range(arity):
            for drop in range(arity):
                if keep != drop:
                    misses = np.bincount(flat.infoset[nodes], worst[:, keep] < best[:, drop], len(flat.infosets))
                    for i in np.unique(flat.infoset[nodes]):
                        failed[(int(i), keep, drop)] = int(misses[i])
    pairs: dict[int, dict[tuple[int, int], bool]] = {}
    for (i, keep, drop), misses in failed.items():
        pairs.setdefault(i, {})[(keep, drop)] = misses == 0
    return {flat.infosets[i]: _dropped(verdict) for i, verdict in pairs.items() if _dropped(verdict)}


def _dropped(pairs: dict[tuple[int, int], bool]) -> dict[int, int]:
    """Each dropped action and the action that keeps it out; a kept action is never dropped (ties)."""
    dropped: dict[int, int] = {}
    for (keep, drop), dominates in sorted(pairs.items()):
        if dominates and drop not in dropped and keep not in dropped:
            dropped[drop] = keep
    return dropped


def dominated_variables(compiled: CompiledGame) -> dict[int, int]:
    """The two-action variables (numbered as the N-player finish numbers them) fixed by range dominance.

    A variable is the probability of an information set's second action: it is
    fixed at 0 when that action is range-dominated and at 1 when the first is.
    Empty unless ``compiled`` was compiled from a :class:`GameTree` whose
    layouts list information sets by name.  The tree is read as the arrays its
    compiler gives straight from the rules (``compiled.flat``, e.g.
    :func:`~exactpoker.core.poker_compile.flat_poker`) when it gives them: its
    nodes are then never built.
    """
    tree = compiled.game
    if not isinstance(tree, GameTree) or not all(hasattr(layout, "index") for layout in compiled.layouts):
        return {}
    fixed, offset = {}, 0
    dominated = range_dominated(tree if compiled.flat is None else compiled.flat())
    for p, layout in enumerate(compiled.layouts):
        for (player, name), drops in dominated.items():
            i = layout.index.get(name) if player == p else None
            if i is not None and len(layout.infoset_sequences(i)) == 2:
                fixed[offset + i] = 1 - next(iter(drops))
        offset += layout.num_infosets
    return fixed


def card_range_dominance(game: BettingGame, label: str, card: int, keep: int) -> tuple[str, bool, bool]:
    """The range test above at one decision of a card game's rules, deal by deal: ``(kept action, dominates, strict)``.

    At the decision labelled ``label`` (the first in the tree), with the
    mover holding ``card``, action ``keep`` (0 or 1) *dominates* when in every
    deal the worst payoff it can lead to is at least the best the other can;
    *strict* when in some deal it is more.  Seed 003 section 2's 22 dominated
    choices are proved this way.

    Raises
    ------
    LookupError
        If no decision is labelled ``label``.
    """
    decision = _decision(game.root, label)
    (low_name, low), (high_name, high) = decision.actions
    kept, dropped = (high, low) if keep else (low, high)
    dominates, strict = True, False
    for deal in (d for d in game.deals() if d[decision.player] == card):
        worst = _outcome_range(kept, decision.player, deal)[0]
        best = _outcome_range(dropped, decision.player, deal)[1]
        dominates &= worst >= best
        strict |= worst > best
    return (high_name if keep else low_name), dominates, strict


def _outcome_range(node: Node, player: int, deal: tuple[int, ...]) -> Range:
    """Smallest and largest payoff of ``player`` over every way the play can continue from ``node``."""
    if isinstance(node, Outcome):
        value = node.payoffs(deal)[player]
        return value, value
    ranges = [_outcome_range(child, player, deal) for _, child in node.actions]
    return min(r[0] for r in ranges), max(r[1] for r in ranges)


def _decision(node: Node, label: str) -> Decision:
    """The first decision labelled ``label`` (depth first)."""
    if isinstance(node, Decision):
        if node.label == label:
            return node
        for _, child in node.actions:
            try:
                return _decision(child, label)
            except LookupError:
                continue
    raise LookupError(label)
