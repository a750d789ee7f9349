"""Exceptions caught in compiled code (script.frontend.exceptions), lowered to LLVM IR.

An IR value of type ``exc`` is the `Env`'s first four fields (abi `EXC_TYPE`: status, class
word, message format, message arguments), exactly as a raise records them, so that an
exception taken from the Env (`catch`) and stored back (`reraise`) keeps its message, and
one made in the function (`exception`) is what `emit_raise` would have stored.
"""

from __future__ import annotations

from script.backend.llvm import builder as llvm
from script.backend.llvm.abi import ENV_STATUS, EXC_TYPE
from script.backend.llvm.builder import Builder
from script.ir.ops import EXCEPTIONS, is_subclass

# The Env's status of an exception recorded by compiled code (2: a Python exception set by a
# signal handler, which no clause matches).
STATUS_RECORDED = 1


def make(b: Builder, exc_word: int, fmt: llvm.Value, slots: list) -> llvm.Value:
    """The value of an exception of class word `exc_word`, format `fmt`, argument `slots`."""
    out = llvm.Value(EXC_TYPE, "zeroinitializer")
    out = b.insert_value(out, llvm.int_const("i32", STATUS_RECORDED), 0)
    out = b.insert_value(out, llvm.int_const("i32", exc_word), 1)
    out = b.insert_value(out, fmt, 2)
    for k, a in enumerate(slots):
        if a.type == "ptr":
            a = b.ptrtoint(a, "i64")
        out = b.insert_value(out, a, f"3, {k}")
    return out


def catch(b: Builder, env: llvm.Value) -> llvm.Value:
    """Take the pending exception: load it, clear the status."""
    exc = b.load(EXC_TYPE, env, 8)
    b.store_at(llvm.int_const("i32", 0), env, ENV_STATUS)
    return exc


def reraise(b: Builder, env: llvm.Value, exc: llvm.Value) -> None:
    """Make `exc` the pending exception again (the caller then unwinds)."""
    b.store(exc, env, 8)


def match(b: Builder, exc: llvm.Value, cls: str) -> llvm.Value:
    """Whether `exc` was recorded by compiled code (status 1) with a class index (the low 16
    bits of the class word: abi) of `cls` or a subclass: compares with those indices, or
    with the others when they are fewer (``except Exception:``)."""
    status = b.extract_value(exc, 0, "i32")
    index = b.and_(b.extract_value(exc, 1, "i32"), llvm.int_const("i32", 0xFFFF))
    inside = subclass_indices(cls)
    outside = [k for k in range(len(EXCEPTIONS)) if k not in inside]
    if len(outside) < len(inside):
        test = b.icmp("ult", index, llvm.int_const("i32", len(EXCEPTIONS)))
        for k in outside:
            test = b.and_(test, b.icmp("ne", index, llvm.int_const("i32", k)))
    else:
        test = llvm.int_const("i1", 0)
        for k in sorted(inside):
            test = b.or_(test, b.icmp("eq", index, llvm.int_const("i32", k)))
    return b.and_(test, b.icmp("eq", status, llvm.int_const("i32", STATUS_RECORDED)))


def emit_rc(m, b: Builder, env: llvm.Value, kind: str, exc: llvm.Value) -> None:
    """Count the references `exc` holds (its message's strs, or the Python exception of a
    record CPython made: runtime.py_errors) one more or one less."""
    record = b.entry_alloca(EXC_TYPE)
    b.store(exc, record)
    name = "script.exc.incref" if kind == "incref" else "script.exc.decref"
    b.call(m.declare(name, "void", ["ptr", "ptr"], attrs=("nounwind",)), [env, record])


def subclass_indices(name: str) -> set[int]:
    """The indices in EXCEPTIONS of builtin class `name` and its subclasses."""
    return {k for k, e in enumerate(EXCEPTIONS) if is_subclass(e, name)}
