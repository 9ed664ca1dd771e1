"""``exactpoker verify [--paper ID]``: recompute the papers' published claims and compare, readably.

Each claim that is not reproduced exactly gets two or three lines: what the
paper printed and the exact value recomputed, with a certified decimal
``≈`` beside every algebraic number (to a few more digits than the paper
printed, so the difference shows) and a long exact expression shortened (in
full under ``--json``); a true/false claim in words; and, for a disagreement,
whether the catalog records it as an erratum of the paper (with its reason) or
it is unexplained.  The summary separates the two: errata of the papers, and
failures of exactpoker (a disagreement the catalog does not explain, or a
claim that could not be computed), which end the run with one line on stderr
and exit status 2.  No line is
longer than :data:`WIDTH` characters.
"""

from __future__ import annotations

import argparse
from typing import Any

from exactpoker import progress
from exactpoker.commands.common import add_json, emit
from exactpoker.lazy import lazy

# imported when a command runs, not when the parser is built
results = lazy("exactpoker.results")

__all__ = ["add_commands", "exact_text", "WIDTH"]

#: The longest text line ``verify`` prints.
WIDTH = 200
#: Exact expressions longer than this are shortened in the text.
_LONGEST = 90
_INDENT = " " * 16


def exact_text(value: Any, printed: Any = None) -> str:
    """The recomputed value for a reader: a number with ``≈`` decimals when irrational (digits enough to compare
    with ``printed``), a long expression shortened, a truth value in words."""
    from exactpoker.display import decimal, is_irrational
    from exactpoker.numbers import exact_str

    if isinstance(value, bool):
        return "holds" if value else "does not hold"
    text = exact_str(value) if isinstance(value, int) else str(value)
    if len(text) > _LONGEST:
        text = f"{text[:_LONGEST - 30]}...{text[-20:]} ({len(text)} characters; in full under --json)"
    if is_irrational(value):
        return f"≈ {decimal(value, _digits(printed))} (= {text})"
    return text


def _digits(printed: Any) -> int:
    """Significant digits to show: three more than the paper printed, at least ten."""
    digits = sum(ch.isdigit() for ch in str(printed).lstrip("-+0.").split("e")[0].split("E")[0])
    return max(10, digits + 3)


def _printed_text(printed: Any) -> str:
    if isinstance(printed, bool):
        return "states that it holds" if printed else "states that it does not hold"
    return f"printed {printed}"


def _lines(check: Any) -> list[str]:
    """One claim's lines: the verdict and statement; then, unless exact, the printed and exact values; then why."""
    data = check.to_dict()
    lines = [f"[{data['verdict']:>13}] {data['id']} (seed {data['paper']}, section {data['section']}): "
             f"{data['statement']}"]
    if check.verdict != "exact":
        lines.append(f"{_INDENT}the paper {_printed_text(check.claim.printed)}; recomputed exactly: "
                     f"{exact_text(check.computed, check.claim.printed)}")
    if check.verdict == "disagrees":
        lines.append(f"{_INDENT}erratum of the paper: {check.claim.erratum}" if check.claim.erratum else
                     f"{_INDENT}NOT EXPLAINED: no erratum recorded for this claim (a failure of exactpoker?)")
    return lines


def _wrapped(lines: list[str]) -> list[str]:
    """Every line at most :data:`WIDTH` characters, a longer one continued under an indent."""
    import textwrap

    return [part for line in lines for part in textwrap.wrap(line, WIDTH, subsequent_indent=_INDENT,
                                                             break_on_hyphens=False, drop_whitespace=True) or [""]]


def _summary(checks: list[Any], counts: dict[str, int], failed: list[str]) -> list[str]:
    """The summary: what the papers got right, their errata, and the failures of exactpoker (one line each)."""
    errata = sum(1 for c in checks if c.verdict == "disagrees" and c.claim.erratum)
    return [f"summary of {len(checks)} claims:",
            f"  {counts.get('exact', 0)} exact",
            f"  {counts.get('rounding', 0)} printed as decimals that the exact values round to",
            f"  {counts.get('approximation', 0)} printed as fractions near the exact values (the best with their "
            "denominators)",
            f"  {errata} errata of the papers (recorded in the catalog, each with its reason)",
            f"  failures of exactpoker: {len(failed)} ({', '.join(failed)})" if failed else
            "  failures of exactpoker: none"]


def _verify(args: argparse.Namespace) -> None:
    from exactpoker.claims import report
    from exactpoker.errors import CertificationError

    checks = list(report(args.paper, progress.counter("checking the claims", "claims")))
    counts: dict[str, int] = {}
    for item in checks:
        counts[item.verdict] = counts.get(item.verdict, 0) + 1
    failed = [c.claim.id for c in checks if c.verdict == "disagrees" and not c.claim.erratum]
    payload = results.shaped({"claims": [c.to_dict() for c in checks], "summary": counts,
                      "errata": sum(1 for c in checks if c.verdict == "disagrees" and c.claim.erratum),
                      "failures": failed}, "claims", {"paper": args.paper})
    lines = [line for item in checks for line in _lines(item)] + _summary(checks, counts, failed)
    emit(args, payload, "\n".join(_wrapped(lines)))
    if failed:
        raise CertificationError(f"verify: {len(failed)} claims disagree with no erratum recorded: "
                                 f"{', '.join(failed)}")


def add_commands(games: argparse._SubParsersAction) -> None:
    """Register ``verify``."""
    verify = games.add_parser("verify", help="recompute the papers' published claims")
    verify.add_argument("--paper", default=None, help="a paper id such as 000 (default: all)")
    add_json(verify)
    verify.set_defaults(run=_verify)
