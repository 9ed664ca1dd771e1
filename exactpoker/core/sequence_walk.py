"""A compiled game evaluated in floating point by walking its sequence form, vectorised: the walk CFR does.

Player ``p``'s payoff is linear in their own realization weights, ``u_p = sum_s c_p(s) r_p(s)``, where
``c_p(s)`` sums the payoff entries of ``p``'s sequence ``s`` weighted by the other players' realization weights
(:mod:`exactpoker.core.evaluate` computes the same exactly).  Here every step is one numpy operation over all
payoff entries or over one level of a player's own information sets:

* **realization weights** top down, level by level (:meth:`SequenceWalk.realization`);
* **sequence values** ``c_p``: one product over the entries of the others' weights and one ``bincount``
  (:meth:`SequenceWalk.sequence_values`);
* **counterfactual values** bottom up (:meth:`SequenceWalk.action_values`): an action's value is its
  sequence's ``c_p`` plus the worth of the information sets after it, an information set's worth its actions'
  values weighted by the behaviour played (seed 003, section 3: weighted by the others' reach, not by the
  player's own); with the maximum instead, the value of a best response (:meth:`SequenceWalk.best_response`).

One evaluation costs a few passes over the ``E`` payoff entries, never a product per entry and path step: this
is how counterfactual regret minimisation walks a game (Zinkevich, Johanson, Bowling and Piccione, "Regret
minimization in games with incomplete information", NIPS 2007, section 3; Johanson et al., "Efficient Nash
equilibrium approximation through Monte Carlo counterfactual regret minimization", AAMAS 2012, on vectorised
public-tree walks), and it scales with the game, not with its products.

For a game whose information sets have two actions (the binary form, :mod:`exactpoker.core.binary_form`),
variable ``k`` is the probability of the last action at information set ``k`` (player by player) and its
*gain* ``f_k`` is the last action's counterfactual value minus the first's, as in
:mod:`exactpoker.core.support_system`.  Its Jacobian is assembled from three sparse matrices a pair of
players (:meth:`SequenceWalk.jacobian`):

* ``P_p`` (information sets x sequences of ``p``): ``P_p[k, s] = +-`` the product of ``p``'s probabilities
  strictly below ``k`` on the path to ``s`` (sign ``+`` below the last action), so ``f_p = P_p c_p``;
* ``M_pq`` (sequences of ``p`` x sequences of ``q``): the entries' coefficients of ``p`` times the weights of
  the players other than ``p`` and ``q``, so ``c_p = M_pq r_q``;
* ``D_q`` (sequences x information sets of ``q``): the derivative of ``r_q(s)`` in ``x_l``;

then ``df_p/dx_q = P_p M_pq D_q`` for ``q != p``, and ``df_k/dx_l = P_p[k, parent(l)] f_l`` for ``l`` below
``k`` in ``p``'s own tree (the value of an action changes with a later own choice by that choice's gain,
weighted by the own play in between).  Every matrix has a nonzero a sequence and path step, or a payoff entry.

Floating point only: a guide, never an answer.  The exact certificates read the compiled game alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Sequence

import numpy as np

from exactpoker.core.compiled import CompiledGame, SequenceLayout
from exactpoker.core.evaluate import layout_tree
from exactpoker.errors import InvalidGameError
from exactpoker.lazy import lazy

scipy_sparse = lazy("scipy.sparse")

__all__ = ["PlayerPaths", "SequenceWalk"]


@dataclass(frozen=True, eq=False)
class PlayerPaths:
    """One player's sequences as paths: ``steps[s, j]`` the sequence at own depth ``j`` on ``s``'s path (the
    empty sequence 0 past its end), ``infosets[s, j]`` its information set (-1 past the end), ``last[s, j]``
    whether it is its information set's last action; ``levels`` the information sets by own depth, top first."""

    steps: np.ndarray
    infosets: np.ndarray
    last: np.ndarray
    levels: tuple[tuple[np.ndarray, np.ndarray], ...]

    @classmethod
    def of(cls, layout: SequenceLayout) -> "PlayerPaths":
        tree = layout_tree(layout)
        levels = tuple((infosets, sequences) for infosets, sequences, _starts in reversed(tree.levels))
        depth = len(levels)
        steps = np.zeros((layout.num_sequences, max(depth, 1)), dtype=np.int64)
        for d, (_infosets, sequences) in enumerate(levels):
            owners = tree.owners[sequences - 1]
            steps[sequences] = steps[tree.parents[owners]]
            steps[sequences, d] = sequences
        infosets = np.where(steps > 0, tree.owners[np.maximum(steps, 1) - 1], -1)
        last = (steps > 0) & (steps == tree.firsts_of[np.maximum(steps, 1) - 1] + 1)
        return cls(steps, infosets, last, levels)


