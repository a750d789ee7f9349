"""The rules that compile 64-bit code written with Python masks (frontend/int_consts.py):
literals from 2**63 to 2**64 - 1 are u64; int constant expressions are computed exactly;
`x % 2**64` / `x + 2**64` are x as u64 and `x - 2**64` x as i64; an int meeting a u64 goes to
u64, also where a variable merges the two; ints compare by value; constants beyond 64 bits
are a CompileError naming the expression and its line. Also: such constants survive the IR
text, script.save/load (object code and recompiled from IR), the compile cache and kernels."""

import math
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import archive_tools as A
import cuda_kernels as K
import realistic_bits as R
import script
from difftest import check_all_levels

SET = settings(max_examples=30, deadline=None)
INT = st.one_of(st.integers(-2**63, 2**63 - 1), st.integers(-1000, 1000),
                st.sampled_from([0, 1, -1, 2**63 - 1, -2**63]))
STEPS = st.integers(0, 20)


def big_literals():
    a = 0xFFFFFFFFFFFFFFFF
    b = 2**63
    c = -2**63
    d = -0x8000000000000000
    e = ~(2**63 - 1)
    return a, b, c, d, e, a - 1, (1 << 64) - 1, 2**64 - 2**63


def test_constant_expressions_are_exact():
    check_all_levels(big_literals)


def reinterpret(x):
    u = x % 2**64
    return u, x % (1 << 64), u >> 63, (x + 2**64 if x < 0 else x), u - (1 << 64) if u >> 63 else int(u)


@SET
@given(INT)
def test_mod_two_to_the_64_is_the_u64_of_an_int(x):
    check_all_levels(reinterpret, x)


def merged(x, n):
    h = x                           # an int on entry, a u64 after the first round
    for _ in range(n):
        h = (h * 31 + 7) & 0xFFFFFFFFFFFFFFFF
    return h


@SET
@given(st.integers(0, 2**63 - 1), STEPS)
def test_an_int_and_a_u64_merge_to_u64(x, n):
    check_all_levels(merged, x, n)
    f = script.script(merged)
    f(x, n)
    assert f.signatures == ["(int, int) -> u64"]


