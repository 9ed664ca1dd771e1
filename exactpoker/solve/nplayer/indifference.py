"""Exact equilibria of N-player games on a guessed behaviour support: the model the support search works on.

For games with more than two players there is no linear program: the equilibrium conditions are polynomial.
The papers' own route (seed 000 section 4, the Fast NLP of three-player poker), made exact:

1. a **support** fixes every behaviour variable (the probability of the last action of a two-action
   information set) at ``0``, at ``1``, or leaves it *free*
   (:data:`~exactpoker.core.support_system.Support`);
2. :func:`indifference_system` writes, for every free variable, the exact polynomial equation "the owner of
   that information set is indifferent between its two actions", from the compiled payoffs alone
   (:func:`exactpoker.core.support_system.gap_polynomials`, the engine's one builder);
3. the engine's one exact solver (:func:`exactpoker.solve.algebra.polynomial_system.solve_system`) gives its
   real solutions in ``[0, 1]`` or their family;
4. :func:`~exactpoker.solve.nplayer.support_search.locate_equilibrium` searches the support from a guide
   (a caller's, or :func:`fictitious_play`'s smoothed fictitious play) and certifies with
   :func:`exactpoker.certify.verify`.

:class:`CompiledModel` is what the search needs of a game, from its compiled form;
:class:`~exactpoker.solve.structure.ordered_games.OrderedModel` computes the same in O(n) for games decided by
the order of the cards.  Games whose information sets all have two actions are supported (every game of seeds
000, 001 and 003).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence, Union

import numpy as np
import sympy

from exactpoker.algebraic import AlgebraicNumber
from exactpoker.certify import Certificate, verify
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.evaluate import float_gains
from exactpoker.core.profile import BehaviourProfile
from exactpoker.core.support_system import FREE, IndifferenceSystem, Support, Ties, gap_polynomials
from exactpoker.errors import InvalidGameError
from exactpoker.solve.algebra.polynomial_system import Solved, solve_system

__all__ = ["ExactNumber", "check_two_actions", "CompiledModel", "as_model", "fictitious_play", "indifference_system",
           "solve_indifference", "profile_from_behaviour", "behaviour_of"]

ExactNumber = Union[Fraction, AlgebraicNumber]


def check_two_actions(compiled: CompiledGame, solver: str = "indifference solver", hint: str = "") -> None:
    """Raise :class:`InvalidGameError` unless every decision has exactly two actions (the message names ``solver``)."""
    for p, layout in enumerate(compiled.layouts):
        for infoset in range(layout.num_infosets):
            actions = layout.infoset_actions(infoset)
            if len(actions) != 2:
                raise InvalidGameError(
                    f"{solver}: information set {layout.infoset_name(infoset)!r} of player "
                    f"{compiled.player_names[p]} has {len(actions)} actions ({', '.join(actions)}); only two-action "
                    f"decisions are supported{hint}"
                )


class CompiledModel:
    """What the support search needs of a game, from its compiled form (any tree with two actions per set).

    The same interface as :class:`exactpoker.solve.structure.ordered_games.OrderedModel`: ``scale`` (the size
    of a gap), ``sizes`` (information sets per player), :meth:`float_gaps`, :meth:`gap_polynomials` and
    :meth:`certify`.
    """

    def __init__(self, compiled: CompiledGame) -> None:
        check_two_actions(compiled)
        self.compiled = compiled
        self.scale = float(np.abs(compiled.coefficients).max()) / compiled.denominator
        self.sizes = tuple(layout.num_infosets for layout in compiled.layouts)

    def float_gaps(self, behaviour: Sequence[np.ndarray]) -> list[np.ndarray]:
        return float_gains(self.compiled, behaviour)

    def gap_polynomials(self, support: Support, ties: Ties | None = None,
                        infosets: Sequence[tuple[int, int]] | None = None
                        ) -> tuple[dict[tuple[int, int], sympy.Expr], list[sympy.Symbol], IndifferenceSystem]:
        return gap_polynomials(self.compiled, support, ties, infosets)

    def certify(self, behaviour: Sequence[Sequence[ExactNumber]]) -> tuple[BehaviourProfile, Certificate]:
        profile = profile_from_behaviour(self.compiled, behaviour)
        return profile, verify(self.compiled, profile)


def as_model(game: "CompiledGame | CompiledModel") -> "CompiledModel":
    """``game`` itself if it is a model already, else the :class:`CompiledModel` of the compiled game."""
    return CompiledModel(game) if isinstance(game, CompiledGame) else game


def fictitious_play(compiled: "CompiledGame | CompiledModel", iterations: int = 400,
                start: Sequence[np.ndarray] | None = None) -> list[np.ndarray]:
    """An approximate equilibrium by smoothed fictitious play (floats; a guide only).

    Each round every player moves a step ``1/(t+2)`` towards a softened best response (a logistic function of
    the action gaps whose temperature falls with ``t``).  Nothing is claimed about convergence: the exact
    solve and the certificate decide.
    """
    model = as_model(compiled)
    x = [np.full(size, 0.5) for size in model.sizes] if start is None else [np.asarray(s, float).copy() for s in start]
    scale = model.scale or 1.0
    for t in range(iterations):
        gaps = model.float_gaps(x)
        temperature = scale * 0.05 / (1 + t) ** 0.75
        step = 1.0 / (t + 2)
        for p in range(len(model.sizes)):
            target = 0.5 * (1 + np.tanh(np.clip(gaps[p] / (2 * temperature), -50, 50)))
            x[p] = (1 - step) * x[p] + step * target
    return x


def indifference_system(compiled: "CompiledGame | CompiledModel", support: Support, ties: Ties | None = None
                        ) -> IndifferenceSystem:
    """The exact indifference equations of the free variables of ``support``.

    For a free variable at information set ``h`` of player ``p`` the equation says that ``p``'s counterfactual
    values of the two actions at ``h`` are equal; later own decisions of ``p`` enter with their (fixed or free)
    behaviour probabilities.  ``ties`` maps a free ``(player, infoset)`` to another whose probability it must
    share (e.g. to look for equilibria in which two symmetric players play alike); both equations are kept.
    """
    gaps, _symbols, system = as_model(compiled).gap_polynomials(support, ties)
    equations = tuple(dict.fromkeys(g for g in gaps.values() if g != 0))
    return IndifferenceSystem(system.variables, system.symbols, equations, system.aliases)


def solve_indifference(system: IndifferenceSystem) -> Solved:
    """Every exact solution of ``system`` with all variables in ``[0, 1]``, or its family (the one solver)."""
    return solve_system(list(system.equations), list(system.symbols), box=(Fraction(0), Fraction(1)))


def profile_from_behaviour(compiled: CompiledGame, behaviour: Sequence[Sequence[ExactNumber]]) -> BehaviourProfile:
    """The :class:`BehaviourProfile` with last-action probabilities ``behaviour[p][infoset]``."""
    return BehaviourProfile(tuple(tuple((1 - x, x) for x in row) for row in behaviour))


def behaviour_of(support: Support, system: IndifferenceSystem, values: Sequence[ExactNumber]
                 ) -> list[list[ExactNumber]]:
    """Every variable's value: the free ones from ``values`` (in the order of ``system.symbols``), the rest fixed."""
    chosen = system.value_map(values)
    return [
        [chosen[(p, h)] if fixed is FREE else Fraction(fixed) for h, fixed in enumerate(row)]
        for p, row in enumerate(support)
    ]
