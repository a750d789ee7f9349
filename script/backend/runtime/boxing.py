"""Conversion between Python objects and native values, generated in LLVM IR.

Argument matching is exact, never a coercion: an int parameter accepts exactly `int` (not
`bool`, not a subclass), `bool` exactly `bool`, a float exactly `float`, ``none`` exactly
`None`, a tuple exactly a `tuple` of the same length whose items match. Matching
(`emit_type_check`) is separate from conversion (`emit_unbox`) so an entry point can reject
a call whose types do not match before any conversion raises (an int out of range raises
OverflowError; a mismatch lets the dispatcher try the next specialization).

Results are new references; a failed allocation branches to the caller's error path with the
Python exception set and every partly built object released.
"""

from __future__ import annotations

import llvmlite.ir as ir

from script.ir import types as T
from script.backend.llvm.abi import (
    I32, I64, NONE_VALUE, PTR, NativeModule, const_int, llvm_type, load_at)
from script.backend.runtime import capi
from script.backend.runtime.capi import FLOAT_VALUE, OB_TYPE, TUPLE_ITEMS, VAR_SIZE

_TYPE_OBJECT = {T.BoolType: "PyBool_Type", T.IntType: "PyLong_Type",
                T.FloatType: "PyFloat_Type", T.TupleType: "PyTuple_Type"}


