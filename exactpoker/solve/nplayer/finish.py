"""Exact equilibria of an N-player two-action game on the support a float solution shows.

Seed 003's method (section 3) ends with the float solution of the regularised
system at a small ``epsilon``; its limit satisfies condition (1): each variable
is 0, 1, or *interior* with zero counterfactual gain.  This module turns it into
an exact, certified equilibrium (float-guided, exact-finished):

1. :func:`classify` reads the support: variables within ``tol`` of 0 or 1 are
   set there, the rest are interior; or, given the solution at a larger
   ``epsilon`` too, by whether each gain shrank with ``epsilon``;
2. the interior gains ``f_I`` must vanish.  Their Jacobian at the float point
   may be singular: rows that vanish identically (information sets the others
   never reach) and one-parameter families (several equilibria with one
   support).  A rank-revealing QR picks a largest independent set of
   equations and unknowns; the other interior variables are *pinned* at
   small-denominator rationals near their float values.  The relative rank
   tolerance is :data:`RANK_TOL`, then, if that fails, the guide's own
   accuracy (:func:`guide_accuracy`): a singular value of the size of the
   guide's error may vanish in the limit, a family the regularisation hides
   (seen at ``N = 13, P = 3``);
3. the square system left is polynomial (multilinear).  Unknowns that no
   equation involves once the pinned values are exact are free too (a family:
   :func:`~exactpoker.solve.nplayer.square_system.free_columns`) and pinned the same
   way, not left at the float's dyadic value.  The rest is solved by
   iterative refinement with *exact* residuals (the float Jacobian gives the
   step, the residual is computed in exact rationals from the compiled game),
   and each iterate's continued-fraction approximations are tried as the exact
   solution: one whose gains are exactly zero is it;
4. the profile is checked by
   :func:`exactpoker.certify_sequential.verify_sequential` (Nash, and optimal
   at every own information set).  Nothing uncertified is returned: failure
   raises :class:`~exactpoker.errors.CertificationError`.

Seed 003's game has rational equilibria at small pots (up to about ``1.1
P_min``; every pot for ``N = 4``), irrational ones elsewhere (degree 14 at
``N = 5, P = 5/2``).  When refinement finds no rational point,
step 3 solves the square system exactly in a real number field
(:func:`exactpoker.solve.algebra.elimination.solve_near` on the gains as polynomials,
:func:`~exactpoker.solve.nplayer.square_system.gain_polynomials`), and step 4 certifies that profile, whose entries are
:class:`~exactpoker.algebraic.AlgebraicNumber`.  Only minimal polynomials
of low degree are looked for there (:data:`ALGEBRAIC_DEGREE`: fast); beyond,
e.g. at ``N = 5, P = 3``, the equilibrium is given exactly as the unique zero
of the square system in a box proved by Krawczyk's test
(:mod:`exactpoker.solve.algebra.krawczyk`) and certified in ball arithmetic
(:func:`exactpoker.certify_balls.certify_box`, which proves each interior
gain left out of the square system zero by an exact identity with its
equations, :mod:`exactpoker.polynomial_combination`): a certified point with its ``box``,
whose support is corrected at variables the float guide misread.
:func:`exactpoker.solve.nplayer.family.family` describes a support's equilibria symbolically.

Variables are numbered as in :class:`~exactpoker.solve.nplayer.gain_system.GainSystem`:
player by player, each player's information sets in layout order.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

import numpy as np

from exactpoker.certify_balls import CertifiedReal, SupportError, certify_box
from exactpoker.certify_sequential import verify_sequential
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.evaluate import counterfactual_values
from exactpoker.core.profile import BehaviourProfile
from exactpoker.core.support_system import gain_polynomials
from exactpoker.errors import CertificationError
from exactpoker.solve.algebra.elimination import EliminationError, solve_near
from exactpoker.solve.algebra.krawczyk import IsolatingBox, KrawczykError, isolate
from exactpoker.solve.algebra.polynomial_system import rational_near
from exactpoker.solve.nplayer.point import CertifiedPoint
from exactpoker.solve.nplayer.square_system import free_columns, independent_columns, square_system

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.solve.nplayer.continuation import Trend

__all__ = ["profile_of", "exact_gains", "classify", "solve_exact"]

#: Digits and highest degree of the minimal polynomials tried before the isolating box (fast; degree 14 found).
ALGEBRAIC_DIGITS = (1500,)
ALGEBRAIC_DEGREE = 24

#: Variables whose side (0, 1 or interior) the isolating-box finish may correct when the float guide misread it.
SUPPORT_CORRECTIONS = 8
#: A float-guide value this near 0 or 1 may belong there; a box's zero this far from the guide is another zero.
NEAR_END, FAR = 0.01, 0.05
#: Relative rank tolerances tried in turn for the isolating-box finish's choice of equations.
RANK_TOLS = (1e-9, 1e-5)
#: Relative rank tolerance of the float Jacobian for the choice of the square system (first tried).
RANK_TOL = 1e-5


def profile_of(compiled: CompiledGame, x: Sequence[Fraction]) -> BehaviourProfile:
    """The behaviour profile whose aggressive-action probabilities are ``x`` (all variables)."""
    strategies, k = [], 0
    for layout in compiled.layouts:
        strategies.append(tuple((1 - x[k + i], x[k + i]) for i in range(layout.num_infosets)))
        k += layout.num_infosets
    return BehaviourProfile(tuple(strategies))


def exact_gains(compiled: CompiledGame, x: Sequence[Fraction]) -> list[Fraction]:
    """The exact counterfactual gain of the aggressive action at every variable."""
    profile = profile_of(compiled, x)
    gains: list[Fraction] = []
    for p in range(compiled.num_players):
        gains += [values[1] - values[0] for values in counterfactual_values(compiled, profile, p)]
    return gains


def classify(x: np.ndarray, free: Sequence[int], tol: float, trend: "Trend | None" = None
             ) -> tuple[list[int], list[int], list[int]]:
    """Free variables at 0, at 1, and interior, reading ``x`` with tolerance ``tol``, or by its ``trend``.

    Without a trend, a variable within ``tol`` of 0 or 1 is there.  With the
    guide at a larger epsilon (:class:`~exactpoker.solve.nplayer.continuation.Trend`),
    a variable within :data:`NEAR_END` of an end is read by how its gain
    changed: inverting seed 003's eq. 4, the guide's gain is
    ``epsilon tan(pi (x - 1/2))``.  At an end it tends to the limit's nonzero
    gain, so it shrinks much less than epsilon; an interior variable's gain
    shrinks like epsilon.  The rule is: interior if the gain shrank by more
    than the square root of the factor between the two epsilons.  A gain as
    small as the epsilon itself is read right this way, where a tolerance
    misreads it (seed 003's game at ``N = 26, P = 4`` has an interior choice
    at 6.5e-4 and a gain of 3.9e-8 that holds a choice at 0.993).
    """
    if trend is None:
        zeros = [k for k in free if x[k] < tol]
        ones = [k for k in free if x[k] > 1 - tol]
        interior = [k for k in free if tol <= x[k] <= 1 - tol]
        return zeros, ones, interior
    zeros, ones, interior = [], [], []
    for k in free:
        if min(x[k], 1 - x[k]) >= NEAR_END:
            interior.append(k)
            continue
        fine, coarse = abs(np.tan(np.pi * (x[k] - 0.5))), abs(np.tan(np.pi * (trend.x[k] - 0.5)))
        if fine <= np.sqrt(trend.factor) * coarse:
            interior.append(k)
        else:
            (ones if x[k] > 0.5 else zeros).append(k)
    return zeros, ones, interior


def solve_exact(
    compiled: CompiledGame,
    x_float: np.ndarray,
    jacobian: Callable[[np.ndarray], np.ndarray],
    fixed: Mapping[int, int],
    *,
    tol: float = 1e-3,
    pin_denominators: Sequence[int] = (10, 100, 1000, 10**4, 10**6),
    iterations: int = 40,
    forced: Sequence[tuple[int, int]] = (),
    digits: int = 30,
    trend: "Trend | None" = None,
) -> CertifiedPoint:
    """An exact certified equilibrium near the float solution ``x_float`` (all variables).

    Parameters
    ----------
    compiled : CompiledGame
        The exact game (at the parameter of the float solution).
    x_float : numpy.ndarray
        A solution of the regularised system at a small ``epsilon``.
    jacobian : callable
        ``df/dx`` at a float point, all variables
        (:meth:`~exactpoker.solve.nplayer.gain_system.GainSystem.gains`).
    fixed : mapping
        Variables fixed in advance (e.g. dominated choices) at 0 or 1.
    tol : float
        How close to 0 or 1 a variable must be to count as there.
    pin_denominators : sequence of int
        Largest denominators tried, in turn, for the rationals chosen for
        pinned variables (the simplest that certifies wins).
    iterations : int
        Most rounds of refinement.
    forced : sequence of (player, infoset)
        Information sets whose play the rules fix (a restricted game), passed
        to :func:`~exactpoker.certify_sequential.verify_sequential`.
    digits : int
        Certified decimal places of an equilibrium given by an isolating box
        (a :class:`~exactpoker.solve.nplayer.point.CertifiedPoint` with its ``box``); 0 turns that finish off.
    trend : Trend, optional
        The float solution at a larger epsilon; when given, it reads the
        support of variables near 0 or 1 (:func:`classify`) instead of ``tol``.

    Raises
    ------
    CertificationError
        If no exact solution on this support passes the certificate.

    The square system is solved rationally, else in a real number field,
    else in an isolating box (module docstring, step 3).
    """
    n = len(x_float)
    free = [k for k in range(n) if k not in fixed]
    zeros, ones, interior = classify(x_float, free, tol, trend)
    x: list[Fraction] = [Fraction(0)] * n
    for k, v in fixed.items():
        x[k] = Fraction(v)
    for k in ones:
        x[k] = Fraction(1)
    at_guide = jacobian(x_float)
    accuracy = guide_accuracy(x_float, zeros, ones)
    failure: CertificationError | None = None
    tried: list[tuple[list[int], list[int]]] = []
    for rank_tol in _rank_tolerances(RANK_TOL, accuracy):
        try:
            rows, cols = _square_part(at_guide, interior, rank_tol)
            if (rows, cols) in tried:  # the coarser tolerance picks the same system: nothing new to try
                continue
            tried.append((rows, cols))
            return _solve_on_support(compiled, x, x_float, jacobian, (zeros, ones, interior), rows, cols,
                                     _rank_tolerances(RANK_TOLS, accuracy), pin_denominators, iterations, forced,
                                     digits)
        except CertificationError as error:
            failure = error
    assert failure is not None
    raise failure


def guide_accuracy(x_float: np.ndarray, zeros: Sequence[int], ones: Sequence[int]) -> float:
    """How far the float guide is from its limit: the largest distance of a variable read at 0 or 1 from there."""
    return max([float(x_float[k]) for k in zeros] + [1 - float(x_float[k]) for k in ones] + [0.0])


def _rank_tolerances(tolerances: "float | Sequence[float]", accuracy: float) -> tuple[float, ...]:
    """``tolerances``, then the float guide's ``accuracy`` if larger.

    A singular value of the Jacobian at the guide that is of the size of the
    guide's own error may be zero at the limit (a family of equilibria the
    regularisation hides); the coarser tolerance counts it as zero.
    """
    tols = (tolerances,) if isinstance(tolerances, float) else tuple(tolerances)
    return tols + ((accuracy,) if accuracy > max(tols) else ())


def _square_part(at_guide: np.ndarray, interior: list[int], rank_tol: float) -> tuple[list[int], list[int]]:
    """Equations (rows) and unknowns (cols) of a regular square part of the interior gains' Jacobian ``at_guide``."""
    sub = at_guide[np.ix_(interior, interior)] if interior else np.zeros((0, 0))
    cols = [interior[c] for c in independent_columns(sub, rank_tol)]
    rows = [interior[r] for r in independent_columns(at_guide[np.ix_(interior, cols)].T, rank_tol)] if cols else []
    if len(rows) != len(cols):  # numerically rank-deficient in the chosen columns: shrink them to the rows' rank
        cols = [cols[c] for c in independent_columns(at_guide[np.ix_(rows, cols)], rank_tol)]
        if len(rows) != len(cols):
            raise CertificationError("solve_exact(): the indifference system on the support is too degenerate "
                                     "to pick a regular square part")
    return rows, cols


