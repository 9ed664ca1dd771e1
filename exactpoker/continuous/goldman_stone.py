"""Goldman--Stone symmetric poker with a continuous deck, solved symbolically.

Seed 002 (A. J. Goldman and J. J. Stone, "A Symmetric Continuous Poker
Model", 1960).  Players R and S ante 1, get hands uniform on ``[0, 1]`` and
choose simultaneously one of four courses of action: (1) drop, (2) bet ``b``
(folding to ``a``), (3) bet ``b`` (seeing ``a``), (4) bet ``a``; ``a > b > 1``.

Nothing here is typed in from the paper (its results are test expectations):

* :func:`payoff_tables` derives figures 1 and 2 (R's payoff for every pair of
  courses, R's hand higher / lower) from the rules of section 2.
* :func:`payoff_functions` writes ``G_i(z)`` -- R's expected payoff, using a
  piecewise-constant strategy ``r``, against S holding ``z`` and playing
  course ``i`` -- as sympy integrals over R's hand, split at ``z``.
* :func:`solve_symbolic` takes the structure found in sections 4-5 (drop on
  ``[0, g]``; on ``(g, g')`` mix courses 2 and 4 with probabilities ``p``,
  ``1-p``; course 4 on ``(g', 1]``) with ``g, g', p`` unknown, and solves the
  indifference conditions ``G_2 = G_4`` on ``(g, g')`` (two coefficients of a
  linear function of ``z``) and ``G_1(g) = G_2(g)``.  The result is Lemma 8.
* :func:`certify` proves the theorem for all ``a > b > 1`` at once: against
  ``r``, on each of the three intervals every course ``i`` has
  ``G_i(z) >= G_own(z)`` (the strategy's own courses, which tie), so
  ``K(r, r*) >= K(r, r) = 0`` for every ``r*``: the value is 0 and ``r`` is
  optimal (the game is symmetric).  ``G_i`` is linear in ``z`` on each
  interval, so the two endpoints decide; each endpoint difference is a
  rational function of ``(a, b)``, and substituting ``b = 1 + s``,
  ``a = 1 + s + t`` it is shown nonnegative for all ``s, t > 0`` by
  :func:`positive_on_region`: after cancelling, numerator and denominator are
  polynomials in ``s, t`` whose coefficients all have one sign.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import sympy

from exactpoker.errors import CertificationError
from exactpoker.numbers import to_sympy

__all__ = [
    "a", "b", "z",
    "GoldmanStoneSolution",
    "payoff_tables",
    "payoff_functions",
    "solve_symbolic",
    "solve",
    "certify",
    "positive_on_region",
    "von_neumann_limit",
]

a = sympy.Symbol("a", positive=True)
b = sympy.Symbol("b", positive=True)
z, t = sympy.symbols("z t", real=True)
s_, t_ = sympy.symbols("s t", positive=True)  # b = 1 + s, a = b + t

COURSES = ("drop", "b-fold", "b-see", "a")


def _stakes(mine: int, theirs: int, A: sympy.Expr, B: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr, str]:
    """What R and S put in (antes included) and how it ends: ``"showdown"``, ``"R"``/``"S"`` (the other folded) or ``"none"``."""
    level = {0: sympy.Integer(1), 1: B, 2: B, 3: A}
    if mine == 0 and theirs == 0:
        return level[0], level[0], "none"
    if mine == 0:
        return level[0], level[theirs], "S"
    if theirs == 0:
        return level[mine], level[0], "R"
    if mine == 3 and theirs == 1:
        return A, B, "R"  # S bet b and folds to a
    if mine == 1 and theirs == 3:
        return B, A, "S"
    both = A if 3 in (mine, theirs) else B  # equal bets, or b-see sees a
    return both, both, "showdown"


def payoff_tables(A: sympy.Expr = a, B: sympy.Expr = b) -> tuple[sympy.Matrix, sympy.Matrix]:
    """Figures 1 and 2 from the rules: R's payoff, rows R's course, columns S's; (R higher, S higher)."""
    tables = []
    for r_higher in (True, False):
        rows = []
        for mine in range(4):
            row = []
            for theirs in range(4):
                cr, cs, end = _stakes(mine, theirs, A, B)
                if end == "none":
                    row.append(sympy.Integer(0))
                elif end == "R":
                    row.append(cs)
                elif end == "S":
                    row.append(-cr)
                else:
                    row.append(cs if r_higher else -cr)
            rows.append(row)
        tables.append(sympy.Matrix(rows))
    return tables[0], tables[1]


