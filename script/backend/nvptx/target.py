"""The NVPTX target: target machines per architecture, libdevice, PTX emission, ptxas.

`compile_ptx(module, entry, arch)` lowers a verified kernel module (nvptx.lower), links
libdevice when the code calls it, makes every function but the kernel internal (or the PTX
would carry all of libdevice), optimizes at -O3 for the architecture and emits PTX.

libdevice is looked for in $SCRIPT_LIBDEVICE, then under $CUDA_HOME / $CUDA_PATH,
/usr/local/cuda*, and an installed ``nvidia-nvvm`` / ``nvidia-cuda-nvcc`` wheel.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass

import llvmlite.binding as llvm

from script.errors import CompileError
from script.ir.core import Function, Module
from script.backend.nvptx.abi import check_arch
from script.backend.nvptx.lower import NvptxModule, lower_kernel

DEFAULT_ARCH = "sm_80"
_lock = threading.RLock()
_machines: dict[str, object] = {}
_libdevice_bytes: bytes | None = None


@dataclass
class PtxCode:
    """A kernel's PTX: `text`, the entry's `name`, the exception `messages` table
    (nvptx.abi) and the `llvm_ir` it was emitted from (after optimization)."""

    text: str
    name: str
    arch: str
    messages: list
    llvm_ir: str


def target_machine(arch: str):
    """The NVPTX target machine for `arch` (made once per process and architecture)."""
    with _lock:
        tm = _machines.get(arch)
        if tm is None:
            llvm.initialize_all_targets()
            llvm.initialize_all_asmprinters()
            target = llvm.Target.from_triple("nvptx64-nvidia-cuda")
            number = int(arch[3:].rstrip("a"))
            ptx = "+ptx80" if number < 100 else "+ptx86"
            tm = _machines[arch] = target.create_target_machine(cpu=arch, features=ptx, opt=3)
        return tm


def _cuda_roots() -> list[str]:
    """Where a CUDA toolkit may be installed: $CUDA_HOME, $CUDA_PATH, /usr/local/cuda*."""
    roots = [os.environ.get(k) for k in ("CUDA_HOME", "CUDA_PATH")]
    return list(filter(None, roots)) + sorted(glob.glob("/usr/local/cuda*"), reverse=True)


def find_libdevice() -> str | None:
    """The path of ``libdevice.10.bc``, or None."""
    env = os.environ.get("SCRIPT_LIBDEVICE")
    if env and os.path.isfile(env):
        return env
    for root in _cuda_roots():
        path = os.path.join(root, "nvvm", "libdevice", "libdevice.10.bc")
        if os.path.isfile(path):
            return path
    for site in sys.path:
        for pattern in ("nvidia/cuda_nvcc/nvvm/libdevice/libdevice*.bc",
                        "nvidia/nvvm/libdevice/libdevice*.bc", "nvidia/cu*/nvvm/libdevice/libdevice*.bc"):
            found = glob.glob(os.path.join(site, pattern))
            if found:
                return found[0]
    return None


def _libdevice() -> bytes:
    global _libdevice_bytes
    if _libdevice_bytes is None:
        path = find_libdevice()
        if path is None:
            raise CompileError("this kernel calls math functions that need CUDA's libdevice, which "
                               "was not found: install the CUDA toolkit or `pip install nvidia-nvvm`, "
                               "or set SCRIPT_LIBDEVICE to libdevice.10.bc")
        with open(path, "rb") as f:
            _libdevice_bytes = f.read()
    return _libdevice_bytes


def compile_ptx(module: Module, entry: str, arch: str = DEFAULT_ARCH, opt_level: int = 3) -> PtxCode:
    """PTX for the kernel `module.functions[entry]`. Requires: verified IR, checked for the
    kernel language's limits (no recursion, no tuple parameters, returns none)."""
    arch = check_arch(arch)
    with _lock:
        tm = target_machine(arch)
        m = NvptxModule(f"script.{entry}", str(tm.target_data))
        func: Function = module.functions[entry]
        name, messages = lower_kernel(m, func)
        mod = llvm.parse_assembly(m.text())
        mod.verify()
        if any(f.is_declaration and f.name.startswith("__nv_") for f in mod.functions):
            lib = llvm.parse_bitcode(_libdevice())
            lib.triple = mod.triple
            lib.data_layout = mod.data_layout
            mod.link_in(lib)
        for f in mod.functions:
            if f.name != name and not f.is_declaration:
                f.linkage = "internal"
        if opt_level > 0:
            pto = llvm.create_pipeline_tuning_options(speed_level=min(opt_level, 3))
            pb = llvm.create_pass_builder(tm, pto)
            pb.getModulePassManager().run(mod, pb)
        text = tm.emit_assembly(mod)
        # Runtime helpers (reference counting's `free`, ...) usually fold away in a kernel;
        # any still called would be unresolved on the GPU.
        missing = [n for n in m.foreign if re.search(rf"\.extern\s+\.func[^\n]*\b{re.escape(n)}\b", text)]
        if missing:
            raise CompileError(f"this kernel needs {', '.join(missing)}, which GPU code cannot "
                               "call (array allocation and other runtime services are CPU-only)",
                               func.loc)
        return PtxCode(text, name, arch, messages, str(mod))


# ---- ptxas ---------------------------------------------------------------------------------

def ptxas_path() -> str | None:
    """ptxas on the PATH, else in a CUDA toolkit's bin folder."""
    found = shutil.which("ptxas")
    if found is None:
        for root in _cuda_roots():
            found = shutil.which("ptxas", path=os.path.join(root, "bin"))
            if found:
                break
    return found


def run_ptxas(ptx: str, arch: str, verbose: bool = True) -> str:
    """Assemble `ptx` for `arch` with ptxas; returns its report (stderr). Raises RuntimeError
    with ptxas's message when it rejects the code, FileNotFoundError when it is missing."""
    exe = ptxas_path()
    if exe is None:
        raise FileNotFoundError("ptxas is not on the PATH")
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "kernel.ptx")
        with open(src, "w") as f:
            f.write(ptx)
        cmd = [exe, f"-arch={arch}", src, "-o", os.path.join(d, "kernel.cubin")]
        if verbose:
            cmd.append("--verbose")
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(f"ptxas -arch={arch} failed:\n{done.stderr or done.stdout}")
    return done.stderr + done.stdout
