"""The documentation site builds with warnings as errors (Sphinx, myst-nb, sphinx-argparse)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_docs_build_without_warnings(tmp_path):
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_nb")
    pytest.importorskip("sphinxarg")
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                           str(ROOT / "docs"), str(tmp_path / "html")], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-4000:]
    for page in ["index", "cli", "json", "_generated/errata", "api", "games/von_neumann", "_notebooks/von_neumann"]:
        assert (tmp_path / "html" / f"{page}.html").exists(), page
    assert "disagrees" in (tmp_path / "html" / "_generated" / "errata.html").read_text()
    assert "--max-memory" in (tmp_path / "html" / "cli.html").read_text()
    json_page = (tmp_path / "html" / "json.html").read_text()
    assert "labelled_strategies" in json_page and "minimal_polynomial_of_c" in json_page  # the generated key list