def _solve_on_support(compiled: CompiledGame, x: list[Fraction], x_float: np.ndarray,
                      jacobian: Callable[[np.ndarray], np.ndarray], support: tuple[list[int], list[int], list[int]],
                      rows: list[int], cols: list[int], ball_tols: Sequence[float], pin_denominators: Sequence[int],
                      iterations: int, forced: Sequence[tuple[int, int]], digits: int) -> CertifiedPoint:
    """:func:`solve_exact` on the square system ``f_rows = 0`` in ``x_cols`` (the other interior variables pinned)."""
    zeros, ones, interior = support
    pinned = [k for k in interior if k not in cols]
    failure = "no pinned values tried"
    algebraic = True
    for bound in pin_denominators:
        trial = list(x)
        for k in pinned:
            trial[k] = Fraction(float(x_float[k])).limit_denominator(bound)
        reported, free = pinned, []  # the algebraic finish may pin more; refinement pins the free columns
        try:
            if cols:
                trial, free = _refine(compiled, trial, x_float, jacobian, rows, cols, iterations, bound)
                reported = pinned + free
        except CertificationError as error:
            pinned_trial, solved = trial, False
            if algebraic:
                try:  # no rational solution found: the algebraic one
                    trial, reported = _algebraic(compiled, trial, x_float, rows, cols, interior)
                    solved = True
                except CertificationError as algebraic_error:
                    failure = f"{error}; {algebraic_error}"
                    # a system the algebraic finish cannot solve stays so for other pins (and it is costly)
                    algebraic = not isinstance(algebraic_error, EliminationError)
            if not solved:
                if digits:  # too high a degree for a minimal polynomial: the unique zero in a proved box
                    try:
                        return _ball_solution(compiled, pinned_trial, x_float, (zeros, ones, interior), digits,
                                              bound, ball_tols)
                    except CertificationError as ball_error:
                        failure = f"{failure}; isolating box: {ball_error}"
                if not pinned:
                    break
                continue
        profile = profile_of(compiled, trial)
        certificate = verify_sequential(compiled, profile, forced)
        if certificate.holds:
            return CertifiedPoint(profile, certificate, x=tuple(trial), zeros=tuple(zeros), ones=tuple(ones),
                                  interior=tuple(interior), pinned=tuple(reported))
        failure = (f"the exact solution on the support read from the float guide fails the certificate "
                   f"(max regret ~{float(certificate.max_regret):.3g}, {len(certificate.violations)} "
                   f"information sets not optimal)")
        if not pinned and not free:
            break
    raise CertificationError(f"solve_exact(): {failure}")


