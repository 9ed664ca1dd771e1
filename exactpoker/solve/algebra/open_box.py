"""Zeros of a multilinear integer system in the open unit box, found or ruled out by exact algebra.

Seed 001 (Nash--Shapley) section 6: on each case of condition (C) the interior
coefficients solve ``Delta_u = 0``, a system of multilinear polynomials with
integer coefficients, and only zeros in the *open* box ``(0, 1)^n`` count.
This module settles such a system in two exact stages; the third, proved
bisection, is :mod:`exactpoker.solve.algebra.box_exclusion`:

1. :func:`split_components`: a Groebner basis (python-flint's Buchberger with
   size limits), each of whose elements is factored; a factor that cannot
   vanish on the open box (a multilinear factor whose vertex values have one
   strict sign, such as ``beta - 1``) is dropped, and an element with several
   remaining factors splits the system in one branch per factor.  A branch
   whose basis is ``{1}``, or holds an element with no remaining factor, has
   no zero in the open box.  What is left are *components*.
   A component of positive dimension may lie, but for finitely many points, on
   the faces ``x_k = 0`` or ``1`` outside the open box; :func:`off_the_faces`
   keeps only its part off them.
2. :func:`shape_points`: a zero-dimensional component whose lexicographic
   basis is in shape position (``c_i x_i - g_i(x_n)`` and ``p(x_n)``) has its
   zeros at the real roots of ``p``: every coordinate exactly, in
   ``Q(root)`` (:class:`~exactpoker.algebraic.AlgebraicNumber`).

A component neither settles goes on to bisection (:func:`multilinear_members`
gives it the basis members it can use).
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Sequence

import flint
import numpy as np
import sympy

from exactpoker.algebraic import AlgebraicNumber
from exactpoker.solve.algebra.box_exclusion import Condition, Multilinear, excluded_by_boxes, excluded_by_charts
from exactpoker.solve.algebra.polynomial_system import shape_points as polynomial_shape_points

__all__ = ["Component", "vertex_sums", "groebner", "split_components", "off_the_faces", "shape_points", "multilinear_members",
           "decide_open_box",
           "GROEBNER_LIMITS", "GROEBNER_LARGE_LIMITS", "GROEBNER_SECONDS"]

#: Buchberger's limits (basis length, polynomial length, coefficient bits): first the quick ones, in this
#: process; then the large ones, in a child process stopped after :data:`GROEBNER_SECONDS` (python-flint's
#: Buchberger cannot be interrupted, and may run for hours within large limits).
GROEBNER_LIMITS = (200, 2000, 2000)
GROEBNER_LARGE_LIMITS = (2000, 20000, 20000)
GROEBNER_SECONDS = 20.0
#: Deepest nesting of factor splits.
MAX_SPLITS = 16



@dataclass(frozen=True)
class Component:
    """A branch of :func:`split_components` the factor splits did not rule out.

    ``basis`` is its Groebner basis (``flint.fmpz_mpoly`` in ``ctx``), empty
    when the branch has no equations; ``complete`` is False when Buchberger
    stopped at :data:`GROEBNER_LIMITS` (then ``basis`` only generates the ideal).
    """

    basis: tuple[flint.fmpz_mpoly, ...]
    ctx: flint.fmpz_mpoly_ctx
    complete: bool

    @property
    def zero_dimensional(self) -> bool:
        """Every unknown leads some basis element as a pure power (finitely many complex zeros)."""
        if not self.complete or not self.basis:
            return False
        pure = set()
        for g in self.basis:
            lead = g.monoms()[0]
            used = [j for j, e in enumerate(lead) if e]
            if len(used) == 1:
                pure.add(used[0])
        return len(pure) == len(self.ctx.names())


def _sign_on_open_box(poly: flint.fmpz_mpoly) -> int:
    """+1 or -1 if the multilinear ``poly`` has that sign at every point of the open box; else 0.

    Its value inside the box is a mixture, with positive weights, of its values
    at the vertices: one strict sign there, zeros allowed, gives that sign.
    A polynomial of higher degree in some unknown gets 0 (not decided).
    """
    terms = poly.to_dict()
    if any(e > 1 for monomial in terms for e in monomial):
        return 0
    used = sorted({j for monomial in terms for j, e in enumerate(monomial) if e})
    size = sum(abs(int(c)) for c in terms.values())
    table = np.zeros(1 << len(used), dtype=np.int64 if size < 2**62 else object)
    for monomial, c in terms.items():
        table[sum(1 << i for i, j in enumerate(used) if monomial[j])] += int(c)
    vertex_sums(table)
    low, high = table.min(), table.max()
    if low >= 0 and high > 0:
        return 1
    if high <= 0 and low < 0:
        return -1
    return 0


def vertex_sums(table: np.ndarray) -> np.ndarray:
    """Coefficients of a multilinear polynomial, indexed by monomial bitmask, into its vertex values (in place).

    The subset-sum (zeta) transform: the value at the vertex with bitmask ``v``
    is the sum of the coefficients of the monomials ``m`` inside ``v``.
    """
    step = 1
    while step < len(table):
        shaped = table.reshape(-1, 2 * step)
        shaped[:, step:] += shaped[:, :step]
        step *= 2
    return table


def _relevant_factors(poly: flint.fmpz_mpoly) -> list[flint.fmpz_mpoly] | None:
    """The distinct factors of ``poly`` that may vanish in the open box (None: ``poly`` is 0)."""
    if poly.is_zero():
        return None
    try:
        _, factors = poly.factor()
    except OverflowError:  # python-flint 0.9 cannot sort factors with huge coefficients: keep it whole
        return [poly] if _sign_on_open_box(poly) == 0 else []
    return [f for f, _ in factors if not f.is_constant() and _sign_on_open_box(f) == 0]


def _is_associate(f: flint.fmpz_mpoly, g: flint.fmpz_mpoly) -> bool:
    return (f - g).is_zero() or (f + g).is_zero()


def _buchberger(polys: Sequence[flint.fmpz_mpoly], ctx: flint.fmpz_mpoly_ctx,
                limits: tuple[int, int, int]) -> tuple[list[flint.fmpz_mpoly], bool]:
    basis, complete = flint.fmpz_mpoly_vec(list(polys), ctx).buchberger_naive(limits=limits)
    return [g for g in (basis.autoreduction() if complete else basis) if not g.is_zero()], complete


def _in_child(job: Callable[[], object], seconds: float) -> object | None:
    """``job()`` run in a forked child process, or None if it fails or takes more than ``seconds``."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: send the pickled result, then leave at once
        os.close(read)
        try:
            data = pickle.dumps(job())
        except BaseException:
            data = b""
        with os.fdopen(write, "wb") as out:
            out.write(data)
        os._exit(0)
    os.close(write)
    chunks, deadline = [], time.monotonic() + seconds
    with os.fdopen(read, "rb", buffering=0) as source:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([source], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return None
            chunk = source.read(1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    os.waitpid(pid, 0)
    return pickle.loads(b"".join(chunks)) if chunks else None


def groebner(polys: Sequence[flint.fmpz_mpoly], ctx: flint.fmpz_mpoly_ctx, patient: bool = True
             ) -> tuple[list[flint.fmpz_mpoly], bool]:
    """A Groebner basis (autoreduced) and True, or a generating set and False when the limits stop Buchberger.

    A generating set is still worth factoring (:func:`split_components`), and
    the one of the large limits is the richer.

    :data:`GROEBNER_LIMITS` first; if they stop it and ``patient`` is true,
    :data:`GROEBNER_LARGE_LIMITS` in a child process for at most
    :data:`GROEBNER_SECONDS`.
    """
    basis, complete = _buchberger(polys, ctx, GROEBNER_LIMITS)
    if complete or not patient:
        return basis, complete
    terms = [g.to_dict() for g in polys]

    def large() -> tuple[list[dict[tuple[int, ...], int]], bool]:
        found, done = _buchberger([ctx.from_dict(t) for t in terms], ctx, GROEBNER_LARGE_LIMITS)
        return [{tuple(int(e) for e in m): int(c) for m, c in g.to_dict().items()} for g in found], done

    result = _in_child(large, GROEBNER_SECONDS)
    if result is None:
        return basis, False
    found, done = result  # type: ignore[misc]
    return [ctx.from_dict(t) for t in found], done


def split_components(equations: Sequence[flint.fmpz_mpoly], ctx: flint.fmpz_mpoly_ctx, patient: bool = False
                     ) -> list[Component]:
    """The components of ``equations = 0`` that may meet the open unit box (stage 1).

    Every zero of the system in the open box is a zero of one returned
    component.  An empty list proves there is none.  ``patient`` lets each
    Groebner basis use the large limits (:func:`groebner`: slower, decides more).
    """
    factored: dict[str, list[flint.fmpz_mpoly] | None] = {}  # the branches share most of their polynomials

    def relevant_factors(g: flint.fmpz_mpoly) -> list[flint.fmpz_mpoly] | None:
        key = str(g)
        if key not in factored:
            factored[key] = _relevant_factors(g)
        return factored[key]

    def split(polys: list[flint.fmpz_mpoly], depth: int) -> list[Component] | None:
        """The components, or None when no branch was split off (``polys`` as they are)."""
        for i, g in enumerate(polys):
            factors = relevant_factors(g)
            if factors is None:
                continue
            if not factors:
                return []
            if len(factors) > 1 or not _is_associate(factors[0], g):
                if depth >= MAX_SPLITS:
                    return None
                found: list[Component] = []
                for f in factors:
                    found += branch([f, *polys[:i], *polys[i + 1:]], depth + 1)
                return found
        return None

    def branch(polys: list[flint.fmpz_mpoly], depth: int) -> list[Component]:
        polys = [g for g in polys if not g.is_zero()]
        if not polys:
            return [Component((), ctx, True)]
        found = split(polys, depth)
        if found is not None:
            return found
        basis, complete = groebner(polys, ctx, patient)
        if any(g.is_constant() for g in basis):
            return []
        found = split(basis, depth)
        if found is not None:
            return found
        return [Component(tuple(basis), ctx, complete)]

    return branch(list(equations), 0)


def off_the_faces(component: Component) -> list[Component]:
    """The part of ``component`` where no unknown is 0 or 1: ``[]`` if there is none (exact).

    Rabinowitsch's trick: a zero with every ``x_k (1 - x_k) != 0`` is, for
    some ``w``, a zero of the basis and of ``w prod_k x_k (1 - x_k) - 1``; in
    a lexicographic basis with ``w`` first, the members free of ``w`` generate
    the elimination ideal (Cox, Little and O'Shea, *Ideals, Varieties, and
    Algorithms*, ch. 3 and 4: the saturation).  Every zero of ``component``
    in the open box is a zero of the returned one.  The component is returned
    as it is if Buchberger stops at its limits.
    """
    names = component.ctx.names()
    lex = flint.fmpz_mpoly_ctx.get(("w", *names), "lex")
    w, *unknowns = lex.gens()
    product = lex.from_dict({(0,) * (len(names) + 1): 1})
    for x in unknowns:
        product *= x * (1 - x)
    lifted = [lex.from_dict({(0, *m): c for m, c in g.to_dict().items()}) for g in component.basis]
    basis, complete = groebner([*lifted, w * product - 1], lex, patient=False)
    if not complete:
        return [component]
    if any(g.is_constant() for g in basis):
        return []
    free = [g for g in basis if all(m[0] == 0 for m in g.to_dict())]
    back = [component.ctx.from_dict({tuple(m[1:]): c for m, c in g.to_dict().items()}) for g in free]
    ordered, done = groebner(back, component.ctx, patient=False)
    return [Component(tuple(ordered), component.ctx, done)]


def shape_points(component: Component) -> list[list[Fraction | AlgebraicNumber]] | None:
    """Every zero of a zero-dimensional component in the open box, exactly (stage 2).

    The component's lexicographic basis (python-flint's Buchberger within its limits) must be in shape position:
    the engine's one solver reads it and isolates the roots
    (:func:`~exactpoker.solve.algebra.polynomial_system.shape_points`).  Returns None when it is not (or
    Buchberger stopped at its limits).
    """
    names = component.ctx.names()
    lex = flint.fmpz_mpoly_ctx.get(tuple(names), "lex")
    basis, complete = groebner([lex.from_dict(g.to_dict()) for g in component.basis], lex)
    if not complete:
        return None
    symbols = list(sympy.symbols(list(names)))
    exprs = [sympy.Add(*[int(c) * sympy.Mul(*[s**e for s, e in zip(symbols, m)]) for m, c in g.to_dict().items()])
             for g in basis]
    found = polynomial_shape_points(exprs, symbols, (Fraction(0), Fraction(1)))
    if found is None:
        return None
    return [list(point) for point in found if all(0 < x < 1 for x in point)]


def multilinear_members(component: Component) -> list[Multilinear]:
    """The members of ``component``'s basis that are multilinear, as :data:`Multilinear` (for the bisection).

    Members whose coefficients floats cannot hold (900 bits and more) are left out.
    """
    found = []
    for g in component.basis:
        terms = g.to_dict()
        if all(e <= 1 for m in terms for e in m) and all(abs(int(c)).bit_length() < 900 for c in terms.values()):
            found.append({sum(1 << j for j, e in enumerate(m) if e): int(c) for m, c in terms.items()})
    return found


def _flint_system(equations: Sequence[Multilinear], names: Sequence[str]
                  ) -> tuple[list[flint.fmpz_mpoly], flint.fmpz_mpoly_ctx]:
    """Multilinear equations (bit ``j``: unknown ``names[j]``) as ``flint.fmpz_mpoly`` (degree-reverse-lexicographic)."""
    ctx = flint.fmpz_mpoly_ctx.get(tuple(names), "degrevlex")
    n = len(names)
    return [ctx.from_dict({tuple(mask >> j & 1 for j in range(n)): c for mask, c in p.items()}) for p in equations], ctx


def decide_open_box(equations: Sequence[Multilinear], conditions: Sequence[Condition], names: Sequence[str], *,
                    budget: int = 3000, max_components: int = 4) -> tuple[str, list[list[Fraction | AlgebraicNumber]]]:
    """Decide whether multilinear ``equations`` have a zero in the open unit box where ``conditions`` hold.

    The stages of the module docstring and of :mod:`exactpoker.solve.algebra.box_exclusion`, in turn:
    components (factor splitting, Groebner bases, the part off the faces), bisection with proved vertex bounds
    and contraction that uses the ``conditions`` (pairs ``(R, D)``: ``D >= 0`` wherever ``R > 0``), each of at
    most ``max_components`` components bisected again with its multilinear basis members, exact zeros of
    components in shape position, and last the blow-up charts.  Returns:

    * ``("no-zero", [])``: no zero in the open box (exact algebra);
    * ``("excluded", [])``: bisection proves no zero meets the conditions;
    * ``("zeros", points)``: every zero in the open box, exactly (the caller checks the conditions);
    * ``("open", [])``: none of these decided it.
    """
    n = len(names)
    polys, ctx = _flint_system(equations, names)
    components = split_components(polys, ctx) if equations else None
    if components == []:
        return "no-zero", []
    if excluded_by_boxes(n, list(equations), list(conditions), budget):
        return "excluded", []
    if components and not all(c.complete for c in components):
        components = split_components(polys, ctx, patient=True)
        if components == []:
            return "no-zero", []
    if components:  # a component of positive dimension may lie on the faces, but for a few points
        components = [part for c in components
                      for part in (off_the_faces(c) if c.complete and not c.zero_dimensional else [c])]
        if not components:
            return "no-zero", []
    if components and len(components) <= max_components:  # each on its own, its multilinear members as equations
        components = [c for c in components if not excluded_by_boxes(
            n, [*equations, *multilinear_members(c)], list(conditions), budget)]
        if not components:
            return "excluded", []
    points = _component_zeros(components) if components else None
    if points is None:
        return ("excluded", []) if excluded_by_charts(n, list(equations), list(conditions), budget) else ("open", [])
    return "zeros", points


def _component_zeros(components: list[Component]) -> list[list[Fraction | AlgebraicNumber]] | None:
    """Every zero of the components in the open box (exact), or None if one is not zero-dimensional in shape."""
    points: list[list[Fraction | AlgebraicNumber]] = []
    for component in components:
        found = shape_points(component) if component.zero_dimensional else None
        if found is None:
            return None
        points += found
    return points
