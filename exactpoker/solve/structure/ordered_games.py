"""Three-player card games decided by the order of the cards, evaluated in O(n).

The games: cards ``1..n`` are dealt to players I, II and III without
replacement; I, seeing his card, takes one of two actions; after one of them
the hand ends, after the other II and III each take one of two actions,
neither seeing the other's choice (one decision label each).  Every payoff
depends on the cards only through their order.  Three-player poker (seed
000, section 4, the paper's ``FastMNE``) is one.  A behaviour profile is,
per player, the probability of action 1 with each card.

Every quantity the equilibrium search needs is, for each card ``c`` of one
player, a sum over the other two players' distinct cards ``x`` and ``y``
(both ``!= c``) of ``a_x b_y`` times a payoff that depends on which of the
six orders ``c, x, y`` are in.  Each of the six sums is a prefix sum
(:func:`_pair_sums`): e.g. ``sum_{x < y < c} a_x b_y`` is the prefix sum over
``y`` of ``b_y A(< y)``, and ``sum_{c < x < y} a_x b_y`` is the suffix sum of
the same products minus ``A(<= c) B(> c)``.  So each player's action values,
gains, payoff and best-response value take O(n) operations instead of the
``n^3`` deals of the compiled game, in any arithmetic: floats for the guide,
exact numbers for the certificate (the same check as
:func:`exactpoker.certify.verify`, which the tests compare it with), and
polynomials in the free probabilities for the indifference equations
(:class:`OrderedModel`, the model :func:`exactpoker.solve.nplayer.support_search.locate_equilibrium`
searches supports with).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import permutations
from typing import Any, Callable, Sequence

import numpy as np

from exactpoker.algebraic import to_fmpq
from exactpoker.certify import Certificate, PlayerCheck
from exactpoker.core.game import BettingGame, Decision, Node, Outcome

__all__ = ["OrderedGame", "OrderedModel", "ordered_game", "action_values", "gains", "float_gaps", "certify_ordered"]

ORDERS = tuple(permutations(range(3)))  # each player's rank among the three cards (0 = lowest)


@dataclass(frozen=True)
class OrderedGame:
    """A game of the kind above.

    Attributes
    ----------
    n : int
        Number of cards.
    payoffs : dict
        ``payoffs[(a0, a1, a2)][ranks]``: every player's payoff when the
        players take actions ``a0, a1, a2`` (II's and III's are ignored after
        I's action that ends the hand) and their cards have ``ranks``.
    labels : tuple of str
        Each player's decision label.
    names : tuple of str
        The players' names.
    """

    n: int
    payoffs: dict[tuple[int, int, int], dict[tuple[int, ...], tuple[Fraction, ...]]]
    labels: tuple[str, str, str]
    names: tuple[str, str, str]
    #: the card sums' coefficients per (player, action, number type), filled once by :func:`_coefficients`
    coefficients: dict[tuple, list] = field(default_factory=dict, compare=False, repr=False)


def ordered_game(game: BettingGame) -> OrderedGame | None:
    """The :class:`OrderedGame` of ``game``, or ``None`` when it is not of this kind."""
    root = game.root
    if game.num_players != 3 or game.deck.replacement or game.deck.cards < 3:
        return None
    if not isinstance(root, Decision) or root.player != 0 or len(root.actions) != 2:
        return None
    labels: list[set[str]] = [{root.label}, set(), set()]
    leaves: dict[tuple[int, int, int], Outcome] = {}
    for a0, (_, child) in enumerate(root.actions):
        for a1 in (0, 1):
            for a2 in (0, 1):
                leaf = _leaf(child, (a1, a2), labels)
                if leaf is None:
                    return None
                leaves[(a0, a1, a2)] = leaf
    if any(len(found) != 1 for found in labels):  # each player decides at one label
        return None
    payoffs = {actions: {ranks: tuple(leaf.payoffs(tuple(r + 1 for r in ranks))) for ranks in ORDERS}
               for actions, leaf in leaves.items()}
    names = tuple(next(iter(found), "") for found in labels)
    return OrderedGame(game.deck.cards, payoffs, names, tuple(game.player_names))  # type: ignore[arg-type]


def _leaf(node: Node, actions: tuple[int, int], labels: list[set[str]]) -> Outcome | None:
    """The outcome after II's and III's ``actions`` (II decides first, then III at one label whatever II did)."""
    for player in (1, 2):
        if isinstance(node, Outcome):
            return node
        if not isinstance(node, Decision) or node.player != player or len(node.actions) != 2:
            return None
        labels[player].add(node.label)
        node = node.actions[actions[player - 1]][1]
    return node if isinstance(node, Outcome) else None


# -- sums over the other two players' cards ------------------------------------------------------


def _prefix(values: np.ndarray) -> np.ndarray:
    """``out[c] = sum of values[k] for k < c``."""
    out = np.empty(len(values), dtype=values.dtype)
    out[0] = 0
    out[1:] = np.cumsum(values[:-1])
    return out


def _suffix(values: np.ndarray) -> np.ndarray:
    """``out[c] = sum of values[k] for k > c``."""
    return _prefix(values[::-1])[::-1]


def _pair_sums(a: np.ndarray, b: np.ndarray) -> dict[tuple[int, int, int], np.ndarray]:
    """For every card ``c``: ``sum a_x b_y`` over distinct ``x, y != c``, split by the order of ``c, x, y``.

    Keys are the ranks ``(c, x, y)`` among the three (0 = lowest).
    """
    a_below, b_below, a_above, b_above = _prefix(a), _prefix(b), _suffix(a), _suffix(b)
    return {
        (2, 0, 1): _prefix(b * a_below),                                 # x < y < c
        (2, 1, 0): _prefix(a * b_below),                                 # y < x < c
        (1, 0, 2): a_below * b_above,                                    # x < c < y
        (1, 2, 0): a_above * b_below,                                    # y < c < x
        (0, 1, 2): _suffix(b * a_below) - (a_below + a) * b_above,       # c < x < y
        (0, 2, 1): _suffix(a * b_below) - (b_below + b) * a_above,       # c < y < x
    }


def action_values(g: OrderedGame, player: int, action: int, behaviour: Sequence[np.ndarray],
                  number: Callable[[Fraction], Any] = float) -> np.ndarray:
    """For each card of ``player``: the sum over the deals with that card of their payoff when ``player`` takes ``action``.

    The other players play ``behaviour`` (per player, the probability of
    action 1 per card); the entries are of the behaviour's type (floats,
    exact numbers or polynomials), and ``number`` turns a payoff into that
    type.  Dividing by ``n (n-1) (n-2)`` gives the expected payoff's share of
    that card.
    """
    return _card_sums(g, player, action, behaviour, number)


def gains(g: OrderedGame, player: int, behaviour: Sequence[np.ndarray],
          number: Callable[[Fraction], Any] = float) -> np.ndarray:
    """:func:`action_values` of action 1 minus those of action 0, in one pass (the payoffs are subtracted first)."""
    return _card_sums(g, player, None, behaviour, number)


def _payoff(g: OrderedGame, player: int, action: int | None, order: tuple[int, ...], others: dict[int, int]
            ) -> Fraction:
    """``player``'s payoff when he takes ``action`` (``None``: action 1's payoff minus action 0's), the others take
    ``others`` (player -> action), cards in ``order``."""
    if action is None:
        return _payoff(g, player, 1, order, others) - _payoff(g, player, 0, order, others)
    actions = [action if q == player else others[q] for q in range(3)]
    return g.payoffs[tuple(actions)][order][player]  # type: ignore[index]


def _coefficients(g: OrderedGame, player: int, action: int | None,
                  number: Callable[[Fraction], Any]) -> list[tuple[tuple[int, int, int], tuple[int, int], Any]]:
    """The nonzero terms ``(ranks, (a_x, a_y), coefficient)`` of :func:`_card_sums`, once per game.

    ``action`` is ``player``'s action, or ``None`` for action 1's payoff minus
    action 0's; the coefficients are turned into ``number``'s type once and
    kept in ``g.coefficients`` (the guide asks for the same ones every step).
    """
    key = (player, action, number)
    if key not in g.coefficients:
        x, y = (q for q in range(3) if q != player)
        terms = []
        for ranks in ORDERS:
            order = [0, 0, 0]
            order[player], order[x], order[y] = ranks
            table = {(a_x, a_y): _payoff(g, player, action, tuple(order), {x: a_x, y: a_y})
                     for a_x in (0, 1) for a_y in (0, 1)}
            coefficients = {(0, 0): table[(0, 0)], (1, 0): table[(1, 0)] - table[(0, 0)],
                            (0, 1): table[(0, 1)] - table[(0, 0)],
                            (1, 1): table[(1, 1)] - table[(1, 0)] - table[(0, 1)] + table[(0, 0)]}
            terms.extend((ranks, weight, number(c)) for weight, c in coefficients.items() if c)
        g.coefficients[key] = terms
    return g.coefficients[key]


def _card_sums(g: OrderedGame, player: int, action: int | None, behaviour: Sequence[np.ndarray],
               number: Callable[[Fraction], Any]) -> np.ndarray:
    """Per card ``c`` of ``player``: the sum over ``x, y`` of the payoff of ``action`` weighted by the others' behaviour.

    The payoff (``action``'s, or action 1's minus action 0's when ``action``
    is ``None``) is multilinear in the others' probabilities of action 1, so
    per order it is ``T00 + (T10 - T00) s_x + (T01 - T00) s_y + (T11 - T10 -
    T01 + T00) s_x s_y``, and each term is a :func:`_pair_sums` entry.
    """
    x, y = (q for q in range(3) if q != player)
    s_x, s_y = behaviour[x], behaviour[y]
    ones = np.ones(g.n, dtype=s_x.dtype) if s_x.dtype != object else np.array([1] * g.n, dtype=object)
    weights = {(0, 0): (ones, ones), (1, 0): (s_x, ones), (0, 1): (ones, s_y), (1, 1): (s_x, s_y)}
    sums: dict[tuple[int, int], dict[tuple[int, int, int], np.ndarray]] = {}
    total = None
    for ranks, key, coefficient in _coefficients(g, player, action, number):
        if key not in sums:
            sums[key] = _pair_sums(*weights[key])
        term = sums[key][ranks] * coefficient
        total = term if total is None else total + term
    return total if total is not None else np.zeros(g.n, dtype=s_x.dtype)


def float_gaps(g: OrderedGame, behaviour: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Per player and card: the value of action 1 minus action 0 (floats; counterfactual, summed over deals)."""
    floats = [np.asarray(row, dtype=np.float64) for row in behaviour]
    return [gains(g, p, floats) for p in range(3)]


