"""von Neumann poker with a continuous deck: the paper's presentation of the continuous engine's answer.

Seed 000, section 1 ("The von Neumann advice").  Hands ``x`` (player I) and
``y`` (player II) are uniform on ``[0, 1]``; both ante 1; I checks (the higher
hand wins 1) or bets ``b``; II folds (I wins 1) or calls (the higher hand wins
``b + 1``).  In von Neumann's solution I bets when ``x < A`` (a bluff) or
``x > B`` and checks in between; II calls when ``y > C``, with
``0 < A < C < B < 1``.

Nothing here is typed in from the paper, not even that shape: the rules are
seed 000's finite game (:func:`exactpoker.games.von_neumann.game`) with a
continuous deck, and the engine (:mod:`exactpoker.solve.continuous`) reads
the shape from exact finite decks, solves its system and certifies the
answer at every hand.  :func:`solve_symbolic` asks the engine for the piece
of ``b`` through ``b = 2`` (:func:`~exactpoker.solve.continuous.over.piece_around`):
the cut points and the value as rational functions of ``b``, certified for
every ``b`` of the piece, which must be all ``b > 0``.  This module only
checks that the answer has von Neumann's form and names its cut points
``A``, ``B``, ``C``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import sympy

from exactpoker.errors import CertificationError
from exactpoker.numbers import parse_positive, to_sympy

__all__ = ["ContinuousVonNeumannSolution", "solve_symbolic", "solve", "best_bet"]

b = sympy.Symbol("b", positive=True)
OPEN, RESPOND = "open", "facing a bet"


@dataclass(frozen=True)
class ContinuousVonNeumannSolution:
    """Cut points and value; ``b`` is a positive symbol or a rational."""

    b: sympy.Expr
    A: sympy.Expr
    B: sympy.Expr
    C: sympy.Expr
    value: sympy.Expr
    certified: bool

    def to_dict(self) -> dict[str, object]:
        return {
            "game": "von-neumann-continuous",
            "params": {"b": str(self.b)},
            "cuts": {"A": str(self.A), "B": str(self.B), "C": str(self.C)},
            "value": str(self.value),
            "certified": self.certified,
        }

    def advice(self) -> str:
        """The solution in plain words, as the paper states it."""
        return (
            f"Player I: if 0 < x < {self.A} or {self.B} < x < 1 you should bet, otherwise check.\n"
            f"Player II: if 0 < y < {self.C} you should fold, otherwise call.\n"
            f"The value of the game (for Player I) is {self.value}."
        )


def _rules(bet: Fraction) -> Any:
    from exactpoker.games.von_neumann import game

    return game(3, bet)


def _paper_form(strategies: dict[str, dict[str, list[Any]]]) -> None:
    """Raise unless I bets, checks, bets and II folds, calls (von Neumann's form)."""
    shape = ([piece.action for piece in strategies["I"][OPEN]], [piece.action for piece in strategies["II"][RESPOND]])
    if shape != (["bet", "check", "bet"], ["fold", "call"]):
        raise CertificationError(f"continuous von Neumann: the certified equilibrium is not von Neumann's form: {shape}")


@cache
def solve_symbolic() -> ContinuousVonNeumannSolution:
    """The solution for a symbolic bet ``b > 0``: cut points and value as rational functions, certified for all ``b``."""
    from exactpoker.algebraic import RealAlgebraic
    from exactpoker.solve.continuous.over import piece_around

    piece = piece_around(_rules, "b", Fraction(2))
    if piece.start != RealAlgebraic.rational(Fraction(0)) or piece.end is not None:
        raise CertificationError(f"continuous von Neumann: the certified piece is [{piece.start}, {piece.end}], "
                                 f"not every b > 0")
    _paper_form(piece.strategies)
    named = {str(k): v.subs(sympy.Symbol("b"), b) for k, v in piece.cuts.items()}
    cuts = [named[f"I:{OPEN}:1"], named[f"I:{OPEN}:2"], named[f"II:{RESPOND}:1"]]
    return ContinuousVonNeumannSolution(b, *cuts, piece.value.subs(sympy.Symbol("b"), b), True)


def solve(bet: object) -> ContinuousVonNeumannSolution:
    """The solution at one rational bet size (``"5/2"``, ``Fraction(5, 2)``, ``2``; floats are refused).

    The engine solves the game at this bet and certifies it at every hand.
    """
    from exactpoker.solve.continuous import solve_continuous

    value_b = parse_positive(bet, "b")
    result = solve_continuous(_rules(value_b))
    _paper_form(result.strategies)
    cuts = [to_sympy(result.cut(*key)) for key in (("I", OPEN, 1), ("I", OPEN, 2), ("II", RESPOND, 1))]
    return ContinuousVonNeumannSolution(to_sympy(value_b), *cuts, to_sympy(result.value), True)


def best_bet() -> tuple[sympy.Expr, sympy.Expr]:
    """The bet size maximizing player I's value, and that value (calculus on the symbolic value)."""
    value = solve_symbolic().value
    critical = [r for r in sympy.solve(sympy.diff(value, b), b) if r.is_positive]
    if len(critical) != 1 or not sympy.diff(value, b, 2).subs(b, critical[0]) < 0:
        raise CertificationError(f"continuous von Neumann: no unique maximizing bet; critical points {critical}")
    # the value tends to 0 as b -> 0 and as b -> oo, so the one critical point is the global maximum
    if sympy.limit(value, b, 0) != 0 or sympy.limit(value, b, sympy.oo) != 0:
        raise CertificationError("continuous von Neumann: the value does not vanish at the ends")
    return critical[0], sympy.simplify(value.subs(b, critical[0]))
