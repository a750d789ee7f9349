"""The native ABI of lowered IR functions, and the module builder every lowering step shares.

Calling convention. An IR function ``@f(p0, p1, ...) -> R`` becomes

    R' script.fn.f(Env *env, P0', P1', ...)

where ``X'`` is `llvm_type(X)`: ``bool`` is ``i1``, ints are ``iN`` (signedness lives in the
operations, not the type), floats are ``float``/``double``, ``none`` is the empty struct
``{}`` and a tuple is a literal struct of its element types, passed and returned by value.
A function returning ``none`` returns ``void``. Every lowered function is ``internal`` and
``nounwind``: each compiled library holds its own copy of every function it calls, so LLVM
may inline, clone, change calling conventions and drop unused parameters (``env`` of a
function that cannot raise disappears). The one exported symbol of a library is the CPython
entry point ``script.entry.<f>`` of its entry function (script.backend.runtime.entry).

Exceptions. Native code never touches Python objects or the GIL. Raising stores into the
caller-provided `Env` record and returns an undefined value::

    struct Env {
        i32 status;      // 0: no exception; 1: an exception is pending
        i32 exc;         // index of the exception class in script.ir.ops.EXCEPTIONS
        i8 *fmt;         // printf-style message for PyErr_Format, or NULL (no arguments)
        i64 args[4];     // message arguments: ints widened to i64 (signed ints sign-extend,
                         // unsigned zero-extend), or C strings (see below)
    };

After a call to a function that may raise (`compute_may_raise`), the caller tests
``env->status`` and, when set, returns at once without touching the record, so the
exception reaches the entry point unchanged. The CPython entry point (script.backend.runtime)
owns the record, and turns a pending exception into ``PyErr_Format(PyExc_<exc>, fmt, args...)``.

Messages. `PyErr_Format` reads only ASCII formats. A message with non-ASCII text is encoded
by `encode_message`: each run of non-ASCII characters becomes a ``%s`` whose argument is a
pointer to that run's UTF-8 bytes, stored in an ``args`` slot (pointers and ``long long``
travel identically through C varargs on the 64-bit targets we support).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import llvmlite.ir as ir

from script.errors import CompileError
from script.ir import types as T
from script.ir.core import Function

I1 = ir.IntType(1)
I8 = ir.IntType(8)
I32 = ir.IntType(32)
I64 = ir.IntType(64)
PTR = I8.as_pointer()
VOID = ir.VoidType()
NONE_TYPE = ir.LiteralStructType([])
NONE_VALUE = ir.Constant(NONE_TYPE, None)

MAX_MESSAGE_ARGS = 4
ENV = ir.LiteralStructType([I32, I32, PTR, ir.ArrayType(I64, MAX_MESSAGE_ARGS)])
ENV_STATUS, ENV_EXC, ENV_FMT, ENV_ARGS = range(4)

FN_PREFIX = "script.fn."
ENTRY_PREFIX = "script.entry."


def llvm_type(t: T.Type) -> ir.Type:
    """The LLVM type of an IR value of type `t`."""
    if isinstance(t, T.BoolType):
        return I1
    if isinstance(t, T.IntType):
        return ir.IntType(t.bits)
    if isinstance(t, T.FloatType):
        return ir.FloatType() if t.bits == 32 else ir.DoubleType()
    if isinstance(t, T.NoneType):
        return NONE_TYPE
    if isinstance(t, T.TupleType):
        return ir.LiteralStructType([llvm_type(e) for e in t.elems])
    raise AssertionError(f"no LLVM type for {t}")


def llvm_return_type(t: T.Type) -> ir.Type:
    return VOID if isinstance(t, T.NoneType) else llvm_type(t)


def native_function_type(func: Function) -> ir.FunctionType:
    return ir.FunctionType(llvm_return_type(func.ret_type),
                           [PTR] + [llvm_type(t) for t in func.param_types])


def entry_name(func_name: str) -> str:
    """The exported symbol of the CPython entry point of a function (runtime.entry)."""
    return ENTRY_PREFIX + func_name


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


def compute_may_raise(funcs: list[Function]) -> set[int]:
    """The ids of the functions in `funcs` (closed under calls) that may raise: those with a
    `check` or `raise`, or a call of one that may raise. A least fixpoint, so mutually
    recursive functions that never raise are found not to."""
    raising = {id(f) for f in funcs
               if any(i.opname in ("check", "raise") for i in f.instructions())}
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


class NativeModule:
    """An `llvmlite.ir.Module` under construction, with caches so that each declaration,
    intrinsic and constant string appears once however many lowering steps ask for it."""

    def __init__(self, name: str, triple: str = "", data_layout: str = ""):
        self.ir = ir.Module(name)
        if triple:
            self.ir.triple = triple
        if data_layout:
            self.ir.data_layout = data_layout
        self._strings: dict[bytes, ir.GlobalVariable] = {}
        self.helpers: dict[str, ir.Function] = {}   # internal helpers made on demand

    def declare(self, name: str, ret: ir.Type, args, var_arg: bool = False,
                attrs=()) -> ir.Function:
        """The function `name`, declared (external) on first use."""
        fn = self.ir.globals.get(name)
        if fn is None:
            fn = ir.Function(self.ir, ir.FunctionType(ret, list(args), var_arg=var_arg), name)
            for a in attrs:
                fn.attributes.add(a)
        return fn

    def declare_data(self, name: str, type: ir.Type = I8) -> ir.GlobalVariable:
        """An external global variable; its address is the symbol's address."""
        g = self.ir.globals.get(name)
        if g is None:
            g = ir.GlobalVariable(self.ir, type, name)
            g.linkage = "external"
        return g

    def intrinsic(self, name: str, ret: ir.Type, args) -> ir.Function:
        return self.declare(name, ret, args)

    def cstring(self, data: bytes) -> ir.Constant:
        """A pointer to a private, NUL-terminated constant copy of `data`."""
        g = self._strings.get(data)
        if g is None:
            raw = bytearray(data + b"\0")
            g = ir.GlobalVariable(self.ir, ir.ArrayType(I8, len(raw)),
                                  f"script.str.{len(self._strings)}")
            g.linkage = "private"
            g.global_constant = True
            g.unnamed_addr = True
            g.initializer = ir.Constant(ir.ArrayType(I8, len(raw)), raw)
            self._strings[data] = g
        return g.bitcast(PTR)

    def new_function(self, name: str, fnty: ir.FunctionType, linkage: str = "internal",
                     attrs=("nounwind",)) -> ir.Function:
        fn = ir.Function(self.ir, fnty, name)
        fn.linkage = linkage
        for a in attrs:
            fn.attributes.add(a)
        return fn


