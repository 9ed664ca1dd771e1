"""Heavy modules imported on first use, so the command line starts fast (issue 17).

``sympy`` and ``scipy`` take about half a second to import; most commands never
touch them.  ``lazy("sympy")`` stands in for the module and imports it at the
first attribute access.  :func:`is_instance` asks whether a value is of one of
a lazy module's types without importing it: nothing can be an instance of a
class of a module that has not been imported yet.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import Any

__all__ = ["lazy", "is_instance"]


class _LazyModule:
    """A placeholder for module ``name`` that imports it on first attribute access."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attribute: str) -> Any:
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return getattr(self._module, attribute)

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}>"


def lazy(name: str) -> Any:
    """The module ``name`` if already imported, else a stand-in that imports it when first used."""
    return sys.modules.get(name) or _LazyModule(name)


def is_instance(value: object, module: str, *classes: str) -> bool:
    """``isinstance(value, module.C)`` for one of ``classes``, without importing ``module``."""
    loaded = sys.modules.get(module)
    return loaded is not None and isinstance(value, tuple(getattr(loaded, c) for c in classes))
