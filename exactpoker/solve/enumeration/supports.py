"""Every equilibrium of an N-player game by support enumeration, with a proof that the list is complete.

Issue 28: the field's questions are about *all* equilibria.  For a compiled
game (a normal-form game is one information set per player), every support
(:func:`~exactpoker.core.support_system.player_supports`: per information
set the player's own support reaches, the actions played with positive
probability) is one independent task: its exact system (indifference,
best response, positivity; :mod:`exactpoker.core.support_system`) is
decided by :func:`~exactpoker.solve.enumeration.decide.decide_support`, which
records how.  An equilibrium's realization weights are positive on exactly
one support, so the supports partition the equilibria (in realization plans:
behaviour at sets a player's own play never reaches is immaterial and is
reported as the first action), and the list is **complete** when every
support is decided.  Porter, Nudelman and Shoham (GEB 63, 2008) enumerate
supports the same way for a float solver; here every system is solved
symbolically and every equilibrium returned has passed
:func:`exactpoker.certify.verify` twice (in the task and again here).

Supports run through :class:`exactpoker.parallel.Runner` when one is given
(the same Dask runner sweeps use); more than :data:`MAX_SUPPORTS` supports are
refused before any work, naming the count.  Exact algebraic numbers do not
pickle, so a task's profiles travel as rational coefficients
(:func:`_portable`) and are rebuilt and re-certified here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from itertools import product
from math import prod
from typing import Any, Callable

from exactpoker.algebraic import AlgebraicNumber, RealNumberField, fmpq_to_fraction
from exactpoker.certify import verify
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.profile import BehaviourProfile
from exactpoker.errors import CertificationError, InvalidParameterError
from exactpoker.numbers import exact_str
from exactpoker.parallel import Runner
from exactpoker import progress
from exactpoker.results import Equilibrium
from exactpoker.core.support_system import SupportKey, player_supports, support_count
from exactpoker.solve.algebra.polynomial_system import Family
from exactpoker.solve.enumeration.decide import REASONS, Behaviour, SupportDecision, decide_support
from exactpoker.solve.nplayer.point import CertifiedPoint

__all__ = ["SupportEnumeration", "all_equilibria_n_player", "first_equilibrium_n_player", "MAX_SUPPORTS"]

#: Most supports (the product over players) enumerated; beyond, the game is refused.
MAX_SUPPORTS = 200_000


@dataclass(frozen=True)
class SupportEnumeration:
    """Every equilibrium of a game, family by family, and how each support was decided.

    Attributes
    ----------
    equilibria : tuple of CertifiedPoint
        The isolated equilibria (rational or algebraic), each certified, with its support.
    families : tuple of (SupportKey, Family)
        Positive-dimensional sets of equilibria, each with a certified witness.
    decisions : tuple of SupportDecision
        One per support, in enumeration order: the proof.
    names : tuple of tuple
        Per player, its name and each information set's name and actions (to print supports).
    """

    equilibria: tuple[CertifiedPoint, ...]
    families: tuple[tuple[SupportKey, Family], ...]
    decisions: tuple[SupportDecision, ...]
    names: tuple[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], ...]

    @property
    def complete(self) -> bool:
        """Whether every support was decided, so the equilibria and families are all there are."""
        return all(d.decided for d in self.decisions)

    @property
    def supports_decided(self) -> dict[str, int]:
        """How many supports each reason decided (:data:`~exactpoker.solve.enumeration.decide.REASONS`)."""
        counts = {reason: 0 for reason in REASONS}
        for d in self.decisions:
            counts[d.reason] += 1
        return {reason: count for reason, count in counts.items() if count}

    def support_dict(self, support: SupportKey) -> dict[str, dict[str, list[str]]]:
        """``{player: {information set: [actions played]}}`` for the sets the support reaches."""
        return {player: {name: [actions[a] for a in chosen] for (name, actions), chosen in zip(sets, own) if chosen}
                for (player, sets), own in zip(self.names, support)}

    def as_equilibria(self, compiled: CompiledGame,
                      tables: Callable[[CompiledGame, BehaviourProfile], Any]) -> list[Equilibrium]:
        """The isolated equilibria as :class:`~exactpoker.results.Equilibrium` s, strategies laid out by ``tables``
        (e.g. :func:`exactpoker.solve.engine.dispatch.infoset_tables`), for a :class:`~exactpoker.results.SolveResult`."""
        return [Equilibrium.from_certificate(e.certificate, tables(compiled, e.profile), e.profile)
                for e in self.equilibria]

    def to_dict(self, proof: bool = False) -> dict[str, Any]:
        """The JSON keys of the enumeration: ``complete``, ``supports``, ``supports_decided``, ``families``
        and, with ``proof``, the per-support record ``proof``."""
        out: dict[str, Any] = {
            "complete": self.complete,
            "supports": len(self.decisions),
            "supports_decided": self.supports_decided,
            "families": [self._family_dict(support, family) for support, family in self.families],
        }
        if proof:
            out["proof"] = [{"support": self.support_dict(d.support), "reason": d.reason, "detail": d.detail}
                            for d in self.decisions]
        return out

    def _family_dict(self, support: SupportKey, family: Family) -> dict[str, Any]:
        return {
            "support": self.support_dict(support),
            "dimension": family.dimension,
            "dimension_exact": family.dimension_exact,
            "unknowns": list(family.names),
            "groebner": [str(g) for g in family.groebner],
            "parameters": [str(p) for p in family.parameters],
            "parametrisation": [str(v) for v in family.parametrisation],
            "witness": self._strategies(family.witness),
            "vertices": [self._strategies(v) for v in family.vertices],
        }

    def _strategies(self, behaviour: Behaviour) -> dict[str, dict[str, list[str]]]:
        return {player: {name: [exact_str(x) for x in row] for (name, _actions), row in zip(sets, rows)}
                for (player, sets), rows in zip(self.names, behaviour)}


def _names(compiled: CompiledGame) -> tuple[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], ...]:
    return tuple((player, tuple((layout.infoset_name(i), tuple(layout.infoset_actions(i)))
                                for i in range(layout.num_infosets)))
                 for player, layout in zip(compiled.player_names, compiled.layouts))


def support_total(compiled: CompiledGame) -> int:
    """The number of supports the enumeration decides (the product of the players' counts)."""
    return prod(support_count(layout) for layout in compiled.layouts)


def all_equilibria_n_player(compiled: CompiledGame, *, runner: Runner | None = None) -> SupportEnumeration:
    """Every equilibrium of ``compiled`` by exact support enumeration, with the per-support proof (module docstring).

    Parameters
    ----------
    compiled : CompiledGame
        Any finite game (meant for three or more players; two work too).
    runner : Runner, optional
        Where the supports run (default: here, one after another).

    Raises
    ------
    InvalidParameterError
        More than :data:`MAX_SUPPORTS` supports (the message gives the count).
    CertificationError
        A profile from a task fails the exact check here (never expected).
    """
    total = support_total(compiled)
    if total > MAX_SUPPORTS:
        counts = " x ".join(_shown(support_count(layout)) for layout in compiled.layouts)
        raise InvalidParameterError(f"--all: the game has {_shown(total)} supports ({counts} per player); support "
                                    f"enumeration is limited to {MAX_SUPPORTS}")
    supports = list(product(*(player_supports(layout) for layout in compiled.layouts)))
    runner = runner or Runner(workers=1)
    decisions: list[SupportDecision | None] = [None] * len(supports)
    progress.stage("support enumeration", len(supports), "supports")
    for index, (status, value) in runner.run(partial(_task, compiled), supports):
        if status == "ok":
            decisions[index] = _restored(value)
        else:
            decisions[index] = SupportDecision(supports[index], "error", f"{status}: {value}")
        progress.advance()
    return _collect(compiled, [d for d in decisions if d is not None])


def _shown(count: int) -> str:
    """A count as digits, or ``about 10^k`` past a hundred digits (a three-player Leduc has 10^4000 supports)."""
    if count < 10**100:
        return str(count)
    # Python refuses str() of integers past 4300 digits; the bit length's estimate is within one of the exponent
    return f"about 10^{len(str(count)) - 1 if count.bit_length() < 13000 else int(count.bit_length() * 0.30103)}"


def first_equilibrium_n_player(compiled: CompiledGame, *, limit: int = MAX_SUPPORTS
                               ) -> tuple[CertifiedPoint | None, int]:
    """One equilibrium by support enumeration, smallest supports first: ``(point, supports decided)``.

    Supports are taken by their total number of played actions, then by how unequal the players' are (Porter,
    Nudelman and Shoham, GEB 63, 2008, section 3: small, balanced supports first); the first support decided
    with an equilibrium, or a family with a certified witness, gives the point (exactly certified here).
    ``point`` is None when no support holds one: then, if every support was decided, the game has none -- which
    a finite game cannot -- so in practice some support stayed undecided.  Refused (InvalidParameterError)
    beyond ``limit`` supports.
    """
    total = support_total(compiled)
    if total > limit:
        raise InvalidParameterError(f"support enumeration: the game has {_shown(total)} supports; at most {limit} "
                                    "are tried")
    supports = sorted(product(*(player_supports(layout) for layout in compiled.layouts)), key=_support_order)
    progress.stage("support enumeration (one equilibrium)", len(supports), "supports")
    for decided, support in enumerate(supports, 1):
        decision = decide_support(compiled, support)
        progress.advance()
        behaviours = list(decision.equilibria) + ([decision.family.witness] if decision.family is not None else [])
        for behaviour in behaviours:
            profile = BehaviourProfile(behaviour)
            certificate = verify(compiled, profile)
            if certificate.holds:
                return CertifiedPoint(profile, certificate, support=support), decided
    return None, len(supports)


def _support_order(support: SupportKey) -> tuple[int, int]:
    sizes = [sum(len(actions) for actions in own) for own in support]
    return sum(sizes), max(sizes) - min(sizes)


def _collect(compiled: CompiledGame, decisions: list[SupportDecision]) -> SupportEnumeration:
    equilibria, families = [], []
    for decision in decisions:
        for behaviour in decision.equilibria:
            profile = BehaviourProfile(behaviour)
            certificate = verify(compiled, profile)
            if not certificate.holds:  # pragma: no cover - the task certified it already
                raise CertificationError("support enumeration: a returned profile failed the exact check")
            equilibria.append(CertifiedPoint(profile, certificate, support=decision.support))
        if decision.family is not None:
            if not verify(compiled, BehaviourProfile(decision.family.witness)).holds:  # pragma: no cover
                raise CertificationError("support enumeration: a family's witness failed the exact check")
            families.append((decision.support, decision.family))
    return SupportEnumeration(tuple(equilibria), tuple(families), tuple(decisions), _names(compiled))


# -- tasks: picklable in and out ------------------------------------------------------------------------------


def _task(compiled: CompiledGame, support: SupportKey) -> SupportDecision:
    return _portable(decide_support(compiled, support))


def _number_out(value: Any) -> Any:
    if isinstance(value, AlgebraicNumber):
        low, high = value.field.interval
        return ("algebraic", tuple(fmpq_to_fraction(c) for c in value.field.minimal_polynomial.coeffs()), low, high,
                tuple(fmpq_to_fraction(c) for c in value.polynomial.coeffs()))
    return value


def _number_in(value: Any, fields: dict[tuple, RealNumberField]) -> Any:
    if isinstance(value, tuple) and value and value[0] == "algebraic":
        _tag, minimal, low, high, coefficients = value
        key = (minimal, low, high)
        if key not in fields:
            fields[key] = RealNumberField(list(minimal), low, high)
        return fields[key].element(coefficients)
    return value


def _map_behaviour(behaviour: Behaviour, fn: Any) -> Behaviour:
    return tuple(tuple(tuple(fn(x) for x in row) for row in rows) for rows in behaviour)


def _portable(decision: SupportDecision) -> SupportDecision:
    """``decision`` with algebraic numbers as rational tuples (they do not pickle)."""
    return _map_decision(decision, _number_out)


def _restored(decision: SupportDecision) -> SupportDecision:
    """The inverse of :func:`_portable`: one field object per equilibrium's field."""
    fields: dict[tuple, RealNumberField] = {}
    return _map_decision(decision, lambda x: _number_in(x, fields))


def _map_decision(decision: SupportDecision, fn: Any) -> SupportDecision:
    equilibria = tuple(_map_behaviour(b, fn) for b in decision.equilibria)
    family = decision.family
    if family is not None:
        family = replace(family, witness=_map_behaviour(family.witness, fn),
                         vertices=tuple(_map_behaviour(v, fn) for v in family.vertices))
    return replace(decision, equilibria=equilibria, family=family)
