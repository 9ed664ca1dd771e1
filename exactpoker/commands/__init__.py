"""Command-line subcommands, one module per game; each module has ``add_commands(subparsers)``.

Every module of this package except :mod:`~exactpoker.commands.common` and
the private helpers (``_name``, e.g. :mod:`~exactpoker.commands._over`, the
``solve --over`` branch) is a game's command module; :data:`COMMAND_MODULES` lists them in a fixed order
(the order of the papers' games, then any others alphabetically), so adding a
game's commands never means editing a shared list.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

__all__ = ["COMMAND_MODULES"]

_FIRST = ["von_neumann", "newman", "simple", "goldman_stone", "three_player", "nash_shapley", "kuhn3"]


def _discover() -> list[ModuleType]:
    # the folder's files, not pkgutil.iter_modules: that imports inspect, a twentieth of a small solve's start-up
    files = [name for folder in __path__ for name in os.listdir(folder) if name.endswith(".py")]
    names = [f[:-3] for f in files if f != "common.py" and not f.startswith("_")]
    ordered = [n for n in _FIRST if n in names] + sorted(n for n in names if n not in _FIRST)
    return [importlib.import_module(f"{__name__}.{name}") for name in ordered]


COMMAND_MODULES = _discover()
