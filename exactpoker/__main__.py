"""``python -m exactpoker`` and the ``exactpoker`` script run the command line (:func:`exactpoker.cli.main`).

:func:`run` imports the command line itself, so that Ctrl-C while it is still
being imported (the first few tenths of a second) gives the same one line and
exit status 130 as an interrupt later on, not a traceback.  An interrupted run
leaves by :func:`os._exit` once its output is flushed: CPython ends a process
whose interrupt reached code run through ``PyRun_*`` (some extension modules
run such code while they are imported) by ``SIGINT`` itself, whoever caught
the exception, and the exit status would be -2, not 130.
"""

import os
import sys
from typing import NoReturn

__all__ = ["run"]


def run() -> int:
    """The command line's exit status (0 done, 2 bad input or refused, 130 interrupted)."""
    try:
        from exactpoker.cli import main
    except KeyboardInterrupt:
        print("exactpoker: interrupted", file=sys.stderr)
        return _interrupted()
    status = main()
    return _interrupted() if status == 130 else status


def _interrupted() -> NoReturn:
    """Leave now with status 130 (the module docstring says why not by returning)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(130)


if __name__ == "__main__":
    sys.exit(run())
