"""Kernels (`@script.kernel`) in saved modules: what `script.save` writes for each one, and the
kernel object `script.load` gives back.

Per specialization (argument types) a kernel is saved as:

- ``gpu.ir``: the optimized IR module the PTX is made from (the kernel and its device
  functions), to make PTX for an architecture that was not saved;
- ``cpu.ir`` and ``cpu.o``: the IR module of the CPU path (its bounds checks may differ from
  the GPU's; one member when the texts are equal) and its object code, the grid driver
  around the kernel (script.backend.llvm.grid);
- one ``<arch>.ptx`` per architecture: those compiled so far, and always the default one
  (the kernel's `arch=`, else the GPU's, else sm_80), which comes first.

`load_kernel` checks every PTX member (size, SHA-256, UTF-8, its ``.target`` and ``.entry``)
and links the CPU object code — or, when the object code cannot run here
(saved_manifest.object_code_mismatch), parses, verifies and compiles the CPU IR — before
anything runs, so a damaged member is a `LoadError` at load time. The `SavedKernel` it
returns launches as the original did: on a GPU with the saved PTX for the device's
architecture, or the newest saved one the driver can compile for it (PTX is forward
compatible), or PTX made from the saved GPU IR; on the CPU with the loaded code.
"""

from __future__ import annotations

import os

import time

from script.cuda.kernel import IrText, Kernel, default_arch
from script.errors import LoadError
from script.loadpath import member_fields, parse_ir
from script.saved_archive import Archive, sha256
from script.saved_manifest import (KernelEntry, KernelModule, KernelSpecEntry, Member, Param,
                                   PtxEntry)

__all__ = ["SavedKernel", "kernel_record", "load_kernel"]


class SavedKernel(Kernel):
    """A kernel loaded from a saved module: `Kernel`'s interface (launches, `ptx`, `ir`,
    `inspect`, `signatures`) over the saved specializations only, having no source.
    ``ir("ssa")`` is not saved; ``ir("llvm")`` exists only for PTX made again from the IR."""

    def __init__(self, entry: KernelEntry, archive: Archive, specs: dict, ptx: dict, cpu: dict,
                 cpu_recompiled: bool):
        self._info = entry
        self._archive = archive
        self._specs = specs                 # types -> KernelSpecEntry
        self._ptx = ptx                     # (types, arch) -> PtxCode
        self._cpu = cpu                     # types -> CpuKernel
        self._ir = {}
        self._launches, self._arg_types = {}, {}
        self.cpu_recompiled = cpu_recompiled
        self.py_func = None
        self.arch, self.boundscheck, self.opt = entry.arch, entry.boundscheck, entry.opt
        self.__name__ = entry.name
        self.__qualname__ = entry.qualname
        self.__module__ = entry.module
        self.__doc__ = entry.doc

    def __repr__(self):
        return f"<script kernel {self.__qualname__} loaded from {self._archive.origin}>"

    @property
    def signatures(self) -> list[tuple]:
        return list(self._specs)

    def saved_archs(self, types: tuple) -> list[str]:
        """The architectures PTX was saved for, the default at save time first."""
        return [p.arch for p in self._spec(types).ptx]

    def types_of(self, args) -> tuple[tuple, list]:
        """The saved signature a launch uses: its own argument types, else the first saved
        one they convert to (a C-contiguous array to ``f32[:]``, an int to float), as a
        loaded function's dispatch does."""
        types, values = super().types_of(args)
        if types in self._specs:
            return types, values
        for saved in self._specs:
            converted = _converted(types, values, saved)
            if converted is not None:
                return saved, converted
        return types, values            # not saved: compile_cpu/compile_ptx say so

    def _spec(self, types: tuple) -> KernelSpecEntry:
        spec = self._specs.get(types)
        if spec is None:
            from script.frontend.typeinfer import format_signature
            raise TypeError(f"kernel {self.__name__} was saved for "
                            f"{' or '.join(format_signature(t) for t in self._specs)}, not "
                            f"{format_signature(types)}; a loaded kernel cannot compile new "
                            "signatures")
        return spec

    def _code(self, types: tuple, gpu: bool) -> KernelModule:
        spec = self._spec(types)
        return spec.gpu if gpu else spec.cpu

    def ir_text(self, types: tuple, gpu: bool) -> IrText:
        code = self._code(types, gpu)
        return IrText(self._archive.text(*member_fields(code.ir)), code.entry, code.functions, code.calls)

    def _module(self, types: tuple, gpu: bool, stage: str = "opt", **trace):
        if stage != "opt":
            raise ValueError(f"the {stage!r} IR of a kernel is not saved (only the optimized IR)")
        code = self._code(types, gpu)
        return parse_ir(self.ir_text(types, gpu).text, code, self._archive.origin)

    def compile_ptx(self, types: tuple, arch: str | None = None):
        if arch is None and self.arch is None:
            from script.cuda import is_available
            if os.environ.get("SCRIPT_CUDA_ARCH", "").strip():
                arch = default_arch()
            elif is_available():
                from script.cuda.driver import get_driver
                return self.device_ptx(types, get_driver().arch)
            arch = self.saved_archs(types)[0] if self.saved_archs(types) else default_arch()
        self._spec(types)
        return super().compile_ptx(types, arch)      # saved, else made from the GPU IR

    def device_ptx(self, types: tuple, arch: str):
        code = self._ptx.get((types, arch)) or self._ptx.get((types, _newest_for(
            self.saved_archs(types), arch)))
        return code if code is not None else self.compile_ptx(types, arch)

    def llvm_ir(self, arch: str | None = None, signature=None) -> str:
        text = self.compile_ptx(self._types(signature), arch).llvm_ir
        if text is None:
            raise ValueError(f"the LLVM IR of kernel {self.__name__} is not saved (its PTX is); "
                             "ask for an architecture that was not saved to make it again")
        return text

    def ir(self, stage: str = "opt", signature=None, arch: str | None = None) -> str:
        if stage == "opt":
            return self.ir_text(self._types(signature), True).text
        return super().ir(stage, signature, arch)


