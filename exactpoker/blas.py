"""Small dense linear algebra on one BLAS thread.

The N-player float guide (:mod:`exactpoker.solve.continuation`) solves
hundreds of dense systems of a few hundred unknowns.  OpenBLAS splits each
over every core and its threads wait for each other by spinning: on a
machine whose cores are busy with other work, every solve waits for a
descheduled thread.  Measured on the 2-core machine of the benchmarks, with
two other jobs running: ``exactpoker kuhn3 --cards 26 --pot 3`` took 115 s
(122 s of CPU) with OpenBLAS's default two threads and 63 s (48 s of CPU)
with one.  Systems this small gain little from a second thread on an idle
machine, so the guide's solves run on one.  `threadpoolctl
<https://github.com/joblib/threadpoolctl>`_ sets the limit for the
duration of a block and restores it afterwards; its controller is made
once, on first use (it looks up the loaded BLAS libraries).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from functools import lru_cache

__all__ = ["one_thread"]


@lru_cache(maxsize=1)
def _controller():  # noqa: ANN202 - threadpoolctl.ThreadpoolController, imported here (start-up time)
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def one_thread() -> AbstractContextManager:
    """A context in which BLAS (numpy's and scipy's dense linear algebra) runs on one thread."""
    return _controller().limit(limits=1, user_api="blas")
