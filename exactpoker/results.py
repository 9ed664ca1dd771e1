"""Result objects: equilibria with their certificates, and the result of a solve.

Public numbers are sympy rationals (they print as ``2/21``); the JSON shape of
:meth:`SolveResult.to_dict` is the command line's public interface::

    {"game": "von-neumann", "params": {"n": "7", "b": "2"}, "method": "...",
     "equilibria": [{"values": ["2/21", "-2/21"],
                     "strategies": {"I": [...], "II": [...]},
                     "certified": true,
                     "certificate": {"holds": true, "scope": "all strategies", "players": [...]}}, ...]}

Every command's ``--json`` has this shape (``game``, ``params``, ``equilibria``),
written down as a JSON Schema in :mod:`exactpoker.schema`; commands whose answer
is not a list of finite equilibria add their figures under named extras
(``cuts``, ``regions``, ``claims``, ``details``, ...) and :func:`shaped` adds the
shared keys to them.  Keys are snake_case (:func:`with_snake_keys` adds the
snake_case spelling beside an older one, kept for one release); an equilibrium
adds ``labelled_strategies`` where the game names its information sets and
actions, and ``approx`` (decimal readings, :mod:`exactpoker.display`) where an
entry is irrational.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping

from exactpoker.algebraic import AlgebraicNumber
from exactpoker.certify import Certificate
from exactpoker.core.profile import BehaviourProfile
from exactpoker.display import approx_table, has_irrational, shown
from exactpoker.lazy import is_instance, lazy
from exactpoker.numbers import exact_str, to_sympy

sympy = lazy("sympy")

__all__ = ["Equilibrium", "SolveResult", "jsonable", "shaped", "cut_equilibrium", "snake_case", "with_snake_keys",
           "approx_of"]


def jsonable(value: Any) -> Any:
    """Turn exact numbers into exact strings, recursively (for JSON)."""
    if isinstance(value, (Fraction, int)) and not isinstance(value, bool):
        return exact_str(value)
    if isinstance(value, AlgebraicNumber) or is_instance(value, "sympy", "Basic"):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def _sympify(value: Any) -> Any:
    if isinstance(value, (Fraction, int, AlgebraicNumber)) and not isinstance(value, bool):
        return to_sympy(value)
    if isinstance(value, Mapping):
        return {k: _sympify(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_sympify(v) for v in value]
    return value


class _SympyView:
    """A field kept as given (as ``exact_<name>``) and read as sympy numbers, converted on first read."""

    def __init__(self, kind: type) -> None:
        self.kind = kind

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            raise AttributeError(self.name)  # so the dataclass field has no default
        key = "_sympy_" + self.name
        if key not in obj.__dict__:
            obj.__dict__[key] = self.kind(_sympify(obj.__dict__["exact_" + self.name]))
        return obj.__dict__[key]

    def __set__(self, obj: Any, value: Any) -> None:
        obj.__dict__["exact_" + self.name] = value
        obj.__dict__.pop("_sympy_" + self.name, None)


@dataclass(frozen=True)
class Equilibrium:
    """One certified equilibrium.

    Attributes
    ----------
    values : tuple of sympy.Rational
        Each player's expected payoff.
    strategies : dict
        Per player name, the game's natural table of the strategy (for the
        card games: the probability of the aggressive action per card).
    exact_values, exact_strategies :
        The same numbers as given (``Fraction``, algebraic or sympy); the
        sympy views above are made on first use, so printing a result does not
        import sympy.
    certificate : Certificate
        The exact check that passed; re-run it with
        :func:`exactpoker.certify.verify` on :attr:`profile`.
    profile : BehaviourProfile
        The full behaviour profile.
    labelled : dict or None
        The same strategy with the game's own names, where it has them (games
        from a file, OpenSpiel or the poker language): per player, per
        information set, ``{action: probability}``.  ``None`` for the papers'
        card tables, whose layout the command's legend explains.
    """

    values: tuple[sympy.Rational, ...] = _SympyView(tuple)  # type: ignore[assignment]
    strategies: Mapping[str, Any] = _SympyView(dict)  # type: ignore[assignment]
    certificate: Certificate = field(repr=False)
    profile: BehaviourProfile = field(repr=False)
    labelled: Mapping[str, Any] | None = field(default=None, repr=False)

    @classmethod
    def from_certificate(
        cls, certificate: Certificate, strategies: Mapping[str, Any], profile: BehaviourProfile,
        labelled: Mapping[str, Any] | None = None,
    ) -> "Equilibrium":
        return cls(tuple(certificate.payoffs), dict(strategies), certificate, profile, labelled)

    @property
    def certified(self) -> bool:
        return self.certificate.holds

    def to_dict(self) -> dict[str, Any]:
        result = {
            "values": jsonable(list(self.exact_values)),
            "strategies": jsonable(self.exact_strategies),
            "certified": self.certified,
            "certificate": jsonable(self.certificate.to_dict()),
        }
        if self.labelled is not None:
            result["labelled_strategies"] = jsonable(self.labelled)
        approx = approx_of(list(self.exact_values), self.exact_strategies)
        if approx is not None:
            result["approx"] = approx
        return result

    def __str__(self) -> str:
        lines = ["values: " + ", ".join(shown(v) for v in self.exact_values)]
        if self.labelled is not None:
            lines += [f"  {name}: {_labelled_text(table)}" for name, table in self.labelled.items()]
        else:
            lines += [f"  {name}: {_format_table(table)}" for name, table in self.exact_strategies.items()]
        lines.append("  certified: " + ("yes (exact best-response check)" if self.certified else "NO"))
        return "\n".join(lines)


def approx_of(values: list[Any], strategies: Mapping[str, Any]) -> dict[str, Any] | None:
    """``{"values": [...], "strategies": {...}}`` as decimal strings, or None when every entry is rational.

    The JSON ``approx`` object (:mod:`exactpoker.display`): the same shapes as
    ``values`` and ``strategies``, each number a decimal string correct in the
    digits shown.
    """
    if not (has_irrational(values) or has_irrational(strategies)):
        return None
    return {"values": approx_table(values), "strategies": approx_table(strategies)}


def _format_table(table: Any) -> str:
    if isinstance(table, Mapping):
        return "; ".join(f"{k}: {_format_table(v)}" for k, v in table.items())
    if isinstance(table, (list, tuple)):
        return "[" + ", ".join(_format_table(v) for v in table) + "]"
    return shown(table)


def _labelled_text(table: Any) -> str:
    """``{"a": {"Fold": 0, "Raise": 1}, ...}``: names quoted, exact numbers bare (irrational ones ``≈ decimal``)."""
    if isinstance(table, Mapping):
        return "{" + ", ".join(f"{json.dumps(str(k))}: {_labelled_text(v)}" for k, v in table.items()) + "}"
    if isinstance(table, (list, tuple)):
        return "[" + ", ".join(_labelled_text(v) for v in table) + "]"
    return shown(table)


def snake_case(key: str) -> str:
    """The JSON vocabulary's spelling of a key: ``"zero-sum"`` -> ``"zero_sum"``, ``"II equals III"`` -> ``"ii_equals_iii"``."""
    return re.sub(r"[^0-9a-z]+", "_", key.lower()).strip("_")


