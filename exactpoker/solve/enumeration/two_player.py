"""Every extreme equilibrium of a two-player game, exactly, and its maximal convex sets of equilibria.

The method of Gambit's ``enummixed`` (Avis, Rosenberg, Savani and von Stengel,
"Enumeration of Nash equilibria for two-player games", Economic Theory 42,
2010, sections 3-5), on the sequence form so that it covers extensive games
(von Stengel, "Efficient computation of behavior strategies", GEB 14, 1996;
Koller, Megiddo and von Stengel, GEB 14, 1996, section 4).

With ``E x = e``, ``F y = f`` the realization constraints and ``A``, ``B`` the
players' sequence-form payoffs, player 1's best-response polyhedron is

.. math::

    P = \\{(x, q) : E x = e,\\; x \\ge 0,\\; s = F^T q - B^T x \\ge 0\\}

(``q``: player 2's best-response values by information set, the dual of
player 2's best-response LP) and player 2's is
``Q = {(y, p) : F y = f, y >= 0, t = E^T p - A y >= 0}``.  Label ``x_i = 0`` or
``t_i = 0`` with player 1's sequence ``i``, and ``y_j = 0`` or ``s_j = 0``
with player 2's sequence ``j``: ``(x, y)`` is an equilibrium exactly when some
``(x, q)`` in ``P`` and ``(y, p)`` in ``Q`` together carry every label
(complementary slackness of both best-response LPs).  A point and a vertex of
``P`` or ``Q`` meet every such face, which is bounded (``p`` and ``q`` are
bounded once the opponent's support fixes their tight rows), so the
**extreme equilibria** are the complementary pairs of vertices; for a
normal-form game (one information set each) ``P`` and ``Q`` are the
polyhedra of Avis et al. section 3 written with the value as a variable.

:func:`all_equilibria_two_player`:

1. removes ``q`` (``p``): with the rows of ``N`` a basis of ``{w : F w = 0}``,
   ``s = F^T q - B^T x`` for some ``q`` exactly when ``N (s + B^T x) = 0``,
   so ``P`` is the polyhedron ``{(x, s) >= 0 : E x = e, N B^T x + N s = 0}``;
2. lists the vertices of both (:func:`exactpoker.solve.enumeration.vertices.vertices`,
   exact lexicographic pivoting, however degenerate the game) within its limit
   of bases, and pairs them by their labels; past that limit (a poker tree's
   degenerate polytopes, a bimatrix game past 12 x 12) it finds the
   complementary pairs of vertices instead by branching on labels
   (:func:`exactpoker.solve.enumeration.label_branching.label_branching`, EEE), whose
   memory and time go with the equilibria rather than with the polytopes;
3. the realization plans of the pairs give the
   bipartite graph whose maximal bicliques are the maximal convex sets of
   equilibria (:func:`exactpoker.solve.enumeration.convex_sets.maximal_bicliques`); in each
   set a plan that is a convex combination of the set's others is dropped
   (:func:`exactpoker.solve.lp.optimal_set.extreme_points`; for the normal form
   none is);
4. turns every extreme equilibrium into behaviour strategies
   (:meth:`BehaviourProfile.from_plans`); the dispatcher certifies each one.

A **zero-sum** game needs no pairing: its equilibria are the products of the
players' optimal strategies, so the extreme equilibria are the products of the
vertices of the two optimal sets (:func:`exactpoker.solve.lp.optimal_set.optimal_set`)
and they form one convex set, the product of the two.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

import numpy as np
from flint import fmpz_mat

from exactpoker.core.compiled import CompiledGame, SequenceLayout
from exactpoker.core.profile import BehaviourProfile, behaviour_from_plan
from exactpoker.errors import InvalidParameterError
from exactpoker.numbers import exact_str
from exactpoker import progress as reporting
from exactpoker.solve.enumeration.convex_sets import maximal_bicliques
from exactpoker.solve.enumeration.label_branching import (MAX_SECONDS, SearchCounts, System, check_sizes, label_branching,
                                              label_order)
from exactpoker.solve.lp.optimal_set import extreme_points
from exactpoker.solve.lp.sequence_form import payoff_numerators, realization_matrix
from exactpoker.solve.enumeration.vertices import BasisLimitError, Progress, vertices

__all__ = ["AllEquilibria", "ConvexSet", "all_equilibria_two_player", "best_response_polyhedron",
           "VERTEX_METHOD", "LABEL_METHOD", "ZERO_SUM_METHOD"]

Plan = tuple[Fraction, ...]

VERTEX_METHOD = ("vertex enumeration of the sequence-form best-response polytopes "
                 "(exact lexicographic pivoting; Avis, Rosenberg, Savani, von Stengel 2010)")
LABEL_METHOD = ("branching on labels over the sequence-form best-response polytopes (EEE, exact pivots; "
                "Audet, Hansen, Jaumard, Savard 2001; Avis, Rosenberg, Savani, von Stengel 2010, section 6)")
ZERO_SUM_METHOD = ("zero-sum: the vertices of each player's optimal strategy set "
                   "(faces of the sequence-form LPs, exact); the equilibria are their product")


@dataclass(frozen=True)
class ConvexSet:
    """One maximal convex set of equilibria: ``conv(plans[0][i] for i in strategies[0]) x conv(...)``.

    Attributes
    ----------
    strategies : (tuple of int, tuple of int)
        Each player's extreme strategies in the set, as indices into :attr:`AllEquilibria.plans`.
    equilibria : tuple of int
        The extreme equilibria in the set (every pair of those strategies), as
        indices into :attr:`AllEquilibria.pairs`.
    """

    strategies: tuple[tuple[int, ...], tuple[int, ...]]
    equilibria: tuple[int, ...]


@dataclass(frozen=True)
class AllEquilibria:
    """Every extreme equilibrium of a two-player game and the maximal convex sets they span.

    Attributes
    ----------
    plans : (tuple of Plan, tuple of Plan)
        Each player's extreme strategies that are part of an equilibrium, as
        realization plans (mixed strategies for a normal-form game).
    pairs : tuple of (int, int)
        The extreme equilibria, as indices into ``plans``.
    convex_sets : tuple of ConvexSet
        The maximal convex sets of equilibria; their union is the set of all equilibria.
    method : str
    zero_sum : bool
        True when the sets came from the optimal strategy sets (then there is one, their product).
    bases : tuple of int
        Lex-feasible bases visited in each player's polytope (0 on the zero-sum path and
        on the label search's; there, the bases the table search visited before its limit).
    search : SearchCounts, optional
        The label search's counts, when it found the equilibria.
    complete : bool
        Always True: every extreme equilibrium is listed (a method that cannot finish raises).
    """

    plans: tuple[tuple[Plan, ...], tuple[Plan, ...]]
    pairs: tuple[tuple[int, int], ...]
    convex_sets: tuple[ConvexSet, ...]
    method: str
    zero_sum: bool = False
    bases: tuple[int, int] = (0, 0)
    complete: bool = True
    search: SearchCounts | None = None

    def notes(self) -> list[str]:
        """What the list means, in plain words."""
        count = len(self.convex_sets)
        if self.zero_sum:
            return ["Complete: every extreme equilibrium is listed. The game is zero-sum, so its equilibria are all "
                    "pairs of optimal strategies: one convex set, the product of the players' optimal sets."]
        notes = [f"Complete: every extreme equilibrium is listed; every equilibrium lies in one of the {count} "
                 f"maximal convex set{'s' if count != 1 else ''} they span (convex in "
                 "realization plans, i.e. in mixed strategies for a game in normal form)."]
        if self.search is not None:
            notes.append(f"Found by branching on labels: {self.search.nodes} nodes (estimated "
                         f"{self.search.estimated_nodes} beforehand), {self.search.leaves} faces listed"
                         + (f", after the table of lex-feasible bases passed its limit (bases visited: "
                            f"{' and '.join(map(str, self.bases))})." if any(self.bases) else "."))
        return notes

    def details(self, names: Sequence[str]) -> dict[str, Any]:
        """The result's ``details`` of the search: the bases visited, and the label search's counts if it ran."""
        if self.zero_sum:
            return {}
        out: dict[str, Any] = {"bases_visited": dict(zip(names, self.bases))}
        if self.search is not None:
            out["label_search"] = {"nodes": self.search.nodes, "leaves": self.search.leaves,
                                   "estimated_nodes": self.search.estimated_nodes}
        return out

    def to_dict(self, compiled: CompiledGame) -> dict[str, Any]:
        """The result's JSON extras: ``complete``, ``convex_sets`` and ``extreme_strategies``.

        ``extreme_strategies[player]`` lists the player's extreme strategies
        (as behaviour, ``{information set: [probabilities]}``, ``None`` where
        the plan never reaches the set: any behaviour there); each convex set
        gives its extreme equilibria (indices into the result's ``equilibria``)
        and, per player, its extreme strategies (indices into
        ``extreme_strategies``): the set is the product of their convex hulls.
        """
        names = compiled.player_names
        strategies = {names[p]: [_behaviour_table(layout, plan) for plan in self.plans[p]]
                      for p, layout in enumerate(compiled.layouts)}
        sets = [{"equilibria": list(s.equilibria),
                 "extreme_strategies": {names[p]: list(s.strategies[p]) for p in (0, 1)},
                 "product_of_optimal_sets": self.zero_sum}
                for s in self.convex_sets]
        return {"complete": self.complete, "convex_sets": sets, "extreme_strategies": strategies}

    def profiles(self, compiled: CompiledGame) -> list[BehaviourProfile]:
        """Each extreme equilibrium as behaviour strategies, in the order of :attr:`pairs`."""
        return [BehaviourProfile.from_plans(compiled, (self.plans[0][i], self.plans[1][j])) for i, j in self.pairs]


def _behaviour_table(layout: SequenceLayout, plan: Plan) -> dict[str, list[str] | None]:
    behaviour = behaviour_from_plan(layout, plan)
    return {layout.infoset_name(i): [exact_str(v) for v in behaviour[i]] if plan[layout.parent_sequence(i)] else None
            for i in range(layout.num_infosets)}


def _null_rows(matrix: np.ndarray) -> list[list[int]]:
    """An integer basis of ``{w : matrix w = 0}``, one vector per row."""
    basis, nullity = fmpz_mat([[int(v) for v in row] for row in matrix]).nullspace()
    return [[int(basis[i, k]) for i in range(basis.nrows())] for k in range(nullity)]


def best_response_polyhedron(compiled: CompiledGame, player: int) -> tuple[list[list[int]], list[int], list[int]]:
    """``player``'s best-response polyhedron as ``{z >= 0 : A z = b}`` (module docstring, step 1).

    Returns
    -------
    A, b : integer matrix and vector
        Over ``z = (own realization plan, the opponent's slacks)``.
    labels : list of int
        The label of each coordinate of ``z``: player 0's sequence ``i`` is
        label ``i``, player 1's sequence ``j`` label ``n_0 + j``.
    """
    own, other = compiled.layouts[player], compiled.layouts[1 - player]
    E = realization_matrix(own).toarray()
    N = _null_rows(realization_matrix(other).toarray())
    payoff = payoff_numerators(compiled, 1 - player)  # the opponent's, [player 0 sequence][player 1 sequence]
    if player == 1:
        payoff = [list(column) for column in zip(*payoff)]  # [own sequence][opponent's sequence]
    n_own, n_other = own.num_sequences, other.num_sequences
    rows = [[int(v) for v in row] + [0] * n_other for row in E]
    for w in N:  # N B^T x + N s = 0
        coupled = [sum(w[j] * payoff[i][j] for j in range(n_other) if w[j]) for i in range(n_own)]
        rows.append(coupled + list(w))
    b = [1] + [0] * (len(rows) - 1)
    n0 = compiled.layouts[0].num_sequences
    own_labels = [i + (0 if player == 0 else n0) for i in range(n_own)]
    other_labels = [j + (n0 if player == 0 else 0) for j in range(n_other)]
    return rows, b, own_labels + other_labels


Polyhedron = tuple[list[list[int]], list[int], list[int]]


def _vertices(compiled: CompiledGame, player: int, polyhedron: Polyhedron, limit: int | None,
              progress: Progress | None) -> tuple[list[tuple[Plan, int]], int]:
    """``player``'s polytope vertices as ``(realization plan, mask of the labels they carry)``, and bases visited."""
    A, b, labels = polyhedron
    name = compiled.player_names[player]
    found = vertices(A, b, limit=limit, progress=progress, what=f"{name}'s best-response polytope")
    n_own = compiled.layouts[player].num_sequences
    out = []
    for point, zeros in zip(found.points, found.zeros):
        mask = sum(1 << labels[k] for k in range(len(labels)) if zeros >> k & 1)
        out.append((point[:n_own], mask))
    return out, found.bases


def _graph(first: list[tuple[Plan, int]], second: list[tuple[Plan, int]], labels: int
           ) -> tuple[list[Plan], list[Plan], list[int]]:
    """Distinct plans of each player and, per plan of player 1, the mask of the plans of player 2 it is paired with."""
    plans: list[list[Plan]] = []
    ids: list[list[int]] = []
    for side in (first, second):
        index: dict[Plan, int] = {}
        ids.append([index.setdefault(plan, len(index)) for plan, _ in side])
        plans.append(list(index))
    carried = np.array([[mask >> k & 1 for k in range(labels)] for _, mask in second], dtype=bool).reshape(
        len(second), labels)
    neighbours = [0] * len(plans[0])
    for u, (_, mask) in zip(ids[0], first):
        missing = [k for k in range(labels) if not mask >> k & 1]
        for h in np.flatnonzero(carried[:, missing].all(axis=1)).tolist():
            neighbours[u] |= 1 << ids[1][h]
    return plans[0], plans[1], neighbours


def _members(mask: int) -> list[int]:
    return [k for k in range(mask.bit_length()) if mask >> k & 1]


def _extreme_members(plans: Sequence[Plan], mask: int) -> list[int]:
    members = _members(mask)
    if len(members) < 3:
        return members
    kept = set(extreme_points([plans[k] for k in members]))
    return [k for k in members if plans[k] in kept]


def _assemble(plans: tuple[list[Plan], list[Plan]], cliques: list[tuple[int, int]], method: str, zero_sum: bool,
              bases: tuple[int, int], search: SearchCounts | None = None) -> AllEquilibria:
    """Renumber the plans used, list the extreme equilibria (each set's products) and the sets."""
    sides = [(_extreme_members(plans[0], left), _extreme_members(plans[1], right)) for left, right in cliques]
    used = [sorted({k for side in sides for k in side[p]}) for p in (0, 1)]
    renumber = [{k: new for new, k in enumerate(u)} for u in used]
    pairs = sorted({(renumber[0][i], renumber[1][j]) for first, second in sides for i in first for j in second})
    pair_index = {pair: k for k, pair in enumerate(pairs)}
    sets = []
    for first, second in sides:
        left, right = tuple(renumber[0][i] for i in first), tuple(renumber[1][j] for j in second)
        sets.append(ConvexSet((left, right), tuple(sorted(pair_index[(i, j)] for i in left for j in right))))
    chosen = (tuple(plans[0][k] for k in used[0]), tuple(plans[1][k] for k in used[1]))
    return AllEquilibria(chosen, tuple(pairs), tuple(sorted(sets, key=lambda s: s.equilibria)), method, zero_sum,
                         bases, search=search)


def _zero_sum(compiled: CompiledGame) -> AllEquilibria:
    from exactpoker.solve.lp.optimal_set import optimal_set
    from exactpoker.solve.lp.zerosum import solve_zero_sum

    values = solve_zero_sum(compiled)[1].payoffs  # the solver's own exact certificate of its answer
    sets = [optimal_set(compiled, p, values[p]).vertices for p in (0, 1)]
    everything = ((1 << len(sets[0])) - 1, (1 << len(sets[1])) - 1)
    return _assemble((list(sets[0]), list(sets[1])), [everything], ZERO_SUM_METHOD, True, (0, 0))


def _in_label_order(polyhedra: Sequence[Polyhedron]) -> tuple[System, System]:
    """Both polyhedra with column ``k`` the label ``k`` (the form :func:`label_branching` takes)."""
    systems = []
    for A, b, labels in polyhedra:
        order = label_order(labels)
        systems.append(([[row[k] for k in order] for row in A], b))
    return systems[0], systems[1]


def _label_search(compiled: CompiledGame, systems: tuple[System, System], bases: tuple[int, int]) -> AllEquilibria:
    """Every extreme equilibrium by branching on labels (module docstring, step 2), plans in sorted order."""
    what = tuple(f"{name}'s best-response polytope" for name in compiled.player_names)
    found = label_branching(systems, what=(what[0], what[1]),
                            tick=reporting.counter("label search (estimated nodes)", "nodes"))
    n0, n1 = (layout.num_sequences for layout in compiled.layouts)
    pairs = {(p[:n0], q[n0:n0 + n1]) for p, q in found.pairs}
    plans = [sorted({pair[side] for pair in pairs}) for side in (0, 1)]
    index = [{plan: k for k, plan in enumerate(side)} for side in plans]
    neighbours = [0] * len(plans[0])
    for x, y in pairs:
        neighbours[index[0][x]] |= 1 << index[1][y]
    return _assemble((plans[0], plans[1]), maximal_bicliques(neighbours), LABEL_METHOD, False, bases,
                     search=found.counts)


def all_equilibria_two_player(compiled: CompiledGame, *, limit: int | None = None, progress: Progress | None = None,
                              optimal_sets: bool = True, method: str = "auto") -> AllEquilibria:
    """Every extreme equilibrium of a two-player game and its maximal convex sets of equilibria, exactly.

    Parameters
    ----------
    compiled : CompiledGame
        A two-player game (normal form or sequence form; zero-sum or not).
    limit : int, optional
        The most lex-feasible bases visited in each player's polytope (default:
        :func:`~exactpoker.solve.enumeration.vertices.basis_limit`, by the polytope's size).
    progress : callable, optional
        ``progress(bases visited, limit)`` while a polytope is enumerated.
    optimal_sets : bool
        On a zero-sum game, take the optimal strategy sets (the default);
        False enumerates the polytopes as for any game (an independent check).
    method : {"auto", "vertices", "labels"}
        ``"vertices"``: the polytopes' vertices within ``limit`` bases (raises
        past it); ``"labels"``: the label search; ``"auto"``: the first, and
        the second when the first reaches its limit (so that every game it
        answered is answered as before, in the same order).

    Returns
    -------
    AllEquilibria
        Not yet certified: :func:`exactpoker.solve.solve_game`
        certifies every profile of :meth:`AllEquilibria.profiles`.

    Raises
    ------
    InvalidParameterError
        If the game does not have two players, or the enumeration passes its
        limits (the message gives the counts reached).
    """
    if compiled.num_players != 2:
        raise InvalidParameterError(
            f"all_equilibria_two_player(): the game must have two players; it has {compiled.num_players}")
    if method not in ("auto", "vertices", "labels"):
        raise InvalidParameterError(f"all_equilibria_two_player(): method must be auto, vertices or labels; "
                                    f"got {method!r}")
    if compiled.is_zero_sum and optimal_sets:
        return _zero_sum(compiled)
    polyhedra = [best_response_polyhedron(compiled, player) for player in (0, 1)]
    systems = _in_label_order(polyhedra)
    if method != "vertices":
        check_sizes(systems, MAX_SECONDS)  # a refusal from the sizes alone, before any pivot of either method
    if method == "labels":
        return _label_search(compiled, systems, (0, 0))
    bases = [0, 0]
    try:
        first, bases[0] = _vertices(compiled, 0, polyhedra[0], limit, progress)
        second, bases[1] = _vertices(compiled, 1, polyhedra[1], limit, progress)
    except BasisLimitError as refused:
        if method == "vertices":
            raise
        stopped = (refused.bases, 0) if not bases[0] else (bases[0], refused.bases)
        return _label_search(compiled, systems, stopped)
    bases0, bases1 = bases
    labels = sum(layout.num_sequences for layout in compiled.layouts)
    plans0, plans1, neighbours = _graph(first, second, labels)
    return _assemble((plans0, plans1), maximal_bicliques(neighbours), VERTEX_METHOD, False, (bases0, bases1))
