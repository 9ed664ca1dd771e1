"""Lossless abstraction: solve the game with its isomorphic information sets merged.

Gilpin and Sandholm's GameShrink merges the information sets that a
payoff-preserving isomorphism of the game maps onto each other (a suit that
plays no role, dice whose order does not matter) and solves the smaller game.
Here the isomorphisms are the automorphisms of the compiled game that
:func:`exactpoker.solve.structure.symmetry.symmetry_orbits` finds and checks exactly;
the merge is done on the sequence form:

* each orbit of information sets becomes one information set (named after its
  lowest member) with the same actions, its parent sequence the orbit of the
  members' parent sequences;
* each payoff entry goes to the entry of its sequences' orbits, and entries
  that meet are added (the chance probabilities of an orbit summed).

A realization plan of the reduced game is a plan of the full game constant
on orbits and gives the same payoffs, and against a profile constant on
orbits every player has a best reply constant on orbits (average any best
reply over the group), so an equilibrium of the reduced game, given to every
member of each orbit (:meth:`Abstraction.lift`), is an equilibrium of the
full game: zero-sum or not.  The dispatcher still certifies the lifted profile
on the full game (:func:`exactpoker.certify.verify`).

References
----------
A. Gilpin, T. Sandholm, "Lossless abstraction of imperfect information
games", Journal of the ACM 54(5), 2007, sections 3--6.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from exactpoker.core.compiled import CompiledGame, SequenceLayout, TreeLayout, entry_keys
from exactpoker.core.profile import BehaviourProfile
from exactpoker.core.tree import GameTree, rebuild_tree
from exactpoker.numbers import exact_str
from exactpoker.solve.structure.symmetry import Orbits, symmetry_orbits

__all__ = ["Abstraction", "lossless_abstraction", "abstraction_size", "relabel_infosets"]

_INT64_SAFE = 2**62


@dataclass(frozen=True, eq=False)
class Abstraction:
    """A game, its lossless abstraction, and the map between their information sets.

    Attributes
    ----------
    full : CompiledGame
        The game as given.
    reduced : CompiledGame
        The game with every orbit of information sets merged into one; its
        ``game`` is the full tree with each information set renamed to its
        orbit's representative (:func:`relabel_infosets`) when the full game
        is a tree, and compiles to the same sequence form.
    orbit : tuple of numpy.ndarray
        Per player, each full information set's number in the reduced game.
    generators : int
        How many exactly checked automorphisms of the full game were found.
    """

    full: CompiledGame
    reduced: CompiledGame
    orbit: tuple[np.ndarray, ...]
    generators: int

    @property
    def reduces(self) -> bool:
        """Whether any two information sets were merged."""
        return any(r.num_infosets < f.num_infosets for r, f in zip(self.reduced.layouts, self.full.layouts))

    def lift(self, profile: BehaviourProfile) -> BehaviourProfile:
        """The reduced game's ``profile`` on the full game: every member of an orbit plays its orbit's strategy."""
        return BehaviourProfile(tuple(
            tuple(strategy[o] for o in orbit.tolist()) for strategy, orbit in zip(profile.strategies, self.orbit)
        ))

    def summary(self) -> dict[str, Any]:
        """The sizes before and after (the result's ``details["abstraction"]``; see :func:`abstraction_size`)."""
        return _summary(self.full.layouts, self.reduced.layouts, self.generators)


def lossless_abstraction(compiled: CompiledGame, orbits: Orbits | None = None) -> Abstraction:
    """The lossless abstraction of ``compiled`` (module docstring).

    Parameters
    ----------
    compiled : CompiledGame
    orbits : Orbits, optional
        Orbits already found by :func:`~exactpoker.solve.structure.symmetry.symmetry_orbits`.

    Returns
    -------
    Abstraction
        Its ``reduced`` game is ``compiled`` itself when no two information
        sets are isomorphic.
    """
    orbits = symmetry_orbits(compiled) if orbits is None else orbits
    merged = [_merge(layout, rep) for layout, rep in zip(compiled.layouts, orbits.representative)]
    if all(layout.num_infosets == merged_layout.num_infosets
           for layout, (merged_layout, _, _) in zip(compiled.layouts, merged)):
        identity = tuple(np.arange(layout.num_infosets) for layout in compiled.layouts)
        return Abstraction(compiled, compiled, identity, orbits.generators)
    layouts = tuple(m[0] for m in merged)
    sequences, coefficients = _merged_entries(compiled, [m[1] for m in merged], layouts)
    game, flat, full_flat = compiled.game, None, compiled.flat
    if isinstance(game, GameTree):
        renames = [{layout.infoset_name(i): reduced.names[o] for i, o in enumerate(orbit.tolist())
                    if layout.infoset_name(i) != reduced.names[o]}
                   for layout, (reduced, _, orbit) in zip(compiled.layouts, merged)]
        game = relabel_infosets(game, renames)
        if full_flat is not None:  # the full game's arrays read off its rules, relabelled as its tree is
            flat = lambda: full_flat().relabelled(renames)  # noqa: E731
    reduced = CompiledGame(game, layouts, sequences, coefficients, compiled.denominator, flat)  # type: ignore[arg-type]
    return Abstraction(compiled, reduced, tuple(m[2] for m in merged), orbits.generators)


def abstraction_size(compiled: CompiledGame, orbits: Orbits | None = None) -> dict[str, Any]:
    """The size of ``compiled`` after lossless abstraction, without building or solving the reduced game.

    Returns
    -------
    dict
        ``information_sets`` and ``sequences`` (each ``{"full": [...],
        "reduced": [...]}``, one number per player), ``factor`` (all players'
        sequences before over after, an exact fraction as a string) and
        ``automorphisms`` (the checked automorphisms found).
    """
    orbits = symmetry_orbits(compiled) if orbits is None else orbits
    reduced = []
    for layout, rep in zip(compiled.layouts, orbits.representative):
        members = np.unique(rep).tolist()
        reduced.append((len(members), 1 + sum(len(layout.infoset_sequences(i)) for i in members)))
    full = [(layout.num_infosets, layout.num_sequences) for layout in compiled.layouts]
    return _size_summary(full, reduced, orbits.generators)


def _summary(full: tuple[SequenceLayout, ...], reduced: tuple[SequenceLayout, ...], generators: int) -> dict[str, Any]:
    return _size_summary([(layout.num_infosets, layout.num_sequences) for layout in full],
                         [(layout.num_infosets, layout.num_sequences) for layout in reduced], generators)


def _size_summary(full: list[tuple[int, int]], reduced: list[tuple[int, int]], generators: int) -> dict[str, Any]:
    return {
        "information_sets": {"full": [f[0] for f in full], "reduced": [r[0] for r in reduced]},
        "sequences": {"full": [f[1] for f in full], "reduced": [r[1] for r in reduced]},
        "factor": exact_str(Fraction(sum(f[1] for f in full), sum(r[1] for r in reduced))),
        "automorphisms": generators,
    }


def _merge(layout: SequenceLayout, representative: np.ndarray) -> tuple[TreeLayout, np.ndarray, np.ndarray]:
    """The merged layout, each full sequence's reduced sequence, and each full information set's orbit number.

    Orbits are numbered in the order of their lowest members, so a parent
    comes before its children as in the full layout.
    """
    members = np.unique(representative)
    number = np.full(layout.num_infosets, -1, dtype=np.int64)
    number[members] = np.arange(len(members))
    orbit = number[representative]
    widths = [len(layout.infoset_sequences(i)) for i in members.tolist()]
    firsts = np.cumsum([1] + widths[:-1]).astype(np.int64)
    seq_map = np.zeros(layout.num_sequences, dtype=np.int64)
    for i in range(layout.num_infosets):
        block = layout.infoset_sequences(i)
        seq_map[block.start:block.stop] = firsts[orbit[i]] + np.arange(len(block))
    reps = members.tolist()
    merged = TreeLayout(tuple(layout.infoset_name(i) for i in reps), tuple(layout.infoset_actions(i) for i in reps),
                        tuple(int(seq_map[layout.parent_sequence(i)]) for i in reps))
    return merged, seq_map, orbit


def _merged_entries(compiled: CompiledGame, seq_maps: list[np.ndarray], layouts: tuple[TreeLayout, ...]
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The payoff entries on the merged sequences, entries that meet added, all-zero ones dropped."""
    mapped = np.stack([seq_maps[q][compiled.sequences[:, q]] for q in range(compiled.num_players)], axis=1)
    keys = entry_keys(mapped, tuple(layout.num_sequences for layout in layouts))
    if keys is None:
        unique, inverse = np.unique(mapped, axis=0, return_inverse=True)
    else:  # one 1-D sort; the first entry of each key gives its row
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        unique = mapped[first]
    coefficients = compiled.coefficients
    bound = int(np.abs(coefficients).max(initial=0)) * max(1, len(coefficients))
    dtype = np.int64 if coefficients.dtype != object and bound < _INT64_SAFE else object
    totals = np.zeros((len(unique), compiled.num_players), dtype=dtype)
    np.add.at(totals, inverse.reshape(-1), coefficients.astype(dtype))
    keep = np.any(totals != 0, axis=1)
    return unique[keep].astype(np.int64), totals[keep]


def relabel_infosets(game: GameTree, renames: list[dict[str, str]]) -> GameTree:
    """``game`` with player ``p``'s information set ``name`` renamed ``renames[p][name]`` (others kept).

    Giving two information sets one name merges them: the player can no longer
    tell them apart.  Subtrees with nothing renamed, and leaves, are shared with ``game``.
    A :class:`~exactpoker.core.tree.LazyTree` not built yet (a game compiled
    from its rules, :func:`~exactpoker.core.poker_compile.compile_poker`) gives
    a lazy tree too (:func:`~exactpoker.core.tree.rebuild_tree`): nothing is
    built unless a consumer reads its nodes.
    """
    return rebuild_tree(game, infoset=lambda node: renames[node.player].get(node.infoset, node.infoset))
