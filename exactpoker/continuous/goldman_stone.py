"""Goldman--Stone symmetric poker with a continuous deck: the paper's presentation of the continuous engine's answer.

Seed 002 (A. J. Goldman and J. J. Stone, "A Symmetric Continuous Poker
Model", 1960).  Players R and S ante 1, get hands uniform on ``[0, 1]`` and
choose simultaneously one of four courses of action: (1) drop, (2) bet ``b``
(folding to ``a``), (3) bet ``b`` (seeing ``a``), (4) bet ``a``; ``a > b > 1``.

Nothing here is typed in from the paper (its results are test expectations),
not even the shape of Lemma 8: the rules are the finite game of
:func:`exactpoker.games.goldman_stone.game` (the two players' decisions share
one label: simultaneous moves) with a continuous deck, and the engine
(:mod:`exactpoker.solve.continuous`) finds the shape from exact finite decks,
solves its system and certifies the answer at every hand.

* :func:`payoff_tables` reads figures 1 and 2 (R's payoff for every pair of
  courses, R's hand higher / lower) off the rules' leaves.
* :func:`solve` is the engine at rational ``a > b > 1``; :func:`solve_symbolic`
  takes the shape the engine certifies at ``a = 3, b = 2`` (drop on ``[0, g]``;
  courses 2 and 4 mixed on ``(g, g')``; course 4 on ``(g', 1]``), writes its
  system with ``a`` and ``b`` as symbols (the engine's payoffs), solves it over
  ``Q(a, b)`` and proves every condition of the engine's certificate (a
  rational function of ``a, b``) nonnegative for all ``a > b > 1`` at once by
  :func:`positive_on_region`.  The result is Lemma 8.
* ``G[i][j]`` is the paper's ``G_{i+1}(z)`` on the ``j``-th piece: R's payoff,
  using the optimal strategy, against S holding ``z`` and playing course ``i``
  (the engine's value of S's course, negated: the game is zero-sum).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import sympy

from exactpoker.errors import CertificationError
from exactpoker.numbers import to_sympy

__all__ = [
    "a", "b", "z",
    "GoldmanStoneSolution",
    "payoff_tables",
    "solve_symbolic",
    "solve",
    "positive_on_region",
    "von_neumann_limit",
]

a = sympy.Symbol("a", positive=True)
b = sympy.Symbol("b", positive=True)
z = sympy.Symbol("z", real=True)
s_, t_ = sympy.symbols("s t", positive=True)  # b = 1 + s, a = b + t
CHOOSE = "choose"
#: The courses of the optimal strategy on its three pieces (0-based): drop; b-fold and a; a.
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


def _rules(bet_a: object, bet_b: object) -> Any:
    from exactpoker.games.goldman_stone import game

    return game(2, bet_a, bet_b)


@cache
def _model() -> Any:
    """The rules with ``a`` and ``b`` symbols (contributions affine in both, read at four points)."""
    from exactpoker.core.continuous_deck import continuous_deck
    from exactpoker.solve.continuous.model import parametric_model

    points = [(Fraction(3), Fraction(2)), (Fraction(4), Fraction(2)), (Fraction(3), Fraction(5, 2)),
              (Fraction(5), Fraction(3))]
    return parametric_model(lambda x, y: continuous_deck(_rules(x, y)).rules, (a, b), points)


def payoff_tables(A: sympy.Expr = a, B: sympy.Expr = b) -> tuple[sympy.Matrix, sympy.Matrix]:
    """Figures 1 and 2 from the rules' leaves: R's payoff, rows R's course, columns S's; (R higher, S higher)."""
    model = _model()
    tables = []
    for r_higher in (True, False):
        rows = [[sympy.Integer(0)] * 4 for _ in range(4)]
        for leaf in model.leaves:
            (_, mine), (_, theirs) = leaf.steps
            pot = sum(leaf.contributions)
            wins = 0 in leaf.active and (len(leaf.active) == 1 or (leaf.showdown and r_higher))
            shared = not leaf.showdown and len(leaf.active) > 1
            share = pot / len(leaf.active) if shared else (pot if wins else 0)
            rows[mine][theirs] = sympy.expand((share - leaf.contributions[0]).subs({a: A, b: B}))
        tables.append(sympy.Matrix(rows))
    return tables[0], tables[1]


def _paper_form(result: Any) -> None:
    """Raise unless R and S play alike: drop, then b-fold mixed with a, then a (Lemma 8's form)."""
    if result.strategy_dict()["I"][CHOOSE] != result.strategy_dict()["II"][CHOOSE]:
        raise CertificationError("goldman-stone: the certified equilibrium is not symmetric")
    supports = [[tuple(name for name, p in piece.probabilities if p != 0) for piece in result.strategies[player][CHOOSE]]
                for player in ("I", "II")]
    wanted = [("drop",), ("b-fold", "a"), ("a",)]
    if supports != [wanted, wanted]:
        raise CertificationError(f"goldman-stone: the certified equilibrium is not of Lemma 8's form: {supports}")


def _solution(model: Any, pieces: list[Any], A: sympy.Expr, B: sympy.Expr, certified: bool) -> GoldmanStoneSolution:
    """The paper's quantities of a certified symmetric profile of Lemma 8's shape, given by R's three intervals."""
    from exactpoker.solve.continuous.payoffs import action_values, values
    from exactpoker.solve.continuous.profile import PiecewiseProfile

    breaks = tuple(sympy.factor(sympy.sympify(g)) for g in (pieces[0].start, pieces[1].start, pieces[2].start, 1))
    rows = tuple(tuple(sympy.factor(sympy.sympify(p)) for _name, p in piece.probabilities) for piece in pieces)
    profile = PiecewiseProfile(breaks, (rows, rows))
    table = action_values(model, profile, 1)
    G = [[sympy.factor(-sum((sympy.sympify(c) * z**k for k, c in enumerate(table[(1, i)][j])), sympy.Integer(0)))
          for j in range(3)] for i in range(4)]
    R = tuple(sympy.factor(sum((rows[j][i] * (breaks[j + 1] - breaks[j]) for j in range(3)), sympy.Integer(0)))
              for i in range(4))
    value = sympy.factor(sympy.sympify(values(model, profile)[0]))
    return GoldmanStoneSolution(A, B, breaks[1], breaks[2], rows[1], R, G, value, certified)


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


@cache
def solve_symbolic() -> GoldmanStoneSolution:
    """Lemma 8 for symbolic ``a > b > 1``, certified optimal for all of them at once (module docstring)."""
    from exactpoker.solve.continuous import solve_continuous
    from exactpoker.solve.continuous.equations import shape_equations
    from exactpoker.solve.continuous.over import certificate_conditions
    from exactpoker.solve.continuous.result import pieces_of
    from exactpoker.solve.continuous.system import solve_in_symbols

    found = solve_continuous(_rules(3, 2))
    _paper_form(found)
    model, shape = _model(), found.solved.shape
    unknowns = shape.unknowns()
    functions = solve_in_symbols(shape_equations(model, shape), unknowns, found.solved.values,
                                 {a: Fraction(3), b: Fraction(2)})
    if functions is None:
        raise CertificationError("goldman-stone: the certified shape's system has no solution over Q(a, b)")
    profile = shape.profile([4, 4], functions).map(sympy.cancel)
    conditions, _count = certificate_conditions(model, profile)
    if not all(positive_on_region(c) for c in conditions):
        raise CertificationError("goldman-stone: the symbolic solution failed its check for some a > b > 1")
    pieces = pieces_of(model, profile, model.index(0, CHOOSE), nonempty=lambda x, y: sympy.cancel(y - x) != 0)
    return _solution(model, pieces, a, b, True)


def solve(bet_a: object, bet_b: object, *, check: bool = True) -> GoldmanStoneSolution:
    """The solution at rational ``a > b > 1``: found and certified by the engine at those numbers.

    With ``check=False`` the general solution is only substituted (faster).
    """
    from exactpoker.games.goldman_stone import parse_bets

    fa, fb = parse_bets(bet_a, bet_b)
    A, B = to_sympy(fa), to_sympy(fb)
    if check:
        from exactpoker.solve.continuous import solve_continuous

        found = solve_continuous(_rules(fa, fb))
        _paper_form(found)
        return _solution(found.model, found.strategies["I"][CHOOSE], A, B, found.certificate.holds)
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
