"""Kernels run as plain Python, for pdb, coverage and profilers (SCRIPT_DISABLE_JIT=1 or
`script.config.disable_jit`; Numba's CUDA simulator plays the same part).

A launch ``k[grid, block](*args)`` calls the kernel's Python function once per thread, block
after block, with the kernel-language markers of script.cuda answering for the thread that
runs (`script.cuda.simulated.thread`): `cuda.threadIdx.x` is an int, `cuda.grid(1)` too,
`cuda.shared.array` the block's NumPy array for that call site (zeroed), `cuda.atomic.*`
read-modify-write under one lock, and `cuda.syncthreads()` waits for the block's other
threads. Nothing is compiled and arguments are passed as they are (a `DeviceArray` as its
host array); the first exception a thread raises stops the launch and is raised by it.

A kernel whose code never names `syncthreads` (nor any function it calls by a global name)
runs its threads one after another in the calling thread, so a profiler or a debugger that
follows one thread sees them all; one with barriers runs each block's threads as OS threads.
A barrier counts the threads still running, so threads that returned early do not block it
(as on Volta and later GPUs); threads that stop at different `syncthreads()` calls are an
error, as on the compiled CPU path.
"""

from __future__ import annotations

import sys
import threading
import types

from script.cuda import simulated
from script.cuda.kernel import _dim3

_atomic_lock = threading.Lock()


class SimulatedKernel:
    """What `@script.kernel` returns without the JIT: ``k[grid, block](*args)`` runs
    `py_func` once per thread (a stream and dynamic shared bytes may be given, and are
    ignored)."""

    def __init__(self, py_func):
        self.py_func = self.__wrapped__ = py_func
        self.__name__, self.__qualname__ = py_func.__name__, py_func.__qualname__
        self.__doc__ = py_func.__doc__
        self._barriers: bool | None = None

    def __repr__(self):
        return f"<script kernel {self.__qualname__} (simulated in Python)>"

    def __call__(self, *args, **kwargs):
        raise TypeError(f"a kernel is launched with a configuration: {self.__name__}[grid, block](...)")

    def __getitem__(self, config):
        config = tuple(config) if isinstance(config, tuple) else (config,)
        if not 2 <= len(config) <= 4:
            raise ValueError("a launch is kernel[grid, block], kernel[grid, block, stream] or "
                             "kernel[grid, block, stream, shared_bytes]")
        grid, block = _dim3(config[0], "grid"), _dim3(config[1], "block")
        return lambda *args: self.run(grid, block, args)

    def run(self, grid: tuple, block: tuple, args: tuple) -> None:
        from script.cuda.devicearray import host_view
        args = [host_view(a) for a in args]
        if self._barriers is None:
            self._barriers = "syncthreads" in _names_used(self.py_func.__code__, self.py_func.__globals__)
        for bz in range(grid[2]):
            for by in range(grid[1]):
                for bx in range(grid[0]):
                    block_state = _Block((bx, by, bz), block, grid)
                    if self._barriers:
                        _run_threaded(self.py_func, args, block_state)
                    else:
                        for tid in block_state.thread_ids():
                            _run_thread(self.py_func, args, _Thread(tid, block_state))


def _names_used(code: types.CodeType, globals_: dict, seen: set | None = None) -> set:
    """The global and attribute names `code` and its nested code read, and those of the Python
    functions it names as globals (device functions), transitively."""
    seen = set() if seen is None else seen
    if code in seen:
        return set()
    seen.add(code)
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= _names_used(c, globals_, seen)
    for n in code.co_names:
        f = globals_.get(n)
        f = getattr(f, "py_func", f)
        if isinstance(f, types.FunctionType):
            names |= _names_used(f.__code__, f.__globals__, seen)
    return names


