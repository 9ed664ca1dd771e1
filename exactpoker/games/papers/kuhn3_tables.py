"""Three-player Kuhn poker through the one engine, presented in seed 003's tables.

``exactpoker kuhn3 --cards N --pot P`` and ``exactpoker solve
'library:kuhn3(cards=N,pot=P)'`` solve the same rules (the library game,
:mod:`exactpoker.games.library`; the paper's analysis is :mod:`exactpoker.games.papers.kuhn3`)
by the same entry point,
:func:`exactpoker.solve.solve_game` (three players: the staged
N-player finish, :func:`exactpoker.solve.nplayer.pipeline.solve_n_player`), so they
return the same certified equilibrium.  This module adds only the seed's
presentation (J. Billingham, seed 003, section 2 and Figure 10): strategies
keyed by node number ``"1"`` .. ``"12"``, per node the probability of the
aggressive action (bet or call) for cards ``1..N``; the support's choices
as ``[node, card]``; an irrational equilibrium's number field and its floats.

The library game names an information set ``"card|history"`` (``c`` check or
call, ``b`` bet, ``f`` fold); :data:`HISTORIES` maps each history to the
seed's node.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any, Mapping, Sequence

from exactpoker.algebraic import AlgebraicNumber
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.profile import BehaviourProfile
from exactpoker.games.library import compiled_game
from exactpoker.results import SolveResult
from exactpoker.solve import solve_game

__all__ = ["HISTORIES", "node_of", "node_tables", "solve", "present", "add_field"]

#: The betting before each of the seed's twelve nodes, as the library game writes it.
HISTORIES = {"": 1, "c": 2, "cc": 3, "ccb": 4, "ccbf": 5, "ccbc": 6, "cb": 7, "cbf": 8, "cbc": 9,
             "b": 10, "bf": 11, "bc": 12}


def node_of(infoset: str) -> tuple[int, int]:
    """``(node, card)`` of a library information set ``"card|history"`` or a variable ``"player:card|history"``."""
    card, history = infoset.split(":")[-1].split("|")
    return HISTORIES[history], int(card)


def _aggressive(node: int) -> str:
    """The library's name of the aggressive action at a node: bet before any bet, call after one."""
    return "b" if node <= 3 else "c"


def node_tables(compiled: CompiledGame, profile: BehaviourProfile) -> dict[str, list[object]]:
    """``{"1": [aggressive probability for cards 1..N], ..., "12": [...]}`` of a profile of the library game."""
    found: dict[int, dict[int, object]] = {node: {} for node in HISTORIES.values()}
    for p, layout in enumerate(compiled.layouts):
        for i in range(layout.num_infosets):
            node, card = node_of(layout.infoset_name(i))
            found[node][card] = profile.strategies[p][i][layout.infoset_actions(i).index(_aggressive(node))]
    return {str(node): [row[card] for card in sorted(row)] for node, row in sorted(found.items())}


def solve(cards: int, pot: Fraction, digits: int = 30) -> SolveResult:
    """The library game ``kuhn3(cards, pot)`` solved by the engine, in the seed's tables (:func:`present`).

    ``digits``: the certified decimal places of an equilibrium given by an isolating box.
    """
    compiled = compiled_game("kuhn3", cards=cards, pot=pot)
    return present(solve_game(compiled, tables=node_tables, digits=digits))


def present(result: SolveResult) -> SolveResult:
    """The engine's result with the support and the isolating box named by ``[node, card]``, and the field.

    An irrational equilibrium (entries in one real number field) also gets
    ``details["field"]`` (its minimal polynomial, degree and isolating
    interval) and ``details["approximate"]`` (floats, a display only).
    """
    details = dict(result.details)
    notes = list(result.notes)
    details["mixed"] = [list(node_of(name)) for name in details.get("mixed", [])]
    details["pinned"] = [[*node_of(name), value] for name, value in details.get("pinned", [])]
    if "isolating_box" in details:
        details["isolating_box"] = _box(details["isolating_box"])
    found = result.equilibria[0]  # shown in the seed's node tables, not the library's labels
    eq = type(found)(found.exact_values, found.exact_strategies, found.certificate, found.profile)
    notes += add_field(details, eq.exact_values, eq.exact_strategies)
    return replace(result, equilibria=(eq,), notes=tuple(notes), details=details)


def add_field(details: dict[str, Any], values: Sequence[object], table: Mapping[str, Sequence[object]]) -> list[str]:
    """``details["field"]`` and ``details["approximate"]`` of an equilibrium in one real number field; its note.

    Nothing (no note) when every entry of the node ``table`` is rational or a
    certified ball (an isolating box, described by the engine).
    """
    field = next((v.field for row in table.values() for v in row
                  if isinstance(v, AlgebraicNumber) and not v.is_rational), None)
    if field is None:
        return []
    details["field"] = {"minimal_polynomial": str(field.minimal_polynomial), "degree": field.degree,
                        "interval": list(field.interval)}
    details["approximate"] = {"values": [float(v) for v in values],
                              "strategies": {node: [float(v) for v in row] for node, row in table.items()}}
    return [f"the equilibrium is irrational: its entries lie in Q(theta), theta the root of a degree-{field.degree} "
            "polynomial (details['field']); approximate values in details['approximate']"]


def _box(box: Mapping[str, Any]) -> dict[str, Any]:
    """An isolating box's description with its variables named ``[node, card]``."""
    return {**box, "unknowns": {x: list(node_of(name)) for x, name in box["unknowns"].items()},
            "equations": [{**eq, "gain_of": list(node_of(eq["gain_of"]))} for eq in box["equations"]],
            "identities": [{"gain_of": list(node_of(i["gain_of"])),
                            "combination": [{**c, "equation_of": list(node_of(c["equation_of"]))}
                                            for c in i["combination"]]} for i in box.get("identities", [])]}
