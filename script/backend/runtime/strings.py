"""The runtime library's string functions: strs between CPython and compiled code.

- ``ptr script.str.from_py(PyObject *u)``: a new native str (llvm.strings) holding the code
  points of Python str `u`; NULL without memory (no exception set).
- ``PyObject *script.str.to_py(ptr s)``: a new Python str of native `s` (NULL with an
  exception set when it cannot be made); `s` is not released.
- ``i32 script.str.py(Env*, i32 f, ptr s0, ptr s1, i64 i, double x, ptr out)``: the `str_py`
  op (ops.STR_PY, llvm.strings `call_python`): function number `f` of STR_PY computed by
  CPython with the GIL (taken back when the call released it), its result written to
  `out`; 0 when it raised, with the exception in the Env's record (runtime.py_errors), so
  that compiled code catches it or unwinds and the entry point raises it as it is.
"""

from __future__ import annotations

from script.backend.llvm import strings
from script.backend.llvm.builder import NULL, Builder, NativeModule, Value, int_const
from script.backend.runtime import capi, py_errors
from script.ir.ops import STR_PY

FROM_PY, TO_PY = "script.str.from_py", "script.str.to_py"
BYTES_FROM_PY, BYTES_TO_PY = "script.bytes.from_py", "script.bytes.to_py"
UCS4 = 4


def build_runtime(m: NativeModule) -> list[str]:
    _build_from_py(m)
    _build_to_py(m)
    _build_py(m)
    _build_bytes_from_py(m)
    _build_bytes_to_py(m)
    return [FROM_PY, TO_PY, strings.PY_SYMBOL, BYTES_FROM_PY, BYTES_TO_PY]


def from_py(m: NativeModule, b: Builder, u: Value) -> Value:
    return b.call(m.declare(FROM_PY, "ptr", ["ptr"], attrs=("nounwind",)), [u])


def to_py(m: NativeModule, b: Builder, s: Value) -> Value:
    return b.call(m.declare(TO_PY, "ptr", ["ptr"], attrs=("nounwind",)), [s])


def bytes_from_py(m: NativeModule, b: Builder, obj: Value) -> Value:
    return b.call(m.declare(BYTES_FROM_PY, "ptr", ["ptr"], attrs=("nounwind",)), [obj])


def bytes_to_py(m: NativeModule, b: Builder, s: Value) -> Value:
    return b.call(m.declare(BYTES_TO_PY, "ptr", ["ptr"], attrs=("nounwind",)), [s])


def _build_from_py(m: NativeModule) -> None:
    fn = m.new_function(FROM_PY, "ptr", ["ptr"], linkage="external")
    u, = fn.args
    b = Builder(fn, fn.append_block("entry"))
    n = capi.call(m, b, "PyUnicode_GetLength", u)
    failed = fn.append_block("failed")
    s = strings.new(m, b, n, failed)
    capi.call(m, b, "PyUnicode_AsUCS4", u, strings.data_pointer(b, s), n, int_const("i32", 0))
    b.ret(s)
    b.position_at_end(failed)
    b.ret(NULL)


def _build_to_py(m: NativeModule) -> None:
    fn = m.new_function(TO_PY, "ptr", ["ptr"], linkage="external")
    s, = fn.args
    b = Builder(fn, fn.append_block("entry"))
    b.ret(capi.call(m, b, "PyUnicode_FromKindAndData", int_const("i32", UCS4),
                    strings.data_pointer(b, s), strings.length(b, s)))


def _build_bytes_from_py(m: NativeModule) -> None:
    """``ptr script.bytes.from_py(PyObject *b)``: a new native text object holding the bytes
    of Python bytes `b` as code points (their Latin-1 decoding); NULL without memory."""
    fn = m.new_function(BYTES_FROM_PY, "ptr", ["ptr"], linkage="external")
    obj, = fn.args
    b = Builder(fn, fn.append_block("entry"))
    u = capi.call(m, b, "PyUnicode_DecodeLatin1", capi.call(m, b, "PyBytes_AsString", obj),
                  capi.call(m, b, "PyBytes_Size", obj), NULL)
    made, failed = fn.append_block("decoded"), fn.append_block("failed")
    b.cbranch(b.icmp("ne", u, NULL), made, failed)
    b.position_at_end(made)
    s = b.call(m.declare(FROM_PY, "ptr", ["ptr"], attrs=("nounwind",)), [u])
    capi.call(m, b, "Py_DecRef", u)
    b.ret(s)
    b.position_at_end(failed)
    capi.call(m, b, "PyErr_Clear")
    b.ret(NULL)


