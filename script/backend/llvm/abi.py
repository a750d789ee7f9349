"""The native ABI of lowered IR functions: LLVM types, the `Env` record, exception messages.

Calling convention. An IR function ``@f(p0, p1, ...) -> R`` becomes

    R' script.fn.f(Env *env, P0', P1', ...)

where ``X'`` is `llvm_type(X)`: ``bool`` is ``i1``, ints are ``iN`` (signedness lives in the
operations, not the type), floats are ``float``/``double``, ``none`` is the empty struct
``{}``, a complex number the struct ``{double, double}`` (``{float, float}`` for ``c64``: the
layout of C's ``double _Complex`` and NumPy's element) and a tuple is a literal struct of its
element types, passed and returned by value.
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
        i64 args[12];    // MAX_MESSAGE_ARGS message arguments: ints widened to i64 (signed ints sign-extend,
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

Deep recursion. A function on a call cycle (`recursive_functions`) compares its stack
pointer (``llvm.stacksave``, which needs no frame pointer) with ``env->stack_limit`` and
raises RecursionError below it, so runaway recursion in compiled code is an exception instead
of a crash of the interpreter. The test is on entry, or, where a frame can return having
neither called nor raised (fib's ``n < 2``), before each call on a cycle that no other such
call dominates: every cycle passes such a call, and the frames that call nothing then need
no prologue (a read of the stack pointer would pin it to the entry). See lower.py
`can_guard_calls`.

Caught exceptions. Inside a ``try`` (script.frontend.exceptions), a call is followed by
`raised`: the caller tests ``env->status`` itself and, when set, takes the record into an
`exc` value (`catch`: the Env's first four fields, the status cleared); `reraise` stores
such a value back and unwinds. A raising function returns zero rather than undef, since a
caller that catches may release (reference counting) the value the call gave.

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
from script.ir.ops import MAX_MESSAGE_ARGS, MESSAGE_DIRECTIVE
from script.backend.llvm.builder import Value

PTR = "ptr"
NONE_TYPE = "{}"
NONE_VALUE = Value(NONE_TYPE, "zeroinitializer")

ENV = f"{{i32, i32, ptr, [{MAX_MESSAGE_ARGS} x i64], i64, ptr, i64}}"
# A caught exception (IR type ``exc``): the Env's first four fields, as a raise left them.
EXC_TYPE = f"{{i32, i32, ptr, [{MAX_MESSAGE_ARGS} x i64]}}"
# Byte offsets of the Env fields (x86-64 and AArch64 layout of the struct above).
ENV_STATUS, ENV_EXC, ENV_FMT, ENV_ARGS = 0, 4, 8, 16
ENV_STACK = ENV_ARGS + 8 * MAX_MESSAGE_ARGS
ENV_TSTATE, ENV_SIGINTS = ENV_STACK + 8, ENV_STACK + 16
STATUS_PYTHON_ERROR = 2     # Env.status: a Python exception is set already
RECURSION_MESSAGE = "maximum recursion depth exceeded"

# Branch weights (taken, not taken) for `Builder.cbranch`.
LIKELY = (2000, 1)
UNLIKELY = (1, 2000)

FN_PREFIX = "script.fn."
KERNEL_SYMBOL = "script.kernel"     # a library's entry function (an alias)
ENTRY_SYMBOL = "script.entry"       # a library's CPython entry point
PRINT_SYMBOL = "script.print"       # the runtime's print() (runtime.entry)
RAISE_SYMBOL = "script.raise"       # the runtime's raise of an Env's exception in Python (runtime.entry)
RERUN_SYMBOL = "script.rerun"       # the runtime's second run of a call that raised (runtime.entry)


def kernel_name(func_name: str) -> str:
    """The second exported name of the entry function `func_name` of a library."""
    return f"{KERNEL_SYMBOL}.{func_name}"

_SCALAR = {T.BOOL: "i1", T.I8: "i8", T.I16: "i16", T.I32: "i32", T.I64: "i64", T.U8: "i8",
           T.U16: "i16", T.U32: "i32", T.U64: "i64", T.F32: "float", T.F64: "double",
           T.C64: "{float, float}", T.C128: "{double, double}", T.NONE: NONE_TYPE, T.BOOL_INT: "i64"}


def llvm_type(t: T.Type) -> str:
    """The LLVM type of an IR value of type `t`."""
    lt = _SCALAR.get(t)
    if lt is not None:
        return lt
    if isinstance(t, (T.TupleType, T.HashType)):       # a dict or set: its two lists
        return "{" + ", ".join(llvm_type(e) for e in t.elems) + "}"
    if isinstance(t, T.ArrayType):
        return f"{{ptr, ptr, [{t.ndim} x i64], [{t.ndim} x i64]}}"
    if isinstance(t, (T.ListType, T.TextType)):
        return PTR                      # the list object (llvm.lists), the str's (llvm.strings)
    if isinstance(t, T.ExcType):
        return EXC_TYPE
    if isinstance(t, (T.EnumType, T.FuncType)):
        return "i64"                    # the member's index (ir.types.EnumType), the function's
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

# The library's `i64` mask of the entry function's list parameters (lists, tuples holding
# them) that it writes (bit k) or whose lists may reach its result (bit 32 + k), from
# script.ir.list_flow; defined next to ``script.kernel`` when the entry function takes such
# parameters. The entry point writes those back to the caller's lists (runtime.list_reflect).
REFLECT_SYMBOL = "script.reflect"
ESCAPE_SHIFT = 32


def holds_reflected(t: T.Type) -> bool:
    """Whether a parameter of type `t` holds lists an entry point may write back: a list, a
    tuple holding one (not a dict or set: their tables are copies)."""
    if isinstance(t, T.ListType):
        return True
    return isinstance(t, T.TupleType) and not isinstance(t, T.HashType) and any(
        holds_reflected(e) for e in t.elems)


def reflected_params(param_types) -> bool:
    """Whether an entry point of these parameters may write some back: lists (and tuples of
    them), dicts and sets (runtime.list_reflect, runtime.table_reflect)."""
    return any(_reflects(t) for t in param_types)


def _reflects(t: T.Type) -> bool:
    return holds_reflected(t) or isinstance(t, T.HashType)


def reflect_mask(param_types, writes: dict, returned: set) -> int:
    """REFLECT_SYMBOL's value from script.ir.list_flow's facts (`param_list_effects`)."""
    mask = 0
    for k, t in enumerate(param_types):
        if not _reflects(t) or not (k in returned or any(p == k for p, _ in writes)):
            continue
        if k >= ESCAPE_SHIFT:
            raise CompileError(f"parameter {k + 1} is a list the function writes or returns: only the "
                               f"first {ESCAPE_SHIFT} parameters may be (pass the lists first)")
        if any(p == k for p, _ in writes):
            mask |= 1 << k
        if k in returned:
            mask |= 1 << (ESCAPE_SHIFT + k)
    return mask


def element_type(dtype: T.Type) -> str:
    """The LLVM type of an array element in memory (a bool is a byte)."""
    return "i8" if isinstance(dtype, T.BoolType) else llvm_type(dtype)


def itemsize(dtype: T.Type) -> int:
    return 1 if isinstance(dtype, T.BoolType) else dtype.bits // 8


def alignment(dtype: T.Type) -> int:
    """The alignment NumPy guarantees an aligned array of `dtype`: a complex number's is its
    parts' (complex128: 8), every other element's its size."""
    return dtype.bits // 16 if isinstance(dtype, T.ComplexType) else itemsize(dtype)


def has_arrays(types, in_lists: bool = False) -> bool:
    """Whether any of `types` is an array or a tuple holding one (`in_lists`: or a list)."""
    return any(isinstance(t, T.ArrayType)
               or (isinstance(t, T.TupleType) and has_arrays(t.elems, in_lists))
               or (in_lists and isinstance(t, T.ListType) and has_arrays([t.elem], True)) for t in types)


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
    """The ids of the functions in `funcs` (closed under calls) that may raise: those with
    an op that may raise (`OpInfo.may_raise`), recursive ones (RecursionError), or a call of one that may raise."""
    raising = {id(f) for f in funcs if any(i.op.may_raise for i in f.instructions())}
    raising |= recursive_functions(funcs)
    changed = True
    while changed:
        changed = False
        for f in funcs:
            if id(f) not in raising and any(id(c) in raising for c in f.callees()):
                raising.add(id(f))
                changed = True
    return raising



# How the runtime's ``script.raise`` turns a slot into a ``%s`` argument, for messages that
# print more than ints (script.frontend.messages): 4 bytes per slot after the format's NUL,
# found through the offset in bits 16-29 of ``Env.exc`` (0: the slots go to PyErr_Format as
# they are). A float slot holds the double's bits: ``PyOS_double_to_string(x, code,
# precision, flags)`` makes its text, as CPython's own str() and format() do.
# A str slot (SLOT_STR) holds a reference to a native str (llvm.strings), which the slot's
# text (a Python str for PyErr_Format's ``%U``) takes over and releases.
SLOT_AS_IS, SLOT_FLOAT, SLOT_BOOL, SLOT_STR = 0, 1, 2, 3
# The byte after the last slot's kind, so that the runtime can find every str slot of a
# record it releases (runtime.py_errors) without parsing the format.
KINDS_END = 0xFF
KINDS_SHIFT = 16
DTSF_ADD_DOT_0 = 2          # Py_DTSF_ADD_DOT_0: repr's "1.0" for an integral float
DTSF_SIGN = 1               # Py_DTSF_SIGN: a "+" before a positive number


@dataclass(frozen=True)
class EncodedMessage:
    """A message ready for `PyErr_Format`: an ASCII format, what fills each ``args`` slot
    (an int ``k``, the k-th operand of the check, or bytes: a UTF-8 string for ``%s``) and
    the slots' kinds for ``script.raise`` (empty when every slot goes as it is)."""

    fmt: bytes
    slots: tuple
    kinds: bytes = b""

    def data(self) -> bytes:
        """The bytes of the message's constant: the format, and after its NUL the kinds."""
        return self.fmt + (b"\0" + self.kinds + bytes([KINDS_END]) if self.kinds else b"")

    def exc_word(self, exc_index: int) -> int:
        """``Env.exc`` for this message: the class index and where the kinds are."""
        return exc_index | ((len(self.fmt) + 1) << KINDS_SHIFT if self.kinds else 0)


