"""All pure Nash equilibria of a two-player compiled game, by exhaustive best responses.

A pure strategy chooses one action at every information set.  A pure profile
is an equilibrium when each player's strategy is a best response to the
other's.  Two exact methods, which the tests check against each other:

``"brute-force"``
    Build both players' full strategic-form payoff matrices (every pure
    strategy against every pure strategy, exact integers) and keep the cells
    that are best in their column for player I and best in their row for
    player II (seed 000 section 1: the paper's PayTable and vnNE).

``"separable"``
    When every information set of both players is a first decision (each
    player moves at most once in any play), a player's payoff against a pure
    opponent is a sum over their own information sets, so the set of best
    responses is the *product* of the optimal action sets at each
    information set.  We enumerate the smaller player's pure strategies in
    vectorized chunks, form the opponent's best-response product for each,
    and test each of its members for the reverse condition, instead of
    scanning a ``2^n x 2^n`` table.

Payoffs are integers over the compiled denominator, so every comparison is
exact.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Iterator, Literal

import numpy as np

from exactpoker.core.compiled import CompiledGame, PlayerLayout
from exactpoker.errors import InvalidParameterError, NotZeroSumError

__all__ = [
    "PureProfile",
    "pure_equilibria",
    "strategic_form",
    "pure_realization",
    "strategy_count",
    "all_choices",
    "matrix_pure_equilibria",
    "choice_payoffs",
]

PureMethod = Literal["auto", "separable", "brute-force"]
_CHUNK = 1 << 15
_BRUTE_FORCE_CELLS = 1 << 24


@dataclass(frozen=True)
class PureProfile:
    """A pure equilibrium: an action index per information set, per player, and the payoffs."""

    choices: tuple[tuple[int, ...], ...]
    payoffs: tuple[Fraction, ...]


def strategy_count(layout: PlayerLayout) -> int:
    """The number of pure strategies: the product of the action counts over information sets."""
    count = 1
    for infoset in range(layout.num_infosets):
        count *= len(layout.infoset_sequences(infoset))
    return count


def pure_realization(layout: PlayerLayout, choices: np.ndarray) -> np.ndarray:
    """0/1 realization weights of pure strategies (one row of action indices per strategy)."""
    rows = choices.shape[0]
    weights = np.zeros((rows, layout.num_sequences), dtype=np.int64)
    weights[:, 0] = 1
    if all(layout.parent_sequence(i) == 0 for i in range(layout.num_infosets)):  # every move a first move
        firsts = np.array([layout.infoset_sequences(i)[0] for i in range(layout.num_infosets)], dtype=np.int64)
        weights[np.arange(rows)[:, None], firsts[None, :] + choices.astype(np.int64)] = 1
        return weights
    for infoset in range(layout.num_infosets):
        first = layout.infoset_sequences(infoset)[0]
        parent = weights[:, layout.parent_sequence(infoset)]
        weights[np.arange(rows), first + choices[:, infoset]] = parent
    return weights


def all_choices(layout: PlayerLayout, start: int, stop: int) -> np.ndarray:
    """Pure strategies number ``start..stop-1`` in mixed-radix order (last information set fastest)."""
    radices = [len(layout.infoset_sequences(i)) for i in range(layout.num_infosets)]
    codes = np.arange(start, stop, dtype=np.int64)
    choices = np.empty((len(codes), len(radices)), dtype=np.int64)
    for i in reversed(range(len(radices))):
        choices[:, i] = codes % radices[i]
        codes //= radices[i]
    return choices


def _payoff_matrices(compiled: CompiledGame) -> tuple[np.ndarray, np.ndarray]:
    """Dense integer sequence-form payoff matrices of both players (rows: player I's sequences)."""
    first, second = compiled.layouts
    mats = []
    for p in range(2):
        mat = np.zeros((first.num_sequences, second.num_sequences), dtype=object)
        np.add.at(mat, (compiled.sequences[:, 0], compiled.sequences[:, 1]), compiled.coefficients[:, p])
        mats.append(_narrow(mat))
    return mats[0], mats[1]


def _weighted(weights: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """``weights @ matrix`` for 0/1 realization weights, by float64 BLAS when that is exact.

    Every term is an integer of absolute value at most ``max |matrix|``; when
    ``inner * max |matrix| < 2^53`` every partial sum is an integer that
    float64 represents exactly, so the product is the exact integer one.
    """
    if matrix.dtype == np.int64 and matrix.size and int(np.abs(matrix).max()) * matrix.shape[0] < 2**53:
        return (weights.astype(np.float64) @ matrix.astype(np.float64)).astype(np.int64)
    return weights @ matrix


def _narrow(mat: np.ndarray) -> np.ndarray:
    """int64 when the entries are small enough that sums over one strategy cannot overflow."""
    if mat.size == 0 or max(abs(int(v)) for v in mat.flat) * max(mat.shape) < 2**62:
        return mat.astype(np.int64)
    return mat


def strategic_form(compiled: CompiledGame) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Full strategic form: choices of each player and both payoff matrices (numerators over ``D``)."""
    first, second = compiled.layouts
    cells = strategy_count(first) * strategy_count(second)
    if cells > _BRUTE_FORCE_CELLS:
        raise InvalidParameterError(
            f"strategic_form(): the table would have {cells} cells (limit {_BRUTE_FORCE_CELLS}); "
            "use the separable method or a smaller deck"
        )
    rows = all_choices(first, 0, strategy_count(first))
    cols = all_choices(second, 0, strategy_count(second))
    a1, a2 = _payoff_matrices(compiled)
    x, y = pure_realization(first, rows), pure_realization(second, cols)
    return rows, cols, x @ a1 @ y.T, x @ a2 @ y.T


def choice_payoffs(compiled: CompiledGame, first: np.ndarray, second: np.ndarray, player: int = 0) -> np.ndarray:
    """``player``'s payoff numerators (over ``D``; player I's by default) for chosen pure strategies of both players.

    ``first`` and ``second`` hold one row of action indices (one per
    information set) per pure strategy, as in :func:`strategic_form`; the
    result has one row per strategy of ``first`` and one column per strategy
    of ``second``.  Use it for a game restricted to a few pure strategies.
    """
    payoffs = _payoff_matrices(compiled)[player]
    return pure_realization(compiled.layouts[0], first) @ payoffs @ pure_realization(compiled.layouts[1], second).T


def matrix_pure_equilibria(m1: np.ndarray, m2: np.ndarray) -> list[tuple[int, int]]:
    """Cells ``(i, j)`` where row ``i`` is a best response to column ``j`` and vice versa."""
    row_best = m1 == m1.max(axis=0, keepdims=True)
    col_best = m2 == m2.max(axis=1, keepdims=True)
    return [(int(i), int(j)) for i, j in zip(*np.nonzero(row_best & col_best))]


Progress = Callable[[int, int], None]


def pure_equilibria(
    compiled: CompiledGame, *, method: PureMethod = "auto", progress: Progress | None = None
) -> list[PureProfile]:
    """Every pure Nash equilibrium of a two-player compiled game, in a canonical order.

    Parameters
    ----------
    compiled : CompiledGame
        A two-player game (zero-sum or not).
    method : {"auto", "separable", "brute-force"}
        ``"auto"`` uses ``"separable"`` when both players move at most once in
        every play, else ``"brute-force"``.
    progress : callable, optional
        Called as ``progress(done, total)`` after each chunk of the separable
        enumeration (strategies of the enumerated player).

    Returns
    -------
    list of PureProfile
        Sorted by player I's choices, then player II's.
    """
    if compiled.num_players != 2:
        raise NotZeroSumError(f"pure_equilibria(): game must have two players; got {compiled.num_players}")
    separable = all(
        all(layout.parent_sequence(i) == 0 for i in range(layout.num_infosets)) for layout in compiled.layouts
    )
    if method == "auto":
        method = "separable" if separable else "brute-force"
    if method == "separable" and not separable:
        raise InvalidParameterError(
            "pure_equilibria(): method='separable' needs every player to move at most once per play; "
            "use method='brute-force'"
        )
    if method == "brute-force":
        found = _brute_force(compiled)
    elif method == "separable":
        found = _separable(compiled, progress)
    else:
        raise InvalidParameterError(f"pure_equilibria(): unknown method {method!r}")
    matrices = _payoff_matrices(compiled)
    return [_profile(compiled, matrices, c1, c2) for c1, c2 in sorted(set(found))]


def _brute_force(compiled: CompiledGame) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    rows, cols, m1, m2 = strategic_form(compiled)
    return [(tuple(rows[i].tolist()), tuple(cols[j].tolist())) for i, j in matrix_pure_equilibria(m1, m2)]


def _separable(compiled: CompiledGame, progress: Progress | None) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    a1, a2 = _payoff_matrices(compiled)
    first, second = compiled.layouts
    if strategy_count(first) <= strategy_count(second):
        return list(_enumerate(first, second, own=a1, other=a2.T, progress=progress))
    return [(c1, c2) for c2, c1 in _enumerate(second, first, own=a2.T, other=a1, progress=progress)]


def _optimal_masks(layout: PlayerLayout, values: np.ndarray) -> list[np.ndarray]:
    """Per information set, a boolean (rows x actions) mask of the optimal actions."""
    masks = []
    for infoset in range(layout.num_infosets):
        scores = values[:, layout.infoset_sequences(infoset)]
        masks.append(scores == scores.max(axis=1, keepdims=True))
    return masks


def _enumerate(
    enumerated: PlayerLayout,
    responder: PlayerLayout,
    own: np.ndarray,
    other: np.ndarray,
    progress: Progress | None = None,
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Pairs (s, r): s over all of ``enumerated``'s strategies, r over the responder's best responses to s.

    ``own[s_seq, r_seq]`` is the enumerated player's payoff matrix and
    ``other[r_seq, s_seq]`` the responder's (rows are the player's own sequences).
    """
    total = strategy_count(enumerated)
    for start in range(0, total, _CHUNK):
        choices = all_choices(enumerated, start, min(total, start + _CHUNK))
        masks = _optimal_masks(responder, _weighted(pure_realization(enumerated, choices), other.T))
        sizes = np.prod(np.stack([m.sum(axis=1) for m in masks], axis=1), axis=1)
        small = np.nonzero(sizes <= _CHUNK)[0]
        rows, replies = _expand_ties(masks, small)
        ok = _is_best(enumerated, responder, own, choices[rows], replies)
        for strategy, reply in zip(choices[rows][ok], replies[ok]):
            yield tuple(strategy.tolist()), tuple(reply.tolist())
        for row in np.nonzero(sizes > _CHUNK)[0]:
            options = [np.nonzero(m[row])[0] for m in masks]
            for block in _product_blocks(options):
                mine = np.repeat(choices[row][None, :], len(block), axis=0)
                for reply in block[_is_best(enumerated, responder, own, mine, block)]:
                    yield tuple(choices[row].tolist()), tuple(reply.tolist())
        if progress is not None:
            progress(min(total, start + _CHUNK), total)


def _expand_ties(masks: list[np.ndarray], rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """All best replies of the given rows: the product of each row's optimal action sets.

    Returns the row each reply belongs to and the replies (one action index
    per information set), expanded one information set at a time.
    """
    owner = rows
    replies = np.zeros((len(rows), len(masks)), dtype=np.int64)
    for infoset, mask in enumerate(masks):
        which, action = np.nonzero(mask[owner])
        owner, replies = owner[which], replies[which]
        replies[:, infoset] = action
    return owner, replies


def _product_blocks(options: list[np.ndarray]) -> Iterator[np.ndarray]:
    """The product of per-information-set option lists, as arrays of at most ``_CHUNK`` rows."""
    product = itertools.product(*[o.tolist() for o in options])
    while True:
        block = list(itertools.islice(product, _CHUNK))
        if not block:
            return
        yield np.array(block, dtype=np.int64)


def _is_best(
    enumerated: PlayerLayout,
    responder: PlayerLayout,
    own: np.ndarray,
    strategies: np.ndarray,
    replies: np.ndarray,
) -> np.ndarray:
    """For each row, whether ``strategies[row]`` is a best response to ``replies[row]``."""
    values = _weighted(pure_realization(responder, replies), own.T)  # the enumerated player's sequence values
    ok = np.ones(len(replies), dtype=bool)
    rows = np.arange(len(replies))
    for infoset in range(enumerated.num_infosets):
        scores = values[:, enumerated.infoset_sequences(infoset)]
        ok &= scores[rows, strategies[:, infoset]] == scores.max(axis=1)
    return ok


def _profile(
    compiled: CompiledGame, matrices: tuple[np.ndarray, np.ndarray], c1: tuple[int, ...], c2: tuple[int, ...]
) -> PureProfile:
    x = pure_realization(compiled.layouts[0], np.array([c1]))[0]
    y = pure_realization(compiled.layouts[1], np.array([c2]))[0]
    payoffs = tuple(Fraction(int(x @ a @ y), compiled.denominator) for a in matrices)
    return PureProfile((c1, c2), payoffs)
