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
together, :meth:`GainSystem.evaluate`) is a few vectorised products and two
sparse matrix-vector products.  :func:`guide_terms` is its size before it is
built (the guard and :func:`exactpoker.solve.nplayer.require_guide_size` read it).

Floating point only: the regularised continuation
(:mod:`exactpoker.solve.continuation`) follows it to a *guide* for the exact
finish (:mod:`exactpoker.solve.support_solve`).
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
class _Term:
    """The part of ``f`` (one own step) or of ``df/dx`` (one own step, one other factor) of every entry.

    ``product`` are the slots whose probabilities multiply; ``index`` the
    variable (for ``f``) or flat ``(k, l)`` position (for the Jacobian) each
    entry adds to (a spare last position where a variable does not exist);
    ``base`` and ``slope`` the owner's payoff coefficients times the signs.
    """

    product: tuple[int, ...]
    index: np.ndarray
    base: np.ndarray
    slope: np.ndarray


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
    slot too; the index sets of all these terms are computed once, so an
    evaluation is a few vectorised products and one ``bincount``.
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
        self._pick = np.where(var < 0, 2 * n, 2 * var + (np.stack([s.sign for s in self.slots], axis=1) > 0))
        self._free = np.array([k for k in range(n) if k not in self.fixed], dtype=np.int64)
        self._fixed_keys = np.array(sorted(self.fixed), dtype=np.int64)
        self._fixed_values = np.array([self.fixed[k] for k in sorted(self.fixed)], dtype=float)
        self._gain_terms: list[_Term] = []
        self._jacobian_terms: list[_Term] = []
        for a, own in enumerate(self.slots):
            # the slots of an entry's weight seen from own step a: all but a and its ancestors
            keep = tuple(b for b, s in enumerate(self.slots) if s.player != own.player or s.depth > own.depth)
            k = np.where(own.var >= 0, own.var, n)
            base, slope = self.base[:, own.player] * own.sign, self.slope[:, own.player] * own.sign
            self._gain_terms.append(_Term(keep, k, base, slope))
            for b in keep:
                other = self.slots[b]
                index = np.where((own.var >= 0) & (other.var >= 0), k * (n + 1) + other.var, (n + 1) ** 2 - 1)
                self._jacobian_terms.append(_Term(tuple(c for c in keep if c != b), index, base * other.sign,
                                                  slope * other.sign))
        # sum the terms' values into f (and df/dt) and df/dx: sparse 0/1 matrices, built once
        self._gain_sum = _summation(self._gain_terms, n)
        self._gain_base = np.concatenate([term.base for term in self._gain_terms])
        self._gain_slope = np.concatenate([term.slope for term in self._gain_terms])
        # only the (k, l) positions some term reaches: the Jacobian of a large game is sparse
        summation = _summation(self._jacobian_terms, (n + 1) ** 2 - 1)
        self._jacobian_positions = np.flatnonzero(np.diff(summation.indptr))
        self._jacobian_sum = summation[self._jacobian_positions]
        self._jacobian_base = np.concatenate([term.base for term in self._jacobian_terms])
        self._jacobian_slope = np.concatenate([term.slope for term in self._jacobian_terms])
        # work space, reused: large temporaries are otherwise mapped and unmapped at every evaluation
        self._gain_work = np.empty((2, len(self._gain_base)))
        self._jacobian_work = np.empty((2, len(self._jacobian_base)))
        self._at_t: tuple[float, np.ndarray, np.ndarray] | None = None

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
    def terms(self) -> int:
        """The products one evaluation computes (gains and Jacobian): :func:`guide_terms` before it is built."""
        return len(self._gain_base) + len(self._jacobian_base)

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
        """``(E, slots)``: the probability of each step of the entries' paths (1 where padded)."""
        z = np.empty(2 * self.num_vars + 1)
        z[0:-1:2], z[1::2], z[-1] = 1.0 - x, x, 1.0
        return z[self._pick]

    def payoffs(self, x: np.ndarray, t: float) -> np.ndarray:
        """Every player's expected payoff at ``x`` (all variables) and ``t``."""
        weight = self._factors(x).prod(axis=1)
        return (self.base + t * self.slope).T @ weight

    def evaluate(self, x: np.ndarray, t: float, *, jacobian: bool = True, sparse: bool = False
                 ) -> tuple[np.ndarray, "np.ndarray | scipy.sparse.csr_matrix | None", np.ndarray]:
        """``f(x, t)``, ``df/dx`` (num_vars x num_vars, if asked) and ``df/dt``, all variables, in one pass.

        ``sparse`` gives ``df/dx`` as a CSR matrix (its structural non-zeros
        only): the guide of a large game (three-player Leduc) solves with it.
        """
        n = self.num_vars
        gain_coefficients, jacobian_coefficients = self._coefficients(t)
        columns = self._factors(x).T.copy()
        weight, value = _products(columns, self._gain_terms, self._gain_work)
        ft = self._gain_sum @ np.multiply(self._gain_slope, weight, out=value)
        f = self._gain_sum @ np.multiply(gain_coefficients, weight, out=value)
        if not jacobian:
            return f, None, ft
        weight, value = _products(columns, self._jacobian_terms, self._jacobian_work)
        entries = self._jacobian_sum @ np.multiply(jacobian_coefficients, weight, out=value)
        rows, columns = np.divmod(self._jacobian_positions, n + 1)
        if sparse:
            return f, scipy.sparse.csr_matrix((entries, (rows, columns)), shape=(n, n)), ft
        J = np.zeros((n, n))
        J[rows, columns] = entries
        return f, J, ft

    def _coefficients(self, t: float) -> tuple[np.ndarray, np.ndarray]:
        """The gain and Jacobian terms' payoff coefficients at ``t``, kept for the last ``t`` (a trace in epsilon
        holds it fixed)."""
        if self._at_t is None or self._at_t[0] != t:
            self._at_t = (t, self._gain_base + t * self._gain_slope, self._jacobian_base + t * self._jacobian_slope)
        return self._at_t[1], self._at_t[2]

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
    ``sum_a keep(a)`` terms an entry.  The system holds about
    :data:`BYTES_PER_TERM` bytes a term: this is its size before it is built.
    """
    longest = [int(sequence_depths(layout).max()) for layout in game.layouts]
    slots = sum(longest)
    kept = sum(slots - depth - 1 for d in longest for depth in range(d))
    return len(game.sequences) * (slots + kept)


def _summation(terms: Sequence[_Term], size: int) -> "scipy.sparse.csr_matrix":
    """The 0/1 matrix adding the terms' entries (one after the other) into ``size`` positions.

    Entries whose ``index`` is ``size`` (a variable that does not exist) are dropped.
    """
    index = np.concatenate([term.index for term in terms])
    used = np.nonzero(index < size)[0]
    return scipy.sparse.csr_matrix((np.ones(len(used)), (index[used], used)), shape=(size, len(index)))


def _products(columns: np.ndarray, terms: Sequence[_Term], work: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each term's product of ``columns`` rows, one after the other in ``work[0]`` (``work[1]`` is left free)."""
    weight, size = work[0], columns.shape[1]
    for i, term in enumerate(terms):
        out = weight[i * size:(i + 1) * size]
        rows = term.product
        if not rows:
            out.fill(1.0)
        elif len(rows) == 1:
            out[:] = columns[rows[0]]
        else:
            np.multiply(columns[rows[0]], columns[rows[1]], out=out)
            for r in rows[2:]:
                out *= columns[r]
    return weight, work[1]
