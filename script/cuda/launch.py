"""Launching a kernel on the GPU: PTX loaded per (signature, GPU), arguments packed, results
copied back, the error record read.

Host NumPy arrays are copied to the device before the launch and back after it (all of
them: a kernel may write any array it receives); device arrays are passed as they are.
A launch waits for the kernel (on its stream) when host arrays must be copied back or when
the kernel can raise (its PTX writes the error record), so that an exception is raised by the
launch that caused it; otherwise it returns at once, as CUDA launches do, and a copy to the
host or `cuda.synchronize()` waits.
"""

from __future__ import annotations

import builtins
import ctypes
import struct
import threading

import numpy as np

from script.ir import types as T
from script.ir.ops import EXCEPTIONS
from script.backend.llvm.abi import KINDS_SHIFT, format_message
from script.backend.nvptx.abi import ERROR_SYMBOL, kernel_param_kinds
from script.cuda import uses_gpu
from script.cuda.devicearray import DeviceArray, to_device
from script.cuda.driver import get_driver, stream_handle

_FORMATS = {T.I8: "b", T.I16: "h", T.I32: "i", T.I64: "q", T.U8: "B", T.U16: "H", T.U32: "I",
            T.U64: "Q", T.F32: "f", T.F64: "d", T.BOOL: "?"}


class LoadedKernel:
    """A kernel's PTX loaded into the current context, with the layout of its parameters:
    one buffer (`extra` of cuLaunchKernel) packed with `struct`'s native alignment, which is
    the alignment of PTX kernel parameters (abi.kernel_param_kinds)."""

    def __init__(self, driver, code, types):
        self.driver, self.types = driver, types
        self.module = driver.load_module(code.text)
        self.function = driver.function(self.module, code.name).value
        # the record's size is the PTX's own: a saved module's PTX from before the message
        # slots grew (nvptx.abi ERROR_WORDS) has a smaller one
        self.error_record, size = driver.global_address(self.module, ERROR_SYMBOL)
        self.error_words = size // 8
        self.messages = code.messages
        # the record's declaration is one mention; a kernel that cannot raise has no other
        self.can_raise = code.text.count(ERROR_SYMBOL) > 1
        self.arrays = tuple(isinstance(t, T.ArrayType) for t in types)
        self.params = struct.Struct("@" + "".join("Q" + "q" * 2 * t.ndim if isinstance(t, T.ArrayType)
                                                  else _FORMATS[t] for t in types))
        assert len(self.params.format) - 1 == len(kernel_param_kinds(types))
        self.buffer = (ctypes.c_char * max(self.params.size, 1))()
        self.size = ctypes.c_size_t(self.params.size)
        # CU_LAUNCH_PARAM_BUFFER_POINTER, the buffer, CU_LAUNCH_PARAM_BUFFER_SIZE, its size, END
        self.extra = (ctypes.c_void_p * 5)(1, ctypes.addressof(self.buffer), 2, ctypes.addressof(self.size), 0)
        self.lock = threading.Lock()


def _loaded(kernel, types, driver) -> LoadedKernel:
    last = kernel.__dict__.get("_loaded_last")
    if last is not None and last.types is types and last.driver is driver:
        return last                # the same memoized signature as the last launch: no hashing
    cache = kernel.__dict__.setdefault("_loaded", {})
    key = (types, driver.arch)
    loaded = cache.get(key)
    if loaded is None:
        loaded = cache[key] = LoadedKernel(driver, kernel.device_ptx(types, driver.arch), types)
    kernel._loaded_last = loaded
    loaded.types = types
    return loaded


def launch_gpu(kernel, types: tuple, values: list, config) -> None:
    driver = get_driver()
    loaded = _loaded(kernel, types, driver)
    if 0 in config.grid or 0 in config.block:
        return                     # no threads: the driver would reject the launch
    stream = stream_handle(config.stream)
    copies = None                  # (host array, device array) to copy back
    flat = []
    for is_array, v in zip(loaded.arrays, values):
        if not is_array:
            flat.append(v)
            continue
        if type(v) is not DeviceArray:
            host = np.asarray(v)
            v = to_device(host, stream, uses_gpu)       # C-contiguous on the device
            copies = copies or []
            copies.append((host, v))
        elif v._pointer is None:
            raise ValueError("this DeviceArray was made on the CPU path (cuda.select('cpu')); "
                             "make it again with cuda.to_device on the GPU")
        flat.append(v.device_pointer)
        flat += v.shape
        flat += v.strides
    with loaded.lock:              # the buffer is read by the driver during the call
        try:
            loaded.params.pack_into(loaded.buffer, 0, *flat)
        except struct.error as e:
            raise OverflowError(f"{kernel.__name__}(): an argument does not fit its parameter's type "
                                f"({', '.join(map(str, types))}): {e}") from None
        driver.launch(loaded.function, config.grid, config.block, config.shared_bytes, stream, loaded.extra)
    if not (copies or loaded.can_raise):
        return
    if stream:
        driver.synchronize_stream(stream)
    else:
        driver.synchronize()
    if loaded.can_raise:
        _raise_recorded(driver, loaded)
    for host, d in copies or ():
        if host.flags.writeable:
            back = d.copy_to_host(stream=stream)
            np.copyto(host, back.reshape(host.shape))


def _raise_recorded(driver, loaded: LoadedKernel) -> None:
    """Raise the exception a thread recorded (nvptx.abi), after zeroing the record."""
    record = np.zeros(loaded.error_words, np.int64)
    driver.copy_to_host(record, loaded.error_record, record.nbytes)
    if record[0] == 0:
        return
    driver.copy_to_device(loaded.error_record, np.zeros(loaded.error_words, np.int64), record.nbytes)
    index = int(record[1]) & ((1 << KINDS_SHIFT) - 1)      # the rest: where the slot kinds are
    exc = getattr(builtins, EXCEPTIONS[index], RuntimeError) if index < len(EXCEPTIONS) else RuntimeError
    message = None
    k = int(record[2])
    if 0 <= k < len(loaded.messages):
        message = format_message(loaded.messages[k], [int(a) for a in record[3:]])
    if message is not None and message.startswith("\x02"):     # a user class (frontend/user_exceptions)
        from script.pyhooks.caught_text import user_exception
        raise user_exception(message[1:])
    if message is not None and message.startswith("\x01"):     # its arguments' repr (frontend/messages.py)
        from script.pyhooks.keyerror import key_args
        raise exc(*key_args(message[1:]))
    raise exc(*(() if message is None else (message,)))
