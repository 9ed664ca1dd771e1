"""Three-player poker with a continuous deck: cut points to any number of certified digits.

Seed 000, section 4, "Extension of von Neumann's continuous model to three
players".  Hands ``x, y, z`` of players I, II, III are independent uniform on
``[0, 1]``; everybody antes 1; I checks (three-way showdown for the pot of 3)
or bets ``b``; II and III, not seeing each other, call or fold.  The
conjectured equilibrium (the paper's Figure 2): I bets when ``x < A`` or
``x > B``, II and III call when their hand exceeds ``C``, ``0 < A < C < B < 1``.

Nothing is typed in from the paper.  Each expected payoff is the sum of
sympy integrals of the leaf payoffs (pot share minus contribution, from the
rules) over the regions where the strategies and the order of the hands are
fixed.  The indifference equations, A (I at ``x = A``), B (I at ``x = B``) and
C (II at ``y = C``), come out as the paper's Eq. A, B, C.  For a rational
``b`` a lex Groebner basis eliminates them to one univariate polynomial in
``C``; its real roots are isolated exactly and the one giving
``0 < A < C < B < 1`` is kept as an exact real algebraic number
(:class:`~exactpoker.algebraic.AlgebraicNumber`), then refined with
python-flint ball arithmetic to the digits asked for.  The best bet ``b*``
solves the same system together with ``dV/db = 0`` (a Jacobian determinant),
eliminated to a univariate polynomial in ``b``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import permutations, product
from typing import Callable, Sequence

import sympy
from flint import acb_poly, arb, fmpq, fmpq_mpoly_ctx
from flint import ctx as flint_ctx

from exactpoker.algebraic import AlgebraicNumber
from exactpoker.errors import CertificationError
from exactpoker.numbers import parse_positive, to_sympy
from exactpoker.solve.algebra.roots import Exact, evaluate, gcd, minimal_polynomial, real_roots

__all__ = ["equations", "value_expression", "ContinuousThreePlayer", "solve", "BestBet", "best_bet"]

b = sympy.Symbol("b", positive=True)
A, B, C = sympy.symbols("A B C", positive=True)
x, y, z = sympy.symbols("x y z", real=True)
HANDS = (x, y, z)


def _leaf_payoff(player: int, hands: Sequence[float], bets: bool, calls: tuple[bool, bool]) -> sympy.Expr:
    """``player``'s payoff at a leaf (pot share minus contribution), from the rules."""
    if not bets:
        contributions = [sympy.Integer(1)] * 3
        active = [0, 1, 2]
    else:
        contributions = [1 + b] + [1 + b if c else sympy.Integer(1) for c in calls]
        active = [0] + [i + 1 for i, c in enumerate(calls) if c]
    winner = max(active, key=lambda p: hands[p])
    pot = sum(contributions)
    return (pot if player == winner else 0) - contributions[player]


Strategy = Callable[[int, float], bool]  # (player, hand rank) -> aggressive action?


def _expectation(
    player: int, points: Sequence[sympy.Expr], fixed: dict[int, tuple[int, bool]], strategy: Strategy
) -> sympy.Expr:
    """Expected payoff of ``player`` by sympy integration over the other (free) hands.

    ``points`` are the cut points in increasing order, ``0`` first and ``1``
    last.  ``fixed`` maps a player whose hand is a cut point to ``(index of
    that point, action)``.  Every other hand runs over ``[0, 1]``; the
    integral is split into pieces between consecutive points and, where
    several hands share a piece, into their orders, so that the integrand
    (the leaf payoff) is constant on each region; the regions' volumes are
    sympy integrals.
    """
    free = [p for p in range(3) if p not in fixed]
    pieces = len(points) - 1
    total = sympy.Integer(0)
    for assignment in product(range(pieces), repeat=len(free)):
        groups: dict[int, list[int]] = {}
        for p, piece in zip(free, assignment):
            groups.setdefault(piece, []).append(p)
        for orders in product(*(permutations(members) for members in groups.values())):
            rank = [0.0] * 3
            for p, (index, _) in fixed.items():
                rank[p] = float(index)
            for (piece, _members), order in zip(groups.items(), orders):
                for k, p in enumerate(order):
                    rank[p] = piece + (k + 1) / (len(order) + 1)
            action = [fixed[p][1] if p in fixed else strategy(p, rank[p]) for p in range(3)]
            value = _leaf_payoff(player, rank, action[0], (action[1], action[2]))
            region = sympy.Integer(1)
            for piece, members in groups.items():
                region *= _ordered_volume(len(members), points[piece], points[piece + 1])
            total += value * region
    return sympy.expand(total)


