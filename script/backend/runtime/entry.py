"""The CPython entry point of a signature, generated in LLVM IR and compiled once per process.

    PyObject *script.entry(PyObject *self, PyObject *const *args, size_t nargsf,
                           PyObject *kwnames)

has the signature of a vectorcall. It checks and converts the arguments, calls the library's
entry function by the name ``script.kernel`` (llvm.abi) and converts the result. It depends
only on the parameter and return types, so one object serves every library of that
signature: runtime.library compiles it on first use and links it next to each library's code.
It serves two callers:

- installed as the vectorcall of a compiled-function object (`self` is that object) whose only
  specialization it is: it returns the result (a new reference), or NULL with a Python
  exception set, and calls ``self->fallback`` when the call does not match (keywords, another
  number of arguments, another argument type);
- called by the generic dispatcher (runtime.dispatch) with ``self == NULL``: the same, except
  that a mismatch returns `MISMATCH` (the address 1, never an object) instead.

A mismatch is decided before anything is converted, so it never leaves an exception set.
Matching is exact (runtime.boxing); an int out of range raises OverflowError. A parameter of
a narrow scalar type (i32, f32, …) matches a Python int or float, converted, or — when its
position is in the entry point's `numpy_scalars` (an unannotated parameter: script.dispatcher
`numpy_scalar_params`) — exactly NumPy's scalar of that type instead. The positions are part
of what the entry point is compiled from (`runtime.library.entry_point`'s key, script.loadpath's
name of its object in the store).

The entry owns the `Env` record (llvm.abi) on its stack and passes it to every entry function
(one that cannot raise never writes it). When the native function reports an exception, the
entry hands the record to ``script.raise``, which raises it as
``PyErr_Format(PyExc_<name>, fmt, args...)`` (or ``PyErr_SetNone`` for a message of None), or
leaves the exception a signal handler raised at a poll (runtime.interrupt) as it is.

The GIL. The entry releases it around the native call (PyEval_SaveThread, keeping the thread
state in the Env for ``script.poll``) when the library's ``script.nogil`` byte is set
(llvm.interrupt `can_run_long`: a loop or recursion, and ``nogil=True``); a call that cannot
run long keeps it, since releasing and taking it back costs more than such a call.
Everything that touches Python objects (unboxing, boxing, raising) runs with the GIL held.

The cold paths that do not depend on the types are calls into the runtime library
(runtime.shared), compiled once per process: ``script.mismatch`` and ``script.raise``
(`build_runtime`, here) and ``script.unbox.<t>`` (runtime.boxing).
"""

from __future__ import annotations

from script.ir import types as T
from script.ir.ops import EXCEPTIONS
from script.backend.llvm.abi import (
    ENTRY_SYMBOL, ENV, ENV_ARGS, ENV_EXC, ENV_FMT, ENV_SIGINTS, ENV_STACK, ENV_STATUS, ENV_TSTATE,
    KERNEL_SYMBOL, KINDS_END, REFLECT_SYMBOL, RERUN_SYMBOL, reflected_params, KINDS_SHIFT, PRINT_SYMBOL, RAISE_SYMBOL, MAX_MESSAGE_ARGS, NONE_VALUE, SLOT_BOOL, SLOT_FLOAT, SLOT_STR, STATUS_PYTHON_ERROR,
    UNLIKELY, native_signature)
from script.backend.llvm.interrupt import NO_TRACE, RELEASE_GIL, RELEASE_GIL_SYMBOL, SIGINTS_SYMBOL
from script.backend.llvm.builder import NULL, TRUE, Builder, NativeModule, int_const
from script.backend.llvm.lower import load_status
from script.backend.llvm import strings
from script.backend.llvm import memory
from script.backend.runtime import capi, dispatch, list_memo, list_reflect, table_reflect
from script.backend.runtime import strings as runtime_strings
from script.backend.runtime.boxing import Converter
from script.backend.runtime.py_errors import PYOBJ_MARK
from script.backend.runtime.dispatch import MISMATCH_VALUE, VECTORCALL_PARAMS, VECTORCALL_RET
from script.backend.runtime.layout import RERUN

# Straight-line checks and conversions that LLVM could barely improve: not optimized, and
# selected by FastISel, they cost a fraction of the compile time (the entry function they
# call is optimized in its own library).
ENTRY_ATTRS = ("nounwind", "noinline", "optnone")

MISMATCH_SYMBOL = "script.mismatch"


