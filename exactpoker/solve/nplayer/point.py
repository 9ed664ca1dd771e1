"""The one certified-point type of the support core: an equilibrium found on a support, with its proof.

Every finish that solves a support's system returns a :class:`CertifiedPoint`: the N-player staged finish
(:mod:`exactpoker.solve.nplayer.finish`, through :func:`exactpoker.solve.nplayer.pipeline.solve_n_player`), the
support search of the three-player games (:mod:`exactpoker.solve.nplayer.support_search`) and support
enumeration (:mod:`exactpoker.solve.enumeration.supports`).  The point is exact (Fractions or algebraic numbers
of one real number field), or the unique zero of a rational system in a box proved by Krawczyk's test (its
unknowns then :class:`~exactpoker.certify_balls.CertifiedReal`).  A caller makes the public
:class:`~exactpoker.results.Equilibrium` of it with :meth:`CertifiedPoint.equilibrium`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from exactpoker.certify import Certificate
from exactpoker.certify_balls import BallCertificate, ball_equilibrium
from exactpoker.core.profile import BehaviourProfile
from exactpoker.results import Equilibrium

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.boxes import IsolatingBox
    from exactpoker.core.compiled import CompiledGame
    from exactpoker.core.support_system import IndifferenceSystem
    from exactpoker.solve.algebra.polynomial_system import Family

__all__ = ["CertifiedPoint"]


@dataclass(frozen=True)
class CertifiedPoint:
    """An equilibrium on a support and its certificate.

    The point
        ``profile`` (of the game asked) and ``certificate`` (exact Nash, sequential, or a
        :class:`~exactpoker.certify_balls.BallCertificate` proved on ``box``; None when what was proved holds for
        another game than the one asked -- the binary form, a lossless abstraction -- and the caller checks
        the profile again); ``support`` as the finder wrote it (a behaviour support of 0 / 1 / FREE, or per
        information set the actions played).
    The two-action variables (the staged finish; numbered player by player over :attr:`solved`'s sets)
        ``x`` every variable's probability of the last action; ``zeros``, ``ones``, ``interior`` the support
        read from the float guide; ``pinned`` the interior variables set at a simple rational (the free
        directions of a family, or choices no other player's play reaches).
    An isolating box
        ``box`` with its coordinates ``unknowns`` (variables) and the variables whose gains are its
        ``equations``.
    How it was found
        ``stage`` (rational, algebraic of some degree, isolating box), ``method`` (the result's method when the
        point did not come from the staged finish, e.g. a fallback's; empty otherwise), ``notes``, ``solved`` the game the
        stages ran on (the game itself, or its binary form), ``family`` the family it lies on, ``system`` the
        indifference system solved, ``rounds`` the supports tried.
    """

    profile: BehaviourProfile
    certificate: Certificate | None
    support: Any = ()
    x: tuple[Any, ...] = ()
    zeros: tuple[int, ...] = ()
    ones: tuple[int, ...] = ()
    interior: tuple[int, ...] = ()
    pinned: tuple[int, ...] = ()
    box: "IsolatingBox | None" = None
    unknowns: tuple[int, ...] = ()
    equations: tuple[int, ...] = ()
    stage: str = ""
    method: str = ""
    notes: tuple[str, ...] = ()
    solved: "CompiledGame | None" = None
    family: "Family | None" = None
    system: "IndifferenceSystem | None" = None
    rounds: int = 0

    @property
    def behaviour(self) -> tuple[tuple[Any, ...], ...]:
        """Per player and information set, the probability of the last action."""
        return tuple(tuple(mix[-1] for mix in strategy) for strategy in self.profile.strategies)

    def equilibrium(self, strategies: Mapping[str, Sequence[object]]) -> Equilibrium:
        """The certified :class:`~exactpoker.results.Equilibrium` with the game's strategy table."""
        assert self.certificate is not None
        if isinstance(self.certificate, BallCertificate):
            return ball_equilibrium(self.certificate, strategies, self.profile)
        return Equilibrium.from_certificate(self.certificate, strategies, self.profile)

    def lifted(self, lift: Callable[[BehaviourProfile], BehaviourProfile]) -> "CertifiedPoint":
        """This point of a lossless abstraction, on the full game (``lift``:
        :meth:`exactpoker.solve.structure.abstraction.Abstraction.lift`).

        Every member of an orbit plays its orbit's strategy; an equilibrium of the reduced game so lifted is one
        of the full game (Gilpin and Sandholm 2007, section 5).  An exact profile is checked again on the full
        game by the dispatcher; an isolating box stays the reduced game's (its certificate proves the reduced
        equilibrium, the exactly checked automorphisms the rest).
        """
        notes = self.notes if self.box is None else self.notes + (
            "the isolating box is the lossless abstraction's; its equilibrium, given to every member of each orbit, "
            "is the full game's",)
        return replace(self, profile=lift(self.profile), notes=notes,
                       certificate=self.certificate if self.box is not None else None)

    def _names(self) -> list[str]:
        """Each variable of :attr:`solved` as ``player:information set``."""
        assert self.solved is not None
        return [f"{self.solved.player_names[p]}:{layout.infoset_name(i)}"
                for p, layout in enumerate(self.solved.layouts) for i in range(layout.num_infosets)]

    def box_details(self, name: Callable[[int], object] | None = None) -> dict[str, object]:
        """The isolating box's system and box, exactly; ``name(k)`` names variable ``k`` (default
        ``player:information set`` of :attr:`solved`; polynomials use ``x<k>``).

        ``identities`` lists each mixed choice whose gain is not an equation with its proof: the gain (times
        ``factor``, if given: nonzero at the box's zero) equals the sum of the multipliers times the named
        equations' gains, so it is 0 at the box's zero.
        """
        assert self.box is not None and isinstance(self.certificate, BallCertificate)
        if name is None:
            name = self._names().__getitem__
        certificate = self.certificate
        identities = [{"gain_of": name(k), **({} if c.factor is None else {"factor": str(c.factor)}),
                       "combination": [{"equation_of": name(self.equations[i]), "multiplier": str(c.multipliers[i])}
                                       for i in c.used()]}
                      for k, c in zip(certificate.identities, certificate.combinations)]
        return {"kind": certificate.kind,
                "unknowns": {f"x{k}": name(k) for k in self.unknowns},
                "equations": [{"gain_of": name(r), "polynomial": str(e)}
                              for r, e in zip(self.equations, self.box.equations)],
                "box": {f"x{k}": [lo, hi] for k, (lo, hi) in zip(self.unknowns, self.box.intervals())},
                "identities": identities}

    def support_details(self) -> dict[str, list[object]]:
        """The support's mixed choices and those pinned at simple rationals, named ``player:information set``.

        ``mixed`` lists the interior variables of the support, ``pinned`` the ``[name, value]`` of those left
        free by the indifference equations and set at a simple rational.
        """
        names = self._names()
        return {"mixed": [names[k] for k in self.interior], "pinned": [[names[k], self.x[k]] for k in self.pinned]}
