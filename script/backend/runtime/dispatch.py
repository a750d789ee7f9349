"""The C functions of the compiled-function type, generated in LLVM IR once per process.

Instance layout (`struct CompiledFunction`, 64-bit)::

    offset  field
       0    PyObject_HEAD (ob_refcnt, ob_type)
      16    vectorcallfunc vectorcall                             (__vectorcalloffset__)
      24    PyObject *dict                                        (__dictoffset__)
      32    PyObject *weaklist                                    (__weaklistoffset__)
      40    PyObject *fallback      called when no specialization matches
      48    PyObject *keepalive     a list owning the entry tables and their libraries
      56    Py_ssize_t nargs        positional arguments every specialization takes (-1: none)
      64    Py_ssize_t ntry         entries of `tries` in use
      72    vectorcallfunc *tries   entry points (runtime.entry), tried in order

The vectorcall slot holds the entry point of the only specialization when there is one (it
calls the fallback itself when the call does not match), and ``script.dispatch`` otherwise:
with keyword arguments or a different number of positional arguments it calls the fallback at
once; otherwise it calls ``tries[i](NULL, args, nargsf, NULL)`` in order until one returns
something other than `MISMATCH` (a result, or NULL with an exception set), and calls the
fallback when all mismatch. The fallback receives exactly the caller's vectorcall arguments.
``script.traverse``, ``script.clear`` and ``script.dealloc`` make
instances take part in cyclic garbage collection (their dict usually holds the Python function,
whose globals hold the instance).

Invariant: `tries[:ntry]` and the code they point to stay alive while `keepalive` is
referenced; a writer sets `ntry` to 0 before changing `tries` or `nargs` (runtime.heaptype).
"""

from __future__ import annotations

import threading

import llvmlite.ir as ir

from script.backend.llvm.abi import I32, I64, PTR, NativeModule, const_int, gep_bytes, load_at
from script.backend.llvm.jit import get_jit
from script.backend.runtime import capi
from script.backend.runtime.symbols import symbol_library

MISMATCH = 1        # what an entry point called with self == NULL returns for a mismatch

VECTORCALL, DICT, WEAKLIST, FALLBACK, KEEPALIVE, NARGS, NTRY, TRIES = range(16, 80, 8)
BASICSIZE = 80
OBJECT_FIELDS = (DICT, FALLBACK, KEEPALIVE)      # strong references, visited and cleared

SYMBOLS = ("script.dispatch", "script.traverse", "script.clear", "script.dealloc")


class RuntimeLibrary:
    """The loaded runtime functions: `address[name]` for each name in `SYMBOLS`."""

    def __init__(self, tracker):
        self._tracker = tracker
        self.address = {name: tracker[name] for name in SYMBOLS}


_runtime: RuntimeLibrary | None = None
_runtime_lock = threading.Lock()


def runtime_library() -> RuntimeLibrary:
    """The runtime functions, compiled and loaded on first use, then kept for the process."""
    global _runtime
    with _runtime_lock:
        if _runtime is None:
            jit = get_jit()
            m = NativeModule("script.runtime", jit.triple, jit.data_layout)
            clear = _build_clear(m, build_dispatch(m))
            _build_traverse(m)
            _build_dealloc(m, clear)
            mod = jit.parse(str(m.ir))
            jit.optimize(mod, 2)
            _runtime = RuntimeLibrary(jit.link(jit.emit_object(mod), SYMBOLS, [symbol_library()]))
        return _runtime


def _null():
    return ir.Constant(PTR, None)


VECTORCALL_TYPE = ir.FunctionType(PTR, [PTR, PTR.as_pointer(), I64, PTR])


def build_dispatch(m: NativeModule) -> ir.Function:
    """``script.dispatch``: the vectorcall of an object with several specializations. It
    calls each entry of the table (runtime.entry) with ``self == NULL`` until one does not
    return MISMATCH, then the fallback."""
    fn = m.new_function("script.dispatch", VECTORCALL_TYPE, linkage="external")
    self_, args, nargsf, kwnames = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    fallback = fn.append_basic_block("fallback")
    emit_arity_check(b, fn, nargsf, kwnames, load_at(b, self_, NARGS, I64), fallback)
    start = b.block
    loop, body, done = (fn.append_basic_block(n) for n in ("loop", "try", "done"))
    ntry = load_at(b, self_, NTRY, I64)
    tries = load_at(b, self_, TRIES, VECTORCALL_TYPE.as_pointer().as_pointer())
    b.branch(loop)
    b.position_at_end(loop)
    i = b.phi(I64)
    i.add_incoming(ir.Constant(I64, 0), start)
    b.cbranch(b.icmp_signed("<", i, ntry), body, fallback)
    b.position_at_end(body)
    result = b.call(b.load(b.gep(tries, [i])), [_null(), args, nargsf, _null()])
    i.add_incoming(b.add(i, ir.Constant(I64, 1)), body)
    mismatch = ir.Constant(I64, MISMATCH).inttoptr(PTR)
    b.cbranch(b.icmp_unsigned("==", result, mismatch), loop, done)
    b.position_at_end(done)
    b.ret(result)
    b.position_at_end(fallback)
    emit_fallback_call(m, b, fn, self_, args, nargsf, kwnames)
    return fn


