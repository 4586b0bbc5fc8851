"""Where subproblems run: in this process, in local worker processes, or on a Dask cluster.

Every backend has the same small interface, used by the coordinator (``runner``): ``start(job)``
launches and warms the workers (each prepares the job once: front preparation, arrays, JIT cache
load), ``ready()`` waits for them and returns their start-up figures, ``submit(index, path, spec)``
queues a subproblem, ``poll(timeout)`` returns the finished ``(index, Part)`` pairs (``submit``'s
``state``: go on from an unfinished part's), ``cancel()`` asks running subproblems to stop (they
return partial, incomplete parts), ``close()`` ends the workers.  ``running()`` and ``states()``
give what the workers report from the subproblems they are searching: their figures (the progress
line) and, in a checkpointed run of an engine that has one, their latest state (the checkpoint).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import pickle
import queue
import signal
import time
from collections import deque
from typing import Any, Callable

from ..errors import CpkitError, InputError
from . import job as jobs
from .protocol import Part, Path

Finished = list[tuple[int, Part]]


class InlineBackend:
    """Subproblems one after another in this process (``--workers 1`` with a checkpoint)."""

    workers = 1

    def __init__(self, cancel: Callable[[], bool]):
        self._cancel_flag = False
        self._outer_cancel = cancel
        self._queue: deque = deque()
        self._running: dict[int, dict[str, int]] = {}
        self._states: dict[int, bytes] = {}
        #: Called after each slice of the subproblem being searched: the coordinator does not
        #: poll meanwhile, so this is when it draws its line and saves its checkpoint.
        self.between_slices: Callable[[], None] | None = None

    def _cancelled(self) -> bool:
        return self._cancel_flag or self._outer_cancel()

    def start(self, job: jobs.Job) -> None:
        self.job = job
        self._warm = jobs.warm(job)

    def ready(self) -> dict[str, float]:
        return {"startup_seconds": self._warm["seconds"],
                "jit_seconds": self._warm["jit_seconds"]}

    def submit(self, index: int, path: Path, spec: jobs.TaskSpec, state: bytes = b"") -> None:
        self._queue.append((index, path, spec, state))

    def poll(self, timeout: float) -> Finished:
        if not self._queue or self._cancelled():
            return []
        index, path, spec, state = self._queue.popleft()
        duties = self.between_slices

        def report(figures: dict[str, int]) -> None:
            self._running[index] = figures
            duties()

        def keep(blob: bytes) -> None:
            self._states[index] = blob

        try:
            part = jobs.solve_task(self.job, path, spec, self._cancelled,
                                   None if duties is None else report, state, keep)
        finally:
            self._running.pop(index, None)
            self._states.pop(index, None)
        return [(index, part)]

    def cancel(self) -> None:
        self._cancel_flag = True

    def drain(self, timeout: float) -> Finished:
        return []

    def running(self) -> dict[int, dict[str, int]]:
        """The figures of the subproblem being searched (inside ``poll``, for
        ``between_slices``)."""
        return dict(self._running)

    def states(self) -> dict[int, bytes]:
        """The last state of the subproblem being searched (``TaskSpec.state_every``)."""
        return dict(self._states)

    def close(self) -> None:
        self._queue.clear()


# ---------------------------------------------------------------------------- local processes
def _worker_main(job_bytes: bytes, tasks, results, stop, parent: int) -> None:
    """A local worker process: prepare the job once, then solve subproblems until told to
    stop, the queue says so (None), or the coordinator is gone (it was killed)."""
    # The coordinator decides when to stop (a terminal's Ctrl-C or a group-wide SIGTERM reaches
    # the workers too); a worker only ends on its own when the coordinator is gone.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)

    def orphaned() -> bool:
        return os.getppid() != parent

    def cancel() -> bool:
        return stop.is_set() or orphaned()

    try:
        job = pickle.loads(job_bytes)
        results.put(("ready", os.getpid(), jobs.warm(job)))
        while not cancel():
            try:
                task = tasks.get(timeout=0.5)
            except queue.Empty:
                continue
            if task is None:
                break
            index, path, spec, state = task
            if cancel():
                break
            results.put(("done", index, jobs.solve_task(
                job, path, spec, cancel, _reporter(results, index), state,
                lambda blob, index=index: results.put(("state", index, blob)))))
    except CpkitError as exc:
        results.put(("error", os.getpid(), str(exc)))
    except BaseException as exc:                      # report, never hang the coordinator
        results.put(("error", os.getpid(), f"{type(exc).__name__}: {exc}"))
    finally:
        if orphaned():
            # Nobody reads the results any more, and this process holds the queue's read end
            # too, so a large part would block the exit for ever (seen: 2.3 GB of solutions).
            results.cancel_join_thread()


#: Seconds between a worker's reports of the subproblem it is searching.
REPORT_SECONDS = 1.0


def _reporter(results, index: int) -> Callable[[dict[str, int]], None]:
    """What a worker calls after each slice of subproblem ``index``: at most every
    REPORT_SECONDS, its running figures go to the coordinator (``running``) through
    ``results.put``."""
    last = [time.perf_counter()]

    def report(figures: dict[str, int]) -> None:
        now = time.perf_counter()
        if now - last[0] >= REPORT_SECONDS:
            last[0] = now
            results.put(("progress", index, dict(figures)))

    return report


class LocalBackend:
    """Worker processes on this machine (spawned, so safe on every platform and with numba)."""

    #: Not called: the coordinator polls while the workers search.
    between_slices: Callable[[], None] | None = None

    def __init__(self, workers: int):
        self.workers = workers
        self._ctx = mp.get_context("spawn")
        self._procs: list = []
        self._running: dict[int, dict[str, int]] = {}
        self._states: dict[int, bytes] = {}
        self._starting = False

    def running(self) -> dict[int, dict[str, int]]:
        """The last figures reported from the subproblems being searched (nodes, solutions,
        deepest), by index; a subproblem leaves when its part comes back."""
        return dict(self._running)

    def states(self) -> dict[int, bytes]:
        """The last state sent from each subproblem being searched (``TaskSpec.state_every``),
        by index; a subproblem leaves when its part comes back."""
        return dict(self._states)

    def start(self, job: jobs.Job) -> None:
        self._started = time.perf_counter()
        self._tasks = self._ctx.Queue()
        self._results = self._ctx.Queue()
        self._stop = self._ctx.Event()
        payload = pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)
        for _ in range(self.workers):
            p = self._ctx.Process(target=_worker_main, daemon=True,
                                  args=(payload, self._tasks, self._results, self._stop,
                                        os.getpid()))
            p.start()
            self._procs.append(p)
        self._early: Finished = []
        self._starting = True

    def ready(self) -> dict[str, float]:
        """Wait until every worker has prepared the job."""
        jit = 0.0
        pending = self.workers
        while pending:
            msg = self._get(timeout=1.0)
            if msg is None:
                continue
            if msg[0] == "ready":
                pending -= 1
                jit = max(jit, msg[2]["jit_seconds"])
        self._starting = False
        return {"startup_seconds": time.perf_counter() - self._started, "jit_seconds": jit}

    def _get(self, timeout: float):
        try:
            msg = self._results.get(timeout=timeout)
        except queue.Empty:
            dead = [p for p in self._procs if p.exitcode is not None]
            if dead:
                raise CpkitError(f"a worker process died{self._hint(dead[0].exitcode)}")
            return None
        if msg[0] == "error":
            raise CpkitError(f"a worker failed: {msg[2]}")
        return msg

    def _hint(self, status: int) -> str:
        """What a worker's death says: one that dies before it is ready has most often run
        the main script's top level again (spawned processes import it) and met the call
        that starts workers there, unguarded."""
        if not self._starting:
            return f" (exit status {status})"
        return (f" while starting (exit status {status}; its message is above).  Worker "
                f"processes import the main script again: a script that runs cpkit with "
                f"workers must make the call under `if __name__ == \"__main__\":`")

    def submit(self, index: int, path: Path, spec: jobs.TaskSpec, state: bytes = b"") -> None:
        self._tasks.put((index, path, spec, state))

    def poll(self, timeout: float) -> Finished:
        out: Finished = []
        msg = self._get(timeout)
        while msg is not None:
            if msg[0] == "done":
                out.append((msg[1], msg[2]))
                self._running.pop(msg[1], None)
                self._states.pop(msg[1], None)
            elif msg[0] == "progress":
                self._running[msg[1]] = msg[2]
            elif msg[0] == "state":
                self._states[msg[1]] = msg[2]
            try:
                msg = self._results.get_nowait()
            except queue.Empty:
                msg = None
            else:
                if msg[0] == "error":
                    raise CpkitError(f"a worker failed: {msg[2]}")
        return out

    def cancel(self) -> None:
        self._stop.set()

    def drain(self, timeout: float) -> Finished:
        """After ``cancel``: the parts the workers still hand back (partial ones included)."""
        out: Finished = []
        end = time.perf_counter() + timeout
        while any(p.is_alive() for p in self._procs) and time.perf_counter() < end:
            try:
                out.extend(self.poll(0.1))
            except CpkitError:
                break
        try:
            out.extend(self.poll(0.01))
        except CpkitError:
            pass
        return out

    def close(self) -> None:
        self._stop.set()
        for _ in self._procs:
            try:
                self._tasks.put_nowait(None)
            except Exception:
                pass
        for p in self._procs:
            p.join(timeout=2.0)
            if p.is_alive():
                p.kill()                # a started worker ignores SIGTERM (see _worker_main)
                p.join(timeout=1.0)
        self._retire_tasks()
        self._results.cancel_join_thread()
        self._results.close()
        self._procs = []

    def _retire_tasks(self) -> None:
        """Take back the tasks no worker took and wait for the queue's feeder thread to end.

        Left running, that thread can hold the queue's last reference while the interpreter
        shuts down: it unlinks one of the queue's semaphores and is stopped before it tells
        the resource tracker, which then prints a "leaked semaphore" warning (seen once in CI,
        after a refused ``--resume``).  Taking the tasks back first means the feeder has at
        most what is already in its buffer to write into an empty pipe, so the wait is short.
        """
        while True:
            try:
                self._tasks.get(timeout=0.05)
            except (queue.Empty, OSError, EOFError):
                break
        self._tasks.close()
        self._tasks.join_thread()


# ---------------------------------------------------------------------------- Dask
def _dask_import():
    try:
        import distributed
    except ImportError:
        raise InputError("the Dask backend needs the optional dependency: "
                         "pip install 'cpkit[dask]'") from None
    return distributed


def _stop_event_name(job: jobs.Job) -> str:
    return f"cpkit-stop-{job.key}"


def _dask_warm(job: jobs.Job) -> dict[str, float]:
    return jobs.warm(job)


def _reports_name(job: jobs.Job) -> str:
    return f"cpkit-reports-{job.key}"


class _Reports:
    """A task's end of the run's report queue, opened at its first report: most subproblems
    end before their first (REPORT_SECONDS), and opening costs a round trip to the scheduler."""

    def __init__(self, name: str):
        self.name = name
        self._queue = None

    def put(self, message: tuple) -> None:
        if self._queue is None:
            import distributed

            self._queue = distributed.Queue(self.name)
        self._queue.put(message)

    def close(self) -> None:
        if self._queue is not None:
            self._queue.close()


def _abandoned() -> Callable[[], bool]:
    """Whether the scheduler has let go of the task running in this thread: its coordinator is
    gone (killed, or its client closed).  The worker cannot stop a running task, so without
    this the search went on for ever (seen: both workers busy after a ``kill -9``)."""
    import distributed

    try:
        worker = distributed.get_worker()
        key = worker.get_current_task()
        tasks = worker.state.tasks
    except (AttributeError, KeyError, ValueError):    # not on a worker thread
        return lambda: False

    def abandoned() -> bool:
        task = tasks.get(key)
        return task is None or task.state in ("cancelled", "released", "forgotten")

    return abandoned


def _dask_solve(job: jobs.Job, index: int, path: Path, spec: jobs.TaskSpec,
                state: bytes = b"") -> tuple[int, Part]:
    """A subproblem on a Dask worker; at most once a second it looks whether the run was
    stopped or the task abandoned.  It reports like a local worker (``_reporter``, states in a
    checkpointed run)."""
    import distributed

    event = distributed.Event(_stop_event_name(job))
    abandoned = _abandoned()
    last = [0.0, False]

    def cancel() -> bool:
        now = time.monotonic()
        if now - last[0] >= 1.0:
            last[0] = now
            last[1] = abandoned() or bool(event.is_set())
        return last[1]

    reports = _Reports(_reports_name(job))
    try:
        return index, jobs.solve_task(job, path, spec, cancel, _reporter(reports, index), state,
                                      lambda blob: reports.put(("state", index, blob)))
    finally:
        reports.close()


class DaskBackend:
    """Subproblems as tasks on a Dask distributed cluster (a ``Client`` or a scheduler address).
    The job is scattered to every worker once; each worker prepares it once.

    Only a few tasks a worker thread are on the cluster at a time (``IN_FLIGHT_PER_THREAD``);
    the others wait here.  With all of them submitted at once, a run stopped early (time limit,
    Ctrl-C) waited for every one to start and hand back an empty part, fetched one by one: a
    10 s run of 11,868 subproblems took 42 s.  Tasks send their running figures and states
    through a Dask queue of the run (``_reports_name``), emptied at each poll."""

    #: How long to try reaching a scheduler given by address.
    CONNECT_TIMEOUT = "10s"
    #: Tasks on the cluster per worker thread: a thread that ends one has the next at hand.
    IN_FLIGHT_PER_THREAD = 4
    #: Seconds between two looks at the cluster's size (it can grow or shrink during a run).
    RESIZE_SECONDS = 10.0
    #: Not called: the coordinator polls while the workers search.
    between_slices: Callable[[], None] | None = None

    def __init__(self, client: Any = None, address: str | None = None):
        distributed = _dask_import()
        self._own = client is None
        if client is None:
            try:
                # The address read first: a malformed one is refused before a client starts
                # its event loop (a thread that, on a loaded machine, took over 10 s to start
                # and failed with distributed's own assertion instead of this message).
                distributed.comm.resolve_address(address)
                client = distributed.Client(address, timeout=self.CONNECT_TIMEOUT)
            except (OSError, TimeoutError) as exc:
                raise InputError(f"cannot reach the Dask scheduler at {address}: {exc}") \
                    from None
            except ValueError as exc:         # distributed's parse of the address
                raise InputError(f"--scheduler {address}: {exc} (expected an address such as "
                                 f"tcp://host:8786)") from None
        self.client = client
        self._futures: dict = {}
        self._waiting: deque = deque()
        self._running: dict[int, dict[str, int]] = {}
        self._states: dict[int, bytes] = {}
        self._reports = None
        self.workers = max(1, len(client.scheduler_info().get("workers", {})))
        self._resize()

    def _resize(self) -> None:
        threads = sum(self.client.nthreads().values())
        self._in_flight = self.IN_FLIGHT_PER_THREAD * max(1, threads)
        self._sized = time.perf_counter()

    def start(self, job: jobs.Job) -> None:
        distributed = _dask_import()
        self.job = job
        self._started = time.perf_counter()
        self._event = distributed.Event(_stop_event_name(job), client=self.client)
        self._event.clear()
        self._reports = distributed.Queue(_reports_name(job), client=self.client)
        self._job_future = self.client.scatter(job, broadcast=True, hash=False)
        self._warm = self.client.run(_dask_warm, job)

    def ready(self) -> dict[str, float]:
        jit = max((w["jit_seconds"] for w in self._warm.values()), default=0.0)
        return {"startup_seconds": time.perf_counter() - self._started, "jit_seconds": jit}

    def submit(self, index: int, path: Path, spec: jobs.TaskSpec, state: bytes = b"") -> None:
        self._waiting.append((index, path, spec, state))
        self._top_up()

    def _top_up(self) -> None:
        """Send waiting subproblems to the cluster until ``_in_flight`` are there."""
        while self._waiting and len(self._futures) < self._in_flight:
            index, path, spec, state = self._waiting.popleft()
            fut = self.client.submit(_dask_solve, self._job_future, index, path, spec, state,
                                     pure=False, key=self._key(index))
            self._futures[fut.key] = fut

    def _key(self, index: int) -> str:
        return f"cpkit-{self.job.key}-{index}"

    def _take_reports(self) -> None:
        """The figures and states tasks sent since the last poll, by subproblem; a report
        of a subproblem whose part has come back (it can arrive later) is dropped."""
        for kind, index, payload in self._reports.get(batch=True):
            if self._key(index) in self._futures:
                if kind == "progress":
                    self._running[index] = payload
                elif kind == "state":
                    self._states[index] = payload

    def poll(self, timeout: float) -> Finished:
        distributed = _dask_import()
        if time.perf_counter() - self._sized >= self.RESIZE_SECONDS:
            self._resize()
        self._top_up()
        if not self._futures:
            time.sleep(min(timeout, 0.05))
            return []
        try:
            distributed.wait(list(self._futures.values()), timeout=timeout,
                             return_when="FIRST_COMPLETED")
        except (TimeoutError, distributed.TimeoutError):
            pass
        self._take_reports()
        finished = [fut for fut in self._futures.values() if fut.done()]
        for fut in finished:
            del self._futures[fut.key]
            if fut.status == "error":
                raise CpkitError(f"a Dask task failed: {fut.exception()}")
        out: Finished = self.client.gather(finished) if finished else []
        for index, _ in out:
            self._running.pop(index, None)
            self._states.pop(index, None)
        self._top_up()
        return out

    def cancel(self) -> None:
        self._waiting.clear()
        self._event.set()

    def drain(self, timeout: float) -> Finished:
        out: Finished = []
        end = time.perf_counter() + timeout
        while self._futures and time.perf_counter() < end:
            out.extend(self.poll(0.2))
        return out

    def running(self) -> dict[int, dict[str, int]]:
        """The last figures reported from the tasks being searched (as ``LocalBackend``)."""
        return dict(self._running)

    def states(self) -> dict[int, bytes]:
        """The last state sent from each task being searched (``TaskSpec.state_every``)."""
        return dict(self._states)

    def close(self) -> None:
        if self._futures:
            self.client.cancel(list(self._futures.values()))
        self._futures = {}
        self._waiting.clear()
        if self._reports is not None:
            self._reports.close()
            self._reports = None
        if self._own:
            self.client.close()
