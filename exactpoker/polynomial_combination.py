"""Exact proofs that a polynomial vanishes wherever a system does: combinations with polynomial multipliers.

An equilibrium given by an isolating box (seed 003, section 3;
:mod:`exactpoker.certify_balls`) is the unique zero ``z`` of a square system
``e_1 = ... = e_n = 0`` of gains.  Every other mixed choice's gain ``g`` must
be exactly zero at ``z`` too, but on a support with a family of equilibria, or
with a choice whose indifference follows from the others', ``g`` was left out
of the square system as dependent, and its ball on the box only *contains* 0
(seed 003's game at ``N = 12, P = 2``: ``+/- 2e-76``).  Ball arithmetic cannot
decide it; algebra can:

    if ``g = h_1 e_1 + ... + h_n e_n`` for polynomials ``h_i`` (an identity
    in ``Q[x]``), then ``g(z) = sum h_i(z) e_i(z) = 0`` at every common zero
    ``z`` of the ``e_i``, whatever the ``h_i`` are worth there.

That is membership of ``g`` in the ideal ``(e_1, ..., e_n)`` with a
certificate (the ``h_i``).  :func:`find_combination` looks for the
multipliers among polynomials of degree at most ``degree`` (Cox, Little and
O'Shea, *Ideals, Varieties, and Algorithms*, ch. 1 sec. 4 and ch. 2 sec. 5:
membership with bounded-degree cofactors is a linear system over ``Q`` in the
cofactors' coefficients, the idea of Macaulay matrices): the unknowns are the
coefficients ``c_{i,m}`` of ``h_i = sum_m c_{i,m} m`` over monomials ``m`` of
degree at most ``degree``, and matching the coefficient of every monomial of
``g`` and of the products ``m e_i`` gives linear equations with rational
entries, solved exactly (``flint.fmpq_mat``, reduced row echelon form).  The
proof itself is :meth:`Combination.holds`: ``g - sum h_i e_i`` computed
exactly is the zero polynomial.  The search is complete for multipliers of
the degree bound (it leaves out only products ``m e_i`` linked to ``g`` by no
chain of shared monomials, which cancel among themselves in any
combination); beyond that bound, not finding a combination proves nothing.

More generally, if ``u g = sum h_i e_i`` for a *factor* ``u`` that is
nonzero at ``z`` (proved by the caller, e.g. ``u = 1 - x_j`` with ``x_j``
proved inside ``(0, 1)`` on the box), then ``u(z) g(z) = 0`` and so ``g(z) =
0``: a gain ``g_b`` left out when ``(1 - x_c) g_b`` is one of the equations is
proved this way (with constant multipliers only, to keep the search cheap).

In seed 003's game the gain of a first decision contains the later
decision's gain times that decision's probability (the action's value
includes the later choice, ``p_a v_a + p_b v_b``), and payoffs of neighbouring
cards coincide: at ``N = 12, P = 2`` the left-out gain of card 3's first
decision is ``g(3|) = g(2|) - x(3|ccb) g(3|ccb)``, a combination with a
multiplier of degree 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Sequence

from flint import fmpq_mat, fmpq_mpoly

__all__ = ["Combination", "find_combination", "MAX_DEGREE"]

#: Highest degree of the multipliers :func:`find_combination` looks at by default.
MAX_DEGREE = 1


@dataclass(frozen=True)
class Combination:
    """``factor * target = sum(multipliers[i] * equations[i])``, an identity of polynomials (module docstring).

    ``multipliers`` has one polynomial per equation (zero for those not used);
    ``factor`` is 1 unless a factor was needed (then it must be shown nonzero
    at the zero for the identity to prove ``target`` zero there).
    """

    target: fmpq_mpoly
    multipliers: tuple[fmpq_mpoly, ...]
    factor: fmpq_mpoly | None = None

    def holds(self, equations: Sequence[fmpq_mpoly]) -> bool:
        """Whether the identity holds exactly: ``factor target - sum h_i e_i`` is the zero polynomial."""
        if len(equations) != len(self.multipliers):
            return False
        rest = self.target if self.factor is None else self.factor * self.target
        for h, e in zip(self.multipliers, equations):
            if not h.is_zero():
                rest = rest - h * e
        return rest.is_zero()

    def used(self) -> list[int]:
        """The equations with a nonzero multiplier."""
        return [i for i, h in enumerate(self.multipliers) if not h.is_zero()]


def _monomials(nvars: int, degree: int) -> list[tuple[int, ...]]:
    """Exponent vectors of every monomial of total degree at most ``degree`` in ``nvars`` variables."""
    out = []
    for d in range(degree + 1):
        for chosen in combinations_with_replacement(range(nvars), d):
            exponents = [0] * nvars
            for v in chosen:
                exponents[v] += 1
            out.append(tuple(exponents))
    return out


def _columns(target: fmpq_mpoly, equations: Sequence[fmpq_mpoly], degree: int
             ) -> list[tuple[int, tuple[int, ...], fmpq_mpoly]]:
    """The products ``m e_i`` linked to ``target`` through shared monomials (module docstring).

    A combination's products that share no monomial, directly or through
    other products, with ``target`` sum to zero on their own and can be left
    out; so the search loses nothing by keeping only the products reached
    from ``target``'s monomials.
    """
    ctx = target.context()
    products = [(i, m, e * ctx.from_dict({m: 1})) for m in _monomials(ctx.nvars(), degree)
                for i, e in enumerate(equations) if not e.is_zero()]
    reached = set(target.monoms())
    kept: list[bool] = [False] * len(products)
    grown = True
    while grown:
        grown = False
        for c, (_, _, product) in enumerate(products):
            if not kept[c] and reached.intersection(product.monoms()):
                kept[c] = grown = True
                reached.update(product.monoms())
    return [column for column, keep in zip(products, kept) if keep]


def find_combination(target: fmpq_mpoly, equations: Sequence[fmpq_mpoly], degree: int = MAX_DEGREE,
                     factors: Sequence[fmpq_mpoly] = ()) -> Combination | None:
    """Multipliers of degree at most ``degree`` with ``target = sum h_i equations[i]``, or None if none found.

    Constant multipliers are tried first, then degree 1, and so on: the
    simplest identity found is returned.  If there is none, each of
    ``factors`` in turn is tried as ``u`` in ``u target = sum h_i e_i``, with
    constant multipliers (cheap: an equation that is ``u`` times the target,
    or a combination of such).

    Parameters
    ----------
    target : flint.fmpq_mpoly
        The polynomial to show zero at the system's zeros.
    equations : sequence of flint.fmpq_mpoly
        The system (one context with ``target``).
    degree : int
        Highest total degree of the multipliers (0: rational constants).
    factors : sequence of flint.fmpq_mpoly
        Factors ``u`` the caller can prove nonzero at the zero.

    Returns
    -------
    Combination or None
        A combination that :meth:`Combination.holds` (checked here), or None:
        there is none with multipliers of degree at most ``degree``, nor with
        a factor and constant multipliers (module docstring; of higher
        degree, there may be).
    """
    if target.is_zero():
        zero = target.context().from_dict({})
        return Combination(target, tuple(zero for _ in equations))
    for factor, top in [(None, degree), *((u, 0) for u in factors)]:
        for d in range(top + 1):
            found = _combination_of_degree(target, equations, d, factor)
            if found is not None:
                return found
    return None


def _combination_of_degree(target: fmpq_mpoly, equations: Sequence[fmpq_mpoly], degree: int,
                           factor: fmpq_mpoly | None = None) -> Combination | None:
    """:func:`find_combination` with multipliers of degree at most ``degree``: one exact linear system over Q."""
    found = _solve(target if factor is None else factor * target, equations, degree)
    if found is None:
        return None
    found = Combination(target, found.multipliers, factor)
    return found if found.holds(equations) else None


def _solve(target: fmpq_mpoly, equations: Sequence[fmpq_mpoly], degree: int) -> Combination | None:
    """``target = sum h_i e_i`` with multipliers of degree at most ``degree``, by reduced row echelon form."""
    ctx = target.context()
    zero = ctx.from_dict({})
    columns = _columns(target, equations, degree)
    if not columns:
        return None
    rows = sorted(set(target.monoms()).union(*(product.monoms() for _, _, product in columns)))
    index = {m: r for r, m in enumerate(rows)}
    matrix = fmpq_mat(len(rows), len(columns) + 1)
    for c, (_, _, product) in enumerate(columns):
        for m, coefficient in zip(product.monoms(), product.coeffs()):
            matrix[index[m], c] = coefficient
    for m, coefficient in zip(target.monoms(), target.coeffs()):
        matrix[index[m], len(columns)] = coefficient
    reduced, rank = matrix.rref()
    multipliers: list[dict[tuple[int, ...], object]] = [{} for _ in equations]
    pivot = -1
    for r in range(rank):  # the pivots of a reduced row echelon form move right row by row
        pivot = next(c for c in range(pivot + 1, len(columns) + 1) if reduced[r, c] != 0)
        if pivot == len(columns):  # 0 = 1: no combination of these products
            return None
        i, m, _ = columns[pivot]
        multipliers[i][m] = reduced[r, len(columns)]
    return Combination(target, tuple(ctx.from_dict(h) if h else zero for h in multipliers))
