"""Small dense linear algebra on one BLAS thread.

The N-player float guide (:mod:`exactpoker.solve.nplayer.continuation`) solves
hundreds of dense systems of a few hundred unknowns.  OpenBLAS splits each
over every core and its threads wait for each other by spinning: on a
machine whose cores are busy with other work, every solve waits for a
descheduled thread.  Measured on the 2-core machine of the benchmarks, with
two other jobs running: ``exactpoker kuhn3 --cards 26 --pot 3`` took 115 s
(122 s of CPU) with OpenBLAS's default two threads and 63 s (48 s of CPU)
with one.  Systems this small gain little from a second thread on an idle
machine, so the guide runs on one.  `threadpoolctl
<https://github.com/joblib/threadpoolctl>`_ sets the limit for the
duration of a block and restores it afterwards.  Entering it looks up the
loaded BLAS libraries (about 2 ms: numpy and scipy each load their own), so
it is entered once per guide, not per solve: nested blocks inside an
outer one do nothing.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

__all__ = ["one_thread"]

_depth = 0  # how many one_thread() blocks are open: only the outermost sets and lifts the limit


@contextmanager
def one_thread() -> Iterator[None]:
    """A block (or, as ``@one_thread()``, a function) in which BLAS -- numpy's and scipy's dense linear algebra --
    runs on one thread."""
    global _depth
    if _depth:
        yield
        return
    from threadpoolctl import threadpool_limits

    _depth += 1
    try:
        with threadpool_limits(limits=1, user_api="blas"):
            yield
    finally:
        _depth -= 1
