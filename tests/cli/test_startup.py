"""Start-up (issue 17): the command line imports sympy and scipy only where they are used."""

import subprocess
import sys
from fractions import Fraction

import sympy

from exactpoker.lazy import is_instance, lazy
from exactpoker.numbers import to_fraction

PROBE = """
import sys
from exactpoker.cli import main
main(["vn", "mixed", "--n", "3", "--b", "1"])
main(["vn", "mixed", "--n", "3", "--b", "1", "--json"])
print(sorted(m for m in ("sympy", "scipy", "matplotlib") if m in sys.modules))
"""


def test_vn_mixed_imports_neither_sympy_nor_scipy():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True).stdout
    assert "[1] values: 1/18, -1/18" in out and '"-1/18"' in out and '"certified": true' in out
    assert out.strip().splitlines()[-1] == "[]"


def test_lazy_module_and_instance_check():
    assert lazy("sympy") is sympy  # already imported: the module itself
    assert lazy("json").dumps([1]) == "[1]"
    assert is_instance(sympy.Rational(1, 2), "sympy", "Rational")
    assert not is_instance(Fraction(1, 2), "sympy", "Rational", "Basic")
    assert not is_instance(1, "a_module_nobody_imported", "Anything")
    assert to_fraction(sympy.Rational(5, 2), "b") == Fraction(5, 2)