def encode_message(message: str, nargs: int, loc=None) -> EncodedMessage:
    """Encode a message with `nargs` operand directives (``%lld``, ``%llu``, ``%B``, ``%R``,
    ``%.Nf``/``e``/``g``: script.frontend.messages) (see the module doc)."""
    fmt = []
    slots = []
    kinds = []
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
                kinds.append(bytes(4))

    for m in MESSAGE_DIRECTIVE.finditer(message):
        literal(message[pos:m.start()])
        pos = m.end()
        d = m.group()
        if d == "%%":
            fmt.append(b"%%")
            continue
        slots.append(nint)
        nint += 1
        if d in ("%lld", "%llu"):
            fmt.append(d.encode())
            kinds.append(bytes(4))
        elif d == "%B":
            fmt.append(b"%s")
            kinds.append(bytes([SLOT_BOOL, 0, 0, 0]))
        elif d == "%U":
            fmt.append(b"%U")
            kinds.append(bytes([SLOT_STR, 0, 0, 0]))
        elif d == "%R":
            fmt.append(b"%s")
            kinds.append(bytes([SLOT_FLOAT, ord("r"), 0, DTSF_ADD_DOT_0]))
        elif d in ("%Q", "%+Q"):         # complex_repr's parts: no ".0"; the imaginary one signed
            fmt.append(b"%s")
            kinds.append(bytes([SLOT_FLOAT, ord("r"), 0, DTSF_SIGN if d == "%+Q" else 0]))
        else:
            precision = int(m.group(1))
            if precision > 100:
                raise CompileError(f"a precision of {precision} is not supported in exception messages", loc)
            fmt.append(b"%s")
            kinds.append(bytes([SLOT_FLOAT, ord(m.group(2)), precision, 0]))
    literal(message[pos:])
    if nint != nargs:
        raise CompileError(f"exception message {message!r} has {nint} directives for "
                           f"{nargs} values", loc)
    if len(slots) > MAX_MESSAGE_ARGS:
        raise CompileError(f"an exception message takes at most {MAX_MESSAGE_ARGS} values "
                           f"(each run of non-ASCII text counts as one): {message!r}", loc)
    plain = all(k[0] == SLOT_AS_IS for k in kinds)
    return EncodedMessage(b"".join(fmt), tuple(slots), b"" if plain else b"".join(kinds))


