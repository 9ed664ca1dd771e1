"""Seed 003's procedures on three-player Kuhn poker with ``N`` cards and pot ``P``.

Seed 003 (J. Billingham, "Equilibrium solutions of three player Kuhn poker
with N > 3 cards: a new numerical method using regularization and arc-length
continuation", sections 2-3).  The rules are :mod:`exactpoker.games.kuhn3`
(re-exported here: ``game``, ``compiled``, ``NODES``).

The twelve decision nodes are numbered as in the seed (section 2 and
Figure 10), and each is its own node label (a player knows their card and the
betting so far):

====  ========  =================================================
node  player    situation
====  ========  =================================================
1     1         opening
2     2         after player 1 checked
3     3         after two checks
4     1         player 3 bet after two checks
5     2         player 3 bet, player 1 folded
6     2         player 3 bet, player 1 called
7     3         player 2 bet after player 1 checked
8     1         player 2 bet, player 3 folded
9     1         player 2 bet, player 3 called
10    2         player 1 bet
11    3         player 1 bet, player 2 folded
12    3         player 1 bet, player 2 called
====  ========  =================================================

Player 1 acts twice on the branch check (1) -- bet -- answer (4, 8 or 9), and
player 2 on check (2) -- bet -- answer (5 or 6): the core's perfect-recall
layout (:attr:`~exactpoker.core.compiled.PlayerLayout.parent`) records it.

The behaviour variable of each node and card is the probability of the
aggressive action (bet or call), the seed's ``x_ij``.  ``strategies`` in
results is keyed by node number, ``{"1": [x for cards 1..N], ...}``.

Functions
---------
:func:`game`, :func:`compiled`
    The :class:`~exactpoker.core.game.BettingGame` and its compiled form.
:func:`payoff_polynomials`
    ``E_1, E_2, E_3`` as sympy polynomials in the ``12 N`` variables.
:func:`dominated_fixings`, :func:`dominance_proofs`
    The seed's 22 dominated choices, and their proof from the rules.
:func:`condition_one`, :func:`reach_probabilities`
    The seed's condition (1) (with the extra differentiation of section 3)
    at an exact profile; how often play reaches each node.
:func:`equilibrium`, :func:`equilibrium_family`
    An exact equilibrium at a rational pot: the library game ``kuhn3`` through
    the one engine, as ``exactpoker solve`` solves it
    (:mod:`exactpoker.games.papers.kuhn3_tables`; float guide: the regularised
    system of section 3; exact finish on its support, rational, algebraic in
    one real number field, or an isolating box); the exact family of
    equilibria on the support of the seed's own guide (small ``N``).
:mod:`exactpoker.games.papers.kuhn3_branch`
    The seed's arc-length continuation in ``P`` (floats), exact equilibria
    at rational pots on it, and the branch as CSV.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Mapping, Sequence

import numpy as np

from exactpoker.core import CompiledGame, Decision, Outcome
from exactpoker.games.kuhn3 import NAME, NODES, PLAYER_NAMES, compiled, game, node_player, parse_cards, parse_pot
from exactpoker.games.papers import kuhn3_tables as kuhn3_library
from exactpoker.numbers import exact_str, parse_int
from exactpoker.results import SolveResult
# the float guide and its epsilons are shared with every N-player exact finish
from exactpoker.solve import EPSILON, card_range_dominance

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.core import BehaviourProfile
    from exactpoker.solve import CertifiedPoint, Family, GainSystem, Trend

__all__ = [
    "NAME",
    "NODES",
    "PLAYER_NAMES",
    "parse_cards",
    "parse_pot",
    "parse_digits",
    "DIGITS",
    "p_min",
    "game",
    "compiled",
    "node_player",
    "dominated_fixings",
    "DominanceProof",
    "dominance_proof",
    "dominance_proofs",
    "variable_index",
    "fixed_variables",
    "node_table",
    "profile_from_nodes",
    "condition_one",
    "reach_probabilities",
    "EPSILON",
    "gain_system",
    "float_equilibrium",
    "float_guide",
    "exact_from_guide",
    "equilibrium",
    "equilibrium_family",
    "result_of",
]

#: Certified decimal places of an equilibrium given by an isolating box (default, and most allowed).
DIGITS, MAX_DIGITS = 30, 1000


def parse_digits(digits: object) -> int:
    """Certified decimal places of an isolating-box answer: an integer in ``[1, MAX_DIGITS]``."""
    return parse_int(digits, "digits", 1, MAX_DIGITS)


def p_min(cards: object) -> Fraction:
    """``P_min = 2 / (N - 3)``: the seed's smallest pot at which a player can profit (section 2)."""
    return Fraction(2, parse_cards(cards) - 3)


