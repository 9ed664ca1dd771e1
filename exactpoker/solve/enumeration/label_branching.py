"""Every extreme equilibrium of a two-player game by branching on labels (EEE), exactly and in little memory.

The enumeration of extreme equilibria of Audet, Hansen, Jaumard and Savard
("Enumeration of all extreme equilibria of bimatrix games", SIAM J. Sci.
Comput. 23, 2001), in the form of Avis, Rosenberg, Savani and von Stengel
("Enumeration of Nash equilibria for two-player games", Economic Theory 42,
2010, section 6) with Rosenberg's rule (LSE-CDAM-2005-18): labels are forced
until one player's face is a single point, whose complementary face in the
other polytope is then listed.

Both best-response polyhedra ``P`` and ``Q``
(:func:`exactpoker.solve.enumeration.two_player.best_response_polyhedron`), their
columns put in label order, have one coordinate per label ``k`` (a sequence of
either player): a pair of points is an equilibrium exactly when
``p_k q_k = 0`` for every ``k``, and the extreme equilibria are such pairs of
vertices.  A node of the search forces a set of labels to 0 in ``P`` and a
disjoint set in ``Q`` and holds a vertex of each face
(:class:`~exactpoker.solve.enumeration.polytope_face.Face`, exact).  At a node:

1. *propagation*: a free label that is > 0 on the whole of one face is forced
   in the other (an exact LP each; the node is cut when a label is > 0 on both
   faces, or a face becomes empty, or a required coordinate can no longer be
   > 0) -- this cut the tree 17 to 35 times on random 12 x 12 and 15 x 15
   games and ladder poker with 5 cards;
2. *a leaf*: when a face is a single point ``p``, the node's equilibria pair
   ``p`` with the vertices of the other polytope's face where every label ``p``
   does not carry is forced; each ``p`` is listed once;
3. *a branch* on a label ``k``: the one with the largest ``p_k q_k`` at the
   vertices held if some is > 0 at both (then neither child holds the pair),
   else one not yet forced.  The children split the node's pairs: ``p_k = 0``
   (forced in ``P``), or ``p_k > 0`` (*required* in ``P``: the points sought
   have it > 0, which some point of the face has exactly when each required
   coordinate is > 0 somewhere on it) and so ``q_k = 0`` (forced in ``Q``).
   No pair lies below two nodes, so on degenerate games (poker trees) no
   subtree is searched twice: ladder poker with 7 cards, 6,287 -> 749 nodes.
   When every label is forced, each vertex of ``P``'s face is a leaf.

The search holds the faces along one path and the points already listed: its
memory is the answer's, not the polytopes' (whose lex-feasible bases
:func:`~exactpoker.solve.enumeration.vertices.vertices` keeps in a table).

Before it starts, its work is estimated: from the sizes (a phase one of each
polytope and a path of the search cost at least so many pivots of tableaux
this large), then from random probes down the tree (Knuth, "Estimating the
efficiency of backtrack programs", Math. Comp. 29, 1975); a search put past
its budget (a minute of CPU time) is refused with the counts, and so is one
that passes it.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from exactpoker.errors import InvalidParameterError
from exactpoker.solve.enumeration.polytope_face import Face, Point, face_vertices

__all__ = ["LabelSearch", "SearchCounts", "System", "check_sizes", "label_branching", "label_order", "MAX_SECONDS"]

#: The budget of one search (about a minute) in CPU seconds of this process -- a wall-clock budget would refuse on
#: a busy machine what an idle one finishes: checked by the estimates before the search starts and as it goes.
MAX_SECONDS = 60.0
#: Seconds per tableau entry of one pivot (big integers in numpy object arrays; measured on this machine's kind).
PIVOT_SECONDS_PER_ENTRY = 2.5e-7
#: Random probes of the tree for Knuth's estimate.
PROBES = 16

System = tuple[list[list[int]], list[int]]
#: ``tick(nodes visited, estimated nodes)``.
Tick = Callable[[int, int], None]


@dataclass
class SearchCounts:
    """What a search did: nodes expanded, leaves listed, and Knuth's estimate of the nodes beforehand."""

    nodes: int = 0
    leaves: int = 0
    estimated_nodes: int = 0


