"""Every command's --json has the one shape of exactpoker/schema/result.json (issue 18).

The commands come from the walk over the argparse tree (tests/cli_commands.py),
so a new subcommand is validated without editing this file.
"""

from __future__ import annotations

import json
import re

import pytest

from exactpoker.cli import main
from exactpoker.schema import schema
from tests.cli_commands import command_table, fill, has_json, params
from tests.paths import ROOT

jsonschema = pytest.importorskip("jsonschema")


@pytest.fixture(scope="module")
def validator():
    jsonschema.Draft202012Validator.check_schema(schema())
    return jsonschema.Draft202012Validator(schema())


def _run(capsys, argv):
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 0, f"exactpoker {' '.join(argv)} exited {status}: {err}"
    return out


@pytest.mark.parametrize("name, argv", params())
def test_every_command_prints_the_schema(name, argv, tmp_path, capsys, validator):
    if any(a.endswith(".efg") for a in argv):
        _run(capsys, ["vn", "efg", "--n", "3", "--b", "1", "-o", str(tmp_path / "vn.efg")])
    argv = fill(argv, tmp_path)
    words = name.split()
    if not has_json(name):
        _run(capsys, words + argv)
        return
    data = json.loads(_run(capsys, words + argv + ["--json"]))
    errors = sorted(validator.iter_errors(data), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])
    assert not undocumented(data, schema()), "keys the schema does not document"
    for equilibrium in data["equilibria"]:
        assert equilibrium["certified"] and equilibrium["certificate"]["holds"]


def _resolve(node: dict, root: dict) -> dict:
    while "$ref" in node:
        node = root["$defs"][node["$ref"].rsplit("/", 1)[1]]
    return node


def undocumented(data, node: dict, root: dict | None = None, path: str = "") -> list[str]:
    """Every key of ``data`` that the schema does not list with a description, walked through the shape.

    Where the schema lists ``properties`` and forbids others, each key must be
    one of them and carry a description; a deprecated key must come with the
    key that replaces it (the schema's description names it: "the same as `new`").
    Objects whose keys are data (player names, information sets) are not walked.
    """
    root = root or node
    node = _resolve(node, root)
    missing: list[str] = []
    if isinstance(data, list) and "items" in node:
        for item in data:
            missing += undocumented(item, node["items"], root, path + "[]")
    if not isinstance(data, dict) or node.get("additionalProperties", True) is not False:
        return missing
    for key, value in data.items():
        described = node.get("properties", {}).get(key)
        if described is None or "description" not in _resolve(described, root):
            missing.append(f"{path}.{key}")
            continue
        if described.get("deprecated"):
            new = re.search(r"same as `([^`.]+)", described["description"]).group(1)
            if new not in data:
                missing.append(f"{path}.{key} (deprecated) without {new}")
        missing += undocumented(value, described, root, f"{path}.{key}")
    return missing


def _properties(node, path=""):
    """Every ``(path, property schema)`` of the schema, through its definitions."""
    if isinstance(node, dict):
        for key, value in node.get("properties", {}).items():
            yield f"{path}.{key}", value
        for key, value in node.items():
            if isinstance(value, (dict, list)):
                yield from _properties(value, f"{path}/{key}")
    elif isinstance(node, list):
        for item in node:
            yield from _properties(item, path)


def test_every_key_of_the_schema_is_described_and_snake_case():
    for path, prop in _properties(schema()):
        assert "description" in _resolve(prop, schema()) or prop.get("$ref"), path
        key = path.rsplit(".", 1)[1]
        assert prop.get("deprecated") or re.fullmatch(r"[a-z][a-z0-9_]*", key), f"{path}: not snake_case"


def test_the_walk_finds_an_undocumented_key():
    good = {"game": "g", "params": {}, "equilibria": []}
    assert undocumented(good, schema()) == []
    assert undocumented({**good, "best bet": "2"}, schema()) == [".best bet (deprecated) without best_bet"]
    assert undocumented({**good, "details": {"no such key": 1}}, schema()) == [".details.no such key"]
    eq = {"values": ["1"], "strategies": {"I": ["1"]}, "certified": True, "certificate": {"holds": True, "scope": "x"},
          "surprise": 1}
    assert undocumented({**good, "equilibria": [eq]}, schema()) == [".equilibria[].surprise"]


def test_every_command_has_json():
    """One vocabulary: --json on every command (vn efg included), so any command can be scripted and swept."""
    assert [name for name, _ in command_table() if not has_json(name)] == []


def test_every_command_is_walked():
    names = {name for name, _ in command_table()}
    assert {"vn mixed", "vn continuous", "newman continuous", "three best-bet", "goldman-stone", "nash-shapley",
            "kuhn3", "kuhn3 skp", "kuhn3 branch", "verify", "solve"} <= names


def test_continuous_values_where_finite_ones_are(capsys):
    """equilibria[0]["values"] works for a continuous game as for a finite one (the value 1/9 at b = 2)."""
    data = json.loads(_run(capsys, ["vn", "continuous", "--b", "2", "--json"]))
    assert data["equilibria"][0]["values"] == ["1/9", "-1/9"]
    assert data["equilibria"][0]["strategies"] == {"I": {"A": "1/9", "B": "7/9"}, "II": {"C": "5/9"}}
    assert data["value"] == "1/9" and data["cuts"] == {"A": "1/9", "B": "7/9", "C": "5/9"}  # the old keys stay


def test_the_schema_rejects_a_wrong_shape(validator):
    good = {"game": "g", "params": {}, "equilibria": []}
    assert validator.is_valid(good)
    assert not validator.is_valid({"game": "g", "params": {}})
    assert not validator.is_valid({**good, "equilibria": [{"values": ["1"], "strategies": {"I": []},
                                                           "certified": True}]})


def test_the_json_page_lists_every_key_of_the_schema():
    """docs/json.md includes the list docs/conf.py generates from the schema; that list names every key."""
    from exactpoker.schema import keys_markdown

    text = keys_markdown()
    for path, prop in _properties(schema()):
        key = path.rsplit(".", 1)[1]
        assert re.search(rf"\| `([\w ./*\[\]-]+\.)?{re.escape(key)}` \|", text), f"{path} is not on the JSON page"
        if prop.get("deprecated"):
            assert f"| `{key}` |" not in text or "**deprecated**" in text.split(f"`{key}` |", 1)[1].split("\n")[0]
    docs = ROOT / "docs"
    assert "{include} _generated/json_keys.md" in (docs / "json.md").read_text()
    assert "keys_markdown()" in (docs / "conf.py").read_text() and "json_keys.md" in (docs / "conf.py").read_text()