def _refine(compiled: CompiledGame, x: list[Fraction], x_float: np.ndarray, jacobian: Callable[[np.ndarray], np.ndarray],
            rows: list[int], cols: list[int], iterations: int, bound: int) -> tuple[list[Fraction], list[int]]:
    """Solve ``f_rows = 0`` for ``x_cols`` exactly: the one solver's rational stage near the guide.

    Returns every variable and the columns found free.  Columns that no equation involves once the pinned
    variables have their exact values (:func:`~exactpoker.solve.nplayer.square_system.free_columns`: the
    point lies on a family of equilibria) are pinned like them, at the rational of denominator at most
    ``bound`` nearest their float value, not left at the float's dyadic value; the certificate decides.  The
    rest is :func:`~exactpoker.solve.algebra.polynomial_system.rational_near` (refinement with exact residuals
    and continued-fraction guesses; the float Jacobian is the guide's).
    """
    current = list(x)
    for k in cols:
        current[k] = Fraction(float(x_float[k]))
    system = gain_polynomials(compiled, current, cols)  # once: each round only evaluates it
    every = list(cols)  # the polynomials' variables; the free ones keep their pinned values
    rows, cols, free = free_columns(list(system.gains), rows, cols)
    for k in free:
        current[k] = current[k].limit_denominator(bound)
    position = {k: i for i, k in enumerate(every)}

    def square_jacobian(point: Sequence[Fraction]) -> np.ndarray:
        full = list(current)
        for k, v in zip(every, point):
            full[k] = v
        return jacobian(np.array([float(v) for v in full]))[np.ix_(rows, cols)]

    try:
        solved = rational_near([system.gains[r] for r in rows], [current[k] for k in every],
                               [position[k] for k in cols], square_jacobian, iterations=iterations)
    except CertificationError as error:
        raise CertificationError(f"solve_exact(): {error}") from None
    for k, v in zip(every, solved):
        current[k] = v
    return current, free


