"""Automorphisms of a compiled game: which information sets are images of each other.

An *automorphism* of a compiled game (:class:`~exactpoker.core.compiled.CompiledGame`)
is a permutation of every player's information sets and sequences that keeps
the sequence-form structure (the empty sequence, each information set's
actions in their order, each information set's parent sequence) and maps the
payoff entries onto themselves with the same integer coefficients.  Chance
probabilities are folded into those coefficients, so this is exactly Gilpin
and Sandholm's payoff-preserving game isomorphism (GameShrink), read on the
sequence form: a permutation of cards (a suit that plays no role, dice whose
order does not matter) shows up as one.

The search is the one of canonical-labelling programs (McKay's
individualisation--refinement), with colour refinement (1-dimensional
Weisfeiler--Leman) on a graph of sequences, information sets and payoff
entries:

1. :func:`stable_colouring` refines the initial colours (a vertex's kind,
   its player, an entry's coefficients) by the multiset of coloured
   neighbours until nothing splits; an automorphism maps every vertex into
   its own colour class.
2. :func:`find_automorphism` refines the disjoint union of two copies of the
   graph with ``u`` singled out in the first and ``v`` in the second; the
   classes pair the vertices into a candidate permutation, and while that is
   not an automorphism it keeps singling out matching vertices and refining.
3. :func:`is_automorphism` checks each candidate *exactly* (integer
   comparisons of the structure and of every entry and coefficient).  Only a
   permutation that passes is used.

The colours are hashed sums, so a collision could merge two classes; that can
only make a candidate fail the exact check, never let a wrong one through.
:func:`symmetry_orbits` joins the information sets that the found
automorphisms map onto each other: the orbits of the group they generate.

References
----------
A. Gilpin, T. Sandholm, "Lossless abstraction of imperfect information
games", Journal of the ACM 54(5), 2007, sections 3--5 (ordered game
isomorphism, GameShrink).
B. D. McKay, A. Piperno, "Practical graph isomorphism, II", Journal of
Symbolic Computation 60 (2014), section 2 (refinement and
individualisation).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Callable

import numpy as np

from exactpoker.core.compiled import CompiledGame, SequenceLayout, entry_keys

__all__ = ["LayoutArrays", "SymmetryGraph", "stable_colouring", "find_automorphism", "is_automorphism",
           "symmetry_orbits", "Orbits"]

#: Failed searches after which :func:`symmetry_orbits` stops looking (each costs refinements of the graph).
MAX_FAILURES = 16
#: Refinements one search may run before it gives up (one suffices for each suit swap of Leduc).
MAX_STEPS = 32

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _mix(x: np.ndarray) -> np.ndarray:
    """Steele--Lea--Flood's splitmix64 finaliser, elementwise on ``uint64`` (wrapping arithmetic)."""
    x = x + _GOLDEN
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@dataclass(frozen=True, eq=False)
class LayoutArrays:
    """One player's sequence layout as arrays: per information set its first sequence, width and parent
    sequence; per non-empty sequence its information set and action number."""

    firsts: np.ndarray
    widths: np.ndarray
    parents: np.ndarray
    owners: np.ndarray
    actions: np.ndarray

    @classmethod
    def of(cls, layout: SequenceLayout) -> "LayoutArrays":
        """The arrays from the layout's (cached) owner of each sequence: an information set's actions are
        consecutive sequences, so its first is where the owner changes."""
        count = layout.num_infosets
        parents = np.fromiter((layout.parent_sequence(i) for i in range(count)), np.int64, count)
        owners = np.asarray(layout.sequence_infoset[1:], dtype=np.int64)
        widths = np.bincount(owners, minlength=count).astype(np.int64)
        starts = np.flatnonzero(np.r_[True, owners[1:] != owners[:-1]]) if len(owners) else owners
        firsts = np.zeros(count, dtype=np.int64)
        firsts[owners[starts]] = 1 + starts
        return cls(firsts, widths, parents, owners, np.arange(1, layout.num_sequences) - firsts[owners])