def _converted(types: tuple, values: list, saved: tuple) -> list | None:
    """`values` as arguments of the signature `saved`, or None when one does not convert."""
    from script.frontend.typeinfer import to_python_value
    from script.ir import types as T
    out = []
    for t, v, s in zip(types, values, saved):
        if t == s:
            out.append(v)
        elif isinstance(t, T.ArrayType) or isinstance(s, T.ArrayType):
            if not T.is_convertible(t, s):
                return None
            out.append(v)
        else:
            try:
                out.append(to_python_value(s, v))
            except (TypeError, ValueError):
                return None
    return out


def _arch_number(arch: str) -> int:
    return int(arch[3:].rstrip("a"))


def _newest_for(saved: list[str], device: str) -> str | None:
    """The newest saved architecture whose PTX the driver compiles for `device` (PTX of
    sm_XY runs on later GPUs; arch-specific ``sm_90a`` PTX only on its own)."""
    fits = [a for a in saved if not a.endswith("a") and _arch_number(a) <= _arch_number(device)]
    return max(fits, key=_arch_number, default=None)


# ---- loading ------------------------------------------------------------------------------

def load_kernel(archive: Archive, entry: KernelEntry, use_object: bool) -> SavedKernel:
    """The saved kernel `entry`: its PTX read and checked, its CPU code linked from the
    object code when `use_object`, else compiled from the CPU IR."""
    from script.backend.nvptx.target import PtxCode
    specs, ptx, cpu = {}, {}, {}
    for spec in entry.specializations:
        types = spec.arg_types
        specs[types] = spec
        for code in (spec.gpu, spec.cpu):
            archive.check(code.ir.path, code.ir.size)      # its hash is checked when read
        for p in spec.ptx:
            text = archive.text(*member_fields(p.ptx))
            _check_ptx(archive, entry, p, text)
            ptx[(types, p.arch)] = PtxCode(text, p.name, p.arch, list(p.messages), None)
        if use_object is not None:          # None: inspected, no code (script.saved `inspect`)
            cpu[types] = _load_cpu(archive, entry, spec, use_object)
    return SavedKernel(entry, archive, specs, ptx, cpu, not use_object)


def _check_ptx(archive: Archive, entry: KernelEntry, p: PtxEntry, text: str) -> None:
    import re
    if re.search(rf"^\s*\.target\s+{p.arch}\b", text, re.M) is None \
            or re.search(rf"\.entry\s+{re.escape(p.name)}\s*\(", text) is None:
        raise LoadError(f"{archive.origin}: PTX member {p.ptx.path!r} of kernel {entry.name} is "
                        f"not PTX for {p.arch} with entry {p.name}")


