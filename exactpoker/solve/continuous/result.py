"""Answers a reader can use: a continuous game's certified equilibrium as intervals of hands, in JSON and text.

A :class:`ContinuousResult` holds, per player and information set, the
strategy as consecutive intervals of hands with exact end points, each with
its action (or its mixture), the players' values, the certificate, the cut
points (exact, with the minimal polynomial of an irrational one), the family
traces (:mod:`~exactpoker.solve.continuous.families`) and how the shape was
found (the finite decks read, the shapes tried).

Its :meth:`~ContinuousResult.to_dict` has the shared keys of every
``--json`` (``game``, ``params``, ``method``, ``equilibria``; see
``exactpoker/schema/result.json``): an equilibrium's ``strategies`` are, per
player and information set, a list of ``{"from", "to", "action"}`` or
``{"from", "to", "probabilities": {action: p}}``; the rest is under
``continuous``.  The text names every interval with its labels and gives
``≈`` decimals beside irrational numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import sympy

from exactpoker.core.continuous_deck import ContinuousGame
from exactpoker.display import decimal, is_irrational, shown
from exactpoker.results import approx_of, jsonable
from exactpoker.solve.continuous.attempt import Attempt, SolvedShape
from exactpoker.solve.continuous.certificate import ContinuousCertificate
from exactpoker.solve.continuous.families import FamilyTraces, describe_family
from exactpoker.solve.continuous.model import BettingModel
from exactpoker.solve.continuous.profile import PiecewiseProfile
from exactpoker.solve.continuous.readings import Reading

__all__ = ["HandInterval", "CutPoint", "ContinuousResult", "continuous_result", "pieces_of", "exact_number", "brief"]


@dataclass(frozen=True)
class HandInterval:
    """On hands ``[start, end]`` the information set plays ``probabilities`` (action name -> probability)."""

    start: Any
    end: Any
    probabilities: tuple[tuple[str, Any], ...]

    @property
    def action(self) -> str | None:
        """The action played when it is pure, else ``None``."""
        played = [name for name, p in self.probabilities if p != 0]
        return played[0] if len(played) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        ends = {"from": self.start, "to": self.end}
        if self.action is not None:
            return {**ends, "action": self.action}
        return {**ends, "probabilities": {name: p for name, p in self.probabilities if p != 0}}

    def text(self) -> str:
        what = self.action or ", ".join(f"{name} {brief(p)}" for name, p in self.probabilities if p != 0)
        return f"[{brief(self.start)}, {brief(self.end)}]: {what}"


@dataclass(frozen=True)
class CutPoint:
    """A cut point of ``player`` at ``label``: where its ``index``-th segment (from 1) ends."""

    player: str
    label: str
    index: int
    value: Any

    @property
    def name(self) -> str:
        return f"{self.player}:{self.label}:{self.index}"


def brief(value: Any) -> str:
    """An exact number for running text: a rational as it is, an irrational one as ``≈ decimal`` (its exact
    form is listed with the cut points)."""
    return f"≈ {decimal(value)}" if is_irrational(value) else shown(value)


def pieces_of(model: BettingModel, profile: PiecewiseProfile, h: int,
              nonempty: Callable[[Any, Any], bool] = lambda start, end: start < end) -> list[HandInterval]:
    """Information set ``h``'s strategy as intervals: empty intervals dropped (``nonempty(start, end)`` false),
    equal neighbours merged."""
    names = model.infosets[h].actions
    pieces: list[HandInterval] = []
    for i in range(profile.intervals):
        start, end = profile.breaks[i], profile.breaks[i + 1]
        if not nonempty(start, end):
            continue
        probabilities = tuple(zip(names, profile.behaviour[h][i]))
        if pieces and pieces[-1].probabilities == probabilities:
            pieces[-1] = HandInterval(pieces[-1].start, end, probabilities)
        else:
            pieces.append(HandInterval(start, end, probabilities))
    return pieces


def exact_number(value: Any) -> dict[str, Any]:
    """``{"exact", "approx", "minimal_polynomial"}`` of a rational or an algebraic number."""
    from exactpoker.algebraic import AlgebraicNumber
    from exactpoker.solve.algebra.roots import minimal_polynomial

    irrational = isinstance(value, AlgebraicNumber) and not value.is_rational
    polynomial = str(minimal_polynomial(value, sympy.Symbol("x"))) if irrational else None
    return {"exact": jsonable(value), "approx": decimal(value, 12), "minimal_polynomial": polynomial}


@dataclass(frozen=True)
class ContinuousResult:
    """A certified equilibrium of a game with a continuous deck (module docstring)."""

    game: str
    params: dict[str, Any]
    method: str
    player_names: tuple[str, ...]
    values: tuple[Any, ...]
    strategies: dict[str, dict[str, list[HandInterval]]]
    cut_points: tuple[CutPoint, ...]
    certificate: ContinuousCertificate
    family: FamilyTraces | None
    shape: str
    readings: tuple[Reading, ...]
    attempts: tuple[Attempt, ...]
    solved: SolvedShape
    model: BettingModel
    #: the game whose certified shape this one's was taken from (``shapes_from`` of the engine), if not read here
    lent_by: str | None = None

    @property
    def value(self) -> Any:
        """The first player's value."""
        return self.values[0]

    def cut(self, player: str, label: str, index: int = 1) -> Any:
        """The ``index``-th cut point (from 1) of ``player`` at ``label``."""
        for cut in self.cut_points:
            if (cut.player, cut.label, cut.index) == (player, label, index):
                return cut.value
        raise KeyError((player, label, index))

    def strategy_dict(self) -> dict[str, dict[str, list[dict[str, Any]]]]:
        return {player: {label: [piece.to_dict() for piece in pieces] for label, pieces in table.items()}
                for player, table in self.strategies.items()}

    def equilibrium_dict(self) -> dict[str, Any]:
        """The equilibrium in the shared vocabulary (``values``, ``strategies``, ``certified``, ``certificate``)."""
        strategies = self.strategy_dict()
        result = {"values": jsonable(list(self.values)), "strategies": jsonable(strategies), "certified": True,
                  "certificate": self.certificate.to_dict()}
        approx = approx_of(list(self.values), strategies)
        if approx is not None:
            result["approx"] = approx
        return result

    def to_dict(self) -> dict[str, Any]:
        continuous: dict[str, Any] = {
            "deck": "hands uniform on [0, 1]",
            "shape": self.shape,
            "cut_points": [{"player": c.player, "infoset": c.label, "index": c.index, **exact_number(c.value)}
                           for c in self.cut_points],
            "family": None if self.family is None else _family_dict(self.family),
            "finite_decks": [{"cards": r.cards, "values": jsonable(list(r.exact_values)), "method": r.method}
                             for r in self.readings],
            "shapes_tried": [{"shape": a.shape, "outcome": a.outcome} for a in self.attempts],
        }
        if self.lent_by is not None:
            continuous["shape_from"] = self.lent_by
        return {"game": self.game, "params": jsonable(self.params), "method": self.method,
                "equilibria": [self.equilibrium_dict()], "continuous": continuous}

    def __str__(self) -> str:
        params = ", ".join(f"{k}={jsonable(v)}" for k, v in self.params.items())
        lines = [f"{self.game}{f'({params})' if params and '(' not in self.game else ''} with a continuous deck "
                 f"(hands uniform on [0, 1]), by {self.method}",
                 "values: " + ", ".join(f"{name} {brief(v)}" for name, v in zip(self.player_names, self.values))]
        for player, table in self.strategies.items():
            for label, pieces in table.items():
                lines.append(f"  {player} at {label!r}:")
                lines += [f"    {piece.text()}" for piece in pieces]
        irrational = [cut for cut in self.cut_points if is_irrational(cut.value)]
        if irrational:
            lines.append("cut points (exact):")
            for cut in irrational:
                number = exact_number(cut.value)
                lines.append(f"  {cut.name} ≈ {number['approx']}: the root near it of {number['minimal_polynomial']}")
        c = self.certificate
        lines.append(f"certified: yes (every hand: {c.intervals} intervals, {c.comparisons} comparisons by exact "
                     f"signs; {'; '.join(c.decided_by)})")
        if self.family is not None:
            lines += _family_text(self.family)
        decks = ", ".join(f"{r.cards} (value {r.values[0]:.6g})" for r in self.readings)
        if self.lent_by is None:
            lines.append(f"shape read from exact finite decks n = {decks}; {len(self.attempts)} shape(s) tried")
        else:
            lines.append(f"shape certified for {self.lent_by} and solved here ({_none_read(decks)}); "
                         f"{len(self.attempts)} shape(s) tried")
        return "\n".join(lines)


