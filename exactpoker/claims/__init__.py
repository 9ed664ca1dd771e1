"""The papers' published claims, and the report that recomputes each one.

The catalog (``data/<paper>.json``, and ``data/<paper>-<part>.json`` for a
paper whose games live in several modules) records what each paper says: section,
game, parameters, the quantity and the printed value.  It is never an input
to a solver.  :func:`report` recomputes each quantity from scratch with the
public API and says how the printed value relates to the exact one (see
:mod:`exactpoker.claims.compare`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Callable, Iterator

from exactpoker.claims.compare import compare
from exactpoker.claims.computers import COMPUTERS
from exactpoker.errors import InvalidParameterError
from exactpoker.results import jsonable

__all__ = ["Claim", "Check", "papers", "catalog", "check", "report"]


@dataclass(frozen=True)
class Claim:
    """One published statement."""

    id: str
    paper: str
    section: str
    kind: str
    params: dict[str, Any]
    quantity: str
    statement: str
    printed: Any
    #: Compare symbolic expressions up to a factor that is positive (and free of the
    #: strategy symbols): the paper gives conditions only up to such a factor.
    up_to_positive_factor: bool = False
    #: Why the printed value is not the exact one, where the paper is known to be wrong (an erratum): a
    #: disagreement with a reason here is the paper's; one without is unexplained (``exactpoker verify``).
    erratum: str | None = None


@dataclass(frozen=True)
class Check:
    """A claim, the exact value recomputed for it, and the verdict."""

    claim: Claim
    computed: Any
    verdict: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.claim.id,
            "paper": self.claim.paper,
            "section": self.claim.section,
            "statement": self.claim.statement,
            "printed": self.claim.printed,
            "computed": jsonable(self.computed),
            "verdict": self.verdict,
            **({"erratum": self.claim.erratum} if self.claim.erratum else {}),
        }


def _data_files() -> dict[str, list]:
    """The catalog files of each paper id, in name order."""
    folder = resources.files("exactpoker.claims") / "data"
    files: dict[str, list] = {}
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if path.name.endswith(".json"):
            files.setdefault(path.name[: -len(".json")].split("-")[0], []).append(path)
    return files


def papers() -> list[str]:
    """The ids of the papers that have claims in the catalog."""
    return sorted(_data_files())


@cache
def catalog(paper: str | None = None) -> tuple[Claim, ...]:
    """The claims of one paper (by id, e.g. ``"000"``), or of all papers."""
    known = papers()
    if paper is not None and paper not in known:
        raise InvalidParameterError(f"paper must be one of {', '.join(known)}; got {paper!r}")
    files = _data_files()
    claims = []
    for pid in [paper] if paper else known:
        for path in files[pid]:
            data = json.loads(path.read_text())
            claims += [Claim(paper=pid, **entry) for entry in data["claims"]]
    return tuple(claims)


def check(claim: Claim, cache_: dict | None = None) -> Check:
    """Recompute one claim and compare."""
    key = (claim.kind, json.dumps(claim.params, sort_keys=True))
    if cache_ is not None and key in cache_:
        values = cache_[key]
    else:
        values = COMPUTERS[claim.kind](claim.params)
        if cache_ is not None:
            cache_[key] = values
    computed = values[claim.quantity]
    return Check(claim, computed, compare(claim.printed, computed, up_to_positive_factor=claim.up_to_positive_factor))


def report(paper: str | None = None, progress: Callable[[int, int], None] | None = None) -> Iterator[Check]:
    """Check every claim of ``paper`` (or of all papers), reusing shared computations."""
    claims = catalog(paper)
    shared: dict = {}
    for index, claim in enumerate(claims):
        yield check(claim, shared)
        if progress is not None:
            progress(index + 1, len(claims))
