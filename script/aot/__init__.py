"""Ahead-of-time C libraries: compiled functions as a shared library and a C header, called
from C or C++ without Python (`scriptc aot`, docs/cli.md; the ABI: script.aot.cabi).

`build_library(exports, library, header)` lowers each exported specialization (its optimized
IR, compiled without interrupt checks: Ctrl-C belongs to the C program) into an LLVM module of
its own with its C wrapper, the only symbol the module exports; optimizes and emits it as a
position-independent object; writes the C support code (exception messages:
script.aot.support) and links everything with the system C compiler (``$CC``, else ``cc``)
into the shared library, and writes the header.

A function is exported only when its code needs nothing but libc and libm: its parameters
and result have a C form (`cabi.CFunction.check`), and every symbol its object code still
uses after LLVM's optimizer is a libc or libm function. Anything else — CPython's API
(boxing, NumPy arrays made in the function), script's runtime library (lists, strs, dicts,
printing, random numbers, parallel loops), the BLAS/LAPACK tables the Python process fills —
is a `NotExportable` naming the function and the reason, and nothing is written.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

from script.aot.cabi import CFunction, NotExportable, build_wrapper, type_suffix
from script.backend.llvm.builder import NativeModule, global_ref

__all__ = ["Export", "NotExportable", "build_library", "c_names"]

_C_KEYWORDS = frozenset("""auto bool break case char const continue default do double else enum
extern float for goto if inline int long register restrict return short signed sizeof static
struct switch typedef union unsigned void volatile while main""".split())


@dataclass
class Export:
    """One specialization to export: `fn` (a compiled function object), its argument types
    `key`, and its C name."""

    c_name: str
    fn: object
    key: tuple


def c_names(name: str, keys: list) -> list[str]:
    """The C names of function `name`'s specializations: its name for one, else the name and
    the types (``poly_f64_i64``)."""
    base = name + "_" if name in _C_KEYWORDS else name
    if len(keys) == 1:
        return [base]
    return [base + "_" + ("_".join(type_suffix(t) for t in key) or "void") for key in keys]


class _LibraryModule(NativeModule):
    """A NativeModule whose definitions stay inside the module: the lowering's aliases and
    constants (``script.kernel``, signature symbols: what the CPython loader looks for) would
    collide between the functions of one library, and C callers use the wrapper."""

    def alias(self, name, fn) -> None:
        pass

    def define_constant(self, value, name) -> None:
        self._declarations.append(f"{global_ref(name)} = internal constant {value.type} {value.ref}")

    def define_variable(self, value, name):
        return self.define_global(name, value.type, value.ref)


def build_library(exports: list[Export], library: str, header: str, source_name: str = "") -> None:
    """Write the shared library `library` and the C header `header` of `exports` (compiled
    already). NotExportable for a function that needs Python; RuntimeError when no C
    compiler is found or it fails."""
    prefix = header_prefix(header)
    functions, objects, refused = [], [], []
    for export in exports:
        try:
            fn, obj = _compile(export, prefix)
        except NotExportable as e:
            from script.frontend.typeinfer import format_signature
            refused.append(f"cannot export {export.fn.__name__}{format_signature(export.key)}: {e}")
            continue
        functions.append(fn)
        objects.append(obj)
    if refused:
        raise NotExportable("\n".join(refused))
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not compiler:
        raise RuntimeError("scriptc aot links with the system C compiler, and none was found "
                           "(install gcc or clang, or set CC)")
    from script.aot.support import source
    with tempfile.TemporaryDirectory(prefix="scriptc-aot-") as tmp:
        paths = []
        for k, obj in enumerate(objects):
            paths.append(os.path.join(tmp, f"f{k}.o"))
            with open(paths[-1], "wb") as f:
                f.write(obj)
        support = os.path.join(tmp, "support.c")
        with open(support, "w") as f:
            f.write(source(prefix))
        command = [*compiler.split(), "-shared", "-fPIC", "-O2", "-o", os.path.abspath(library),
                   support, *paths, "-lm"]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"linking {library} failed ({' '.join(command)}):\n{done.stderr}")
    with open(header, "w") as f:
        f.write(header_text(functions, prefix, os.path.basename(header), source_name))


def header_prefix(header: str) -> str:
    """The prefix of the library's own C names: the header's file name as an identifier."""
    name = re.sub(r"\W", "_", os.path.splitext(os.path.basename(header))[0]) or "script"
    return "_" + name if name[0].isdigit() else name


def _compile(export: Export, prefix: str) -> tuple[CFunction, bytes]:
    from script.backend.llvm.jit import get_jit
    from script.backend.llvm.lower import lower_entry
    from script.backend.runtime.entry import stack_budget
    from script.compiler import llvm_level
    from script.dispatcher import function_info
    from script.ir.analysis import written_array_params
    from script.ir.ops import EXCEPTIONS
    spec = export.fn.__dict__["_specializations"][export.key]
    entry = spec.entry
    info = function_info(export.fn)
    params = [n + "_" if n in _C_KEYWORDS else n for n in info.param_names]
    cfn = CFunction(export.c_name, export.fn.__name__, params, list(entry.param_types), entry.ret_type,
                    written_array_params(entry))
    cfn.check()
    jit = get_jit()
    m = _LibraryModule(f"aot.{export.c_name}", jit.triple, jit.data_layout)
    lowered = lower_entry(m, entry)
    build_wrapper(m, cfn, lowered.entry_native, f"{prefix}__raised", stack_budget(),
                  {"ValueError": EXCEPTIONS.index("ValueError")})
    mod = jit.parse(m.text())
    jit.optimize(mod, llvm_level(spec.module, export.fn.__dict__["_opt"]))
    _check_imports(mod, f"{prefix}__raised")
    return cfn, jit.emit_object(mod)


def _check_imports(mod, raised: str) -> None:
    """NotExportable unless every symbol `mod` uses but does not define is libc's or libm's."""
    for value in [*mod.functions, *mod.global_variables]:
        name = value.name
        if not value.is_declaration or name.startswith("llvm.") or name == raised:
            continue
        reason = _needs(name, value.is_function)
        if reason:
            raise NotExportable(reason)


def _needs(name: str, is_function: bool) -> str | None:
    if name.startswith(("Py", "_Py")):
        return f"it needs the Python runtime (its code calls {name})"
    if name.startswith(("script.lapack", "script.blas")):
        return (f"it calls BLAS/LAPACK through the table the Python process fills ({name}); "
                "such functions run only under Python")
    if name.startswith("script.poll") or name == "script.sigints":
        return "it polls for Ctrl-C, which needs the Python runtime (compile it with interruptible=False)"
    if name.startswith("script.par"):
        return "its parallel loops run on the Python runtime's threads (parallel=True)"
    if name.startswith("script."):
        return (f"it needs script's runtime library ({name}: lists, strs, dicts, sets, printing, "
                "random numbers and array allocation live there and in CPython)")
    if not is_function or not _in_libm(name):
        return f"its code uses {name}, which neither libc nor libm defines"
    return None


_libm = None


def _in_libm(name: str) -> bool:
    """Whether libm (and libc, which it depends on) defines `name`."""
    global _libm
    if _libm is None:
        _libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    try:
        getattr(_libm, name)
    except AttributeError:
        return False
    return True


def header_text(functions: list[CFunction], prefix: str, file_name: str, source_name: str = "") -> str:
    from script.frontend.typeinfer import format_signature, python_type_name
    from script.ir.ops import EXCEPTIONS
    guard = re.sub(r"\W", "_", file_name).upper()
    lines = [f"/* {file_name}: generated by scriptc aot{' from ' + source_name if source_name else ''}.",
             " * Each function returns 0, or the status of the exception it raised (below); then",
             f" * {prefix}_error_message() gives its text, as CPython would print it. Arrays are",
             " * a data pointer, a shape and strides in bytes (NULL: C-contiguous). */",
             f"#ifndef {guard}", f"#define {guard}", "", "#include <stdbool.h>", "#include <stdint.h>",
             "", "#ifdef __cplusplus", 'extern "C" {', "#endif", ""]
    lines.append(f"#define {prefix.upper()}_OK 0")
    for k, name in enumerate(EXCEPTIONS):
        lines.append(f"#define {prefix.upper()}_{name.upper()} {k + 1}")
    lines += ["", "/* The text of the calling thread's last exception. */",
              f"const char *{prefix}_error_message(void);", ""]
    for fn in functions:
        struct = fn.result_struct()
        if struct:
            lines.append(struct)
        sig = format_signature(tuple(fn.param_types))
        lines.append(f"/* {fn.py_name}{sig} -> {python_type_name(fn.ret_type)} */")
        lines.append(fn.declaration())
        lines.append("")
    lines += ["#ifdef __cplusplus", "}", "#endif", "", f"#endif /* {guard} */", ""]
    return "\n".join(lines)