def certify_ordered(g: OrderedGame, behaviour: Sequence[Sequence[Any]]) -> Certificate:
    """Each player's exact payoff and best-response value (card by card) at ``behaviour``.

    With ``v0`` a card's value of action 0 and ``d`` its gain, the card
    contributes ``v0 + s d`` to the payoff and ``v0 + max(d, 0)`` to the best
    response (each card is its own information set).
    """
    exact = [_objects(row) for row in behaviour]
    deals = g.n * (g.n - 1) * (g.n - 2)
    checks = []
    for p in range(3):
        zero, gain = action_values(g, p, 0, exact, Fraction), gains(g, p, exact, Fraction)
        base = sum(zero, Fraction(0))
        payoff = base + sum((s * d for s, d in zip(exact[p], gain) if s and d), Fraction(0))
        best = base + sum((d for d in gain if d > 0), Fraction(0))
        checks.append(PlayerCheck(g.names[p], payoff * Fraction(1, deals), best * Fraction(1, deals)))
    return Certificate(tuple(checks))


def _objects(values: Sequence[Any]) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    for k, v in enumerate(values):
        out[k] = v
    return out


# -- the support search's model ------------------------------------------------------------------


class OrderedModel:
    """What :func:`exactpoker.solve.nplayer.support_search.locate_equilibrium` needs of a game, by the prefix sums above.

    Gaps are divided by the number of deals, as the compiled game's are, so
    both models read tolerances alike; the gap polynomials are computed with
    python-flint polynomials in the free probabilities and handed over as
    sympy expressions.
    """

    def __init__(self, game: OrderedGame) -> None:
        self.game = game
        self.deals = game.n * (game.n - 1) * (game.n - 2)
        self.sizes = (game.n,) * 3
        self.scale = float(max(abs(v) for table in game.payoffs.values() for row in table.values() for v in row)) / game.n

    def float_gaps(self, behaviour: Sequence[np.ndarray]) -> list[np.ndarray]:
        return [gap / self.deals for gap in float_gaps(self.game, behaviour)]

    def gap_polynomials(self, support: Any, ties: Any, infosets: Sequence[tuple[int, int]] | None = None) -> tuple:
        import sympy
        from flint import fmpq, fmpq_mpoly_ctx

        from exactpoker.core.support_system import IndifferenceSystem, symbolic_behaviour

        behaviour, variables, symbols, alias = symbolic_behaviour(support, ties or {})
        names = tuple(str(symbol) for symbol in symbols)
        ctx = fmpq_mpoly_ctx.get(names or ("unused",), "lex")
        generators = dict(zip(symbols, ctx.gens()))
        rows = [_objects([generators[v] if v in generators else fmpq(int(v.p), int(v.q)) for v in row])
                for row in behaviour]
        wanted = list(alias) if infosets is None else list(infosets)
        locals_ = {name: symbol for name, symbol in zip(names, symbols)}
        gaps = {}
        for p in sorted({p for p, _ in wanted}):
            gap = gains(self.game, p, rows, to_fmpq)
            for q, h in wanted:
                if q == p:
                    gaps[(p, h)] = sympy.sympify(str(gap[h]), locals=locals_) if gap[h] != 0 else sympy.Integer(0)
        system = IndifferenceSystem(tuple(variables), tuple(symbols), (), tuple(alias.items()))
        return gaps, symbols, system

    def certify(self, behaviour: Sequence[Sequence[Any]]) -> tuple[Any, Certificate]:
        from exactpoker.core.profile import BehaviourProfile

        profile = BehaviourProfile(tuple(tuple((1 - x, x) for x in row) for row in behaviour))
        return profile, certify_ordered(self.game, behaviour)
