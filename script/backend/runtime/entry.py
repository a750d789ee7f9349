"""The CPython entry point of one specialization, generated in LLVM IR next to its code.

    PyObject *script.entry.<f>(PyObject *self, PyObject *const *args, size_t nargsf,
                               PyObject *kwnames)

has the signature of a vectorcall and serves two callers:

- installed as the vectorcall of a compiled-function object (`self` is that object) whose only
  specialization it is: it returns the result (a new reference), or NULL with a Python
  exception set, and calls ``self->fallback`` when the call does not match (keywords, another
  number of arguments, another argument type);
- called by the generic dispatcher (runtime.dispatch) with ``self == NULL``: the same, except
  that a mismatch returns `MISMATCH` (the address 1, never an object) instead.

A mismatch is decided before anything is converted, so it never leaves an exception set.
Matching is exact (runtime.boxing); an int out of range raises OverflowError.

The entry owns the `Env` record (llvm.abi) on its stack. When the native function reports an
exception, the entry raises it as ``PyErr_Format(PyExc_<name>, fmt, args...)`` (or
``PyErr_SetNone`` for a message of None).

Everything is one function, into which LLVM inlines the native code when it is small: each
function in a module costs about a millisecond of code generation.
"""

from __future__ import annotations

import llvmlite.ir as ir

from script.ir.core import Function
from script.ir.ops import EXCEPTIONS, ExcInfo
from script.backend.llvm.abi import (
    ENV, ENV_ARGS, ENV_EXC, ENV_FMT, ENV_STATUS, I32, I64, PTR, NativeModule, branch_unlikely,
    entry_name, reachable_functions)
from script.backend.llvm.lower import LoweredModule, load_status
from script.backend.runtime import capi, dispatch
from script.backend.runtime.boxing import Converter
from script.backend.runtime.dispatch import MISMATCH


def build_entry(m: NativeModule, lowered: LoweredModule) -> ir.Function:
    """Add the exported entry point of `lowered.entry` to `m`."""
    func = lowered.entry
    fn = m.new_function(entry_name(func.name), dispatch.VECTORCALL_TYPE, linkage="external")
    self_, args, nargsf, kwnames = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    scratch = b.alloca(I32)
    env = b.alloca(ENV) if lowered.entry_may_raise else None
    mismatch = fn.append_basic_block("mismatch")
    error = fn.append_basic_block("error")
    ir.IRBuilder(error).ret(ir.Constant(PTR, None))
    _emit_mismatch(m, mismatch, self_, args, nargsf, kwnames)
    dispatch.emit_arity_check(b, fn, nargsf, kwnames, ir.Constant(I64, len(func.params)), mismatch)

    conv = Converter(m, fn, b, scratch, error)
    objs = [b.load(b.gep(args, [ir.Constant(I64, k)])) for k in range(len(func.params))]
    for obj, t in zip(objs, func.param_types):
        conv.emit_type_check(obj, t, mismatch)
    values = [conv.emit_unbox(obj, t) for obj, t in zip(objs, func.param_types)]

    env_arg = ir.Constant(PTR, None)
    if env is not None:
        zero = ir.Constant(I32, 0)
        b.store(zero, b.gep(env, [zero, ir.Constant(I32, ENV_STATUS)]))
        env_arg = b.bitcast(env, PTR)
    ret = b.call(lowered.entry_native, [env_arg] + values)
    if env is not None:
        raised = fn.append_basic_block("raised")
        cont = fn.append_basic_block()
        branch_unlikely(b, load_status(b, env_arg), raised, cont)
        b.position_at_end(raised)
        _emit_set_exception(m, b, fn, env, _raised_exceptions(func))
        b.branch(error)
        b.position_at_end(cont)
    b.ret(conv.emit_box(ret, func.ret_type, error))
    return fn


def _emit_mismatch(m: NativeModule, block: ir.Block, self_, args, nargsf, kwnames) -> None:
    """`MISMATCH` for the dispatcher (``self == NULL``), else the object's fallback."""
    b = ir.IRBuilder(block)
    fn = block.parent
    to_dispatcher = fn.append_basic_block("to_dispatcher")
    to_fallback = fn.append_basic_block("to_fallback")
    b.cbranch(b.icmp_unsigned("==", self_, ir.Constant(PTR, None)), to_dispatcher, to_fallback)
    b.position_at_end(to_dispatcher)
    b.ret(ir.Constant(I64, MISMATCH).inttoptr(PTR))
    b.position_at_end(to_fallback)
    dispatch.emit_fallback_call(m, b, fn, self_, args, nargsf, kwnames)


def _raised_exceptions(entry: Function) -> list[str]:
    """The exception classes `entry` and its callees can raise, in EXCEPTIONS order."""
    names = {i.attr.name for f in reachable_functions(entry) for i in f.instructions()
             if isinstance(i.attr, ExcInfo)}
    return [n for n in EXCEPTIONS if n in names]


def _emit_set_exception(m: NativeModule, b: ir.IRBuilder, fn: ir.Function, env: ir.Value,
                        names: list[str]) -> None:
    """Raise the Env's pending exception in Python; `names` are the classes it can be."""
    zero = ir.Constant(I32, 0)

    def field(*index):
        return b.load(b.gep(env, [zero] + [ir.Constant(I32, k) for k in index]))

    exc_index = field(ENV_EXC)
    fmt = field(ENV_FMT)
    slots = [field(ENV_ARGS, k) for k in range(4)]
    join = fn.append_basic_block("exc_class")
    unknown = fn.append_basic_block("exc_unknown")
    switch = b.switch(exc_index, unknown)
    incoming = []
    for name in names:
        case = fn.append_basic_block(f"exc_{name}")
        switch.add_case(ir.Constant(I32, EXCEPTIONS.index(name)), case)
        b.position_at_end(case)
        incoming.append((capi.exception_class(m, b, name), case))
        b.branch(join)
    b.position_at_end(unknown)
    incoming.append((capi.exception_class(m, b, "SystemError"), unknown))
    b.branch(join)

    b.position_at_end(join)
    exc = b.phi(PTR)
    for value, block in incoming:
        exc.add_incoming(value, block)
    no_message = fn.append_basic_block("exc_no_message")
    message = fn.append_basic_block("exc_message")
    done = fn.append_basic_block("exc_set")
    b.cbranch(b.icmp_unsigned("==", fmt, ir.Constant(PTR, None)), no_message, message)
    b.position_at_end(no_message)
    capi.call(m, b, "PyErr_SetNone", exc)
    b.branch(done)
    b.position_at_end(message)
    capi.call(m, b, "PyErr_Format", exc, fmt, *slots)
    b.branch(done)
    b.position_at_end(done)
