"""The catalog of published claims and the verify report."""

from fractions import Fraction

import pytest
import sympy

from exactpoker.claims import catalog, papers, report
from exactpoker.claims.compare import compare
from exactpoker.claims.computers import COMPUTERS


def test_compare_verdicts():
    assert compare("2/21", Fraction(2, 21)) == "exact"
    assert compare("0.110769", Fraction(36, 325)) == "rounding"
    assert compare("0.1105072464", Fraction(61, 552)) == "rounding"
    assert compare("0.12", Fraction(36, 325)) == "disagrees"
    assert compare("974/8121", Fraction(974, 8121) + Fraction(1, 10**9)) == "approximation"
    assert compare("1/7", Fraction(1, 6)) == "disagrees"
    assert compare(3, 3) == "exact" and compare(3, 4) == "disagrees"
    assert compare([[1, 2]], [[1, 2]]) == "exact"
    b = sympy.Symbol("b", positive=True)
    assert compare("b/((b+4)*(b+1))", b / (b**2 + 5 * b + 4)) == "exact"
    assert compare("0.7071", sympy.sqrt(2) / 2) == "rounding"
    assert compare("0.7058", sympy.sqrt(2) / 2) == "disagrees"


def test_compare_up_to_a_positive_factor():
    """Conditions printed up to a positive factor in the game's parameters (seed 003, eq. (13))."""
    P, x, y = sympy.symbols("P x y", positive=True)
    computed = 2 * (P + 1) * x - 4 * y
    assert compare("(P+1)*x - 2*y", computed, up_to_positive_factor=True) == "exact"
    assert compare("(P+1)*x - 2*y", computed) == "disagrees"
    for wrong in ("2*y - (P+1)*x", "(P-2)*((P+1)*x - 2*y)", "x*((P+1)*x - 2*y)", "(P+1)*x - y"):
        assert compare(wrong, computed, up_to_positive_factor=True) == "disagrees", wrong


def test_catalog_is_well_formed():
    assert "000" in papers()
    ids = [c.id for c in catalog()]
    assert len(ids) == len(set(ids))
    for claim in catalog("000"):
        assert claim.section and claim.statement and claim.kind in COMPUTERS


# Seed 000 section 4 (three-player poker): the paper's numbers came from Maple floats.
SECTION_4_VERDICTS = {
    "000-s4-fast-65-2-value": "approximation",  # 974/8121 ~ 402733/3357900
    "000-s4-optimal-2-A": "disagrees",  # 15th decimal
    "000-s4-optimal-2-B": "rounding",
    "000-s4-optimal-2-C": "disagrees",
    "000-s4-optimal-2-value": "disagrees",
    "000-s4-best-bet": "rounding",  # 2.07
    "000-s4-best-bet-value": "disagrees",  # the value at b = 2.07, not at b*
    "000-s4-best-bet-value-207": "disagrees",  # ... and even there the last digits are off
}


@pytest.mark.slow
def test_every_claim_of_seed_000_reproduces():
    """Seed 000: sections 1-3 print exact values or roundings of them; section 4's verdicts are known."""
    checks = list(report("000"))
    assert len(checks) == len(catalog("000"))
    for check in checks:
        printed = str(check.claim.printed)
        if check.claim.id.startswith("000-s4"):
            expected = SECTION_4_VERDICTS.get(check.claim.id, "exact")
        else:
            expected = "rounding" if printed.startswith("0.") and len(printed) > 4 else "exact"
        assert check.verdict == expected, (check.claim.id, check.computed)


