"""The CUDA kernel language and the host API of `@script.kernel`.

Inside a kernel (and the device functions it calls)::

    cuda.grid(ndim), cuda.gridsize(ndim)
    cuda.threadIdx.x / .y / .z, cuda.blockIdx, cuda.blockDim, cuda.gridDim
    cuda.syncthreads()
    cuda.shared.array(shape, dtype)               # static shape: ints or a tuple of ints
    cuda.atomic.add(a, i, v), .max, .min          # the old value; i an int or a tuple
    cuda.atomic.cas(a, i, expected, new)

These names are markers: the frontend asks each for its own lowering (`__script_call__`,
`__script_value__`, see script/frontend/cuda_lowering.py). Called from Python they raise.

On the host: `select("auto" | "gpu" | "cpu")` (also the SCRIPT_CUDA environment variable)
chooses where `kernel[grid, block](...)` runs; `is_available()` says whether a GPU can be
used; `to_device`, `device_array`, `device_array_like`, `stream` and `synchronize` manage device memory
and work.
Nothing here imports NumPy, llvmlite or the driver until it is used. The modules of the
host API import this one (`uses_gpu`, `is_available`) and not the reverse, except the driver
and device arrays, which this one calls: they take `uses_gpu` as an argument, and `CudaError`
is in script.errors.
"""

from __future__ import annotations

import os
import threading

from script.errors import CudaError
from script.settings import config

__all__ = ["grid", "gridsize", "threadIdx", "blockIdx", "blockDim", "gridDim", "syncthreads",
           "shared", "atomic", "select", "selected", "is_available", "to_device", "device_array",
           "device_array_like", "stream", "synchronize", "CudaError"]


# ---- kernel-language markers ---------------------------------------------------------------

# The simulated thread this OS thread runs, while a kernel runs as Python (script.cuda.simulator:
# SCRIPT_DISABLE_JIT); the markers below then answer for it instead of raising.
simulated = threading.local()

class _Intrinsic:
    """A function of the kernel language, e.g. `cuda.grid`."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __call__(self, *args, **kwargs):
        thread = getattr(simulated, "thread", None)
        if thread is not None:
            return thread.call(self.name, args, kwargs)
        raise RuntimeError(f"cuda.{self.name}() can only be used inside a @script.kernel function "
                           "or a device function it calls")

    def __script_call__(self, builder, node):
        from script.frontend.cuda_lowering import lower_call
        return lower_call(self.name, builder, node)

    def __repr__(self):
        return f"<script.cuda.{self.name}>"


class _Register:
    """A special register read as a value, e.g. `cuda.threadIdx.x` (the IR's `sreg.tid_x`)."""

    __slots__ = ("reg", "spelling")

    def __init__(self, reg: str, spelling: str):
        self.reg = reg
        self.spelling = spelling

    def __script_value__(self, builder, node):
        from script.frontend.cuda_lowering import lower_register
        return lower_register(self.reg, builder, node)

    def __repr__(self):
        return f"<script.cuda.{self.spelling} (only inside kernels)>"


class _Dim3:
    """`cuda.threadIdx` and its kind: each axis a `_Register` for the compiler, an int in a
    simulated thread."""

    __slots__ = ("name", "regs")

    def __init__(self, reg: str, name: str):
        self.name = name
        self.regs = tuple(_Register(f"{reg}_{a}", f"{name}.{a}") for a in "xyz")

    def _axis(self, k: int):
        thread = getattr(simulated, "thread", None)
        return self.regs[k] if thread is None else thread.dims[self.name][k]

    x = property(lambda self: self._axis(0))
    y = property(lambda self: self._axis(1))
    z = property(lambda self: self._axis(2))


class _Namespace:
    def __init__(self, prefix: str, names):
        for n in names:
            setattr(self, n, _Intrinsic(f"{prefix}.{n}"))


grid = _Intrinsic("grid")
gridsize = _Intrinsic("gridsize")
syncthreads = _Intrinsic("syncthreads")
threadIdx = _Dim3("tid", "threadIdx")
blockDim = _Dim3("ntid", "blockDim")
blockIdx = _Dim3("ctaid", "blockIdx")
gridDim = _Dim3("nctaid", "gridDim")
shared = _Namespace("shared", ("array",))
atomic = _Namespace("atomic", ("add", "max", "min", "cas"))


# ---- where kernels run -----------------------------------------------------------------------

_MODES = ("auto", "gpu", "cpu")
_mode: str | None = None


def select(mode: str) -> None:
    """Run launches on the GPU ("gpu": an error when none is usable), on the CPU ("cpu"), or
    on the GPU when one is usable and else the CPU ("auto", the default). Overrides the
    SCRIPT_CUDA environment variable."""
    global _mode
    if mode not in _MODES:
        raise ValueError(f"cuda.select() takes one of {', '.join(map(repr, _MODES))}, not {mode!r}")
    _mode = mode


def selected() -> str:
    """The mode `select` chose, else SCRIPT_CUDA's, else "auto"."""
    if _mode is not None:
        return _mode
    env = os.environ.get("SCRIPT_CUDA", "auto").strip().lower() or "auto"
    if env not in _MODES:
        raise ValueError(f"SCRIPT_CUDA must be one of {', '.join(_MODES)}, not {env!r}")
    return env


def is_available() -> bool:
    """Whether a CUDA driver and at least one GPU can be used (the driver is loaded once)."""
    from script.cuda.driver import driver_available
    return driver_available()


def uses_gpu() -> bool:
    """Whether launches now go to the GPU (per `selected()`); raises CudaError for "gpu"
    when no GPU is usable."""
    mode = _mode or selected()
    if mode == "cpu":
        return False
    if config.disable_jit:       # kernels run as Python (script.cuda.simulator)
        return False
    if _driver.get is None:
        from script.cuda.driver import get_driver
        _driver.get = get_driver
    if mode == "gpu":
        _driver.get()               # raises CudaError with the reason
        return True
    try:
        _driver.get()
        return True
    except CudaError:
        return False


class _driver:
    get = None                      # script.cuda.driver.get_driver once imported


def to_device(array, stream=None):
    """A device copy of the NumPy array `array` (a `DeviceArray`)."""
    from script.cuda.devicearray import to_device as impl
    return impl(array, stream, uses_gpu)


def device_array(shape, dtype=float):
    """An uninitialized C-contiguous device array."""
    from script.cuda.devicearray import device_array as impl
    return impl(shape, dtype, uses_gpu)


def device_array_like(array):
    from script.cuda.devicearray import device_array as impl
    return impl(array.shape, array.dtype, uses_gpu)


def stream():
    """A new CUDA stream (`Stream`): `k[grid, block, s](...)`, `s.synchronize()`."""
    from script.cuda.devicearray import Stream
    return Stream(uses_gpu)


def synchronize() -> None:
    """Wait for all work on the GPU (nothing to wait for on the CPU path)."""
    if selected() != "cpu" and is_available():
        from script.cuda.driver import get_driver
        get_driver().synchronize()
