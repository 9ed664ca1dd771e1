"""Progress of long jobs: the reporter draws on a terminal only, never under --json, never on stdout."""

import io
import json
import threading

import pytest

from exactpoker import progress
from exactpoker.cli import main
from exactpoker.progress import TerminalReporter


class Terminal(io.StringIO):
    def isatty(self):
        return True


def drawn(**options):
    stream = Terminal()
    return stream, TerminalReporter(stream, delay=0, interval=0, **options)


def test_the_bar_shows_stage_done_total_rate_and_time_left():
    stream, reporter = drawn()
    with progress.reporting(reporter):
        progress.stage("solving", total=4, unit="points")
        progress.advance()
        line = stream.getvalue().split("\r")[-1]
        assert "solving" in line and "1/4 points" in line and "/s" in line and "left" in line
        progress.advance(3)
        assert "4/4 points" in stream.getvalue().split("\r")[-1]
    assert stream.getvalue().endswith("\r") and stream.getvalue().split("\r")[-2].strip() == ""  # line erased


def test_a_stage_without_total_shows_its_count_and_time():
    stream, reporter = drawn()
    with progress.reporting(reporter):
        progress.stage("walking the tree", unit="states")
        progress.advance(7)
        line = stream.getvalue().split("\r")[-1]
    assert "walking the tree" in line and "7 states" in line and " s" in line


def test_nothing_is_drawn_when_not_a_terminal_or_by_default():
    stream = io.StringIO()
    with progress.reporting(TerminalReporter(stream, delay=0, interval=0)):
        progress.stage("solving", total=3)
        progress.advance(3)
    assert stream.getvalue() == ""
    progress.stage("nobody listens", total=2)  # the default reporter: silent, no error
    progress.advance()
    assert type(progress.current()) is progress.Reporter


def test_a_short_job_draws_nothing_before_the_delay():
    stream = Terminal()
    with progress.reporting(TerminalReporter(stream, delay=60)):
        progress.stage("quick", total=2)
        progress.advance(2)
    assert stream.getvalue() == ""


def test_counter_and_each_feed_the_current_reporter():
    stream, reporter = drawn()
    with progress.reporting(reporter):
        report = progress.counter("enumerating", "strategies")
        report(5, 10)
        assert "5/10 strategies" in stream.getvalue().split("\r")[-1]
        report(10, 10)
        assert "10/10 strategies" in stream.getvalue().split("\r")[-1]
        assert list(progress.each([1, 2, 3], "cases")) == [1, 2, 3]
        assert "3/3" in stream.getvalue().split("\r")[-1]


def test_the_reporter_is_context_local_and_restored():
    outer = TerminalReporter(Terminal(), delay=0)
    with progress.reporting(outer):
        with progress.reporting(None):
            assert type(progress.current()) is progress.Reporter
        assert progress.current() is outer
        seen = []
        thread = threading.Thread(target=lambda: seen.append(progress.current()))
        thread.start()
        thread.join()
        assert type(seen[0]) is progress.Reporter  # another thread has its own (silent) context


def test_the_ticker_redraws_a_stage_busy_in_one_call():
    stream = Terminal()
    reporter = TerminalReporter(stream, delay=0, interval=0.01)
    with progress.reporting(reporter):
        progress.stage("one long call")
        before = stream.getvalue().count("\r")
        threading.Event().wait(0.2)
        assert stream.getvalue().count("\r") > before


@pytest.fixture
def stderr_is_a_terminal(monkeypatch, capsys):
    """The CLI's reporter draws at once on a fake terminal standing in for stderr."""
    stream = Terminal()
    monkeypatch.setattr(progress, "TerminalReporter", lambda: TerminalReporter(stream, delay=0, interval=0))
    return stream


def test_the_cli_draws_on_a_terminal_and_keeps_stdout_clean(stderr_is_a_terminal, capsys):
    assert main(["vn", "pure", "--n", "6", "--b", "2"]) == 0
    out = capsys.readouterr().out
    assert "strategies" in stderr_is_a_terminal.getvalue() and "\r" not in out


def test_under_json_stdout_is_pure_json_and_nothing_is_drawn(stderr_is_a_terminal, capsys):
    assert main(["vn", "pure", "--n", "6", "--b", "2", "--json"]) == 0
    json.loads(capsys.readouterr().out)
    assert stderr_is_a_terminal.getvalue() == ""


def test_a_part_prefixes_the_inner_stages():
    stream, reporter = drawn()
    with progress.reporting(reporter):
        with progress.part("b = 3"):
            progress.stage("float LP basis")
        assert "b = 3: float LP basis" in stream.getvalue()
        progress.stage("after")
        assert stream.getvalue().split("\r")[-1].startswith("after")


def test_output_on_stdout_erases_the_progress_line_first():
    stream, reporter = drawn()
    out = progress.ClearingStream(stream, reporter)
    with progress.reporting(reporter):
        progress.stage("solving", total=2)
        progress.advance()
        out.write("result\n")
    text = stream.getvalue()
    before, after = text.rsplit("result", 1)
    assert before.endswith("\r") and before.split("\r")[-2].strip() == ""  # the line was blanked, then the output
