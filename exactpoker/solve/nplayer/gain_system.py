"""The counterfactual gains of a two-action game and their Jacobian, as floats (seed 003, section 3).

For a game whose information sets all have two actions, write ``x_k`` for the
probability of the last (aggressive) action at information set ``k`` and
``f_k(x)`` for its owner's *counterfactual* gain from that action over the
other: the derivative of the owner's payoff with respect to ``x_k``, divided
by the owner's own probability of reaching ``k`` (the seed's extra
differentiation, which makes ``f_k`` independent of the owner's earlier
choices).  :class:`GainSystem` evaluates ``f`` and its Jacobian from a
compiled game's sequence-form payoffs, for payoffs affine in one parameter
``t`` (the pot of seed 003).  ``f`` is multilinear, so the Jacobian is exact
(no finite differences): entry by entry, the derivative of a product of
probabilities is the product of the others.  Which products go where is
worked out once per game; an evaluation (``f``, ``df/dx`` and ``df/dt``
together, :meth:`GainSystem.evaluate`) is one vectorised multiplication per
distinct product and three sparse matrix-vector products.  :func:`guide_terms` is its size before it is
built (the guard and :func:`exactpoker.solve.nplayer.pipeline.require_guide_size` read it).

Floating point only: the regularised continuation
(:mod:`exactpoker.solve.nplayer.continuation`) follows it to a *guide* for the exact
finish (:mod:`exactpoker.solve.nplayer.finish`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

import numpy as np

from exactpoker.core.compiled import CompiledGame, SequenceLayout
from exactpoker.errors import InvalidGameError
from exactpoker.lazy import lazy

scipy = lazy("scipy")

__all__ = ["GainSystem", "sequence_depths", "guide_terms"]


def _aligned(games: Sequence[CompiledGame]) -> tuple[np.ndarray, list[np.ndarray]]:
    """The union of the games' sequence tuples and each game's coefficients on it (as floats)."""
    keys = [np.ascontiguousarray(gm.sequences).view([("", np.int64)] * gm.sequences.shape[1]).ravel() for gm in games]
    union = np.unique(np.concatenate(keys))
    tables = []
    for gm, key in zip(games, keys):
        table = np.zeros((len(union), gm.num_players))
        table[np.searchsorted(union, key)] = gm.coefficients.astype(float) / gm.denominator
        tables.append(table)
    sequences = union.view(np.int64).reshape(len(union), games[0].sequences.shape[1])
    return sequences, tables


@dataclass
class _Slot:
    """One step of the entries' paths, ``(player, depth)``: its variable and action sign in every entry."""

    player: int
    depth: int
    var: np.ndarray  # (E,) the variable at this step, -1 where the path is shorter
    sign: np.ndarray  # (E,) +1 for the aggressive action, -1 for the passive one


@dataclass
class _Sum:
    """``out[row] = sum of (base + t * slope) * weight[column]`` over one sparse pattern: the gains or the Jacobian.

    ``matrix`` is the CSR pattern (rows: variables, or the Jacobian's reached
    ``(k, l)`` positions; columns: ``(product, entry)`` pairs); its data are
    the coefficients at the last ``t`` asked (:meth:`at`), ``base`` and
    ``slope`` the owner's payoff coefficients times the action signs, in the
    matrix's data order.
    """

    matrix: "scipy.sparse.csr_matrix"
    base: np.ndarray
    slope: np.ndarray
    t: float | None = None

    def at(self, t: float) -> "scipy.sparse.csr_matrix":
        """The pattern with its coefficients at ``t`` (recomputed only when ``t`` changes)."""
        if self.t != t:
            np.add(self.base, t * self.slope, out=self.matrix.data)
            self.t = t
        return self.matrix

    def slope_matrix(self) -> "scipy.sparse.csr_matrix":
        """The pattern with the coefficients' derivatives in ``t`` (``df/dt``)."""
        return scipy.sparse.csr_matrix((self.slope, self.matrix.indices, self.matrix.indptr), shape=self.matrix.shape)


