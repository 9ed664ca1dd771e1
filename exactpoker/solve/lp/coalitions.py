"""The characteristic function of a zero-sum game: what each coalition can guarantee itself as a group.

For a coalition ``C`` of players, ``v(C)`` is the value of the two-person
zero-sum game between ``C`` and its complement, each side choosing a *joint*
pure strategy of its members (correlated randomisation allowed; each member
still sees only their own information, so a side of two or more does not have
perfect recall and behaviour strategies do not describe its play) (von
Neumann and Morgenstern 1944, chapter VI; seed 001 section 11).  The game being
zero-sum, the complement's value is ``-v(C)``.

Pure strategies are the reduced ones (distinct realization plans).  The
matrix games are large (81 x 25600 for a player of Nash--Shapley poker
against the other two), so they are solved float-guided, exact-finished
(:func:`_float_guided_value`: HiGHS picks a small sub-game, the exact simplex
solves it, and an exact check against every row and column of the whole game
accepts it or grows it).  If the guide fails the exact simplex
(:func:`~exactpoker.solve.lp.simplex.solve_matrix_game`) solves the whole game.
"""

from __future__ import annotations

import itertools
import string
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable

import numpy as np
import scipy.optimize

from exactpoker.core.compiled import CompiledGame
from exactpoker.errors import InvalidParameterError, NotZeroSumError
from exactpoker.numbers import exact_str
from exactpoker.solve.enumeration.pure import pure_realization
from exactpoker.solve.lp.simplex import solve_matrix_game

__all__ = ["CoalitionValue", "reduced_plans", "coalition_values"]


@dataclass(frozen=True)
class CoalitionValue:
    """``v(C)`` for one coalition (0-based players) and the number of joint pure strategies of each side."""

    coalition: tuple[int, ...]
    value: Fraction
    strategies: tuple[int, int]

    def to_dict(self) -> dict[str, object]:
        return {
            "coalition": [p + 1 for p in self.coalition],
            "value": exact_str(self.value),
            "joint pure strategies": {"coalition": self.strategies[0], "others": self.strategies[1]},
        }


def reduced_plans(g: CompiledGame, player: int) -> np.ndarray:
    """The distinct 0/1 realization plans of ``player``'s pure strategies (one row each)."""
    layout = g.layouts[player]
    choices = np.array(list(itertools.product(*[range(len(layout.infoset_sequences(i)))
                                                for i in range(layout.num_infosets)])))
    return np.unique(pure_realization(layout, choices), axis=0)


def coalition_values(g: CompiledGame, coalitions: Iterable[tuple[int, ...]] | None = None
                     ) -> dict[tuple[int, ...], CoalitionValue]:
    """``v(C)`` and ``v`` of its complement for each coalition ``C`` (default: every single player), in that order.

    One exact matrix game each, in the game's payoff units.

    Raises
    ------
    NotZeroSumError
        If the game is not zero-sum.
    InvalidParameterError
        If a coalition is empty, everyone, or names a player the game does not have.
    """
    if not g.is_zero_sum:
        raise NotZeroSumError("coalition_values(): the characteristic function here needs a zero-sum game")
    players = g.num_players
    plans = [reduced_plans(g, p) for p in range(players)]
    result = {}
    for coalition in coalitions if coalitions is not None else [(p,) for p in range(players)]:
        coalition = tuple(coalition)
        others = tuple(p for p in range(players) if p not in coalition)
        if not coalition or not others or not set(coalition) <= set(range(players)):
            raise InvalidParameterError(f"coalition_values(): a coalition must be some but not all of players "
                                        f"0..{players - 1}; got {coalition}")
        matrix = _coalition_matrix(g, plans, coalition, others)
        value = _float_guided_value(matrix)
        if value is None:  # the complement as the row player: its LP has one constraint per coalition strategy
            value = -solve_matrix_game((-matrix.T).tolist()).value
        value /= g.denominator
        result[coalition] = CoalitionValue(coalition, value, (matrix.shape[0], matrix.shape[1]))
        result[others] = CoalitionValue(others, -value, (matrix.shape[1], matrix.shape[0]))
    return result


def _coalition_matrix(g: CompiledGame, plans: list[np.ndarray], coalition: tuple[int, ...], others: tuple[int, ...]
                      ) -> np.ndarray:
    """Coalition payoff numerators (over ``g.denominator``): rows its joint strategies, columns the others'."""
    weights = g.coefficients[:, list(coalition)].sum(axis=1).astype(np.int64)
    # entry (i, j, k, ...) of the players' table: sum_e w_e x1[i, s1e] x2[j, s2e] x3[k, s3e] ...
    letters = string.ascii_lowercase[8:8 + g.num_players]
    spec = "e," + ",".join(f"{letter}e" for letter in letters) + "->" + letters
    table = np.einsum(spec, weights, *(plan[:, g.sequences[:, p]] for p, plan in enumerate(plans)), optimize=True)
    table = np.transpose(table, coalition + others)
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
    tight = set(np.flatnonzero(slack < 1e-7))
    keep_cols = sorted(set(j for j in range(cols) if abs(lp.ineqlin.marginals[j]) > 1e-9) | tight)
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
