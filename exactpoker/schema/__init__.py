"""The JSON Schema of every command's ``--json`` output (a public interface).

>>> schema()["required"]
['game', 'params', 'equilibria']

Validate an output with the ``jsonschema`` package::

    import jsonschema
    from exactpoker.schema import schema
    jsonschema.validate(data, schema())
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

__all__ = ["schema"]


@cache
def _text() -> str:
    return files(__name__).joinpath("result.json").read_text(encoding="utf-8")


def schema() -> dict[str, Any]:
    """The schema of :meth:`exactpoker.results.SolveResult.to_dict` and of every ``--json`` output (a fresh copy)."""
    return json.loads(_text())