@dataclass
class GainSystem:
    """Counterfactual gains ``f(x, t)`` of a game with payoffs affine in a parameter ``t``.

    Build it with :meth:`from_games` from the compiled game at two values of
    the parameter.  Variables are numbered over all players' information sets
    (player by player, in each layout's information-set order); ``fixed``
    pins some of them (e.g. dominated choices) and the rest are *free*.

    Every payoff entry is a product of one probability per *slot* (a step of
    a player's path to it).  The gain at an own step is the entry's
    coefficient times the product over the slots outside the step and its
    ancestors, and its derivative in another variable drops that variable's
    slot too.  Which products each term needs is worked out once; every
    distinct product is the product of a shorter one (its slots but the last)
    and one slot, so an evaluation computes each product with one vectorised
    multiplication, then sums them into ``f``, ``df/dt`` and ``df/dx`` with
    one sparse matrix-vector product each (:class:`_Sum`: the coefficients
    sit in the matrices).
    """

    sequences: np.ndarray  # (E, players)
    base: np.ndarray  # (E, players): payoff coefficients at t = 0
    slope: np.ndarray  # (E, players): their derivative in t
    slots: list[_Slot]
    num_vars: int
    fixed: dict[int, float] = field(default_factory=dict)
    offsets: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        n = self.num_vars
        var = np.stack([s.var for s in self.slots], axis=1)  # (E, D)
        # each step's probability is z[_pick] with z = (1 - x_0, x_0, 1 - x_1, x_1, ..., 1)
        self._pick = np.where(var < 0, 2 * n, 2 * var + (np.stack([s.sign for s in self.slots], axis=1) > 0)).T.copy()
        self._free = np.array([k for k in range(n) if k not in self.fixed], dtype=np.int64)
        self._fixed_keys = np.array(sorted(self.fixed), dtype=np.int64)
        self._fixed_values = np.array([self.fixed[k] for k in sorted(self.fixed)], dtype=float)
        self._products: list[tuple[int, ...]] = []  # the distinct products, each after its prefix
        self._prefix: list[int] = []  # the number of each product's prefix (its slots but the last)
        product_index: dict[tuple[int, ...], int] = {}
        gains, jacobian = _Terms(n), _Terms((n + 1) ** 2 - 1)
        for a, own in enumerate(self.slots):
            # the slots of an entry's weight seen from own step a: all but a and its ancestors
            keep = tuple(b for b, s in enumerate(self.slots) if s.player != own.player or s.depth > own.depth)
            k = np.where(own.var >= 0, own.var, n)
            base, slope = self.base[:, own.player] * own.sign, self.slope[:, own.player] * own.sign
            gains.add(self._product(keep, product_index), k, base, slope)
            for b in keep:
                other = self.slots[b]
                index = np.where((own.var >= 0) & (other.var >= 0), k * (n + 1) + other.var, (n + 1) ** 2 - 1)
                jacobian.add(self._product(tuple(c for c in keep if c != b), product_index), index,
                             base * other.sign, slope * other.sign)
        self.terms = gains.count + jacobian.count
        size = len(self.sequences)
        self._gains = gains.summed(size, len(self._products))
        # only the (k, l) positions some term reaches: the Jacobian of a large game is sparse
        self._jacobian_positions, self._jacobian = jacobian.summed_compressed(size, len(self._products))
        self._gain_slopes = self._gains.slope_matrix()
        self._weights = np.empty((len(self._products), size))  # reused: large temporaries are otherwise remapped

    def _product(self, slots: tuple[int, ...], index: dict[tuple[int, ...], int]) -> int:
        """The number of the product of ``slots``, adding it (and its prefixes) to the products to compute."""
        if slots not in index:
            if len(slots) > 1:
                self._product(slots[:-1], index)
            index[slots] = len(self._products)
            self._products.append(slots)
            self._prefix.append(index[slots[:-1]] if len(slots) > 1 else -1)
        return index[slots]

    @classmethod
    def from_game(cls, game: CompiledGame, fixed: Mapping[int, float] | None = None) -> "GainSystem":
        """The system of one game (no parameter: ``t`` is ignored)."""
        return cls.from_games((0.0, game), (1.0, game), fixed)

    @classmethod
    def from_games(
        cls, first: tuple[float, CompiledGame], second: tuple[float, CompiledGame], fixed: Mapping[int, float] | None = None
    ) -> "GainSystem":
        """The system of a game whose payoffs are affine in ``t``, from its compiled form at two ``t``."""
        (t0, g0), (t1, g1) = first, second
        if t0 == t1:
            raise InvalidGameError("GainSystem.from_games(): need two different parameter values")
        for layout in g0.layouts:
            if any(len(layout.infoset_actions(i)) != 2 for i in range(layout.num_infosets)):
                raise InvalidGameError("GainSystem: every information set must have exactly two actions")
        sequences, (c0, c1) = _aligned([g0, g1])
        slope = (c1 - c0) / (t1 - t0)
        base = c0 - t0 * slope
        offsets, total = [], 0
        slots = []
        for p, layout in enumerate(g0.layouts):
            offsets.append(total)
            # each sequence's path of (variable, action), root first
            path_of: list[list[tuple[int, int]]] = [[] for _ in range(layout.num_sequences)]
            for infoset in range(layout.num_infosets):
                parent = layout.parent_sequence(infoset)
                for a, s in enumerate(layout.infoset_sequences(infoset)):
                    path_of[s] = path_of[parent] + [(total + infoset, a)]
            depth = max(len(steps) for steps in path_of)
            var = -np.ones((layout.num_sequences, depth), dtype=np.int64)
            act = np.zeros((layout.num_sequences, depth), dtype=np.int64)
            for s, steps in enumerate(path_of):
                for d, (v, a) in enumerate(steps):
                    var[s, d], act[s, d] = v, a
            for d in range(depth):
                slots.append(_Slot(p, d, var[sequences[:, p], d], np.where(act[sequences[:, p], d] == 1, 1.0, -1.0)))
            total += layout.num_infosets
        return cls(sequences, base, slope, slots, total, dict(fixed or {}), tuple(offsets))

    @property
    def jacobian_density(self) -> float:
        """The share of ``df/dx``'s entries that some term reaches (its structural non-zeros)."""
        return len(self._jacobian_positions) / max(self.num_vars, 1) ** 2

    # -- variables -------------------------------------------------------------------------

    @property
    def free(self) -> np.ndarray:
        """Indices of the free variables."""
        return self._free

    def full(self, free_values: np.ndarray) -> np.ndarray:
        """All variables from the free ones (fixed ones at their values)."""
        x = np.empty(self.num_vars)
        x[self._free] = free_values
        x[self._fixed_keys] = self._fixed_values
        return x

    # -- evaluation ------------------------------------------------------------------------

    def _factors(self, x: np.ndarray) -> np.ndarray:
        """``(slots, E)``: the probability of each step of the entries' paths (1 where padded)."""
        z = np.empty(2 * self.num_vars + 1)
        z[0:-1:2], z[1::2], z[-1] = 1.0 - x, x, 1.0
        return z[self._pick]

    def payoffs(self, x: np.ndarray, t: float) -> np.ndarray:
        """Every player's expected payoff at ``x`` (all variables) and ``t``."""
        weight = self._factors(x).prod(axis=0)
        return (self.base + t * self.slope).T @ weight

    def evaluate(self, x: np.ndarray, t: float, *, jacobian: bool = True, sparse: bool = False
                 ) -> tuple[np.ndarray, "np.ndarray | scipy.sparse.csr_matrix | None", np.ndarray]:
        """``f(x, t)``, ``df/dx`` (num_vars x num_vars, if asked) and ``df/dt``, all variables, in one pass.

        ``sparse`` gives ``df/dx`` as a CSR matrix (its structural non-zeros
        only): the guide of a large game (three-player Leduc) solves with it.
        """
        n = self.num_vars
        weights = self._weighted(self._factors(x))
        f, ft = self._gains.at(t) @ weights, self._gain_slopes @ weights
        if not jacobian:
            return f, None, ft
        entries = self._jacobian.at(t) @ weights
        rows, columns = np.divmod(self._jacobian_positions, n + 1)
        if sparse:
            return f, scipy.sparse.csr_matrix((entries, (rows, columns)), shape=(n, n)), ft
        J = np.zeros((n, n))
        J[rows, columns] = entries
        return f, J, ft

    def _weighted(self, factors: np.ndarray) -> np.ndarray:
        """Every distinct product of the entries' step probabilities, flat (product by product)."""
        weights = self._weights
        for i, slots in enumerate(self._products):
            if not slots:
                weights[i].fill(1.0)
            elif len(slots) == 1:
                weights[i] = factors[slots[0]]
            else:
                np.multiply(weights[self._prefix[i]], factors[slots[-1]], out=weights[i])
        return weights.ravel()

    def gains(self, x: np.ndarray, t: float, *, jacobian: bool = False, slope_only: bool = False
              ) -> tuple[np.ndarray, np.ndarray | None]:
        """``f(x, t)`` over all variables and, if asked, ``df/dx`` (num_vars x num_vars).

        ``slope_only`` returns ``df/dt`` instead of ``f`` (the payoffs are
        affine in ``t``).
        """
        f, J, ft = self.evaluate(x, t, jacobian=jacobian)
        return (ft if slope_only else f), J