class SequenceWalk:
    """A compiled game ready for vectorised float evaluation (module docstring).

    Behaviour is given per player as an array ``pi`` over the player's sequences: ``pi[s]`` the probability of
    sequence ``s``'s last action at its information set (``pi[0] = 1``).
    """

    def __init__(self, compiled: CompiledGame) -> None:
        self.compiled = compiled
        self.num_players = compiled.num_players
        self.layouts = tuple(compiled.layouts)
        self.trees = tuple(layout_tree(layout) for layout in self.layouts)
        self.sequences = np.ascontiguousarray(compiled.sequences, dtype=np.int64)
        self.coefficients = np.asarray(compiled.coefficients, dtype=np.float64) / float(compiled.denominator)
        self.sizes = tuple(layout.num_sequences for layout in self.layouts)
        self.counts = tuple(layout.num_infosets for layout in self.layouts)
        self.offsets = tuple(int(v) for v in np.concatenate([[0], np.cumsum(self.counts)]))

    # -- behaviour ---------------------------------------------------------------------------------------------

    def uniform(self) -> list[np.ndarray]:
        """Every information set's actions equally likely."""
        out = []
        for tree, size in zip(self.trees, self.sizes):
            pi = np.ones(size)
            owners = tree.owners
            pi[1:] = 1.0 / np.bincount(owners)[owners]
            out.append(pi)
        return out

    @cached_property
    def paths(self) -> tuple[PlayerPaths, ...]:
        return tuple(PlayerPaths.of(layout) for layout in self.layouts)

    def behaviour_of(self, x: np.ndarray) -> list[np.ndarray]:
        """Per player, ``pi`` from the two-action variables ``x`` (all players' information sets, in order)."""
        out = []
        for p, tree in enumerate(self.trees):
            pi = np.ones(self.sizes[p])
            own = x[self.offsets[p]:self.offsets[p + 1]]
            firsts = self.firsts(p)
            pi[firsts], pi[firsts + 1] = 1.0 - own, own
            out.append(pi)
        return out

    def firsts(self, p: int) -> np.ndarray:
        """Each of player ``p``'s information sets' first sequence."""
        return self._firsts[p]

    @cached_property
    def _firsts(self) -> tuple[np.ndarray, ...]:
        out = []
        for p, tree in enumerate(self.trees):
            firsts = np.zeros(self.counts[p], dtype=np.int64)
            firsts[tree.owners[::-1]] = np.arange(self.sizes[p] - 1, 0, -1)
            out.append(firsts)
        return tuple(out)

    def require_two_actions(self) -> None:
        for p, tree in enumerate(self.trees):
            if len(tree.owners) and np.any(np.bincount(tree.owners) != 2):
                raise InvalidGameError(f"SequenceWalk: every information set of player {p} must have two actions")

    # -- the walk ----------------------------------------------------------------------------------------------

    def realization(self, p: int, pi: np.ndarray) -> np.ndarray:
        """Player ``p``'s realization weight of every sequence, top down."""
        tree = self.trees[p]
        r = np.ones(self.sizes[p])
        for infosets, sequences, _starts in reversed(tree.levels):
            r[sequences] = r[tree.parents[tree.owners[sequences - 1]]] * pi[sequences]
        return r

    def entry_weights(self, reaches: Sequence[np.ndarray]) -> np.ndarray:
        """``(E, players)``: each entry's product of the weights of the players other than the column's."""
        n = self.num_players
        columns = [reaches[q][self.sequences[:, q]] for q in range(n)]
        out = np.empty((len(self.sequences), n))
        left = np.ones(len(self.sequences))
        for q in range(n):
            out[:, q] = left
            left = left * columns[q]
        right = np.ones(len(self.sequences))
        for q in reversed(range(n)):
            out[:, q] *= right
            right = right * columns[q]
        return out

    def sequence_values(self, reaches: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Every player's ``c_p(s)``: entries weighted by the others' reach, summed by own sequence."""
        weights = self.entry_weights(reaches) * self.coefficients
        return [np.bincount(self.sequences[:, p], weights=weights[:, p], minlength=self.sizes[p])
                for p in range(self.num_players)]

    def sequence_values_of(self, p: int, reaches: Sequence[np.ndarray]) -> np.ndarray:
        """Player ``p``'s ``c_p`` alone (one pass over the entries): what an alternating regret update needs."""
        weight = self.coefficients[:, p].copy()
        for q, r in enumerate(reaches):
            if q != p:
                weight *= r[self.sequences[:, q]]
        return np.bincount(self.sequences[:, p], weights=weight, minlength=self.sizes[p])

    def action_values(self, p: int, c: np.ndarray, pi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(v, worth)``: every sequence's counterfactual value (``v[0]``: the payoff) and every information
        set's worth, by backward induction over ``p``'s own information sets."""
        tree = self.trees[p]
        v = np.array(c, dtype=float)
        worth = np.zeros(self.counts[p])
        for infosets, sequences, starts in tree.levels:  # deepest first
            w = np.add.reduceat(pi[sequences] * v[sequences], starts) if len(sequences) else np.zeros(0)
            worth[infosets] = w
            v += np.bincount(tree.parents[infosets], weights=w, minlength=self.sizes[p])
        return v, worth

    def best_response(self, p: int, c: np.ndarray) -> float:
        """The value of ``p``'s best response to the play behind ``c`` (backward induction, maximum)."""
        tree = self.trees[p]
        v = np.array(c, dtype=float)
        for infosets, sequences, starts in tree.levels:
            w = np.maximum.reduceat(v[sequences], starts) if len(sequences) else np.zeros(0)
            v += np.bincount(tree.parents[infosets], weights=w, minlength=self.sizes[p])
        return float(v[0])

    def regrets(self, pis: Sequence[np.ndarray]) -> np.ndarray:
        """Each player's gain from a best response against the others (0 at an equilibrium)."""
        reaches = [self.realization(p, pi) for p, pi in enumerate(pis)]
        values = self.sequence_values(reaches)
        return np.array([self.best_response(p, c) - self.action_values(p, c, pis[p])[0][0]
                         for p, c in enumerate(values)])

    def nash_conv(self, pis: Sequence[np.ndarray]) -> float:
        """The sum of the players' best-response gains (OpenSpiel's ``nash_conv``)."""
        return float(np.sum(self.regrets(pis)))

    # -- two actions: gains and their Jacobian -----------------------------------------------------------------

    def gains(self, x: np.ndarray) -> np.ndarray:
        """Every variable's gain ``f_k`` at ``x`` (module docstring)."""
        pis = self.behaviour_of(x)
        values = self.sequence_values([self.realization(p, pi) for p, pi in enumerate(pis)])
        out = []
        for p, c in enumerate(values):
            v, _worth = self.action_values(p, c, pis[p])
            firsts = self.firsts(p)
            out.append(v[firsts + 1] - v[firsts])
        return np.concatenate(out) if out else np.zeros(0)

    def own_paths(self, p: int, pi: np.ndarray) -> "scipy_sparse.csr_matrix":
        """``P_p``: information sets x sequences, ``+-`` the product of own play strictly below the set."""
        paths = self.paths[p]
        factors = np.where(paths.infosets >= 0, pi[paths.steps], 1.0)
        below = np.ones_like(factors)  # below[:, j]: product of the factors after step j
        if factors.shape[1] > 1:
            below[:, :-1] = np.cumprod(factors[:, :0:-1], axis=1)[:, ::-1]
        mask = paths.infosets >= 0
        sequence = np.broadcast_to(np.arange(self.sizes[p])[:, None], mask.shape)[mask]
        data = np.where(paths.last, 1.0, -1.0)[mask] * below[mask]
        return scipy_sparse.csr_matrix((data, (paths.infosets[mask], sequence)), shape=(self.counts[p], self.sizes[p]))

    def reach_derivatives(self, p: int, pi: np.ndarray) -> "scipy_sparse.csr_matrix":
        """``D_p``: sequences x information sets, the derivative of ``r_p(s)`` in ``x_l`` (``l`` on ``s``'s path)."""
        paths = self.paths[p]
        factors = np.where(paths.infosets >= 0, pi[paths.steps], 1.0)
        width = factors.shape[1]
        above = np.ones_like(factors)
        below = np.ones_like(factors)
        if width > 1:
            above[:, 1:] = np.cumprod(factors[:, :-1], axis=1)
            below[:, :-1] = np.cumprod(factors[:, :0:-1], axis=1)[:, ::-1]
        mask = paths.infosets >= 0
        sequence = np.broadcast_to(np.arange(self.sizes[p])[:, None], mask.shape)[mask]
        data = np.where(paths.last, 1.0, -1.0)[mask] * above[mask] * below[mask]
        return scipy_sparse.csr_matrix((data, (sequence, paths.infosets[mask])), shape=(self.sizes[p], self.counts[p]))

    def pair_values(self, p: int, q: int, reaches: Sequence[np.ndarray]) -> "scipy_sparse.csr_matrix":
        """``M_pq``: sequences of ``p`` x of ``q``, the entries' ``p`` coefficients times the other players' weights."""
        weight = self.coefficients[:, p].copy()
        for other in range(self.num_players):
            if other not in (p, q):
                weight *= reaches[other][self.sequences[:, other]]
        return scipy_sparse.csr_matrix((weight, (self.sequences[:, p], self.sequences[:, q])),
                                       shape=(self.sizes[p], self.sizes[q]))

    def jacobian(self, x: np.ndarray, rows: np.ndarray | None = None, columns: np.ndarray | None = None
                 ) -> tuple[np.ndarray, "scipy_sparse.csr_matrix"]:
        """``(f, df/dx)`` at ``x``: every gain, and the Jacobian's ``rows`` x ``columns`` (default all), sparse."""
        n = self.offsets[-1]
        rows = np.arange(n) if rows is None else np.asarray(rows, dtype=np.int64)
        columns = np.arange(n) if columns is None else np.asarray(columns, dtype=np.int64)
        pis = self.behaviour_of(x)
        reaches = [self.realization(p, pi) for p, pi in enumerate(pis)]
        values = self.sequence_values(reaches)
        own = [self.own_paths(p, pi) for p, pi in enumerate(pis)]
        f = np.concatenate([own[p] @ values[p] for p in range(self.num_players)])
        blocks = []
        for p in range(self.num_players):
            lo, hi = self.offsets[p], self.offsets[p + 1]
            mine = rows[(rows >= lo) & (rows < hi)] - lo
            row_blocks = []
            for q in range(self.num_players):
                qlo, qhi = self.offsets[q], self.offsets[q + 1]
                theirs = columns[(columns >= qlo) & (columns < qhi)] - qlo
                if not len(mine) or not len(theirs):  # nothing asked of this pair: skip its products
                    block = scipy_sparse.csr_matrix((len(mine), len(theirs)))
                elif q == p:
                    parents = self.trees[p].parents[theirs]
                    block = own[p][mine][:, parents] @ scipy_sparse.diags(f[lo + theirs])
                else:
                    derivative = self.reach_derivatives(q, pis[q])[:, theirs]
                    block = own[p][mine] @ (self.pair_values(p, q, reaches) @ derivative)
                row_blocks.append(block)
            blocks.append(row_blocks)
        jacobian = scipy_sparse.bmat(blocks, format="csr") if blocks else scipy_sparse.csr_matrix((0, 0))
        # bmat stacks the rows and columns player by player; put them back in the order asked
        return f, jacobian[self._restore(rows)][:, self._restore(columns)]

    def _restore(self, variables: np.ndarray) -> np.ndarray:
        """Where each of ``variables`` went when they were grouped by player (stably)."""
        player = np.searchsorted(np.asarray(self.offsets[1:]), variables, side="right")
        return np.argsort(np.argsort(player, kind="stable"), kind="stable")