# -- dominated strategies (section 2) --------------------------------------------------------


def dominated_fixings(cards: object) -> dict[int, dict[int, int]]:
    """The seed's 22 dominated choices: ``{node: {card: forced aggressive probability}}``.

    Card ``N`` always bets or calls at nodes 3 to 12; card 1 always folds at
    nodes 4 to 12; card 2 always folds at nodes 6, 9 and 12 (section 2).
    Each is proved from the rules by :func:`dominance_proofs`.
    """
    n = parse_cards(cards)
    fixings: dict[int, dict[int, int]] = {node: {} for node in NODES}
    for node in range(3, 13):
        fixings[node][n] = 1
    for node in range(4, 13):
        fixings[node][1] = 0
    for node in (6, 9, 12):
        fixings[node][2] = 0
    return {node: cards_ for node, cards_ in fixings.items() if cards_}


@dataclass(frozen=True)
class DominanceProof:
    """Why one action dominates the other at ``(node, card)``, deal by deal.

    ``worst_kept`` is the smallest payoff the kept action can lead to and
    ``best_dropped`` the largest the other action can lead to, over every
    deal consistent with the card and every continuation of the play; the
    kept action weakly dominates when ``worst_kept >= best_dropped`` in every
    deal, strictly in some deal when ``strict``.
    """

    node: int
    card: int
    kept: str
    dominates: bool
    strict: bool


def dominance_proof(cards: object, pot: object, node: int, card: int, keep: int) -> DominanceProof:
    """Whether at ``(node, card)`` the action ``keep`` (1 aggressive, 0 passive) dominates the other, deal by deal.

    It does if, in every deal where the player holds ``card``, the worst the
    kept action can lead to (over every later choice of every player) is at
    least the best the other can lead to: a sufficient condition for weak
    dominance, read off the rules.
    """
    kept, dominates, strict = card_range_dominance(game(cards, pot), str(node), card, keep)
    return DominanceProof(node, card, kept, dominates, strict)


def dominance_proofs(cards: object, pot: object) -> list[DominanceProof]:
    """:func:`dominance_proof` for each of the seed's 22 :func:`dominated_fixings`."""
    return [dominance_proof(cards, pot, node, card, keep)
            for node, forced in dominated_fixings(cards).items() for card, keep in forced.items()]


# -- variables, profiles, condition (1) ------------------------------------------------------


def variable_index(g: CompiledGame, node: int, card: int) -> int:
    """The index of the behaviour variable ``x`` of ``(node, card)`` in the solvers' numbering.

    Variables are numbered player by player, each player's information sets in
    layout order (see :class:`~exactpoker.solve.nplayer.gain_system.GainSystem`).
    """
    player = node_player(node)
    layout = g.layouts[player]
    offset = sum(lay.num_infosets for lay in g.layouts[:player])
    return offset + layout.infoset(card, layout.labels.index(str(node)))


def fixed_variables(g: CompiledGame, fixings: Mapping[int, Mapping[int, int]]) -> dict[int, int]:
    """``{variable index: value}`` for a ``{node: {card: value}}`` table."""
    return {variable_index(g, node, card): v for node, cards_ in fixings.items() for card, v in cards_.items()}


def node_table(g: CompiledGame, x: Sequence[object]) -> dict[str, list[object]]:
    """``{"1": [x for cards 1..N], ..., "12": [...]}`` from all variables."""
    return {str(node): [x[variable_index(g, node, c)] for c in range(1, g.cards + 1)] for node in NODES}


def profile_from_nodes(g: CompiledGame, table: Mapping[object, Sequence[object]]) -> "BehaviourProfile":
    """The behaviour profile of a ``{node: [aggressive probability per card]}`` table (all 12 nodes)."""
    from exactpoker.core import BehaviourProfile

    tables: list[dict[str, Sequence[object]]] = [{}, {}, {}]
    for node in NODES:
        tables[node_player(node)][str(node)] = table[str(node)] if str(node) in table else table[node]
    return BehaviourProfile.from_tables(g, tables)