def _build_bytes_to_py(m: NativeModule) -> None:
    """``PyObject *script.bytes.to_py(ptr s)``: new Python bytes of native bytes `s` (NULL
    with an exception set when they cannot be made); `s` is not released."""
    fn = m.new_function(BYTES_TO_PY, "ptr", ["ptr"], linkage="external")
    s, = fn.args
    b = Builder(fn, fn.append_block("entry"))
    u = to_py(m, b, s)
    made, failed = fn.append_block("made"), fn.append_block("failed")
    b.cbranch(b.icmp("ne", u, NULL), made, failed)
    b.position_at_end(made)
    out = capi.call(m, b, "PyUnicode_AsLatin1String", u)
    capi.call(m, b, "Py_DecRef", u)
    b.ret(out)
    b.position_at_end(failed)
    b.ret(NULL)


def _build_py(m: NativeModule) -> None:
    fn = m.new_function(strings.PY_SYMBOL, "i32", ["ptr", "i32", "ptr", "ptr", "i64", "double", "ptr"],
                        linkage="external")
    env, f, s0, s1, i, x, out = fn.args
    b = Builder(fn, fn.append_block("entry"))
    ok = b.alloca("i32")
    b.store(int_const("i32", 0), ok)

    def body():
        # Python objects of the operands (NULL where there is none, or when one could not
        # be made: that case's code then fails with the exception set).
        u0 = _maybe_py(m, b, s0)
        u1 = _maybe_py(m, b, s1)
        done = fn.append_block("computed")
        cases = []
        for k, (name, (params, result)) in enumerate(STR_PY.items()):
            case = fn.append_block(f"f_{name}")
            cases.append((k, case))
            cb = Builder(fn, case)
            obj = _compute(m, cb, name, u0, u1, i, x)          # a new reference or NULL
            _store_result(m, cb, fn, obj, result, out, ok, done)
        b.switch(f, done, cases)
        b.position_at_end(done)
        for u in (u0, u1):
            _xdecref(m, b, u)
        failed, computed = fn.append_block("failed"), fn.append_block("succeeded")
        b.cbranch(b.icmp("eq", b.load("i32", ok), int_const("i32", 0)), failed, computed)
        b.position_at_end(failed)
        py_errors.emit_record(m, b, env)            # a record compiled code can catch
        b.branch(computed)
        b.position_at_end(computed)

    capi.holding_gil(m, b, env, body)
    result = b.load("i32", ok)
    raised, fine = fn.append_block("raised"), fn.append_block("fine")
    b.cbranch(b.icmp("eq", result, int_const("i32", 0)), raised, fine)
    b.position_at_end(raised)
    b.ret(int_const("i32", 0))
    b.position_at_end(fine)
    b.ret(int_const("i32", 1))


def _maybe_py(m: NativeModule, b: Builder, s: Value) -> Value:
    fn = b.fn
    make, join = fn.append_block("make_py"), fn.append_block("made_py")
    start = b.block
    b.cbranch(b.icmp("ne", s, NULL), make, join)
    b.position_at_end(make)
    u = to_py(m, b, s)
    made = b.block
    b.branch(join)
    b.position_at_end(join)
    phi = b.phi("ptr")
    phi.add_incoming(NULL, start)
    phi.add_incoming(u, made)
    return phi


def _xdecref(m: NativeModule, b: Builder, u: Value) -> None:
    fn = b.fn
    release, done = fn.append_block("release"), fn.append_block("released")
    b.cbranch(b.icmp("ne", u, NULL), release, done)
    b.position_at_end(release)
    capi.call(m, b, "Py_DecRef", u)
    b.branch(done)
    b.position_at_end(done)