#: New names where :func:`snake_case` alone would not read well (a paper's one-letter symbols).
RENAMED = {"R": "optimality_conditions", "S": "s_of_t"}


def with_snake_keys(mapping: Mapping[str, Any], renames: Mapping[str, str] = RENAMED) -> dict[str, Any]:
    """``mapping`` with each key that is not snake_case also given under its snake_case name.

    The new key comes just before the old one, which stays for one release
    (marked ``deprecated`` in the schema).  ``renames`` names the new key
    where :func:`snake_case` alone would not read well (``"R"`` ->
    ``"optimality_conditions"``); a new key already present is kept as it is.
    """
    result: dict[str, Any] = {}
    for key, value in mapping.items():
        new = renames.get(key) or snake_case(key)
        if new and new != key and new not in mapping:
            result[new] = value
        result[key] = value
    return result


@dataclass(frozen=True)
class SolveResult:
    """The result of a solve: which game, how, and the equilibria found.

    Attributes
    ----------
    game : str
        The game's identifier (``"von-neumann"``).
    params : dict
        The parameters, as given.
    method : str
        The method used (``"sequence-lp"``, ``"pure-enumeration"``, ...).
    equilibria : tuple of Equilibrium
        Every one certified.
    notes : tuple of str
        Plain-words remarks (e.g. "no pure equilibrium").
    details : dict
        Method-specific extras (e.g. the mixtures over pure strategies of the
        slow LP), exact numbers only.
    extras : dict
        Further top-level keys of :meth:`to_dict` (e.g. ``complete`` and
        ``convex_sets`` of ``solve --all``), each documented in the schema;
        JSON-ready as given (exact numbers already strings, counts integers).
    """

    game: str
    params: Mapping[str, Any]
    method: str
    equilibria: tuple[Equilibrium, ...]
    notes: tuple[str, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)
    extras: Mapping[str, Any] = field(default_factory=dict)

    @property
    def value(self) -> sympy.Rational:
        """Player I's value in the first equilibrium (the game value of a zero-sum game)."""
        return self.equilibria[0].values[0]

    def to_dict(self) -> dict[str, Any]:
        result = {
            "game": self.game,
            "params": jsonable(dict(self.params)),
            "method": self.method,
            "equilibria": [eq.to_dict() for eq in self.equilibria],
        }
        if self.notes:
            result["notes"] = list(self.notes)
        if self.details:
            result["details"] = with_snake_keys(jsonable(dict(self.details)))
        for key, value in self.extras.items():
            result.setdefault(key, value)
        return result

    def headline(self) -> str:
        """``game(params) by method: k equilibria``: the first line of the text output."""
        params = ", ".join(f"{k}={jsonable(v)}" for k, v in self.params.items() if k != "file")
        source = f" (read from {self.params['file']})" if "file" in self.params else ""
        name = f"{self.game}({params})" if params else self.game
        return f"{name}{source} by {self.method}: {len(self.equilibria)} equilibri" + (
            "um" if len(self.equilibria) == 1 else "a"
        )

    def certified_line(self) -> str:
        """``certified: yes (...)`` for the whole result, for texts that describe the equilibrium in words."""
        holds = all(eq.certified for eq in self.equilibria)
        return "certified: " + ("yes (exact best-response check)" if holds else "NO")

    def __str__(self) -> str:
        parts = [self.headline()] + [f"[{i + 1}] {eq}" for i, eq in enumerate(self.equilibria)] + list(self.notes)
        return "\n".join(parts)

    def _repr_latex_(self) -> str:
        rows = []
        for i, eq in enumerate(self.equilibria):
            vals = ", ".join(sympy.latex(v) for v in eq.values)
            rows.append(f"\\text{{equilibrium {i + 1}: values }} ({vals})")
        return "$" + " \\\\ ".join(rows or ["\\text{no equilibria}"]) + "$"


