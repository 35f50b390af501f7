"""A small process pool that knows which job each process holds.

``concurrent.futures.ProcessPoolExecutor`` breaks as a whole when one process dies and
cannot say which job killed it; its processes (and the forkserver, and the resource
tracker) also outlive a parent killed by SIGKILL, waiting for work.  This pool

- runs one job at a time per process, so a process that dies is charged with its job,
  which is tried again on a new process (``tries`` times in all) before it is given up;
- gives every process the read end of a pipe whose only write end the parent holds: when
  the parent dies, however it dies, the pipe closes and the processes exit at once;
- passes a job's exception back to the caller, with the remote traceback as its cause.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import pickle
import signal
import threading
import traceback
from collections import deque
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from typing import Any

LOST = object()
"""The result of a job whose process died on every try."""


PLAY_COLLECTOR = (50_000, 20, 10)
"""The garbage collector's thresholds in a process that plays hands and nothing else."""


def collect_for_play() -> None:
    """Set this process's garbage collector for playing hands: called by processes that are
    mjrules' own (a pool's workers, the command line), never by a library function, as it
    holds for the whole process.

    A simulation keeps large memos (the hand core's suit tables, the bots' worths, the
    valuer's typed wins) and makes many short-lived objects.  With Python's thresholds
    (700, 10, 10), young collections run so often that a hand's objects, still alive, are
    promoted, and their number sets off full collections that walk every memo: about 7% of
    the value and strategy bots' time.  With the first threshold at 50,000 most of them are
    freed by reference counting before a collection sees them (docs/PERFORMANCE.md)."""
    gc.set_threshold(*PLAY_COLLECTOR)


class RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker process (the cause of the re-raise)."""

    def __str__(self) -> str:
        return str(self.args[0])


def _exit_with_parent(alive: Connection) -> None:
    """Block until the parent's end of ``alive`` closes (the parent has exited), then exit."""
    with contextlib.suppress(EOFError, OSError):
        alive.recv_bytes()
    os._exit(1)


def _serve(jobs: Connection, alive: Connection) -> None:
    """A worker process: run the jobs received on ``jobs`` until it closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    collect_for_play()
    threading.Thread(target=_exit_with_parent, args=(alive,), daemon=True).start()
    while True:
        try:
            function, args = jobs.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[str, Any] = ("ok", function(*args))
        except BaseException as error:  # every error goes back to the caller
            reply = ("error", (_portable(error), traceback.format_exc()))
        try:
            jobs.send(reply)
        except OSError:  # the parent is gone
            return


def _portable(error: BaseException) -> BaseException:
    """``error`` if it survives pickling, else a RuntimeError that says what it was."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:  # any failure to round-trip
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error


class _Worker:
    def __init__(self, context: Any, alive: Connection) -> None:
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, alive), daemon=True)
        self.process.start()
        theirs.close()
        self.job: int | None = None

    def stop(self) -> None:
        self.conn.close()
        if self.job is not None:  # busy: its result is not wanted
            self.process.terminate()


class Pool:
    """Up to ``size`` processes running ``function(*args)`` jobs; see the module docstring.

    ``submit`` queues a job and returns its number; ``wait_one`` returns ``(number, result)``
    for the next job to finish, the result being ``LOST`` if its process died ``tries`` times.
    """

    def __init__(self, size: int, function: Callable[..., Any], tries: int = 2) -> None:
        method = "forkserver" if os.name == "posix" else "spawn"
        self._context = multiprocessing.get_context(method)
        self._alive, self._alive_parent_end = self._context.Pipe(duplex=False)
        self._size = size
        self._function = function
        self._tries = tries
        self._workers: list[_Worker] = []
        self._queue: deque[int] = deque()
        self._args: dict[int, tuple[Any, ...]] = {}
        self._failures: dict[int, int] = {}
        self._next = 0

    def submit(self, *args: Any) -> int:
        number = self._next
        self._next += 1
        self._args[number] = args
        self._queue.append(number)
        self._dispatch()
        return number

    def _dispatch(self) -> None:
        idle = [w for w in self._workers if w.job is None]
        while self._queue:
            if not idle and len(self._workers) < self._size:
                worker = _Worker(self._context, self._alive)
                self._workers.append(worker)
                idle.append(worker)
            if not idle:
                return
            worker = idle.pop()
            worker.job = self._queue.popleft()
            # if it died before it is given the job, it is charged with it (wait_one)
            with contextlib.suppress(OSError):
                worker.conn.send((self._function, self._args[worker.job]))

    def wait_one(self) -> tuple[int, Any]:
        """Block until a job finishes (or is given up); raises the job's exception if any."""
        while True:
            busy = {}
            for worker in self._workers:
                if worker.job is not None:
                    busy[worker.conn] = busy[worker.process.sentinel] = worker
            if not busy:
                raise RuntimeError("no job is running")
            for ready in wait(list(busy)):
                worker = busy[ready]
                if worker.job is None:  # already handled through its other handle
                    continue
                number = worker.job
                try:
                    status, value = worker.conn.recv() if worker.conn.poll() else ("dead", None)
                except (EOFError, OSError, pickle.UnpicklingError):
                    status, value = "dead", None  # died in the middle of its reply
                if status == "dead":
                    outcome = self._bury(worker, number)
                    if outcome is not None:
                        return outcome
                    continue
                worker.job = None
                del self._args[number]
                self._dispatch()
                if status == "error":
                    error, text = value
                    raise error from RemoteTraceback(text)
                return number, value

    def _bury(self, worker: _Worker, number: int) -> tuple[int, Any] | None:
        """A worker died holding job ``number``: try it again, or give it up."""
        worker.job = None
        worker.conn.close()
        worker.process.kill()  # if it is not dead yet (a reply cut short)
        worker.process.join()
        self._workers.remove(worker)
        self._failures[number] = self._failures.get(number, 0) + 1
        if self._failures[number] < self._tries:
            self._queue.appendleft(number)
            self._dispatch()
            return None
        del self._args[number]
        self._dispatch()
        return number, LOST

    def close(self) -> None:
        """Stop every process now (running jobs are abandoned) and wait for them."""
        for worker in self._workers:
            worker.stop()
        for worker in self._workers:
            worker.process.join(5)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
        self._workers.clear()
        self._alive_parent_end.close()
        self._alive.close()
