"""The compiled-function object as users meet it: specializations, argument checking,
attributes, threads, reference counts."""

import sys
import threading

import numpy as np
import pytest

import api_kernels as K
import script


def test_unannotated_specializes_per_signature():
    f = script.script(K.add)
    assert f.signatures == []
    assert f(1, 2) == 3
    assert f(1.5, 2) == 3.5
    assert f(True, False) == 1
    assert f((1), 2) == 3
    assert f.signatures == ["(int, int) -> int", "(float, int) -> float", "(bool, bool) -> int"]
    assert f.py_func is K.add
    assert f.__name__ == "add" and f.__wrapped__ is K.add
    assert "script function" in repr(f)


def test_annotated_compiles_on_first_call_for_the_arguments_own_types():
    f = script.script(K.scale)
    assert f.signatures == []       # nothing compiles before the module has run
    assert f(2.0, 3) == 6.0
    assert f.signatures == ["(float, int) -> float"]
    r = f(2, 3)                     # annotations are hints, as in CPython: int * int is an int
    assert r == 6 and type(r) is int
    assert f("ab", 2) == "abab"     # what CPython computes, whatever the annotation says
    assert f(1.0, 2.5) == 2.5
    assert f(np.float64(2.0), np.int64(3)) == 6.0


def test_wrong_argument_types_raise_type_error():
    f = script.script(K.scale)
    with pytest.raises(TypeError, match=r"scale\(\).*bytearray"):
        f(bytearray(b"a"), 3.5)     # what no compiled code takes
    g = script.script(K.add)
    with pytest.raises(TypeError, match="argument 'a' of type bytearray"):
        g(bytearray(b"x"), 1)
    with pytest.raises(TypeError, match="add"):
        g(1)
    with pytest.raises(TypeError, match="unexpected keyword"):
        g(1, 2, c=3)


def test_int_overflow_on_the_way_in():
    f = script.script(K.add, int_overflow="raise")
    with pytest.raises(OverflowError):
        f(2**63, 1)
    assert script.script(K.add)(2**63, 1) == 2**63 + 1      # by default CPython runs the call
    assert f(2**63 - 1, 0) == 2**63 - 1
    assert f(-(2**63), 0) == -(2**63)


def test_sized_integers_wrap_and_range_check():
    f = script.script(K.narrow)
    assert f(3, 4) == 13
    assert f(2**16, 2**16) == 1                 # wraps modulo 2**32
    with pytest.raises(OverflowError):
        f(2**31, 1)
    u = script.script(K.unsigned)
    assert u(10) == 4                            # (10 + 250) % 256
    with pytest.raises(OverflowError):
        u(-1)
    s = script.script(K.single)
    assert s(1.1) == float(np.float32(np.float32(1.1) * np.float32(3.0) + np.float32(1.0)))
    m = script.script(K.mixed)
    assert m(-1, 65535) == 65534                 # i16 + u16 promotes to i32


def test_bool_none_tuple_returns():
    assert script.script(K.flag)(True) == 1
    assert script.script(K.nothing)(3) is None
    assert script.script(K.pair)(3) == (3, 1.5)


def test_ir_stages():
    f = script.script(K.scale)
    assert "func @scale" in f.ir("ssa")
    assert "func @scale" in f.ir("opt")
    assert "define" in f.ir("llvm")
    asm = f.ir("asm")
    assert "ret" in asm
    with pytest.raises(ValueError, match="unknown stage"):
        f.ir("bogus")
    g = script.script(K.add)
    with pytest.raises(ValueError, match="no compiled specialization"):
        g.ir()
    g(1, 2)
    g(1.0, 2.0)
    assert g.ir("opt", (int, int)).count("func @") == 1
    assert g.ir("opt").count("func @") == 2


