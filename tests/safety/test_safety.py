"""Safe by default (issue 42): one test per item of its "Why" that the other files do not cover.

Item 1 (the guard on every door) is tests/safety/test_absurd_sizes.py, item 2 (Ctrl-C) tests/safety/test_interrupt.py,
item 6 (verify) tests/claims/test_verify.py; item 9 (a suite that holds under load) is tests/cli/test_cli_fuzz.py's time
limit in a forked child.
"""

import json
import os
import subprocess
import sys

import pytest

from exactpoker import guard, progress
from exactpoker.cli import main
from tests.paths import ROOT


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def one_line(err):
    assert err.count("\n") == 1 and err.startswith("exactpoker"), err
    return err


# -- 3. plots ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ["solve", "library:kuhn", "--over", "bet=1..2", "--plot", "{tmp}/k.png"],
    ["kuhn3", "branch", "--cards", "4", "--pot-min", "1", "--pot-max", "2", "--csv", "{tmp}/b.csv",
     "--plot", "{tmp}/b.png"],
    ["sweep", "vn", "mixed", "--grid", "n=2,3", "--fixed", "b=1", "-o", "{tmp}/s.jsonl", "--workers", "1",
     "--plot", "{tmp}/s.png"],
])
def test_plot_without_matplotlib_is_refused_before_any_work(capsys, monkeypatch, tmp_path, argv):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    status, out, err = run(capsys, *[a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert status == 2 and out == "" and list(tmp_path.iterdir()) == []  # nothing computed, nothing written
    assert "pip install 'exactpoker[plot]'" in one_line(err)


def test_an_existing_file_that_is_not_an_image_is_kept_without_force(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    game = tmp_path / "keep.efg"
    game.write_text("EFG 2 R \"a game\" { \"1\" \"2\" }\n")
    argv = ["solve", "library:kuhn", "--over", "bet=1..2", "--plot", str(game)]
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and "is not an image; it is kept" in one_line(err)
    assert game.read_text().startswith("EFG 2 R")
    status, _, err = run(capsys, *argv, "--force")
    assert status == 0, err
    assert game.read_bytes().startswith(b"\x89PNG")
    assert run(capsys, *argv)[0] == 0  # an image may be replaced by the next figure


def test_the_answer_is_printed_when_the_figure_fails(capsys, monkeypatch, tmp_path):
    pytest.importorskip("matplotlib")
    import exactpoker.over_plot

    def broken(*args, **kwargs):
        raise RuntimeError("no backend")

    monkeypatch.setattr(exactpoker.over_plot, "plot_over", broken)
    status, out, err = run(capsys, "solve", "library:kuhn", "--over", "bet=1/2..2", "--plot", str(tmp_path / "k.png"))
    assert status == 2 and "2 pieces, each certified optimal" in out
    assert "the figure could not be drawn (no backend); the answer above is complete" in one_line(err)


# -- 4. bounded enumerations, named stages -----------------------------------------------------------------------


class Recorder(progress.Reporter):
    """The command line's reporter in a test: every stage started, in order."""

    enabled = False  # (no terminal line to clear before output)

    def __init__(self):
        self.stages = []

    def stage(self, name, total=None, unit=""):
        self.stages.append((name, total, unit))


def test_all_stops_within_its_time_with_its_counts(capsys):
    with guard.time_limit(1.0):
        status, _, err = run(capsys, "solve", "library:ladder(n=8)", "--all")
    assert status == 2
    assert "optimal strategies of P1:" in one_line(err) and "exact LPs of 115 x 82" in err
    assert "more than the 1 s an enumeration may take" in err


def test_all_is_refused_at_once_when_a_low_estimate_says_it_cannot_end():
    budget = guard.WorkBudget("optimal strategies of P1", seconds=60)
    with pytest.raises(guard.ResourceLimitError, match="2187 exact LPs of 2187 x 1562, about .* days"):
        budget.refuse_at_once(2187 * guard.exact_lp_seconds(2187, 1562), "2187 exact LPs of 2187 x 1562")
    budget.refuse_at_once(27 * guard.exact_lp_seconds(27, 20), "27 exact LPs of 27 x 20")  # Kuhn: goes ahead


def test_every_stage_of_all_is_named_with_its_total(capsys, monkeypatch):
    recorder = Recorder()
    monkeypatch.setattr(progress, "TerminalReporter", lambda: recorder)
    assert run(capsys, "solve", "library:kuhn", "--all")[0] == 0
    assert run(capsys, "solve", os.path.join(ROOT, "tests", "data", "bos.nfg"), "--all")[0] == 0
    names = {name: (total, unit) for name, total, unit in recorder.stages}
    assert names["optimal strategies of P1: the face's equalities"] == (27, "exact LPs")
    phase_one = [name for name in names if name.endswith("a first vertex (phase one)")]
    assert phase_one and all(names[n][0] and names[n][1] == "artificial variables" for n in phase_one)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["library:leduc", "library:leduc(suits=false,rake=1/20)"])
def test_leducs_all_is_refused_within_about_a_minute(game):
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    process = subprocess.run([sys.executable, "-m", "exactpoker", "solve", game, "--all"], cwd=ROOT,
                             capture_output=True, text=True, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    message = one_line(process.stderr)  # refused from its sizes before work, or stopped by the time budget
    assert process.returncode == 2 and ("past the budget" in message or "an enumeration may take" in message)
    assert after.ru_utime - before.ru_utime < 90  # the minute of the enumeration and the solve before it


# -- 5. labels everywhere ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("game, player, infoset, actions", [
    ("library:vn", "I", "1:open", {"check", "bet"}),
    ("library:newman(n=3,b=2)", "I", "1:open", {"check", "bet 1", "bet 2"}),
    ("library:three(n=4)", "III", "4:facing bet", {"fold", "call"}),
])
def test_the_structured_paths_label_every_number(capsys, game, player, infoset, actions):
    status, out, _ = run(capsys, "solve", game, "--json")
    equilibrium = json.loads(out)["equilibria"][0]
    assert set(equilibrium["labelled_strategies"][player][infoset]) == actions
    assert list(equilibrium["labelled_strategies"][player][infoset].values()) == \
        equilibrium["strategies"][player][infoset]
    _, text, _ = run(capsys, "solve", game)
    assert f'"{infoset}": {{' in text


def test_over_names_every_action(capsys):
    _, out, _ = run(capsys, "solve", "library:kuhn", "--over", "bet=1/2..2", "--json")
    piece = json.loads(out)["pieces"][0]
    assert piece["labelled_strategies"]["P1"]["J|"] == dict(zip(["c", "b"], piece["strategies"]["P1"]["J|"]))
    _, text, _ = run(capsys, "solve", "library:kuhn", "--over", "bet=1/2..2")
    assert "J|: {c: 2/(bet + 2), b: bet/(bet + 2)}" in text


@pytest.mark.parametrize("argv", [["vn", "mixed", "--n", "3", "--b", "1"], ["simple", "--m", "2"],
                                  ["three", "mixed", "--n", "3", "--b", "2"], ["vn", "pure", "--n", "3", "--b", "1"]])
def test_the_papers_tables_have_a_caption(capsys, argv):
    _, text, _ = run(capsys, *argv)
    _, out, _ = run(capsys, *argv, "--json")
    legend = json.loads(out)["legend"]["strategies"]
    assert legend.startswith("per card") and f"legend: {legend}" in text


# -- 8. the smaller items ----------------------------------------------------------------------------------------


def test_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0 and capsys.readouterr().out.startswith("exactpoker ")


def test_a_full_standard_output_is_one_line():
    with open("/dev/full", "w") as full:
        process = subprocess.run([sys.executable, "-m", "exactpoker", "vn", "mixed", "--n", "3", "--b", "1"],
                                 cwd=ROOT, stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert process.returncode == 2 and "cannot write the output (No space left on device)" in one_line(process.stderr)


@pytest.mark.parametrize("argv, message", [
    (["solve", "library:kuhn(bet=1,bet=2)"], "parameter 'bet' of 'kuhn' is given twice"),
    (["solve", "library:kuhn", "--over", "bet=0..1"], "the interval must lie where bet is allowed: bet must be > 0"),
    (["solve", "library:vn", "--over", "b=-1..1"], "the interval must lie where b is allowed"),
    (["solve", "library:kuhn", "--all", "--over", "bet=1..2"], "--all is not taken with --over"),
    (["solve", "library:kuhn", "--max-memory", "-5G"], "a value that starts with '-' is given as --option=VALUE"),
    (["solve", "library:kuhn", "--max-memory=-5G"], "--max-memory must be a size such as 2G"),
    (["solve", ROOT], "is a directory"),
    (["sweep", "solve", "library:kuhn", "--grid", "foo=1", "-o", "{tmp}/s.jsonl"],
     "its parameters: the game's ante, bet; the command's all"),
])
def test_the_smaller_items_get_one_clear_line(capsys, tmp_path, argv, message):
    try:
        status = main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    except SystemExit as stop:  # argparse's own refusals
        status = stop.code
    err = capsys.readouterr().err
    assert status == 2 and message in one_line(err)


def test_sweep_solve_varies_a_library_games_parameters(capsys, tmp_path):
    out = tmp_path / "s.jsonl"
    status, text, _ = run(capsys, "sweep", "solve", "library:kuhn(ante=2)", "--grid", "bet=1,2", "-o", str(out),
                          "--workers", "1")
    assert status == 0 and "2 run now, 0 failed" in text
    records = [json.loads(line) for line in out.read_text().splitlines()[1:]]
    assert [r["params"] for r in records] == [{"ante": "2", "bet": "1"}, {"ante": "2", "bet": "2"}]
    assert all(r["status"] == "ok" and r["equilibria"][0]["certified"] for r in records)


def test_help_imports_no_solver_and_no_number_library():
    probe = ("import sys\nfrom exactpoker.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in ('numpy', 'sympy', 'scipy', 'flint', 'exactpoker.results', 'exactpoker.solve')"
             " if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"
