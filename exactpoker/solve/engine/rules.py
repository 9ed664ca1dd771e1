"""From a card game's rules to certified equilibria, its structure detected before anything is compiled.

A paper's card game (:class:`~exactpoker.core.game.BettingGame`: one private
card each, a betting tree) is solved by :func:`solve_rules`, which looks at
the rules, not at the command that asks:

* a structure a faster exact method uses (:mod:`~exactpoker.solve.engine.structured`):
  two players decided by the higher card (von Neumann and Newman poker, seed
  000 sections 2 and 3: the card-by-card LP in O(n) memory), or three players
  decided by the order of the cards (three-player poker, section 4: the
  support search on the O(n) prefix-sum model);
* otherwise the game is compiled (:func:`~exactpoker.core.compiler.compile_game`),
  its size guarded, and solved by :func:`~exactpoker.solve.engine.dispatch.solve_compiled`
  (:func:`~exactpoker.solve.engine.dispatch.solve_loaded` runs both steps).

``exactpoker solve library:vn(...)`` and ``exactpoker vn mixed`` (likewise
``newman mixed`` and ``three mixed``) both come here; the named command only
adds its paper's presentation.  The same game given as a tree (a ``.efg``
file, a user's tree) reaches the same structured path through
:func:`exactpoker.solve.engine.structured_tree.solve_structured_tree`, which recovers
the rules from the tree.
"""

from __future__ import annotations

from typing import Any

from exactpoker.core.game import BettingGame
from exactpoker.results import SolveResult
from exactpoker.solve.engine.dispatch import solve_game
from exactpoker.solve.engine.structured import STRUCTURED_METHOD, has_structure

__all__ = ["STRUCTURED_METHOD", "solve_rules", "has_structure"]


def solve_rules(game: BettingGame, **options: Any) -> SolveResult:
    """Exact, certified equilibria of a card game (module docstring); ``options`` go to ``solve_compiled``.

    :func:`~exactpoker.solve.engine.dispatch.solve_game` on the rules, the engine's
    one entry point (as ``exactpoker solve library:...``).  Strategies are
    keyed per player by information set (``"card:label"``) as
    :func:`~exactpoker.solve.engine.dispatch.infoset_tables` keys them.  With any
    option not at its default the structured paths are not tried.
    """
    return solve_game(game, **options)