Pieces = list[tuple[sympy.Expr, sympy.Expr, tuple[sympy.Expr, ...]]]


def payoff_functions(pieces: Pieces, A: sympy.Expr = a, B: sympy.Expr = b) -> list[list[sympy.Expr]]:
    """``G[i][j]``: ``G_{i+1}(z)`` for ``z`` in the ``j``-th piece, a linear function of ``z``.

    ``pieces`` is R's piecewise-constant strategy: ``(start, end, (r_1..r_4))``
    in increasing order covering ``[0, 1]``.  ``G_i(z) = integral over t of
    sum_k r_k(t) * payoff(R plays k with t, S plays i with z)``, R's hand ``t``
    below ``z`` using figure 2, above using figure 1.
    """
    high, low = payoff_tables(A, B)
    result = []
    for i in range(4):
        per_piece = []
        for j, _ in enumerate(pieces):
            total = sympy.Integer(0)
            for k, (start, end, probs) in enumerate(pieces):
                density_low = sum(probs[m] * low[m, i] for m in range(4))
                density_high = sum(probs[m] * high[m, i] for m in range(4))
                if k < j:  # all of R's hands here are below z
                    total += sympy.integrate(density_low, (t, start, end))
                elif k > j:
                    total += sympy.integrate(density_high, (t, start, end))
                else:  # split at z
                    total += sympy.integrate(density_low, (t, start, z)) + sympy.integrate(density_high, (t, z, end))
            per_piece.append(sympy.expand(total))
        result.append(per_piece)
    return result


def _family(g: sympy.Expr, g2: sympy.Expr, p: sympy.Expr) -> Pieces:
    one, zero = sympy.Integer(1), sympy.Integer(0)
    return [
        (zero, g, (one, zero, zero, zero)),
        (g, g2, (zero, p, zero, 1 - p)),
        (g2, one, (zero, zero, zero, one)),
    ]


#: The courses the strategy uses on each of its three pieces (0-based).
OWN = ((0,), (1, 3), (3,))


@dataclass(frozen=True)
class GoldmanStoneSolution:
    """Lemma 8's strategy, the lemma 4 integrals, the payoff functions and the checks."""

    a: sympy.Expr
    b: sympy.Expr
    g: sympy.Expr  # drop on [0, g]
    g_prime: sympy.Expr  # bet a on (g', 1]
    mix: tuple[sympy.Expr, ...]  # (r_1, r_2, r_3, r_4) on (g, g')
    R: tuple[sympy.Expr, ...]  # (R_1, R_2, R_3, R_4)
    G: list[list[sympy.Expr]]  # G[i][piece]
    value: sympy.Expr  # K(r, r)
    certified: bool

    @property
    def pieces(self) -> Pieces:
        return _family(self.g, self.g_prime, self.mix[1])

    def strategy_at(self, hand: object) -> tuple[sympy.Expr, ...]:
        """``(r_1, r_2, r_3, r_4)`` at a hand (the middle mix on the open interval, else the outer pieces)."""
        h = to_sympy(Fraction(hand)) if not isinstance(hand, sympy.Basic) else hand
        one, zero = sympy.Integer(1), sympy.Integer(0)
        if h <= self.g:
            return (one, zero, zero, zero)
        if h < self.g_prime:
            return self.mix
        return (zero, zero, zero, one)

    def to_dict(self) -> dict[str, object]:
        return {
            "game": "goldman-stone-continuous",
            "params": {"a": str(self.a), "b": str(self.b)},
            "cuts": {"g": str(self.g), "g'": str(self.g_prime)},
            "strategy": {
                "[0, g]": "drop",
                "(g, g')": {"b-fold": str(self.mix[1]), "a": str(self.mix[3])},
                "(g', 1]": "a",
            },
            "R": {f"R{i + 1}": str(v) for i, v in enumerate(self.R)},
            "value": str(self.value),
            "certified": self.certified,
        }

    def describe(self) -> str:
        return (
            f"With a hand z: drop if z <= g = {self.g};\n"
            f"  if g < z < g' = {self.g_prime}: bet b (folding to a) with probability {self.mix[1]}, "
            f"bet a with probability {self.mix[3]};\n"
            f"  if z > g': bet a.\n"
            f"R1 = {self.R[0]}, R2 = {self.R[1]}, R4 = {self.R[3]}; value {self.value}; "
            f"certified optimal: {'yes' if self.certified else 'NO'}"
        )