def _guarded(m: NativeModule, b: Builder, arg: Value, make) -> Value:
    """`make()` (a new reference or NULL) when `arg` is not NULL, else NULL."""
    fn = b.fn
    go, join = fn.append_block("go"), fn.append_block("went")
    start = b.block
    b.cbranch(b.icmp("ne", arg, NULL), go, join)
    b.position_at_end(go)
    r = make()
    end = b.block
    b.branch(join)
    b.position_at_end(join)
    phi = b.phi("ptr")
    phi.add_incoming(NULL, start)
    phi.add_incoming(r, end)
    return phi


def _compute(m: NativeModule, b: Builder, name: str, u0: Value, u1: Value, i: Value, x: Value) -> Value:
    """The Python object function `name` gives (a new reference), or NULL with an exception."""
    if name == "int":
        return _guarded(m, b, u0, lambda: capi.call(m, b, "PyLong_FromUnicodeObject", u0, int_const("i32", 10)))
    if name == "int_base":            # (the frontend checked 0 or 2 <= base <= 36)
        base = b.trunc(i, "i32")
        return _guarded(m, b, u0, lambda: capi.call(m, b, "PyLong_FromUnicodeObject", u0, base))
    if name == "float":
        return _guarded(m, b, u0, lambda: capi.call(m, b, "PyFloat_FromString", u0))
    if name == "repr_float":
        num = capi.call(m, b, "PyFloat_FromDouble", x)
        return _guarded(m, b, num, lambda: _then_release(m, b, num, capi.call(m, b, "PyObject_Str", num)))
    if name in ("format_int", "format_uint", "format_bool", "format_float"):
        make = {"format_int": "PyLong_FromLongLong", "format_uint": "PyLong_FromUnsignedLongLong",
                "format_bool": "PyBool_FromLong"}
        num = capi.call(m, b, make.get(name, "PyFloat_FromDouble"), x if name == "format_float" else i)
        spec = u0
        return _guarded(m, b, num, lambda: _then_release(m, b, num, _guarded(
            m, b, spec, lambda: capi.call(m, b, "PyObject_Format", num, spec))))
    if name == "format_str":
        return _guarded(m, b, u1, lambda: _guarded(m, b, u0, lambda: capi.call(m, b, "PyObject_Format", u0, u1)))
    if name == "repr":
        return _guarded(m, b, u0, lambda: capi.call(m, b, "PyObject_Repr", u0))
    if name.startswith("exc_"):     # `i`: the address of an exception's record (script.pyhooks.caught_text)
        module = capi.call(m, b, "PyImport_ImportModule", m.cstring(b"script.pyhooks.caught_text"))
        call = (lambda: _guarded(m, b, u0, lambda: capi.call(m, b, "PyObject_CallMethod", module, m.cstring(
            name.encode()), m.cstring(b"LO"), i, u0))) if STR_PY[name][0] == ("exc", "str") else \
            (lambda: capi.call(m, b, "PyObject_CallMethod", module, m.cstring(name.encode()), m.cstring(b"L"), i))
        return _guarded(m, b, module, lambda: _then_release(m, b, module, call()))
    hook = _HOOKS.get(name)
    if hook is not None:            # a function of a script.pyhooks module, by name
        return _call_hook(m, b, *hook, name, {"O": iter((u0, u1)), "L": iter((i,))})
    if name in ("random_seed", "random_gauss"):       # the interpreter's random.seed(i), random.gauss()
        module = capi.call(m, b, "PyImport_ImportModule", m.cstring(b"random"))
        args = (m.cstring(b"L"), i) if name == "random_seed" else (NULL,)
        return _guarded(m, b, module, lambda: _then_release(m, b, module, capi.call(
            m, b, "PyObject_CallMethod", module, m.cstring(name[7:].encode()), *args)))
    # A method without arguments: s.lower(), s.isdigit(), ...
    method = _guarded(m, b, u0, lambda: capi.call(m, b, "PyObject_GetAttrString", u0,
                                                  m.cstring(name.encode())))
    return _guarded(m, b, method, lambda: _then_release(
        m, b, method, capi.call(m, b, "PyObject_CallObject", method, NULL)))


