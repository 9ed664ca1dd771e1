"""The structured paths of a one-card betting game: O(n) methods chosen from the rules, no compiled game.

A paper's card game (:class:`~exactpoker.core.game.BettingGame`: one private
card each, a betting tree) may have a structure that a faster exact method
uses; :func:`_solve_structured` takes it, or says there is none (the engine's own
path, reached only through :func:`~exactpoker.solve.engine.dispatch.solve_game`):

* two players, payoffs decided by who holds the higher card (von Neumann and
  Newman poker, seed 000 sections 2 and 3): the card-by-card LP in O(n)
  memory (:mod:`~exactpoker.solve.structure.sign_games`,
  :func:`~exactpoker.solve.lp.sign_games_lp.solve_sign_game`), certified by its
  exact prefix-sum check, which checks every deviation, as
  :func:`exactpoker.certify.verify` does;
* three players, payoffs depending only on the order of the cards
  (three-player poker, seed 000 section 4): the support search on the O(n)
  prefix-sum model (:mod:`~exactpoker.solve.structure.ordered_games`,
  :func:`~exactpoker.solve.nplayer.ordered_solve.solve_ordered`), certified by its
  exact card-by-card check (the same as :func:`exactpoker.certify.verify`);
* every pure equilibrium (``method="structured", all_pure=True``) of a
  two-action game decided by the higher card (von Neumann poker, seed 000
  section 1, the paper's ``vnNE``): prefix counts over I's ``2^n`` pure
  strategies (:func:`_solve_structured_pure`), each certified by the exact
  prefix-sum check.

The rules come from a paper's game (``solve_game(von_neumann.game(n, b))``)
or are recovered from any game tree
(:func:`exactpoker.solve.structure.card_structure.detect_betting_game`,
:mod:`exactpoker.solve.engine.structured_tree`).
"""

from __future__ import annotations

from exactpoker import progress
from exactpoker.certify import Certificate
from exactpoker.core.compiler import compile_layouts
from exactpoker.core.game import BettingGame
from exactpoker.core.profile import BehaviourProfile
from exactpoker.results import Equilibrium, SolveResult
from exactpoker.solve.structure.ordered_games import ordered_game
from exactpoker.solve.engine.tables import labelled_layouts
from exactpoker.solve.structure.sign_games import SignProfile, certify_sign_game, sign_game

__all__ = ["STRUCTURED_METHOD", "STRUCTURED_PURE_METHOD", "has_structure"]

#: The method named in the result when the card-by-card structure was used.
STRUCTURED_METHOD = "card-by-card LP (float-guided, exact finish)"
#: The method named in the result of every pure equilibrium found by the prefix counts of the card order.
STRUCTURED_PURE_METHOD = "pure-enumeration (prefix counts of the card order, exact)"


def _solve_structured(game: BettingGame) -> SolveResult | None:
    """Exact, certified equilibria of ``game`` by its structured path (module docstring), or ``None``.

    Strategies are keyed per player by information set (``"card:label"``) as
    :func:`~exactpoker.solve.engine.dispatch.infoset_tables` keys them on the
    compiled game.
    """
    structure = sign_game(game)
    if structure is None:
        ordered = ordered_game(game)
        if ordered is None:
            return None
        from exactpoker.solve.nplayer.ordered_solve import solve_ordered

        return solve_ordered(game, ordered)
    from exactpoker.solve.lp.sign_games_lp import solve_sign_game

    solution, certificate = solve_sign_game(structure)
    layouts = compile_layouts(game)
    equilibrium = _equilibrium(game, layouts, BehaviourProfile.from_layout_tables(layouts, solution.tables(structure)),
                               certificate)
    notes = ("structure detected from the rules: payoffs decided by who holds the higher card (O(n) memory)",)
    details = {"players": 2, "zero-sum": True, "sequences": [layout.num_sequences for layout in layouts]}
    return SolveResult(game.name, dict(game.parameters), STRUCTURED_METHOD, (equilibrium,), notes, details)


def _solve_structured_pure(game: BettingGame) -> SolveResult | None:
    """Every pure equilibrium of a two-action game decided by the higher card (von Neumann poker: the paper's
    ``vnNE``), by prefix counts, each certified by the exact prefix-sum check; ``None`` for any other game.

    :func:`~exactpoker.solve.enumeration.sign_games_pure.pure_equilibria` scans
    I's ``2^n`` pure strategies in vectorized blocks.
    """
    structure = sign_game(game)
    if structure is None or structure.num_actions != 2 or len(structure.labels) != 1:
        return None
    from exactpoker.solve.enumeration.sign_games_pure import pure_equilibria

    layouts = compile_layouts(game)
    equilibria = []
    for bets, calls in pure_equilibria(structure, progress.counter("enumerating pure strategies", "strategies")):
        pure = SignProfile.binary(bets, calls)
        profile = BehaviourProfile.from_layout_tables(layouts, pure.tables(structure))
        equilibria.append(_equilibrium(game, layouts, profile, certify_sign_game(structure, pure)))
    notes = () if equilibria else ("The game has no pure equilibrium.",)
    details = {"players": 2, "zero-sum": True, "sequences": [layout.num_sequences for layout in layouts]}
    return SolveResult(game.name, dict(game.parameters), STRUCTURED_PURE_METHOD, tuple(equilibria), notes, details)


def _equilibrium(game: BettingGame, layouts: list, profile: BehaviourProfile, certificate: Certificate) -> Equilibrium:
    """The certified profile, its strategies keyed per player by information set (``"card:label"``)."""
    strategies = {
        name: {layout.infoset_name(i): list(profile.strategies[p][i]) for i in range(layout.num_infosets)}
        for p, (name, layout) in enumerate(zip(game.player_names, layouts))
    }
    return Equilibrium.from_certificate(certificate, strategies, profile,
                                        labelled=labelled_layouts(game.player_names, layouts, profile))


def has_structure(game: BettingGame) -> bool:
    """Whether the game has a structured path (module docstring), building no compiled game."""
    return sign_game(game) is not None or ordered_game(game) is not None