def _family_dict(family: FamilyTraces) -> dict[str, Any]:
    return jsonable({"ties": [{"player": t.player, "infoset": t.label, "from": t.start, "to": t.end,
                      "actions": list(t.actions), "played": list(t.played),
                      "measures": {name: m for name, m in t.measures}} for t in family.ties],
            "free": [{"unknown": name, "value": value} for name, value in family.free]})


def _family_text(family: FamilyTraces) -> list[str]:
    lines = ["family: where this equilibrium may have other members with the same values (ties and free unknowns):"]
    for t in family.ties:
        measures = ", ".join(f"{name} {brief(m)}" for name, m in t.measures)
        lines.append(f"  {t.player} at {t.label!r} earns the same with {' and '.join(t.actions)} at every hand of "
                     f"[{brief(t.start)}, {brief(t.end)}] (plays {', '.join(t.played)}; measures {measures})")
    for name, value in family.free:
        lines.append(f"  the cut point {name} has no equation of its own; fixed at {brief(value)}")
    return lines


def _cut_points(model: BettingModel, solved: SolvedShape) -> tuple[CutPoint, ...]:
    cuts = []
    for h, k in sorted(solved.shape.cuts):
        infoset = model.infosets[h]
        cuts.append(CutPoint(model.player_names[infoset.player], infoset.label, k + 1,
                             solved.values[solved.shape.symbol_of((h, k))]))
    return tuple(cuts)


