"""One guard on every path (issue 42, item 1): every library game and every command, given an absurd size, is
refused from its parameters at once: one line on stderr, exit 2, in under 5 s of CPU time, inside 1 GB of address
space (``RLIMIT_AS``: a command that started building the game would die of it, not answer in one line)."""

import resource
import subprocess
import sys

import pytest

from exactpoker.games.library import GAMES
from tests.cli_commands import command_table
from tests.paths import ROOT

MEMORY = 1 << 30  # bytes of address space the command may map
CPU_SECONDS = 5.0
HUGE = "1000000000"

#: The library's parameters that are sizes (cards, players, ranks, bet levels, dice), and their absurd values; the
#: others are amounts (an ante, a bet, a rake, a pot), which make no game larger.
SIZES = {"cards": [HUGE], "n": [HUGE], "m": [HUGE], "ranks": [HUGE], "players": ["10", "1000000"],
         "sides": ["1000000"], "dice": ["1000v1000"]}
SIZE_BETS = {"newman"}  # Newman poker's b is its number of bet levels


def _library_cases() -> list:
    cases = []
    for name, entry in GAMES.items():
        for key in entry.params:
            sizes = [HUGE] if key == "b" and name in SIZE_BETS else SIZES.get(key, [])
            cases += [pytest.param(["solve", f"library:{name}({key}={value})"], id=f"library:{name}({key}={value})")
                      for value in sizes]
    return cases


#: Per command, its absurd invocations; a command with no size to make absurd says why (empty list).
COMMANDS: dict[str, list[list[str]]] = {
    "vn pure": [["--n", HUGE, "--b", "2"], ["--n", HUGE, "--b", "2", "--restricted"]],
    "vn mixed": [["--n", HUGE, "--b", "2"], ["--n", HUGE, "--b", "2", "--method", "simplex"]],
    "vn continuous": [["--b", "1" + "0" * 60]],
    "vn efg": [["--n", HUGE, "--b", "2", "-o", "{tmp}/vn.efg"]],
    "newman mixed": [["--n", HUGE, "--b", "2"], ["--n", "10", "--b", HUGE]],
    "newman saturation": [["--n", HUGE], ["--n", "10", "--lookahead", HUGE]],
    "newman continuous": [],  # no parameter
    "simple": [["--m", HUGE], ["--m", HUGE, "--threshold"], ["--m", HUGE, "--piecewise"]],
    "goldman-stone": [["--a", "3", "--b", "2", "--n", HUGE]],
    "three mixed": [["--n", HUGE, "--b", "2"], ["--n", HUGE, "--b", "2", "--method", "generic"]],
    "three continuous": [["--b", "2", "--digits", HUGE], ["--b", "1" + "0" * 300]],
    "three best-bet": [["--digits", HUGE]],
    "nash-shapley": [["regions", "--digits", HUGE]],
    "kuhn3": [["--cards", HUGE, "--pot", "3"], ["--cards", "4", "--pot", "3", "--digits", HUGE]],
    "kuhn3 skp": [],  # a fixed game of four cards; the pot is a rational, not a size
    "kuhn3 branch": [["--cards", HUGE, "--pot-min", "1", "--pot-max", "3", "--csv", "{tmp}/b.csv"]],
    "solve": [["library:vn(n=1000000000,b=2)", "--over", "b=1..2"], ["library:kuhn3(cards=1000000000)", "--all"],
              ["library:ladder(n=1000000000)", "--family"], ["library:leduc(players=10)", "--all-pure"],
              ["library:three(n=1000000000)", "--max-memory", "2G"]],
    "sweep": [["vn", "mixed", "--grid", f"n=1..{HUGE}", "--grid", "b=1", "-o", "{tmp}/s.jsonl", "--workers", "1"]],
    "verify": [],  # no size: the papers' claims
    "certify": [["library:vn(n=1000000000,b=2)", "NE,1,0"]],
    "convert": [["library:leduc(ranks=1000000)", "-o", "{tmp}/x.efg"], ["library:vn(n=1000000000,b=2)", "--to", "nfg"]],
}


def _command_cases() -> list:
    return [pytest.param(name.split() + argv, id=" ".join(name.split() + argv))
            for name, runs in COMMANDS.items() for argv in runs]


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _refused(argv: list[str], tmp_path) -> None:
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    process = subprocess.Popen([sys.executable, "-m", "exactpoker", *argv], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, preexec_fn=_limited)
    try:
        out, err = process.communicate(timeout=120)  # on the clock: generous, the machine may be loaded
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail(f"exactpoker {' '.join(argv)}: still running after 120 s")
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert process.returncode == 2, f"exactpoker {' '.join(argv)}: exit {process.returncode}\n{err[-2000:]}"
    assert err.count("\n") == 1 and err.startswith("exactpoker"), err[-2000:]
    assert "ran out of memory" not in err, err  # refused from the estimate, not by the address-space cap
    return used


@pytest.fixture
def cpu_seconds():
    """The CPU seconds the test's child processes used, measured around the test."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    yield lambda: (lambda after: after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)(
        resource.getrusage(resource.RUSAGE_CHILDREN))


@pytest.mark.parametrize("argv", _library_cases())
def test_every_library_game_refuses_an_absurd_size_at_once(argv, tmp_path, cpu_seconds):
    _refused(argv, tmp_path)
    assert cpu_seconds() < CPU_SECONDS


@pytest.mark.parametrize("argv", _command_cases())
def test_every_command_refuses_an_absurd_size_at_once(argv, tmp_path, cpu_seconds):
    _refused(argv, tmp_path)
    assert cpu_seconds() < CPU_SECONDS


def test_every_command_is_walked():
    """A new command must say how it is made absurd (or why it has no size), so none is left out."""
    assert {name for name, _ in command_table()} == set(COMMANDS)


def test_the_library_walk_covers_every_game_with_a_size():
    walked = {p.values[0][1].split("(")[0].removeprefix("library:") for p in _library_cases()}
    assert walked == {name for name in GAMES if name not in ("kuhn", "nash_shapley")}  # these have no size
