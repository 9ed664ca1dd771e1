"""Certified equilibria of a three-player game decided by the order of the cards, found in O(n) per step.

The engine's path for the games of :mod:`~exactpoker.solve.structure.ordered_games`
(three-player poker, seed 000 section 4, the paper's ``FastMNE``), reached
from the rules by :func:`~exactpoker.solve.engine.dispatch.solve_game`:

1. the model: the prefix sums over the order of the cards
   (:class:`~exactpoker.solve.structure.ordered_games.OrderedModel`), or any model of
   the same game (e.g. the compiled game's
   :class:`~exactpoker.solve.nplayer.indifference.CompiledModel`);
2. symmetry, detected: when swapping players II and III (their actions,
   cards and payoffs) leaves every payoff as it is, the search first ties
   their information sets card by card (:func:`symmetric_ties`);
3. the guide: the rules' own (:attr:`~exactpoker.core.game.BettingGame.guide`,
   an :class:`OrderedGuide`, e.g. a continuous game's cut points), else
   smoothed fictitious play (:func:`~exactpoker.solve.nplayer.indifference.fictitious_play`);
4. the supports, in one order: tied near the guide; tied on the guide's own
   list of supports; untied near the guide (the first that certifies wins,
   :func:`~exactpoker.solve.nplayer.support_search.locate_equilibrium`);
5. the family through the equilibrium, every corner certified
   (:func:`~exactpoker.solve.nplayer.indifference_families.family_corners`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

import numpy as np

from exactpoker.core.compiler import compile_layouts
from exactpoker.core.game import BettingGame
from exactpoker.core.profile import BehaviourProfile
from exactpoker.errors import CertificationError
from exactpoker.results import Equilibrium, SolveResult
from exactpoker.solve.nplayer.indifference import CompiledModel, Support, Ties, fictitious_play
from exactpoker.solve.algebra.polynomial_system import Family
from exactpoker.solve.nplayer.indifference_families import family_corners
from exactpoker.solve.structure.ordered_games import ORDERS, OrderedGame, OrderedModel
from exactpoker.solve.nplayer.point import CertifiedPoint
from exactpoker.solve.nplayer.support_search import locate_equilibrium
from exactpoker.solve.engine.tables import labelled_layouts

__all__ = ["ORDERED_METHOD", "OrderedGuide", "symmetric_ties", "solve_ordered"]

#: The method named in the result (the same words as ``exactpoker three mixed``).
ORDERED_METHOD = "indifference equations on a located support (exact)"

Search = tuple[Ties, "Iterator[Support] | None"]


@dataclass(frozen=True)
class OrderedGuide:
    """What a game's paper suggests to the support search (floats and shapes only; the exact finish decides).

    Attributes
    ----------
    behaviour : sequence of numpy arrays, optional
        Per player, the guide probability of action 1 per card; ``None``:
        smoothed fictitious play.
    supports : callable, optional
        Called with no arguments: further supports to try (with the
        symmetric players tied) when none near the guide certifies.
    """

    behaviour: Sequence[np.ndarray] | None = None
    supports: Callable[[], Iterator[Support]] | None = None


def symmetric_ties(game: OrderedGame) -> Ties:
    """``{(2, h): (1, h)}`` for every card when players II and III are interchangeable, else ``{}``.

    Interchangeable: with their actions, their cards' ranks and their payoffs
    swapped, every payoff of every deal is the same.
    """
    for (a0, a1, a2), table in game.payoffs.items():
        swapped = game.payoffs[(a0, a2, a1)]
        for ranks in ORDERS:
            mine, theirs = table[ranks], swapped[(ranks[0], ranks[2], ranks[1])]
            if (mine[0], mine[1], mine[2]) != (theirs[0], theirs[2], theirs[1]):
                return {}
    return {(2, h): (1, h) for h in range(game.n)}


def solve_ordered(rules: BettingGame, game: OrderedGame, model: CompiledModel | OrderedModel | None = None
                  ) -> SolveResult:
    """Certified equilibria of ``rules``, whose :class:`OrderedGame` is ``game`` (module docstring).

    Parameters
    ----------
    rules : BettingGame
        The rules (their ``guide``, if any, is used; strategies are keyed by
        their information sets, ``"card:label"``).
    game : OrderedGame
        ``ordered_game(rules)``.
    model : model, optional
        The model the search works on; default the O(n) :class:`OrderedModel`.

    Raises
    ------
    CertificationError
        If no search certifies an equilibrium.
    """
    model = OrderedModel(game) if model is None else model
    hint = rules.guide() if rules.guide is not None else None
    hint = hint if isinstance(hint, OrderedGuide) else OrderedGuide()
    guide = list(hint.behaviour) if hint.behaviour is not None else fictitious_play(model)
    ties = symmetric_ties(game)
    searches: list[Search] = [(ties, None)] if ties else []
    if hint.supports is not None:
        searches.append((ties, hint.supports()))
    searches.append(({}, None))
    located, used = _locate(model, guide, searches)
    return _result(rules, game, located, family_corners(model, located, used))


def _locate(model: CompiledModel | OrderedModel, guide: list[np.ndarray], searches: list[Search]
            ) -> tuple[CertifiedPoint, Ties]:
    """The first of ``searches`` (ties, supports to try or ``None`` for the guide's) that certifies an equilibrium.

    Raises the last search's :class:`~exactpoker.errors.CertificationError` when none does.
    """
    *first, (ties, supports) = searches
    for earlier_ties, earlier_supports in first:
        try:
            return locate_equilibrium(model, guide, ties=earlier_ties, supports=earlier_supports), earlier_ties
        except CertificationError:
            continue
    return locate_equilibrium(model, guide, ties=ties, supports=supports), ties


def _result(rules: BettingGame, game: OrderedGame, located: CertifiedPoint, family: Family) -> SolveResult:
    """The corners as a :class:`~exactpoker.results.SolveResult`, keyed by information set like ``solve``'s."""
    layouts = compile_layouts(rules)
    names = rules.player_names
    equilibria = []
    for corner in family.vertices:
        behaviour, certificate = corner.behaviour, corner.certificate
        profile = BehaviourProfile.from_layout_tables(layouts, [{label: list(row)}
                                                                for label, row in zip(game.labels, behaviour)])
        strategies = {name: {layout.infoset_name(i): list(profile.strategies[p][i])
                             for i in range(layout.num_infosets)}
                      for p, (name, layout) in enumerate(zip(names, layouts))}
        equilibria.append(Equilibrium.from_certificate(certificate, strategies, profile,
                                                       labelled=labelled_layouts(names, layouts, profile)))
    free = {name: [f"{h + 1}:{game.labels[p]}" for q, h in located.system.variables if q == p]
            for p, name in enumerate(names)}
    alike = all(corner.behaviour[1] == corner.behaviour[2] for corner in family.vertices)
    notes = ["structure detected from the rules: payoffs depend only on the order of the cards (O(n) per step)",
             f"Players {names[1]} and {names[2]} play " + ("alike." if alike else "differently.")]
    if family.dimension:
        notes.append(f"A {family.dimension}-dimensional family of equilibria on the support; its certified corners "
                     "are listed" + (" (every point between them certified)." if family.segment_certified else "."))
    details = {"players": 3, "sequences": [layout.num_sequences for layout in layouts],
               "family_dimension": family.dimension, "segment": family.segment_certified,
               "supports_tried": located.rounds, "free_infosets": free}
    return SolveResult(rules.name, dict(rules.parameters), ORDERED_METHOD, tuple(equilibria), tuple(notes), details)