def wide_results(x, how):
    h = (x * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    if how == 0:
        return int(h)
    if how == 1:
        return math.isqrt(h), math.gcd(h, 6)
    if how == 2:
        return h if x > 0 else x    # an int on one path, a u64 on the other
    if x > 0:
        return h
    return x                        # (the same, as two returns)


@pytest.mark.parametrize("x", [0, 1, 3, -1, -7, 2**40])
@pytest.mark.parametrize("how", [0, 1, 2, 3])
def test_a_u64_that_an_int_cannot_hold_raises_not_wraps(x, how):
    """int(h) and math.isqrt(h) of a u64 from 2**63 up, and a negative int merged with a
    u64: CPython's value does not fit the compiled type (int64, u64), so OverflowError
    where the value is made, never its two's complement (`-1` read back as 2**64 - 1)."""
    want = wide_results(x, how)
    f = script.script(wide_results, int_overflow="raise")
    wide = how >= 2 and x < 0 or how < 2 and (x * 0x9E3779B97F4A7C15) % 2**64 >= 2**63
    if wide:
        with pytest.raises(OverflowError, match="unsigned"):
            f(x, how)
    else:
        assert f(x, how) == want


def mixed_compare(a, b):
    u = 0xFFFFFFFFFFFFFFFF - (a & 0xFF)
    return u < b, u <= b, u > b, u >= b, u == b, u != b, b < u, b == u, u > -5, -5 < u, u == -1


@SET
@given(INT, INT)
def test_an_int_and_a_u64_compare_by_value(a, b):
    check_all_levels(mixed_compare, a, b)


def narrow_compare(x):
    return x < 1000, x > -1, x == 300, 1000 > x, x != -1


@pytest.mark.parametrize("value", [np.int8(-5), np.uint8(200), np.uint64(2**64 - 1), np.int16(7)])
def test_a_literal_beyond_a_sized_type_compares_by_value(value):
    want = tuple(bool(v) for v in narrow_compare(value))       # NumPy 2's answers
    assert script.script(narrow_compare)(value) == want


def numpy_u64_stays_numpy(a, i):
    return a[i] + 1, a[i] * 2.0


def test_uint64_elements_keep_numpy_promotion():
    a = np.array([2**64 - 1, 5], np.uint64)
    assert script.script(numpy_u64_stays_numpy)(a, 0) == (0, float(2**64 - 1) * 2.0)


def too_big_power(x):
    return x * 2**64


def too_big_shift(x):
    return x & (1 << 64)


def too_big_literal(x):
    return x ^ 0x1FFFFFFFFFFFFFFFF


def too_negative(x):
    return x - 0xFFFFFFFFFFFFFFFF * 2


BIG_GLOBAL = 1 << 64


def too_big_global(x):
    return x % BIG_GLOBAL


@pytest.mark.parametrize("fn, text", [
    (too_big_power, r"'2 \*\* 64' = 18446744073709551616 does not fit in 64 bits"),
    (too_big_shift, r"'1 << 64' = 18446744073709551616 does not fit"),
    (too_big_literal, r"integer constant 36893488147419103231 does not fit in 64 bits"),
    (too_negative, r"= 36893488147419103230 does not fit"),
    (too_big_global, r"global 'BIG_GLOBAL' = 18446744073709551616 does not fit in 64 bits"),
])
def test_constants_beyond_64_bits_are_compile_errors(fn, text):
    with pytest.raises(script.CompileError, match=text) as info:
        script.script(fn)(1)
    assert f"{fn.__code__.co_firstlineno + 1}:" in str(info.value)


def float_mod(x):
    return x % 2**64


def float_sub(x):
    return x - (1 << 64)


@pytest.mark.parametrize("fn, text", [(float_mod, "'% 2 \\*\\* 64'"), (float_sub, "'- 1 << 64'")])
def test_two_to_the_64_with_a_float_is_an_error(fn, text):
    with pytest.raises(script.CompileError, match=text + r" \(2\*\*64\) is only supported on ints"):
        script.script(fn)(1.5)


# ---- IR text, saved modules, the compile cache, kernels -------------------------------------

SAVED_CALLS = [("fnv1a_64", ("hello",)), ("splitmix64", (-5, 4)), ("pcg32", (42, 54, 5)),
               ("mask_inside", ()), ("compare_u64", (-1, -3)), ("to_unsigned64", (-2,)),
               ("xoshiro256ss", (9, 3))]


def _saved_outcomes(fns):
    return [fns[name](*args) for name, args in SAVED_CALLS]


def test_u64_constants_print_parse_and_survive_save_and_load(tmp_path):
    from script.ir.parser import parse_module
    from script.ir.printer import format_module
    fns = {name: script.script(getattr(R, name)) for name, _ in SAVED_CALLS}
    want = _saved_outcomes({name: getattr(R, name) for name, _ in SAVED_CALLS})
    assert _saved_outcomes(fns) == want
    assert "14695981039346656037:u64" in fns["fnv1a_64"].ir("ssa")
    for f in fns.values():
        for spec in f._specializations.values():
            for t in (spec.ssa_text, format_module(spec.module)):
                assert format_module(parse_module(t)) == t
    path = tmp_path / "bits.smod"
    script.save(fns, path)
    m = script.load(path)
    assert _saved_outcomes({n: getattr(m, n) for n, _ in SAVED_CALLS}) == want
    other = tmp_path / "other.smod"
    A.rewrite(path, other, A.other_cpu)
    again = script.load(other)
    assert "some-other-cpu" in again.__recompiled__
    assert _saved_outcomes({n: getattr(again, n) for n, _ in SAVED_CALLS}) == want


CACHED = """
import script

MASK = (1 << 64) - 1

@script.script(cache=True)
def fnv(s):
    h = 0xcbf29ce484222325
    for c in s:
        h ^= ord(c)
        h = (h * 0x100000001b3) & MASK
    return h, h % 2**64 > -1, MASK
"""


def test_u64_constants_come_back_from_the_compile_cache(tmp_path, monkeypatch):
    import importlib.util
    from script.saved import LoadedSpecialization
    monkeypatch.setenv("SCRIPT_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "cached_bits.py").write_text(textwrap.dedent(CACHED))
    got = []
    for k in range(2):
        spec = importlib.util.spec_from_file_location(f"cached_bits_{k}", tmp_path / "cached_bits.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        got.append(mod.fnv("hash me"))
        hit = isinstance(next(iter(mod.fnv._specializations.values())), LoadedSpecialization)
        assert hit == (k == 1)
    assert got[0] == got[1] == (R.fnv1a_64("hash me"), True, 2**64 - 1)


def test_u64_constants_in_a_kernel_reach_the_ptx():
    ptx = K.splitmix_keys.ptx(arch="sm_90")       # (run on the CPU path and by ptxas: test_cuda_*)
    assert ".entry" in ptx and "-7046029254386353131" in ptx       # 0x9E3779B97F4A7C15


MIXED_TABLE = [-1] * 20 + [2**64 - 1] * 20


def mixed_table(i):
    return MIXED_TABLE[i]


def test_a_global_list_of_ints_that_fit_no_64_bit_type_is_an_error():
    with pytest.raises(script.CompileError, match="global list 'MIXED_TABLE' holds ints that do not fit one"):
        script.script(mixed_table)(0)


def u64_powmod(x):
    return pow(x & 0xFFFFFFFFFFFFFFFF, 3, 1000)


def test_pow_with_a_modulus_of_a_u64_is_an_error_not_a_wrong_value():
    with pytest.raises(script.CompileError, match=r"pow\(\) with three arguments is not supported on u64"):
        script.script(u64_powmod)(-3)


def declared_int(x):
    y: int = 0xFFFFFFFFFFFFFFFF
    return y + x


def preset_list(n):
    keys = [0] * 4
    keys[0] = (n * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    return keys


@pytest.mark.parametrize("fn, text", [
    (declared_int, "cannot assign 18446744073709551615 to 'y', declared i64: it does not fit"),
    (preset_list, r"cannot store a value of type u64 in a list\[i64\]"),
])
def test_a_u64_where_an_int_was_declared_is_an_error(fn, text):
    with pytest.raises(script.CompileError, match=text):
        script.script(fn)(1)


def big_with_floats(x, n):
    return x * 10**20, x / 2**70, 2**100 * 1.5, n / 10**20, -(10**19) * x


@SET
@given(st.floats(-1e6, 1e6), st.integers(-2**53, 2**53))
def test_an_int_constant_beyond_64_bits_meeting_a_float_is_that_float(x, n):
    check_all_levels(big_with_floats, x, n)


def big_in_comparisons(n, x):
    # validation against bounds beyond int64: CPython's exact comparison, known from n's range
    return (0 <= n < 10**20, n == 2**64, 2**70 > n, -10**30 < n <= 5, x < 10**20, x >= 2**64,
            10**20 < 10**21, n != 2**64 and n)


@SET
@given(st.integers(-2**63, 2**63 - 1), st.one_of(st.floats(allow_nan=True), st.sampled_from([2.0**64, 1e20])))
def test_an_int_constant_beyond_64_bits_in_a_comparison(n, x):
    check_all_levels(big_in_comparisons, n, x)


def big_times_int(n):
    return n * 10**20


def test_an_int_constant_beyond_64_bits_meeting_an_int_is_an_error():
    with pytest.raises(script.CompileError, match=r"'10 \*\* 20' = 100000000000000000000 does not fit"):
        script.script(big_times_int)(2)