def format_message(data: bytes, args) -> str:
    """The text ``script.raise`` makes of a message constant's `data` (`EncodedMessage.data`)
    and its slots' values `args` (ints as stored: i64 words), in Python: for the GPU
    launcher, which reads the slots back from the device."""
    import struct
    fmt, _, kinds = data.partition(b"\0")
    values = []
    for k, word in enumerate(args):
        kind = kinds[4 * k:4 * k + 4] or bytes(4)
        if kind[0] == SLOT_FLOAT:
            x = struct.unpack("<d", struct.pack("<q", word))[0]
            if kind[1] == ord("r"):
                text = repr(x)
                if not kind[3] & DTSF_ADD_DOT_0 and text.endswith(".0"):
                    text = text[:-2]
                if kind[3] & DTSF_SIGN and not text.startswith("-"):
                    text = "+" + text
                values.append(text)
            else:
                values.append(format(x, f".{kind[2]}{chr(kind[1])}"))
        elif kind[0] == SLOT_BOOL:
            values.append("True" if word else "False")
        else:
            values.append(word)
    text = fmt.decode("ascii", "replace")
    out, pos, k = [], 0, 0
    for m in re.finditer(r"%%|%lld|%llu|%s", text):
        out.append(text[pos:m.start()])
        pos = m.end()
        if m.group() == "%%":
            out.append("%")
            continue
        v = values[k] if k < len(values) else "?"
        if m.group() == "%llu" and isinstance(v, int):
            v &= (1 << 64) - 1
        if m.group() == "%s" and isinstance(v, int):
            v = "?"                 # a string of the host's memory: not seen from the device
        out.append(str(v))
        k += 1
    out.append(text[pos:])
    return "".join(out)
