"""Zero-sum card games decided by who holds the higher card, solved in O(n) memory.

The games: cards ``1..n`` are dealt to players I and II without replacement;
I, seeing card ``i``, takes one of ``A`` actions ``a``; after some actions
the hand ends, after the others II, seeing card ``j``, makes one binary
decision ``c`` whose label ``L(a)`` may differ from action to action (her
information set is her card and the label).  I's payoff is ``u(a, c, h)``
with ``h = 1`` when I holds the higher card.  Von Neumann poker (seed 000,
section 2: the card-by-card LP ``vnMNE``) has two actions and one label;
Newman poker (section 3: ``djnMNE``) has ``b + 1`` actions and one label per
bet size.  A behaviour strategy is ``p[i][a]`` (I takes ``a`` with card
``i``) and ``q[L][j]`` (II takes action 1 at label ``L`` with card ``j``).

Because a payoff depends on the cards only through ``sign(i - j)``, every sum
over the opponent's cards splits into the cards below and the cards above,
so the ``n x n`` payoff is never formed.  The usual pipeline, each stage on
that structure:

* float stage: II's card-by-card LP with cumulative variables
  (:func:`exactpoker.solve.lp.sign_games_lp.responder_lp`, at most four
  nonzeros per row), solved by HiGHS for an optimal basis;
* exact stage: the vertex and its duals recomputed exactly from that basis
  (:func:`exactpoker.solve.lp.basis.solve_from_basis`, sparse exact LU): II's
  strategy is the vertex, I's the duals;
* certificate: each player's exact payoff and best-response value by integer
  prefix sums over one common denominator (:func:`certify_sign_game`).  The
  best response is separable by card, so it checks every deviation: it is
  the same check as :func:`exactpoker.certify.verify`, which the tests
  compare it with.

All pure equilibria of the two-action games are enumerated by
:mod:`exactpoker.solve.enumeration.sign_games_pure`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate
from typing import Sequence

from exactpoker.certify import Certificate, PlayerCheck
from exactpoker.core.game import BettingGame, Decision, Node, Outcome

__all__ = ["SignGame", "SignProfile", "sign_game", "certify_sign_game"]

Payoffs = tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction]]  # u[c][h] of one action of I


@dataclass(frozen=True)
class SignGame:
    """A game of the kind above.

    Attributes
    ----------
    n : int
        Number of cards.
    u : tuple
        ``u[a][c][h]``: I's payoff when I takes ``a``, II takes ``c`` and
        ``h = 1`` if I holds the higher card, ``h = 0`` if II does (the same
        for both ``c`` when ``a`` ends the hand).
    responses : tuple of int or None
        For each action of I, the index in ``labels`` of II's decision that
        follows it, or ``None`` when the hand ends.
    opening : str
        The label of I's decision.
    labels : tuple of str
        The labels of II's decisions.
    names : tuple of str
        The players' names.
    """

    n: int
    u: tuple[Payoffs, ...]
    responses: tuple[int | None, ...]
    opening: str = "open"
    labels: tuple[str, ...] = ()
    names: tuple[str, str] = ("I", "II")

    @property
    def num_actions(self) -> int:
        return len(self.u)

    def scaled(self) -> tuple[int, list[list[list[int]]]]:
        """``(U, uu)`` with ``uu = U * u`` all integers."""
        scale = math.lcm(*(v.denominator for row in self.u for pair in row for v in pair))
        return scale, [[[int(v * scale) for v in pair] for pair in row] for row in self.u]

    def actions_of(self, label: int) -> list[int]:
        """I's actions after which II decides at ``labels[label]``."""
        return [a for a, r in enumerate(self.responses) if r == label]


@dataclass(frozen=True)
class SignProfile:
    """A behaviour profile: ``p[i-1][a]`` for I's card ``i``, ``q[L][j-1]`` for II's label ``L`` and card ``j``."""

    p: tuple[tuple[Fraction, ...], ...]
    q: tuple[tuple[Fraction, ...], ...]

    @classmethod
    def binary(cls, first: Sequence[object], second: Sequence[object]) -> "SignProfile":
        """The profile of a two-action game from the probabilities of I's action 1 and II's action 1 per card."""
        p = tuple((1 - Fraction(x), Fraction(x)) for x in first)
        return cls(p, (tuple(Fraction(y) for y in second),))

    def tables(self, g: SignGame) -> list[dict[str, list]]:
        """Per-player ``{label: per-card probabilities}``, as :meth:`BehaviourProfile.from_layout_tables` takes them."""
        return [{g.opening: [list(row) for row in self.p]}, dict(zip(g.labels, (list(row) for row in self.q)))]