def cut_equilibrium(
    values: list[Any], strategies: Mapping[str, Any], certified: bool, scope: str,
    approx: Mapping[str, Any] | None = None, **figures: Any
) -> dict[str, Any]:
    """One equilibrium of a continuous game as JSON: each player's cut points as the strategy.

    ``values`` lists each player's payoff (``None`` where the method gives no
    value for that player); ``scope`` says against which deviations the
    certificate holds; ``approx`` gives the decimal readings where the exact
    numbers arrive as strings (default: computed by :func:`approx_of` when an
    entry is irrational); ``figures`` are further certificate figures (e.g. ``digits``).
    """
    counts = {k: v for k, v in figures.items() if isinstance(v, (bool, int))}  # digits stay JSON integers
    certificate = {"holds": certified, "scope": scope, **jsonable(figures), **counts}
    result = {"values": jsonable(values), "strategies": jsonable(dict(strategies)), "certified": certified,
              "certificate": certificate}
    approx = approx if approx is not None else approx_of(list(values), strategies)
    if approx is not None:
        result["approx"] = dict(approx)
    return result


def shaped(payload: Mapping[str, Any], game: str, params: Mapping[str, Any],
           equilibria: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """``payload`` with the shared keys ``game``, ``params`` and ``equilibria`` added.

    Keys the payload already has are kept as they are (the JSON shape is a public
    interface: it is extended, never renamed); ``equilibria`` defaults to an empty
    list for answers that are not equilibria (claims, regions, a branch of floats).
    """
    result: dict[str, Any] = {"game": game, "params": jsonable(dict(params)),
                              "equilibria": [] if equilibria is None else equilibria}
    result.update(payload)
    return result
