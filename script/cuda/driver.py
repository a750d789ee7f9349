"""The CUDA driver API through ctypes (``libcuda.so``), loaded on first use.

Only what launches need: the primary context of device 0, module loading from PTX (the driver
JIT-compiles it for the GPU), device memory, copies, launches, the module's error record.
No NVIDIA Python package is needed; `driver_available()` is False, never an exception, on a
machine without a driver or GPU. Every failing call raises `CudaError` with the driver's
name of the error.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import threading

from script.errors import CudaError

_lock = threading.Lock()
_driver = None
_failure: str | None = None
_thread = threading.local()         # .current: the driver's context is current in this thread

CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36
CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37
CU_JIT_ERROR_LOG_BUFFER = 5
CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6


def _load_library():
    names = ["libcuda.so.1", "libcuda.so", ctypes.util.find_library("cuda"), "nvcuda.dll"]
    errors = []
    for name in filter(None, names):
        try:
            return ctypes.CDLL(name)
        except OSError as e:
            errors.append(str(e))
    raise CudaError("no CUDA driver (libcuda) could be loaded: " + "; ".join(errors[:2]))


class Allocation:
    """Device memory, freed when the object is collected."""

    def __init__(self, driver: "Driver", pointer: int, nbytes: int):
        self.driver, self.pointer, self.nbytes = driver, pointer, nbytes

    def __int__(self) -> int:
        return self.pointer

    def __del__(self):
        try:
            self.driver.free(self.pointer)
        except Exception:  # noqa: BLE001 - interpreter shutdown, context gone
            pass


class Driver:
    """The loaded driver with device 0's primary context current."""

    def __init__(self):
        self.lib = lib = _load_library()
        self._check(lib.cuInit(0), "cuInit")
        count = ctypes.c_int()
        self._check(lib.cuDeviceGetCount(ctypes.byref(count)), "cuDeviceGetCount")
        if count.value < 1:
            raise CudaError("the CUDA driver reports no GPU")
        self.device = ctypes.c_int()
        self._check(lib.cuDeviceGet(ctypes.byref(self.device), 0), "cuDeviceGet")
        self.context = ctypes.c_void_p()
        self._check(lib.cuDevicePrimaryCtxRetain(ctypes.byref(self.context), self.device),
                    "cuDevicePrimaryCtxRetain")
        self.make_current()
        major, minor = (self.attribute(a) for a in (CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                                    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR))
        self.arch = f"sm_{major}{minor}"
        name = ctypes.create_string_buffer(256)
        lib.cuDeviceGetName(name, 256, self.device)
        self.name = name.value.decode(errors="replace")
        for fn in ("cuMemAlloc_v2", "cuMemcpyHtoD_v2", "cuMemcpyDtoH_v2", "cuMemFree_v2",
                   "cuModuleGetGlobal_v2", "cuMemcpyHtoDAsync_v2", "cuMemcpyDtoHAsync_v2"):
            getattr(lib, fn).restype = ctypes.c_int
        self._launch = lib.cuLaunchKernel
        self._launch.restype = ctypes.c_int
        self._launch.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 7 + [ctypes.c_void_p] * 3

    def _check(self, status: int, what: str) -> None:
        if status == 0:
            return
        text = ctypes.c_char_p()
        try:
            self.lib.cuGetErrorName(status, ctypes.byref(text))
        except Exception:  # noqa: BLE001
            pass
        name = text.value.decode() if text.value else f"error {status}"
        raise CudaError(f"{what} failed: {name}")

    def make_current(self) -> None:
        self._check(self.lib.cuCtxSetCurrent(self.context), "cuCtxSetCurrent")

    def attribute(self, attr: int) -> int:
        v = ctypes.c_int()
        self._check(self.lib.cuDeviceGetAttribute(ctypes.byref(v), attr, self.device), "cuDeviceGetAttribute")
        return v.value

    def dram_peak_gbs(self) -> float:
        """Theoretical DRAM bandwidth: 2 (DDR) x memory clock x bus width."""
        khz = self.attribute(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE)
        bits = self.attribute(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH)
        return 2.0 * khz * 1e3 * bits / 8 / 1e9

    # ---- memory -----------------------------------------------------------------------------

    def alloc(self, nbytes: int) -> Allocation:
        ptr = ctypes.c_uint64()
        self._check(self.lib.cuMemAlloc_v2(ctypes.byref(ptr), ctypes.c_size_t(max(nbytes, 1))), "cuMemAlloc")
        return Allocation(self, ptr.value, nbytes)

    def free(self, pointer: int) -> None:
        self.lib.cuMemFree_v2(ctypes.c_uint64(pointer))

    def copy_to_device(self, pointer: int, host, nbytes: int, stream=None) -> None:
        src = ctypes.c_void_p(host.ctypes.data)
        if stream:
            self._check(self.lib.cuMemcpyHtoDAsync_v2(ctypes.c_uint64(pointer), src, ctypes.c_size_t(nbytes),
                                                      ctypes.c_void_p(int(stream))), "cuMemcpyHtoDAsync")
        else:
            self._check(self.lib.cuMemcpyHtoD_v2(ctypes.c_uint64(pointer), src, ctypes.c_size_t(nbytes)),
                        "cuMemcpyHtoD")

    def copy_to_host(self, host, pointer: int, nbytes: int, stream=None) -> None:
        dst = ctypes.c_void_p(host.ctypes.data)
        if stream:
            self._check(self.lib.cuMemcpyDtoHAsync_v2(dst, ctypes.c_uint64(pointer), ctypes.c_size_t(nbytes),
                                                      ctypes.c_void_p(int(stream))), "cuMemcpyDtoHAsync")
            self.synchronize_stream(stream)
        else:
            self._check(self.lib.cuMemcpyDtoH_v2(dst, ctypes.c_uint64(pointer), ctypes.c_size_t(nbytes)),
                        "cuMemcpyDtoH")

    # ---- modules and launches ---------------------------------------------------------------

    def load_module(self, ptx: str):
        """(module handle, error record address, its size) for PTX text; the driver compiles
        it for this GPU."""
        module = ctypes.c_void_p()
        log = ctypes.create_string_buffer(8192)
        opts = (ctypes.c_int * 2)(CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
        vals = (ctypes.c_void_p * 2)(ctypes.cast(log, ctypes.c_void_p), ctypes.c_void_p(8192))
        status = self.lib.cuModuleLoadDataEx(ctypes.byref(module), ptx.encode() + b"\0", 2, opts, vals)
        if status != 0:
            try:
                self._check(status, "cuModuleLoadDataEx")
            except CudaError as e:
                raise CudaError(f"{e}\n{log.value.decode(errors='replace')}") from None
        return module

    def function(self, module, name: str):
        fn = ctypes.c_void_p()
        self._check(self.lib.cuModuleGetFunction(ctypes.byref(fn), module, name.encode()), "cuModuleGetFunction")
        return fn

    def global_address(self, module, name: str) -> tuple[int, int]:
        ptr, size = ctypes.c_uint64(), ctypes.c_size_t()
        self._check(self.lib.cuModuleGetGlobal_v2(ctypes.byref(ptr), ctypes.byref(size), module, name.encode()),
                    "cuModuleGetGlobal")
        return ptr.value, size.value

    def launch(self, fn: int, grid, block, shared_bytes: int, stream: int, extra) -> None:
        """Launch with the parameters packed in one buffer (`extra`: cuLaunchKernel's list of
        CU_LAUNCH_PARAM_BUFFER_POINTER, the buffer, CU_LAUNCH_PARAM_BUFFER_SIZE, its size, END)."""
        status = self._launch(fn, *grid, *block, shared_bytes, stream, None, extra)
        if status:
            self._check(status, "cuLaunchKernel")

    def synchronize(self) -> None:
        self._check(self.lib.cuCtxSynchronize(), "cuCtxSynchronize (the kernel failed)")

    def synchronize_stream(self, stream) -> None:
        self._check(self.lib.cuStreamSynchronize(ctypes.c_void_p(int(stream))), "cuStreamSynchronize")

    # ---- streams and events -----------------------------------------------------------------

    def create_stream(self) -> int:
        handle = ctypes.c_void_p()
        self._check(self.lib.cuStreamCreate(ctypes.byref(handle), 0), "cuStreamCreate")
        return handle.value

    def destroy_stream(self, handle: int) -> None:
        self.lib.cuStreamDestroy_v2(ctypes.c_void_p(handle))

    def create_event(self) -> int:
        handle = ctypes.c_void_p()
        self._check(self.lib.cuEventCreate(ctypes.byref(handle), 0), "cuEventCreate")
        return handle.value

    def record_event(self, event: int, stream=0) -> None:
        self._check(self.lib.cuEventRecord(ctypes.c_void_p(event), ctypes.c_void_p(int(stream or 0))),
                    "cuEventRecord")

    def elapsed_ms(self, start: int, end: int) -> float:
        """Milliseconds between two recorded events (waits for the second)."""
        self._check(self.lib.cuEventSynchronize(ctypes.c_void_p(end)), "cuEventSynchronize")
        ms = ctypes.c_float()
        self._check(self.lib.cuEventElapsedTime(ctypes.byref(ms), ctypes.c_void_p(start), ctypes.c_void_p(end)),
                    "cuEventElapsedTime")
        return ms.value


def stream_handle(stream) -> int:
    """The `CUstream` of a launch's stream argument: None or 0 (the default stream), an int
    handle, a `cuda.stream()`, or another library's stream object (the `__cuda_stream__`
    protocol, CuPy's `.ptr`, Numba's `.handle`)."""
    if stream is None:
        return 0
    if isinstance(stream, int) and not isinstance(stream, bool):
        return stream
    protocol = getattr(stream, "__cuda_stream__", None)
    if protocol is not None:
        return int(protocol()[1])
    for attr in ("ptr", "handle"):
        value = getattr(stream, attr, None)
        if value is not None:
            value = getattr(value, "value", value)      # a ctypes c_void_p
            return int(value or 0)
    try:
        return int(stream)
    except (TypeError, ValueError):
        raise TypeError(f"a launch's stream is an int handle or a stream object, not {type(stream).__name__}") \
            from None


def get_driver() -> Driver:
    """The process's driver; CudaError (with the reason) when there is none or no GPU."""
    global _driver, _failure
    if _driver is not None and getattr(_thread, "current", False):
        return _driver
    with _lock:
        if _driver is None:
            if _failure is not None:
                raise CudaError(_failure)
            try:
                _driver = Driver()
            except CudaError as e:
                _failure = f"no usable GPU: {e} (run kernels on the CPU with cuda.select('cpu') or SCRIPT_CUDA=cpu)"
                raise CudaError(_failure) from None
        else:
            _driver.make_current()
        _thread.current = True
        return _driver


def driver_available() -> bool:
    try:
        get_driver()
        return True
    except CudaError:
        return False
