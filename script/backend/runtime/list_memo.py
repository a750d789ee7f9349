"""The memo of an entry point's call (runtime.list_reflect): which Python lists it copied in,
to which native lists, and how to write each back. Its functions do not depend on types, so
they are the runtime library's (runtime.shared), declared by entry points.

    struct Memo { PyObject *dict; Record *data; i64 n; i64 cap;      // on the entry's stack
                  i64 stack_limit; }  // lowest stack address a boxing helper may use (0: any)
    struct Record { PyObject *py; List *native; reflect; release; i64 written; }

A record holds a reference to its Python list and to its native list for the whole call;
``reflect(py, native, memo)`` writes the native list back into the Python one and
``release(native)`` drops the native reference (both per list type: runtime.list_reflect). The
dict, made by the first record, maps the address of each Python list, and that of each
native list plus 1 (addresses of objects are even), to its record's index.
"""

from __future__ import annotations

from script.ir import types as T
from script.backend.llvm import memory
from script.backend.llvm.abi import LIKELY
from script.backend.llvm.builder import (Callee, FALSE, NULL, TRUE, Builder, NativeModule, Value, counted_loop,
                                        int_const)
from script.backend.runtime import capi

# struct Memo { PyObject *dict; Record *data; i64 n; i64 cap; i64 stack_limit; }
MEMO_DICT, MEMO_DATA, MEMO_N, MEMO_CAP, MEMO_STACK, MEMO_SIZE = 0, 8, 16, 24, 32, 40
# struct Record { PyObject *py; List *native; i1 (*reflect)(py, native, memo); void (*release)(native); i64 written; }
REC_PY, REC_NATIVE, REC_REFLECT, REC_RELEASE, REC_WRITTEN, REC_SIZE = 0, 8, 16, 24, 32, 40

# Cold conversion code, run once per call: selected by FastISel without optimization, as the
# entry point itself is (runtime.entry ENTRY_ATTRS; with LLVM's default code generation the
# helpers took three times the entry point's compile time).
HELPER_ATTRS = ("nounwind", "noinline", "optnone")

FIND, ADD, RELEASE_MEMO, REFLECT_ALL = "script.memo.find", "script.memo.add", "script.memo.release", "script.memo.reflect"


def emit_new(b: Builder) -> Value:
    """A new, empty memo on the stack of `b`'s function."""
    memo = b.alloca(f"[{MEMO_SIZE} x i8]")
    for offset in (MEMO_DICT, MEMO_DATA):
        b.store_at(NULL, memo, offset)
    for offset in (MEMO_N, MEMO_CAP, MEMO_STACK):
        b.store_at(int_const("i64", 0), memo, offset)
    return memo


def build_runtime(m: NativeModule) -> list:
    """Define the memo's functions in `m` (the runtime library); returns them."""
    return [_define_find(m), _define_add(m), _define_reflect_all(m), _define_release_memo(m)]


def find(m: NativeModule):
    return m.declare(FIND, "ptr", ["ptr", "ptr"], attrs=("nounwind",))


def _define_find(m: NativeModule):
    """``Record *script.memo.find(Memo *memo, ptr key)``: the record of a Python list (its
    address) or of a native one (its address plus 1), or NULL (also when the memo is NULL).
    Valid until the next `_add`."""
    fn = m.new_function(FIND, "ptr", ["ptr", "ptr"], linkage="external", attrs=HELPER_ATTRS)
    memo, key = fn.args
    b = Builder(fn, fn.append_block("entry"))
    look, none, have, got = (fn.append_block(x) for x in ("look", "none", "have_key", "got"))
    Builder(fn, none).ret(NULL)
    b.cbranch(b.icmp("eq", memo, NULL), none, look)
    b.position_at_end(look)
    has_dict = fn.append_block("has_dict")
    b.cbranch(b.icmp("eq", b.load_at("ptr", memo, MEMO_DICT), NULL), none, has_dict)
    b.position_at_end(has_dict)
    k = capi.call(m, b, "PyLong_FromVoidPtr", key)
    b.cbranch(b.icmp("eq", k, NULL), none, have)       # (no memory: not found; the add then fails)
    b.position_at_end(have)
    v = capi.call(m, b, "PyDict_GetItem", b.load_at("ptr", memo, MEMO_DICT), k)
    capi.call(m, b, "Py_DecRef", k)
    b.cbranch(b.icmp("eq", v, NULL), none, got)
    b.position_at_end(got)
    index = capi.call(m, b, "PyLong_AsLongLong", v)
    b.ret(b.gep("i8", b.load_at("ptr", memo, MEMO_DATA), b.mul(index, int_const("i64", REC_SIZE))))
    return fn


