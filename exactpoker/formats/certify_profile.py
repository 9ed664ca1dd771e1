"""The exact certificate of someone else's profile: ``exactpoker certify GAME PROFILE``.

:func:`certify_profile` reads the game as ``exactpoker solve`` does (any
spec, a ``pyspiel.Game``, a ``pygambit.Game``, or any game
:func:`~exactpoker.solve.engine.dispatch.solve_game` takes), compiles it as the solver
does (:func:`~exactpoker.solve.engine.dispatch.guarded_compiled`: the same layout, the
same size guard), reads the profiles (:mod:`exactpoker.formats.profiles`) and
checks each one with the project's one certificate,
:func:`exactpoker.certify.verify`: every player's payoff, best-response value
and regret, exact.  Where a regret is positive,
:func:`exactpoker.certify.best_deviation` says where the profile fails: the
information sets at which that player should switch, and to which action.

A profile that holds is also an equilibrium of the result (``equilibria``, as
``exactpoker solve`` gives it); every profile, holding or not, is in
``profiles`` with its certificate and deviations.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any

from exactpoker.certify import Certificate, Deviation, best_deviation, verify
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.profile import BehaviourProfile
from exactpoker.display import shown
from exactpoker.errors import InvalidParameterError
from exactpoker.formats import game_tree
from exactpoker.formats.profiles import Decimals, GivenProfile, Kind, ProfileGame, read_profiles
from exactpoker.numbers import exact_str
from exactpoker.results import Equilibrium, jsonable

__all__ = ["CheckedProfile", "ProfileReport", "certify_profile", "METHOD"]

METHOD = "exact certificate of a given profile (best responses by backward induction, in rational arithmetic)"

#: Changes of one player's best deviation shown in the text output (all of them are in the JSON).
SHOWN_CHANGES = 10


@dataclass(frozen=True)
class CheckedProfile:
    """One given profile, its certificate, and each failing player's best deviation."""

    source: str
    profile: BehaviourProfile
    certificate: Certificate
    deviations: tuple[Deviation, ...]

    @property
    def holds(self) -> bool:
        """Whether the profile is a Nash equilibrium (every regret exactly 0)."""
        return self.certificate.holds


