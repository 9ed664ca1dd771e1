"""The solvers: one pipeline from a game to certified equilibria (the map of ``docs/architecture.md``).

rules -> representation -> compiled game (+ structure) -> guide -> support -> exact finish -> certificate

The one way in is :func:`solve_game` (``from exactpoker.solve import solve_game``); every command ends there.
Each subpackage is one stage or one question; its ``__init__`` holds its map, module by module:

``engine``       the entry point and the choice of method from the game (:func:`solve_game`).
``structure``    structure detected before solving: the order of the cards, range dominance, symmetry.
``lp``           two players, zero-sum: the sequence-form LP, float guide, exact finish.
``lemke``        two players, general-sum: Lemke's method on the sequence form.
``nplayer``      three or more players: guide, support, exact finish.
``enumeration``  every equilibrium (``--all``) and every pure one (``--all-pure``).
``parametric``   over a parameter (``--over``): exact pieces and breakpoints.
``algebra``      exact algebra under the finishes: roots, polynomial systems, isolating boxes.

Certificates live below the solvers and import none: :mod:`exactpoker.certify` (exact),
:mod:`exactpoker.certify_sequential` (sequential), :mod:`exactpoker.certify_balls` (an isolating box).
"""

__all__ = ["solve_game"]


def __getattr__(name: str) -> object:
    """``solve_game``, the one public way in, imported on first use (``import exactpoker.solve`` stays light)."""
    if name == "solve_game":
        from exactpoker.solve.engine.dispatch import solve_game

        return solve_game
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
