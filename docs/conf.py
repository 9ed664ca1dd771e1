"""Sphinx configuration of the exactpoker documentation (build: ``sphinx-build -W -b html docs docs/_build``).

The notebooks are copied from ``../notebooks`` into ``_notebooks`` (git-ignored)
and executed by myst-nb, so their figures are rendered; the errata page is
computed from the claims catalog (:mod:`exactpoker.claims`) and the JSON page's
list of keys from the shipped schema (:func:`exactpoker.schema.keys_markdown`) at build time.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))  # the kernels too

project = "exactpoker"
author = "the exactpoker authors"
copyright = "2026, the exactpoker authors"

extensions = ["myst_nb", "sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.viewcode", "sphinxarg.ext"]
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "jupyter_execute", ".jupyter_cache", "_generated/json_keys.md"]  # included by json.md
myst_enable_extensions = ["dollarmath"]
nb_execution_mode = os.environ.get("EXACTPOKER_DOCS_EXECUTE", "cache")
nb_execution_timeout = 300
nb_execution_raise_on_error = True
nb_execution_cache_path = str(HERE / "_build" / ".jupyter_cache")
autodoc_member_order = "bysource"
autodoc_typehints = "none"
napoleon_numpy_docstring = True
html_theme = "alabaster"
suppress_warnings = ["mystnb.unknown_mime_type"]


def _copy_notebooks() -> None:
    target = HERE / "_notebooks"
    target.mkdir(exist_ok=True)
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        destination = target / notebook.name
        if not destination.exists() or destination.read_bytes() != notebook.read_bytes():
            shutil.copyfile(notebook, destination)


def _write_errata() -> None:
    """``_generated/errata.md`` (the errata page): every published claim the exact computation does not confirm."""
    from exactpoker.claims import report

    checks = [item.to_dict() for item in report(None, None)]
    lines = []
    for verdict, heading in (("disagrees", "Claims the exact computation contradicts"),
                             ("rounding", "Decimals rounded or cut off differently from the exact value"),
                             ("approximation", "Values printed as exact that are approximations")):
        chosen = [c for c in checks if c["verdict"] == verdict]
        if not chosen:
            continue
        lines += [f"## {heading} ({len(chosen)})", ""]
        for c in chosen:
            computed = c["computed"] if len(str(c["computed"])) < 120 else str(c["computed"])[:117] + "..."
            lines += [f"- **{c['id']}** (seed {c['paper']}, section {c['section']}): {c['statement']}",
                      f"  - printed `{c['printed']}`; exact `{computed}`", ""]
    counts = {}
    for c in checks:
        counts[c["verdict"]] = counts.get(c["verdict"], 0) + 1
    summary = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
    out = HERE / "_generated"
    out.mkdir(exist_ok=True)
    head = ["# Errata in the papers", "",
            "`exactpoker verify` recomputes every published claim of the seed papers (the catalog in",
            "`exactpoker/claims/data`) and compares it with the printed figure. This page is generated from that",
            "computation when the documentation is built: the exact figures below are computed, not copied.", ""]
    text = "\n".join(head + [f"Of {len(checks)} published claims: {summary}.", ""] + lines)
    path = out / "errata.md"
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def _write_json_keys() -> None:
    """``_generated/json_keys.md`` (included by json.md): every key of the shipped JSON schema, with its meaning."""
    from exactpoker.schema import keys_markdown

    out = HERE / "_generated"
    out.mkdir(exist_ok=True)
    path, text = out / "json_keys.md", keys_markdown()
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


_copy_notebooks()
_write_errata()
_write_json_keys()