def _none_read(decks: str) -> str:
    """Why a lent shape was needed: the finite decks ``decks`` (sizes, perhaps with values) gave none that
    certifies, or none was solved."""
    return f"none read from the exact finite decks n = {decks} certified" if decks else "no finite deck solved"


def continuous_result(game: ContinuousGame, model: BettingModel, attempts: Sequence[Attempt],
                      readings: Sequence[Reading], lent_by: str | None = None) -> ContinuousResult:
    """The result of a successful search (its last attempt certified; its shape taken from ``lent_by``'s answer
    when given)."""
    solved = attempts[-1].solved
    assert solved is not None
    strategies: dict[str, dict[str, list[HandInterval]]] = {name: {} for name in model.player_names}
    for h, infoset in enumerate(model.infosets):
        strategies[model.player_names[infoset.player]][infoset.label] = pieces_of(model, solved.profile, h)
    cuts = _cut_points(model, solved)
    names = {solved.shape.symbol_of((h, k)): cut.name for (h, k), cut in zip(sorted(solved.shape.cuts), cuts)}
    decks = ", ".join(str(r.cards) for r in readings)
    found = (f"shape read from exact finite decks (n = {decks})" if lent_by is None else
             f"shape certified for {lent_by} ({_none_read(decks)})")
    method = f"continuous deck: {found}, its system solved exactly, certified at every hand"
    return ContinuousResult(game.source or game.name, dict(game.parameters), method, model.player_names,
                            solved.certificate.values, strategies, cuts, solved.certificate,
                            describe_family(model, solved, names), solved.shape.describe(
                                [i.actions for i in model.infosets]), tuple(readings), tuple(attempts), solved, model,
                            lent_by)