@dataclass
class LabelSearch:
    """The search's state: both polyhedra (columns in label order), the pairs found, the points listed."""

    systems: tuple[System, System]
    what: tuple[str, str]
    roots: tuple[Face, Face] = field(init=False)
    pairs: set[tuple[Point, Point]] = field(default_factory=set)
    listed: tuple[set[Point], set[Point]] = field(default_factory=lambda: (set(), set()))
    counts: SearchCounts = field(default_factory=SearchCounts)

    def __post_init__(self) -> None:
        self.roots = (Face.of(*self.systems[0]), Face.of(*self.systems[1]))

    @property
    def labels(self) -> int:
        return self.roots[0].width

    def complementary(self, side: int, point: Point) -> None:
        """Pair ``point`` (a vertex of ``side``'s polytope) with every vertex of the other that completes it."""
        if point in self.listed[side]:
            return
        self.listed[side].add(point)
        self.counts.leaves += 1
        other = 1 - side
        face = self.roots[other].copy()
        for k, value in enumerate(point):
            if value and not face.force(k):
                return
        if face.is_point():
            found = [face.point()]
        else:
            found = face_vertices(*self.systems[other], face, what=f"the face of {self.what[other]} opposite a vertex")
        for q in found:
            self.pairs.add((point, q) if side == 0 else (q, point))

    def propagate(self, faces: list[Face], assigned: int) -> tuple[list[Face], int] | None:
        """Force in the other face every free label that one face keeps > 0 (step 1); None: the node is cut."""
        faces = list(faces)
        while True:
            free = ((1 << self.labels) - 1) & ~assigned
            stuck = [faces[0].positive_everywhere(free), 0]  # a label stuck in both: its forcing below fails
            stuck[1] = faces[1].positive_everywhere(free & ~stuck[0])
            if not (stuck[0] | stuck[1]):
                return faces, assigned
            for side in (0, 1):
                forced_here = stuck[1 - side]
                if not forced_here:
                    continue
                face = faces[side].copy()
                for k in range(self.labels):
                    if forced_here >> k & 1 and not face.force(k):
                        return None
                faces[side] = face
                assigned |= forced_here

    def branching_label(self, faces: list[Face], assigned: int) -> int | None:
        """The free label with the largest ``p_k q_k`` at the vertices held, else one that can still shrink a face
        (step 3; the largest product cut the tree by a third against the first such label); None: all forced."""
        free = ((1 << self.labels) - 1) & ~assigned
        if not free:
            return None
        both = free & faces[0].positive() & faces[1].positive()
        if both:
            values = [face.values() for face in faces]
            return max((k for k in range(self.labels) if both >> k & 1), key=lambda k: values[0][k] * values[1][k])
        for candidates in [free & ~sum(1 << c for c in face.basic) for face in faces] + [free]:
            if candidates:
                return (candidates & -candidates).bit_length() - 1
        return None  # pragma: no cover - free is not empty

    def expand(self, faces: list[Face], assigned: int) -> list[tuple[list[Face], int]]:
        """One node: its leaves listed, and its children (none when cut or a leaf)."""
        propagated = self.propagate(faces, assigned)
        if propagated is None:
            return []
        faces, assigned = propagated
        if not faces[0].required_possible():
            return []
        for side in (0, 1):
            if faces[side].is_point():
                if not faces[side].required & ~faces[side].positive():
                    self.complementary(side, faces[side].point())
                return []
        label = self.branching_label(faces, assigned)
        if label is None:  # every label forced: the node's equilibria are the product of its two faces
            for p in face_vertices(*self.systems[0], faces[0], what=f"a face of {self.what[0]}"):
                self.complementary(0, p)
            return []
        children = []
        first = faces[0].copy()
        if first.force(label):  # p_label = 0
            children.append(([first, faces[1]], assigned | 1 << label))
        kept, second = faces[0].copy(), faces[1].copy()
        if kept.require(label) and second.force(label):  # p_label > 0, so q_label = 0
            children.append(([kept, second], assigned | 1 << label))
        return children


def _refusal(reason: str, counts: SearchCounts) -> InvalidParameterError:
    return InvalidParameterError(
        f"--all: {reason} (label search: {counts.nodes} nodes visited, {counts.leaves} leaves); "
        "the game is too large for --all")


def _pivot_seconds(systems: tuple[System, System]) -> float:
    """Seconds of one pivot of the larger tableau (:data:`PIVOT_SECONDS_PER_ENTRY`)."""
    return max(len(A) * len(A[0]) for A, _ in systems) * PIVOT_SECONDS_PER_ENTRY