def positive_on_region(expr: sympy.Expr, strict: bool = False) -> bool:
    """Sound check that the rational function ``expr(a, b)`` is >= 0 (> 0 if ``strict``) for all ``a > b > 1``.

    Substitutes ``b = 1 + s``, ``a = 1 + s + t`` and requires the cancelled
    numerator and denominator to be nonzero polynomials in ``s, t`` whose
    coefficients all share one sign (then each has that sign for all
    ``s, t > 0``).  ``expr == 0`` passes unless ``strict``.  A ``False``
    answer means "not proved", not "negative".
    """
    e = sympy.cancel(sympy.together(sympy.sympify(expr).subs({a: 1 + s_ + t_, b: 1 + s_})))
    if e == 0:
        return not strict
    num, den = sympy.fraction(e)
    signs = []
    for part in (num, den):
        coeffs = sympy.Poly(sympy.expand(part), s_, t_).coeffs()
        if all(c > 0 for c in coeffs):
            signs.append(1)
        elif all(c < 0 for c in coeffs):
            signs.append(-1)
        else:
            return False
    return signs[0] * signs[1] > 0


def _value(pieces: Pieces, G: list[list[sympy.Expr]]) -> sympy.Expr:
    """``K(r, r) = integral of sum_i r_i(z) G_i(z) dz``."""
    total = sympy.Integer(0)
    for j, (start, end, probs) in enumerate(pieces):
        total += sympy.integrate(sum(probs[i] * G[i][j] for i in range(4)), (z, start, end))
    return sympy.simplify(total)


def _R(pieces: Pieces) -> tuple[sympy.Expr, ...]:
    return tuple(sympy.factor(sum(sympy.integrate(probs[i], (t, s0, e0)) for s0, e0, probs in pieces))
                 for i in range(4))


def certify(solution_pieces: Pieces, G: list[list[sympy.Expr]], *, symbolic: bool = True) -> bool:
    """Against ``r``: on every piece, every course does at least as well for R as the strategy's own courses.

    ``G_i - G_own`` is linear in ``z`` on each piece, so it is checked at both
    endpoints.  With ``symbolic=True`` (``a``, ``b`` symbols) each sign is
    proved for all ``a > b > 1`` by :func:`positive_on_region`; otherwise
    (rational ``a``, ``b``) it is decided exactly.  The own courses must tie
    identically (as functions of ``z``) on their piece.
    """
    for j, (start, end, _) in enumerate(solution_pieces):
        own = OWN[j]
        reference = G[own[0]][j]
        for other in own[1:]:
            if sympy.simplify(G[other][j] - reference) != 0:
                return False
        for i in range(4):
            if i in own:
                continue
            for point in (start, end):
                diff = sympy.cancel((G[i][j] - reference).subs(z, point))
                ok = positive_on_region(diff) if symbolic else bool(diff >= 0)
                if not ok:
                    return False
    return True


def _ordered(g: sympy.Expr, g2: sympy.Expr, p: sympy.Expr, symbolic: bool) -> bool:
    checks = [g, g2 - g, 1 - g2, p, 1 - p]
    if symbolic:
        return all(positive_on_region(c, strict=True) for c in checks)
    return all(bool(c > 0) for c in checks)


