"""`@script.kernel`: the kernel object, its specializations, `ptx()`, `inspect()`, launches.

A kernel is specialized per tuple of argument types like `@script` functions (from the
annotations when every parameter has one, else from each launch's arguments), and compiled
separately for the GPU (PTX per architecture) and for the CPU (script.cuda.compile).

Checks. `boundscheck=None` (the default) checks array indices on the CPU path, where an
IndexError points at the bug, and not on the GPU, as CUDA C and Numba do; True or False
choose for both. Other checks (ZeroDivisionError, math domain errors, ...) are kept on both:
on a GPU the failing thread records the exception and stops, and the launch raises it
(nvptx.abi).
"""

from __future__ import annotations

import functools
import threading
from typing import NamedTuple

from script.cuda import uses_gpu
from script.errors import CompileError

_lock = threading.RLock()


def _dim3(value, what: str) -> tuple[int, int, int]:
    dims = tuple(value) if isinstance(value, (tuple, list)) else (value,)
    if not 1 <= len(dims) <= 3 or any(not isinstance(d, int) or isinstance(d, bool) or d < 0 for d in dims):
        raise ValueError(f"the {what} of a launch is an int >= 0 or a tuple of up to three, not {value!r}")
    return dims + (1,) * (3 - len(dims))


class Kernel:
    """What `@script.kernel` returns. ``kernel[grid, block](*args)`` launches it;
    ``kernel[grid, block, stream, shared_bytes]`` as well, on a stream with that much dynamic
    shared memory (GPU only)."""

    def __init__(self, py_func, arch: str | None = None, boundscheck: bool | None = None, opt: int = 2):
        from script.frontend.specialize import COMPILE_LOCK, CONTEXT
        if arch is not None:
            from script.backend.nvptx.abi import check_arch
            check_arch(arch)
        with COMPILE_LOCK:
            self._info = CONTEXT.info_for(py_func)
            self._info.bind_annotations()     # a kernel's are its signature, as in CUDA C
        self.py_func = py_func
        self.arch = arch
        self.boundscheck = boundscheck
        self.opt = opt
        self.__name__ = py_func.__name__
        self.__qualname__ = py_func.__qualname__
        self.__doc__ = py_func.__doc__
        self.__wrapped__ = py_func
        self._ptx: dict[tuple, object] = {}       # (types, arch) -> nvptx.target.PtxCode
        self._cpu: dict[tuple, object] = {}       # types -> compile.CpuKernel
        self._ir: dict[tuple, "IrText"] = {}      # (types, gpu) -> the optimized IR compiled
        self._launches: dict = {}                 # kernel[config] -> Launch (plain configs)
        self._arg_types: dict = {}                # types_of's memo (see there)

    def __repr__(self):
        return f"<script kernel {self.__qualname__}>"

    def __call__(self, *args, **kwargs):
        raise TypeError(f"a kernel is launched with a configuration: {self.__name__}[grid, block](...)")

    def __getitem__(self, config) -> "Launch":
        try:
            return self._launches[config]
        except (KeyError, TypeError):           # new, or unhashable (lists)
            pass
        key = config
        config = tuple(config) if isinstance(config, tuple) else (config,)
        if not 2 <= len(config) <= 4:
            raise ValueError("a launch is kernel[grid, block], kernel[grid, block, stream] or "
                             "kernel[grid, block, stream, shared_bytes]")
        grid, block = _dim3(config[0], "grid"), _dim3(config[1], "block")
        stream = config[2] if len(config) > 2 else None
        shared = config[3] if len(config) > 3 else 0
        if not isinstance(shared, int) or isinstance(shared, bool) or shared < 0:
            raise ValueError(f"the shared_bytes of a launch is an int >= 0, not {shared!r}")
        launch = Launch(self, grid, block, stream, shared)
        if isinstance(stream, (int, type(None))) and len(self._launches) < 64:
            try:
                self._launches[key] = launch
            except TypeError:
                pass
        return launch

    # ---- signatures ------------------------------------------------------------------------

    @property
    def signatures(self) -> list[tuple]:
        return list(dict.fromkeys([k[0] for k in self._ptx] + list(self._cpu)))

    def _types(self, signature) -> tuple:
        if signature is not None:
            from script.dispatcher import _signature_key
            return _signature_key(self, signature)
        if self._info.is_annotated:
            return tuple(self._info.param_types)
        known = self.signatures
        if len(known) == 1:
            return known[0]
        raise ValueError(f"{self.__name__} is not annotated: pass signature=(types...) or launch "
                         "it first")

    def types_of(self, args) -> tuple[tuple, list]:
        """The argument types of a launch and the arguments as the kernel takes them.
        Memoized on the Python types of the arguments (a device array's: its array type)
        when none is a host array: then only scalars are converted again."""
        key = tuple(getattr(v, "type_key", None) or type(v) for v in args)
        known = self._arg_types.get(key)
        if known is not None:
            types, converters = known
            try:
                return types, [v if c is None else c(v) for c, v in zip(converters, args)]
            except (TypeError, ValueError):
                pass                                # _types_of names the argument
        types, values = self._types_of(args)
        from script.ir import types as T
        from script.cuda.devicearray import DeviceArray
        if len(self._arg_types) < 64 and all(type(v) is DeviceArray or not isinstance(t, T.ArrayType)
                                             for t, v in zip(types, args)):
            from script.frontend.typeinfer import to_python_value
            converters = tuple(None if isinstance(t, T.ArrayType) or ann is None
                               else functools.partial(to_python_value, ann)
                               for t, ann in zip(types, self._info.param_types))
            self._arg_types[key] = (types, converters)
        return types, values

    def _types_of(self, args) -> tuple[tuple, list]:
        from script.cuda.devicearray import DeviceArray
        from script.frontend.typeinfer import to_python_value, typeof
        info = self._info
        if len(args) != len(info.param_names):
            raise TypeError(f"{self.__name__}() takes {len(info.param_names)} arguments, "
                            f"{len(args)} given")
        types, values = [], []
        for name, ann, value in zip(info.param_names, info.param_types, args):
            t = value.ir_type if isinstance(value, DeviceArray) else typeof(value)
            if ann is not None:
                from script.ir import types as T
                if isinstance(value, DeviceArray):
                    if not (t == ann or T.is_convertible(t, ann)):
                        raise TypeError(f"{self.__name__}(): argument '{name}' must be {ann}, not {t}")
                else:
                    try:
                        value = to_python_value(ann, value)
                    except (TypeError, ValueError):
                        raise TypeError(f"{self.__name__}(): argument '{name}' must be {ann}, not "
                                        f"{type(value).__name__}") from None
                t = ann
            elif t is None:
                raise TypeError(f"{self.__name__}(): argument '{name}' of type {type(value).__name__} "
                                "is not supported in kernels")
            types.append(t)
            values.append(value)
        return tuple(types), values

    # ---- compilation -----------------------------------------------------------------------

    def _module(self, types: tuple, gpu: bool, stage: str = "opt", **trace):
        """The IR module for the GPU or the CPU path (their bounds checks may differ); the
        optimized one's text is kept for `script.save` (the backends may change the module)."""
        from script.cuda.compile import build_module
        bc = self.boundscheck if self.boundscheck is not None else not gpu
        module = build_module(self._info, types, bc, self.opt, stage, **trace)
        if stage == "opt":
            self._ir[(types, gpu)] = IrText.of(module)
        return module

    def ir_text(self, types: tuple, gpu: bool) -> "IrText":
        """The optimized IR of the specialization `types` for the GPU (what the PTX is made
        from) or for the CPU path, built if need be."""
        with _lock:
            if (types, gpu) not in self._ir:
                self._module(types, gpu)
            return self._ir[(types, gpu)]

    def device_ptx(self, types: tuple, arch: str):
        """The PTX a launch on a GPU of architecture `arch` loads (launch.py)."""
        return self.compile_ptx(types, arch)

    def compile_ptx(self, types: tuple, arch: str | None = None):
        from script.cuda.compile import compile_ptx
        arch = arch or self.arch or default_arch()
        key = (types, arch)
        with _lock:
            code = self._ptx.get(key)
            if code is None:
                try:
                    module = self._module(types, gpu=True)
                    code = compile_ptx(module, next(iter(module.functions)), arch, self.opt)
                except CompileError as e:
                    raise e.with_traceback(None) from None
                self._ptx[key] = code
            return code

    def compile_cpu(self, types: tuple):
        from script.cuda.compile import compile_cpu
        with _lock:
            code = self._cpu.get(types)
            if code is None:
                try:
                    module = self._module(types, gpu=False)
                    code = compile_cpu(module, next(iter(module.functions)), self.opt)
                except CompileError as e:
                    raise e.with_traceback(None) from None
                self._cpu[types] = code
            return code

    def ptx(self, arch: str | None = None, signature=None) -> str:
        """The PTX text of the kernel for `arch` (default: the GPU's, else sm_80)."""
        return self.compile_ptx(self._types(signature), arch).text

    def llvm_ir(self, arch: str | None = None, signature=None) -> str:
        """The optimized LLVM IR the PTX was emitted from."""
        return self.compile_ptx(self._types(signature), arch).llvm_ir

    def ir(self, stage: str = "opt", signature=None, arch: str | None = None) -> str:
        """The kernel at `stage`: "ssa" (the frontend's IR), "opt" (after the IR passes),
        "llvm" (NVPTX LLVM IR) or "ptx", all as compiled for the GPU."""
        from script.ir.printer import format_module
        types = self._types(signature)
        if stage in ("ssa", "opt"):
            try:
                return format_module(self._module(types, gpu=True, stage=stage))
            except CompileError as e:
                raise e.with_traceback(None) from None
        if stage == "llvm":
            return self.llvm_ir(arch, types)
        if stage == "ptx":
            return self.ptx(arch, types)
        raise ValueError(f"unknown kernel stage {stage!r}; expected ssa, opt, llvm or ptx "
                         "(a kernel has no CPU assembly stage)")

    def inspect(self, arch: str | None = None, signature=None) -> str:
        """A summary of the compiled kernel: its PTX entry and, when ptxas is installed,
        ptxas's report (registers, shared memory, spills)."""
        from script.backend.nvptx.target import ptxas_path, run_ptxas
        code = self.compile_ptx(self._types(signature), arch)
        lines = [f"kernel {self.__qualname__}: PTX entry {code.name}, {code.arch}, "
                 f"{len(code.text.splitlines())} lines of PTX"]
        if ptxas_path() is None:
            lines.append("(ptxas not found: no register count)")
        else:
            lines.append(run_ptxas(code.text, code.arch).strip())
        return "\n".join(lines)


