"""Every command's --json has the one shape of exactpoker/schema/result.json (issue 18).

The commands come from the walk over the argparse tree (tests/cli_commands.py),
so a new subcommand is validated without editing this file.
"""

from __future__ import annotations

import importlib.util
import json

import pytest

from exactpoker.cli import main
from exactpoker.schema import schema
from tests.cli_commands import command_table, fill, has_json, params

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


def _skip_without(argv):
    """``solve``'s inputs come from modules other work adds; skip a case whose reader is not there."""
    needs = {"library:": "exactpoker.games.library", "--list": "exactpoker.games.library",
             ".efg": "exactpoker.formats.efg"}
    for marker, module in needs.items():
        if any(marker in a for a in argv) and importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not there yet")


@pytest.mark.parametrize("name, argv", params())
def test_every_command_prints_the_schema(name, argv, tmp_path, capsys, validator):
    _skip_without(argv)
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
    for equilibrium in data["equilibria"]:
        assert equilibrium["certified"] and equilibrium["certificate"]["holds"]


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
