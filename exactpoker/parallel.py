"""The one way exactpoker runs independent tasks in parallel: Dask distributed.

A :class:`Runner` hands a list of tasks to

* nothing (``workers=1``): the tasks run here, one after another;
* a Dask ``LocalCluster`` of ``workers`` processes (the default for more than
  one worker): one machine, no set-up;
* a running Dask scheduler at ``scheduler`` (``tcp://host:8786``): a real
  cluster, started with ``dask scheduler`` and ``dask worker ADDRESS``.

:meth:`Runner.run` yields ``(index, outcome)`` as tasks finish, in any order.
An outcome is ``("ok", value)``, ``("error", message)`` or
``("timeout", message)``: a task that raises or passes its time limit is
recorded, and the others go on.  A worker process that dies mid-task is
replaced and its task run again by Dask (the scheduler's ``allowed-failures``).
Used by ``exactpoker sweep`` (:mod:`exactpoker.sweep`) and by the Nash--Shapley
exhaustive search (:mod:`exactpoker.games.papers.nash_shapley.exhaustive`).

Dask is the optional extra ``exactpoker[distributed]``; with one worker it is
not needed.

Ctrl-C: the local cluster's worker processes ignore ``SIGINT``, so the
terminal's interrupt acts only in this process, which shuts the cluster down
with Dask's loggers silenced: one line, no worker tracebacks.  They are forked
from a ``forkserver`` (:mod:`multiprocessing`) that this process starts with
``SIGINT`` ignored for the few milliseconds of its spawn (an ignored signal is
the one disposition a new program inherits), so this process itself ignores
nothing while the cluster starts: an interrupt 2 s into a sweep, during the
cluster's start, is held until the cluster is up (:func:`interrupts_deferred`,
a second or two) and stops it as one 20 s in does.  Every task's outcome yielded
before the interrupt stands; the tasks still running are dropped.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import Any, Callable, Iterator, Sequence

from exactpoker.errors import InvalidParameterError

__all__ = ["Runner", "Outcome", "in_child", "default_workers", "watching_interrupts", "interrupts_deferred",
           "check_interrupt", "interrupt_seen"]

#: ``(status, value)``: status "ok" (value: the task's result), "error" or "timeout" (value: a message).
Outcome = tuple[str, Any]


# -- Ctrl-C that is never lost ------------------------------------------------------------------------
#
# An interrupt is remembered as well as raised.  Python turns ``SIGINT`` into :class:`KeyboardInterrupt` in whatever the main
# thread runs at that moment; when that is a finalizer (a ``__del__``, such as a
# Dask future's) or a callback whose exceptions are "ignored", the exception is
# printed and dropped, and the job goes on as if nothing had happened (a sweep on
# a Dask cluster ran all its points and exited 0).  Within watching_interrupts() (the
# command line's whole run) the handler also sets a flag, and the loops that
# wait for work (Runner, the sweep) call
# check_interrupt(), which raises :class:`KeyboardInterrupt` again if an interrupt
# was seen: the run stops at the next task, and the command line exits 130.  The
# interrupt Python would print as "Exception ignored in ..." (a traceback on the
# terminal above the one line ``interrupted``: an import's module-lock callback
# caught it 0.5 s into a sweep) is not printed: the flag carries it.

_seen = False


def _handler(signum: int, frame: FrameType | None) -> None:
    global _seen
    _seen = True
    raise KeyboardInterrupt


def _remember(signum: int, frame: FrameType | None) -> None:
    global _seen
    _seen = True


def _unraisable_hook_for(previous: Callable[[Any], None]) -> Callable[[Any], None]:
    """``sys.unraisablehook`` that keeps a dropped interrupt in the flag, and passes anything else to ``previous``."""
    def hook(unraisable: Any) -> None:
        global _seen
        if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
            _seen = True
            return
        previous(unraisable)
    return hook


@contextmanager
def watching_interrupts() -> Iterator[None]:
    """Within the block, ``SIGINT`` raises :class:`KeyboardInterrupt` and is remembered (:func:`interrupt_seen`).

    An interrupt raised where Python can only drop it (a finalizer, an import's
    lock callback) is remembered and not printed.

    Only on the main thread, and only where ``SIGINT`` has Python's default
    handler: an interrupt the shell ignores (a job started with ``&`` or
    ``nohup``) stays ignored.
    """
    global _seen
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    previous, _seen = _seen, False
    previous_hook = sys.unraisablehook
    sys.unraisablehook = _unraisable_hook_for(previous_hook)
    signal.signal(signal.SIGINT, _handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        sys.unraisablehook = previous_hook
        _seen = previous


@contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Within the block an interrupt is only remembered, and raised as the block ends.

    For a start-up that must not be cut in half (a Dask cluster whose worker
    processes, orphaned mid-start, print tracebacks and leave the cluster for
    an exit handler that fails): the interrupt waits the few seconds it takes,
    then stops the run as any other.  An ignored ``SIGINT`` stays ignored.
    """
    global _seen
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGINT) not in (signal.default_int_handler, _handler):
        yield
        return
    before, _seen = _seen, False
    previous = signal.signal(signal.SIGINT, _remember)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        came, _seen = _seen, _seen or before
    if came:
        if previous is not _handler:  # outside watching_interrupts(): nothing else reads the flag
            _seen = before
        raise KeyboardInterrupt


