"""Fuzz: random strings and numbers for every parameter of every command (issue 18).

Each command's small case (tests/cli_commands.py, the walk over the argparse
tree) has one parameter replaced by a random value; the command line runs in
a forked child of the test process (``cli.main``, ``SystemExit`` captured; a
fork costs milliseconds and imports nothing again) and must end with status 0
or 2, never a traceback, within :data:`LIMIT` seconds of CPU time (which load
on the machine hardly changes); a child still running after :data:`WALL`
seconds is killed and fails that test alone (the time limit lives in the child,
so it can never fire in another test, as a ``SIGALRM`` could).  A random value that
is valid starts real work, so the random numbers are small (at most 6), or
negative, or huge (at least 10^7: refused by a range or by the resource guard
:mod:`exactpoker.guard`), and the base cases are small.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import time

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from exactpoker.cli import main
from exactpoker.parallel import in_child
from tests.cli_commands import cases, command_table, fill

LIMIT = 5.0  # seconds of CPU time: a refusal takes milliseconds; an accepted small case a few seconds
WALL = 120.0  # seconds on the clock before the child is killed (a machine under load runs it slower)

_SPECIAL = ["", " ", "-", "-1", "0", "1/0", "0/0", "nan", "inf", "-inf", "1e999", "1e-999", "2.5", "5/2", "--json",
            "10" * 30, "1" + "0" * 400, "1" + "0" * 5000, "٣", "½", "0x10", "1_000", "None", "True", "[]", "\x00"]

#: Options where a huge valid value is long honest work, not a size that explodes (a pot range to trace).
LONG_WORK = {("kuhn3 branch", "--pot-max"), ("kuhn3 branch", "--pot-min")}

SMALL_VALUES = st.one_of(
    st.sampled_from([v for v in _SPECIAL if len(v) < 10 and v not in ("1e999", "inf")]),
    st.text(max_size=12),
    st.integers(-(10**6), 6).map(str),
    st.fractions(max_value=6, max_denominator=7).map(str),
)

VALUES = st.one_of(
    st.sampled_from(_SPECIAL),
    st.text(max_size=12),
    st.integers(-(10**6), 6).map(str),
    st.integers(10**7, 10**500).map(str),
    st.fractions(max_value=6, max_denominator=7).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)


def _parameters() -> list:
    """(command, option, base argv) for every option that takes a value, and every positional."""
    base = {}
    for name, argv in cases():
        base.setdefault(name, argv)
    out = []
    for name, parser in command_table():
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)) or action.nargs == 0:
                continue
            flag = action.option_strings[0] if action.option_strings else None
            if flag == "--workers":  # worker processes are spawned only with --exhaustive (not fuzzed: minutes)
                continue
            if flag == "--max-memory" and name != "vn mixed":  # one option, one code path (cli.main): fuzzed once
                continue
            out.append(pytest.param(name, flag, base[name], id=f"{name} {flag or action.dest}"))
    return out


def _with(argv: list[str], flag: str | None, value: str) -> list[str]:
    """``argv`` with ``flag``'s value replaced by ``value`` (a positional: ``value`` first)."""
    if flag is None:  # the positional comes first; a case that gives it is replaced, --list would skip it
        rest = argv[1:] if argv and not argv[0].startswith("-") else [a for a in argv if a != "--list"]
        return [value] + rest
    out, skip = [], False
    for i, a in enumerate(argv):
        if skip:
            skip = False
            continue
        if a == flag:
            skip = True
            continue
        out.append(a)
    return out + [f"{flag}={value}"]


def _is_file(name: str, flag: str) -> bool:
    parser = dict(command_table())[name]
    return any(flag in a.option_strings and a.metavar == "FILE" for a in parser._actions)


def _run(argv: list[str]) -> tuple[object, str, float]:
    """In the forked child: the exit status, what went to stderr, and the CPU seconds taken."""
    err = io.StringIO()
    start = time.process_time()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as stop:  # argparse's own refusals (unknown choice, missing value)
            status = stop.code
    return status, err.getvalue(), time.process_time() - start


@pytest.mark.parametrize("name, flag, argv", _parameters())
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True,
          phases=[Phase.explicit, Phase.generate])
@given(data=st.data())
def test_random_parameter(name, flag, argv, data, tmp_path_factory, capsys):
    value = data.draw(SMALL_VALUES if (name, flag) in LONG_WORK else VALUES, label="value")
    tmp = tmp_path_factory.mktemp("fuzz")
    if flag is not None and _is_file(name, flag):
        value = str(tmp / value)  # random file names, but inside the temporary directory
    full = name.split() + _with(fill(argv, tmp), flag, value)
    outcome, found = in_child(_run, full, WALL)
    if outcome != "ok":
        pytest.fail(f"exactpoker {' '.join(full)!r}: {found}")
    status, err, seconds = found
    assert seconds < LIMIT, f"exactpoker {' '.join(full)!r}: {seconds:.1f} s of CPU time, more than {LIMIT} s"
    assert status in (0, 2), f"exactpoker {full!r} exited {status}: {err}"
    assert "Traceback" not in err
    if status == 2 and err.startswith("exactpoker: error:"):
        assert err.count("\n") == 1, err
