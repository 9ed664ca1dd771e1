"""The solvers: one pipeline from a game to certified equilibria (the map of ``docs/architecture.md``).

rules -> representation -> compiled game (+ structure) -> guide -> support -> exact finish -> certificate

The one way in is :func:`solve_game` (``from exactpoker.solve import solve_game``); every command ends there,
and :data:`METHODS` is the one ``method`` vocabulary of every game's API.  Beside it, a few computations on a
game that are not a way of solving one (public here, as the papers' modules use them):

``payoff_table``      the strategic form's payoff table over every or given pure strategies.
``weight_range``      the least and greatest weight of a pure strategy over all optimal mixtures.
``parametric_value``  the value of a matrix game ``M0 + r M1`` as an exact piecewise function of ``r``.
``coalition_values``  the characteristic function of a zero-sum game: what each coalition can guarantee.

Each subpackage is one stage or one question; its ``__init__`` holds its map, module by module:

``engine``       the entry point and the choice of method from the game (:func:`solve_game`).
``structure``    structure detected before solving: the order of the cards, range dominance, symmetry.
``lp``           two players, zero-sum: the sequence-form LP, float guide, exact finish; the strategic form.
``lemke``        two players, general-sum: Lemke's method on the sequence form.
``nplayer``      three or more players: guide, support, exact finish.
``enumeration``  every equilibrium (``--all``) and every pure one (``--all-pure``).
``parametric``   over a parameter (``--over``): exact pieces and breakpoints.
``algebra``      exact algebra under the finishes: roots, polynomial systems, isolating boxes.

Certificates live below the solvers and import none: :mod:`exactpoker.certify` (exact),
:mod:`exactpoker.certify_sequential` (sequential), :mod:`exactpoker.certify_balls` (an isolating box).
"""

from importlib import import_module

__all__ = ["solve_game", "METHODS", "payoff_table", "weight_range", "parametric_value", "PiecewiseValue",
           "coalition_values", "CoalitionValue"]

#: Where each public name lives (imported on first use: ``import exactpoker.solve`` stays light).
_PUBLIC = {
    "solve_game": "exactpoker.solve.engine.dispatch",
    "METHODS": "exactpoker.solve.engine.dispatch",
    "payoff_table": "exactpoker.solve.lp.strategic",
    "weight_range": "exactpoker.solve.lp.strategic",
    "parametric_value": "exactpoker.solve.parametric.matrix_game",
    "PiecewiseValue": "exactpoker.solve.parametric.matrix_game",
    "coalition_values": "exactpoker.solve.lp.coalitions",
    "CoalitionValue": "exactpoker.solve.lp.coalitions",
}


def __getattr__(name: str) -> object:
    """A public name of the package, imported on first use."""
    if name in _PUBLIC:
        return getattr(import_module(_PUBLIC[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
