"""Nash--Shapley poker: the characteristic function of the coalition game (seed 001, section 11).

For each coalition ``C`` of the three players, ``v(C)`` is the most ``C``
can guarantee itself as a group, whatever the others do: the value of the
two-person zero-sum game between ``C`` and its complement, each side choosing
a *joint* pure strategy of its members (the paper's footnote 20: a two-player
side does not have perfect recall).  The rules are
:mod:`exactpoker.games.papers.nash_shapley.payoffs`; the values come from
:func:`exactpoker.solve.coalition_values` (reduced pure strategies: 81, 100
and 256 distinct realization plans; the matrix games, up to 81 x 25600, solved
float-guided and exact-finished).
"""

from __future__ import annotations

from dataclasses import replace

from exactpoker.games.papers.nash_shapley import payoffs as ns
from exactpoker.numbers import parse_positive
from exactpoker.solve import CoalitionValue, coalition_values

__all__ = ["characteristic_function"]


def characteristic_function(
    a: object, b: object, *, singles: tuple[int, ...] = (0, 1, 2)
) -> dict[tuple[int, ...], CoalitionValue]:
    """``v(C)`` for the proper nonempty coalitions (0-based players); ``v`` of all is 0.

    Each single player ``p`` in ``singles`` gives ``v({p})`` and, the game being
    zero-sum, ``v`` of the other two, ``-v({p})``: one LP each.  The game is
    solved with integer stakes (ante ``a/b`` in lowest terms ``p/q``, bet
    ``q``) and the values scaled back by ``b/q``.

    Examples
    --------
    >>> v = characteristic_function(1, 1)  # doctest: +SKIP
    >>> v[(0,)].value                        # doctest: +SKIP
    Fraction(-1, 12)
    """
    ante, bet = parse_positive(a, "a"), parse_positive(b, "b")
    ratio = ante / bet
    g = ns.compiled(ratio.numerator, ratio.denominator)  # integer stakes; payoffs in units of b/q
    unit = bet / ratio.denominator
    values = coalition_values(g, [(single,) for single in singles])
    return {coalition: replace(v, value=v.value * unit) for coalition, v in values.items()}
