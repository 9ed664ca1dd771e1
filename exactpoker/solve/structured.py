"""The structured paths of a one-card betting game: O(n) methods chosen from the rules, no compiled game.

A paper's card game (:class:`~exactpoker.core.game.BettingGame`: one private
card each, a betting tree) may have a structure that a faster exact method
uses; :func:`solve_structured` takes it, or says there is none:

* two players, payoffs decided by who holds the higher card (von Neumann and
  Newman poker, seed 000 sections 2 and 3): the card-by-card LP in O(n)
  memory (:mod:`~exactpoker.solve.sign_games`,
  :func:`~exactpoker.solve.sign_games_lp.solve_sign_game`), certified by its
  exact prefix-sum check, which checks every deviation, as
  :func:`exactpoker.certify.verify` does;
* three players, payoffs depending only on the order of the cards
  (three-player poker, seed 000 section 4): the support search on the O(n)
  prefix-sum model (:mod:`~exactpoker.solve.ordered_games`,
  :func:`~exactpoker.solve.ordered_solve.solve_ordered`), certified by its
  exact card-by-card check (the same as :func:`exactpoker.certify.verify`).

The rules come from a paper's command (:func:`exactpoker.solve.rules.solve_rules`)
or are recovered from any game tree
(:func:`exactpoker.solve.card_structure.detect_betting_game`,
:func:`exactpoker.solve.structured_tree.solve_structured_tree`).
"""

from __future__ import annotations

from exactpoker.core.compiler import compile_layouts
from exactpoker.core.game import BettingGame
from exactpoker.core.profile import BehaviourProfile
from exactpoker.results import Equilibrium, SolveResult
from exactpoker.solve.ordered_games import ordered_game
from exactpoker.solve.sign_games import sign_game
from exactpoker.solve.tables import labelled_layouts

__all__ = ["STRUCTURED_METHOD", "solve_structured", "has_structure"]

#: The method named in the result when the card-by-card structure was used.
STRUCTURED_METHOD = "card-by-card LP (float-guided, exact finish)"


def solve_structured(game: BettingGame) -> SolveResult | None:
    """Exact, certified equilibria of ``game`` by its structured path (module docstring), or ``None``.

    Strategies are keyed per player by information set (``"card:label"``) as
    :func:`~exactpoker.solve.dispatch.infoset_tables` keys them on the
    compiled game.
    """
    structure = sign_game(game)
    if structure is None:
        ordered = ordered_game(game)
        if ordered is None:
            return None
        from exactpoker.solve.ordered_solve import solve_ordered

        return solve_ordered(game, ordered)
    from exactpoker.solve.sign_games_lp import solve_sign_game

    solution, certificate = solve_sign_game(structure)
    layouts = compile_layouts(game)
    profile = BehaviourProfile.from_layout_tables(layouts, solution.tables(structure))
    strategies = {
        name: {layout.infoset_name(i): list(profile.strategies[p][i]) for i in range(layout.num_infosets)}
        for p, (name, layout) in enumerate(zip(game.player_names, layouts))
    }
    equilibrium = Equilibrium.from_certificate(certificate, strategies, profile,
                                               labelled=labelled_layouts(game.player_names, layouts, profile))
    notes = ("structure detected from the rules: payoffs decided by who holds the higher card (O(n) memory)",)
    details = {"players": 2, "zero-sum": True, "sequences": [layout.num_sequences for layout in layouts]}
    return SolveResult(game.name, dict(game.parameters), STRUCTURED_METHOD, (equilibrium,), notes, details)


def has_structure(game: BettingGame) -> bool:
    """Whether :func:`solve_structured` takes a structured path, building no compiled game."""
    return sign_game(game) is not None or ordered_game(game) is not None