@cache
def _ordered_volume(count: int, low: sympy.Expr, high: sympy.Expr) -> sympy.Expr:
    """``integral over low < h_1 < ... < h_count < high`` of 1 (sympy integration)."""
    hands = HANDS[:count]
    integrand: sympy.Expr = sympy.Integer(1)
    for k in range(count):
        upper = hands[k + 1] if k + 1 < count else high
        integrand = sympy.integrate(integrand, (hands[k], low, upper))
    return sympy.expand(integrand)


def _figure2(cut_index: dict[str, int]) -> Strategy:
    """The conjectured strategies: I bets below ``A`` and above ``B``; II, III call above ``C``."""

    def strategy(player: int, rank: float) -> bool:
        if player == 0:
            return rank < cut_index["A"] or rank > cut_index["B"]
        return rank > cut_index["C"]

    return strategy


POINTS = (sympy.Integer(0), A, C, B, sympy.Integer(1))
_INDEX = {"A": 1, "C": 2, "B": 3}


@cache
def equations() -> dict[str, sympy.Expr]:
    """Eq. A, B, C as ``left - right`` (check minus bet for I; fold minus call for II), derived by integration."""
    strategy = _figure2(_INDEX)
    eq_a = _expectation(0, POINTS, {0: (1, False)}, strategy) - _expectation(0, POINTS, {0: (1, True)}, strategy)
    eq_b = _expectation(0, POINTS, {0: (3, False)}, strategy) - _expectation(0, POINTS, {0: (3, True)}, strategy)
    eq_c = _expectation(1, POINTS, {1: (2, False)}, strategy) - _expectation(1, POINTS, {1: (2, True)}, strategy)
    return {"A": eq_a, "B": eq_b, "C": eq_c}


@cache
def value_expression() -> sympy.Expr:
    """Player I's expected payoff under the Figure 2 strategies, as a polynomial in ``A, B, C, b``."""
    return _expectation(0, POINTS, {}, _figure2(_INDEX))


@dataclass(frozen=True)
class ContinuousThreePlayer:
    """The cut points and Player I's value at one rational bet ``b``, exact.

    ``A, B, C`` and ``value`` are exact real algebraic numbers (or rationals);
    ``digits`` of each are certified by arb ball arithmetic.
    """

    b: Fraction
    A: Exact
    B: Exact
    C: Exact
    value: Exact
    minimal_polynomial_C: sympy.Expr
    digits: int

    def decimals(self) -> dict[str, str]:
        """``A, B, C`` and the value to :attr:`digits` certified significant digits."""
        return {name: _digits(getattr(self, name), self.digits) for name in ("A", "B", "C", "value")}

    def to_dict(self) -> dict[str, object]:
        return {
            "game": "three-player-continuous",
            "params": {"b": str(to_sympy(self.b)), "digits": self.digits},
            "cuts": {k: v for k, v in self.decimals().items() if k != "value"},
            "value": self.decimals()["value"],
            "exact": {name: str(_sympy(getattr(self, name))) for name in ("A", "B", "C", "value")},
            "minimal polynomial of C": str(self.minimal_polynomial_C),
        }

    def describe(self) -> str:
        d = self.decimals()
        return (
            f"three-player poker, continuous deck, b = {to_sympy(self.b)}\n"
            f"  I bets when x < A or x > B; II and III call when their hand > C\n"
            f"  A = {d['A']}\n  B = {d['B']}\n  C = {d['C']}\n  value (I) = {d['value']}\n"
            f"  C is the root of {self.minimal_polynomial_C} in (0, 1) with 0 < A < C < B < 1"
        )


