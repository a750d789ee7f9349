"""The native ABI of lowered IR functions: LLVM types, the `Env` record, exception messages.

Calling convention. An IR function ``@f(p0, p1, ...) -> R`` becomes

    R' script.fn.f(Env *env, P0', P1', ...)

where ``X'`` is `llvm_type(X)`: ``bool`` is ``i1``, ints are ``iN`` (signedness lives in the
operations, not the type), floats are ``float``/``double``, ``none`` is the empty struct
``{}`` and a tuple is a literal struct of its element types, passed and returned by value.
A function returning ``none`` returns ``void``. Every lowered function is ``nounwind`` and,
except the library's entry function, ``internal``: each compiled library holds its own copy
of every function it calls, so LLVM may inline, clone, change calling conventions and drop
unused parameters (``env`` of a function that cannot raise disappears). The entry function
keeps this signature and is exported twice: as ``script.kernel``, the name by which the
library's CPython entry point ``script.entry`` (script.backend.runtime.entry), one object
shared by every library of the same signature and linked next to it, calls it; and as
``script.kernel.<f>`` (`kernel_name`), by which loading object code checks that it is the
code of the function it is loaded for.

Exceptions. Native code never touches Python objects or the GIL. Raising stores into the
caller-provided `Env` record and returns an undefined value::

    struct Env {
        i32 status;      // 0: no exception; 1: an exception is pending; 2: a Python
                         // exception is already set (a signal handler raised it at a poll)
        i32 exc;         // index of the exception class in script.ir.ops.EXCEPTIONS
        i8 *fmt;         // printf-style message for PyErr_Format, or NULL (no arguments)
        i64 args[4];     // message arguments: ints widened to i64 (signed ints sign-extend,
                         // unsigned zero-extend), or C strings (see below); only the
                         // slots the message uses are written
        i64 stack_limit; // lowest stack address recursive code may use (set by the entry)
        ptr tstate;      // the thread state PyEval_SaveThread gave the entry point, or NULL
                         // when the call holds the GIL
        i64 sigints;     // SIGINTs this call has seen (runtime.interrupt); set by the entry
    };

Interrupts. A `poll` (script.ir.interrupts) compares ``env->sigints`` with the process-wide
count of SIGINTs and, when they differ, calls the runtime's ``script.poll``, which takes the
GIL back (with ``env->tstate``), runs Python's signal handlers and returns nonzero, with
status 2, when one raised; the function then unwinds like any raise.

Deep recursion. A function on a call cycle (`recursive_functions`) compares the address of
a local with ``env->stack_limit`` on entry and raises RecursionError below it, so runaway
recursion in compiled code is an exception instead of a crash of the interpreter.

After a call to a function that may raise (`compute_may_raise`), the caller tests
``env->status`` and, when set, returns at once without touching the record, so the
exception reaches the entry point unchanged. The CPython entry point (script.backend.runtime)
owns the record, and hands a pending exception to the runtime library's ``script.raise``,
which calls ``PyErr_Format(PyExc_<exc>, fmt, args...)``.

Messages. `PyErr_Format` reads only ASCII formats. A message with non-ASCII text is encoded
by `encode_message`: each run of non-ASCII characters becomes a ``%s`` whose argument is a
pointer to that run's UTF-8 bytes, stored in an ``args`` slot (pointers and ``long long``
travel identically through C varargs on the 64-bit targets we support).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from script.errors import CompileError
from script.ir import types as T
from script.ir.core import Function
from script.backend.llvm.builder import Value

PTR = "ptr"
NONE_TYPE = "{}"
NONE_VALUE = Value(NONE_TYPE, "zeroinitializer")

MAX_MESSAGE_ARGS = 4
ENV = "{i32, i32, ptr, [4 x i64], i64, ptr, i64}"
# Byte offsets of the Env fields (x86-64 and AArch64 layout of the struct above).
ENV_STATUS, ENV_EXC, ENV_FMT, ENV_ARGS, ENV_STACK, ENV_TSTATE, ENV_SIGINTS = 0, 4, 8, 16, 48, 56, 64
STATUS_PYTHON_ERROR = 2     # Env.status: a Python exception is set already
RECURSION_MESSAGE = "maximum recursion depth exceeded"

# Branch weights (taken, not taken) for `Builder.cbranch`.
LIKELY = (2000, 1)
UNLIKELY = (1, 2000)

FN_PREFIX = "script.fn."
KERNEL_SYMBOL = "script.kernel"     # a library's entry function (an alias)
ENTRY_SYMBOL = "script.entry"       # a library's CPython entry point


def kernel_name(func_name: str) -> str:
    """The second exported name of the entry function `func_name` of a library."""
    return f"{KERNEL_SYMBOL}.{func_name}"

_SCALAR = {T.BOOL: "i1", T.I8: "i8", T.I16: "i16", T.I32: "i32", T.I64: "i64", T.U8: "i8",
           T.U16: "i16", T.U32: "i32", T.U64: "i64", T.F32: "float", T.F64: "double",
           T.NONE: NONE_TYPE}


def llvm_type(t: T.Type) -> str:
    """The LLVM type of an IR value of type `t`."""
    lt = _SCALAR.get(t)
    if lt is not None:
        return lt
    if isinstance(t, T.TupleType):
        return "{" + ", ".join(llvm_type(e) for e in t.elems) + "}"
    if isinstance(t, T.ArrayType):
        return f"{{ptr, ptr, [{t.ndim} x i64], [{t.ndim} x i64]}}"
    raise AssertionError(f"no LLVM type for {t}")


# Arrays. An array value is the literal struct ``{ptr owner, ptr data, [N x i64] shape,
# [N x i64] strides}``: `owner` is the ndarray object it came from (a reference borrowed for
# the call: every array value is an argument of the entry function), `data` the address of
# its first element, strides in bytes. Elements are stored as NumPy stores them: a bool is
# one byte (0 or 1). NumPy data is aligned (the entry point checks NPY_ARRAY_ALIGNED), so
# loads and stores carry ``align itemsize``.
ARRAY_OWNER, ARRAY_DATA, ARRAY_SHAPE, ARRAY_STRIDES = 0, 1, 2, 3

# The library's `i64` bit mask of the entry function's parameters it may write through
# (script.ir.analysis.written_array_params), defined next to ``script.kernel`` when the entry
# function takes arrays; the entry point (shared by every library of a signature) reads it
# and raises ValueError for a read-only array there.
WRITTEN_SYMBOL = "script.written"


def element_type(dtype: T.Type) -> str:
    """The LLVM type of an array element in memory (a bool is a byte)."""
    return "i8" if isinstance(dtype, T.BoolType) else llvm_type(dtype)


def itemsize(dtype: T.Type) -> int:
    return 1 if isinstance(dtype, T.BoolType) else dtype.bits // 8


def has_arrays(types) -> bool:
    """Whether any of `types` is an array or a tuple holding one."""
    return any(isinstance(t, T.ArrayType)
               or (isinstance(t, T.TupleType) and has_arrays(t.elems)) for t in types)


def llvm_return_type(t: T.Type) -> str:
    return "void" if isinstance(t, T.NoneType) else llvm_type(t)


def native_signature(param_types, ret_type: T.Type) -> tuple[str, list[str]]:
    """The LLVM return type and parameter types of a lowered function (``env`` first)."""
    return llvm_return_type(ret_type), [PTR] + [llvm_type(t) for t in param_types]


def reachable_functions(entry: Function) -> list[Function]:
    """`entry` and every function it calls, directly or not, each once, entry first."""
    seen = {id(entry): entry}
    stack = [entry]
    while stack:
        for callee in stack.pop().callees():
            if id(callee) not in seen:
                seen[id(callee)] = callee
                stack.append(callee)
    return list(seen.values())


def recursive_functions(funcs: list[Function]) -> set[int]:
    """The ids of the functions in `funcs` (closed under calls) that can call themselves,
    directly or through others."""
    out = set()
    for f in funcs:
        seen, work = set(), list(f.callees())
        while work:
            g = work.pop()
            if g is f:
                out.add(id(f))
                break
            if id(g) not in seen:
                seen.add(id(g))
                work.extend(g.callees())
    return out


def compute_may_raise(funcs: list[Function]) -> set[int]:
    """The ids of the functions in `funcs` (closed under calls) that may raise: those with a
    `check`, `raise`, `alloc` (MemoryError) or `poll` (KeyboardInterrupt), recursive ones
    (RecursionError), or a call of one that may raise."""
    raising = {id(f) for f in funcs
               if any(i.opname in ("check", "raise", "alloc", "poll") for i in f.instructions())}
    raising |= recursive_functions(funcs)
    changed = True
    while changed:
        changed = False
        for f in funcs:
            if id(f) not in raising and any(id(c) in raising for c in f.callees()):
                raising.add(id(f))
                changed = True
    return raising


_DIRECTIVE = re.compile(r"%%|%lld")


@dataclass(frozen=True)
class EncodedMessage:
    """A message ready for `PyErr_Format`: an ASCII format, and what fills each ``args`` slot:
    an int ``k`` (the k-th integer operand of the check) or bytes (a UTF-8 string for ``%s``)."""

    fmt: bytes
    slots: tuple


def encode_message(message: str, nints: int, loc=None) -> EncodedMessage:
    """Encode a printf-style message with `nints` ``%lld`` operands (see the module doc)."""
    fmt = []
    slots = []
    pos = 0
    nint = 0

    def literal(text):
        for run in re.split(r"([^\x00-\x7f]+)", text):
            if not run:
                continue
            if run.isascii():
                fmt.append(run.encode())
            else:
                fmt.append(b"%s")
                slots.append(run.encode("utf-8"))

    for m in _DIRECTIVE.finditer(message):
        literal(message[pos:m.start()])
        pos = m.end()
        if m.group() == "%%":
            fmt.append(b"%%")
        else:
            fmt.append(b"%lld")
            slots.append(nint)
            nint += 1
    literal(message[pos:])
    if nint != nints:
        raise CompileError(f"exception message {message!r} has {nint} %lld directives for "
                           f"{nints} values", loc)
    if len(slots) > MAX_MESSAGE_ARGS:
        raise CompileError(f"an exception message takes at most {MAX_MESSAGE_ARGS} values "
                           f"(each run of non-ASCII text counts as one): {message!r}", loc)
    return EncodedMessage(b"".join(fmt), tuple(slots))
