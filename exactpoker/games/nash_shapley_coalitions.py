"""Nash--Shapley poker: the characteristic function of the coalition game (section 11).

Seed 001, section 11.  For each coalition ``C`` of the three players, ``v(C)``
is the most ``C`` can guarantee itself as a group, whatever the others do:
the value of the two-person zero-sum game between ``C`` and its complement,
each side choosing a *joint* pure strategy of its members (correlated
randomisation allowed; each member still sees only their own card, so a
two-player side does not have perfect recall, which is why behaviour
coefficients do not describe its play -- the paper's footnote 20).

Pure strategies are the reduced ones of section 4 (81, 100 and 256: distinct
realization plans).  The matrix games are large (81 x 25600 for ``{1}``
against ``{2, 3}``), so they are solved float-guided, exact-finished
(:func:`_float_guided_value`: HiGHS picks a small sub-game, the exact simplex
solves it, and an exact check against every row and column of the whole
game accepts it or grows it).  If the guide fails the exact simplex
(:func:`~exactpoker.solve.lp.simplex.solve_matrix_game`) solves the whole game.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import scipy.optimize

from exactpoker.core import CompiledGame
from exactpoker.games import nash_shapley as ns
from exactpoker.numbers import parse_positive
from exactpoker.solve.enumeration.pure import pure_realization
from exactpoker.solve.lp.simplex import solve_matrix_game

__all__ = ["CoalitionValue", "reduced_plans", "characteristic_function"]


@dataclass(frozen=True)
class CoalitionValue:
    """``v(C)`` for one coalition and the number of joint pure strategies of each side."""

    coalition: tuple[int, ...]
    value: Fraction
    strategies: tuple[int, int]

    def to_dict(self) -> dict[str, object]:
        from exactpoker.numbers import exact_str

        return {
            "coalition": [p + 1 for p in self.coalition],
            "value": exact_str(self.value),
            "joint pure strategies": {"coalition": self.strategies[0], "others": self.strategies[1]},
        }


def reduced_plans(g: CompiledGame, player: int) -> np.ndarray:
    """The distinct 0/1 realization plans of ``player``'s pure strategies (one row each)."""
    layout = g.layouts[player]
    choices = np.array(list(itertools.product(*[range(len(layout.infoset_sequences(i))) for i in range(layout.num_infosets)])))
    return np.unique(pure_realization(layout, choices), axis=0)


def _coalition_matrix(g: CompiledGame, coalition: tuple[int, ...]) -> np.ndarray:
    """Coalition payoff numerators (over ``g.denominator``): rows its joint strategies, columns the others'."""
    plans = [reduced_plans(g, p) for p in range(3)]
    weights = g.coefficients[:, list(coalition)].sum(axis=1).astype(np.int64)
    # entry (i, j, k) of the three-way table: sum_e w_e x1[i, s1e] x2[j, s2e] x3[k, s3e]
    s1, s2, s3 = (g.sequences[:, p] for p in range(3))
    table = np.einsum("e,ie,je,ke->ijk", weights, plans[0][:, s1], plans[1][:, s2], plans[2][:, s3], optimize=True)
    others = tuple(p for p in range(3) if p not in coalition)
    order = coalition + others
    table = np.transpose(table, order)
    rows = int(np.prod([len(plans[p]) for p in coalition]))
    return table.reshape(rows, -1)


def _float_guided_value(matrix: np.ndarray, rounds: int = 60) -> Fraction | None:
    """The exact value of the zero-sum game ``matrix`` (row player maximizes), or ``None`` if the guide fails.

    HiGHS solves the game in floating point; its supports (plus the columns
    nearly tight against the row mixture) give a small sub-game, solved by
    the exact simplex.  Its optimal mixtures are checked exactly against every
    row and column of the whole game; violated rows or columns join the
    sub-game and it is solved again (row and column generation), so the value
    returned is exact and certified.
    """
    rows, cols = matrix.shape
    c = np.zeros(rows + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-matrix.T.astype(float), np.ones((cols, 1))])
    a_eq = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    bounds = [(0, None)] * rows + [(None, None)]
    lp = scipy.optimize.linprog(c, A_ub=a_ub, b_ub=np.zeros(cols), A_eq=a_eq, b_eq=[1.0], bounds=bounds, method="highs")
    if lp.status != 0:
        return None
    slack = matrix.T.astype(float) @ lp.x[:rows] - lp.x[-1]
    keep_rows = sorted(i for i in range(rows) if lp.x[i] > 1e-9)
    keep_cols = sorted(set(j for j in range(cols) if abs(lp.ineqlin.marginals[j]) > 1e-9) | set(np.flatnonzero(slack < 1e-7)))
    exact = matrix.astype(object)
    for _ in range(rounds):
        sub = solve_matrix_game(exact[np.ix_(keep_rows, keep_cols)].tolist())
        x = np.array(sub.row_strategy, dtype=object)
        y = np.array(sub.column_strategy, dtype=object)
        against_rows = x @ exact[keep_rows, :]  # the row mixture's payoff per column
        against_cols = exact[:, keep_cols] @ y  # each row's payoff against the column mixture
        bad_cols = [j for j in np.argsort([float(v) for v in against_rows])[:5] if against_rows[j] < sub.value]
        bad_rows = [i for i in np.argsort([-float(v) for v in against_cols])[:5] if against_cols[i] > sub.value]
        if not bad_cols and not bad_rows:
            return sub.value
        keep_cols = sorted(set(keep_cols) | set(int(j) for j in bad_cols))
        keep_rows = sorted(set(keep_rows) | set(int(i) for i in bad_rows))
    return None


def characteristic_function(
    a: object, b: object, *, singles: tuple[int, ...] = (0, 1, 2)
) -> dict[tuple[int, ...], CoalitionValue]:
    """``v(C)`` for the proper nonempty coalitions (0-based players); ``v`` of all is 0.

    Each single player ``p`` in ``singles`` gives ``v({p})`` and, the game being
    zero-sum, ``v`` of the other two, ``-v({p})``: one LP each.

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
    result = {}
    for single in singles:
        coalition = (single,)
        matrix = _coalition_matrix(g, coalition)
        # The larger side (the pair) as the row player: its LP has one constraint per single strategy.
        value = _float_guided_value(matrix)
        if value is None:  # the pair as the row player: its LP has one constraint per single strategy
            value = -solve_matrix_game((-matrix.T).tolist()).value
        pair = tuple(p for p in range(3) if p not in coalition)
        pair_value = -value / g.denominator * unit
        result[coalition] = CoalitionValue(coalition, -pair_value, (matrix.shape[0], matrix.shape[1]))
        result[pair] = CoalitionValue(pair, pair_value, (matrix.shape[1], matrix.shape[0]))
    return result
