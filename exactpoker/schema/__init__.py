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

__all__ = ["schema", "keys_markdown"]


@cache
def _text() -> str:
    return files(__name__).joinpath("result.json").read_text(encoding="utf-8")


def schema() -> dict[str, Any]:
    """The schema of :meth:`exactpoker.results.SolveResult.to_dict` and of every ``--json`` output (a fresh copy)."""
    return json.loads(_text())


#: The objects whose keys the documentation lists, in page order: (heading, where in the schema).
_SECTIONS = (("Top level", ()), ("Each of `equilibria`", ("$defs", "equilibrium")),
             ("`certificate` (of an equilibrium)", ("$defs", "certificate")),
             ("`details`", ("$defs", "details")), ("Each of `claims` (verify)", ("$defs", "claim")),
             ("Each of `coalitions` (nash-shapley coalitions)", ("$defs", "coalition")),
             ("An exact real number (`solve --over`: breakpoints, maximum)", ("$defs", "exact_real")),
             ("Each of `profiles` (certify)", ("$defs", "profile_check")),
             ("A cut point (`solve --continuous`: `continuous.cut_points`)", ("$defs", "cut_point")))


def _type(prop: dict[str, Any]) -> str:
    if "$ref" in prop:
        return prop["$ref"].rsplit("/", 1)[1]
    kind = prop.get("type") or [shape.get("type", "any") for shape in prop.get("anyOf", [])] or "any"
    return " or ".join(kind) if isinstance(kind, list) else kind


def _rows(properties: dict[str, Any], definitions: dict[str, Any], prefix: str = "") -> list[str]:
    rows = []
    for key, prop in properties.items():
        note = "**deprecated**: " if prop.get("deprecated") else ""
        described = definitions[prop["$ref"].rsplit("/", 1)[1]] if "$ref" in prop else prop
        description = described.get("description", "").replace("|", "\\|")
        rows.append(f"| `{prefix}{key}` | {_type(prop)} | {note}{description} |")
        for shape in [prop] + prop.get("anyOf", []):  # a key of several shapes lists the keys of each
            rows += _rows(shape.get("properties", {}), definitions, f"{prefix}{key}.")
            items = shape.get("items", {})
            if "properties" in items:
                rows += _rows(items["properties"], definitions, f"{prefix}{key}[].")
    return rows


def keys_markdown() -> str:
    """Every key of the schema as Markdown tables, one per object (the JSON page's key list).

    Generated from ``result.json`` when the documentation is built
    (``docs/conf.py`` writes it to ``docs/_generated/json_keys.md``), so the
    page cannot fall behind the schema.
    """
    data = schema()
    lines: list[str] = []
    for heading, where in _SECTIONS:
        node = data
        for step in where:
            node = node[step]
        lines += [f"### {heading}", "", node.get("description", ""), "", "| key | type | meaning |", "|---|---|---|"]
        lines += _rows(node["properties"], data["$defs"]) + [""]
    return "\n".join(lines)
