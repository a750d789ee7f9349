"""The C functions of the compiled-function type, generated in LLVM IR once per machine
(into the runtime library, runtime.shared). The instance layout is runtime.layout's.

The vectorcall slot holds the entry point of the only specialization when there is one (it
calls the fallback itself when the call does not match), and ``script.dispatch`` otherwise:
with keyword arguments or a different number of positional arguments it calls the fallback at
once; otherwise it calls ``tries[i](NULL, args, nargsf, NULL)`` in order until one returns
something other than `MISMATCH` (a result, or NULL with an exception set; `RERUN`: NULL, but
the call may run again, runtime.entry `script.rerun`), and calls the fallback when all
mismatch. The fallback receives exactly the caller's vectorcall arguments.
``script.traverse``, ``script.clear`` and ``script.dealloc`` make
instances take part in cyclic garbage collection (their dict usually holds the Python function,
whose globals hold the instance).

Invariant: `tries[:ntry]` and the code they point to stay alive while `keepalive` is
referenced; a writer sets `ntry` to 0 before changing `tries` or `nargs` (script.loadpath).
"""

from __future__ import annotations

from script.backend.llvm.abi import LIKELY, RERUN_SYMBOL
from script.backend.llvm.builder import (
    NULL, Builder, Callee, Function, NativeModule, Value, global_ref, int_const)
from script.backend.runtime import capi
from script.backend.runtime.layout import (
    FALLBACK, NARGS, NTRY, OBJECT_FIELDS, TRIES, VECTORCALL, WEAKLIST)

MISMATCH = 1        # what an entry point called with self == NULL returns for a mismatch
MISMATCH_VALUE = Value("ptr", f"inttoptr (i64 {MISMATCH} to ptr)")
RERUN = 2           # ... for a call that raised and may run again (runtime.entry `script.rerun`)
RERUN_VALUE = Value("ptr", f"inttoptr (i64 {RERUN} to ptr)")

# PyObject *(*vectorcallfunc)(PyObject *callable, PyObject *const *args, size_t nargsf,
#                             PyObject *kwnames)
VECTORCALL_RET, VECTORCALL_PARAMS = "ptr", ("ptr", "ptr", "i64", "ptr")


def build_runtime(m: NativeModule) -> list[str]:
    """Define the type's functions in `m` (the runtime library); returns their names."""
    dispatch = build_dispatch(m)
    clear = _build_clear(m, dispatch)
    traverse = _build_traverse(m)
    dealloc = _build_dealloc(m, clear)
    return [f.name for f in (dispatch, traverse, clear, dealloc)]


def build_dispatch(m: NativeModule) -> Function:
    """``script.dispatch``: the vectorcall of an object with several specializations. It
    calls each entry of the table (runtime.entry) with ``self == NULL`` until one does not
    return MISMATCH, then the fallback."""
    fn = m.new_function("script.dispatch", VECTORCALL_RET, VECTORCALL_PARAMS, linkage="external")
    self_, args, nargsf, kwnames = fn.args
    start = fn.append_block("entry")
    b = Builder(fn, start)
    fallback = fn.append_block("fallback")
    emit_arity_check(b, fn, nargsf, kwnames, b.load_at("i64", self_, NARGS), fallback)
    loop, body, done = (fn.append_block(n) for n in ("loop", "try", "done"))
    ntry = b.load_at("i64", self_, NTRY)
    tries = b.load_at("ptr", self_, TRIES)
    before_loop = b.block
    b.branch(loop)
    b.position_at_end(loop)
    i = b.phi("i64")
    i.add_incoming(int_const("i64", 0), before_loop)
    b.cbranch(b.icmp("slt", i, ntry), body, fallback)
    b.position_at_end(body)
    entry = Callee(b.load("ptr", b.gep("ptr", tries, i)).ref, VECTORCALL_RET, VECTORCALL_PARAMS)
    result = b.call(entry, [NULL, args, nargsf, NULL])
    i.add_incoming(b.add(i, int_const("i64", 1)), body)
    b.cbranch(b.icmp("eq", result, MISMATCH_VALUE), loop, done)
    b.position_at_end(done)
    again, returned = fn.append_block("rerun"), fn.append_block("returned")
    b.cbranch(b.icmp("eq", result, RERUN_VALUE), again, returned)
    b.position_at_end(again)
    rerun = Callee(global_ref(RERUN_SYMBOL), VECTORCALL_RET, VECTORCALL_PARAMS)    # (defined beside)
    b.ret(b.call(rerun, [self_, args, nargsf, kwnames]))
    b.position_at_end(returned)
    b.ret(result)
    b.position_at_end(fallback)
    emit_fallback_call(m, b, fn, self_, args, nargsf, kwnames)
    return fn