def build_entry(m: NativeModule, param_types, ret_type: T.Type, numpy_scalars=()) -> None:
    """Add ``script.entry`` for entry functions of this signature to `m`; the parameters at
    the positions `numpy_scalars` take their narrow scalars as NumPy scalars."""
    kernel = m.declare(KERNEL_SYMBOL, *native_signature(param_types, ret_type),
                       attrs=("nounwind",))
    fn = m.new_function(ENTRY_SYMBOL, VECTORCALL_RET, VECTORCALL_PARAMS, linkage="external",
                        attrs=ENTRY_ATTRS)
    self_, args, nargsf, kwnames = fn.args
    b = Builder(fn, fn.append_block("entry"))
    env = b.alloca(ENV)
    mismatch = fn.append_block("mismatch")
    mb = Builder(fn, mismatch)
    mb.ret(mb.call(m.declare(MISMATCH_SYMBOL, VECTORCALL_RET, VECTORCALL_PARAMS,
                             attrs=("nounwind",)), fn.args))
    error = fn.append_block("error")
    Builder(fn, error).ret(NULL)
    dispatch.emit_arity_check(b, fn, nargsf, kwnames, int_const("i64", len(param_types)),
                              mismatch)

    conv = Converter(m, fn, b, error)
    objs = [b.load_at("ptr", args, 8 * k) for k in range(len(param_types))]
    numpy = [k in numpy_scalars for k in range(len(param_types))]
    conv.emit_type_checks(objs, param_types, mismatch, numpy)
    conv.emit_writeable_checks(objs, param_types)
    mask = None
    if reflected_params(param_types):
        mask = b.load("i64", m.declare_data(REFLECT_SYMBOL, "i64"))
        conv.memo = list_reflect.emit_begin(conv, mask)
    elif list_reflect.shares_lists(ret_type):       # only so that a list in the result is one object
        conv.memo = list_reflect.emit_begin(conv, None)
    if conv.memo is not None:
        # Records are boxed by recursion, after the call: RecursionError below twice the
        # budget of compiled recursion (half the stack), not a crash.
        b.store_at(b.sub(b.ptrtoint(conv.memo, "i64"), int_const("i64", 2 * stack_budget())), conv.memo,
                   list_memo.MEMO_STACK)
    if mask is not None:
        table_reflect.emit_alias_check(conv, objs, param_types, mask)
    values = []
    if not any(isinstance(t, T.IntType) and t != T.I64 for t in param_types):
        # an int beyond int64 (not an annotated narrow type's range): nothing has run, so
        # CPython may run the call
        conv.error = fn.append_block("unbox_error")
        _emit_rerun(m, Builder(fn, conv.error), fn)
    for k, (obj, t, n) in enumerate(zip(objs, param_types, numpy)):
        if mask is not None:
            conv.written = b.and_(b.lshr(mask, int_const("i64", k)), int_const("i64", 1))
        values.append(conv.emit_unbox(obj, t, n))
    conv.error = error

    b.store_at(int_const("i32", 0), env, ENV_STATUS)
    here = b.ptrtoint(env, "i64")
    b.store_at(b.sub(here, int_const("i64", stack_budget())), env, ENV_STACK)
    ret = emit_native_call(m, fn, b, kernel, env, values)
    if mask is not None and table_reflect.table_params(param_types):
        reflect_failed = fn.append_block("table_reflect_failed")
        fb = Builder(fn, reflect_failed)
        conv._release_unboxed(fb)
        list_reflect.emit_release(m, fb, conv.memo)
        fb.ret(NULL)
        table_reflect.emit_reflect(conv, objs, values, param_types, mask, reflect_failed)
    conv.release_unboxed()
    memo = conv.memo
    if memo is not None:        # written back on both ways out (runtime.list_reflect)
        reflected = list_reflect.emit_reflect(m, b, memo)
    raised, cont = fn.append_block("raised"), fn.append_block()
    b.cbranch(load_status(b, env), raised, cont, UNLIKELY)
    rb = Builder(fn, raised)
    if memo is not None:
        list_reflect.emit_release(m, rb, memo)
    rb.call(m.declare(RAISE_SYMBOL, "ptr", ["ptr"], attrs=("nounwind", "cold")), [env])
    flags = rb.load("i8", m.declare_data(RELEASE_GIL_SYMBOL, "i8"))
    again, failed = fn.append_block("rerun"), fn.append_block("failed")
    rb.cbranch(rb.icmp("ne", rb.and_(flags, int_const("i8", NO_TRACE)), int_const("i8", 0)), again, failed)
    _emit_rerun(m, Builder(fn, again), fn)
    Builder(fn, failed).ret(NULL)
    b.position_at_end(cont)
    value = NONE_VALUE if ret is None else ret
    if memo is None:
        b.ret(conv.emit_box(value, ret_type, error))
        return
    not_reflected, box_error = fn.append_block("not_reflected"), fn.append_block("box_error")
    nb = Builder(fn, not_reflected)
    if memory.managed(ret_type):
        memory.emit_rc(m, nb, "decref", value, ret_type)
    nb.branch(box_error)
    eb = Builder(fn, box_error)
    list_reflect.emit_release(m, eb, memo)
    eb.ret(NULL)
    conv._continue_if(reflected, not_reflected)
    conv.table_args = [(values[k], objs[k], param_types[k]) for k in table_reflect.table_params(param_types)]
    result = conv.emit_box(value, ret_type, box_error)
    list_reflect.emit_release(m, b, memo)
    b.ret(result)