def condition_one(cards: object, pot: object, table: Mapping[object, Sequence[object]]) -> dict[str, list[str]]:
    """The seed's condition (1), with section 3's extra differentiation, at an exact profile.

    For each node and card: ``"="`` when the (counterfactual) gain ``f`` of
    the aggressive action is 0 (any ``x`` allowed), ``"<"`` when ``f < 0`` and
    ``x = 0``, ``">"`` when ``f > 0`` and ``x = 1``, and ``"violated"``
    otherwise.
    """
    from exactpoker.solve import exact_gains

    g = compiled(cards, pot)
    profile = profile_from_nodes(g, table)
    x = [dist[1] for strategy in profile.strategies for dist in strategy]
    gains = exact_gains(g, x)
    verdicts: dict[str, list[str]] = {}
    for node in NODES:
        row = []
        for c in range(1, g.cards + 1):
            k = variable_index(g, node, c)
            f, v = gains[k], x[k]
            row.append("=" if f == 0 else "<" if f < 0 and v == 0 else ">" if f > 0 and v == 1 else "violated")
        verdicts[str(node)] = row
    return verdicts


def _node_paths(node: "Decision | Outcome", path: list[tuple[int, int]]) -> dict[int, list[tuple[int, int]]]:
    """Each node's path from the root as ``(node, action index)`` steps, read off the tree."""
    if isinstance(node, Outcome):
        return {}
    found = {int(node.label): path}
    for a, (_, child) in enumerate(node.actions):
        found.update(_node_paths(child, path + [(int(node.label), a)]))
    return found


def reach_probabilities(g: CompiledGame, profile: "BehaviourProfile") -> dict[int, Fraction]:
    """The probability that play reaches each node (over the deal and every player's mixing)."""
    from itertools import permutations

    n = g.cards
    reach = {node: Fraction(0) for node in NODES}
    deals = list(permutations(range(1, n + 1), 3))

    def prob(node: int, deal: tuple[int, ...]) -> Fraction:
        p = node_player(node)
        layout = g.layouts[p]
        return profile.strategies[p][layout.infoset(deal[p], layout.labels.index(str(node)))][1]

    paths = _node_paths(g.game.root, [])
    for deal in deals:
        for node, steps in paths.items():
            weight = Fraction(1, len(deals))
            for step, aggressive in steps:
                q = prob(step, deal)
                weight *= q if aggressive else 1 - q
            reach[node] += weight
    return reach


# -- exact equilibria (float guide, exact finish) ----------------------------------------------



@lru_cache(maxsize=16)
def gain_system(cards: int, extra: tuple[tuple[int, int, int], ...] = ()) -> "GainSystem":
    """The float system of counterfactual gains of the ``N``-card game, affine in the pot.

    The seed's 22 dominated choices are fixed, and ``extra`` ``(node, card,
    value)`` triples fix more (SKP fixes card 1).
    """
    from exactpoker.solve import GainSystem

    n = parse_cards(cards)
    g3, g6 = compiled(n, 3), compiled(n, 6)
    fixings = dominated_fixings(n)
    for node, card, value in extra:
        fixings.setdefault(node, {})[card] = value
    return GainSystem.from_games((3.0, g3), (6.0, g6), fixed_variables(g3, fixings))


def exact_from_guide(cards: int, pot: Fraction, x_float: "np.ndarray", extra: tuple[tuple[int, int, int], ...] = (),
                     forced: Sequence[tuple[int, int]] = (), digits: int = DIGITS,
                     trend: "Trend | None" = None) -> "CertifiedPoint":
    """The exact certified equilibrium on the support of a float solution ``x_float`` (all variables): the
    engine's exact finish (:func:`exactpoker.solve.nplayer.pipeline.exact_finish`) on this game at ``pot``.

    ``digits``: certified decimal places of an equilibrium given by an isolating box; ``trend``: the
    solution at a larger epsilon (:func:`float_guide`), which reads the support near 0 and 1.
    """
    from exactpoker.errors import CertificationError
    from exactpoker.solve import exact_finish

    try:
        return exact_finish(compiled(cards, pot), gain_system(cards, extra), x_float, trend, at=float(pot),
                            forced=forced, digits=digits)
    except CertificationError as error:
        raise CertificationError(
            f"kuhn3: no exact equilibrium found at N = {cards}, P = {exact_str(pot)} on the support of the float "
            f"guide ({error})"
        ) from None


def float_equilibrium(cards: object, pot: object, *, eps: float = EPSILON,
                      extra: tuple[tuple[int, int, int], ...] = ()) -> "np.ndarray":
    """A float solution (all variables) of the regularised system at ``pot``, followed down in ``eps``.

    Below :data:`~exactpoker.solve.nplayer.continuation.RELIABLE_EPSILON` the continuation may fail; the guide is
    then the solution there.
    """
    return float_guide(cards, pot, eps=eps, extra=extra)[0]