@dataclass(frozen=True, eq=False)
class SymmetryGraph:
    """The coloured graph of a compiled game whose automorphisms are the game's.

    Vertices are numbered: each player's sequences (player 0 first), then each
    player's information sets, then (not with two players) the payoff entries.  ``src``, ``dst`` and
    ``label`` list directed labelled edges (both directions of every tie);
    ``colours`` are the initial colours as ranks.  Edges are sorted by ``src``.
    """

    compiled: CompiledGame
    layouts: tuple[LayoutArrays, ...]
    seq_offsets: tuple[int, ...]
    inf_offsets: tuple[int, ...]
    entry_offset: int
    colours: np.ndarray
    src: np.ndarray
    dst: np.ndarray
    label: np.ndarray

    @property
    def size(self) -> int:
        return len(self.colours)

    @classmethod
    def of(cls, compiled: CompiledGame) -> "SymmetryGraph":
        """Build the graph of ``compiled`` (linear in its sequences and entries).

        A two-player entry is an edge between its two sequences labelled by
        its coefficients; with other numbers of players it is a vertex of its
        own, tied to each player's sequence.
        """
        layouts, k = compiled.layouts, compiled.num_players
        seq_offsets, inf_offsets, total = [], [], 0
        for layout in layouts:
            seq_offsets.append(total)
            total += layout.num_sequences
        for layout in layouts:
            inf_offsets.append(total)
            total += layout.num_infosets
        entry_offset, entries = total, len(compiled.sequences)
        kinds = np.empty(total + (0 if k == 2 else entries), dtype=np.int64)
        edges: list[tuple[np.ndarray, np.ndarray, np.ndarray | int]] = []  # (from, to, label), one direction
        arrays = tuple(LayoutArrays.of(layout) for layout in layouts)
        for p, layout in enumerate(layouts):
            kinds[seq_offsets[p]:seq_offsets[p] + layout.num_sequences] = 3 * p + 1
            kinds[seq_offsets[p]] = 3 * p  # the empty sequence
            kinds[inf_offsets[p]:inf_offsets[p] + layout.num_infosets] = 3 * p + 2
            edges += _layout_edges(arrays[p], seq_offsets[p], inf_offsets[p])
        width = 1 + max(int(label) for _, _, label in edges) if edges else 1  # labels so far: 0, 2 + action
        classes = _coefficient_classes(compiled.coefficients)
        ends = [seq_offsets[q] + compiled.sequences[:, q].astype(np.int64) for q in range(k)]
        if k == 2:
            edges.append((ends[0], ends[1], width + classes))
        else:
            rows = np.arange(entries, dtype=np.int64) + entry_offset
            edges += [(rows, ends[q], width + q) for q in range(k)]
            kinds[entry_offset:] = 3 * k + classes
        back = 1 + max(int(np.max(label, initial=0)) for _, _, label in edges)
        src = np.concatenate([e[0] for e in edges] + [e[1] for e in edges])
        dst = np.concatenate([e[1] for e in edges] + [e[0] for e in edges])
        label = np.concatenate([np.broadcast_to(e[2], len(e[0])) for e in edges]
                               + [np.broadcast_to(np.asarray(e[2]) + back, len(e[0])) for e in edges])
        order = np.argsort(src, kind="stable")
        return cls(compiled, arrays, tuple(seq_offsets), tuple(inf_offsets), entry_offset,
                   np.unique(kinds, return_inverse=True)[1].astype(np.int64), src[order], dst[order],
                   label[order].astype(np.int64))

    @property
    def radices(self) -> tuple[int, ...]:
        """Each player's number of sequences: the digits of an entry's key."""
        return tuple(layout.num_sequences for layout in self.compiled.layouts)

    @cached_property
    def entry_index(self) -> tuple[np.ndarray | None, np.ndarray]:
        """The entries' keys (:func:`~exactpoker.core.compiled.entry_keys`) sorted, and the entry of each;
        ``(None, [])`` when the keys would overflow."""
        keys = entry_keys(self.compiled.sequences, self.radices)
        if keys is None:
            return None, np.zeros(0, dtype=np.int64)
        order = np.argsort(keys, kind="stable")
        return keys[order], order

    @cached_property
    def doubled_edges(self) -> "_Edges":
        """The edges of two disjoint copies of the graph (the second copy's vertices shifted by :attr:`size`),
        prepared once for every search."""
        n = self.size
        return _Edges.of(np.concatenate([self.src, self.src + n]), np.concatenate([self.dst, self.dst + n]),
                         np.concatenate([self.label, self.label]))