def _algebraic(compiled: CompiledGame, x: list[Fraction], x_float: np.ndarray, rows: list[int],
               cols: list[int], interior: list[int]) -> tuple[list[object], list[int]]:
    """Solve ``f_rows = 0`` for ``x_cols`` exactly in a number field (:mod:`exactpoker.solve.algebra.elimination`).

    Returns every variable and the interior ones left pinned (those not in
    ``cols``, and any :func:`~exactpoker.solve.nplayer.square_system.square_system` pins on top of them).
    The square system is :func:`~exactpoker.solve.nplayer.square_system.square_system`'s.  Only minimal polynomials
    of degree up to :data:`ALGEBRAIC_DEGREE` at :data:`ALGEBRAIC_DIGITS`
    digits are looked for (fast); higher degrees are left to the isolating
    box (:func:`_ball_solution`).
    """
    x, cols, rows, ctx, gains = square_system(compiled, x, x_float, rows, cols, interior)
    pinned = [k for k in interior if k not in cols]
    if not cols:
        return list(x), pinned
    solution = solve_near([gains[r] for r in rows], ctx, [float(x_float[k]) for k in cols],
                          digits=ALGEBRAIC_DIGITS, max_degree=ALGEBRAIC_DEGREE)
    trial: list[object] = list(x)
    for k, value in zip(cols, solution):
        trial[k] = value
    return trial, pinned


