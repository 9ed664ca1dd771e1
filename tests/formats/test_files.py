"""exactpoker.files: outputs written whole or not at all; bad paths named in one message."""

import json
import os
import socket
import stat
import subprocess
import sys
import tempfile
import threading

import pytest

from exactpoker.cli import main
from exactpoker.errors import InvalidParameterError
from exactpoker.files import atomic_path, check_readable, check_writable, write_text
from tests.paths import ROOT


def test_write_text_replaces_whole(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("old")
    write_text(str(path), "new", "-o")
    assert path.read_text() == "new" and os.listdir(tmp_path) == ["out.txt"]
    assert oct(path.stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


@pytest.mark.parametrize("error", [KeyboardInterrupt, RuntimeError])
def test_a_failed_write_leaves_the_old_file(tmp_path, error):
    path = tmp_path / "out.csv"
    path.write_text("old")
    with pytest.raises(error):
        with atomic_path(str(path), "--csv") as temporary:
            with open(temporary, "w") as handle:
                handle.write("half")
            raise error
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["out.csv"]


def test_the_temporary_keeps_the_suffix(tmp_path):
    with atomic_path(str(tmp_path / "plot.png"), "--plot") as temporary:
        assert temporary.endswith(".png") and os.path.dirname(temporary) == str(tmp_path)
        open(temporary, "w").close()


@pytest.mark.parametrize("make, message", [
    (lambda tmp: str(tmp / "missing" / "x.efg"), "no such directory"),
    (lambda tmp: str(tmp), "is a directory"),
])
def test_unwritable_paths_are_named(tmp_path, make, message):
    path = make(tmp_path)
    with pytest.raises(InvalidParameterError, match=message) as caught:
        check_writable(path, "-o")
    assert str(caught.value).startswith("-o: ") and path in str(caught.value)


def test_unreadable_paths_are_named(tmp_path):
    with pytest.raises(InvalidParameterError, match="no such file"):
        check_readable(str(tmp_path / "nope.efg"), "GAME")


# -- writing through to what the path names ------------------------------------------------------


def test_a_new_file_is_created(tmp_path):
    path = tmp_path / "new.efg"
    write_text(str(path), "text", "-o")
    assert path.read_text() == "text" and os.listdir(tmp_path) == ["new.efg"]


def test_an_existing_file_keeps_its_permissions(tmp_path):
    path = tmp_path / "mine.csv"
    path.write_text("old")
    path.chmod(0o640)
    write_text(str(path), "new", "--csv")
    assert path.read_text() == "new" and stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_symbolic_link_is_kept_and_its_target_written(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "links").mkdir()
    target, link = tmp_path / "data" / "game.efg", tmp_path / "links" / "link.efg"
    target.write_text("old")
    os.symlink("../data/game.efg", link)
    second = tmp_path / "links" / "second.efg"  # a chain of two links
    os.symlink("link.efg", second)
    with atomic_path(str(second), "-o") as temporary:
        assert os.path.dirname(temporary) == str(tmp_path / "data")  # the temporary is beside the target
        with open(temporary, "w") as handle:
            handle.write("new")
    assert link.is_symlink() and os.readlink(link) == "../data/game.efg" and os.readlink(second) == "link.efg"
    assert target.read_text() == "new"
    assert sorted(os.listdir(tmp_path / "data")) == ["game.efg"]
    assert sorted(os.listdir(tmp_path / "links")) == ["link.efg", "second.efg"]


def test_a_dangling_link_creates_its_target(tmp_path):
    link = tmp_path / "link.efg"
    os.symlink("made.efg", link)
    write_text(str(link), "text", "-o")
    assert link.is_symlink() and (tmp_path / "made.efg").read_text() == "text"


def test_a_link_into_a_missing_directory_is_refused(tmp_path):
    os.symlink("gone/x.efg", tmp_path / "link.efg")
    with pytest.raises(InvalidParameterError, match=r"^-o: cannot write .*link\.efg: no such directory .*gone$"):
        write_text(str(tmp_path / "link.efg"), "text", "-o")


def test_a_link_loop_is_refused(tmp_path):
    os.symlink("b", tmp_path / "a")
    os.symlink("a", tmp_path / "b")
    with pytest.raises(InvalidParameterError, match="^-o: cannot write .*: Too many levels of symbolic links$"):
        check_writable(str(tmp_path / "a"), "-o")


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="a POSIX system's /dev/null")
def test_dev_null_is_written_not_replaced():
    before = os.stat("/dev/null")
    write_text("/dev/null", "x" * 100_000, "-o")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="Linux's /dev/full")
def test_a_full_device_is_a_one_line_error_and_stays_a_device():
    with pytest.raises(InvalidParameterError, match="^--output: cannot write /dev/full: No space left on device$"):
        write_text("/dev/full", "text", "--output")
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def _read_fifo(path, into):
    with open(path, "rb") as handle:
        into.append(handle.read())


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_named_pipe_is_written_through_to_its_reader(tmp_path):
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=_read_fifo, args=(fifo, received))
    reader.start()
    text = "P,E1\n" * 50_000  # more than a pipe's buffer
    write_text(str(fifo), text, "--csv")
    reader.join(timeout=30)
    assert received == [text.encode()] and stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert os.listdir(tmp_path) == ["pipe.csv"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="Linux's /dev/full")