def add(m: NativeModule):
    return m.declare(ADD, "i1", ["ptr", "ptr", "ptr", "ptr", "ptr", "i64"], attrs=("nounwind",))


def _define_add(m: NativeModule):
    """``i1 script.memo.add(Memo *memo, PyObject *py, List *native, reflect, release, i64
    written)``: record the pair, holding a reference to each; true at once for a NULL memo;
    false with an exception set when memory runs out."""
    fn = m.new_function(ADD, "i1", ["ptr", "ptr", "ptr", "ptr", "ptr", "i64"], linkage="external", attrs=HELPER_ATTRS)
    memo, py, native, reflect, release, written = fn.args
    b = Builder(fn, fn.append_block("entry"))
    ok, fail, go, grow, room = (fn.append_block(x) for x in ("ok", "fail", "go", "grow", "room"))
    Builder(fn, ok).ret(TRUE)
    fb = Builder(fn, fail)
    capi.call(m, fb, "PyErr_NoMemory")
    fb.ret(FALSE)
    b.cbranch(b.icmp("eq", memo, NULL), ok, go)
    b.position_at_end(go)
    make_dict, have_dict = fn.append_block("make_dict"), fn.append_block("have_dict")
    b.cbranch(b.icmp("eq", b.load_at("ptr", memo, MEMO_DICT), NULL), make_dict, have_dict)
    b.position_at_end(make_dict)
    d0 = capi.call(m, b, "PyDict_New")
    b.store_at(d0, memo, MEMO_DICT)
    b.cbranch(b.icmp("eq", d0, NULL), fail, have_dict)
    b.position_at_end(have_dict)
    n = b.load_at("i64", memo, MEMO_N)
    cap = b.load_at("i64", memo, MEMO_CAP)
    b.cbranch(b.icmp("eq", n, cap), grow, room)
    b.position_at_end(grow)
    new_cap = b.select(b.icmp("eq", cap, int_const("i64", 0)), int_const("i64", 8), b.mul(cap, int_const("i64", 2)))
    data = capi.call(m, b, "PyMem_Realloc", b.load_at("ptr", memo, MEMO_DATA), b.mul(new_cap, int_const("i64", REC_SIZE)))
    grown = fn.append_block("grown")
    b.cbranch(b.icmp("eq", data, NULL), fail, grown)
    b.position_at_end(grown)
    b.store_at(data, memo, MEMO_DATA)
    b.store_at(new_cap, memo, MEMO_CAP)
    b.branch(room)
    b.position_at_end(room)
    index = capi.call(m, b, "PyLong_FromLongLong", n)
    have_index, keyed, py_key_made = fn.append_block("have_index"), fn.append_block("keyed"), fn.append_block("py_key")
    b.cbranch(b.icmp("eq", index, NULL), fail, have_index)
    b.position_at_end(have_index)
    d = b.load_at("ptr", memo, MEMO_DICT)
    drop_index = fn.append_block("drop_index")
    db = Builder(fn, drop_index)
    capi.call(m, db, "Py_DecRef", index)
    db.ret(FALSE)
    for key, nxt in ((py, py_key_made), (b.gep("i8", native, int_const("i64", 1)), keyed)):
        k = capi.call(m, b, "PyLong_FromVoidPtr", key)
        have_k, no_k = fn.append_block("have_k"), fn.append_block("no_k")
        b.cbranch(b.icmp("eq", k, NULL), no_k, have_k)
        nb = Builder(fn, no_k)
        capi.call(m, nb, "PyErr_NoMemory")
        nb.branch(drop_index)
        b.position_at_end(have_k)
        r = capi.call(m, b, "PyDict_SetItem", d, k, index)
        capi.call(m, b, "Py_DecRef", k)
        b.cbranch(b.icmp("eq", r, int_const("i32", 0)), nxt, drop_index)
        b.position_at_end(nxt)
    capi.call(m, b, "Py_DecRef", index)
    rec = b.gep("i8", b.load_at("ptr", memo, MEMO_DATA), b.mul(n, int_const("i64", REC_SIZE)))
    b.store_at(capi.call(m, b, "Py_NewRef", py), rec, REC_PY)
    b.store_at(native, rec, REC_NATIVE)
    memory.emit_rc(m, b, "incref", native, T.ListType(T.I64))        # (a count: any list type)
    b.store_at(reflect, rec, REC_REFLECT)
    b.store_at(release, rec, REC_RELEASE)
    b.store_at(written, rec, REC_WRITTEN)
    b.store_at(b.add(n, int_const("i64", 1)), memo, MEMO_N)
    b.ret(TRUE)
    return fn