def _load_cpu(archive: Archive, entry: KernelEntry, spec: KernelSpecEntry, use_object: bool):
    from script.cuda.compile import compile_cpu, load_cpu
    code = spec.cpu
    start = time.perf_counter()
    if use_object:
        data = archive.member(*member_fields(code.object))
        try:
            kernel = load_cpu(data, code.entry, spec.arg_types, code.resumable)
        except RuntimeError as e:       # llvmlite's linker: not an object file, symbols missing
            raise LoadError(f"{archive.origin}: object code of kernel {entry.name} "
                            f"({code.entry}) does not load: {e}") from None
    else:
        module = parse_ir(archive.text(*member_fields(code.ir)), code, archive.origin)
        try:
            kernel = compile_cpu(module, code.entry, entry.opt)
        except Exception as e:  # noqa: BLE001 - verified IR the backend rejects: still the file's
            raise LoadError(f"{archive.origin}: compiling the CPU IR of kernel {entry.name} "
                            f"failed ({type(e).__name__}: {e})") from e
    kernel.timings = {**kernel.timings, "load": time.perf_counter() - start}
    return kernel


# ---- saving -------------------------------------------------------------------------------

def kernel_record(name: str, kernel: Kernel, base: str, wanted) -> tuple[KernelEntry, dict]:
    """The manifest entry of `kernel` saved as `name` and its members (name -> bytes), named
    under `base`; `wanted` is None (the signatures compiled so far) or a list of argument
    types. Compiles what is missing: the CPU code and the default architecture's PTX."""
    from script.dispatcher import _signature_key
    if wanted is not None:
        keys = list(dict.fromkeys(_signature_key(kernel, t) for t in wanted))
    else:
        keys = kernel.signatures or ([tuple(kernel._info.param_types)]
                                     if kernel._info.is_annotated else [])
    if not keys:
        raise ValueError(f"kernel {name} has no compiled signature to save: launch it first, "
                         "annotate its parameters or pass signatures=")
    members: dict[str, bytes] = {}
    specs = []
    for j, types in enumerate(keys):
        specs.append(_spec_record(kernel, types, f"{base}/s{j}", members))
    info = kernel._info
    params = tuple(Param(n, t) for n, t in zip(info.param_names, info.param_types))
    module = info.module if isinstance(kernel, SavedKernel) else \
        getattr(kernel.py_func, "__module__", None) or ""
    entry = KernelEntry(name, kernel.__qualname__, module, kernel.__doc__, params, kernel.arch,
                        kernel.boundscheck, kernel.opt, tuple(specs))
    return entry, members


def _spec_record(kernel: Kernel, types: tuple, base: str, members: dict) -> KernelSpecEntry:
    default = kernel.arch or (kernel.saved_archs(types)[0] if isinstance(kernel, SavedKernel)
                              else default_arch())
    archs = [default] + sorted({a for t, a in kernel._ptx if t == types} - {default})
    codes = [kernel.compile_ptx(types, a) for a in archs]
    cpu_kernel = kernel.compile_cpu(types)
    gpu_ir, cpu_ir = kernel.ir_text(types, True), kernel.ir_text(types, False)

    def add(path: str, data: bytes) -> Member:
        members[path] = data
        return Member(path, len(data), sha256(data))

    gpu_member = add(f"{base}.gpu.ir", gpu_ir.text.encode("utf-8"))
    cpu_member = gpu_member if cpu_ir.text == gpu_ir.text else \
        add(f"{base}.cpu.ir", cpu_ir.text.encode("utf-8"))
    obj = add(f"{base}.cpu.o", bytes(cpu_kernel.library.object_code))
    gpu = KernelModule(types, gpu_ir.entry, gpu_ir.functions, gpu_ir.calls, gpu_member)
    cpu = KernelModule(types, cpu_ir.entry, cpu_ir.functions, cpu_ir.calls, cpu_member, obj,
                       bool(cpu_kernel.resumable))
    ptx = tuple(PtxEntry(c.arch, c.name, tuple(bytes(m) for m in c.messages),
                         add(f"{base}.{c.arch}.ptx", c.text.encode("utf-8"))) for c in codes)
    return KernelSpecEntry(types, gpu, cpu, ptx)