def float_guide(cards: object, pot: object, *, eps: float = EPSILON, extra: tuple[tuple[int, int, int], ...] = ()
                ) -> tuple["np.ndarray", "Trend | None"]:
    """:func:`float_equilibrium` and the solution at the reliable epsilon on the way down (its trend, or None):
    the engine's guide (:func:`exactpoker.solve.nplayer.pipeline.float_guide`) on the seed's system."""
    from exactpoker.solve import float_guide as engine_guide

    return engine_guide(gain_system(parse_cards(cards), extra), float(parse_pot(pot)), eps=eps)


def result_of(cards: int, pot: Fraction, solution: "CertifiedPoint", method: str, game_name: str = NAME) -> SolveResult:
    """The SolveResult of an exact solution: node tables, the pinned and mixed choices, the field or the box."""
    g = compiled(cards, pot)
    table = node_table(g, solution.x)
    pinned = [_node_card(g, k) + (solution.x[k],) for k in solution.pinned]
    eq = solution.equilibrium(table)
    notes: list[str] = []
    if pinned:
        notes.append(f"{len(pinned)} (node, card) choices were free on this support (a family of equilibria, or "
                     "information sets the others never reach) and were set at simple rationals")
    details: dict[str, object] = {"pinned": [list(p) for p in pinned],
                                  "mixed": [list(_node_card(g, k)) for k in solution.interior]}
    notes += kuhn3_library.add_field(details, eq.exact_values, table)
    if solution.box is not None:
        box = solution.box_details(lambda k: list(_node_card(g, k)))
        notes.append(f"the equilibrium is irrational of high degree: its mixed entries are the unique zero of the "
                     f"gains details['isolating_box']['equations'] in the rational box details['isolating_box']"
                     f"['box'] ({box['kind']}; entries shown as d.ddd±1e-k)")
        details["isolating_box"] = box
    return SolveResult(game_name, {"cards": cards, "pot": pot}, method, (eq,), tuple(notes), details)


def _node_card(g: CompiledGame, k: int) -> tuple[int, int]:
    for node in NODES:
        for c in range(1, g.cards + 1):
            if variable_index(g, node, c) == k:
                return node, c
    raise LookupError(k)  # pragma: no cover


def equilibrium(cards: object, pot: object, *, digits: object = DIGITS) -> SolveResult:
    """An exact certified equilibrium at pot ``P``: the library game solved by the one engine.

    The rules are the library's ``kuhn3(cards=N, pot=P)``, solved by the
    same entry point as ``exactpoker solve`` (:func:`exactpoker.games.papers.kuhn3_tables.solve`):
    the N-player finish runs seed 003's method on any game (dominated choices
    fixed, the regularised system of section 3 followed down in ``epsilon``,
    the indifference equations on its support solved exactly), certified
    sequentially rational (:func:`exactpoker.certify_sequential.verify_sequential`,
    which includes :func:`exactpoker.certify.verify`) or, for an isolating
    box, in ball arithmetic.  ``strategies`` is keyed by
    node number; ``values`` are ``E_1, E_2, E_3``.  An equilibrium of too
    high an algebraic degree is given by an isolating box certified to
    ``digits`` decimal places (:func:`parse_digits`); rational and algebraic
    ones are exact whatever ``digits``.

    Raises
    ------
    CertificationError
        If no exact equilibrium (rational, algebraic in one number field, or
        the unique zero in an isolating box) is found on the support.
    """
    n, p, d = parse_cards(cards), parse_pot(pot), parse_digits(digits)
    return kuhn3_library.solve(n, p, d)


def equilibrium_family(cards: object, pot: object) -> "Family":
    """The exact family of equilibria on the support found at ``pot`` (small ``N``: symbolic).

    At ``N = 4``, ``P = 3`` this is the one-parameter family of Szafron, Gibson
    and Sturtevant (2013) that seed 003 (section 5.1) mentions: player 2's
    value stays fixed while players 1's and 3's move with player 2's bluffing
    frequency at node 2.
    """
    from exactpoker.solve import symbolic_family as family

    n, p = parse_cards(cards), parse_pot(pot)
    x, trend = float_guide(n, p)
    solution = exact_from_guide(n, p, x, trend=trend)
    return family(compiled(n, p), solution)