class Converter:
    """Emits conversions into `fn` through the builder `b`.

    `scratch` is an ``i32`` alloca in the entry block (the overflow flag of
    PyLong_AsLongLongAndOverflow); `error` is a block that returns the caller's error value
    with a Python exception set.
    """

    def __init__(self, m: NativeModule, fn: ir.Function, b: ir.IRBuilder, scratch: ir.Value,
                 error: ir.Block):
        self.m = m
        self.fn = fn
        self.b = b
        self.scratch = scratch
        self.error = error

    def _continue_if(self, cond: ir.Value, otherwise: ir.Block) -> None:
        """Go on in a fresh block when `cond` holds, else jump to `otherwise`."""
        cont = self.fn.append_basic_block()
        self.b.cbranch(cond, cont, otherwise).set_weights([2000, 1])
        self.b.position_at_end(cont)

    def _raise(self, exc: str, message: str) -> ir.Block:
        """A block that sets ``exc(message)`` and goes to the error path."""
        block = self.fn.append_basic_block("overflow")
        b = ir.IRBuilder(block)
        capi.call(self.m, b, "PyErr_SetString", capi.exception_class(self.m, b, exc),
                  self.m.cstring(message.encode()))
        b.branch(self.error)
        return block

    # --- Python -> native ------------------------------------------------------------------

    def emit_type_check(self, obj: ir.Value, t: T.Type, mismatch: ir.Block) -> None:
        """Continue only if `obj` exactly matches `t`; jump to `mismatch` otherwise."""
        b = self.b
        if isinstance(t, T.NoneType):
            self._continue_if(b.icmp_unsigned("==", obj, capi.address_of(self.m, "_Py_NoneStruct")),
                              mismatch)
            return
        tp = load_at(b, obj, OB_TYPE, PTR)
        want = capi.address_of(self.m, _TYPE_OBJECT[type(t)])
        self._continue_if(b.icmp_unsigned("==", tp, want), mismatch)
        if isinstance(t, T.TupleType):
            size = load_at(b, obj, VAR_SIZE, I64)
            self._continue_if(b.icmp_unsigned("==", size, ir.Constant(I64, len(t.elems))), mismatch)
            for k, elem in enumerate(t.elems):
                self.emit_type_check(load_at(b, obj, TUPLE_ITEMS + 8 * k, PTR), elem, mismatch)

    def emit_unbox(self, obj: ir.Value, t: T.Type) -> ir.Value:
        """The native value of `obj`, which `emit_type_check` has matched against `t`."""
        b = self.b
        if isinstance(t, T.NoneType):
            return NONE_VALUE
        if isinstance(t, T.BoolType):
            return b.icmp_unsigned("==", obj, capi.address_of(self.m, "_Py_TrueStruct"))
        if isinstance(t, T.FloatType):
            v = load_at(b, obj, FLOAT_VALUE, ir.DoubleType())
            return b.fptrunc(v, llvm_type(t)) if t.bits == 32 else v
        if isinstance(t, T.IntType):
            return self._unbox_int(obj, t)
        out = ir.Constant(llvm_type(t), ir.Undefined)
        for k, elem in enumerate(t.elems):
            item = load_at(b, obj, TUPLE_ITEMS + 8 * k, PTR)
            out = b.insert_value(out, self.emit_unbox(item, elem), k)
        return out

    def _unbox_int(self, obj: ir.Value, t: T.IntType) -> ir.Value:
        """`obj` (an exact int) as `t`, range-checked: inline for ints of one digit, through
        the C-API otherwise."""
        b = self.b
        merge = self.fn.append_basic_block()
        fast = capi.emit_small_int(b, obj)
        if fast is not None:
            ok, small = fast
            if t == T.U64:          # negative values take the slow path, which raises
                ok = b.and_(ok, b.icmp_signed(">=", small, ir.Constant(I64, 0)))
            fast_end = b.block
            slow = self.fn.append_basic_block()
            b.cbranch(ok, merge, slow).set_weights([2000, 1])
            b.position_at_end(slow)
        big = self._unbox_int_slow(obj, t)
        b.branch(merge)
        slow_end = b.block
        b.position_at_end(merge)
        v = big
        if fast is not None:
            v = b.phi(I64)
            v.add_incoming(small, fast_end)
            v.add_incoming(big, slow_end)
        if t.bits == 64:
            return v
        message = f"Python int too large to convert to {t}"
        too_big = b.icmp_signed(">", v, ir.Constant(I64, t.max))
        self._continue_if(b.not_(too_big), self._raise("OverflowError", message))
        low = (f"Python int too small to convert to {t}" if t.signed
               else f"can't convert negative int to {t}")
        too_small = b.icmp_signed("<", v, ir.Constant(I64, t.min))
        self._continue_if(b.not_(too_small), self._raise("OverflowError", low))
        return b.trunc(v, llvm_type(t))

    def _unbox_int_slow(self, obj: ir.Value, t: T.IntType) -> ir.Value:
        """The C-API conversion: to u64 for `u64`, else to i64 (OverflowError past it)."""
        b = self.b
        if t == T.U64:
            v = capi.call(self.m, b, "PyLong_AsUnsignedLongLong", obj)
            maybe_error = self.fn.append_basic_block()
            cont = self.fn.append_basic_block()
            b.cbranch(b.icmp_unsigned("==", v, const_int(I64, -1)), maybe_error, cont)
            b.position_at_end(maybe_error)
            failed = b.icmp_unsigned("!=", capi.call(self.m, b, "PyErr_Occurred"),
                                     ir.Constant(PTR, None))
            b.cbranch(failed, self.error, cont)
            b.position_at_end(cont)
            return v
        v = capi.call(self.m, b, "PyLong_AsLongLongAndOverflow", obj, self.scratch)
        fits = b.icmp_unsigned("==", b.load(self.scratch), ir.Constant(I32, 0))
        message = ("Python int too large to convert to C long" if t == T.I64
                   else f"Python int too large to convert to {t}")
        self._continue_if(fits, self._raise("OverflowError", message))
        return v

    # --- native -> Python ------------------------------------------------------------------

    def emit_box(self, v: ir.Value, t: T.Type, on_null: ir.Block) -> ir.Value:
        """A new reference to the Python object for native `v` of type `t`; jumps to
        `on_null` (exception set) if allocation fails."""
        b = self.b
        m = self.m
        if isinstance(t, T.NoneType):
            return capi.call(m, b, "Py_NewRef", capi.address_of(m, "_Py_NoneStruct"))
        if isinstance(t, T.BoolType):
            obj = b.select(v, capi.address_of(m, "_Py_TrueStruct"),
                           capi.address_of(m, "_Py_FalseStruct"))
            return capi.call(m, b, "Py_NewRef", obj)
        if isinstance(t, T.TupleType):
            return self._box_tuple(v, t, on_null)
        if isinstance(t, T.FloatType):
            d = b.fpext(v, ir.DoubleType()) if t.bits == 32 else v
            obj = capi.call(m, b, "PyFloat_FromDouble", d)
        elif t.signed:
            obj = capi.call(m, b, "PyLong_FromLongLong", b.sext(v, I64) if t.bits < 64 else v)
        else:
            obj = capi.call(m, b, "PyLong_FromUnsignedLongLong",
                            b.zext(v, I64) if t.bits < 64 else v)
        self._continue_if(b.icmp_unsigned("!=", obj, ir.Constant(PTR, None)), on_null)
        return obj

    def _box_tuple(self, v: ir.Value, t: T.TupleType, on_null: ir.Block) -> ir.Value:
        b = self.b
        tup = capi.call(self.m, b, "PyTuple_New", ir.Constant(I64, len(t.elems)))
        self._continue_if(b.icmp_unsigned("!=", tup, ir.Constant(PTR, None)), on_null)
        release = self.fn.append_basic_block("release")
        rb = ir.IRBuilder(release)
        capi.call(self.m, rb, "Py_DecRef", tup)
        rb.branch(on_null)
        for k, elem in enumerate(t.elems):
            item = self.emit_box(b.extract_value(v, k), elem, release)
            capi.call(self.m, b, "PyTuple_SetItem", tup, ir.Constant(I64, k), item)
        return tup
