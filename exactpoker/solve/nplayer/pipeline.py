"""Games of three or more players: the one staged entry point of the exact N-player finish.

:func:`exactpoker.solve.solve_game` sends every game with three or
more players here.  The stages are seed 003's method (Billingham et al., the
three-player Kuhn poker of ``N`` cards, section 3), which
:mod:`exactpoker.games.papers.kuhn3` also runs, generalised to any compiled game:

0. **dominance** -- actions range-dominated in the rules are fixed at 0
   (:func:`~exactpoker.solve.structure.dominance.dominated_variables`, seed 003's
   section 2 for any game tree);
1. **guide** -- the regularised system of counterfactual gains
   (:class:`~exactpoker.solve.nplayer.gain_system.GainSystem`) followed down in
   ``epsilon`` by arc-length continuation
   (:func:`~exactpoker.solve.nplayer.continuation.trace_down_trend`): floating point, a guide
   only;
2. **support** -- each variable read at 0, at 1 or interior
   (:func:`~exactpoker.solve.nplayer.finish.classify`: near an end, by how its
   gain shrank between the reliable epsilon and the guide's);
3. **exact finish** -- the indifference equations on that support solved
   exactly (:func:`~exactpoker.solve.nplayer.finish.solve_exact`): a rational
   point, else a point of one real number field
   (:class:`~exactpoker.algebraic.AlgebraicNumber` entries);
4. **certificate** -- the finish checks the profile with the sequential
   certificate; the dispatcher then runs the plain exact Nash check
   (:func:`exactpoker.certify.verify`) on it as on every answer.

A game whose guide would compute more than :data:`REGRET_FROM` products an evaluation takes the regret route
first (:mod:`exactpoker.solve.nplayer.regret_route`: discounted CFR on the vectorised sequence-form walk, its
average play purified, completed and polished, then the same exact finish); the continuation is its fallback
while the game is within :data:`MAX_GUIDE_TERMS`.

When the guide (stage 1) or the exact finish (stage 3) fails, the simpler exact methods are tried before
giving up (:func:`~exactpoker.solve.nplayer.fallback.simpler_methods`: pure equilibria, then support
enumeration, each within its size limit).

An equilibrium of too high an algebraic degree for a minimal polynomial is
found by the finish as the unique zero of the gains in an isolating box,
certified in ball arithmetic from the game alone
(:func:`exactpoker.certify_balls.certify_box`); the dispatcher returns it with
that certificate.  Information sets of more than two actions are solved
through the game's binary form (:mod:`exactpoker.core.binary_form`), which has
the same equilibria; the profile is lifted back before the certificate.

:func:`pure_equilibria_n` lists every pure equilibrium of an N-player game by
exhaustive best responses on the strategic form (exact integers).
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Sequence

import numpy as np

from exactpoker import guard, progress
from exactpoker.algebraic import AlgebraicNumber
from exactpoker.core.compiled import CompiledGame, SequenceLayout
from exactpoker.errors import CertificationError, DegenerateSystemError, InvalidParameterError
from exactpoker.solve.enumeration.pure import PureProfile, all_choices, pure_realization, strategy_count
from exactpoker.solve.nplayer.point import CertifiedPoint

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.core.binary_form import BinaryForm
    from exactpoker.solve.nplayer.continuation import Trend
    from exactpoker.solve.nplayer.gain_system import GainSystem

__all__ = ["solve_n_player", "float_guide", "exact_finish", "require_guide_size", "pure_equilibria_n",
           "MAX_PURE_PROFILES", "MAX_SEQUENCE_CELLS", "MAX_GUIDE_TERMS", "REGRET_FROM"]

#: Most pure profiles (cells of the strategic form) :func:`pure_equilibria_n` enumerates.
MAX_PURE_PROFILES = 1 << 24
#: Most cells of the dense sequence-form payoff tensor it builds on the way.
MAX_SEQUENCE_CELLS = 1 << 24
#: Most products one evaluation of the float guide may compute (:func:`~exactpoker.solve.nplayer.gain_system.guide_terms`,
#: on the binary form): the guide's time grows with them.  Measured on a shared machine: three-player Leduc on two
#: ranks (its lossless abstraction, 0.64 million) 35 s in all; without suits (1.3 million) 117 s; on three ranks
#: the abstraction has 11.5 million, on four (the full game) 43 million: refused.
MAX_GUIDE_TERMS = 5_000_000
#: From this many products an evaluation the regret route (:mod:`~exactpoker.solve.nplayer.regret_route`) is tried
#: before the continuation: five-player Kuhn poker (4.5 million) is certified by it in 8 s where the continuation
#: takes half a minute; every held smaller game keeps the continuation (Leduc on two ranks without suits, 1.3
#: million, is certified by it in 117 s and not by the regret route).
REGRET_FROM = 2_000_000


def _size(compiled: CompiledGame) -> str:
    infosets = ", ".join(str(layout.num_infosets) for layout in compiled.layouts)
    return f"{compiled.num_players} players, information sets per player {infosets}"


def require_guide_size(game: CompiledGame, max_terms: int | None = None) -> int:
    """The float guide's size of ``game`` (its binary form), refused before the guide is built when too large.

    Returns the number of products one evaluation computes
    (:func:`~exactpoker.solve.nplayer.gain_system.guide_terms`).

    Raises
    ------
    InvalidParameterError
        More than ``max_terms`` products (default :data:`MAX_GUIDE_TERMS`;
        the message gives the game's sizes and the limit).
    ResourceLimitError
        The guide's memory (:func:`exactpoker.guard.n_player_guide`) is over
        the limit in force.
    """
    from exactpoker.solve.nplayer.gain_system import guide_terms

    terms, limit = guide_terms(game), MAX_GUIDE_TERMS if max_terms is None else max_terms
    what = f"the N-player float guide ({_size(game)}, as binary choices; {len(game.sequences)} payoff entries, {terms} products)"
    guard.require(guard.n_player_guide(terms), what)
    if terms > limit:
        raise InvalidParameterError(
            f"solve: {what} is too large to finish: at most {limit} products an evaluation are allowed "
            f"(three-player Leduc on two ranks needs 639198 on its lossless abstraction); choose a smaller game"
        )
    return terms


def float_guide(system: "GainSystem", at: float = 0.0, *, eps: float | None = None, size: str = ""
                ) -> tuple[np.ndarray, "Trend | None"]:
    """Stage 1, the guide: the regularised system of ``system`` at the parameter ``at``, followed down in
    ``epsilon`` (seed 003 section 3); every variable (floats) and the trend that reads the support near 0 and 1.

    Raises :class:`CertificationError` naming the stage (and the game's ``size``) when the continuation fails.
    """
    from exactpoker.solve.nplayer.continuation import EPSILON, trace_down_trend

    progress.stage("N-player float guide (continuation in epsilon)")
    if not len(system.free):  # every choice fixed by dominance: the guide is the fixed play
        return system.full(np.zeros(0)), None
    try:
        free_guide, trend = trace_down_trend(system, at, EPSILON if eps is None else eps)
    except (DegenerateSystemError, np.linalg.LinAlgError, FloatingPointError) as error:
        raise CertificationError(f"N-player finish, stage 1 (float guide) failed ({size}): {error}") from None
    return system.full(free_guide), trend


def exact_finish(game: CompiledGame, system: "GainSystem", guide: np.ndarray, trend: "Trend | None", *,
                 at: float = 0.0, forced: Sequence[tuple[int, int]] = (), digits: int = 30, size: str = ""
                 ) -> CertifiedPoint:
    """Stages 2-4: the support read off the ``guide``, the exact finish on it (rational, algebraic, isolating
    box) and its certificate (:func:`~exactpoker.solve.nplayer.finish.solve_exact`; ``forced``: information sets
    whose play the rules fix, as in a restricted game).

    Raises :class:`CertificationError` naming the stage (and the game's ``size``) when no support certifies.
    """
    from exactpoker.solve.nplayer.finish import solve_exact

    progress.stage("N-player exact finish on the guide's support")
    try:
        return solve_exact(game, guide, lambda z: system.gains(z, at, jacobian=True)[1], system.fixed,
                           forced=forced, digits=digits, trend=trend)
    except CertificationError as error:
        raise CertificationError(
            f"N-player finish, stage 3 (exact finish on the guide's support) failed ({size}): {error}"
        ) from None


def solve_n_player(compiled: CompiledGame, *, eps: float | None = None, digits: int = 30,
                   max_terms: int | None = None) -> CertifiedPoint:
    """An exact equilibrium of a game with any number of players, by the staged finish (module docstring).

    Parameters
    ----------
    compiled : CompiledGame
        Any finite game; information sets of more than two actions are
        solved through the binary form (:mod:`exactpoker.core.binary_form`).
    eps : float, optional
        The regularisation of the float guide (default
        :data:`~exactpoker.solve.nplayer.continuation.EPSILON`).
    digits : int
        Certified decimal places of an equilibrium given by an isolating box.
    max_terms : int, optional
        The largest regularised continuation allowed (:func:`require_guide_size`; default
        :data:`MAX_GUIDE_TERMS`); a larger game goes to the regret route alone.

    Raises
    ------
    CertificationError
        A stage could not finish, nor could the simpler methods tried then (pure equilibria, support
        enumeration: :func:`~exactpoker.solve.nplayer.fallback.simpler_methods`); the message names the stage,
        the game's size and what was tried.
    InvalidParameterError, ResourceLimitError
        The game is too large for the regret route
        (:func:`~exactpoker.solve.nplayer.regret_route.require_regret_size`) or, below
        :data:`REGRET_FROM` products, for the continuation (:func:`require_guide_size`).
    """
    from exactpoker.core.binary_form import binary_form, needs_binary_form
    from exactpoker.solve.nplayer.fallback import simpler_methods
    from exactpoker.solve.nplayer.gain_system import guide_terms
    from exactpoker.solve.structure.dominance import dominated_variables

    form = binary_form(compiled) if needs_binary_form(compiled) else None
    game = compiled if form is None else form.game
    terms, limit = guide_terms(game), MAX_GUIDE_TERMS if max_terms is None else max_terms
    regret_failure = ""
    if terms > min(REGRET_FROM, limit):  # the continuation would be slow, or is over its limit: regret first
        from exactpoker.solve.nplayer.regret_route import require_regret_size, solve_by_regret

        require_regret_size(game)
        try:
            return _finished(solve_by_regret(game, {}, digits=digits), form, game)  # regret finds dominance itself
        except CertificationError as error:
            regret_failure = f"N-player regret route failed ({_size(game)}): {error}"
            if terms > limit:
                return simpler_methods(compiled, regret_failure, pure_equilibria_n)
            regret_failure += "; then "
    try:
        fixed = dominated_variables(compiled) if form is None else {}
        return _finished(_continuation_route(game, fixed, eps, digits, max_terms), form, game)
    except CertificationError as error:
        return simpler_methods(compiled, regret_failure + str(error), pure_equilibria_n)


def _continuation_route(game: CompiledGame, fixed: dict[int, float], eps: float | None, digits: int,
                        max_terms: int | None) -> CertifiedPoint:
    """Stages 1-3 with the regularised continuation as the guide (module docstring); a failing stage raises
    :class:`~exactpoker.errors.CertificationError` naming it."""
    from exactpoker.solve.nplayer.gain_system import GainSystem

    require_guide_size(game, max_terms)
    system = GainSystem.from_game(game, fixed or None)
    guide, trend = float_guide(system, eps=eps, size=_size(game))
    return exact_finish(game, system, guide, trend, digits=digits, size=_size(game))


def _finished(solution: CertifiedPoint, form: "BinaryForm | None", game: CompiledGame) -> CertifiedPoint:
    """The finish's point with its stage and notes, lifted from the binary form when the game has one."""
    box = solution.box
    field = next((v.field for v in solution.x if isinstance(v, AlgebraicNumber) and not v.is_rational), None)
    stage = "isolating box" if box else "rational" if field is None else f"algebraic, degree {field.degree}"
    notes = list(solution.notes) + [f"float guide, support {len(solution.zeros)} at 0, {len(solution.ones)} at 1, "
                                    f"{len(solution.interior)} mixed; exact finish: {stage}"]
    if form is not None:
        notes.append("information sets of more than two actions were solved as chains of binary choices "
                     "(the binary form: the same equilibria)")
    if box:
        notes.append("the equilibrium is irrational of high degree: the unique zero of the gains in a rational box "
                     "proved by Krawczyk's test (details['isolating_box']; entries shown as d.ddd±1e-k)")
    if solution.pinned:
        notes.append(f"{len(solution.pinned)} mixed choices were free on this support (a family of equilibria, or "
                     "information sets the others never reach) and were set at simple rationals")
    profile = solution.profile if form is None else form.lift(solution.profile)
    # the box's certificate is proved from the game's payoffs (the binary form has the same); the exact finish's
    # sequential certificate holds for the game it ran on, so only when that is the game asked
    certificate = solution.certificate if box is not None or form is None else None
    return replace(solution, profile=profile, certificate=certificate, stage=stage, notes=tuple(notes), solved=game)


def _payoff_tensors(compiled: CompiledGame, weights: list[np.ndarray]) -> list[np.ndarray]:
    """Each player's payoff numerator at every pure profile: shape ``(S_1, ..., S_N)``."""
    shape = tuple(layout.num_sequences for layout in compiled.layouts)
    coefficients = compiled.coefficients
    bound = int(np.abs(coefficients.astype(object)).sum(axis=0).max()) if len(coefficients) else 0
    dtype = np.int64 if bound < 2**62 else object
    index = tuple(compiled.sequences[:, k] for k in range(compiled.num_players))
    tensors = []
    for player in range(compiled.num_players):
        tensor = np.zeros(shape, dtype=dtype)
        np.add.at(tensor, index, coefficients[:, player].astype(dtype))
        for w in weights:  # contract the first remaining sequence axis with that player's 0/1 weights
            tensor = np.tensordot(tensor, w.T.astype(dtype), axes=([0], [0]))
        tensors.append(tensor)
    return tensors


def pure_equilibria_n(compiled: CompiledGame) -> list[PureProfile]:
    """Every pure Nash equilibrium of an N-player compiled game (any N >= 2), in lexicographic order.

    A pure profile is an equilibrium when no player's payoff rises by
    switching to another pure strategy: every cell of the strategic form is
    compared with the best along each player's axis, in exact integers over
    the compiled denominator.

    Raises
    ------
    InvalidParameterError
        If the strategic form has more than :data:`MAX_PURE_PROFILES` cells.
    """
    layouts: tuple[SequenceLayout, ...] = tuple(compiled.layouts)
    counts = [strategy_count(layout) for layout in layouts]
    cells = math.prod(counts)
    sequence_cells = math.prod(layout.num_sequences for layout in layouts)
    if cells > MAX_PURE_PROFILES or sequence_cells > MAX_SEQUENCE_CELLS:
        shown = " x ".join(str(c) if c < 10**12 else f"about 10^{len(str(c)) - 1}" for c in counts)
        raise InvalidParameterError(
            f"--all-pure: the strategic form has {shown} pure profiles (sequence form {sequence_cells} cells); "
            f"the limit is {MAX_PURE_PROFILES} profiles and {MAX_SEQUENCE_CELLS} cells"
        )
    choices = [all_choices(layout, 0, count) for layout, count in zip(layouts, counts)]
    weights = [pure_realization(layout, c) for layout, c in zip(layouts, choices)]
    tensors = _payoff_tensors(compiled, weights)
    stable = np.ones(tuple(counts), dtype=bool)
    for player, tensor in enumerate(tensors):
        stable &= tensor == tensor.max(axis=player, keepdims=True)
    found = []
    for cell in np.argwhere(stable):
        found.append(PureProfile(
            tuple(tuple(int(a) for a in choices[p][s]) for p, s in enumerate(cell)),
            tuple(Fraction(int(t[tuple(cell)]), compiled.denominator) for t in tensors),
        ))
    return found