def _ball_solution(compiled: CompiledGame, x: list[Fraction], x_float: np.ndarray,
                   support: tuple[list[int], list[int], list[int]], digits: int, bound: int,
                   tols: Sequence[float] = RANK_TOLS) -> CertifiedPoint:
    """The equilibrium as the unique zero of the square system in a proved box, certified on balls.

    The square system is chosen afresh among all interior variables (relative
    rank tolerance first :data:`RANK_TOLS`'s smallest: ill-conditioned is not
    singular here; columns left free are pinned at rationals of denominator
    at most ``bound``).
    :func:`exactpoker.solve.algebra.krawczyk.isolate` proves the box;
    :func:`exactpoker.certify_balls.certify_box` proves the equilibrium
    conditions on it.  ``support`` is ``(zeros, ones, interior)``; a variable
    it misreads (the box's zero far from the guide, or a gain of the wrong
    sign) is moved and the system solved again, up to
    :data:`SUPPORT_CORRECTIONS` times.  If that fails, the next tolerance of
    ``tols`` (default :data:`RANK_TOLS`) is tried (a nearly singular system may hide a family).
    """
    failure: CertificationError | None = None
    for tol in tols:
        try:
            return _ball_corrections(compiled, x, x_float, support, digits, bound, tol)
        except CertificationError as error:
            failure = error
    assert failure is not None
    raise failure