def check_sizes(systems: tuple[System, System], seconds: float) -> None:
    """Refuse, before any pivot, a search whose least work passes the budget: a phase one of each polytope (a
    pivot per row) and a path to a first leaf (about a pivot per label), at :func:`_pivot_seconds` a pivot."""
    rows, labels = sum(len(A) for A, _ in systems), len(systems[0][0][0])
    least = (rows + labels) * _pivot_seconds(systems)
    if least > seconds:
        raise InvalidParameterError(
            f"--all: the best-response polytopes ({len(systems[0][0])} and {len(systems[1][0])} rows, {labels} "
            f"labels) need about {rows + labels} exact pivots of about {_pivot_seconds(systems):.3f} s each "
            f"(~{least:.0f} s) before the first equilibrium, past the budget of {seconds:.0f} s; "
            "the game is too large for --all")


def estimate_nodes(search: LabelSearch, seconds: float, probes: int = PROBES, seed: int = 0) -> tuple[float, float]:
    """Knuth's estimate of the tree's nodes (mean over random probes of ``1 + d_1 + d_1 d_2 + ...``) and the
    mean seconds a node took in the probes.  The probes' leaves are listed as in the search (nothing is lost);
    probes that take more than ``seconds`` are refused."""
    rng = random.Random(seed)
    total, spent, expanded = 0.0, 0.0, 0
    for probe in range(probes):
        if spent > seconds:
            raise _refusal(f"{probe} probes of the search tree took {spent:.0f} CPU s ({expanded} nodes), past a "
                           f"quarter of the budget", search.counts)
        node, weight, estimate = ([search.roots[0].copy(), search.roots[1].copy()], 0), 1.0, 1.0
        while True:
            start = time.process_time()
            children = search.expand(*node)
            spent, expanded = spent + time.process_time() - start, expanded + 1
            if not children:
                break
            weight *= len(children)
            estimate += weight
            node = rng.choice(children)
        total += estimate
    return total / probes, spent / expanded


def label_branching(systems: tuple[System, System], *, what: tuple[str, str] = ("P", "Q"),
                    seconds: float = MAX_SECONDS, tick: Tick | None = None) -> LabelSearch:
    """Every complementary pair of vertices of two polyhedra whose columns are the same labels (module docstring).

    Parameters
    ----------
    systems : ((A, b), (A, b))
        ``{z >= 0 : A z = b}`` for each player (integers, full row rank,
        ``b >= 0``), column ``k`` of both the label ``k``.
    what : (str, str)
        The polyhedra's names in messages.
    seconds : float
        The budget: refused before the search by its estimates, or as it passes it.
    tick : callable, optional
        ``tick(nodes visited, estimated nodes)`` as the search goes.

    Returns
    -------
    LabelSearch
        ``pairs``: every complementary pair of vertices; ``counts``.

    Raises
    ------
    InvalidParameterError
        When the estimates or the search pass the budget (with the counts).
    """
    check_sizes(systems, seconds)
    start = time.process_time()
    search = LabelSearch(systems, what)
    nodes, per_node = estimate_nodes(search, seconds / 4)
    search.counts.estimated_nodes = round(nodes)
    if nodes * per_node > 3 * seconds:
        raise _refusal(f"the search tree is estimated at {nodes:.3g} nodes of {per_node * 1000:.0f} ms each "
                       f"(Knuth's estimate from {PROBES} probes), past the budget of {seconds:.0f} CPU s",
                       search.counts)
    deadline = start + seconds
    stack = [([search.roots[0].copy(), search.roots[1].copy()], 0)]
    while stack:
        if time.process_time() > deadline:
            raise _refusal(f"the search passed its budget of {seconds:.0f} CPU s (estimated {nodes:.3g} nodes)",
                           search.counts)
        search.counts.nodes += 1
        if tick is not None:
            tick(search.counts.nodes, max(search.counts.nodes, search.counts.estimated_nodes))
        stack.extend(reversed(search.expand(*stack.pop())))
    return search


def label_order(labels: Sequence[int]) -> list[int]:
    """The column order that puts a polyhedron's coordinates in label order (label ``k`` at column ``k``)."""
    return sorted(range(len(labels)), key=lambda k: labels[k])
