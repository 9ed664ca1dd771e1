"""The engine's names of its sequence-form LP paths, in the words the papers' commands have always printed.

The ``method`` of a paper command's result is part of its public JSON; the
engine names its paths its own way (``"sequence-form LP (support, exact)"``),
and the papers' modules say them as before (``"card-by-card LP (float-guided,
exact finish)"`` for von Neumann poker).
"""

from __future__ import annotations

__all__ = ["lp_words"]


def lp_words(lp: str) -> dict[str, str]:
    """The engine's LP paths named as the paper names ``lp`` (``"card-by-card LP"``, ``"sequence-form LP"``)."""
    return {"sequence-form LP (support, exact)": f"{lp} (float-guided, exact finish)",
            "sequence-form LP (basis, exact)": f"{lp} (float-guided basis, exact finish)",
            "sequence-form LP (simplex, exact)": f"{lp} (exact simplex)"}