def _layout_edges(shape: LayoutArrays, seq0: int, inf0: int) -> list[tuple[np.ndarray, np.ndarray, int]]:
    """One player's ties: parent sequence to information set (label 0), information set to action ``a`` (2 + a)."""
    edges = [(seq0 + shape.parents, inf0 + np.arange(len(shape.parents), dtype=np.int64), 0)]
    for a in np.unique(shape.actions):
        chosen = np.flatnonzero(shape.actions == a)
        edges.append((inf0 + shape.owners[chosen], seq0 + 1 + chosen, 2 + int(a)))
    return edges


def _coefficient_classes(coefficients: np.ndarray) -> np.ndarray:
    """A class number per entry: equal numbers for equal coefficient rows (exact, Python ints when needed)."""
    if not len(coefficients):
        return np.zeros(0, dtype=np.int64)
    if coefficients.dtype != object:  # the rows' lexicographic ranks (np.unique(axis=0)'s, ten times faster)
        order = np.lexsort(coefficients.T[::-1])
        ordered = coefficients[order]
        classes = np.empty(len(order), dtype=np.int64)
        classes[order] = np.cumsum(np.r_[False, np.any(ordered[1:] != ordered[:-1], axis=1)])
        return classes
    seen: dict[tuple[int, ...], int] = {}
    return np.fromiter((seen.setdefault(tuple(int(v) for v in row), len(seen)) for row in coefficients.tolist()),
                       np.int64, len(coefficients))


@dataclass(frozen=True, eq=False)
class _Edges:
    """Edges sorted by source, prepared for :func:`_refine`: each edge's target and odd label hash, each
    source's first edge."""

    dst: np.ndarray
    odd: np.ndarray
    starts: np.ndarray
    owners: np.ndarray

    @classmethod
    def of(cls, src: np.ndarray, dst: np.ndarray, label: np.ndarray) -> "_Edges":
        odd = _mix(label.astype(np.uint64)) | np.uint64(1)
        starts = np.flatnonzero(np.r_[True, src[1:] != src[:-1]]) if len(src) else np.zeros(0, np.int64)
        return cls(dst, odd, starts, src[starts])


def stable_colouring(colours: np.ndarray, src: np.ndarray, dst: np.ndarray, label: np.ndarray) -> np.ndarray:
    """Colour refinement to the coarsest stable colouring finer than ``colours`` (edges sorted by ``src``).

    Each round a vertex's new colour is the rank of the pair (old colour, sum
    over its edges of a hash of the neighbour's colour times an odd hash of the
    edge's label, in wrapping 64-bit arithmetic).  Ranks are taken in the
    sorted order of those pairs, so equal inputs get equal colours in any copy
    of the graph (what :func:`find_automorphism` relies on).
    """
    return _refine(colours, _Edges.of(src, dst, label))


def _refine(colours: np.ndarray, edges: _Edges, enough: Callable[[np.ndarray], bool] | None = None) -> np.ndarray:
    """:func:`stable_colouring` on prepared edges; it stops early, at the first colouring (the initial one
    included) for which ``enough`` is true.

    Each round only splits classes, so whatever ``enough`` tests that only grows under splitting (the number
    of classes among some vertices) already holds of the stable colouring when it holds of an earlier one.
    """
    colours = np.unique(colours, return_inverse=True)[1].astype(np.int64)
    count = int(colours.max(initial=-1)) + 1
    while enough is None or not enough(colours):
        hashed = _mix(np.arange(count, dtype=np.uint64))[colours][edges.dst] * edges.odd
        signature = np.zeros(len(colours), dtype=np.uint64)
        if len(edges.starts):
            signature[edges.owners] = np.add.reduceat(hashed, edges.starts)
        order2 = np.lexsort((signature, colours))
        c, s = colours[order2], signature[order2]
        fresh = np.cumsum(np.r_[True, (c[1:] != c[:-1]) | (s[1:] != s[:-1])]) - 1
        colours = np.empty_like(colours)
        colours[order2] = fresh
        if int(fresh[-1]) + 1 == count:
            return colours
        count = int(fresh[-1]) + 1
    return colours


