"""The threads that run prange loops (llvm.parallel, docs/parallel.md).

Compiled code finds ``script.parallel``, a table ``{ptr run, i64 threads}``: with one thread
it runs a loop's chunks itself; otherwise it calls `run` (a ctypes callback, which takes the
GIL), which hands the loop's *worker* function to N-1 pool threads, runs it in the calling
thread too, and waits for the others. Each pool thread is a Python thread made once, with an
8 MiB stack, that calls the worker through ctypes, which releases the GIL for the call: the
chunks run in native code on all threads at once, and the threads persist from one loop to
the next. A loop started on a pool thread (a
parallel function called in a prange loop) runs on that thread alone.

Measured on the 2-core development machine (benchmarks/parallel.py): a parallel loop of two
chunks costs about 60-100 µs more than its serial run (the callback, two queue hand-offs and
ctypes calls), so loops of a millisecond and more gain.
"""

from __future__ import annotations

import ctypes
import os
import queue
import threading

from script.backend.llvm.abi import ENV_EXC, ENV_STATUS

ENV_SIZE = 136          # sizeof(Env), llvm.abi: the status record every thread fills
_STACK = 8 << 20        # the pool threads' stacks (runtime.entry's budget: a quarter)

_WORKER = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)
_RUN = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)


def _default_threads() -> int:
    text = os.environ.get("SCRIPT_NUM_THREADS", "")
    if text.strip().isdigit() and int(text) > 0:
        return int(text)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class _Pool:
    """Threads waiting on one queue of jobs; a job is (worker, ctx, env, done)."""

    def __init__(self):
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        self.threads: list[threading.Thread] = []
        self.lock = threading.Lock()
        self.local = threading.local()

    def ensure(self, n: int) -> None:
        with self.lock:
            if len(self.threads) >= n:
                return
            old = threading.stack_size(_STACK)
            try:
                while len(self.threads) < n:
                    t = threading.Thread(target=self.serve, name=f"script-parallel-{len(self.threads)}",
                                         daemon=True)
                    t.start()
                    self.threads.append(t)
            finally:
                threading.stack_size(old)

    def serve(self) -> None:
        self.local.worker = True
        while True:
            worker, ctx, env, done, job = self.jobs.get()
            try:
                failed = worker(ctx, env, 1)
            except BaseException:  # noqa: BLE001 - a native call raises nothing; keep the thread
                failed = -2
            done.put((job, failed))


_pool = _Pool()
_table = (ctypes.c_int64 * 2)()


def _after_fork() -> None:
    """A child of fork has none of the parent's threads: a new, empty pool."""
    global _pool
    _pool = _Pool()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


def _run(worker_address, ctx, env) -> int:
    """Run a loop's worker on the pool's threads; copy the exception of the smallest failing
    chunk into `env` and return 1, or return 0. Never lets a Python exception escape (a
    ctypes callback would print and drop it)."""
    try:
        worker = _workers.get(worker_address)
        if worker is None:
            worker = _workers[worker_address] = _WORKER(worker_address)
        if getattr(_pool.local, "worker", False):       # nested in a prange loop: run here
            return 1 if worker(ctx, env, 0) >= 0 else 0
        n = int(_table[1])
        _pool.ensure(n - 1)
        done: queue.SimpleQueue = queue.SimpleQueue()
        envs = [ctypes.create_string_buffer(ENV_SIZE) for _ in range(n)]
        for e in envs:
            ctypes.memmove(e, env, ENV_SIZE)            # the call's stack limit, SIGINT count...
            ctypes.c_int32.from_buffer(e, ENV_STATUS).value = 0
        for job in range(1, n):
            _pool.jobs.put((worker, ctx, ctypes.addressof(envs[job]), done, job))
        results, interrupted = [0] * n, False
        results[0] = worker(ctx, ctypes.addressof(envs[0]), 2)     # this thread works too
        waiting = n - 1
        while waiting:
            try:
                job, failed = done.get()
            except KeyboardInterrupt:
                interrupted = True                      # the chunks run on: wait for them
                continue
            results[job] = failed
            waiting -= 1
        failures = sorted((k, job) for job, k in enumerate(results) if k >= 0)
        if failures:
            ctypes.memmove(env, envs[failures[0][1]], ENV_SIZE - 24)     # status, class, message
            return 1
        if interrupted or -2 in results:
            _raise_in(env, "KeyboardInterrupt" if interrupted else "SystemError")
            return 1
        return 0
    except BaseException:  # noqa: BLE001 - see the docstring
        _raise_in(env, "SystemError")
        return 1


def _raise_in(env, name: str) -> None:
    """Record exception `name`, without a message, in the Env at address `env`."""
    from script.backend.runtime.capi import EXCEPTION_CLASSES
    ctypes.c_int32.from_address(env + ENV_EXC).value = EXCEPTION_CLASSES.index(name)
    ctypes.c_void_p.from_address(env + 8).value = None
    ctypes.c_int32.from_address(env + ENV_STATUS).value = 1


_callback = _RUN(_run)
_workers: dict[int, object] = {}       # a worker's address -> its ctypes function (same type)


def table_address() -> int:
    """The address of ``script.parallel``, filled on first use."""
    if _table[0] == 0:
        _table[0] = ctypes.cast(_callback, ctypes.c_void_p).value
        _table[1] = _default_threads()
    return ctypes.addressof(_table)


def set_num_threads(n: int) -> None:
    """Run prange loops on `n` threads from now on (1: in the calling thread). The answer
    does not depend on it: a loop's chunks and the order its reductions combine them are
    fixed by its length alone."""
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"the number of threads must be an int >= 1, not {n!r}")
    table_address()
    _table[1] = n


def get_num_threads() -> int:
    """The number of threads prange loops run on."""
    table_address()
    return int(_table[1])