def emit_arity_check(b: Builder, fn: Function, nargsf: Value, kwnames: Value, nargs: Value,
                     otherwise) -> None:
    """Continue if the call has `nargs` positional arguments and no keyword names, else go to
    `otherwise`. An empty `kwnames` tuple goes to `otherwise` too (CPython passes NULL when
    there are no keywords; the fallback handles the rare caller that does not)."""
    count = b.and_(nargsf, int_const("i64", (1 << 63) - 1))   # drop PY_VECTORCALL_ARGUMENTS_OFFSET
    ok = b.and_(b.icmp("eq", kwnames, NULL), b.icmp("eq", count, nargs))
    cont = fn.append_block()
    b.cbranch(ok, cont, otherwise, LIKELY)
    b.position_at_end(cont)


def emit_fallback_call(m: NativeModule, b: Builder, fn: Function, self_, args, nargsf,
                       kwnames) -> None:
    """Return ``PyObject_Vectorcall(self->fallback, args, nargsf, kwnames)``."""
    fallback = b.load_at("ptr", self_, FALLBACK)
    present, orphan = fn.append_block("call_fallback"), fn.append_block("orphan")
    b.cbranch(b.icmp("ne", fallback, NULL), present, orphan)
    b.position_at_end(present)
    b.ret(capi.call(m, b, "PyObject_Vectorcall", fallback, args, nargsf, kwnames))
    b.position_at_end(orphan)       # only after tp_clear broke a reference cycle
    capi.call(m, b, "PyErr_SetString", capi.exception_class(m, b, "RuntimeError"),
              m.cstring(b"compiled function called after it was cleared"))
    b.ret(NULL)


def _build_clear(m: NativeModule, dispatch: Callee) -> Function:
    """``script.clear``: drop the object's references. The object may still be called
    afterwards (by a finalizer in the same garbage cycle), so it first goes back to the
    generic dispatch with no entries, whose fallback path reports the cleared state."""
    fn = m.new_function("script.clear", "i32", ["ptr"], linkage="external")
    self_, = fn.args
    b = Builder(fn, fn.append_block("entry"))
    b.store_at(int_const("i64", 0), self_, NTRY)
    b.store_at(dispatch.pointer, self_, VECTORCALL)
    for offset in OBJECT_FIELDS:
        slot = b.offset(self_, offset)
        obj = b.load("ptr", slot)
        present, after = fn.append_block("present"), fn.append_block("after")
        b.cbranch(b.icmp("ne", obj, NULL), present, after)
        b.position_at_end(present)
        b.store(NULL, slot)
        capi.call(m, b, "Py_DecRef", obj)
        b.branch(after)
        b.position_at_end(after)
    b.ret(int_const("i32", 0))
    return fn


def _build_traverse(m: NativeModule) -> Function:
    fn = m.new_function("script.traverse", "i32", ["ptr", "ptr", "ptr"], linkage="external")
    self_, visit_ptr, arg = fn.args
    visit = Callee(visit_ptr.ref, "i32", ["ptr", "ptr"])
    b = Builder(fn, fn.append_block("entry"))
    stop = fn.append_block("stop")
    rb = Builder(fn, stop)
    code = rb.phi("i32")
    rb.ret(code)
    zero = int_const("i32", 0)
    for offset in (capi.OB_TYPE,) + OBJECT_FIELDS:       # heap types visit their type
        obj = b.load_at("ptr", self_, offset)
        present, after = fn.append_block("present"), fn.append_block("after")
        b.cbranch(b.icmp("ne", obj, NULL), present, after)
        b.position_at_end(present)
        r = b.call(visit, [obj, arg])
        code.add_incoming(r, present)
        b.cbranch(b.icmp("ne", r, zero), stop, after)
        b.position_at_end(after)
    code.add_incoming(zero, b.block)
    b.branch(stop)
    return fn


def _build_dealloc(m: NativeModule, clear: Function) -> Function:
    fn = m.new_function("script.dealloc", "void", ["ptr"], linkage="external")
    self_, = fn.args
    b = Builder(fn, fn.append_block("entry"))
    tp = b.load_at("ptr", self_, capi.OB_TYPE)
    capi.call(m, b, "PyObject_GC_UnTrack", self_)
    weaklist = b.load_at("ptr", self_, WEAKLIST)
    present, after = fn.append_block("weakrefs"), fn.append_block("after")
    b.cbranch(b.icmp("ne", weaklist, NULL), present, after)
    b.position_at_end(present)
    capi.call(m, b, "PyObject_ClearWeakRefs", self_)
    b.branch(after)
    b.position_at_end(after)
    b.call(clear, [self_])
    capi.call(m, b, "PyObject_GC_Del", self_)
    capi.call(m, b, "Py_DecRef", tp)
    b.ret_void()
    return fn
