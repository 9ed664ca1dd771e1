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
shared keys to them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping

from exactpoker.algebraic import AlgebraicNumber
from exactpoker.certify import Certificate
from exactpoker.core.profile import BehaviourProfile
from exactpoker.lazy import is_instance, lazy
from exactpoker.numbers import exact_str, to_sympy

sympy = lazy("sympy")

__all__ = ["Equilibrium", "SolveResult", "jsonable", "shaped", "cut_equilibrium"]


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
    """

    values: tuple[sympy.Rational, ...] = _SympyView(tuple)  # type: ignore[assignment]
    strategies: Mapping[str, Any] = _SympyView(dict)  # type: ignore[assignment]
    certificate: Certificate = field(repr=False)
    profile: BehaviourProfile = field(repr=False)

    @classmethod
    def from_certificate(
        cls, certificate: Certificate, strategies: Mapping[str, Any], profile: BehaviourProfile
    ) -> "Equilibrium":
        return cls(tuple(certificate.payoffs), dict(strategies), certificate, profile)

    @property
    def certified(self) -> bool:
        return self.certificate.holds

    def to_dict(self) -> dict[str, Any]:
        return {
            "values": jsonable(list(self.exact_values)),
            "strategies": jsonable(self.exact_strategies),
            "certified": self.certified,
            "certificate": jsonable(self.certificate.to_dict()),
        }

    def __str__(self) -> str:
        lines = ["values: " + ", ".join(_text(v) for v in self.exact_values)]
        for name, table in self.exact_strategies.items():
            lines.append(f"  {name}: {_format_table(table)}")
        lines.append("  certified: " + ("yes (exact best-response check)" if self.certified else "NO"))
        return "\n".join(lines)


def _format_table(table: Any) -> str:
    if isinstance(table, Mapping):
        return "; ".join(f"{k}: {_format_table(v)}" for k, v in table.items())
    if isinstance(table, (list, tuple)):
        return "[" + ", ".join(_format_table(v) for v in table) + "]"
    return _text(table)


def _text(value: Any) -> str:
    """``str`` of the sympy view of ``value`` (exact numbers print as sympy prints them)."""
    return exact_str(value) if isinstance(value, (Fraction, int)) and not isinstance(value, bool) else str(value)


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
            result["details"] = jsonable(dict(self.details))
        for key, value in self.extras.items():
            result.setdefault(key, value)
        return result

    def __str__(self) -> str:
        params = ", ".join(f"{k}={jsonable(v)}" for k, v in self.params.items() if k != "file")
        source = f" (read from {self.params['file']})" if "file" in self.params else ""
        name = f"{self.game}({params})" if params else self.game
        head = f"{name}{source} by {self.method}: {len(self.equilibria)} equilibri" + (
            "um" if len(self.equilibria) == 1 else "a"
        )
        parts = [head] + [f"[{i + 1}] {eq}" for i, eq in enumerate(self.equilibria)] + list(self.notes)
        return "\n".join(parts)

    def _repr_latex_(self) -> str:
        rows = []
        for i, eq in enumerate(self.equilibria):
            vals = ", ".join(sympy.latex(v) for v in eq.values)
            rows.append(f"\\text{{equilibrium {i + 1}: values }} ({vals})")
        return "$" + " \\\\ ".join(rows or ["\\text{no equilibria}"]) + "$"


def cut_equilibrium(
    values: list[Any], strategies: Mapping[str, Any], certified: bool, scope: str, **figures: Any
) -> dict[str, Any]:
    """One equilibrium of a continuous game as JSON: each player's cut points as the strategy.

    ``values`` lists each player's payoff (``None`` where the method gives no
    value for that player); ``scope`` says against which deviations the
    certificate holds; ``figures`` are further certificate figures (e.g. ``digits``).
    """
    counts = {k: v for k, v in figures.items() if isinstance(v, (bool, int))}  # digits stay JSON integers
    certificate = {"holds": certified, "scope": scope, **jsonable(figures), **counts}
    return {"values": jsonable(values), "strategies": jsonable(dict(strategies)), "certified": certified,
            "certificate": certificate}


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