def _digits(number: Exact, digits: int) -> str:
    if isinstance(number, Fraction):
        return str(sympy.N(to_sympy(number), digits))
    return number.digits(digits)


def _sympy(number: Exact) -> sympy.Expr:
    return to_sympy(number) if isinstance(number, Fraction) else number.to_sympy()


def _parse_digits(digits: object) -> int:
    from exactpoker.numbers import parse_int

    return parse_int(digits, "digits", 1, 10_000)


def _cuts_from_c(eqs: dict[str, sympy.Expr], c_value: Exact, bet: Exact) -> dict[sympy.Symbol, Exact] | None:
    """``B`` (gcd of Eq. B and Eq. A-with-C's eliminant) and ``A`` (Eq. C) at a root ``C``; ``None`` if invalid."""
    point: dict[sympy.Symbol, Exact] = {C: c_value, b: bet}
    # Eq. B is 3B^2 - 2BC - 1 = 0 (times a constant): B is its positive root; Eq. A and C fix A.
    eliminant = sympy.resultant(eqs["C"], eqs["A"], A)  # in B, C, b
    f = [evaluate(c, point) for c in sympy.Poly(eqs["B"], B).all_coeffs()]
    g = [evaluate(c, point) for c in sympy.Poly(eliminant, B).all_coeffs()]
    common = gcd(f, g)
    if len(common) != 2:
        return None
    point[B] = -common[1]
    lead, rest = (evaluate(c, point) for c in sympy.Poly(eqs["C"], A).all_coeffs())
    if lead == 0:
        return None
    point[A] = -rest / lead
    return point if 0 < point[A] < point[C] < point[B] < 1 else None


def solve(bet: object, digits: object = 50) -> ContinuousThreePlayer:
    """The equilibrium cut points and value for a rational bet ``b > 0``.

    Eq. A, B, C at this ``b`` are eliminated (lex Groebner basis) to one
    polynomial in ``C``; each real root in ``(0, 1)`` is tried, ``B`` and ``A``
    follow exactly, and the one with ``0 < A < C < B < 1`` is returned.

    Raises
    ------
    CertificationError
        If no root of the eliminated system satisfies ``0 < A < C < B < 1``.
    """
    bet = parse_positive(bet, "b")
    digits = _parse_digits(digits)
    eqs = {k: sympy.expand(e.subs(b, to_sympy(bet))) for k, e in equations().items()}
    basis = sympy.groebner(list(eqs.values()), A, B, C, order="lex", domain=sympy.QQ)
    (univariate,) = [g for g in basis.exprs if g.free_symbols <= {C}]
    for root in real_roots(sympy.Poly(univariate, C), Fraction(0), Fraction(1)):
        point = _cuts_from_c(eqs, root, bet)
        if point is not None:
            value = evaluate(value_expression(), point)
            return ContinuousThreePlayer(bet, point[A], point[B], point[C], value, minimal_polynomial(root, C), digits)
    raise CertificationError(f"three-player continuous: no solution with 0 < A < C < B < 1 at b = {bet}")