def find_automorphism(graph: SymmetryGraph, base: np.ndarray, u: int, v: int, *, eager: bool = True
                      ) -> np.ndarray | None:
    """An automorphism taking vertex ``u`` to ``v``, checked exactly, or None when this search finds none.

    ``base`` is the graph's stable colouring.  After each refinement the
    colour classes suggest a permutation (:func:`_completion`); it is returned
    if :func:`is_automorphism` accepts it.  Otherwise the vertices of the
    classes still holding several are paired and singled out: a vertex found
    in the class in both copies with itself (the permutation moves nothing it
    need not), else the first of each copy; ``eager`` pairs in every such
    class at once (one refinement for many choices), otherwise only in the
    smallest.  The result maps each vertex number below
    :attr:`SymmetryGraph.entry_offset` to its image.  None when two classes of
    unequal sizes appear, every class is single and the check fails, or
    :data:`MAX_STEPS` refinements did not find one.
    """
    n, cut = graph.size, graph.entry_offset
    colours = np.concatenate([base, base])
    pairs = (np.array([u]), np.array([v]))
    for _ in range(MAX_STEPS):
        fresh = int(colours.max()) + 1 + np.arange(len(pairs[0]))
        colours[pairs[0]], colours[n + pairs[1]] = fresh, fresh
        colours = _refine(colours, graph.doubled_edges)
        first, second = colours[:cut], colours[n:n + cut]
        width = int(colours.max()) + 1
        sizes = np.bincount(first, minlength=width)
        if np.any(sizes != np.bincount(second, minlength=width)):
            return None
        image = _completion(first, second)
        if is_automorphism(graph, image):
            return image
        open_classes = np.flatnonzero(sizes > 1)
        if not len(open_classes):
            return None
        if not eager:
            open_classes = open_classes[np.argsort(sizes[open_classes], kind="stable")[:1]]
        pairs = _pairs(first, second, open_classes)
    return None