def const_int(t: ir.IntType, value: int) -> ir.Constant:
    """An integer constant from any Python int, reduced to `t`'s width (two's complement)."""
    bits = t.width
    value &= (1 << bits) - 1
    if value >> (bits - 1):
        value -= 1 << bits
    return ir.Constant(t, value)


def gep_bytes(b: ir.IRBuilder, ptr: ir.Value, offset: int, to: ir.Type | None = None) -> ir.Value:
    """``ptr + offset`` bytes, as a pointer to `to` (default i8)."""
    p = b.gep(b.bitcast(ptr, PTR), [ir.Constant(I64, offset)]) if offset else b.bitcast(ptr, PTR)
    return b.bitcast(p, to.as_pointer()) if to is not None else p


def load_at(b: ir.IRBuilder, ptr: ir.Value, offset: int, type: ir.Type) -> ir.Value:
    """The `type` value stored `offset` bytes after `ptr`."""
    return b.load(gep_bytes(b, ptr, offset, type))


def branch_unlikely(b: ir.IRBuilder, cond: ir.Value, unlikely: ir.Block, likely: ir.Block) -> None:
    """``br cond, unlikely, likely`` with branch weights that keep `unlikely` off the hot path."""
    br = b.cbranch(cond, unlikely, likely)
    br.set_weights([1, 2000])