@dataclass(frozen=True)
class ProfileReport:
    """Every profile given for one game, checked (:func:`certify_profile`)."""

    game: ProfileGame
    checks: tuple[CheckedProfile, ...]

    @property
    def holds(self) -> bool:
        """Whether every profile given is a Nash equilibrium."""
        return all(check.holds for check in self.checks)

    @property
    def compiled(self) -> CompiledGame:
        return self.game.compiled

    def equilibria(self) -> list[Equilibrium]:
        """The profiles that hold, as the equilibria of a solve result."""
        from exactpoker.solve.engine.tables import labelled_tables

        return [Equilibrium.from_certificate(check.certificate, self.game.loaded.tables(self.compiled, check.profile),
                                             check.profile, labelled=labelled_tables(self.compiled, check.profile))
                for check in self.checks if check.holds]

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``exactpoker certify --json`` (``profiles`` and ``holds`` added to the result's)."""
        return {"game": self.compiled.game.name, "params": jsonable(dict(self.compiled.game.parameters)),
                "method": METHOD, "equilibria": [eq.to_dict() for eq in self.equilibria()], "holds": self.holds,
                "profiles": [self._profile_dict(check) for check in self.checks]}

    def _profile_dict(self, check: CheckedProfile) -> dict[str, Any]:
        from exactpoker.solve.engine.tables import labelled_tables

        certificate = check.certificate.to_dict()
        return {"source": check.source, "holds": check.holds, "values": jsonable(list(check.certificate.payoffs)),
                "strategies": jsonable(self.game.loaded.tables(self.compiled, check.profile)),
                "labelled_strategies": jsonable(labelled_tables(self.compiled, check.profile)),
                "certificate": jsonable(certificate),
                "best_deviations": [self._deviation_dict(check, d) for d in check.deviations]}

    def _deviation_dict(self, check: CheckedProfile, deviation: Deviation) -> dict[str, Any]:
        layout = self.compiled.layouts[deviation.player]
        strategy = check.profile.strategies[deviation.player]
        changes = [{"information_set": layout.infoset_name(i),
                    "played": jsonable(dict(zip(layout.infoset_actions(i), strategy[i]))),
                    "deviate_to": layout.infoset_actions(i)[a]} for i, a in deviation.changes.items()]
        player = check.certificate.checks[deviation.player]
        return {"player": player.player, "gain": exact_str(player.regret), "payoff": exact_str(deviation.payoff),
                "changes": changes}

    def __str__(self) -> str:
        count = sum(check.holds for check in self.checks)
        lines = [f"{self.compiled.game.name}: {len(self.checks)} profile{'s' if len(self.checks) != 1 else ''} "
                 f"checked exactly, {count} Nash equilibri{'um' if count == 1 else 'a'}"]
        for k, check in enumerate(self.checks, 1):
            verdict = "a Nash equilibrium (every regret is 0)" if check.holds else \
                f"NOT a Nash equilibrium (largest regret {shown(check.certificate.max_regret)})"
            lines.append(f"[{k}] {check.source}: {verdict}")
            lines += [f"  {c.player}: payoff {shown(c.payoff)}, best response {shown(c.best_response)}, "
                      f"regret {shown(c.regret)}" for c in check.certificate.checks]
            for deviation in check.deviations:
                lines += self._deviation_text(check, deviation)
        return "\n".join(lines)

    def _deviation_text(self, check: CheckedProfile, deviation: Deviation) -> list[str]:
        data = self._deviation_dict(check, deviation)
        lines = [f"  {data['player']}'s best deviation (gains {data['gain']}, earns {data['payoff']}): at "
                 f"{len(data['changes'])} information set{'s' if len(data['changes']) != 1 else ''}"]
        for change in data["changes"][:SHOWN_CHANGES]:
            played = ", ".join(f'"{a}": {p}' for a, p in change["played"].items())
            lines.append(f'    at "{change["information_set"]}" play "{change["deviate_to"]}" (the profile: {played})')
        if len(data["changes"]) > SHOWN_CHANGES:
            lines.append(f"    ... and {len(data['changes']) - SHOWN_CHANGES} more (all of them with --json)")
        return lines


def certify_profile(game: object, profile: object, *, source: str = "PROFILE", decimals: Decimals = "exact",
                    kind: Kind = "auto") -> ProfileReport:
    """Check every profile in ``profile`` exactly on ``game`` (module docstring).

    Parameters
    ----------
    game : object
        Anything :func:`~exactpoker.solve.engine.dispatch.solve_game` takes: a spec
        (``"library:kuhn"``, ``"openspiel:kuhn_poker"``, a ``.efg``, ``.nfg``
        or ``.py`` path), a ``pyspiel.Game``, a ``pygambit.Game``, a
        :class:`~exactpoker.core.poker.PokerGame`, ...
    profile : object
        The text of Gambit's ``NE,`` lines, of a JSON policy or of a CSV file;
        an ``os.PathLike`` naming such a file; a pygambit profile, an
        OpenSpiel ``TabularPolicy``, a mapping, or a
        :class:`~exactpoker.core.profile.BehaviourProfile` (:mod:`exactpoker.formats.profiles`).
    source : str
        The profile's name in the report and in messages.
    decimals : {"exact", "fractions"}
        How decimals and floats are read (:func:`~exactpoker.formats.profiles.exact_number`).
    kind : {"auto", "behaviour", "mixed"}
        How a Gambit line is read when its length fits both.

    Raises
    ------
    InvalidParameterError
        If the game or the profile cannot be read (one line naming where).
    ResourceLimitError
        If compiling the game would exceed the memory limit.
    """
    from exactpoker.solve.engine.dispatch import guarded_compiled
    from exactpoker.solve.engine.loaded import as_loaded

    if isinstance(profile, os.PathLike):
        source = os.fspath(profile)
        profile = read_profile_file(source)
    loaded = as_loaded(game)
    compiled = guarded_compiled(loaded)
    context = ProfileGame(loaded, compiled, lambda: game_tree(loaded))
    given = read_profiles(context, profile, source, decimals=decimals, kind=kind)
    return ProfileReport(context, tuple(_checked(compiled, item) for item in given))


def _checked(compiled: CompiledGame, given: GivenProfile) -> CheckedProfile:
    certificate = verify(compiled, given.profile)
    deviations = tuple(best_deviation(compiled, given.profile, p)
                       for p, check in enumerate(certificate.checks) if check.regret > 0)
    return CheckedProfile(given.source, given.profile, certificate, deviations)


def read_profile_file(path: str) -> str:
    """The text of a profile file (``-``: standard input)."""
    if path == "-":
        return sys.stdin.read()
    if not os.path.isfile(path):
        raise InvalidParameterError(f"PROFILE: no such file: {path} (give a file, - for standard input, or a "
                                    "Gambit line NE,...)")
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidParameterError(f"PROFILE: cannot read {path}: {error}") from None