def _completion(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """A colour-keeping permutation: a vertex of the same class in both copies fixed, the others paired in order."""
    image = np.arange(len(first))
    moved = np.flatnonzero(first != second)
    image[moved[np.argsort(first[moved], kind="stable")]] = moved[np.argsort(second[moved], kind="stable")]
    return image


def _pairs(first: np.ndarray, second: np.ndarray, classes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The vertices to single out next in ``classes``: fixed points where a vertex is in both copies' class."""
    wanted = np.zeros(int(max(first.max(), second.max())) + 1, dtype=bool)
    wanted[classes] = True
    fixed = np.flatnonzero(wanted[first] & (first == second))
    left = np.zeros_like(wanted)
    left[np.setdiff1d(classes, first[fixed])] = True
    in_a, in_b = np.flatnonzero(left[first]), np.flatnonzero(left[second])
    _, a_first = np.unique(first[in_a], return_index=True)
    _, b_first = np.unique(second[in_b], return_index=True)
    return np.concatenate([fixed, in_a[a_first]]), np.concatenate([fixed, in_b[b_first]])


def _distinct(values: np.ndarray) -> int:
    """How many different values ``values`` holds: ``len(np.unique(values))`` without the import of ``numpy.ma``
    that ``np.unique`` makes on first use (a twentieth of a small game's whole solve, issue 42 item 8)."""
    ordered = np.sort(values, axis=None)
    return int(ordered.size > 0) + int(np.count_nonzero(ordered[1:] != ordered[:-1]))


def is_automorphism(graph: SymmetryGraph, image: np.ndarray) -> bool:
    """Whether ``image`` (from :func:`find_automorphism`) maps the game onto itself, checked exactly.

    Each player's sequences and information sets must go to their own; the
    empty sequence to itself; action ``a`` of information set ``I`` to action
    ``a`` of the image of ``I``; the parent sequence of ``I`` to the parent of
    its image; and the payoff entries, with their integer coefficients, onto
    the same entries.
    """
    compiled = graph.compiled
    if _distinct(image) != len(image):
        return False
    seq_maps = []
    for p, layout in enumerate(compiled.layouts):
        s0, i0 = graph.seq_offsets[p], graph.inf_offsets[p]
        seqs = image[s0:s0 + layout.num_sequences] - s0
        infs = image[i0:i0 + layout.num_infosets] - i0
        if (seqs.min(initial=0) < 0 or seqs.max(initial=0) >= layout.num_sequences or seqs[0] != 0
                or infs.min(initial=0) < 0 or infs.max(initial=0) >= layout.num_infosets
                or not _keeps_layout(graph.layouts[p], seqs, infs)):
            return False
        seq_maps.append(seqs)
    mapped = np.stack([seq_maps[q][compiled.sequences[:, q]] for q in range(compiled.num_players)], axis=1)
    keys, order = graph.entry_index
    if keys is None:  # the sequence tuples do not fit one int64 key: sort both lists of tuples
        before, after = np.lexsort(compiled.sequences.T[::-1]), np.lexsort(mapped.T[::-1])
        return bool(np.array_equal(compiled.sequences[before], mapped[after])
                    and np.array_equal(compiled.coefficients[before], compiled.coefficients[after]))
    # The image of each entry must be an entry (the images are distinct: a bijection) with the same coefficients.
    wanted = entry_keys(mapped, graph.radices)
    found = np.minimum(np.searchsorted(keys, wanted), max(len(keys) - 1, 0))
    return bool(np.array_equal(keys[found], wanted)
                and np.array_equal(compiled.coefficients[order[found]], compiled.coefficients))



def _keeps_layout(shape: LayoutArrays, seqs: np.ndarray, infs: np.ndarray) -> bool:
    """Whether the maps keep each information set's number of actions, their order and its parent sequence."""
    return bool(np.array_equal(shape.widths[infs], shape.widths)
                and np.array_equal(seqs[shape.parents], shape.parents[infs])
                and np.array_equal(seqs[1:], shape.firsts[infs[shape.owners]] + shape.actions))


def _signature_classes(compiled: CompiledGame) -> int:
    """A lower bound on the number of orbits of information sets, in one pass over the payoff entries.

    Each sequence gets the wrapping sum of a hash of the coefficients of the
    entries that end in it; each information set the sum, over its actions,
    of a hash of (action number, its sequence's sum), then hashed with those
    of its player's own path down to it (:func:`_down_own_paths`).  An
    automorphism keeps all of these, so information sets with different
    signatures lie in different orbits (equal hashes of different rows can only merge classes:
    the bound stays a bound).  0 (no bound) when the coefficients are Python
    integers.
    """
    if compiled.coefficients.dtype == object:
        return 0
    coefficients = compiled.coefficients.astype(np.int64).astype(np.uint64)
    entry = _mix(coefficients[:, 0])
    for k in range(1, coefficients.shape[1]):
        entry = _mix(entry ^ _mix(coefficients[:, k] + np.uint64(k)))
    classes = 0
    for p, layout in enumerate(compiled.layouts):
        shape = LayoutArrays.of(layout)
        sequence = np.zeros(layout.num_sequences, dtype=np.uint64)
        np.add.at(sequence, compiled.sequences[:, p].astype(np.int64), entry)
        signature = np.zeros(layout.num_infosets, dtype=np.uint64)
        np.add.at(signature, shape.owners, _mix(sequence[1:] + _mix(shape.actions.astype(np.uint64))))
        classes += _distinct(_down_own_paths(shape, signature))
    return classes


def _down_own_paths(shape: LayoutArrays, signature: np.ndarray) -> np.ndarray:
    """Each information set's ``signature`` hashed with the signatures and action numbers along its player's
    own path from the empty sequence down to it.

    An automorphism fixes the empty sequence and maps an information set's
    parent sequence to its image's parent sequence with the same action
    number, so by induction down the path it keeps this hash too (given that
    it keeps ``signature``).  It tells apart information sets that differ
    only in what came before them, which a signature of the entries below
    cannot (in Liar's Dice every history with the same last bid has the same
    subtree).  Computed top-down, one round per level of the player's own
    information sets.
    """
    actions = _mix(shape.actions.astype(np.uint64))
    through = np.zeros(len(shape.owners) + 1, dtype=np.uint64)  # per sequence: the hash of the path to it
    for _ in range(len(signature) + 1):  # the paths are at most as deep as there are information sets
        down = _mix(signature ^ _mix(through[shape.parents]))
        below = _mix(down[shape.owners] + actions)
        if np.array_equal(below, through[1:]):
            break
        through[1:] = below
    return down


@dataclass(frozen=True)
class Orbits:
    """Each player's information sets grouped by the automorphisms found.

    Attributes
    ----------
    representative : tuple of numpy.ndarray
        Per player, each information set's orbit representative (its lowest member).
    generators : int
        How many exactly checked automorphisms were found (the orbits are those
        of the group they generate).
    failures : int
        Candidate permutations that failed (or searches that stopped): those
        information sets were left apart.
    """

    representative: tuple[np.ndarray, ...]
    generators: int
    failures: int


def _single(compiled: CompiledGame) -> Orbits:
    """Every information set its own orbit."""
    return Orbits(tuple(np.arange(layout.num_infosets) for layout in compiled.layouts), 0, 0)


def _checked(graph: SymmetryGraph, base: np.ndarray, u: int, v: int) -> np.ndarray | None:
    """An automorphism taking ``u`` to ``v`` (checked exactly): eager search, then careful."""
    for eager in (True, False):
        image = find_automorphism(graph, base, u, v, eager=eager)
        if image is not None:
            return image
    return None


def symmetry_orbits(compiled: CompiledGame, max_failures: int = MAX_FAILURES, min_merge: float = 0.0) -> Orbits:
    """The orbits of each player's information sets under the game's automorphisms (module docstring).

    For every colour class of information sets in the stable colouring, the
    first member is matched against every other member not yet in its orbit;
    each automorphism found and checked merges all the cycles it has.  When
    the classes could merge fewer than the fraction ``min_merge`` of all
    information sets (an orbit lies inside a class), no search is made and
    every orbit is single: the bound is exact, the search would not pay.
    """
    infosets = sum(layout.num_infosets for layout in compiled.layouts)
    if min_merge > 0 and infosets - _signature_classes(compiled) < min_merge * infosets:
        return _single(compiled)  # already the one-pass invariant leaves too few information sets to merge
    graph = SymmetryGraph.of(compiled)
    first_inf, cut = graph.inf_offsets[0], graph.entry_offset

    def too_fine(colours: np.ndarray) -> bool:  # refinement only splits: once too fine, finer still when stable
        return cut - first_inf - _distinct(colours[first_inf:cut]) < min_merge * (cut - first_inf)

    base = _refine(graph.colours, _Edges.of(graph.src, graph.dst, graph.label), too_fine if min_merge > 0 else None)
    if too_fine(base):
        return _single(compiled)
    parent = np.arange(cut - first_inf)  # union-find over every player's information sets

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = int(parent[x])
        return x

    generators = failures = 0
    infoset_colours = base[first_inf:cut]
    order = np.argsort(infoset_colours, kind="stable")
    bounds = np.flatnonzero(np.r_[True, np.diff(infoset_colours[order]) != 0, True])
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        members = order[lo:hi]
        for other in members[1:]:
            if failures >= max_failures:
                break
            if find(int(members[0])) == find(int(other)):
                continue
            image = _checked(graph, base, first_inf + int(members[0]), first_inf + int(other))
            if image is None:
                failures += 1
                continue
            generators += 1
            moved = image[first_inf:cut] - first_inf
            changed = np.flatnonzero(moved != np.arange(len(moved)))
            for x, y in zip(changed.tolist(), moved[changed].tolist()):
                a, b = find(x), find(y)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    # Every union keeps the lower root, so each root is its orbit's lowest member.
    representative = np.fromiter((find(x) for x in range(cut - first_inf)), np.int64, cut - first_inf)
    per_player = tuple(representative[o - first_inf:o - first_inf + layout.num_infosets] - (o - first_inf)
                       for o, layout in zip(graph.inf_offsets, compiled.layouts))
    return Orbits(per_player, generators, failures)
