"""exactpoker.files: outputs written whole or not at all; bad paths named in one message."""

import os

import pytest

from exactpoker.errors import InvalidParameterError
from exactpoker.files import atomic_path, check_readable, check_writable, write_text


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
