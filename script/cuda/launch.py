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

import numpy as np

from script.ir import types as T
from script.ir.ops import EXCEPTIONS
from script.backend.llvm.abi import KINDS_SHIFT, format_message
from script.backend.nvptx.abi import ERROR_SYMBOL, kernel_param_kinds

_CTYPES = {T.I8: ctypes.c_int8, T.I16: ctypes.c_int16, T.I32: ctypes.c_int32, T.I64: ctypes.c_int64,
           T.U8: ctypes.c_uint8, T.U16: ctypes.c_uint16, T.U32: ctypes.c_uint32, T.U64: ctypes.c_uint64,
           T.F32: ctypes.c_float, T.F64: ctypes.c_double, T.BOOL: ctypes.c_uint8}


class LoadedKernel:
    """A kernel's PTX loaded into the current context."""

    def __init__(self, driver, code):
        self.module = driver.load_module(code.text)
        self.function = driver.function(self.module, code.name)
        # the record's size is the PTX's own: a saved module's PTX from before the message
        # slots grew (nvptx.abi ERROR_WORDS) has a smaller one
        self.error_record, size = driver.global_address(self.module, ERROR_SYMBOL)
        self.error_words = size // 8
        self.messages = code.messages
        # the record's declaration is one mention; a kernel that cannot raise has no other
        self.can_raise = code.text.count(ERROR_SYMBOL) > 1


def _loaded(kernel, types, driver) -> LoadedKernel:
    cache = kernel.__dict__.setdefault("_loaded", {})
    key = (types, driver.arch)
    loaded = cache.get(key)
    if loaded is None:
        loaded = cache[key] = LoadedKernel(driver, kernel.device_ptx(types, driver.arch))
    return loaded


def launch_gpu(kernel, types: tuple, values: list, config) -> None:
    from script.cuda.devicearray import DeviceArray, to_device
    from script.cuda.driver import get_driver, stream_handle
    driver = get_driver()
    loaded = _loaded(kernel, types, driver)
    stream = stream_handle(config.stream)
    copies = []                    # (host array, device array) to copy back
    params = []
    for t, v in zip(types, values):
        if isinstance(t, T.ArrayType):
            if not isinstance(v, DeviceArray):
                host = np.asarray(v)
                v = to_device(host, stream)       # C-contiguous on the device
                copies.append((host, v))
            elif v._pointer is None:
                raise ValueError("this DeviceArray was made on the CPU path (cuda.select('cpu')); "
                                 "make it again with cuda.to_device on the GPU")
            params.append(ctypes.c_uint64(v.device_pointer))
            params += [ctypes.c_int64(n) for n in v.shape]
            params += [ctypes.c_int64(s) for s in v.strides]
        else:
            params.append(_CTYPES[t](v))
    assert len(params) == len(kernel_param_kinds(types))
    driver.launch(loaded.function, config.grid, config.block, int(config.shared_bytes or 0),
                  stream, params)
    if not (copies or loaded.can_raise):
        return
    if stream:
        driver.synchronize_stream(stream)
    else:
        driver.synchronize()
    if loaded.can_raise:
        _raise_recorded(driver, loaded)
    for host, d in copies:
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
    raise exc(*(() if message is None else (message,)))
