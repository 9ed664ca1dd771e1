"""Sweeps on Dask: grids, records, resume, faults (a worker or the client killed), plots, the shared runner."""

import io
import json
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactpoker.cli import build_parser, main
from exactpoker.errors import InvalidParameterError
from exactpoker.parallel import Runner
from exactpoker.sweep import plan, run_sweep
from exactpoker.sweep.task import CommandLine
from exactpoker.sweep.grid import parse_values, points
from tests.paths import ROOT
from tests.processes import ctrl_c_as_a_terminal

pytest.importorskip("dask.distributed")


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def records(path):
    """The records of a sweep's output (header dropped), without the timings, keyed by point."""
    with open(path, encoding="utf-8") as handle:
        lines = [json.loads(line) for line in handle if line.strip()]
    assert "sweep" in lines[0]
    found = {}
    for record in lines[1:]:
        key = json.dumps(record["point"], sort_keys=True)
        assert key not in found, f"point {key} recorded twice"
        found[key] = {k: v for k, v in record.items() if k != "seconds"}
    return found


def sweep_process(*argv):
    return subprocess.Popen([sys.executable, "-m", "exactpoker", "sweep", *argv], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


# -- the grid ------------------------------------------------------------------------------------


@given(st.integers(-50, 50), st.integers(0, 60), st.integers(1, 7))
def test_a_range_has_every_step_and_nothing_past_its_end(start, length, step):
    values = parse_values("n", f"{start}..{start + length}..{step}")
    assert [int(v) for v in values] == list(range(start, start + length + 1, step))


@given(st.lists(st.fractions(min_value=-5, max_value=5), min_size=1, max_size=6, unique=True))
def test_a_list_keeps_its_values_exactly(values):
    assert [Fraction(v) for v in parse_values("b", ",".join(str(v) for v in values))] == values


def test_rational_ranges_and_products():
    assert parse_values("b", "1..2..1/4") == ["1", "5/4", "3/2", "7/4", "2"]
    grid = points({"n": ["2", "3"], "b": ["1", "5/2"]})
    assert grid == [{"n": "2", "b": "1"}, {"n": "2", "b": "5/2"}, {"n": "3", "b": "1"}, {"n": "3", "b": "5/2"}]


@pytest.mark.parametrize("spec, message", [
    ("", "no values"), ("5..2", "the range is empty"), ("1..x", "not a number"), ("1..2..0", "step must be positive"),
    ("1,,2", "an empty value"), ("1,1", "given twice"), ("1..2..3..4", "a range is a..b"),
])
def test_bad_values_are_refused(spec, message):
    with pytest.raises(InvalidParameterError, match=message):
        parse_values("n", spec)


# -- records, failures, resume ---------------------------------------------------------------------


def test_every_point_is_the_single_commands_record(tmp_path, capsys):
    out = tmp_path / "vn.jsonl"
    status, text, _ = run(capsys, "sweep", "vn", "mixed", "--grid", "n=2..5", "--grid", "b=1,5/2", "-o", str(out),
                          "--workers", "1", "--json")
    assert status == 0 and json.loads(text)["ran"] == 8
    found = records(out)
    assert len(found) == 8
    for key, record in found.items():
        point = json.loads(key)
        status, single_out, _ = run(capsys, "vn", "mixed", "--n", point["n"], "--b", point["b"], "--json")
        assert {k: v for k, v in record.items() if k not in ("point", "status")} == json.loads(single_out)
        assert record["status"] == "ok"


def test_a_failing_point_and_a_timeout_are_recorded_and_the_sweep_goes_on(tmp_path, capsys):
    out = tmp_path / "f.jsonl"
    status, text, _ = run(capsys, "sweep", "vn", "pure", "--grid", "n=1,3,22", "--fixed", "b=2", "-o", str(out),
                          "--workers", "1", "--timeout", "1", "--json")
    assert status == 0
    report = json.loads(text)
    assert report["ran"] == 3 and len(report["failed"]) == 2
    found = {json.loads(k)["n"]: r for k, r in records(out).items()}
    assert found["3"]["status"] == "ok" and found["3"]["equilibria"]
    assert found["1"]["status"] == "error" and "n must be an integer >= 2" in found["1"]["error"]
    assert found["22"]["status"] == "timeout"


def test_resume_after_a_crash_mid_line_gives_the_uninterrupted_records(tmp_path, capsys):
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    argv = ["sweep", "newman", "mixed", "--grid", "n=3..6", "--grid", "b=1,2", "--workers", "1"]
    assert run(capsys, *argv, "-o", str(whole))[0] == 0
    lines = whole.read_text().splitlines(keepends=True)
    cut.write_text("".join(lines[:4]) + lines[4][: len(lines[4]) // 2])  # three records and half of one
    status, text, _ = run(capsys, *argv, "-o", str(cut), "--json")
    assert status == 0 and json.loads(text)["skipped"] == 3 and json.loads(text)["ran"] == 5
    assert records(cut) == records(whole)
    # and once more: nothing left to do, nothing written twice
    assert run(capsys, *argv, "-o", str(cut), "--json")[0] == 0
    assert records(cut) == records(whole)


def test_another_sweeps_file_is_refused_and_left_untouched(tmp_path, capsys):
    out = tmp_path / "s.jsonl"
    assert run(capsys, "sweep", "vn", "mixed", "--grid", "n=2,3", "--fixed", "b=1", "-o", str(out), "--workers", "1")[0] == 0
    before = out.read_bytes()
    status, _, err = run(capsys, "sweep", "vn", "mixed", "--grid", "n=2,4", "--fixed", "b=1", "-o", str(out))
    assert status == 2 and "belongs to a different sweep" in err and err.count("\n") == 1
    assert out.read_bytes() == before
    other = tmp_path / "notes.txt"
    other.write_text("my notes\n")
    status, _, err = run(capsys, "sweep", "vn", "mixed", "--grid", "n=2,4", "--fixed", "b=1", "-o", str(other))
    assert status == 2 and "not a sweep's output" in err and other.read_text() == "my notes\n"


@pytest.mark.parametrize("argv, message", [
    (["nosuch"], "'nosuch' is not a command of exactpoker"),
    (["vn"], "needs one more word"),
    (["vn", "mixed", "--grid", "q=1..3"], "has no parameter --q"),
    (["vn", "mixed", "--grid", "n=3..2"], "the range is empty"),
    (["vn", "mixed", "--grid", "n"], "must look like name=values"),
    (["vn", "mixed"], "give at least one --grid"),
    (["vn", "mixed", "--grid", "n=2", "--fixed", "n=3"], "given twice"),
    (["vn", "mixed", "--grid", "n=2", "--workers", "0"], "--workers must be an integer >= 1"),
    (["vn", "mixed", "--grid", "n=2", "--timeout", "-1"], "--timeout must be > 0"),
    (["vn", "mixed", "--grid", "n=2", "--plot", "x.png", "--plot-x", "b"], "--plot-x b: not a --grid parameter"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, argv, message):
    status, _, err = run(capsys, "sweep", *argv, "-o", str(tmp_path / "x.jsonl"))
    assert status == 2 and message in err and err.count("\n") == 1
    assert not (tmp_path / "x.jsonl").exists()


def test_an_unwritable_output_is_refused(capsys):
    status, _, err = run(capsys, "sweep", "vn", "mixed", "--grid", "n=2", "-o", "/nonexistent/dir/x.jsonl")
    assert status == 2 and "/nonexistent/dir/x.jsonl" in err and err.count("\n") == 1


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_line(tmp_path, capsys):
    status, _, err = run(capsys, "sweep", "vn", "mixed", "--grid", "n=2", "--fixed", "b=1", "-o",
                         str(tmp_path / "x.jsonl"), "--scheduler", "tcp://127.0.0.1:9")
    assert status == 2 and "cannot reach a Dask scheduler" in err and err.count("\n") == 1


# -- on a local Dask cluster, and faults ----------------------------------------------------------


def test_a_local_dask_cluster_gives_the_same_records_as_this_process(tmp_path, capsys):
    here, dask = tmp_path / "here.jsonl", tmp_path / "dask.jsonl"
    argv = ["sweep", "vn", "mixed", "--grid", "n=2..9", "--grid", "b=1,2"]
    assert run(capsys, *argv, "-o", str(here), "--workers", "1")[0] == 0
    assert run(capsys, *argv, "-o", str(dask), "--workers", "2")[0] == 0
    assert records(dask) == records(here)


def _children(pid):
    done = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(p) for p in done.stdout.split()]


def _wait_for_records(path, count, process, limit=120.0):
    start = time.monotonic()
    while time.monotonic() - start < limit:
        if process.poll() is not None:
            raise AssertionError(f"the sweep ended early: {process.communicate()}")
        if path.exists() and len(path.read_text().splitlines()) > count:
            return
        time.sleep(0.05)
    raise AssertionError("no records came")


GRID = ["vn", "mixed", "--grid", "n=150..185", "--grid", "b=1,2"]


@pytest.mark.slow
def test_a_worker_killed_mid_sweep_the_sweep_still_completes_every_point_once(tmp_path):
    out = tmp_path / "w.jsonl"
    process = sweep_process(*GRID, "-o", str(out), "--workers", "2")
    _wait_for_records(out, 3, process)
    workers = [p for p in _children(process.pid)
               if "multiprocessing" in open(f"/proc/{p}/cmdline").read().replace("\0", " ")]
    assert workers, "no worker process found"
    os.kill(workers[0], signal.SIGKILL)
    stdout, stderr = process.communicate(timeout=600)
    assert process.returncode == 0, stderr
    found = records(out)
    assert len(found) == 72 and all(r["status"] == "ok" for r in found.values())


@pytest.mark.slow
def test_the_client_killed_and_rerun_resumes_with_the_same_records(tmp_path, capsys):
    killed, whole = tmp_path / "k.jsonl", tmp_path / "whole.jsonl"
    process = sweep_process(*GRID, "-o", str(killed), "--workers", "2")
    _wait_for_records(killed, 5, process)
    os.killpg(os.getpgid(process.pid), 0)  # still there
    process.kill()
    process.wait()
    for child in _children(process.pid):  # pragma: no cover - workers normally go with their parent
        os.kill(child, signal.SIGKILL)
    partial = len(records(killed))
    assert 0 < partial < 72
    rerun = sweep_process(*GRID, "-o", str(killed), "--workers", "2", "--json")
    stdout, stderr = rerun.communicate(timeout=600)
    assert rerun.returncode == 0, stderr
    assert json.loads(stdout)["skipped"] == partial
    assert run(capsys, "sweep", *GRID, "-o", str(whole), "--workers", "1")[0] == 0
    assert records(killed) == records(whole)


# -- the plot, the progress bar, the shared runner ----------------------------------------------


def test_the_plot_is_drawn(tmp_path, capsys):
    png = tmp_path / "vn.png"
    status, text, _ = run(capsys, "sweep", "vn", "mixed", "--grid", "n=2..8", "--grid", "b=1,2", "-o",
                          str(tmp_path / "p.jsonl"), "--workers", "1", "--plot", str(png))
    assert status == 0 and f"plot: {png}" in text
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_plot_series_and_the_continuous_limit():
    from exactpoker.sweep.plot import _continuous_limit, series

    found = [{"point": {"n": n, "b": "1"}, "status": "ok", "equilibria": [{"values": [v, "0"]}]}
             for n, v in (("3", "1/18"), ("2", "0"))]
    found.append({"point": {"n": "4", "b": "1"}, "status": "timeout", "error": "stopped"})
    assert series(found, "n") == {(("b", "1"),): [(2.0, 0.0), (3.0, 1 / 18)]}
    assert _continuous_limit(["vn", "mixed"], "n", {"b": "1"}) == pytest.approx(1 / 10)
    assert _continuous_limit(["newman", "mixed"], "n", {"b": "1"}) is None


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_sweep_draws_its_points_on_a_terminal_and_nothing_under_json(tmp_path, capsys, monkeypatch):
    from exactpoker import progress

    stream, reporter = Terminal(), progress.TerminalReporter
    monkeypatch.setattr(progress, "TerminalReporter", lambda: reporter(stream, delay=0, interval=0))
    argv = ["sweep", "vn", "mixed", "--grid", "n=2..5", "--fixed", "b=1", "--workers", "1"]
    assert run(capsys, *argv, "-o", str(tmp_path / "a.jsonl"))[0] == 0
    assert "4/4 points" in stream.getvalue()
    stream.seek(0)
    stream.truncate()
    status, out, _ = run(capsys, *argv, "-o", str(tmp_path / "b.jsonl"), "--json")
    assert status == 0 and json.loads(out)["ran"] == 4 and stream.getvalue() == ""


@pytest.mark.slow
def test_ctrl_c_ends_a_dask_sweep_with_one_line_and_exit_130(tmp_path):
    out = tmp_path / "i.jsonl"
    process = subprocess.Popen([sys.executable, "-m", "exactpoker", "sweep", *GRID, "-o", str(out), "--workers", "2"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, preexec_fn=ctrl_c_as_a_terminal)
    _wait_for_records(out, 2, process)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal does: the whole process group
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130
    assert stderr.strip().splitlines() == ["exactpoker: interrupted"]


@pytest.mark.slow
def test_nash_shapley_exhaustive_on_a_dask_cluster_equals_the_run_here():
    from exactpoker.games.papers.nash_shapley.exhaustive import exhaustive

    here = exhaustive(1, 1, runner=Runner(1))
    cluster = exhaustive(1, 1, runner=Runner(2))
    assert cluster.details["cases"] == here.details["cases"]
    assert [eq.values for eq in cluster.equilibria] == [eq.values for eq in here.equilibria]


def test_the_runner_records_a_raising_task_and_goes_on():
    outcomes = dict(Runner(2).run(_maybe_fail, [1, 0, 2]))
    assert outcomes[0] == ("ok", 1) and outcomes[2] == ("ok", 0.5)
    assert outcomes[1][0] == "error" and "division" in outcomes[1][1]


def _maybe_fail(x):
    return 1 / x


def test_plan_refuses_a_switch_without_true_or_false(tmp_path):
    sweep = plan(["vn", "mixed"], ["n=2"], ["b=1", "advice=maybe"])
    report, _ = run_sweep(sweep, str(tmp_path / "a.jsonl"), Runner(1))
    assert report.failed and "--advice is a switch" in report.failed[0]["error"]


def test_a_sweep_planned_from_python_runs_the_installed_command_line():
    assert CommandLine.installed() == CommandLine(build_parser, main)