def emit_arity_check(b: ir.IRBuilder, fn: ir.Function, nargsf: ir.Value, kwnames: ir.Value,
                     nargs: ir.Value, otherwise: ir.Block) -> None:
    """Continue if the call has `nargs` positional arguments and no keywords, else go to
    `otherwise`."""
    count = b.and_(nargsf, const_int(I64, (1 << 63) - 1))   # drop PY_VECTORCALL_ARGUMENTS_OFFSET
    keywords, positional = fn.append_basic_block("keywords"), fn.append_basic_block("positional")
    b.cbranch(b.icmp_unsigned("!=", kwnames, _null()), keywords, positional)
    b.position_at_end(keywords)
    nkw = load_at(b, kwnames, capi.VAR_SIZE, I64)
    b.cbranch(b.icmp_unsigned("!=", nkw, ir.Constant(I64, 0)), otherwise, positional)
    b.position_at_end(positional)
    cont = fn.append_basic_block()
    b.cbranch(b.icmp_unsigned("==", count, nargs), cont, otherwise)
    b.position_at_end(cont)


def emit_fallback_call(m: NativeModule, b: ir.IRBuilder, fn: ir.Function, self_, args, nargsf,
                       kwnames) -> None:
    """Return ``PyObject_Vectorcall(self->fallback, args, nargsf, kwnames)``."""
    fallback = load_at(b, self_, FALLBACK, PTR)
    present, orphan = fn.append_basic_block("call_fallback"), fn.append_basic_block("orphan")
    b.cbranch(b.icmp_unsigned("!=", fallback, _null()), present, orphan)
    b.position_at_end(present)
    b.ret(capi.call(m, b, "PyObject_Vectorcall", fallback, args, nargsf, kwnames))
    b.position_at_end(orphan)       # only after tp_clear broke a reference cycle
    capi.call(m, b, "PyErr_SetString", capi.exception_class(m, b, "RuntimeError"),
              m.cstring(b"compiled function called after it was cleared"))
    b.ret(_null())


def _build_clear(m: NativeModule, dispatch: ir.Function) -> ir.Function:
    """``script.clear``: drop the object's references. The object may still be called
    afterwards (by a finalizer in the same garbage cycle), so it first goes back to the
    generic dispatch with no entries, whose fallback path reports the cleared state."""
    fn = m.new_function("script.clear", ir.FunctionType(I32, [PTR]), linkage="external")
    self_ = fn.args[0]
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    b.store(ir.Constant(I64, 0), gep_bytes(b, self_, NTRY, I64))
    b.store(dispatch, gep_bytes(b, self_, VECTORCALL, dispatch.type))
    for offset in OBJECT_FIELDS:
        slot = gep_bytes(b, self_, offset, PTR)
        obj = b.load(slot)
        with b.if_then(b.icmp_unsigned("!=", obj, _null())):
            b.store(_null(), slot)
            capi.call(m, b, "Py_DecRef", obj)
    b.ret(ir.Constant(I32, 0))
    return fn


def _build_traverse(m: NativeModule) -> None:
    visit_type = ir.FunctionType(I32, [PTR, PTR])
    fnty = ir.FunctionType(I32, [PTR, visit_type.as_pointer(), PTR])
    fn = m.new_function("script.traverse", fnty, linkage="external")
    self_, visit, arg = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    stop = fn.append_basic_block("stop")
    rb = ir.IRBuilder(stop)
    code = rb.phi(I32)
    rb.ret(code)
    zero = ir.Constant(I32, 0)
    for offset in (capi.OB_TYPE,) + OBJECT_FIELDS:       # heap types visit their type
        obj = load_at(b, self_, offset, PTR)
        present = fn.append_basic_block()
        after = fn.append_basic_block()
        b.cbranch(b.icmp_unsigned("!=", obj, _null()), present, after)
        b.position_at_end(present)
        r = b.call(visit, [obj, arg])
        code.add_incoming(r, present)
        b.cbranch(b.icmp_signed("!=", r, zero), stop, after)
        b.position_at_end(after)
    code.add_incoming(zero, b.block)
    b.branch(stop)


def _build_dealloc(m: NativeModule, clear: ir.Function) -> None:
    fn = m.new_function("script.dealloc", ir.FunctionType(ir.VoidType(), [PTR]), linkage="external")
    self_ = fn.args[0]
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    tp = load_at(b, self_, capi.OB_TYPE, PTR)
    capi.call(m, b, "PyObject_GC_UnTrack", self_)
    weaklist = load_at(b, self_, WEAKLIST, PTR)
    with b.if_then(b.icmp_unsigned("!=", weaklist, _null())):
        capi.call(m, b, "PyObject_ClearWeakRefs", self_)
    b.call(clear, [self_])
    capi.call(m, b, "PyObject_GC_Del", self_)
    capi.call(m, b, "Py_DecRef", tp)
    b.ret_void()
