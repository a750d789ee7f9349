"""Device arrays (`cuda.to_device`, `cuda.device_array`, `.copy_to_host()`) and streams
(`cuda.stream()`).

A `DeviceArray` is C-contiguous. On the GPU it owns device memory (freed when the object
goes); on the CPU path (no GPU, or `cuda.select("cpu")`) it holds a NumPy array, so the same
program runs unchanged on both.
"""

from __future__ import annotations

import numpy as np

from script.frontend.typeinfer import array_type_of


class DeviceArray:
    """`shape`, `dtype`, `size`, `nbytes`, `ndim`, `strides`; `copy_to_host(out=None)`,
    `copy_to_device(host)`. `ir_type` is the array type kernels see."""

    def __init__(self, shape, dtype, host: np.ndarray | None = None, pointer: int | None = None):
        self.shape = tuple(int(n) for n in shape)
        self.dtype = np.dtype(dtype)
        self._host = host               # the CPU path's storage
        self._pointer = pointer         # the GPU's (driver.Allocation)
        self.ir_type = array_type_of(np.empty((1,) * len(self.shape), self.dtype)).with_layout("C")
        self.type_key = (DeviceArray, self.dtype.str, len(self.shape))     # Kernel.types_of's memo
        self.strides = _c_strides(self.shape, self.dtype.itemsize)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    @property
    def device_pointer(self) -> int:
        return int(self._pointer) if self._pointer is not None else 0

    def copy_to_host(self, out: np.ndarray | None = None, stream=None) -> np.ndarray:
        if out is None:
            out = np.empty(self.shape, self.dtype)
        if self._host is not None:
            np.copyto(out, self._host)
            return out
        from script.cuda.driver import get_driver, stream_handle
        if not out.flags.c_contiguous or out.nbytes != self.nbytes:
            raise ValueError("copy_to_host needs a C-contiguous array of the same size")
        get_driver().copy_to_host(out, self.device_pointer, self.nbytes, stream_handle(stream))
        return out

    def copy_to_device(self, host, stream=None) -> None:
        host = np.ascontiguousarray(host, self.dtype).reshape(self.shape)
        if self._host is not None:
            np.copyto(self._host, host)
            return
        from script.cuda.driver import get_driver, stream_handle
        get_driver().copy_to_device(self.device_pointer, host, self.nbytes, stream_handle(stream))

    def __repr__(self):
        where = "host memory (CPU path)" if self._host is not None else "GPU"
        return f"<DeviceArray {self.shape} {self.dtype} on {where}>"


def _c_strides(shape, itemsize: int) -> tuple:
    out, s = [], itemsize
    for n in reversed(shape):
        out.insert(0, s)
        s *= n
    return tuple(out)


def device_array(shape, dtype, uses_gpu) -> DeviceArray:
    """An uninitialized array; `uses_gpu`: script.cuda's (which imports this module)."""
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    dtype = np.dtype(dtype)
    if not uses_gpu():
        return DeviceArray(shape, dtype, host=np.empty(shape, dtype))
    from script.cuda.driver import get_driver
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    return DeviceArray(shape, dtype, pointer=get_driver().alloc(nbytes))


def to_device(array, stream, uses_gpu) -> DeviceArray:
    """A copy of `array`; `uses_gpu`: script.cuda's."""
    host = np.ascontiguousarray(array)
    if array_type_of(host) is None:
        raise TypeError(f"arrays of {host.dtype} cannot be passed to kernels")
    if not uses_gpu():
        return DeviceArray(host.shape, host.dtype, host=host.copy())
    d = device_array(host.shape, host.dtype, uses_gpu)
    d.copy_to_device(host, stream)
    return d


def host_view(value):
    """A CPU-path argument: a DeviceArray's NumPy storage, anything else as it is."""
    if isinstance(value, DeviceArray):
        if value._host is None:
            raise ValueError("this DeviceArray lives on the GPU; the kernel runs on the CPU: copy it "
                             "with .copy_to_host() first")
        return value._host
    return value


class Stream:
    """A CUDA stream (`cuda.stream()`): pass it as a launch's third item,
    `k[grid, block, stream](...)`, or to copies; `synchronize()` waits for its work. On the
    CPU path it is the default stream and work is done when a launch returns. `uses_gpu`:
    script.cuda's."""

    def __init__(self, uses_gpu):
        self._handle = 0
        if uses_gpu():
            from script.cuda.driver import get_driver
            self._driver = get_driver()
            self._handle = self._driver.create_stream()

    @property
    def handle(self) -> int:
        return self._handle

    def __int__(self) -> int:
        return self._handle

    def synchronize(self) -> None:
        if self._handle:
            self._driver.synchronize_stream(self._handle)

    def __del__(self):
        if self._handle:
            try:
                self._driver.destroy_stream(self._handle)
            except Exception:  # noqa: BLE001 - interpreter shutdown, context gone
                pass

    def __repr__(self):
        return f"<cuda stream {self._handle:#x}>" if self._handle else "<cuda default stream>"