def emit_native_call(m: NativeModule, fn, b: Builder, kernel, env, values):
    """Call the library's entry function, without the GIL when the library says it may run
    for long (its ``script.nogil`` byte, llvm.interrupt), and with the call's count of
    SIGINTs in the Env (runtime.interrupt). Leaves `b` after the call, the GIL held again."""
    sigints = b.load_atomic("i64", m.declare_data(SIGINTS_SYMBOL, "i64"), 8)
    b.store_at(sigints, env, ENV_SIGINTS)
    b.store_at(NULL, env, ENV_TSTATE)
    flags = b.load("i8", m.declare_data(RELEASE_GIL_SYMBOL, "i8"))
    save, call = fn.append_block("release_gil"), fn.append_block("call")
    b.cbranch(b.icmp("ne", b.and_(flags, int_const("i8", RELEASE_GIL)), int_const("i8", 0)), save, call)
    b.position_at_end(save)
    b.store_at(capi.call(m, b, "PyEval_SaveThread"), env, ENV_TSTATE)
    b.branch(call)
    b.position_at_end(call)
    ret = b.call(kernel, [env] + values)
    tstate = b.load_at("ptr", env, ENV_TSTATE)       # script.poll may have renewed it
    take, after = fn.append_block("take_gil"), fn.append_block("returned")
    b.cbranch(b.icmp("ne", tstate, NULL), take, after)
    b.position_at_end(take)
    capi.call(m, b, "PyEval_RestoreThread", tstate)
    b.branch(after)
    b.position_at_end(after)
    return ret


def _emit_rerun(m: NativeModule, b: Builder, fn) -> None:
    """Return what ``script.rerun`` gives for this call (an exception is set)."""
    rerun = m.declare(RERUN_SYMBOL, VECTORCALL_RET, VECTORCALL_PARAMS, attrs=("nounwind", "cold"))
    b.ret(b.call(rerun, fn.args))


