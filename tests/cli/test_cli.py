"""The command line: output shapes (a public interface) and clean errors."""

import json
import re
import subprocess
import sys
import tomllib

import pytest

from exactpoker.cli import main
from tests.paths import ROOT


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_vn_mixed_json_shape(capsys):
    status, out, _ = run(capsys, "vn", "mixed", "--n", "3", "--b", "1", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["game"] == "von-neumann"
    assert data["params"] == {"n": "3", "b": "1"}
    [eq] = data["equilibria"]
    certificate = eq.pop("certificate")
    assert eq == {"values": ["1/18", "-1/18"], "strategies": {"I": ["1/3", "0", "1"], "II": ["0", "1/3", "1"]},
                  "certified": True}
    assert certificate["holds"] and certificate["scope"] == "all strategies"
    assert [(c["player"], c["payoff"], c["regret"]) for c in certificate["players"]] == [
        ("I", "1/18", "0"), ("II", "-1/18", "0")]


def test_vn_pure_json_lists_all(capsys):
    status, out, _ = run(capsys, "vn", "pure", "--n", "7", "--b", "2", "--json")
    data = json.loads(out)
    assert status == 0 and len(data["equilibria"]) == 3
    assert {tuple(e["values"]) for e in data["equilibria"]} == {("2/21", "-2/21")}
    assert all(e["certified"] for e in data["equilibria"])


def test_vn_pure_restricted(capsys):
    status, out, _ = run(capsys, "vn", "pure", "--n", "22", "--b", "2", "--restricted", "--json")
    data = json.loads(out)
    assert status == 0
    assert data["equilibria"][-1]["values"][0] == "17/154"


def test_vn_mixed_text_and_advice(capsys):
    status, out, _ = run(capsys, "vn", "mixed", "--n", "28", "--b", "4", "--advice")
    assert status == 0 and "113/1134" in out and "call with probability 1/3" in out


def test_vn_mixed_rational_bet(capsys):
    status, out, _ = run(capsys, "vn", "mixed", "--n", "5", "--b", "5/2", "--json")
    assert status == 0 and json.loads(out)["params"]["b"] == "5/2"


def test_vn_continuous(capsys):
    status, out, _ = run(capsys, "vn", "continuous", "--b", "2", "--json")
    data = json.loads(out)
    assert status == 0 and data["value"] == "1/9"


def test_vn_efg(capsys, tmp_path):
    path = tmp_path / "vn.efg"
    status, _, _ = run(capsys, "vn", "efg", "--n", "3", "--b", "1", "-o", str(path))
    assert status == 0 and path.read_text().startswith("EFG 2 R")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["vn", "mixed", "--n", "1", "--b", "2"], "--n must be an integer >= 2"),
        (["vn", "mixed", "--n", "5", "--b", "0"], "--b must be > 0"),
        (["vn", "mixed", "--n", "five", "--b", "2"], "--n must be an integer >= 2; got 'five'"),
        (["vn", "mixed", "--n", "5", "--b", "five"], "--b must be a rational"),
        (["vn", "pure", "--n", "40", "--b", "2"], "exactpoker vn mixed"),
        (["vn", "mixed", "--n", "100000", "--b", "2", "--method", "simplex"], "vn mixed --n 100000 would need about"),
        (["three", "mixed", "--n", "100000", "--b", "2", "--method", "generic"], "the limit is"),
        (["vn", "mixed", "--n", "3000", "--b", "2", "--method", "simplex", "--max-memory", "500M"],
         "the limit is 500.0 MB (--max-memory)"),
        (["vn", "mixed", "--n", "1" + "0" * 400, "--b", "2"], "--n must be an integer >= 2 and <= 10^12; got 100000...(401 digits)"),
        (["vn", "mixed", "--n", "3", "--b", "2", "--max-memory", "lots"], "--max-memory must be a size"),
        (["vn", "efg", "--n", "3", "--b", "1", "-o", "/nonexistent/x.efg"], "--output: cannot write /nonexistent/x.efg"),
        (["kuhn3", "branch", "--cards", "4", "--pot-min", "2", "--pot-max", "3", "--csv", "/"], "--csv: / is a directory"),
        (["vn", "mixed", "--n", "10", "--b", "2", "--method", "slow"], "use --method fast or structured"),
        (["simple", "--m", "30", "--bet", "2"], "use the threshold game (--threshold/threshold)"),
        (["newman", "mixed", "--n", "40", "--b", "12", "--method", "paper"],
         "(--method paper or per-card) has n x 2^b = 163840 constraints (at most 600); use --method sequence or structured"),
        (["vn", "pure", "--n", "30", "--b", "2"], "n must be an integer >= 2 and <= 24"),
        (["verify", "--paper", "999"], "paper must be one of"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not re.search(r"\w+=(['\"]|True|False|None)", err), "a keyword argument in Python syntax, not command-line words"


def test_console_script_entry_point():
    proc = subprocess.run([sys.executable, "-m", "exactpoker", "vn", "mixed", "--n", "3", "--b", "0"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.startswith("exactpoker: error: --b must be > 0")


def test_no_equilibrium_call_in_messages(capsys):
    status, _, err = run(capsys, "vn", "pure", "--n", "40", "--b", "2")
    assert status == 2 and "()" not in err


def test_ctrl_c_is_one_line_and_130(capsys, monkeypatch):
    from exactpoker.games.papers import von_neumann

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(von_neumann, "equilibrium", interrupted)
    status, out, err = run(capsys, "vn", "mixed", "--n", "3", "--b", "1")
    assert (status, out, err) == (130, "", "exactpoker: interrupted\n")


# -- wording (issue 29) ----------------------------------------------------------------------------


def test_a_file_game_is_named_by_its_title_and_file(capsys, tmp_path):
    path = tmp_path / "bluff.efg"
    assert run(capsys, "vn", "efg", "--n", "3", "--b", "1", "-o", str(path))[0] == 0
    path.write_text(path.read_text().replace('"von-neumann(n=3, b=1)"', '"fold"', 1))
    status, out, _ = run(capsys, "solve", str(path), "--family")
    head = out.splitlines()[0]
    assert status == 0 and head.startswith(f"fold (read from {path}) by ") and "file=" not in out
    # each player's optimal strategy is unique here: one vertex, in the singular
    assert out.count("unique, the convex hull in realization plans of 1 vertex:") == 2 and "1 vertices" not in out
    status, out, _ = run(capsys, "solve", str(path), "--json")
    assert json.loads(out)["params"] == {"file": str(path)}  # the JSON key stays


def test_a_segment_with_one_value_says_where_it_stays(capsys):
    """FastMNE(4, 1): I's bluff on card 1 or 2, a segment of equilibria all worth 1/24 to Player I."""
    status, out, _ = run(capsys, "three", "mixed", "--n", "4", "--b", "1")
    assert status == 0 and "Player I's value stays at 1/24." in out and "runs from" not in out


# -- the README's first lines (issue 29) -----------------------------------------------------------


def test_the_readme_opens_with_the_two_commands_ci_runs():
    """Line 1 installs the package alone and runs the main job; line 2 the test extras and the tests."""
    root = ROOT
    block = (root / "README.md").read_text(encoding="utf-8").split("```bash\n", 1)[1].split("```", 1)[0]
    readme = [line.split(" #", 1)[0].strip() for line in block.splitlines() if line.strip()]
    ci = [line for line in (root / ".ci" / "run").read_text(encoding="utf-8").splitlines()
          if line and not line.startswith(("#", "set ", "cd ", "python", "."))]
    assert readme == ci == ["pip install -e . && exactpoker vn mixed --n 28 --b 4",
                            'pip install -e ".[test]" && python -m pytest']
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    checks = ("pygambit", "open-spiel")  # the independent checks: in the test extra, never needed to run
    assert not any(d.startswith(checks) for d in project["dependencies"])
    assert all(any(d.startswith(c) for d in project["optional-dependencies"]["test"]) for c in checks)
