"""The Python side of compiled code: argument matching and conversion, the heap type and its
dispatch, fallbacks, reference counts, threads, garbage collection, saved object code."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
import threading
import weakref

import pytest

from script.backend import compile_native
from script.loadpath import load_native, make_function_type, new_instance, set_specializations
from script.ir import types as T
from script.ir.core import Const, Module
from test_backend_ops import build, emit

PAIR = T.TupleType([T.I64, T.F64])
NESTED = T.TupleType([PAIR, T.BOOL, T.TupleType([])])


class Fallback(Exception):
    """What the test fallback raises, carrying the arguments it got."""


def record_fallback(*args, **kwargs):
    raise Fallback(args, kwargs)


def with_fallback(func, fallback=record_fallback):
    from script.loadpath import compile_callable
    return compile_callable(Module([func]), func.name, fallback)


def add_i64():
    return build("add", [T.I64, T.I64], lambda blk, a, b: emit(blk, "add", [a, b]))


def identity(t, name=None):
    return build(name or f"id_{str(t).replace(' ', '')}", [t], lambda blk, a: a, ret_type=t)


# --- argument matching and conversion ------------------------------------------------------

def test_exact_types_and_fallback_on_mismatch():
    f = with_fallback(add_i64())
    assert f(2, 3) == 5
    for args in [(2.0, 3), (True, 3), (2, None), ("2", 3)]:
        with pytest.raises(Fallback) as info:
            f(*args)
        assert info.value.args == (args, {})


def test_int_subclass_and_bool_do_not_match_int():
    class MyInt(int):
        pass
    f = with_fallback(identity(T.I64))
    with pytest.raises(Fallback):
        f(MyInt(3))
    with pytest.raises(Fallback):
        f(False)
    b = with_fallback(identity(T.BOOL))
    assert b(True) is True and b(False) is False
    with pytest.raises(Fallback):
        b(1)


def test_wrong_count_and_keywords_go_to_the_fallback():
    f = with_fallback(add_i64())
    for args, kwargs in [((1,), {}), ((1, 2, 3), {}), ((1,), {"b": 2}), ((), {"a": 1, "b": 2})]:
        with pytest.raises(Fallback) as info:
            f(*args, **kwargs)
        assert info.value.args == (args, kwargs)
    assert f(*[1, 2], **{}) == 3


def test_int_overflow_on_the_way_in():
    f = with_fallback(identity(T.I64))
    assert f(2 ** 63 - 1) == 2 ** 63 - 1 and f(-2 ** 63) == -2 ** 63
    for big in (2 ** 63, -2 ** 63 - 1, 10 ** 30):
        with pytest.raises(OverflowError, match="^Python int too large to convert to C long$"):
            f(big)


@pytest.mark.parametrize("t", [T.I8, T.I16, T.I32, T.U8, T.U16, T.U32, T.U64], ids=str)
def test_sized_int_range(t):
    f = with_fallback(identity(t))
    for v in (t.min, t.max, 0, 1, t.max // 3):
        assert f(v) == v
    with pytest.raises(OverflowError, match=str(t) if t != T.U64 else "int too big"):
        f(t.max + 1)
    with pytest.raises(OverflowError, match=str(t) if t != T.U64 else "negative"):
        f(t.min - 1)
    with pytest.raises(OverflowError):
        f(2 ** 100)


def test_float_and_f32_arguments():
    f = with_fallback(identity(T.F64))
    assert f(1.5) == 1.5 and f(float("-inf")) == float("-inf")
    with pytest.raises(Fallback):
        f(1)
    g = with_fallback(identity(T.F32))
    assert g(0.1) == float.fromhex("0x1.99999ap-4")


def test_tuple_arguments_and_results():
    f = with_fallback(identity(NESTED, "nested"))
    value = ((3, 2.5), True, ())
    assert f(value) == value
    for bad in [((3, 2.5), True), ((3, 2), True, ()), [(3, 2.5), True, ()], ((3, 2.5, 1), True, ()),
                ((True, 2.5), True, ()), ((3, 2.5), 1, ())]:
        with pytest.raises(Fallback):
            f(bad)
    with pytest.raises(OverflowError):
        f(((2 ** 64, 2.5), True, ()))


def test_none_arguments_and_results():
    f = with_fallback(build("none_id", [T.NONE, T.I64], lambda blk, n, a: n, ret_type=T.NONE))
    assert f(None, 1) is None
    with pytest.raises(Fallback):
        f(0, 1)


# --- the heap type -------------------------------------------------------------------------

def test_methods_live_on_the_type_and_instances_have_a_dict():
    class Methods:
        def describe(self):
            return f"compiled {self.name}"

        @property
        def doubled(self):
            return self(2, 2) * 2

    tp = make_function_type("tests.Compiled", dict(Methods.__dict__))
    assert tp.__name__ == "Compiled" and tp.__module__ == Methods.__module__
    obj = new_instance(tp, record_fallback)
    obj.name = "add"
    assert obj.__dict__ == {"name": "add"}
    lib = compile_native(Module([add_i64()]), "add")
    set_specializations(obj, [lib], 2)
    assert obj.describe() == "compiled add" and obj.doubled == 8
    with pytest.raises(TypeError):
        tp()
    assert weakref.ref(obj)() is obj


def test_no_specialization_calls_the_fallback():
    obj = new_instance(make_function_type("tests.Empty"), lambda *a, **k: ("fb", a, k))
    assert obj(1, x=2) == ("fb", (1,), {"x": 2})


def test_several_specializations_are_tried_in_order():
    libs = [compile_native(Module([identity(t, "ident")]), "ident")
            for t in (T.I64, T.F64, PAIR, T.BOOL)]
    obj = new_instance(make_function_type("tests.Multi"), record_fallback)
    set_specializations(obj, libs, 1)
    assert obj(3) == 3 and obj(2.5) == 2.5 and obj((1, 1.5)) == (1, 1.5) and obj(True) is True
    with pytest.raises(Fallback):
        obj("x")
    with pytest.raises(Fallback):
        obj(1, 2)
    with pytest.raises(OverflowError):
        obj(2 ** 70)
    set_specializations(obj, libs[1:2], 1)      # back to one: the entry becomes the vectorcall
    with pytest.raises(Fallback):
        obj(3)
    assert obj(0.5) == 0.5
    set_specializations(obj, [], 1)
    with pytest.raises(Fallback):
        obj(0.5)


def test_fallback_can_install_a_specialization_and_call_again():
    lib = compile_native(Module([add_i64()]), "add")
    calls = []

    def fallback(*args):
        calls.append(args)
        set_specializations(obj, [lib], 2)
        return obj(*args)
    obj = new_instance(make_function_type("tests.Lazy"), fallback)
    assert obj(1, 2) == 3 and obj(3, 4) == 7 and calls == [(1, 2)]


def test_garbage_collection_of_cycles():
    holder = []
    obj = new_instance(make_function_type("tests.Cycle"), lambda *a: holder[0])
    holder.append(obj)                              # a cycle through the fallback
    set_specializations(obj, [compile_native(Module([add_i64()]), "add")], 2)
    obj.me = obj                                    # and one through the instance dict
    ref = weakref.ref(obj)
    del obj, holder
    gc.collect()
    assert ref() is None


def test_instances_release_their_type_and_fallback():
    tp = make_function_type("tests.Many")
    fallback = [].append
    before = (sys.getrefcount(tp), sys.getrefcount(fallback))
    for _ in range(1000):
        obj = new_instance(tp, fallback)
        obj.x = 1
        count = sys.getrefcount(obj)
        del obj
    assert count == 2 and (sys.getrefcount(tp), sys.getrefcount(fallback)) == before


def test_calling_a_cleared_object_raises():
    import ctypes
    from script.loadpath import runtime_library
    obj = new_instance(make_function_type("tests.Cleared"), record_fallback)
    set_specializations(obj, [compile_native(Module([add_i64()]), "add")], 2)
    clear = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object)(
        runtime_library().address["script.clear"])
    assert clear(obj) == 0
    with pytest.raises(RuntimeError, match="cleared"):
        obj(1, 2)


# --- reference counts ----------------------------------------------------------------------

def test_reference_counts_unchanged_after_many_calls():
    f = with_fallback(build("mix", [T.I64, T.F64, PAIR], lambda blk, a, x, p: [
        a, x, p, emit(blk, "cmp", [a, Const(0, T.I64)], T.BOOL, "gt"), Const(None, T.NONE)]))
    a, x, p = 10 ** 6 + 1, 2.5 + 1e-9, (10 ** 7 + 3, 0.25)
    before = [sys.getrefcount(o) for o in (a, x, p, p[0], p[1], True, None)]
    for _ in range(100_000):
        r = f(a, x, p)
    del r
    assert [sys.getrefcount(o) for o in (a, x, p, p[0], p[1], True, None)] == before
    r = f(a, x, p)
    counts = (sys.getrefcount(r), sys.getrefcount(r[2]))    # outside the assert: pytest
    assert r == (a, x, p, True, None) and r[2] is not p     # keeps its subexpressions
    assert counts == (2, 2)


def test_reference_counts_on_error_and_fallback_paths():
    g = with_fallback(build("neg_check", [T.I64], lambda blk, a: a), fallback=lambda *a: a)
    big, s = 2 ** 80, "str"
    before = [sys.getrefcount(big), sys.getrefcount(s)]
    for _ in range(20_000):
        with pytest.raises(OverflowError):
            g(big)
        g(s)
    assert [sys.getrefcount(big), sys.getrefcount(s)] == before


# --- threads -------------------------------------------------------------------------------

def test_eight_threads_call_one_function():
    f = with_fallback(build("mul3", [T.I64, T.F64], lambda blk, a, x: [
        emit(blk, "mul", [a, Const(3, T.I64)]), emit(blk, "mul", [x, Const(3.0, T.F64)])]))
    errors = []
    barrier = threading.Barrier(8)

    def work(k):
        try:
            barrier.wait()
            for i in range(20_000):
                if f(i + k, 0.5) != ((i + k) * 3, 1.5):
                    errors.append((k, i))
                    return
        except Exception as e:  # noqa: BLE001 - report any failure from the thread
            errors.append(e)
    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


# --- saved object code ---------------------------------------------------------------------

def test_load_native_from_object_bytes():
    func = add_i64()
    lib = compile_native(Module([func]), "add")
    again = load_native(lib.object_code, func)
    assert again.entry_address != lib.entry_address and again.llvm_ir is None
    obj = new_instance(make_function_type("tests.Loaded"), record_fallback)
    set_specializations(obj, [again], 2)
    del lib
    gc.collect()
    assert obj(20, 22) == 42


def test_object_code_loads_in_another_process(tmp_path):
    """Object code holds no addresses of this process: another interpreter links it."""
    func = build("raises", [T.I64], lambda blk, a: a)
    lib = compile_native(Module([func]), "raises")
    path = tmp_path / "raises.o"
    path.write_bytes(lib.object_code)
    script = textwrap.dedent(f"""
        import sys
        sys.path[:0] = {sys.path!r}
        from script.loadpath import (load_native, make_function_type, new_instance,
                                     set_specializations)
        from script.ir.core import Function
        from script.ir import types as T
        lib = load_native(open({str(path)!r}, "rb").read(), Function("raises", [T.I64], T.I64))
        obj = new_instance(make_function_type("Loaded"), lambda *a: "fallback")
        set_specializations(obj, [lib], 1)
        try:
            obj(2 ** 64)
        except OverflowError as e:
            print(obj(41), obj(1.5), e)
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120)
    assert out.stdout.strip() == "41 fallback Python int too large to convert to C long", out.stderr
