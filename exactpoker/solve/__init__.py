"""The solvers: one pipeline from a game to certified equilibria (the map of ``docs/architecture.md``).

rules -> representation -> compiled game (+ structure) -> guide -> support -> exact finish -> certificate

The one way in is :func:`solve_game` (``from exactpoker.solve import solve_game``); every command ends there,
and :data:`METHODS` is the one ``method`` vocabulary of every game's API.  Beside it, a few computations on a
game that are not a way of solving one (public here, as the papers' modules use them):

``payoff_table``      the strategic form's payoff table over every or given pure strategies.
``weight_range``      the least and greatest weight of a pure strategy over all optimal mixtures.
``parametric_value``  the value of a matrix game ``M0 + r M1`` as an exact piecewise function of ``r``.
``coalition_values``  the characteristic function of a zero-sum game: what each coalition can guarantee.

And the building blocks the papers' own analyses (seed 000's three-player search, seed 001's case analysis,
seed 003's continuation) take from the engine, by stage:

* polynomial systems (``algebra``): ``solve_system``, ``family_branches``, ``Family``; multilinear systems on the
  unit box: ``Multilinear``, ``Poly``, ``bitmask_poly``, ``vertex_values``, ``positive_on_open_box``,
  ``excluded_by_boxes``, ``decide_open_box``, ``Region``, ``box_region``;
* three or more players (``nplayer``): the guide and the exact finish as stages (``float_guide``,
  ``exact_finish``, ``GainSystem``, ``EPSILON``, ``Trend``, ``exact_gains``), the certified point ``CertifiedPoint``, a
  support's symbolic family ``symbolic_family``, the support search (``locate_equilibrium``, ``fictitious_play``,
  ``CompiledModel``) and its O(n) form for games decided by the order of the cards (``ordered_game``,
  ``OrderedGame``, ``certify_ordered``, ``solve_ordered``, ``OrderedGuide``);
* structure: ``card_range_dominance`` (an action dominated by the range of what it can lead to);
* over a parameter: the branch of seed 003 (``follow_branch``, ``guide_on_branch``, ``crossing``, ``BranchPoint``);
* continuous decks: ``solve_continuous`` (a one-card game's rules with hands uniform on [0, 1]).

Each subpackage is one stage or one question; its ``__init__`` holds its map, module by module:

``engine``       the entry point and the choice of method from the game (:func:`solve_game`).
``structure``    structure detected before solving: the order of the cards, range dominance, symmetry.
``lp``           two players, zero-sum: the sequence-form LP, float guide, exact finish; the strategic form.
``lemke``        two players, general-sum: Lemke's method on the sequence form.
``nplayer``      three or more players: guide, support, exact finish.
``enumeration``  every equilibrium (``--all``) and every pure one (``--all-pure``).
``parametric``   over a parameter (``--over``): exact pieces and breakpoints.
``algebra``      exact algebra under the finishes: roots, polynomial systems, isolating boxes.
``continuous``   one-card betting games with hands uniform on [0, 1] (``solve GAME --continuous``): the shape
                 read from exact finite decks solved by this pipeline, its exact system, a certificate at every
                 hand.

Certificates live below the solvers and import none: :mod:`exactpoker.certify` (exact),
:mod:`exactpoker.certify_sequential` (sequential), :mod:`exactpoker.certify_balls` (an isolating box).
"""

from importlib import import_module

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
    # polynomial systems, and multilinear systems on the unit box
    "solve_system": "exactpoker.solve.algebra.polynomial_system",
    "family_branches": "exactpoker.solve.algebra.polynomial_system",
    "Family": "exactpoker.solve.algebra.polynomial_system",
    "Multilinear": "exactpoker.solve.algebra.box_exclusion",
    "excluded_by_boxes": "exactpoker.solve.algebra.box_exclusion",
    "Poly": "exactpoker.solve.algebra.multilinear_box",
    "bitmask_poly": "exactpoker.solve.algebra.multilinear_box",
    "vertex_values": "exactpoker.solve.algebra.multilinear_box",
    "positive_on_open_box": "exactpoker.solve.algebra.multilinear_box",
    "decide_open_box": "exactpoker.solve.algebra.open_box",
    "Region": "exactpoker.solve.algebra.multilinear_region",
    "box_region": "exactpoker.solve.algebra.multilinear_region",
    # three or more players
    "float_guide": "exactpoker.solve.nplayer.pipeline",
    "exact_finish": "exactpoker.solve.nplayer.pipeline",
    "GainSystem": "exactpoker.solve.nplayer.gain_system",
    "EPSILON": "exactpoker.solve.nplayer.continuation",
    "Trend": "exactpoker.solve.nplayer.continuation",
    "exact_gains": "exactpoker.solve.nplayer.finish",
    "CertifiedPoint": "exactpoker.solve.nplayer.point",
    "symbolic_family": "exactpoker.solve.nplayer.family",
    "locate_equilibrium": "exactpoker.solve.nplayer.support_search",
    "fictitious_play": "exactpoker.solve.nplayer.indifference",
    "CompiledModel": "exactpoker.solve.nplayer.indifference",
    "ordered_game": "exactpoker.solve.structure.ordered_games",
    "OrderedGame": "exactpoker.solve.structure.ordered_games",
    "certify_ordered": "exactpoker.solve.structure.ordered_games",
    "solve_ordered": "exactpoker.solve.nplayer.ordered_solve",
    "OrderedGuide": "exactpoker.solve.nplayer.ordered_solve",
    # structure; over a parameter
    "card_range_dominance": "exactpoker.solve.structure.dominance",
    "follow_branch": "exactpoker.solve.parametric.branch",
    "guide_on_branch": "exactpoker.solve.parametric.branch",
    "crossing": "exactpoker.solve.parametric.branch",
    "BranchPoint": "exactpoker.solve.parametric.branch",
    # continuous decks
    "solve_continuous": "exactpoker.solve.continuous",
}
#: A public name that is another name inside its module.
_RENAMED = {"symbolic_family": "family"}

__all__ = list(_PUBLIC)


def __getattr__(name: str) -> object:
    """A public name of the package, imported on first use."""
    if name in _PUBLIC:
        return getattr(import_module(_PUBLIC[name]), _RENAMED.get(name, name))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
