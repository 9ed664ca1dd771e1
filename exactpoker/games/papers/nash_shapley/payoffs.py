"""Nash--Shapley three-person poker: the paper's payoffs and discriminants, derived from the rules.

Seed 001 (J. F. Nash and L. S. Shapley, "A Simple Three-Person Poker Game",
Annals of Mathematics Studies 24, 1950), sections 3-6.  The rules are
:mod:`exactpoker.games.nash_shapley` (``game`` and ``compiled`` are re-exported
here).  Everything below is *derived* from them by the engine's one builder:

:data:`COEFFICIENTS`
    The paper's 24 behaviour coefficients (section 4): the probability of
    betting (opening or calling) per player, situation and card.  This table
    is the paper's naming convention, not a result.
:func:`game`, :func:`compiled`
    The :class:`~exactpoker.core.game.BettingGame` and its compiled form.
:func:`bid_sequences`, :func:`payoff_vectors`, :func:`strategy_counts`
    Section 3's 13 bid sequences and payoff vectors, section 4's counts of
    pure strategies (81, 100, 256; 18, 20, 32 without folding on High).
:func:`payoff_polynomials`, :func:`discriminants`
    ``P_1, P_2, P_3`` as exact polynomials in ``a, b`` and the coefficients,
    and section 6's discriminants ``Delta_u = 16 dP_k(u)/du``.
:func:`situation_reach`
    The probability (times 16) that a coefficient's situation arises:
    zero means the coefficient is irrelevant (section 5).
:func:`evaluate`
    Payoffs and discriminants at a point, exactly, also at an irrational
    ``a/b`` (algebraic stakes).

Note: the core compiler's pot shares are exact only for integer stakes when
ties are split (it scales payoffs by the split counts but not by the stakes'
denominators), so the solvers compile the game at ``(a, b) = (p, q)`` for
``a/b = p/q`` in lowest terms and rescale the values.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

import sympy

if TYPE_CHECKING:  # pragma: no cover
    from flint import fmpq_mpoly

from exactpoker.core import Decision, Outcome, PlayerLayout, compile_game
from exactpoker.games.nash_shapley import HIGH, LOW, NAME, OPEN, PLAYERS, compiled, game, node, stakes_game
from exactpoker.core.support_system import gain_polynomials

__all__ = [
    "NAME",
    "PLAYERS",
    "LOW",
    "HIGH",
    "COEFFICIENTS",
    "SYMBOLS",
    "OWNER",
    "a",
    "b",
    "game",
    "compiled",
    "bid_sequences",
    "payoff_vectors",
    "strategy_counts",
    "payoff_polynomials",
    "payoff_multilinears",
    "discriminants",
    "situation_reach",
    "irrelevance_value",
    "evaluate",
    "best_deviation_gains",
]


#: The paper's behaviour coefficients (section 4): ``(player, situation, card) -> name``,
#: the probability of betting there.  Situations are named by the bids so far.
COEFFICIENTS: dict[tuple[int, str, int], str] = {}
for _letters, _player, _situation in (
    ("alpha beta", 0, OPEN),
    ("gamma delta", 1, "B"),
    ("epsilon zeta", 1, "P"),
    ("eta theta", 2, "BB"),
    ("iota kappa", 2, "BP"),
    ("lambda mu", 2, "PB"),
    ("nu xi", 2, "PP"),
    ("omicron pi", 0, "PBB"),
    ("rho sigma", 0, "PBP"),
    ("tau upsilon", 0, "PPB"),
    ("phi chi", 1, "PPBB"),
    ("psi omega", 1, "PPBP"),
):
    _high, _low = _letters.split()
    COEFFICIENTS[(_player, _situation, HIGH)] = _high
    COEFFICIENTS[(_player, _situation, LOW)] = _low

_ORDER = (
    "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu "
    "nu xi omicron pi rho sigma tau upsilon phi chi psi omega"
).split()
#: The coefficients as sympy symbols, in the paper's (alphabetical) order.
SYMBOLS: dict[str, sympy.Symbol] = {name: sympy.Symbol(name) for name in _ORDER}
#: The player (0-based) who controls each coefficient.
OWNER: dict[str, int] = {name: player for (player, _, _), name in COEFFICIENTS.items()}
a, b = sympy.symbols("a b", positive=True)


def _leaves(node: Decision | Outcome, history: str = "") -> list[tuple[str, Outcome]]:
    if isinstance(node, Outcome):
        return [(history, node)]
    return [leaf for (name, child) in node.actions for leaf in _leaves(child, history + ("B" if name in ("bet", "call") else "P"))]


def bid_sequences() -> list[str]:
    """The possible sequences of bids, read off the betting tree (section 3: there are 13)."""
    return [history for history, _ in _leaves(stakes_game(Fraction(1), Fraction(1)).root)]


def payoff_vectors() -> list[tuple[sympy.Expr, ...]]:
    """The distinct payoff vectors in ``a, b`` over all bid sequences and deals, up to permutation.

    Payoffs are linear in ``(a, b)``, so each leaf is evaluated at ``(1, 0)``
    and ``(0, 1)`` and the two combined.
    """
    unit_a, unit_b = (_leaves(stakes_game(*units).root) for units in ((Fraction(1), Fraction(0)), (Fraction(0), Fraction(1))))
    deals = [(c1, c2, c3) for c1 in (LOW, HIGH) for c2 in (LOW, HIGH) for c3 in (LOW, HIGH)]
    vectors = set()
    for (_, leaf_a), (_, leaf_b) in zip(unit_a, unit_b):
        for deal in deals:
            pa, pb = leaf_a.payoffs(deal), leaf_b.payoffs(deal)
            vector = tuple(sympy.Rational(x.numerator, x.denominator) * a + sympy.Rational(y.numerator, y.denominator) * b
                           for x, y in zip(pa, pb))
            vectors.add(tuple(sorted(vector, key=sympy.default_sort_key)))
    return sorted(vectors, key=lambda v: [sympy.default_sort_key(x) for x in v])


def strategy_counts(*, fold_on_high: bool = True) -> tuple[int, ...]:
    """Each player's number of pure strategies in the reduced sense of section 4.

    Two strategies that differ only at situations their own earlier moves
    rule out count once.  With ``fold_on_high=False`` folding with a High card
    is forbidden.
    """
    layouts = compiled(1, 1).layouts

    def ways(layout: PlayerLayout, sequence: int, card: int) -> int:
        """Reduced plans below ``sequence`` for a player holding ``card``."""
        result = 1
        for infoset in layout.children[sequence]:
            held, label = layout.infoset_card_label(infoset)
            if held != card:
                continue
            allowed = [
                s
                for s, action in zip(layout.infoset_sequences(infoset), layout.actions[label])
                if fold_on_high or not (card == HIGH and action == "fold")
            ]
            result *= sum(ways(layout, s, card) for s in allowed)
        return result

    return tuple(ways(layout, 0, LOW) * ways(layout, 0, HIGH) for layout in layouts)


Multilinear = dict[int, Fraction]  # monomial (bitmask over SYMBOLS) -> coefficient
_BIT = {name: 1 << k for k, name in enumerate(SYMBOLS)}


@cache
def _multilinear_payoffs() -> tuple[tuple[Multilinear, Multilinear], ...]:
    """Per player, the payoff's coefficient of ``a`` and of ``b`` as multilinear polynomials.

    The compiled game at ``(a, b) = (1, 0)`` and ``(0, 1)`` (payoffs are linear in the stakes), every
    coefficient an unknown of the engine's one builder
    (:func:`exactpoker.core.support_system.gain_polynomials`), written on bitmasks over :data:`SYMBOLS`.
    """
    per_unit = []
    for units in ((Fraction(1), Fraction(0)), (Fraction(0), Fraction(1))):
        g = compile_game(stakes_game(*units))
        bits = [_BIT[COEFFICIENTS[(p, layout.labels[layout.infoset_card_label(i)[1]], layout.infoset_card_label(i)[0])]]
                for p, layout in enumerate(g.layouts) for i in range(layout.num_infosets)]
        system = gain_polynomials(g, [0] * len(bits), list(range(len(bits))))
        per_unit.append([_bitmask(payoff, bits) for payoff in system.payoffs])
    return tuple((per_unit[0][p], per_unit[1][p]) for p in range(3))


def _bitmask(poly: "fmpq_mpoly", bits: list[int]) -> Multilinear:
    """A multilinear ``fmpq_mpoly`` (generator ``i`` the coefficient of bit ``bits[i]``) as a bitmask dictionary."""
    out: Multilinear = {}
    for exponents, coefficient in poly.terms():
        monomial = sum(bit for bit, e in zip(bits, exponents) if e)
        out[monomial] = Fraction(int(coefficient.p), int(coefficient.q))
    return out


def payoff_multilinears(ante: object, bet: object) -> tuple[dict[int, object], ...]:
    """``P_1, P_2, P_3`` at these stakes as multilinear polynomials: monomial bitmask -> coefficient.

    Bit ``k`` of a monomial is the ``k``-th coefficient of :data:`SYMBOLS`;
    ``ante`` and ``bet`` are exact numbers (the payoffs are linear in them).
    """
    result = []
    for pa, pb in _multilinear_payoffs():
        poly: dict[int, object] = {}
        for part, stake in ((pa, ante), (pb, bet)):
            for m, c in part.items():
                poly[m] = poly.get(m, 0) + stake * c  # type: ignore[operator]
        result.append({m: c for m, c in poly.items() if c})
    return tuple(result)


def _to_sympy(poly_a: Multilinear, poly_b: Multilinear) -> sympy.Expr:
    """``a * poly_a + b * poly_b`` as an expanded sympy expression."""
    symbols = list(SYMBOLS.values())
    terms = []
    for stake, poly in ((a, poly_a), (b, poly_b)):
        for m, c in poly.items():
            monomial = sympy.Mul(*[s for k, s in enumerate(symbols) if m >> k & 1])
            terms.append(sympy.Rational(c.numerator, c.denominator) * stake * monomial)
    return sympy.Add(*terms)


@cache
def payoff_polynomials() -> tuple[sympy.Expr, sympy.Expr, sympy.Expr]:
    """``P_1, P_2, P_3``: each player's expected payoff, expanded, in ``a, b`` and the 24 coefficients.

    Built from the compiled game's sequence-form entries (the same sum as
    :meth:`~exactpoker.core.compiled.CompiledGame.payoff_polynomials`, done on
    bitmask dictionaries for speed).
    """
    return tuple(_to_sympy(pa, pb) for pa, pb in _multilinear_payoffs())  # type: ignore[return-value]


@cache
def discriminants() -> dict[str, sympy.Expr]:
    """``Delta_u = 16 dP_k(u)/du`` for every coefficient ``u`` (section 6), expanded."""
    result = {}
    for name, bit in _BIT.items():
        parts = []
        for unit in _multilinear_payoffs()[OWNER[name]]:
            parts.append({m & ~bit: 16 * c for m, c in unit.items() if m & bit})
        result[name] = _to_sympy(parts[0], parts[1])
    return result


def _evaluate(poly: Multilinear, values: dict[str, object]) -> object:
    total: object = 0
    for m, c in poly.items():
        term: object = c
        for name, bit in _BIT.items():
            if m & bit:
                term = term * values[name]  # type: ignore[operator]
        total = total + term  # type: ignore[operator]
    return total


def evaluate(values: dict[str, object], ante: object, bet: object) -> tuple[tuple[object, ...], dict[str, object]]:
    """Payoffs ``P_1, P_2, P_3`` and all discriminants at a point, in exact arithmetic.

    ``values`` maps every coefficient to an exact number; ``ante`` and ``bet``
    may be rationals or :class:`~exactpoker.algebraic.AlgebraicNumber` s (of the
    same field as the values), so this also works at an irrational ``a/b``
    such as ``A_2``, where the compiled game (rational stakes) cannot be built.
    """
    units = _multilinear_payoffs()
    payoffs = tuple(ante * _evaluate(pa, values) + bet * _evaluate(pb, values) for pa, pb in units)  # type: ignore[operator]
    deltas = {}
    for name, bit in _BIT.items():
        pa, pb = ({m & ~bit: 16 * c for m, c in unit.items() if m & bit} for unit in units[OWNER[name]])
        deltas[name] = ante * _evaluate(pa, values) + bet * _evaluate(pb, values)  # type: ignore[operator]
    return payoffs, deltas


def best_deviation_gains(values: dict[str, object], ante: object, bet: object) -> tuple[object, ...]:
    """Each player's largest gain from changing any of his coefficients at once, exactly.

    ``P_k`` is multilinear in player ``k``'s own eight coefficients (each
    appears at most once in every term), so its maximum over his behaviour
    strategies, the cube ``[0, 1]^8``, is at one of the 256 vertices: the
    point is an equilibrium exactly when every returned gain is ``<= 0``.
    Works in any exact arithmetic, like :func:`evaluate` (e.g. in ``Q(A_2)``
    at an irrational ``a/b``, where the compiled game cannot be built).
    """
    gains = []
    for player, payoff in enumerate(payoff_multilinears(ante, bet)):
        own = [name for name in SYMBOLS if OWNER[name] == player]
        reduced: dict[int, object] = {}  # the others' coefficients put in: a polynomial in the own ones
        for m, c in payoff.items():
            term: object = c
            for name, bit in _BIT.items():
                if m & bit and OWNER[name] != player:
                    term = term * values[name]  # type: ignore[operator]
            key = m & sum(_BIT[name] for name in own)
            reduced[key] = reduced.get(key, 0) + term  # type: ignore[operator]
        own_bits = sum(_BIT[name] for name in own)
        at_point = _evaluate(reduced, values)
        best = None
        for vertex in range(1 << len(own)):
            chosen = sum(_BIT[name] for k, name in enumerate(own) if vertex >> k & 1)
            value = sum((c for m, c in reduced.items() if m & own_bits & ~chosen == 0), 0)
            best = value if best is None or value > best else best  # type: ignore[operator]
        gains.append(best - at_point)  # type: ignore[operator]
    return tuple(gains)


def irrelevance_value(name: str) -> int:
    """Section 5's convention for an irrelevant coefficient: 1 on a High card, 0 on a Low card."""
    return next(1 if card == HIGH else 0 for (_, _, card), n in COEFFICIENTS.items() if n == name)


@cache
def situation_reach() -> dict[str, sympy.Expr]:
    """For each coefficient, 16 times the probability that its situation arises.

    The sum, over the deals in which the coefficient's player holds its card,
    of the product of the bidding probabilities along the bids that lead to
    the situation (section 5: zero means the coefficient is irrelevant).
    """
    reach = {}
    for (player, situation, card), name in COEFFICIENTS.items():
        total = sympy.Integer(0)
        for deal in [(c1, c2, c3) for c1 in (LOW, HIGH) for c2 in (LOW, HIGH) for c3 in (LOW, HIGH)]:
            if deal[player] != card:
                continue
            term = sympy.Integer(2)  # 16 / 8 deals
            history = "" if situation == OPEN else situation
            for k, bid in enumerate(history):
                mover, seen = _mover(history[:k])
                u = SYMBOLS[COEFFICIENTS[(mover, seen, deal[mover])]]
                term *= u if bid == "B" else 1 - u
            total += term
        reach[name] = sympy.expand(total)
    return reach


def _mover(history: str) -> tuple[int, str]:
    """Who bids after ``history``, and that situation's name."""
    found = node(history, Fraction(1), Fraction(1))
    assert isinstance(found, Decision)
    return found.player, found.label