def sequence_depths(layout: SequenceLayout) -> np.ndarray:
    """The number of choices on each sequence's path (0 for the empty sequence)."""
    depth = np.zeros(layout.num_sequences, dtype=np.int64)
    for infoset in range(layout.num_infosets):  # an information set comes after its parent sequence's
        depth[list(layout.infoset_sequences(infoset))] = depth[layout.parent_sequence(infoset)] + 1
    return depth


def guide_terms(game: CompiledGame) -> int:
    """How many products one evaluation of :class:`GainSystem` of ``game`` computes (gains and Jacobian).

    An entry's path has one slot a step of each player's longest path (``S``
    slots in all); the gain at own step ``a`` multiplies the slots kept from
    ``a`` and the Jacobian drops one more, so the Jacobian has
    ``sum_a keep(a)`` terms an entry.  The system holds a few dozen bytes a
    term (:func:`exactpoker.guard.n_player_guide`): this is its size before it is built.
    """
    longest = [int(sequence_depths(layout).max()) for layout in game.layouts]
    slots = sum(longest)
    kept = sum(slots - depth - 1 for d in longest for depth in range(d))
    return len(game.sequences) * (slots + kept)


class _Terms:
    """The terms of one sum, gathered while the system is built: each adds a product times a coefficient into one
    position per entry (``size``: a spare position where a variable does not exist, dropped)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.count = 0
        self._products: list[int] = []
        self._index: list[np.ndarray] = []
        self._base: list[np.ndarray] = []
        self._slope: list[np.ndarray] = []

    def add(self, product: int, index: np.ndarray, base: np.ndarray, slope: np.ndarray) -> None:
        self._products.append(product)
        self._index.append(index)
        self._base.append(base)
        self._slope.append(slope)
        self.count += len(index)

    def summed(self, entries: int, products: int) -> _Sum:
        """The terms as one sparse sum over ``(product, entry)`` weights, one row a position."""
        rows, columns, base, slope = self._flat(entries)
        return _sum(rows, columns, base, slope, self.size, products * entries)

    def summed_compressed(self, entries: int, products: int) -> tuple[np.ndarray, _Sum]:
        """:meth:`summed` with only the positions some term reaches as rows: ``(positions, sum)``."""
        rows, columns, base, slope = self._flat(entries)
        positions, rows = np.unique(rows, return_inverse=True)
        return positions, _sum(rows, columns, base, slope, len(positions), products * entries)

    def _flat(self, entries: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        rows = np.concatenate(self._index)
        columns = np.concatenate([product * entries + np.arange(entries) for product in self._products])
        used = rows < self.size
        return rows[used], columns[used], np.concatenate(self._base)[used], np.concatenate(self._slope)[used]


def _sum(rows: np.ndarray, columns: np.ndarray, base: np.ndarray, slope: np.ndarray, size: int, width: int) -> _Sum:
    """The CSR pattern of ``(rows, columns)`` (row by row, columns in the order given) and its coefficients."""
    order = np.argsort(rows, kind="stable")
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=size))])
    matrix = scipy.sparse.csr_matrix((np.empty(len(order)), columns[order], indptr), shape=(size, width))
    return _Sum(matrix, base[order], slope[order])