@dataclass(frozen=True)
class BestBet:
    """The bet ``b*`` that maximises Player I's equilibrium value, and that value.

    ``b`` is exact (an algebraic number with its minimal polynomial); the cut
    points and the value at ``b*`` are arb balls narrower than ``10**-digits``.
    """

    b: AlgebraicNumber
    value: arb
    A: arb
    B: arb
    C: arb
    minimal_polynomial_b: sympy.Expr
    digits: int

    def decimals(self) -> dict[str, str]:
        """``b*``, the value and the cut points to :attr:`digits` certified significant digits."""
        shown = {"b*": self.b.digits(self.digits)}
        for name in ("value", "A", "B", "C"):
            shown[name] = getattr(self, name).str(self.digits, radius=False)
        return shown

    def to_dict(self) -> dict[str, object]:
        d = self.decimals()
        return {
            "game": "three-player-continuous",
            "params": {"digits": self.digits},
            "best bet": d["b*"],
            "value": d["value"],
            "cuts": {name: d[name] for name in ("A", "B", "C")},
            "minimal polynomial of b*": str(self.minimal_polynomial_b),
        }

    def describe(self) -> str:
        d = self.decimals()
        return (f"best bet b* = {d['b*']}\nvalue (I)  = {d['value']}\n"
                f"A = {d['A']}\nB = {d['B']}\nC = {d['C']}\n"
                f"b* is the root near {float(self.b):.6f} of {self.minimal_polynomial_b}")


def _flint_poly(ctx: object, expr: sympy.Expr) -> object:
    poly = sympy.Poly(expr, A, B, C, b)
    return ctx.from_dict({m: fmpq(int(c.p), int(c.q)) for m, c in poly.terms()})  # type: ignore[attr-defined]


def _det(rows: list[list[object]]) -> object:
    if len(rows) == 1:
        return rows[0][0]
    return sum(((-1) ** j * rows[0][j] * _det([r[:j] + r[j + 1:] for r in rows[1:]]) for j in range(len(rows))),
               start=0 * rows[0][0])


def _to_sympy_poly(poly: object) -> sympy.Expr:
    return sympy.sympify(str(poly).replace("^", "**"), locals={"A": A, "B": B, "C": C, "b": b})


def _float_best_bet() -> float:
    """Where I's value peaks along the valid branch, in floating point (a guide for the exact step).

    The branch is followed from the exact solution at ``b = 2`` by Newton's
    method (mpmath) and ``V(b)`` is maximised by golden-section search.
    """
    import mpmath

    start = solve(2, digits=20)
    guess = [float(start.A), float(start.B), float(start.C)]
    system = sympy.lambdify([A, B, C, b], list(equations().values()), "mpmath")
    value = sympy.lambdify([A, B, C, b], value_expression(), "mpmath")

    def v(bet: float) -> float:
        root = mpmath.findroot(lambda p, q, r: system(p, q, r, bet), guess)
        return float(value(root[0], root[1], root[2], bet))

    low, high = 1.0, 4.0
    ratio = (5**0.5 - 1) / 2
    for _ in range(60):
        left, right = high - ratio * (high - low), low + ratio * (high - low)
        if v(left) < v(right):
            low = left
        else:
            high = right
    return (low + high) / 2


def best_bet(digits: object = 50) -> BestBet:
    """``b*`` maximising I's value, exactly: Eq. A, B, C with ``dV/db = 0``, eliminated to ``b``.

    Along the equilibrium curve ``F(A, B, C, b) = 0`` the value ``V`` is
    stationary in ``b`` exactly when the Jacobian of ``(F, V)`` with respect
    to ``(A, B, C, b)`` is singular.  Resultants (python-flint) eliminate
    ``A``, ``B``, ``C`` to one polynomial in ``b``.  A floating-point search
    along the valid branch says near which of its real roots the maximum
    lies; that root is taken exactly (an algebraic number with its minimal
    polynomial).  The cut points and the value at ``b*`` follow in ball
    arithmetic (:func:`_balls_at`), checked to satisfy ``0 < A < C < B < 1``.
    """
    digits = _parse_digits(digits)
    ctx = fmpq_mpoly_ctx.get(("A", "B", "C", "b"), "lex")
    eqs = equations()
    F = [_flint_poly(ctx, eqs[k]) for k in "ABC"]
    V = _flint_poly(ctx, value_expression())
    jacobian = _det([[f.derivative(i) for i in range(4)] for f in F + [V]])
    in_c = [F[2].resultant(g, "A").resultant(F[1], "B") for g in (F[0], jacobian)]
    eliminant = sympy.Poly(_to_sympy_poly(in_c[0].resultant(in_c[1], "C")), b)
    guide = Fraction(_float_best_bet()).limit_denominator(10**6)
    window = Fraction(1, 1000)
    candidates = real_roots(eliminant, guide - window, guide + window)
    if len(candidates) != 1:
        raise CertificationError(f"three-player continuous: {len(candidates)} critical bets near {float(guide)}")
    bet = candidates[0]
    factors = [_to_sympy_poly(f) for f, _m in in_c[0].factor()[1]]
    cuts, value = _balls_at(eqs, [f for f in factors if f.has(C)], bet, digits)
    return BestBet(bet, value, cuts[A], cuts[B], cuts[C], minimal_polynomial(bet, b), digits)