def test_eight_threads_at_once():
    f = script.script(K.spin)
    expected = {n: sum(i % 7 for i in range(n)) for n in range(0, 4000, 97)}
    errors = []

    def work():
        try:
            for n, want in expected.items():
                assert f(n) == want
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_compiling_from_threads_is_safe():
    fns = [script.script(K.add) for _ in range(8)]
    out = [None] * 8

    def work(i):
        out[i] = fns[i](i, 0.5)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == [i + 0.5 for i in range(8)]


def test_exceptions_leak_no_references():
    f = script.script(K.raiser)
    big = 10**6 + 12345
    before = sys.getrefcount(big)
    for _ in range(20000):
        with pytest.raises(ValueError):
            f(-big)
        assert f(big) == big
    assert sys.getrefcount(big) == before
    with pytest.raises(ValueError, match="^negative$"):
        f(-1)


def test_module_is_callable_as_decorator():
    f = script(K.add)
    assert f(2, 3) == 5
    with pytest.raises(ValueError):
        script.script(K.add, opt=7)


from hypothesis import given, settings, strategies as st  # noqa: E402


def _np_tuple(*values):
    return tuple(v.item() if hasattr(v, "item") else v for v in values)


@settings(max_examples=80, deadline=None)
@given(st.integers(-(2**31), 2**31 - 1), st.integers(-(2**31), 2**31 - 1))
def test_sized_int_arithmetic_matches_numpy(a, b):
    f = script.script(K.sized_ops)
    x, y = np.array([a], np.int32), np.array([b], np.int32)
    with np.errstate(all="ignore"):
        want = _np_tuple((x + y)[0], (x - y)[0], (x * y)[0], (x // 7)[0], (x % 7)[0], (x & y)[0],
                         (x | y)[0], (x ^ y)[0], (-x)[0], bool((x < y)[0]))
    assert f(a, b) == want


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**16 - 1), st.integers(0, 2**16 - 1))
def test_unsigned_arithmetic_matches_numpy(a, b):
    f = script.script(K.unsigned_ops)
    x, y = np.array([a], np.uint16), np.array([b], np.uint16)
    with np.errstate(all="ignore"):
        want = _np_tuple((x + y)[0], (x - y)[0], (x * y)[0], (x // 3)[0], (x % 3)[0], (x >> 2)[0],
                         (x << 3)[0], bool((x > y)[0]))
    assert f(a, b) == want


@settings(max_examples=80, deadline=None)
@given(st.floats(-1e30, 1e30).map(lambda v: float(np.float32(v))), st.floats(-1e30, 1e30).map(lambda v: float(np.float32(v))))
def test_float32_arithmetic_matches_numpy(a, b):
    f = script.script(K.single_ops)
    x, y = np.float32(a), np.float32(b)
    with np.errstate(all="ignore"):
        want = _np_tuple(x + y, x * y, x - y, x * np.float32(2.0), x / np.float32(3.0))
    got = f(a, b)
    assert all(g == w or (g != g and w != w) for g, w in zip(got, want)), (got, want)


def test_deep_recursion_raises_recursion_error_not_a_crash():
    f = script.script(K.mutual_a)
    assert f(50) == K.mutual_a(50)
    with pytest.raises(RecursionError, match="maximum recursion depth exceeded"):
        f(10**7)
    assert f(10) == K.mutual_a(10)          # still usable afterwards


def test_runaway_recursion_holding_a_list_raises_recursion_error():
    f = script.script(K.lists_down)
    assert f(300, [7]) == K.lists_down(300, [7])
    for _ in range(3):
        with pytest.raises(RecursionError, match="maximum recursion depth exceeded"):
            f(-1, [7])
    assert f(30, [1]) == K.lists_down(30, [1])


def test_runaway_tail_recursion_raises_recursion_error():
    even, count = script.script(K.tail_even), script.script(K.tail_count)
    assert even(10) is True and even(7) is False and count(500, 0) == 500
    for call in (lambda: even(-1), lambda: count(-1, 0)):
        with pytest.raises(RecursionError, match="maximum recursion depth exceeded"):
            call()
