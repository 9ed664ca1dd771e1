"""``exactpoker verify`` readable (issue 42, item 6): decimals beside algebraic numbers, long expressions shortened
(in full under --json), true/false in words, and a summary that tells the papers' errata from failures of ours."""

import json
from dataclasses import replace

import pytest
import sympy

import exactpoker.claims as claims_module
from exactpoker.cli import main
from exactpoker.commands.verify import WIDTH, exact_text


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_an_algebraic_value_gets_decimals_and_a_long_one_is_shortened():
    root = sympy.CRootOf(sympy.Symbol("x") ** 5 - 3 * sympy.Symbol("x") - 1, 2)
    text = exact_text(root, "1.38")
    assert text.startswith("≈ 1.388791") and "CRootOf(" in text  # three more digits than printed, at least ten
    huge = sum(root**k * (k + 12345) for k in range(1, 6))
    shortened = exact_text(huge, "1.5")
    assert "characters; in full under --json" in shortened and len(shortened) < 200
    assert shortened.startswith("≈ ")
    assert exact_text(True) == "holds" and exact_text(False) == "does not hold"
    assert exact_text(sympy.Rational(2, 21)) == "2/21"


def test_verify_text_and_json_on_the_euler_notes(capsys):
    status, out, _ = run(capsys, "verify", "--paper", "004")
    assert status == 0
    lines = out.splitlines()
    assert max(map(len, lines)) <= WIDTH
    assert "printed True" not in out and "exact False" not in out
    assert "the paper states that it holds; recomputed exactly: does not hold" in out
    assert out.count("erratum of the paper: ") == 2
    summary = lines[lines.index(next(l for l in lines if l.startswith("summary of"))):]
    assert "  2 errata of the papers (recorded in the catalog, each with its reason)" in summary
    assert summary[-1] == "  failures of exactpoker: none"
    status, out, _ = run(capsys, "verify", "--paper", "004", "--json")
    data = json.loads(out)
    assert data["errata"] == 2 and data["failures"] == [] and data["summary"]["disagrees"] == 2
    wrong = [c for c in data["claims"] if c["verdict"] == "disagrees"]
    assert all(c["erratum"] for c in wrong) and not any("erratum" in c for c in data["claims"] if c not in wrong)


def test_a_disagreement_with_no_erratum_recorded_is_a_failure_of_ours(capsys, monkeypatch):
    original = claims_module.catalog

    def without_errata(paper=None):
        return tuple(replace(c, erratum=None) for c in original(paper))

    monkeypatch.setattr(claims_module, "catalog", without_errata)
    status, out, err = run(capsys, "verify", "--paper", "004")
    assert status == 2 and "NOT EXPLAINED" in out
    assert out.splitlines()[-1].startswith("  failures of exactpoker: 2 (")
    assert err.count("\n") == 1 and "2 claims disagree with no erratum recorded" in err


@pytest.mark.slow
def test_every_line_of_the_whole_verify_is_readable(capsys):
    """Every paper: no line over 200 characters, every algebraic number with decimals, no failure of ours."""
    status, out, _ = run(capsys, "verify")
    assert status == 0 and max(map(len, out.splitlines())) <= WIDTH
    for line in out.splitlines():
        if "recomputed exactly:" in line and ("CRootOf" in line or "sqrt" in line):
            assert "recomputed exactly: ≈ " in line, line
    assert out.splitlines()[-1] == "  failures of exactpoker: none"