def _ball_corrections(compiled: CompiledGame, x: list[Fraction], x_float: np.ndarray,
                      support: tuple[list[int], list[int], list[int]], digits: int, bound: int, tol: float
                      ) -> CertifiedPoint:
    """:func:`_ball_solution` at one rank tolerance ``tol``."""
    zeros, ones, interior = (list(part) for part in support)
    x = list(x)
    rows: list[int] = []
    cols = list(interior)
    seen: set[tuple[tuple[int, ...], ...]] = set()
    for correction in range(SUPPORT_CORRECTIONS + 1):
        state = (tuple(sorted(zeros)), tuple(sorted(ones)), tuple(sorted(cols)))
        if state in seen:
            raise CertificationError("the corrections of the float guide's support go round in a cycle")
        seen.add(state)
        square, unknowns, equations, ctx, gains = square_system(compiled, x, x_float, rows, cols, interior,
                                                                 tol=tol, bound=bound)
        if not unknowns:
            raise CertificationError("no unknowns are left on the support for an isolating box")
        try:
            box = isolate([gains[r] for r in equations], ctx, [float(x_float[k]) for k in unknowns], digits=digits)
        except KrawczykError:  # singular or no zero nearby: an interior variable near 0 or 1 may belong there
            move = _nearest_end(unknowns, x_float)
            if move is None or correction == SUPPORT_CORRECTIONS:
                raise
        else:
            move = _misread(unknowns, box, x_float)
            if move is None:
                try:
                    certificate, full = certify_box(compiled, square, unknowns, equations, box, places=digits)
                    break
                except SupportError as error:  # the float guide's support was misread at one variable
                    if correction == SUPPORT_CORRECTIONS:
                        raise
                    move = (error.variable, error.side)
        k, side = move
        for part in (zeros, ones, interior):
            if k in part:
                part.remove(k)
        if side == "interior":
            interior.append(k)
            cols = [c for c in cols if c != k] + [k]
        else:
            (zeros if side == 0 else ones).append(k)
            x[k] = Fraction(side)
            cols = [c for c in cols if c != k]
        rows = []  # the equations are chosen again among the interior gains
    else:
        raise CertificationError(f"the float guide's support still misread after {SUPPORT_CORRECTIONS} corrections")
    strategies, k = [], 0
    for layout in compiled.layouts:
        strategies.append(tuple((v.complement() if isinstance(v, CertifiedReal) else 1 - v, v)
                                for v in full[k:k + layout.num_infosets]))
        k += layout.num_infosets
    return CertifiedPoint(BehaviourProfile(tuple(strategies)), certificate, x=tuple(full), zeros=tuple(sorted(zeros)),
                          ones=tuple(sorted(ones)), interior=tuple(sorted(interior)),
                          pinned=tuple(k for k in interior if k not in unknowns), box=box, unknowns=tuple(unknowns),
                          equations=tuple(equations))


def _nearest_end(unknowns: Sequence[int], x_float: np.ndarray) -> "tuple[int, int] | None":
    """The unknown whose float value is nearest 0 or 1 (within :data:`NEAR_END`), and that end; else None."""
    near = [(min(x_float[k], 1 - x_float[k]), k) for k in unknowns if min(x_float[k], 1 - x_float[k]) < NEAR_END]
    if not near:
        return None
    _, k = min(near)
    return k, int(x_float[k] > 0.5)


def _misread(unknowns: Sequence[int], box: IsolatingBox, x_float: np.ndarray) -> "tuple[int, int] | None":
    """An unknown near 0 or 1 in the float guide that the box's zero puts far away (another zero), and that end."""
    far = [(abs(float(c) - x_float[k]), k) for k, c in zip(unknowns, box.centres)
           if abs(float(c) - x_float[k]) > FAR and min(x_float[k], 1 - x_float[k]) < NEAR_END]
    if not far:
        return None
    _, k = max(far)
    return k, int(x_float[k] > 0.5)