def _balls_at(
    eqs: dict[str, sympy.Expr], eliminants: list[sympy.Expr], bet: AlgebraicNumber, digits: int
) -> tuple[dict, arb]:
    """``A, B, C`` and the value at an algebraic bet, as arb balls narrower than ``10**-digits``.

    ``C`` is a root of a factor of the eliminant of Eq. A, B, C (polynomials
    in ``C`` whose coefficients are evaluated on a ball around ``b*``); python-flint's
    ``acb_poly.roots`` isolates its roots rigorously.  ``B`` is the root of
    Eq. B above ``C`` and ``A`` comes from Eq. C, in ball arithmetic; the
    root kept is the one where ``0 < A < C < B < 1`` holds for certain.
    """
    precision = int(digits * 3.33) + 64
    while True:
        old = flint_ctx.prec
        flint_ctx.prec = precision
        try:
            ball = bet.enclosure(digits + 30)
            found = next(filter(None, (_balls_at_precision(eqs, e, ball) for e in eliminants)), None)
        finally:
            flint_ctx.prec = old
        if found is not None and found[1].rad() < arb(10) ** (-digits - 2):
            return found
        precision *= 2
        if precision > 40 * digits + 4000:
            raise CertificationError("three-player continuous: could not separate the cut points at b*")


def _ball(expr: sympy.Expr, values: dict[sympy.Symbol, arb]) -> arb:
    poly = sympy.Poly(expr, *values)
    total = arb(0)
    for monomial, coefficient in poly.terms():
        term = arb(fmpq(int(coefficient.p), int(coefficient.q)))
        for symbol, power in zip(values, monomial):
            term *= values[symbol] ** power
        total += term
    return total


def _balls_at_precision(eqs: dict[str, sympy.Expr], eliminant: sympy.Expr, bet: arb) -> tuple[dict, arb] | None:
    coefficients = [_ball(c, {b: bet}) for c in reversed(sympy.Poly(eliminant, C).all_coeffs())]
    try:
        roots = acb_poly(coefficients).roots(tol=arb(2) ** (20 - flint_ctx.prec))
    except ValueError:
        return None
    for root in roots:
        if not root.imag.contains(0):
            continue
        c_value = root.real
        # Eq. B is quadratic in B: q2 B^2 + q1 B + q0 = 0; the root above C.
        q2, q1, q0 = (_ball(k, {C: c_value, b: bet}) for k in sympy.Poly(eqs["B"], B).all_coeffs())
        sqrt_disc = (q1 * q1 - 4 * q2 * q0).sqrt()
        for b_value in ((-q1 + sqrt_disc) / (2 * q2), (-q1 - sqrt_disc) / (2 * q2)):
            lead, rest = (_ball(k, {B: b_value, C: c_value, b: bet}) for k in sympy.Poly(eqs["C"], A).all_coeffs())
            a_value = -rest / lead
            if 0 < a_value and a_value < c_value and c_value < b_value and b_value < 1:
                value = _ball(value_expression(), {A: a_value, B: b_value, C: c_value, b: bet})
                return {A: a_value, B: b_value, C: c_value}, value
    return None