# STR_PY functions that are functions of a script.pyhooks module of the same name: (module,
# PyObject_CallMethod format: "O" the str operands in turn, "L" the int operand).
_HOOKS = {"str_encode": (b"script.pyhooks.codecs_text", "OO"), "bytes_decode": (b"script.pyhooks.codecs_text", "OO"),
          "bytes_int": (b"script.pyhooks.codecs_text", "OL"), "bytes_float": (b"script.pyhooks.codecs_text", "O"),
          "re_call": (b"script.pyhooks.re_text", "O"), "read_text": (b"script.pyhooks.files", "OO"),
          "os_path": (b"script.pyhooks.files", "O"),
          "array_str": (b"script.pyhooks.array_text", "L"), "array_repr": (b"script.pyhooks.array_text", "L"),
          "sys_setrecursionlimit": (b"script.pyhooks.interpreter", "L"),
          "sys_getrecursionlimit": (b"script.pyhooks.interpreter", "")}


def _call_hook(m: NativeModule, b: Builder, module_name: bytes, fmt: str, name: str, operands: dict) -> Value:
    """module.name(...) with the operands `fmt` names (a new reference), or NULL with an
    exception (the module not imported; a str operand NULL: it could not be made)."""
    module = capi.call(m, b, "PyImport_ImportModule", m.cstring(module_name))
    args = [next(operands[f]) for f in fmt]

    def call():
        return capi.call(m, b, "PyObject_CallMethod", module, m.cstring(name.encode()), m.cstring(fmt.encode()),
                         *args)
    make = call
    for f, a in zip(fmt, args):
        if f == "O":
            make = (lambda a=a, inner=make: _guarded(m, b, a, inner))
    return _guarded(m, b, module, lambda: _then_release(m, b, module, make()))


def _then_release(m: NativeModule, b: Builder, obj: Value, result: Value) -> Value:
    capi.call(m, b, "Py_DecRef", obj)
    return result


def _store_result(m: NativeModule, b: Builder, fn, obj: Value, result: str, out: Value, ok: Value, done) -> None:
    """Convert `obj` (NULL: raised) to the result type into `out`, set `ok`, go to `done`."""
    have = fn.append_block("have")
    b.cbranch(b.icmp("ne", obj, NULL), have, done)
    b.position_at_end(have)
    if result == "str":
        s = from_py(m, b, obj)
        made, no_memory = fn.append_block("made"), fn.append_block("no_memory")
        b.cbranch(b.icmp("ne", s, NULL), made, no_memory)
        b.position_at_end(no_memory)
        capi.call(m, b, "Py_DecRef", obj)
        capi.call(m, b, "PyErr_NoMemory")
        b.branch(done)
        b.position_at_end(made)
        b.store(s, out)
    elif result == "f64":
        v = capi.call(m, b, "PyFloat_AsDouble", obj)
        b.store(v, out)
    elif result == "bool":
        t = capi.call(m, b, "PyObject_IsTrue", obj)
        b.store(b.sext(t, "i64"), out)
    else:       # i64: an int beyond int64 is OverflowError
        v = capi.call(m, b, "PyLong_AsLongLong", obj)
        bad, fine = fn.append_block("overflow"), fn.append_block("in_range")
        failed = b.icmp("eq", v, int_const("i64", -1))
        b.cbranch(b.and_(failed, b.icmp("ne", capi.call(m, b, "PyErr_Occurred"), NULL)), bad, fine)
        b.position_at_end(bad)
        capi.call(m, b, "Py_DecRef", obj)
        b.branch(done)
        b.position_at_end(fine)
        b.store(v, out)
    capi.call(m, b, "Py_DecRef", obj)
    b.store(int_const("i32", 1), ok)
    b.branch(done)