def stack_budget() -> int:
    """Bytes of native stack compiled recursion may use below the entry point's frame: a
    quarter of the stack size limit (threads get the same default size on Linux), at most
    2 MiB of an 8 MiB stack, and never less than 256 KiB."""
    try:
        import resource
        soft, _ = resource.getrlimit(resource.RLIMIT_STACK)
    except (ImportError, ValueError, OSError):
        soft = -1
    size = 8 << 20 if soft is None or soft < 0 or soft > (1 << 40) else soft
    return max(256 << 10, min(size // 4, 2 << 20))


# --- the runtime library's cold paths ------------------------------------------------------

def build_runtime(m: NativeModule) -> list[str]:
    """Define ``script.mismatch`` and ``script.raise`` in `m` (the runtime library); returns
    their names.

        PyObject *script.mismatch(self, args, nargsf, kwnames)  // a vectorcall
            MISMATCH when self is NULL (the dispatcher tries the next entry), else the
            object's fallback called with the same arguments.
        PyObject *script.raise(Env *env)
            raises the pending exception of `env` in Python; returns NULL.
        PyObject *script.rerun(self, args, nargsf, kwnames)     // an exception is set
            the call run again by ``self->rerun`` (CPython's answer) when the exception is
            an OverflowError and the object has a rerun target; RERUN when self is NULL
            (the dispatcher calls this again with its object); else NULL."""
    fn = m.new_function(MISMATCH_SYMBOL, VECTORCALL_RET, VECTORCALL_PARAMS, linkage="external")
    self_, args, nargsf, kwnames = fn.args
    b = Builder(fn, fn.append_block("entry"))
    to_dispatcher, to_fallback = fn.append_block("to_dispatcher"), fn.append_block("to_fallback")
    b.cbranch(b.icmp("eq", self_, NULL), to_dispatcher, to_fallback)
    b.position_at_end(to_dispatcher)
    b.ret(MISMATCH_VALUE)
    b.position_at_end(to_fallback)
    dispatch.emit_fallback_call(m, b, fn, self_, args, nargsf, kwnames)
    slot_text = _build_slot_text(m)
    _build_raise(m, slot_text)
    _build_print(m, slot_text)
    _build_rerun(m)
    return [MISMATCH_SYMBOL, RAISE_SYMBOL, PRINT_SYMBOL, RERUN_SYMBOL]


def _build_rerun(m: NativeModule) -> None:
    fn = m.new_function(RERUN_SYMBOL, VECTORCALL_RET, VECTORCALL_PARAMS, linkage="external")
    self_, args, nargsf, kwnames = fn.args
    b = Builder(fn, fn.append_block("entry"))
    to_dispatcher, called = fn.append_block("to_dispatcher"), fn.append_block("called")
    b.cbranch(b.icmp("eq", self_, NULL), to_dispatcher, called)
    Builder(fn, to_dispatcher).ret(dispatch.RERUN_VALUE)
    b.position_at_end(called)
    target = b.load_at("ptr", self_, RERUN)
    overflow = capi.call(m, b, "PyErr_ExceptionMatches", capi.exception_class(m, b, "OverflowError"))
    again, keep = fn.append_block("again"), fn.append_block("keep")
    b.cbranch(b.and_(b.icmp("ne", target, NULL), b.icmp("ne", overflow, int_const("i32", 0))), again, keep)
    Builder(fn, keep).ret(NULL)
    b.position_at_end(again)
    capi.call(m, b, "PyErr_Clear")
    b.ret(capi.call(m, b, "PyObject_Vectorcall", target, args, nargsf, kwnames))


def _build_raise(m: NativeModule, slot_text) -> None:
    fn = m.new_function(RAISE_SYMBOL, "ptr", ["ptr"], linkage="external")
    env, = fn.args
    b = Builder(fn, fn.append_block("entry"))
    already, record = fn.append_block("already_set"), fn.append_block("from_env")
    status = b.load_at("i32", env, ENV_STATUS)
    b.cbranch(b.icmp("eq", status, int_const("i32", STATUS_PYTHON_ERROR)), already, record)
    b.position_at_end(already)          # a signal handler raised at a poll (runtime.interrupt)
    b.ret(NULL)
    b.position_at_end(record)
    exc_word = b.load_at("i32", env, ENV_EXC)
    exc_index = b.and_(exc_word, int_const("i32", (1 << KINDS_SHIFT) - 1))
    kinds_at = b.zext(b.lshr(exc_word, int_const("i32", KINDS_SHIFT)), "i64")
    fmt = b.load_at("ptr", env, ENV_FMT)
    slots = [b.load_at("i64", env, ENV_ARGS + 8 * k) for k in range(MAX_MESSAGE_ARGS)]
    join = fn.append_block("exc_class")
    unknown = fn.append_block("exc_unknown")
    cases = []
    incoming = []
    for k, name in enumerate(EXCEPTIONS):
        case = fn.append_block(f"exc_{name}")
        cases.append((k, case))
        cb = Builder(fn, case)
        incoming.append((capi.exception_class(m, cb, name), case))
        cb.branch(join)
    b.switch(exc_index, unknown, cases)
    b.position_at_end(unknown)
    incoming.append((capi.exception_class(m, b, "SystemError"), unknown))
    b.branch(join)

    b.position_at_end(join)
    exc = b.phi("ptr")
    for value, block in incoming:
        exc.add_incoming(value, block)
    no_message = fn.append_block("exc_no_message")
    message = fn.append_block("exc_message")
    b.cbranch(b.icmp("eq", fmt, NULL), no_message, message)
    b.position_at_end(no_message)
    capi.call(m, b, "PyErr_SetNone", exc)
    b.ret(NULL)
    b.position_at_end(message)
    keyed, user, plain = fn.append_block("exc_keyed"), fn.append_block("exc_user"), fn.append_block("exc_plain")
    pyobj = fn.append_block("exc_pyobj")
    b.switch(b.load("i8", fmt), plain, [(KEYED_MARK, keyed), (USER_MARK, user), (PYOBJ_MARK, pyobj)])
    b.position_at_end(pyobj)            # CPython's own exception (runtime.py_errors), its reference
    obj = b.inttoptr(slots[0], "ptr")
    cls = capi.call(m, b, "PyObject_Type", obj)
    capi.call(m, b, "PyErr_SetObject", cls, obj)
    capi.call(m, b, "Py_DecRef", cls)
    capi.call(m, b, "Py_DecRef", obj)
    b.ret(NULL)
    b.position_at_end(keyed)
    _raise_keyed(m, fn, b, slot_text, exc, fmt, kinds_at, slots)
    b.position_at_end(user)
    _raise_keyed(m, fn, b, slot_text, exc, fmt, kinds_at, slots, user=True)
    b.position_at_end(plain)
    as_is, converted = fn.append_block("exc_slots_as_is"), fn.append_block("exc_slots_converted")
    b.cbranch(b.icmp("eq", kinds_at, int_const("i64", 0)), as_is, converted)
    b.position_at_end(as_is)
    capi.call(m, b, "PyErr_Format", exc, fmt, *slots)
    b.ret(NULL)
    b.position_at_end(converted)        # floats and bools to text (llvm.abi SLOT_*)
    _with_slot_texts(m, b, slot_text, fmt, kinds_at, slots,
                     lambda texts: capi.call(m, b, "PyErr_Format", exc, fmt, *texts))
    b.ret(NULL)


# A message whose first byte is KEYED_MARK is the repr of the exception's arguments (a dict
# key: frontend.dicts; the arguments of a raise: frontend.messages `args_message`): the
# exception is raised with those values as its arguments, as CPython's KeyError(3) is
# (script.pyhooks.keyerror turns the text back into them).
KEYED_MARK = 1
# A message whose first byte is USER_MARK raises a user exception class (frontend
# user_exceptions): ``script.pyhooks.caught_text.user_exception`` makes it from the text after the mark.
USER_MARK = 2


def _raise_keyed(m: NativeModule, fn, b: Builder, slot_text, exc, fmt, kinds_at, slots,
                 user: bool = False) -> None:
    """Raise ``exc(*args)`` for the arguments whose repr the message after its mark gives;
    with `user`, the user exception ``script.pyhooks.caught_text.user_exception`` makes of that text."""
    p = "user_" if user else "key_"
    text_at = b.alloca("ptr")
    text_fmt = b.gep("i8", fmt, int_const("i64", 1))
    as_is, converted, join = (fn.append_block(p + x) for x in ("as_is", "converted", "text"))
    b.cbranch(b.icmp("eq", kinds_at, int_const("i64", 0)), as_is, converted)
    b.position_at_end(as_is)
    b.store(capi.call(m, b, "PyUnicode_FromFormat", text_fmt, *slots), text_at)
    b.branch(join)
    b.position_at_end(converted)
    _with_slot_texts(m, b, slot_text, fmt, kinds_at, slots,
                     lambda texts: b.store(capi.call(m, b, "PyUnicode_FromFormat", text_fmt, *texts), text_at))
    b.branch(join)
    b.position_at_end(join)
    text = b.load("ptr", text_at)
    failed, made = fn.append_block(p + "failed"), fn.append_block(p + "made")
    b.cbranch(b.icmp("eq", text, NULL), failed, made)
    b.position_at_end(failed)
    b.ret(NULL)
    b.position_at_end(made)
    module_name, helper = (b"script.pyhooks.caught_text", b"user_exception") if user else (b"script.pyhooks.keyerror", b"key_args")
    module = capi.call(m, b, "PyImport_ImportModule", m.cstring(module_name))
    imported = fn.append_block(p + "module")
    b.cbranch(b.icmp("eq", module, NULL), failed, imported)
    b.position_at_end(imported)
    args = capi.call(m, b, "PyObject_CallMethod", module, m.cstring(helper), m.cstring(b"O"), text)
    capi.call(m, b, "Py_DecRef", module)
    capi.call(m, b, "Py_DecRef", text)
    got = fn.append_block(p + "args")
    b.cbranch(b.icmp("eq", args, NULL), failed, got)
    b.position_at_end(got)
    if user:            # `args` is the exception itself
        cls = capi.call(m, b, "PyObject_Type", args)
        capi.call(m, b, "PyErr_SetObject", cls, args)
        capi.call(m, b, "Py_DecRef", cls)
    else:
        capi.call(m, b, "PyErr_SetObject", exc, args)
    capi.call(m, b, "Py_DecRef", args)
    b.ret(NULL)


def _with_slot_texts(m: NativeModule, b: Builder, slot_text, fmt, kinds_at, slots, use) -> None:
    """`use(texts)`: the slots as `slot_text` makes them; then what it made is released. The
    kinds are read up to their KINDS_END: the slots after the message's own go as they are
    (reading on would read whatever constant follows the message's)."""
    text_of, free_text = slot_text
    kinds = b.gep("i8", fmt, kinds_at)
    as_is = m.cstring(bytes(4))         # SLOT_AS_IS
    live, at = TRUE, []
    for k in range(len(slots)):
        kind = b.select(live, b.offset(kinds, 4 * k), as_is)     # never past KINDS_END
        live = b.and_(live, b.icmp("ne", b.load("i8", kind), int_const("i8", KINDS_END)))
        at.append(b.select(live, kind, as_is))
    texts = [b.call(text_of, [p, s]) for p, s in zip(at, slots)]
    use(texts)
    for p, t in zip(at, texts):
        b.call(free_text, [p, t])


def _build_print(m: NativeModule, slot_text) -> None:
    """``void script.print(Env *env, i32 kinds_at, char *fmt, i64 slots...)``: the `print` op
    (llvm.lower): formats like ``script.raise`` and writes to sys.stdout with the GIL,
    taking it back for the write when the call released it (``env->tstate``)."""
    fn = m.new_function(PRINT_SYMBOL, "void", ["ptr", "i32", "ptr"] + ["i64"] * MAX_MESSAGE_ARGS,
                        linkage="external")
    env, kinds_at, fmt, *slots = fn.args
    b = Builder(fn, fn.append_block("entry"))
    capi.holding_gil(m, b, env, lambda: _with_slot_texts(
        m, b, slot_text, fmt, b.zext(kinds_at, "i64"), slots,
        lambda texts: capi.call(m, b, "PySys_FormatStdout", fmt, *texts)))
    b.ret_void()


def _build_slot_text(m: NativeModule):
    """``i64 slot_text(i8 *kind, i64 slot)``: the ``%s`` argument of a slot of kind `kind`
    (llvm.abi: SLOT_FLOAT, PyOS_double_to_string's text; SLOT_BOOL, "True"/"False"), else the
    slot; ``void free_text(i8 *kind, i64 text)`` releases what slot_text made."""
    fn = m.new_function("script.slot_text", "i64", ["ptr", "i64"])
    kind, slot = fn.args
    b = Builder(fn, fn.append_block("entry"))
    float_, bool_, as_is = fn.append_block("float"), fn.append_block("bool"), fn.append_block("as_is")
    str_ = fn.append_block("str")
    b.switch(b.load("i8", kind), as_is, [(SLOT_FLOAT, float_), (SLOT_BOOL, bool_), (SLOT_STR, str_)])
    b.position_at_end(str_)             # a Python str of the native one, whose reference it ends
    native = b.inttoptr(slot, "ptr")
    text = runtime_strings.to_py(m, b, native)
    strings.emit_rc(m, b, "decref", native)
    b.ret(b.ptrtoint(text, "i64"))
    b.position_at_end(as_is)
    b.ret(slot)
    b.position_at_end(bool_)
    text = b.select(b.icmp("ne", slot, int_const("i64", 0)), m.cstring(b"True"), m.cstring(b"False"))
    b.ret(b.ptrtoint(text, "i64"))
    b.position_at_end(float_)
    x = b.bitcast(slot, "double")
    code, precision, flags = (b.load_at("i8", kind, k) for k in (1, 2, 3))
    text = capi.call(m, b, "PyOS_double_to_string", x, code, b.zext(precision, "i32"),
                     b.zext(flags, "i32"), NULL)
    b.ret(b.ptrtoint(text, "i64"))          # NULL (no memory) prints as "(null)"

    free = m.new_function("script.free_text", "void", ["ptr", "i64"])
    kind, text = free.args
    b = Builder(free, free.append_block("entry"))
    done, release, release_str = (free.append_block(x) for x in ("done", "release", "release_str"))
    b.switch(b.load("i8", kind), done, [(SLOT_FLOAT, release), (SLOT_STR, release_str)])
    b.position_at_end(release)
    capi.call(m, b, "PyMem_Free", b.inttoptr(text, "ptr"))
    b.branch(done)
    b.position_at_end(release_str)
    capi.call(m, b, "Py_DecRef", b.inttoptr(text, "ptr"))
    b.branch(done)
    b.position_at_end(done)
    b.ret_void()
    return fn, free