def _solve(A: sympy.Expr, B: sympy.Expr, symbolic: bool) -> GoldmanStoneSolution:
    g, g2, p = sympy.symbols("g g2 p")
    G = payoff_functions(_family(g, g2, p), A, B)
    middle = sympy.Poly(sympy.expand(G[1][1] - G[3][1]), z)  # G_2 = G_4 on (g, g'), identically in z
    equations = list(middle.all_coeffs()) + [(G[0][0] - G[1][0]).subs(z, g)]  # G_1(g) = G_2(g)
    candidates = sympy.solve(equations, [g, g2, p], dict=True)
    sample = {a: 3, b: 2} if symbolic else {}
    valid = [c for c in candidates if all(k in c for k in (g, g2, p))
             and _ordered(*(c[k].subs(sample) for k in (g, g2, p)), symbolic=False)]
    if len(valid) != 1:
        raise CertificationError(f"goldman-stone: expected one ordered solution; got {candidates}")
    sol = {k: sympy.factor(v) for k, v in valid[0].items()}
    cut, cut2, prob = sol[g], sol[g2], sol[p]
    pieces = _family(cut, cut2, prob)
    G_sol = [[sympy.factor(e.subs(sol)) for e in row] for row in G]
    value = _value(pieces, G_sol)
    ok = _ordered(cut, cut2, prob, symbolic) and value == 0 and certify(pieces, G_sol, symbolic=symbolic)
    mix = (sympy.Integer(0), prob, sympy.Integer(0), sympy.factor(1 - prob))
    return GoldmanStoneSolution(A, B, cut, cut2, mix, _R(pieces), G_sol, value, ok)


@cache
def solve_symbolic() -> GoldmanStoneSolution:
    """Lemma 8 for symbolic ``a > b > 1``, certified optimal for all of them at once."""
    solution = _solve(a, b, symbolic=True)
    if not solution.certified:
        raise CertificationError("goldman-stone: the symbolic solution failed its check")
    return solution


def solve(bet_a: object, bet_b: object, *, check: bool = True) -> GoldmanStoneSolution:
    """The solution at rational ``a > b > 1``: derived and checked exactly at those numbers.

    With ``check=False`` the general solution is only substituted (faster).
    """
    from exactpoker.games.goldman_stone import parse_bets

    fa, fb = parse_bets(bet_a, bet_b)
    A, B = to_sympy(fa), to_sympy(fb)
    if check:
        solution = _solve(A, B, symbolic=False)
        if not solution.certified:
            raise CertificationError(f"goldman-stone: the solution at a={A}, b={B} failed its check")
        return solution
    general = solve_symbolic()
    sub = {a: A, b: B}
    return GoldmanStoneSolution(
        A, B, general.g.subs(sub), general.g_prime.subs(sub), tuple(m.subs(sub) for m in general.mix),
        tuple(r.subs(sub) for r in general.R), [[e.subs(sub) for e in row] for row in general.G],
        general.value, general.certified,
    )


def von_neumann_limit() -> dict[str, sympy.Expr]:
    """Section 7: Lemma 8 at ``b = 1`` (symbolic ``a > 1``).

    Returns the cut ``g`` (0: no dropping), ``g'``, and the mix on ``(0, g')``.
    After the paper's renaming (``r_4 -> rho_1`` high, ``r_2 -> rho_3`` low,
    ``a -> a/b``) this is the symmetric von Neumann game of TGEB 19.4-19.10:
    bet high above ``(a-b)/a``, below it high with probability ``b/(a+b)``.
    """
    general = solve_symbolic()
    return {
        "g": sympy.factor(general.g.subs(b, 1)),
        "g'": sympy.factor(general.g_prime.subs(b, 1)),
        "b-fold": sympy.factor(general.mix[1].subs(b, 1)),
        "a": sympy.factor(general.mix[3].subs(b, 1)),
        "value": general.value,
    }