class _Block:
    """What the threads of one block share: their dimensions, shared arrays, the barrier."""

    def __init__(self, block_idx: tuple, block_dim: tuple, grid_dim: tuple):
        self.block_idx, self.block_dim, self.grid_dim = block_idx, block_dim, grid_dim
        self.shared: dict = {}
        self.lock = threading.Condition()
        self.running = block_dim[0] * block_dim[1] * block_dim[2]
        self.waiting: list = []             # the call sites of the threads at the barrier
        self.generation = 0
        self.failed = False

    def thread_ids(self):
        nx, ny, nz = self.block_dim
        return [(x, y, z) for z in range(nz) for y in range(ny) for x in range(nx)]

    def shared_array(self, site, shape, dtype):
        import numpy as np
        with self.lock:
            a = self.shared.get(site)
            if a is None:
                dtype = getattr(dtype, "ir_type", None) or dtype
                if not isinstance(dtype, (type, np.dtype, str)):
                    from script.frontend.typeinfer import numpy_name
                    dtype = numpy_name(dtype)
                a = self.shared[site] = np.zeros(shape, dtype)
            return a

    def barrier(self, site) -> None:
        with self.lock:
            if self.waiting and self.waiting[0] != site:
                self._fail()
                from script.backend.llvm.grid import DIVERGED
                raise RuntimeError(DIVERGED)
            self.waiting.append(site)
            generation = self.generation
            self._release_if_all_wait()
            while self.generation == generation and not self.failed:
                self.lock.wait()
            if self.failed and self.generation == generation:
                raise _Stopped()

    def exit(self) -> None:
        with self.lock:
            self.running -= 1
            self._release_if_all_wait()

    def _release_if_all_wait(self) -> None:
        if self.waiting and len(self.waiting) == self.running:
            self.waiting = []
            self.generation += 1
            self.lock.notify_all()

    def _fail(self) -> None:
        self.failed = True
        self.lock.notify_all()


class _Stopped(Exception):
    """Raised in threads waiting at a barrier when another thread of the block failed."""


class _Thread:
    """One simulated thread: what the markers of script.cuda answer with."""

    def __init__(self, tid: tuple, block: _Block):
        self.block = block
        self.dims = {"threadIdx": tid, "blockIdx": block.block_idx, "blockDim": block.block_dim,
                     "gridDim": block.grid_dim}

    def call(self, name: str, args: tuple, kwargs: dict):
        if name in ("grid", "gridsize"):
            (ndim,) = args
            if ndim not in (1, 2, 3):
                raise ValueError(f"cuda.{name}() takes 1, 2 or 3, not {ndim!r}")
            d = self.dims
            if name == "grid":
                v = tuple(d["blockIdx"][k] * d["blockDim"][k] + d["threadIdx"][k] for k in range(ndim))
            else:
                v = tuple(d["blockDim"][k] * d["gridDim"][k] for k in range(ndim))
            return v[0] if ndim == 1 else v
        if name == "syncthreads":
            return self.block.barrier(_call_site())
        if name == "shared.array":
            return self.block.shared_array(_call_site(), *args, **kwargs)
        return _ATOMICS[name](*args)


def _call_site():
    """The code and instruction of the kernel's line calling a marker (two frames up)."""
    frame = sys._getframe(3)
    return frame.f_code, frame.f_lasti


def _atomic(update):
    def apply(a, i, v):
        with _atomic_lock:
            old = a[i]
            a[i] = update(old, v)
            return old
    return apply


def _cas(a, i, expected, new):
    with _atomic_lock:
        old = a[i]
        if old == expected:
            a[i] = new
        return old


_ATOMICS = {"atomic.add": _atomic(lambda old, v: old + v), "atomic.max": _atomic(max),
            "atomic.min": _atomic(min), "atomic.cas": _cas}


def _run_thread(py_func, args, thread: _Thread) -> None:
    simulated.thread = thread
    try:
        py_func(*args)
    finally:
        simulated.thread = None
        thread.block.exit()


def _run_threaded(py_func, args, block: _Block) -> None:
    """Each thread of `block` in an OS thread; the first exception is raised here."""
    errors: list = []

    def body(thread: _Thread):
        try:
            _run_thread(py_func, args, thread)
        except _Stopped:
            pass
        except BaseException as e:  # noqa: BLE001 - raised again by the launch
            with block.lock:
                errors.append(e)
                block._fail()

    threads = [threading.Thread(target=body, args=(_Thread(tid, block),), daemon=True)
               for tid in block.thread_ids()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
