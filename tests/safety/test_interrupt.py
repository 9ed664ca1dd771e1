"""Ctrl-C (issue 42, item 2): a sweep stops at any moment on every runner, exit 130, one line; every finished point
is kept, the interrupted one is not recorded, and a resume completes the sweep with every point exact."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from exactpoker.cli import main
from exactpoker.parallel import Runner, interrupt_seen, interrupts_deferred, watching_interrupts
from tests.paths import ROOT
from tests.processes import ctrl_c_as_a_terminal


def _sweep(out, workers, last, bets, *extra):
    """A sweep of ``vn mixed`` over n = 2..last and b in ``bets`` as its own process group (as a terminal runs it)."""
    return subprocess.Popen([sys.executable, "-m", "exactpoker", "sweep", "vn", "mixed", "--grid", f"n=2..{last}",
                             "--grid", f"b={','.join(bets)}", "-o", str(out), "--workers", str(workers), *extra],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=ctrl_c_as_a_terminal)


def _records(out):
    if not out.exists():
        return []
    lines = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    assert "sweep" in lines[0]
    return lines[1:]


def _interrupt_then_resume(out, workers, delays, last, bets=("2", "3")):
    """Ctrl-C ``delays`` seconds into successive runs of one sweep, then a run to the end; checks every record.

    The grid must outlast the interrupts' sum on a fast, quiet machine (else a run ends before its Ctrl-C)."""
    kept = 0
    for delay in delays:
        process = _sweep(out, workers, last, bets)
        time.sleep(delay)
        os.killpg(process.pid, signal.SIGINT)  # as a terminal does: the whole process group
        _, err = process.communicate(timeout=180)
        assert process.returncode == 130, f"interrupt at {delay} s: exit {process.returncode} ({err[-500:]})"
        assert err.strip().splitlines() == ["exactpoker: interrupted"], f"interrupt at {delay} s: {err[-2000:]}"
        records = _records(out)
        assert all(r["status"] == "ok" for r in records), "an interrupted point was recorded"
        assert len(records) >= kept, "a finished point was lost"
        kept = len(records)
    assert kept < len(bets) * (last - 1), "the sweep ended before the last interrupt: give it a larger grid"
    process = _sweep(out, workers, last, bets, "--json")
    report, err = process.communicate(timeout=600)
    assert process.returncode == 0, err
    assert json.loads(report)["skipped"] == kept
    records = _records(out)
    assert sorted((int(r["point"]["n"]), r["point"]["b"]) for r in records) == \
        sorted((n, b) for n in range(2, last + 1) for b in bets)
    assert all(r["status"] == "ok" and r["equilibria"][0]["certified"] for r in records)
    return records


def _same_as_alone(records, capsys):
    """A few points' records equal the single command's own --json (the values exact, as it prints them)."""
    for record in records[:: max(1, len(records) // 4)]:
        point = record["point"]
        assert main(["vn", "mixed", "--n", point["n"], "--b", point["b"], "--json"]) == 0
        alone = json.loads(capsys.readouterr().out)
        assert record["equilibria"][0]["values"] == alone["equilibria"][0]["values"]
        assert record["equilibria"][0]["strategies"] == alone["equilibria"][0]["strategies"]


def test_ctrl_c_stops_a_sweep_here_and_a_resume_completes_it(tmp_path, capsys):
    records = _interrupt_then_resume(tmp_path / "here.jsonl", 1, (0.5, 2), 150)
    _same_as_alone(records, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_at_any_moment_on_every_runner(tmp_path, capsys, workers):
    """0.5 and 1 s: still importing, or starting the cluster; 2 and 3 s: the cluster starting; 5 and 10 s: running."""
    # one worker: six bets (two ended within the 21 s of interrupts on a quiet machine); the cluster: two, as
    # before (with more tasks in flight its scheduler logged lost data on the interrupt once)
    bets = ("2", "3", "4", "5", "6", "7") if workers == 1 else ("2", "3")
    records = _interrupt_then_resume(tmp_path / f"w{workers}.jsonl", workers, (0.5, 1, 2, 3, 5, 10), 400, bets)
    _same_as_alone(records, capsys)


def _swallows_an_interrupt(item):
    """A task whose code drops the interrupt that comes while it runs (as a finalizer's ``__del__`` does)."""
    try:
        signal.raise_signal(signal.SIGINT)
    except KeyboardInterrupt:
        pass
    return item


def test_an_interrupt_that_a_task_swallowed_still_stops_the_runner():
    done = []
    with watching_interrupts(), pytest.raises(KeyboardInterrupt):
        for index, outcome in Runner(1).run(_swallows_an_interrupt, [1, 2, 3]):
            done.append(outcome)
    assert done == [] and not interrupt_seen()


def test_an_interrupt_during_a_deferred_block_is_raised_at_its_end():
    reached = []
    with watching_interrupts():
        with pytest.raises(KeyboardInterrupt):
            with interrupts_deferred():
                signal.raise_signal(signal.SIGINT)
                reached.append("after the signal")
        assert interrupt_seen()
    assert reached == ["after the signal"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler



_DROPPED_INTERRUPT = """
import signal
from exactpoker.parallel import interrupt_seen, watching_interrupts

class DropsAnInterrupt:
    def __del__(self):
        signal.raise_signal(signal.SIGINT)

with watching_interrupts():
    DropsAnInterrupt()
    print(interrupt_seen())
"""


def test_an_interrupt_python_drops_is_remembered_and_not_printed():
    """A finalizer running when the interrupt comes: Python drops the exception ("Exception ignored in", as an
    import's module-lock callback did 0.5 s into a sweep); the flag keeps it, and nothing is printed.  In a process
    of its own: pytest catches dropped exceptions itself."""
    done = subprocess.run([sys.executable, "-c", _DROPPED_INTERRUPT], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, preexec_fn=ctrl_c_as_a_terminal)
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "True", "")
