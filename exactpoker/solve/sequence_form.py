"""The sequence-form linear program of a two-player zero-sum game.

Koller, Megiddo and von Stengel (1996).  With ``A`` player I's payoff matrix in
sequence form (``u_I = x^T A y``), ``E x = e`` and ``F y = f`` the realization
constraints of the two players, player I's problem is

.. math::

    \\max_{x, q} \\; f^T q \\quad \\text{s.t.} \\quad F^T q - A^T x \\le 0,\\;
    E x = e,\\; x \\ge 0,\\; q \\text{ free},

and the multipliers of its inequality rows are player II's realization plan
``y``.  Row 0 of ``E`` (and ``F``) says that the empty sequence has weight 1;
row ``1 + I`` says that the actions at information set ``I`` share the weight
of the sequence leading to it.  For von Neumann poker this is exactly the
paper's card-by-card LP (VN-I, seed 000 section 2); in general it has one
constraint per sequence instead of one per pure strategy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from exactpoker.core.compiled import CompiledGame, PlayerLayout

__all__ = ["SequenceFormLP", "realization_matrix", "sequence_form_lp"]


def realization_matrix(layout: PlayerLayout) -> sp.csr_matrix:
    """``E`` with ``E x = e``: rows (root, one per information set), one column per sequence."""
    rows, cols, vals = [0], [0], [1]
    for infoset in range(layout.num_infosets):
        rows.append(1 + infoset)
        cols.append(layout.parent_sequence(infoset))
        vals.append(-1)
        for s in layout.infoset_sequences(infoset):
            rows.append(1 + infoset)
            cols.append(s)
            vals.append(1)
    shape = (1 + layout.num_infosets, layout.num_sequences)
    return sp.csr_matrix((vals, (rows, cols)), shape=shape, dtype=np.int64)


@dataclass(frozen=True)
class SequenceFormLP:
    """Player I's sequence-form LP with integer data (payoffs scaled by ``D``).

    Variables are ``x`` (player I's sequences) followed by ``q`` (one per row
    of ``F``); the objective maximizes ``q_0``, which equals ``D`` times the
    game value at the optimum.
    """

    payoff: sp.csr_matrix  # A, scaled by the compiled denominator
    E: sp.csr_matrix
    F: sp.csr_matrix
    denominator: int

    @property
    def num_x(self) -> int:
        return self.E.shape[1]

    @property
    def num_q(self) -> int:
        return self.F.shape[0]

    def inequality_matrix(self) -> sp.csr_matrix:
        """``[-A^T | F^T]``: one ``<= 0`` row per player II sequence."""
        return sp.hstack([-self.payoff.T, self.F.T], format="csr")

    def equality_matrix(self) -> sp.csr_matrix:
        """``[E | 0]`` with right-hand side ``e = (1, 0, ..., 0)``."""
        zeros = sp.csr_matrix((self.E.shape[0], self.num_q), dtype=np.int64)
        return sp.hstack([self.E, zeros], format="csr")


def sequence_form_lp(compiled: CompiledGame) -> SequenceFormLP:
    """Build the sequence-form LP of a two-player zero-sum compiled game."""
    rows, cols, vals = compiled.payoff_matrix()
    first, second = compiled.layouts
    payoff = sp.csr_matrix(
        (vals.astype(np.float64) if vals.dtype == object else vals, (rows, cols)),
        shape=(first.num_sequences, second.num_sequences),
    )
    return SequenceFormLP(payoff, realization_matrix(first), realization_matrix(second), compiled.denominator)
