"""Every vertex of a polyhedron ``{z >= 0 : A z = b}``, exactly, by lexicographic pivoting.

A vertex of ``P = {z >= 0 : A z = b}`` (``A`` an integer matrix of full row
rank) is a basic feasible solution.  Perturbing the right-hand side to
``b + (eps, eps^2, ..., eps^m)`` makes the polyhedron simple (Charnes 1952;
Dantzig, Orden and Wolfe 1955): a basis ``B`` is feasible for every small
``eps > 0`` exactly when every row of ``[B^{-1} b | B^{-1}]`` is
lexicographically positive (*lex-feasible*), each vertex of the perturbed
polyhedron has one basis, and its vertices and edges form a connected graph.
Every vertex of ``P`` is the limit of one of them (the optimum of a linear
objective over the perturbed polyhedron tends to the optimum over ``P``), so a
search over the lex-feasible bases, moving between them by one pivot with the
lexicographic ratio test, visits every vertex of ``P`` -- however degenerate
``P`` is.  This is the exact pivoting enumeration of Avis, Rosenberg, Savani
and von Stengel ("Enumeration of Nash equilibria for two-player games",
Economic Theory 42, 2010, section 4), with a table of the bases seen in place
of lrs's reverse search (Avis and Fukuda 1992), which trades memory for
simplicity.

A first lex-feasible basis comes from a lexicographic phase one with one
artificial column per row (their identity block keeps ``det(B) B^{-1}`` in the
tableau for the ratio test).  The tableau holds integers: every pivot is
fraction-free (Edmonds 1967; as in :mod:`exactpoker.solve.lemke.lcp.lcp`), each
division exact, and a basic solution is ``rhs / det`` with one common
positive integer ``det``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Sequence

import numpy as np

from exactpoker import guard, progress as reporting
from exactpoker.errors import CertificationError, InvalidParameterError

__all__ = ["Vertices", "vertices", "basis_limit", "first_feasible_basis", "fraction_free_pivot", "BasisLimitError",
           "MAX_WORK"]

#: The work one enumeration may do before it refuses: bases visited times the tableau's entries (each visit
#: pivots the whole tableau).  About a minute: 55,000 bases of a 10 x 10 bimatrix game's polytope (11 x 33
#: tableau), 2,000 of a poker tree's with 58 sequences a player (58 x 174).
MAX_WORK = 20_000_000

#: ``progress(done, total)``: told the bases visited so far and the limit (the form of ``progress.counter``).
Progress = Callable[[int, int], None]


class BasisLimitError(InvalidParameterError):
    """The enumeration reached its limit of lex-feasible bases (the message gives the counts; ``bases``: the count)."""

    def __init__(self, message: str, bases: int) -> None:
        super().__init__(message)
        self.bases = bases


@dataclass(frozen=True)
class Vertices:
    """The vertices of ``{z >= 0 : A z = b}`` and what it took to find them.

    Attributes
    ----------
    points : tuple of tuple of Fraction
        Every vertex once, in the order found.
    zeros : tuple of int
        For each vertex, the bit mask of its coordinates equal to 0 (bit ``j``: ``z_j = 0``).
    bases : int
        The lex-feasible bases visited.
    """

    points: tuple[tuple[Fraction, ...], ...]
    zeros: tuple[int, ...]
    bases: int


def fraction_free_pivot(T: np.ndarray, rhs: np.ndarray, det: int, row: int, column: int
                        ) -> tuple[np.ndarray, np.ndarray, int]:
    """One fraction-free pivot on ``T[row, column]`` of ``det * B^{-1} [A | ...]`` and ``det * B^{-1} b``.

    Returns the new integer tableau, right-hand side and ``det > 0`` (Edmonds 1967): every division is exact
    and a basic value is ``rhs / det``.
    """
    pivot = T[row, column]
    factors = T[:, column].copy()
    factors[row] = 0
    new = (T * pivot - np.outer(factors, T[row])) // det
    new[row] = T[row]
    new_rhs = (rhs * pivot - factors * rhs[row]) // det
    new_rhs[row] = rhs[row]
    if pivot < 0:  # keep det > 0: a basic value is rhs / det with the sign of rhs
        new, new_rhs, pivot = -new, -new_rhs, -pivot
    return new, new_rhs, pivot


class _Tableau:
    """``det * B^{-1} [A | I]`` and ``det * B^{-1} b`` as exact integers, with the basic column of each row."""

    def __init__(self, A: np.ndarray, b: np.ndarray) -> None:
        m, n = A.shape
        self.n = n
        self.T = np.concatenate([A, np.eye(m, dtype=int).astype(object)], axis=1)
        self.rhs = b.copy()
        self.det = 1
        self.basic = list(range(n, n + m))  # the artificial columns

    def pivot(self, row: int, column: int) -> None:
        self.T, self.rhs, self.det = fraction_free_pivot(self.T, self.rhs, self.det, row, column)
        self.basic[row] = column

    def leaving_row(self, column: int) -> int | None:
        """The lexicographic ratio test: least ``(rhs_i, (B^{-1})_i) / a_i`` over ``a_i > 0``; None on a ray."""
        best = None
        column_values = self.T[:, column]
        for i in np.flatnonzero(column_values > 0).tolist():
            if best is None or self._lex_less(i, best, column):
                best = i
        return best

    def _lex_less(self, i: int, k: int, column: int) -> bool:
        ai, ak = self.T[i, column], self.T[k, column]
        left, right = self.rhs[i] * ak, self.rhs[k] * ai
        if left != right:
            return left < right
        for j in range(self.n, self.T.shape[1]):
            left, right = self.T[i, j] * ak, self.T[k, j] * ai
            if left != right:
                return left < right
        raise CertificationError("vertex enumeration: two rows of B^-1 are proportional")  # pragma: no cover

    def point(self) -> tuple[int, tuple[tuple[int, int], ...]]:
        """The basic solution in lowest terms: a denominator and the nonzero ``(column, numerator)`` pairs."""
        entries = sorted((column, int(value)) for column, value in zip(self.basic, self.rhs) if value)
        common = math.gcd(int(self.det), *(v for _, v in entries))
        return int(self.det) // common, tuple((column, v // common) for column, v in entries)

    def mask(self) -> int:
        return sum(1 << column for column in self.basic)


def _fractions(n: int, point: tuple[int, tuple[tuple[int, int], ...]]) -> tuple[Fraction, ...]:
    denominator, entries = point
    z = [Fraction(0)] * n
    for column, numerator in entries:
        z[column] = Fraction(numerator, denominator)
    return tuple(z)


def _phase_one(tableau: _Tableau, budget: "guard.WorkBudget | None" = None) -> None:
    """Minimise the sum of the artificial variables by the lexicographic simplex method (no cycling).

    Each pivot usually drives one artificial variable out, so their number is
    the stage's total; ``budget`` stops it when out of time.
    """
    n = tableau.n
    total = sum(1 for c in tableau.basic if c >= n)
    pivots = out = 0
    while True:
        artificial_rows = [i for i, c in enumerate(tableau.basic) if c >= n]
        reporting.advance(total - len(artificial_rows) - out)
        out = total - len(artificial_rows)
        if budget is not None:
            budget.check(out, total, f"{pivots} pivots of phase one, {len(artificial_rows)} of {total} artificial "
                         "variables left")
        if not artificial_rows:
            return
        # reduced cost * det of an original column j: -(sum of the artificial rows' entries)
        reduced = -tableau.T[artificial_rows, :n].sum(axis=0)
        entering = next((j for j in range(n) if reduced[j] < 0 and j not in tableau.basic), None)
        if entering is None:
            raise CertificationError(
                "vertex enumeration: no lex-feasible basis without artificial variables (the polyhedron is empty "
                "or its constraints are dependent)")
        row = tableau.leaving_row(entering)
        if row is None:  # pragma: no cover - the phase-one objective is bounded below by 0
            raise CertificationError("vertex enumeration: phase one is unbounded")
        tableau.pivot(row, entering)
        pivots += 1


def first_feasible_basis(A: Sequence[Sequence[int]], b: Sequence[int]
                         ) -> tuple[np.ndarray, np.ndarray, int, list[int]]:
    """A feasible basis of ``{z >= 0 : A z = b}`` (integers, full row rank, ``b >= 0``) by the phase one below.

    Returns ``det * B^{-1} A``, ``det * B^{-1} b``, ``det`` and the basic column of each row.
    """
    tableau = _Tableau(*_integer_system(A, b))
    _phase_one(tableau)
    return tableau.T[:, :tableau.n].copy(), tableau.rhs, tableau.det, list(tableau.basic)


def _integer_system(A: Sequence[Sequence[int]], b: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    A = np.array([[int(v) for v in row] for row in A], dtype=object).reshape(len(b), -1)
    rhs = np.array([int(v) for v in b], dtype=object)
    if any(v < 0 for v in rhs):
        raise InvalidParameterError("vertices(): the right-hand side b must be >= 0")
    return A, rhs


def _moves(tableau: _Tableau) -> list[tuple[int, int]]:
    """Every pivot ``(row, entering column)`` to a neighbouring lex-feasible basis."""
    basic = set(tableau.basic)
    moves = []
    for column in range(tableau.n):
        if column not in basic:
            row = tableau.leaving_row(column)
            if row is not None:
                moves.append((row, column))
    return moves


def basis_limit(rows: int, columns: int) -> int:
    """The most bases :func:`vertices` visits on an ``rows x columns`` system by default (:data:`MAX_WORK`)."""
    return max(1, MAX_WORK // (rows * (columns + rows)))


def vertices(A: Sequence[Sequence[int]], b: Sequence[int], *, limit: int | None = None,
             progress: Progress | None = None, what: str = "the polyhedron") -> Vertices:
    """Every vertex of ``{z >= 0 : A z = b}`` (``A``: integers, full row rank; ``b >= 0``), exactly.

    Parameters
    ----------
    A, b : integer matrix and vector
    limit : int, optional
        The most lex-feasible bases visited (default: :func:`basis_limit`).
    progress : callable, optional
        Called as ``progress(bases visited, limit)`` as the search goes.
    what : str
        The polyhedron's name in messages.

    Raises
    ------
    BasisLimitError
        When the search reaches ``limit`` bases (the message gives the count).
    ResourceLimitError
        When it runs out of the time an enumeration may take (:class:`~exactpoker.guard.WorkBudget`).
    """
    A, rhs = _integer_system(A, b)
    tableau = _Tableau(A, rhs)
    limit = basis_limit(*A.shape) if limit is None else limit
    budget = guard.WorkBudget(f"--all: vertex enumeration of {what} ({A.shape[0]} x {A.shape[1]})")
    reporting.stage(f"vertex enumeration of {what}: a first vertex (phase one)", A.shape[0], "artificial variables")
    _phase_one(tableau, budget)
    reporting.stage(f"vertex enumeration of {what}", None, "bases")
    mask = tableau.mask()
    seen = {mask}
    found = {tableau.point(): None}
    stack: list[tuple[list[tuple[int, int]], tuple[int, int] | None]] = [(_moves(tableau), None)]
    while stack:
        moves, back = stack[-1]
        while moves:
            row, column = moves.pop()
            leaving = tableau.basic[row]
            key = mask ^ (1 << leaving) | (1 << column)
            if key in seen:
                continue
            if len(seen) >= limit:
                raise BasisLimitError(
                    f"--all: {what} has more than {limit} lex-feasible bases, the limit for its size "
                    f"(vertex enumeration stopped after {len(seen)} bases and {len(found)} vertices); "
                    "the game is too large for --all", len(seen))
            budget.check(len(seen), None, f"{len(seen)} bases and {len(found)} vertices so far, at most {limit}")
            tableau.pivot(row, column)
            mask = key
            seen.add(key)
            found.setdefault(tableau.point(), None)
            if progress is not None:
                progress(len(seen), limit)
            stack.append((_moves(tableau), (row, leaving)))
            break
        else:
            stack.pop()
            if back is not None:
                mask = mask ^ (1 << tableau.basic[back[0]]) | (1 << back[1])
                tableau.pivot(*back)
    points = tuple(_fractions(tableau.n, point) for point in found)
    zeros = tuple(sum(1 << j for j, v in enumerate(p) if v == 0) for p in points)
    return Vertices(points, zeros, len(seen))