def test_a_failed_write_sends_nothing_to_a_device():
    with pytest.raises(RuntimeError):  # /dev/full would answer ENOSPC to any byte written
        with atomic_path("/dev/full", "--plot") as temporary:
            with open(temporary, "w") as handle:
                handle.write("half")
            raise RuntimeError
    assert not os.path.exists(temporary)


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="unix sockets")
def test_a_socket_is_refused_and_left_alone():
    with tempfile.TemporaryDirectory(dir="/tmp") as directory:  # short: a socket's path has ~100 bytes
        path = os.path.join(directory, "s")
        with socket.socket(socket.AF_UNIX) as listener:
            listener.bind(path)
            with pytest.raises(InvalidParameterError, match="not a regular file, a device or a named pipe"):
                write_text(path, "text", "-o")
            assert stat.S_ISSOCK(os.lstat(path).st_mode)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root may write anywhere")
def test_permission_denied_is_named(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "old.efg").write_text("old")
    locked.chmod(0o500)
    try:
        for path in (locked / "new.efg", locked / "old.efg"):
            with pytest.raises(InvalidParameterError, match="permission denied"):
                write_text(str(path), "text", "-o")
    finally:
        locked.chmod(0o700)
    assert (locked / "old.efg").read_text() == "old"


# -- the same through the command line -----------------------------------------------------------


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_efg_through_a_link(tmp_path, capsys):
    target, link = tmp_path / "target.efg", tmp_path / "link.efg"
    target.write_text("old")
    os.symlink("target.efg", link)
    assert run(capsys, "vn", "efg", "--n", "3", "--b", "1", "-o", str(link))[0] == 0
    assert link.is_symlink() and target.read_text().startswith("EFG 2 R")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="Linux's /dev/full")
@pytest.mark.parametrize("argv", [
    ["vn", "efg", "--n", "3", "--b", "1", "-o", "/dev/full"],
    ["sweep", "vn", "mixed", "--grid", "n=2,3", "--fixed", "b=1", "--workers", "1", "-o", "/dev/full"],
])
def test_cli_a_full_device_is_one_line_and_exit_2(capsys, argv):
    status, _, err = run(capsys, *argv)
    assert status == 2 and "/dev/full" in err and "No space left on device" in err and err.count("\n") == 1
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


@pytest.mark.parametrize("kind", ["directory", "missing directory"])
def test_cli_a_bad_output_is_refused_before_the_work(tmp_path, capsys, kind):
    path = str(tmp_path) if kind == "directory" else str(tmp_path / "nope" / "x.efg")
    status, out, err = run(capsys, "vn", "efg", "--n", "3", "--b", "1", "-o", path)
    assert status == 2 and out == "" and err.count("\n") == 1 and path in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_cli_sweep_records_and_plot_into_named_pipes(tmp_path, capsys):
    pytest.importorskip("dask.distributed")
    pytest.importorskip("matplotlib")
    records, plot = tmp_path / "records.jsonl", tmp_path / "plot.png"
    os.mkfifo(records)
    os.mkfifo(plot)
    received = {records: [], plot: []}
    readers = [threading.Thread(target=_read_fifo, args=(path, into)) for path, into in received.items()]
    for reader in readers:
        reader.start()
    status, _, err = run(capsys, "sweep", "vn", "mixed", "--grid", "n=2,3", "--fixed", "b=1", "--workers", "1",
                         "-o", str(records), "--plot", str(plot))
    for reader in readers:
        reader.join(timeout=60)
    assert status == 0, err
    lines = [json.loads(line) for line in received[records][0].decode().splitlines()]
    assert "sweep" in lines[0] and sorted(r["point"]["n"] for r in lines[1:]) == ["2", "3"]
    assert received[plot][0].startswith(b"\x89PNG")
    assert stat.S_ISFIFO(os.stat(records).st_mode) and stat.S_ISFIFO(os.stat(plot).st_mode)


def test_cli_sweep_into_dev_null_runs_every_point(capsys):
    status, out, _ = run(capsys, "sweep", "vn", "mixed", "--grid", "n=2,3", "--fixed", "b=1", "--workers", "1",
                         "-o", os.devnull, "--json")
    assert status == 0 and json.loads(out)["ran"] == 2 and stat.S_ISCHR(os.stat(os.devnull).st_mode)


def _efg_to(path, **popen):
    return subprocess.run([sys.executable, "-m", "exactpoker", "vn", "efg", "--n", "2", "--b", "1", "-o", path],
                          cwd=ROOT, stderr=subprocess.PIPE, **popen)


@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="a /dev/stdout")
def test_cli_dev_stdout_into_a_pipe():
    done = _efg_to("/dev/stdout", stdout=subprocess.PIPE)
    assert done.returncode == 0 and done.stdout.startswith(b"EFG 2 R"), done.stderr
    assert os.path.islink("/dev/stdout")


@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="a /dev/stdout")
def test_cli_dev_stdout_appended_by_the_shell_keeps_the_log(tmp_path):
    log = tmp_path / "log.txt"
    log.write_text("first line\n")
    os.symlink("/dev/stdout", tmp_path / "out.efg")  # a link to the descriptor's name is written through too
    for path in ("/dev/stdout", str(tmp_path / "out.efg")):
        with open(log, "a") as handle:
            assert _efg_to(path, stdout=handle).returncode == 0
    text = log.read_text()
    assert text.startswith("first line\nEFG 2 R") and text.count("EFG 2 R") == 2
    assert set(os.listdir(tmp_path)) == {"log.txt", "out.efg"} and os.path.islink(tmp_path / "out.efg")
