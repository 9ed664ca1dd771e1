"""When the N-player float guide or its finish fails: the simpler exact methods, before giving up.

The staged finish (:mod:`exactpoker.solve.nplayer.pipeline`) follows a float guide; on a small game it can fail
where a simpler method succeeds at once -- a game whose equilibria are all degenerate or pure (a 2x2x2
coordination game with four pure equilibria), or payoffs on a scale the regularised continuation meets stiff.
:func:`simpler_methods` then tries, in turn and within their size limits:

1. **pure equilibria** -- exhaustive best responses on the strategic form (the pipeline's
   ``pure_equilibria_n``, exact integers); the first is returned;
2. **support enumeration** -- supports smallest and most balanced first, each decided exactly
   (:func:`~exactpoker.solve.enumeration.supports.first_equilibrium_n_player`), until one holds an equilibrium
   or a family with a certified witness.

Every point returned is certified by :func:`exactpoker.certify.verify`.  When neither finds one, the error
names the guide's failure and what each method tried.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Callable

from exactpoker import progress
from exactpoker.certify import verify
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.profile import BehaviourProfile
from exactpoker.errors import CertificationError, InvalidParameterError
from exactpoker.solve.enumeration.pure import PureProfile
from exactpoker.solve.nplayer.point import CertifiedPoint

__all__ = ["FALLBACK_SUPPORTS", "simpler_methods"]

#: Most supports the fallback enumerates (each is decided exactly: Groebner bases on the larger ones).
FALLBACK_SUPPORTS = 5_000


def simpler_methods(compiled: CompiledGame, failure: str,
                    pure_equilibria: Callable[[CompiledGame], list[PureProfile]]) -> CertifiedPoint:
    """A certified equilibrium of ``compiled`` by the simpler methods (module docstring), after ``failure``.

    ``pure_equilibria`` lists a game's pure equilibria
    (:func:`~exactpoker.solve.nplayer.pipeline.pure_equilibria_n`, which calls this).

    Raises
    ------
    CertificationError
        Neither method found one; the message gives ``failure`` and what was tried.
    """
    tried = []
    found = _pure(compiled, tried, pure_equilibria)
    if found is None:
        found = _supports(compiled, tried)
    if found is None:
        raise CertificationError(f"{failure}; then {'; '.join(tried)}")
    return replace(found, method=f"{found.stage} (exact; after the float guide's route failed)",
                   notes=(f"the float guide's route failed: {failure}",) + found.notes)


def _pure(compiled: CompiledGame, tried: list[str],
          pure_equilibria: Callable[[CompiledGame], list[PureProfile]]) -> CertifiedPoint | None:
    progress.stage("pure equilibria (exhaustive best responses)")
    try:
        pure = pure_equilibria(compiled)
    except InvalidParameterError as error:
        tried.append(f"pure equilibria not enumerated ({error})")
        return None
    if not pure:
        tried.append("no pure equilibrium (every pure profile checked)")
        return None
    strategies = []
    for layout, choices in zip(compiled.layouts, pure[0].choices):
        strategies.append(tuple(tuple(Fraction(int(a == choices[i])) for a in range(len(layout.infoset_sequences(i))))
                                for i in range(layout.num_infosets)))
    profile = BehaviourProfile(tuple(strategies))
    certificate = verify(compiled, profile)
    if not certificate.holds:  # pragma: no cover - the enumeration compared exact payoffs
        raise CertificationError("pure equilibria: a pure equilibrium failed the exact check")
    return CertifiedPoint(profile, certificate, stage=f"pure equilibria by exhaustive best responses "
                                                      f"(the first of {len(pure)})", solved=compiled)


def _supports(compiled: CompiledGame, tried: list[str]) -> CertifiedPoint | None:
    from exactpoker.solve.enumeration.supports import first_equilibrium_n_player

    try:
        found, decided = first_equilibrium_n_player(compiled, limit=FALLBACK_SUPPORTS)
    except InvalidParameterError as error:
        tried.append(f"support enumeration not run ({error})")
        return None
    if found is None:
        tried.append(f"support enumeration found no certified equilibrium in its {decided} supports")
        return None
    return replace(found, stage=f"support enumeration (smallest supports first; found at support {decided})",
                   solved=compiled)