def _records_loop(b: Builder, memo: Value, body) -> None:
    """`body(b, record)` for each record of `memo` (not NULL), in order; `body` may end the
    function on its own path and leaves `b` where the loop goes on."""
    def step(i, _latch):
        body(b, b.gep("i8", b.load_at("ptr", memo, MEMO_DATA), b.mul(i, int_const("i64", REC_SIZE))))

    counted_loop(b, b.load_at("i64", memo, MEMO_N), step)


def emit_lookup(m: NativeModule, b: Builder, memo: Value, py: Value, written: Value, reflect, clash: str,
                found_native) -> None:
    """In a helper returning a pointer: look `py` up in `memo`. Found as recorded with
    `reflect` (its type), `written` is or-ed into its record and `found_native(b, native)`
    ends that path; found with another, the helper returns NULL with TypeError(`clash`);
    not found, `b` goes on in a fresh block."""
    fn = b.fn
    found, fresh, other, same = (fn.append_block(x) for x in ("found", "fresh", "clash", "same"))
    rec = b.call(find(m), [memo, py])
    b.cbranch(b.icmp("ne", rec, NULL), found, fresh)
    b.position_at_end(found)
    b.cbranch(b.icmp("eq", b.load_at("ptr", rec, REC_REFLECT), reflect.pointer), same, other)
    b.position_at_end(other)
    capi.call(m, b, "PyErr_SetString", capi.exception_class(m, b, "TypeError"), m.cstring(clash.encode()))
    b.ret(NULL)
    b.position_at_end(same)
    b.store_at(b.or_(b.load_at("i64", rec, REC_WRITTEN), written), rec, REC_WRITTEN)
    found_native(b, b.load_at("ptr", rec, REC_NATIVE))
    b.position_at_end(fresh)


def reflect_all(m: NativeModule):
    return m.declare(REFLECT_ALL, "i1", ["ptr"], attrs=("nounwind",))


def _define_reflect_all(m: NativeModule):
    """``i1 script.memo.reflect(Memo *memo)``: each written record's Python list takes its
    native list's contents; true for a NULL memo; false with an exception set."""
    fn = m.new_function(REFLECT_ALL, "i1", ["ptr"], linkage="external", attrs=HELPER_ATTRS)
    memo, = fn.args
    b = Builder(fn, fn.append_block("entry"))
    ok, go, failed = fn.append_block("ok"), fn.append_block("go"), fn.append_block("failed")
    Builder(fn, ok).ret(TRUE)
    Builder(fn, failed).ret(FALSE)
    b.cbranch(b.icmp("eq", memo, NULL), ok, go)
    b.position_at_end(go)

    def body(b, rec):
        write, after = fn.append_block("write_back"), fn.append_block("written")
        b.cbranch(b.icmp("ne", b.load_at("i64", rec, REC_WRITTEN), int_const("i64", 0)), write, after)
        b.position_at_end(write)
        reflect = Callee(b.load_at("ptr", rec, REC_REFLECT).ref, "i1", ["ptr", "ptr", "ptr"])
        r = b.call(reflect, [b.load_at("ptr", rec, REC_PY), b.load_at("ptr", rec, REC_NATIVE), memo])
        b.cbranch(r, after, failed, LIKELY)
        b.position_at_end(after)

    _records_loop(b, memo, body)
    b.branch(ok)
    return fn


def release_memo(m: NativeModule):
    return m.declare(RELEASE_MEMO, "void", ["ptr"], attrs=("nounwind",))


def _define_release_memo(m: NativeModule):
    """``void script.memo.release(Memo *memo)``: drop every record's references, the
    records and the dict; nothing for a NULL memo."""
    fn = m.new_function(RELEASE_MEMO, "void", ["ptr"], linkage="external", attrs=HELPER_ATTRS)
    memo, = fn.args
    b = Builder(fn, fn.append_block("entry"))
    done, go = fn.append_block("done"), fn.append_block("go")
    Builder(fn, done).ret_void()
    b.cbranch(b.icmp("eq", memo, NULL), done, go)
    b.position_at_end(go)

    def body(b, rec):
        release = Callee(b.load_at("ptr", rec, REC_RELEASE).ref, "void", ["ptr"])
        b.call(release, [b.load_at("ptr", rec, REC_NATIVE)])
        capi.call(m, b, "Py_DecRef", b.load_at("ptr", rec, REC_PY))

    _records_loop(b, memo, body)
    capi.call(m, b, "PyMem_Free", b.load_at("ptr", memo, MEMO_DATA))
    capi.call(m, b, "Py_DecRef", b.load_at("ptr", memo, MEMO_DICT))
    b.branch(done)
    return fn