def interrupt_seen() -> bool:
    """Whether an interrupt came within :func:`watching_interrupts` (even one whose exception was dropped)."""
    return _seen


def check_interrupt() -> None:
    """Raise :class:`KeyboardInterrupt` if an interrupt came (:func:`interrupt_seen`): call it where the work waits."""
    if _seen:
        raise KeyboardInterrupt


def default_workers() -> int:
    """One worker per CPU this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _child(fn: Callable[[Any], Any], item: Any, channel: Any) -> None:
    try:
        channel.put(("ok", fn(item)))
    except KeyboardInterrupt:  # the parent was interrupted too: it stops, and this task has no outcome
        pass
    except BaseException as error:  # noqa: BLE001 - reported to the parent, whatever it is
        channel.put(("error", _message(error)))


def _message(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    if not isinstance(error, (ValueError, ArithmeticError)) and type(error).__module__ != "exactpoker.errors":
        text = f"{type(error).__name__}: {text}"
    return text.splitlines()[0] if text else type(error).__name__


def in_child(fn: Callable[[Any], Any], item: Any, timeout: float | None) -> Outcome:
    """``fn(item)`` in a forked child process, stopped after ``timeout`` seconds (``None``: no limit, run here).

    The child is not a daemon, so that the task may start processes of its own (a sweep with ``--timeout``
    run under a time limit itself); it is killed, if still running, and joined whatever happens.
    """
    if timeout is None:
        try:
            return "ok", fn(item)
        except Exception as error:  # noqa: BLE001 - a task's failure is its record, not the run's
            return "error", _message(error)
    import multiprocessing  # here: the command line imports this module for its Ctrl-C alone (start-up time)
    import queue as queue_module

    context = multiprocessing.get_context("fork")
    channel = context.Queue()
    child = context.Process(target=_child, args=(fn, item, channel), daemon=False)
    child.start()
    try:
        return channel.get(timeout=timeout)
    except queue_module.Empty:
        return "timeout", f"stopped after --timeout {timeout:g} s"
    finally:
        if child.is_alive():
            child.kill()
        child.join()


def _forkserver_ignoring_sigint(context: Any) -> None:
    """Start ``context``'s forkserver (its worker processes' parent) with ``SIGINT`` ignored, which every process
    it forks keeps (:mod:`multiprocessing.forkserver` restores the disposition it started with); from the main
    thread only, and only the first time (a running forkserver is kept)."""
    if threading.current_thread() is not threading.main_thread():
        return
    from multiprocessing import forkserver

    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)


def _silence_dask() -> None:
    """No more log lines from Dask (its shutdown after an interrupt complains of the tasks it drops)."""
    import logging

    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


@dataclass(frozen=True)
class _Task:
    """A picklable task: ``fn(item)`` under a time limit."""

    fn: Callable[[Any], Any]
    timeout: float | None

    def __call__(self, item: Any) -> Outcome:
        return in_child(self.fn, item, self.timeout)


class Runner:
    """Where tasks run: here, a local Dask cluster, or a Dask scheduler (module docstring).

    Parameters
    ----------
    workers : int, optional
        Local worker processes (default: one per CPU); 1 runs the tasks here.
    scheduler : str, optional
        The address of a running Dask scheduler; ``workers`` is then ignored.
    timeout : float, optional
        Seconds each task may take (``None``: no limit).
    cluster : bool
        Start a local Dask cluster even for one worker (to measure Dask itself).
    """

    def __init__(self, workers: int | None = None, scheduler: str | None = None, timeout: float | None = None,
                 *, cluster: bool = False):
        if workers is not None and workers < 1:
            raise InvalidParameterError(f"--workers must be an integer >= 1; got {workers}")
        if timeout is not None and not timeout > 0:
            raise InvalidParameterError(f"--timeout must be a positive number of seconds; got {timeout}")
        self.scheduler = scheduler
        self.workers = default_workers() if workers is None else workers
        self.timeout = timeout
        self.cluster = cluster

    @property
    def local(self) -> bool:
        """Whether the tasks run in this process (one worker, no scheduler)."""
        return self.scheduler is None and self.workers == 1 and not self.cluster

    def describe(self) -> str:
        if self.scheduler is not None:
            return f"Dask scheduler {self.scheduler}"
        return "this process" if self.local else f"local Dask cluster of {self.workers} processes"

    def run(self, fn: Callable[[Any], Any], items: Sequence[Any]) -> Iterator[tuple[int, Outcome]]:
        """``(index, outcome)`` for every item, as each finishes."""
        task = _Task(fn, self.timeout)
        if not items:
            return
        if self.local:
            for index, item in enumerate(items):
                outcome = task(item)
                check_interrupt()  # an interrupt during the task that its code swallowed: not its outcome
                yield index, outcome
            return
        yield from self._dask(task, items)

    def _dask(self, task: _Task, items: Sequence[Any]) -> Iterator[tuple[int, Outcome]]:
        try:
            import dask
            from dask.distributed import LocalCluster
            from distributed.utils import get_mp_context
        except ImportError:
            raise InvalidParameterError(
                "--workers > 1 and --scheduler need Dask: pip install 'exactpoker[distributed]' (or use --workers 1)"
            ) from None
        # a task with --timeout forks a child: Dask's worker processes must not be daemons for that
        with dask.config.set({"distributed.worker.daemon": False, "distributed.scheduler.allowed-failures": 5,
                              "distributed.admin.tick.limit": "1h", "logging.distributed": "error",
                              "distributed.worker.multiprocessing-method": "forkserver"}):
            cluster = client = None
            try:
                if self.scheduler is None:
                    _forkserver_ignoring_sigint(get_mp_context())  # the workers ignore Ctrl-C, this process not
                    with interrupts_deferred():  # a cluster half started is not left behind (raised after it)
                        cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                               dashboard_address=":0", silence_logs=50)
                client = _client(cluster if cluster is not None else self.scheduler, self.scheduler)
                futures = {client.submit(task, item, pure=False): i
                           for i, item in enumerate(items)}
                for future in _finished(futures):
                    index = futures.pop(future)
                    try:
                        outcome = future.result()
                    except Exception as error:  # noqa: BLE001 - e.g. a task whose worker kept dying
                        outcome = ("error", _message(error))
                    yield index, outcome
            except KeyboardInterrupt:  # Ctrl-C: shut the cluster down without a word
                _silence_dask()
                raise
            finally:
                if client is not None:
                    client.close()
                if cluster is not None:
                    cluster.close()


def _finished(futures: dict[Any, int]) -> Iterator[Any]:
    """The futures as they finish, waiting at most half a second at a time so that an interrupt whose exception
    a finalizer dropped (:func:`watching_interrupts`) still stops the run."""
    from dask.distributed import wait

    pending = set(futures)
    while pending:
        check_interrupt()
        try:
            done, pending = wait(pending, timeout=0.5, return_when="FIRST_COMPLETED")
        except TimeoutError:  # (Dask's TimeoutError is the built-in one) none finished yet: look again
            continue
        for future in done:
            check_interrupt()
            yield future


def _client(address: Any, scheduler: str | None) -> Any:
    """A Dask client of the cluster or scheduler at ``address``; a scheduler out of reach in one line."""
    from dask.distributed import Client

    try:
        return Client(address, timeout="10s")
    except (OSError, TimeoutError) as error:
        raise InvalidParameterError(f"--scheduler {scheduler}: cannot reach a Dask scheduler there "
                                    f"({_message(error)})") from None
