"""Every information set split into a chain of binary choices: the same game for equilibria.

An information set ``I`` with actions ``a_1, ..., a_k`` (``k > 2``) becomes a
chain of ``k - 1`` information sets of the same player: at ``I#1`` the player
plays ``a_1`` or passes on (``not a_1``); after passing, at ``I#2``, ``a_2`` or
passes on; ...; at ``I#(k-1)`` the choice is ``a_(k-1)`` or ``a_k``.  In the
sequence form this keeps every sequence of the original game (the sequence of
``a_i`` is the chain's ``a_i``) and adds the ``k - 2`` passing sequences, which
carry no payoff and lead only to the next link.  Perfect recall is kept.

A behaviour strategy of the chain gives the original one

.. math::

    \\beta(a_i) = q_i \\prod_{j < i} (1 - q_j), \\qquad
    \\beta(a_k) = \\prod_{j < k} (1 - q_j),

with ``q_j`` the probability of ``a_j`` at ``I#j``, and every original
behaviour strategy arises this way; realization weights of the original
sequences, hence all payoffs, are the same.  So a profile is a Nash
equilibrium of the binary form exactly when its image (:meth:`BinaryForm.lift`)
is one of the original game: the N-player finish, written for two actions per
information set (seed 003, section 3), solves any game through this form, and
the certificate is then checked on the original game.

This is the familiar "binarisation" of extensive-form decisions (e.g. used for
the agent form in McKelvey and McLennan, "Computation of equilibria in finite
games", Handbook of Computational Economics, 1996, section 6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from exactpoker.core.compiled import CompiledGame, SequenceLayout, TreeLayout
from exactpoker.core.profile import BehaviourProfile

__all__ = ["BinaryForm", "binary_form", "needs_binary_form"]


def needs_binary_form(compiled: CompiledGame) -> bool:
    """Whether some information set has more than two actions."""
    return any(len(layout.infoset_sequences(i)) > 2 for layout in compiled.layouts for i in range(layout.num_infosets))


@dataclass(frozen=True, eq=False)
class BinaryForm:
    """The binary form of ``original`` (:attr:`game`) and the way back.

    ``chains[p][i]`` lists the binary form's information sets of player ``p``
    that replace the original information set ``i`` (one when it had two
    actions or fewer).
    """

    original: CompiledGame
    game: CompiledGame
    chains: tuple[tuple[tuple[int, ...], ...], ...]

    def lift(self, profile: BehaviourProfile, times: Callable[[Any, Any], Any] = lambda a, b: a * b,
             complement: Callable[[Any], Any] = lambda a: 1 - a) -> BehaviourProfile:
        """The original game's behaviour profile of a binary-form profile (module formula).

        ``times`` and ``complement`` default to exact arithmetic (Fractions,
        algebraic numbers); pass interval versions for certified balls.
        """
        strategies = []
        for p, chains in enumerate(self.chains):
            binary = profile.strategies[p]
            strategy = []
            for chain in chains:
                if len(chain) == 1:
                    strategy.append(tuple(binary[chain[0]]))
                    continue
                probs, rest = [], None
                for link in chain:
                    stay, go = binary[link]
                    probs.append(stay if rest is None else times(rest, stay))
                    rest = go if rest is None else times(rest, go)
                probs.append(rest)
                strategy.append(tuple(probs))
            strategies.append(tuple(strategy))
        return BehaviourProfile(tuple(strategies))


def binary_form(compiled: CompiledGame) -> BinaryForm:
    """The binary form of ``compiled`` (module docstring); every layout becomes a :class:`TreeLayout`."""
    layouts, chains, renumber = [], [], []
    for layout in compiled.layouts:
        new_layout, chain, mapping = _binary_layout(layout)
        layouts.append(new_layout)
        chains.append(chain)
        renumber.append(mapping)
    sequences = np.column_stack([mapping[compiled.sequences[:, p]] for p, mapping in enumerate(renumber)]) \
        if len(compiled.sequences) else compiled.sequences.copy()
    game = CompiledGame(compiled.game, tuple(layouts), sequences.astype(np.int64), compiled.coefficients,
                        compiled.denominator)
    return BinaryForm(compiled, game, tuple(chains))


def _binary_layout(layout: SequenceLayout) -> tuple[TreeLayout, tuple[tuple[int, ...], ...], np.ndarray]:
    """One player's chain layout, the chain of each original information set, and old -> new sequence numbers."""
    names: list[str] = []
    actions: list[tuple[str, ...]] = []
    parents: list[int] = []
    chains: list[tuple[int, ...]] = []
    mapping = np.zeros(layout.num_sequences, dtype=np.int64)
    next_sequence = 1
    for infoset in range(layout.num_infosets):
        labels = layout.infoset_actions(infoset)
        old = layout.infoset_sequences(infoset)
        parent = int(mapping[layout.parent_sequence(infoset)])
        name = layout.infoset_name(infoset)
        links = max(1, len(labels) - 1)
        chain = []
        for j in range(links):
            last = j == links - 1
            chain.append(len(names))
            names.append(name if j == 0 else f"{name}#{j + 1}")
            pair = tuple(labels[j:]) if last else (labels[j], _passing(labels[j + 1:]))
            actions.append(pair)
            parents.append(parent)
            mapping[old[j]] = next_sequence
            if last:
                for extra, s in enumerate(old[j + 1:], 1):
                    mapping[s] = next_sequence + extra
            parent = next_sequence + 1  # the passing sequence leads to the next link
            next_sequence += len(pair)
        chains.append(tuple(chain))
    return TreeLayout(tuple(names), tuple(actions), tuple(parents)), tuple(chains), mapping


def _passing(rest: Sequence[str]) -> str:
    return "one of " + "/".join(rest)