class IrText(NamedTuple):
    """A printed IR module: its text, entry, functions (entry first) and callee graph."""
    text: str
    entry: str
    functions: tuple
    calls: dict

    @classmethod
    def of(cls, module) -> "IrText":
        from script.ir.printer import format_module
        funcs = list(module.functions.values())
        return cls(format_module(module), funcs[0].name, tuple(f.name for f in funcs),
                   {f.name: tuple(c.name for c in f.callees()) for f in funcs})


def is_kernel(obj) -> bool:
    """Whether `obj` is a kernel (`@script.kernel`, or loaded from a saved module)."""
    return isinstance(obj, Kernel)


def default_arch() -> str:
    """$SCRIPT_CUDA_ARCH when set, else the architecture of GPU 0 when a driver and GPU are
    present, else sm_80."""
    import os
    env = os.environ.get("SCRIPT_CUDA_ARCH", "").strip()
    if env:
        from script.backend.nvptx.abi import check_arch
        try:
            return check_arch(env)
        except ValueError as e:
            raise ValueError(f"SCRIPT_CUDA_ARCH: {e}") from None
    from script.cuda import is_available
    if is_available():
        from script.cuda.driver import get_driver
        return get_driver().arch
    from script.backend.nvptx.target import DEFAULT_ARCH
    return DEFAULT_ARCH


class Launch:
    """A kernel with its launch configuration; calling it runs the kernel."""

    def __init__(self, kernel: Kernel, grid, block, stream, shared_bytes):
        self.kernel, self.grid, self.block = kernel, grid, block
        self.stream, self.shared_bytes = stream, shared_bytes

    def __call__(self, *args) -> None:
        types, values = self.kernel.types_of(args)
        if uses_gpu():
            if _launch.gpu is None:
                from script.cuda.launch import launch_gpu
                _launch.gpu = launch_gpu
            _launch.gpu(self.kernel, types, values, self)
            return
        from script.cuda.devicearray import host_view
        code = self.kernel.compile_cpu(types)
        code.run([host_view(v) for v in values], self.grid, self.block)


class _launch:
    gpu = None                      # script.cuda.launch.launch_gpu once imported
