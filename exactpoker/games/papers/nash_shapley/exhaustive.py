"""Nash--Shapley poker: every case of condition (C) decided, so the list of points is complete.

Seed 001, sections 6--10.  The paper proves that its systems give every
equilibrium point by hand, for ``b >= a`` (sections 7--8).  This module proves
completeness by machine at one rational ``a/b``: it takes every case that
condition (C) and the irrelevance convention allow
(:func:`~exactpoker.games.papers.nash_shapley.cases.cases`) and decides each one
exactly:

* the paper's systems and those of the gap
  (:data:`~exactpoker.games.papers.nash_shapley.equilibria.SYSTEMS`,
  :data:`~exactpoker.games.papers.nash_shapley.equilibria.GAP_SYSTEMS`) are solved
  as :func:`~exactpoker.games.papers.nash_shapley.equilibria.equilibria` solves them
  (points, one-parameter families, the threat family);
* every other case is decided over the open unit box by
  :func:`exactpoker.solve.algebra.open_box.decide_open_box`: factor
  splitting and Groebner bases (no zero in the open box), exact zeros of the
  zero-dimensional components; and through
  :mod:`exactpoker.solve.algebra.box_exclusion`: bisection with proved vertex bounds
  and contraction that uses the inequalities of (C) too, and, where the
  equations vanish on a face just outside the open box, the same on the two
  blow-up charts of that face; last, with (C) replaced by the exact
  equilibrium conditions, every pure deviation of every player
  (:func:`~exactpoker.games.papers.nash_shapley.families.deviation_conditions`),
  which also settles a case whose coefficients are all free: its region of
  equilibrium points (:func:`~exactpoker.games.papers.nash_shapley.families.case_family`).
  Every exact zero found, and every corner of a region, is certified
  (:func:`exactpoker.certify.verify`): a certified one is an equilibrium point
  the systems missed, the others are not equilibria.

A case no stage decides is reported as undecided (its interior coefficients),
and the result then says the list is not proved complete.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial

import sympy

from exactpoker import progress
from exactpoker.certify import verify
from exactpoker.games.papers.nash_shapley import payoffs as ns
from exactpoker.games.papers.nash_shapley.cases import (INTERIOR, ONE, VARIABLES, ZERO, Case, integer_polynomials, cases,
                                                 solve_case_counted)
from exactpoker.games.papers.nash_shapley.equilibria import (GAP_SYSTEMS, SYSTEMS, THREATS, equilibria, profile,
                                                      system_case)
from exactpoker.games.papers.nash_shapley.families import case_family, deviation_conditions
from exactpoker.numbers import parse_positive, to_sympy
from exactpoker.parallel import Runner
from exactpoker.results import Equilibrium, SolveResult
from exactpoker.solve import Multilinear, excluded_by_boxes
from exactpoker.solve import decide_open_box

__all__ = ["CaseSystem", "Decisions", "case_system", "decide_case", "decide", "exhaustive"]

#: Sub-boxes the bisection stage may examine per case (per component).
BOX_BUDGET = 3000
#: Up to this many components, each is bisected again on its own, its multilinear basis members as equations.
MAX_COMPONENTS = 4


@dataclass(frozen=True)
class CaseSystem:
    """One case's equations and conditions in its interior coefficients (``unknowns``).

    ``equations`` are the ``Delta_u`` of the interior ``u`` and ``conditions``
    the pairs ``(R_v, +-Delta_v)`` of the others (``Delta_v <= 0`` where ``v``
    is 0, ``>= 0`` where it is 1, wherever its situation arises: ``R_v > 0``),
    as :data:`~exactpoker.solve.algebra.open_box.Multilinear` in the unknowns.
    """

    unknowns: tuple[str, ...]
    equations: tuple[Multilinear, ...]
    conditions: tuple[tuple[Multilinear, Multilinear], ...]


def case_system(t: Fraction, case: Case) -> CaseSystem:
    """The equations and conditions of ``case`` at ``a/b = t`` (0 and 1 substituted)."""
    deltas, reaches = integer_polynomials(Fraction(t))
    kinds = dict(case.kinds)
    unknowns = case.interior
    local = {name: j for j, name in enumerate(unknowns)}

    def restrict(poly: dict[int, int]) -> Multilinear:
        out: Multilinear = {}
        for mask, c in poly.items():
            names = [VARIABLES[k] for k in range(len(VARIABLES)) if mask >> k & 1]
            if any(kinds[n] == ZERO for n in names):
                continue
            m = sum(1 << local[n] for n in names if kinds[n] == INTERIOR)
            out[m] = out.get(m, 0) + c
        return {m: c for m, c in out.items() if c}

    equations = tuple(p for p in (restrict(deltas[u]) for u in unknowns) if p)
    conditions = []
    for name, kind in case.kinds:
        if kind == INTERIOR:
            continue
        delta = restrict(deltas[name])
        if delta:
            sign = -1 if kind == ZERO else 1
            conditions.append((restrict(reaches[name]), {m: sign * c for m, c in delta.items()}))
    return CaseSystem(unknowns, equations, tuple(conditions))


@dataclass
class Decisions:
    """How every case was decided (counts), the families of free coefficients, and the undecided cases."""

    cases: int = 0
    systems: int = 0
    no_zero_algebra: int = 0
    no_zero_boxes: int = 0
    solved: int = 0
    zeros: int = 0
    rejected: int = 0
    families: list[dict[str, object]] = field(default_factory=list)
    undecided: list[tuple[str, ...]] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        """``{"cases", "systems", "no_zero", "no_solution", "solved", "zeros", "not_equilibria", "families", "undecided"}``.

        ``no_zero``: no zero in the open box (factors, Groebner bases);
        ``no_solution``: no solution of (C) or of the exact equilibrium
        conditions (bisection); ``solved``: cases whose zeros were found
        exactly; ``zeros``: the exact points put to the certificate (those
        zeros, and the corners and centres of the families), of which
        ``not_equilibria`` failed it; ``families``: each case whose
        coefficients are all free, its region of equilibrium points
        (:meth:`~exactpoker.games.papers.nash_shapley.families.CaseFamily.describe`);
        ``undecided``: the interior coefficients of each case no stage decided.
        """
        return {"cases": self.cases, "systems": self.systems, "no_zero": self.no_zero_algebra,
                "no_solution": self.no_zero_boxes, "solved": self.solved, "zeros": self.zeros,
                "not_equilibria": self.rejected, "families": self.families,
                "undecided": [list(u) for u in self.undecided]}


def _system_names(case: Case) -> list[str]:
    return [name for name in [*SYSTEMS, *GAP_SYSTEMS] if system_case(name) == case]


def decide_case(t: Fraction, case: Case) -> tuple[str, list[dict[str, object]]]:
    """How ``case`` is decided at ``a/b = t``, and its exact zeros in the open box when it had to be solved.

    The first item is ``"system"`` (one of the paper's or the gap's systems:
    :func:`~exactpoker.games.papers.nash_shapley.equilibria.equilibria` solves it),
    ``"algebra"`` (no zero in the open box), ``"boxes"`` (no solution of
    (C), or none of the exact equilibrium conditions), ``"solved"`` (the
    zeros follow, every coefficient given), ``"family"`` (a region of free
    coefficients: its corners and centre follow) or ``"undecided"``.
    """
    names = _system_names(case)
    if names and all(name in THREATS or not solve_case_counted(t, case)[1] for name in names):
        return "system", []
    # (a system with solutions of two or more parameters, maybe only on a face outside the open box, is
    # decided like any other case; its points, if any, are found again and told apart as the same)
    system = case_system(t, case)
    kind, points = decide_open_box(system.equations, system.conditions, system.unknowns, budget=BOX_BUDGET,
                                   max_components=MAX_COMPONENTS)
    if kind in ("no-zero", "excluded"):
        return ("algebra" if kind == "no-zero" else "boxes"), []
    if kind == "open":
        return _decided_by_deviations(t, case, system)
    zeros = []
    for point in points:
        values: dict[str, object] = {n: Fraction(int(k == ONE)) for n, k in case.kinds if k != INTERIOR}
        values.update(zip(system.unknowns, point))
        zeros.append(values)
    return "solved", zeros


def _decided_by_deviations(t: Fraction, case: Case, system: CaseSystem) -> tuple[str, list[dict[str, object]]]:
    """The last stage: (C) replaced by the exact equilibrium conditions (every pure deviation of every player).

    ``"boxes"`` when bisection excludes them, ``"family"`` (with the family's
    certifiable points) when the case has no equations and its region
    (:func:`~exactpoker.games.papers.nash_shapley.families.case_family`) shows a
    point, else ``"undecided"``.
    """
    deviations = [({0: 1}, g) for g in deviation_conditions(t, case)]
    n = len(system.unknowns)
    if excluded_by_boxes(n, system.equations, [*system.conditions, *deviations], BOX_BUDGET):
        return "boxes", []
    if system.equations:
        return "undecided", []
    family = case_family(t, case)
    if family is None:
        return "boxes", []
    points = family.points()
    return ("family", points) if points else ("undecided", [])


#: Cases per task handed to the runner (a case takes about 14 ms at the median).
CHUNK = 16


def _kinds(t: Fraction, chunk: list[Case]) -> list[str]:
    return [decide_case(t, case)[0] for case in chunk]


def decide(t: Fraction, runner: Runner | None = None) -> tuple[Decisions, list[dict[str, object]]]:
    """Decide every case at ``a/b = t``: the counts and each exact zero outside the systems (all coefficients).

    With a ``runner`` that is not local (:class:`~exactpoker.parallel.Runner`:
    a local Dask cluster or a scheduler) the cases go out in chunks of
    :data:`CHUNK`; the few that need solving, and any whose task failed, are
    decided again here (for their exact zeros).
    """
    t = Fraction(t)
    every = cases(t)
    kinds: list[str | None] = [None] * len(every)
    if runner is not None and not runner.local:
        chunks = [every[i:i + CHUNK] for i in range(0, len(every), CHUNK)]
        progress.stage("deciding the cases of condition (C) on Dask", len(chunks), f"chunks of {CHUNK} cases")
        for index, (status, value) in runner.run(partial(_kinds, t), chunks):
            progress.advance()
            if status == "ok":
                kinds[index * CHUNK:index * CHUNK + len(value)] = value
    decisions = Decisions(cases=len(every))
    zeros: list[dict[str, object]] = []
    for case, kind in progress.each(list(zip(every, kinds)), "deciding the cases of condition (C)", "cases"):
        found: list[dict[str, object]] = []
        if kind is None or kind in ("solved", "family"):
            kind, found = decide_case(t, case)
        if kind == "system":
            decisions.systems += 1
        elif kind == "algebra":
            decisions.no_zero_algebra += 1
        elif kind == "boxes":
            decisions.no_zero_boxes += 1
        elif kind == "solved":
            decisions.solved += 1
            zeros += found
        elif kind == "family":
            decisions.families.append(case_family(t, case).describe())  # type: ignore[union-attr]
            zeros += found
        else:
            decisions.undecided.append(case.interior)
    return decisions, zeros


def _certified(g: object, values: dict[str, object], unit: Fraction) -> Equilibrium | None:
    """The equilibrium at these exact coefficients if it passes the certificate, else None."""
    prof = profile(g, values)  # type: ignore[arg-type]
    certificate = verify(g, prof)  # type: ignore[arg-type]
    if not certificate.holds:
        return None
    strategies = {str(p + 1): {n: to_sympy(values[n]) for n in ns.SYMBOLS if ns.OWNER[n] == p} for p in range(3)}
    return Equilibrium(tuple(to_sympy(v * unit) for v in certificate.payoffs), strategies, certificate, prof)


def _same_point(first: Equilibrium, second: Equilibrium) -> bool:
    """Whether two equilibria are one point: equal coefficients wherever their situations arise (exactly).

    Section 5: a coefficient whose situation never arises is irrelevant, and
    two points that differ only there are the same point (the convention
    picks one value for it).
    """
    reach = ns.situation_reach()
    at = [{ns.SYMBOLS[n]: sympy.sympify(v) for p in eq.strategies for n, v in eq.strategies[p].items()}
          for eq in (first, second)]
    for name, symbol in ns.SYMBOLS.items():
        if sympy.simplify(at[0][symbol] - at[1][symbol]) == 0:
            continue
        if any(sympy.simplify(reach[name].xreplace(values)) != 0 for values in at):
            return False
    return True


def exhaustive(a: object, b: object, workers: int | None = None, runner: Runner | None = None) -> SolveResult:
    """Every equilibrium point at ante ``a`` and bet ``b``, with the proof that the list is complete.

    The points of :func:`~exactpoker.games.papers.nash_shapley.equilibria.equilibria`,
    plus any certified point of another case; ``details["cases"]`` says how
    each case was decided and lists the undecided ones (then a note says the
    list is not proved complete).  The cases run on ``runner``, or on a
    :class:`~exactpoker.parallel.Runner` of ``workers`` local processes
    (default: one per CPU; 1 runs them here).
    """
    ante, bet = parse_positive(a, "a"), parse_positive(b, "b")
    t = ante / bet
    base = equilibria(ante, bet)
    decisions, zeros = decide(t, Runner(workers) if runner is None else runner)
    g = ns.compiled(t.numerator, t.denominator)
    unit = bet / t.denominator
    extra: list[Equilibrium] = []
    for values in zeros:
        eq = _certified(g, values, unit)
        decisions.zeros += 1
        if eq is None:
            decisions.rejected += 1
        elif not any(_same_point(eq, known) for known in [*base.equilibria, *extra]):
            extra.append(eq)  # (an end of a family has a coefficient at 0 or 1: it is also a zero of another case)
    if decisions.undecided:
        note = (f"not proved complete: {len(decisions.undecided)} of {decisions.cases} cases of condition (C) "
                f"are undecided (details['cases']['undecided'])")
    else:
        note = f"complete: every one of the {decisions.cases} cases of condition (C) is decided"
        if decisions.families:
            note += (f"; {len(decisions.families)} of them are regions of free coefficients, given exactly in "
                     f"details['cases']['families'] (their corners and centres are listed)")
    details = {**base.details, "cases": decisions.to_dict()}
    return SolveResult(ns.NAME, base.params, base.method + "; every other case of (C) decided exactly",
                       base.equilibria + tuple(extra), (note,), details)  # the note replaces the base's on completeness