def sign_game(game: BettingGame) -> SignGame | None:
    """The :class:`SignGame` of ``game``, or ``None`` when it is not of this kind.

    The kind: two players, a deck without replacement, I decides first, and
    each of I's actions ends in a showdown or fold, or in one binary decision
    of II whose actions end the hand.
    """
    root = game.root
    if game.num_players != 2 or game.deck.replacement or not isinstance(root, Decision) or root.player != 0:
        return None
    labels: list[str] = []
    u, responses = [], []
    for _, child in root.actions:
        leaves = _second_moves(child)
        if leaves is None:
            return None
        if isinstance(child, Decision):
            if child.label not in labels:
                labels.append(child.label)
            responses.append(labels.index(child.label))
        else:
            responses.append(None)
        u.append(tuple((leaf.payoffs((1, 2))[0], leaf.payoffs((2, 1))[0]) for leaf in leaves))
    return SignGame(game.deck.cards, tuple(u), tuple(responses), root.label, tuple(labels),  # type: ignore[arg-type]
                    tuple(game.player_names))  # type: ignore[arg-type]


def _second_moves(node: Node) -> tuple[Outcome, Outcome] | None:
    """The outcomes after II's action 0 and 1 (the same one twice when II does not move)."""
    if isinstance(node, Outcome):
        return node, node
    if isinstance(node, Decision) and node.player == 1 and len(node.actions) == 2:
        if all(isinstance(child, Outcome) for _, child in node.actions):
            return node.actions[0][1], node.actions[1][1]  # type: ignore[return-value]
    return None


# -- the certificate -------------------------------------------------------------------------------


def certify_sign_game(g: SignGame, profile: SignProfile) -> Certificate:
    """Each player's exact payoff and best-response value at ``profile``.

    The best response is taken card by card (each card, with each label for
    II, is its own information set), against the opponent's exact strategy;
    all sums are prefix sums of integers over one common denominator.
    """
    n = g.n
    scale, uu = g.scaled()
    pairs = n * (n - 1)
    d_q, q_num = _numerators([x for row in profile.q for x in row])
    q_rows = [q_num[k * n:(k + 1) * n] for k in range(len(g.labels))]
    d_p, p_num = _numerators([x for row in profile.p for x in row])
    p_cols = [p_num[a::g.num_actions] for a in range(g.num_actions)]
    # I's card i, action a, in units 1 / (scale d_q): sum over j != i of uu(a,0,h) + q_j (uu(a,1,h) - uu(a,0,h))
    first = []
    for a, label in enumerate(g.responses):
        row = [d_q * ((i - 1) * uu[a][0][1] + (n - i) * uu[a][0][0]) for i in range(1, n + 1)]
        if label is not None:
            low, high = _below_above(q_rows[label])
            up, down = uu[a][1][1] - uu[a][0][1], uu[a][1][0] - uu[a][0][0]
            row = [r + up * lo + down * hi for r, lo, hi in zip(row, low, high)]
        first.append(row)
    # II's card j, in units 1 / (scale d_p): what I's actions ending the hand give, and per label and action c
    below_above = [_below_above(column) for column in p_cols]
    fixed = [0] * n
    for a, label in enumerate(g.responses):
        if label is None:
            low, high = below_above[a]
            fixed = [f + uu[a][0][0] * lo + uu[a][0][1] * hi for f, lo, hi in zip(fixed, low, high)]
    second = []
    for label in range(len(g.labels)):
        by_action = []
        for c in (0, 1):
            row = [0] * n
            for a in g.actions_of(label):
                low, high = below_above[a]
                row = [r + uu[a][c][0] * lo + uu[a][c][1] * hi for r, lo, hi in zip(row, low, high)]
            by_action.append(row)
        second.append(by_action)
    payoff_i = Fraction(sum(p * v for a in range(g.num_actions) for p, v in zip(p_cols[a], first[a])),
                        scale * d_q * d_p * pairs)
    best_i = Fraction(sum(map(max, *first)) if len(first) > 1 else sum(first[0]), scale * d_q * pairs)
    against_q = d_q * sum(fixed) + sum((d_q - q) * zero + q * one
                                       for (zero, one), row in zip(second, q_rows) for zero, one, q in zip(zero, one, row))
    payoff_ii = -Fraction(against_q, scale * d_p * d_q * pairs)
    worst = sum(fixed) + sum(sum(map(min, zero, one)) for zero, one in second)
    best_ii = -Fraction(worst, scale * d_p * pairs)
    return Certificate((PlayerCheck(g.names[0], payoff_i, best_i), PlayerCheck(g.names[1], payoff_ii, best_ii)))


def _numerators(values: Sequence[Fraction]) -> tuple[int, list[int]]:
    """One common denominator ``d`` and the integers ``d * v``."""
    d = math.lcm(*(Fraction(v).denominator for v in values)) if values else 1
    return d, [int(Fraction(v) * d) for v in values]


def _below_above(values: list[int]) -> tuple[list[int], list[int]]:
    """``low[k-1] = sum of values of cards < k`` and ``high[k-1] = sum over cards > k``, for ``k = 1..n``."""
    prefix = [0, *accumulate(values)]
    total = prefix[-1]
    return prefix[:-1], [total - prefix[k] for k in range(1, len(values) + 1)]

