"""How a kernel's arguments are passed to the PTX entry, and how a raised exception comes back.

Kernel parameters (no llvmlite here: the launcher reads this too). Each IR parameter becomes
one or more PTX parameters, in order:

- an array of rank N: the data pointer (``ptr addrspace(1)``, so loads and stores stay
  ``ld.global``/``st.global``), then N lengths, then N strides in bytes (all i64): separate
  scalars, since a struct passed by value would lose the pointer's address space;
- a bool: one byte (PTX has no predicate parameters); other scalars: their own type.

Tuples are not kernel parameters (a CompileError before this is reached).

Exceptions. A failed `check` in a kernel records the exception and ends its thread (the
function returns, as on the CPU). The entry then claims the module's error record, an
``[ERROR_WORDS x i64]`` global named `ERROR_SYMBOL`, with a compare-and-swap of its first word from 0
to 1, so the first thread to fail wins, and writes: word 1, the index of the exception class
in `script.ir.ops.EXCEPTIONS`; word 2, the index of its message in the kernel's message
table (-1: none); words 3 on, the message's integer arguments (MAX_MESSAGE_ARGS). The launcher reads the record
after the kernel has run, raises the same exception with the same message, and zeroes it.
"""

from __future__ import annotations

from script.ir import types as T
from script.ir.ops import MAX_MESSAGE_ARGS

ERROR_SYMBOL = "script_error"
ERROR_WORDS = 3 + MAX_MESSAGE_ARGS


def kernel_param_kinds(param_types) -> list[tuple[str, T.Type]]:
    """(kind, type) per PTX parameter: kind "data" (an array's device pointer), "shape",
    "stride" (i64) or "scalar" (of that IR type)."""
    out: list[tuple[str, T.Type]] = []
    for t in param_types:
        if isinstance(t, T.ArrayType):
            out.append(("data", t))
            out += [("shape", T.I64)] * t.ndim + [("stride", T.I64)] * t.ndim
        else:
            out.append(("scalar", t))
    return out


def ptx_name(func_name: str) -> str:
    """A valid PTX identifier for the kernel compiled from IR function `func_name`."""
    return "script_" + "".join(c if c.isalnum() or c == "_" else "_" for c in func_name)


def check_arch(arch: str) -> str:
    """`arch` when it names a CUDA architecture (``sm_80``, ``sm_90a``), else ValueError."""
    digits = arch[3:].rstrip("a") if isinstance(arch, str) and arch.startswith("sm_") else ""
    if not digits.isdigit() or int(digits) < 50:
        raise ValueError(f"arch must name a CUDA architecture such as 'sm_80' or 'sm_90', not {arch!r}")
    return arch
