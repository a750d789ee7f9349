"""Builtins and scalar methods beyond arithmetic: reversed(), float("inf") and friends,
int.bit_length(), float.is_integer(), against CPython."""

import math
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from difftest import check_all_levels, compiled

SET = settings(max_examples=40, deadline=None)


def reversed_loops(n, a):
    s = 0
    for i in reversed(range(n)):
        s = s * 3 + i
    for i in reversed(range(2, n, 3)):
        s = s * 3 - i
    for i in reversed(range(n, -n, -2)):
        s = s * 2 + i
    t = 0.0
    for x in reversed(a):
        t = t * 0.5 + x
    for k, x in enumerate(reversed(a[::2])):
        t += k * x
    for x, y in zip(reversed(a), a):
        t += x - 2 * y
    for x in reversed((1, 2.5, 3)):
        t = t * 2 + x
    return s, t


def reversed_rows(m):
    total = 0.0
    for row in reversed(m):
        total = total * 2 + row[0] - row[-1]
    return total


def string_constants(x):
    lo = float("-inf")
    hi = float("inf")
    best = float("Infinity")
    if x > hi or x < lo:
        return float("nan"), 0, 0.0
    for k in range(int("3")):
        best = min(best, abs(x - k * float("0.5")))
    return best, int(" 42 "), float("1e3")


def bad_string(x):
    if x > 0:
        return float("abc")
    return float("1.5")


def bits(n):
    return n.bit_length(), (n // 3).bit_length(), (-n).bit_length()


def integral(x):
    return x.is_integer(), (x * 0.5).is_integer(), (x + 0.25).is_integer()


@SET
@given(st.integers(-3, 12), st.integers(0, 9))
def test_reversed(n, m):
    check_all_levels(reversed_loops, n, np.arange(float(m)) * 1.5)
    check_all_levels(reversed_rows, np.arange(float(m * 3)).reshape(m, 3))


def test_reversed_of_enumerate_is_an_error():
    import pytest
    import script
    from script.errors import CompileError

    def f(a):
        s = 0.0
        for i, x in reversed(enumerate(a)):
            s += x
        return s
    with pytest.raises(CompileError, match="'enumerate' object is not reversible"):
        script.script(f)(np.zeros(3))


@SET
@given(st.floats(allow_nan=True, allow_infinity=True))
def test_strings_to_numbers(x):
    check_all_levels(string_constants, x)
    check_all_levels(bad_string, x)


@SET
@given(st.integers(-2**63 + 1, 2**63 - 1))
def test_bit_length(n):
    check_all_levels(bits, n)


def test_bit_length_extremes():
    for n in (0, 1, -1, 2**62, 2**63 - 1, -2**63 + 1):
        check_all_levels(bits, n)


@SET
@given(st.floats(allow_nan=True, allow_infinity=True))
def test_is_integer(x):
    check_all_levels(integral, x)


def rounded(x, n):
    return round(x, n), round(x, ndigits=n)


def _nudged(d: int, k: int, ulps: int) -> float:
    """d / 10**k moved by a few ulps: the numbers round() meets, near a decimal half."""
    x = d / 10 ** k
    for _ in range(abs(ulps)):
        x = math.nextafter(x, math.copysign(math.inf, ulps))
    return x


DECIMALS = st.builds(_nudged, st.integers(-10**17, 10**17), st.integers(0, 25), st.integers(-2, 2))


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.floats(allow_nan=True, allow_infinity=True), DECIMALS), st.integers(-330, 330))
def test_round_to_digits_is_correctly_rounded(x, n):
    # CPython rounds the exact decimal value of x, half to even, and reads the digits back
    check_all_levels(rounded, x, n)


@pytest.mark.parametrize("x, n", [
    (138.35399999999998, 9), (2.675, 2), (0.125, 2), (-0.5, 0), (0.285, 2), (1e-30, 25), (5e-324, 323),
    (2.5e-323, 323), (9.958008452084109e21, -25), (2.5e25, -25), (5e25, -26), (-1.5352406099499667e29, -24),
    (1.4039759955361234e305, -23), (1.7976931348623157e308, -308), (1e300, 400), (1e300, -400),
    (4503599627370497.0, 0), (9007199254740993.0, -1), (-0.0, 3), (1e16, 10)])
def test_round_to_digits_hard_cases(x, n):
    check_all_levels(rounded, x, n)


def rounded_float32(a, n):
    return round(a[0], n), round(a[1], -n)


@settings(max_examples=60, deadline=None)
@given(st.floats(width=32, allow_nan=True, allow_infinity=True), st.integers(-50, 50))
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_round_of_a_float32_is_numpys(x, n):
    # NumPy's np.round in float32: nan (no OverflowError) where 10**|n| overflows float32
    check_all_levels(rounded_float32, np.array([x, 1.5], np.float32), n)


def unpacking(n, a, lst):
    x, *y = (1, 2.5, 3)
    *p, q = (n, n + 1)
    r, *s, t = (n, 2, 3, 4, n * 2)
    u, *v, w = (1, 2)
    a1, a2 = lst
    b1, *b2 = a
    c1, c2, c3 = a
    h, *tail = lst
    return x, sum(y), len(p), q, r, sum(s), t, len(v), w, a1 + a2, b1, len(b2), c1 + c2 + c3, h, sum(tail)


@SET
@given(st.integers(-5, 5), st.integers(0, 5), st.lists(st.integers(-9, 9), min_size=1, max_size=4))
def test_unpacking_with_and_without_a_star(n, m, lst):
    check_all_levels(unpacking, n, np.arange(float(m)), lst)


def truth_tests(lst0, x):
    lst = list(lst0)
    a = 0
    if lst and lst[-1] == x:           # list and bool: only the truth is used
        a += 1
    if not (lst and lst[0] > x):
        a += 10
    while lst and lst[-1] > x:
        lst.pop()
        a += 100
    b = 1 if (lst or x > 2) else 2
    return a, b, len(lst), [v for v in lst0 if v and v > x]


@SET
@given(st.lists(st.integers(-3, 3), min_size=1, max_size=5), st.integers(-3, 3))
def test_and_or_in_conditions(lst, x):
    check_all_levels(truth_tests, lst, x)


def clip_one_sided(a, k):
    return np.clip(a, None, k), np.clip(a, k, None), a.clip(None, 2), np.clip(a, None, None)


def clip_int8(b):
    return np.clip(b, None, 300), np.clip(b, -500, None), np.clip(2.5, None, 1.0)


def clip_uint64(u, lo, hi):
    """Python int bounds of a uint64 array: -1 is out of its range (NumPy's OverflowError),
    any non-negative int64 bound is in it (its top is not an int64)."""
    c = np.clip(np.cumsum(u), lo, hi)
    u[1:4] = np.clip(np.cumsum(u), lo, hi)          # (a shape that does not broadcast raises)
    return c, u


def optional_array(a, w=None):
    if w is None:
        return a.sum()
    if a is not None and w is not None:
        return (a * w).sum()
    return 0.0


@SET
@given(st.integers(0, 6), st.floats(-5, 5))
def test_clip_with_one_bound_and_is_none_of_arrays(n, k):
    a = np.arange(float(n)) - 2.5
    check_all_levels(clip_one_sided, a, k)
    check_all_levels(clip_int8, np.arange(-n, n, dtype=np.int8))
    for u in (np.arange(n, dtype=np.uint8), np.array([8], dtype=np.uint8)):
        for lo, hi in ((2, n), (2, 0), (0, 2**62), (2, -1), (-1, 3)):
            check_all_levels(clip_uint64, u, lo, hi)
    check_all_levels(optional_array, a)
    check_all_levels(optional_array, a, a * k)


def three_pow(b, e, m):
    return pow(b, e, m)


def small_pow(b, e, m):
    return pow(b, e, m), pow(b % 7, 3, 10), pow(2, e % 60, m)


@settings(max_examples=60, deadline=None)
@given(st.integers(-2**63, 2**63 - 1), st.integers(-2**63, 2**63 - 1),
       st.integers(-2**63 + 1, 2**63 - 1).filter(lambda m: m != 0)
       | st.sampled_from([1, -1, 2, 97, -97, 2**61 - 1, 2**63 - 1, -(2**63 - 1), 3037000499, 3037000500]))
def test_pow_with_a_modulus(b, e, m):
    """Modular powers (products past 2**63 done by doubling), negative moduli, and negative
    exponents (the inverse, or CPython's ValueError when there is none)."""
    check_all_levels(three_pow, b, e, m)
    check_all_levels(three_pow, b, abs(e) % 1000, m)
    check_all_levels(small_pow, b, e, m)


def test_pow_modulus_errors():
    check_all_levels(three_pow, 3, 4, 0)                      # ValueError: cannot be 0
    check_all_levels(three_pow, 6, -1, 9)                     # not invertible

    def float_pow(x):
        return pow(x, 2, 5)
    check_all_levels(float_pow, 2.0)            # CPython's TypeError, at run time


def tuple_extremes(xs, a, b):
    pairs = [(x % 5, -x) for x in xs]
    best = (a, b)
    for p in pairs:
        best = max(best, p)
    return max((a, b), (b, a)), min((a, b), (b, a), (a, a)), max(pairs), min(pairs), best


@SET
@given(st.lists(st.integers(-20, 20), min_size=1, max_size=8), st.integers(-3, 3), st.integers(-3, 3))
def test_min_max_of_tuples(xs, a, b):
    check_all_levels(tuple_extremes, xs, a, b)
    check_all_levels(tuple_extremes, [], a, b)               # ValueError: max() arg is an empty sequence


def enumerate_from(xs, k):
    out = [(i, x) for i, x in enumerate(xs, start=1)]
    s = 0
    for i, x in enumerate(xs, start=k):
        s += i * x
    for i, x in enumerate(xs, k):
        s -= i
    return out, s


@SET
@given(st.lists(st.integers(-100, 100), min_size=1, max_size=6), st.integers(-5, 5))
def test_enumerate_start(xs, k):
    check_all_levels(enumerate_from, xs, k)


def _squares(n):
    for i in range(n):
        yield i * i


def keyword_starts(xs, n, k):
    # start= given by keyword: sum() of a builtin's iterator ignored it (returned 0 + items)
    total = sum(range(n), start=k) + sum(map(abs, xs), start=k) + sum(xs, start=0.5)
    total += sum((x * 2 for x in xs), start=k)
    # enumerate(generator, start=) was a CompileError (Project Euler 104's zip of generators)
    pairs = [(i, x) for i, x in enumerate(zip(_squares(n), xs), start=k)]
    return total, pairs


@pytest.mark.parametrize("xs, n, k", [([], 0, 0), ([3, -4, 5], 4, 7), ([-1], 6, -3)])
def test_keyword_start_of_sum_and_enumerate(xs, n, k):
    check_all_levels(keyword_starts, xs, n, k)


class _Ranked:
    def __init__(self, a, tag):
        self.a = a
        self.tag = tag

    def __lt__(self, other):
        return self.a < other.a


def instance_extremes(x, y, z):
    # min/max of instances of one class: compared by __lt__ (max by the reflected one), the
    # first of equals returned (was a CompileError: Project Euler 503's min(Fraction, w))
    m = max(_Ranked(x, 1), _Ranked(y, 2), _Ranked(z, 3))
    n = min(_Ranked(x, 1), _Ranked(y, 2), _Ranked(z, 3))
    return m.tag, n.tag


@pytest.mark.parametrize("x, y, z", [(1, 2, 2), (3, 3, 1), (5, 1, 5)])
def test_min_max_of_instances(x, y, z):
    check_all_levels(instance_extremes, x, y, z)


def radix(n, x):
    return bin(n), oct(n), hex(n), bin(n > 0), format(n), format(n, "+08d"), format(x, ".3e"), \
        format(x), format(n, "#x")


@SET
@given(st.integers(-2**63 + 1, 2**63 - 1), st.floats(allow_nan=True, allow_infinity=True))
def test_bin_oct_hex_format(n, x):
    check_all_levels(radix, n, x)


def tuple_ops(a, b, x):
    t = (a, b, a + b, 2.5)
    return t * 2, 2 * (a, b), (a,) * 0, t[1:], t[:-1], t[::-1], t[::2], t[-3:5], \
        t.count(x), t.count(a), t.index(b)


def tuple_missing(a, x):
    return (a, a + 1).index(x)


@SET
@given(st.integers(-5, 5), st.integers(-5, 5), st.integers(-5, 5))
def test_tuple_repeat_slice_count_index(a, b, x):
    check_all_levels(tuple_ops, a, b, x)
    check_all_levels(tuple_missing, a, x)


def test_tuple_repeat_and_slice_need_constants():
    import pytest
    import script
    from script.errors import CompileError

    def repeat(t, k):
        return t * k

    def cut(t, k):
        return t[k:]
    with pytest.raises(CompileError, match="constant number of times"):
        script.script(repeat)((1, 2), 3)
    with pytest.raises(CompileError, match="bounds must be constants"):
        script.script(cut)((1, 2), 1)


def sums(xs, a):
    import math as m
    return m.fsum(xs), m.fsum(a), m.prod(xs), m.prod(a, start=2.0), m.prod(range(1, 6)), \
        m.prod((1, 2.5, 3))


int_lists = st.lists(st.integers(-20, 20), min_size=1, max_size=12)


@SET
@given(st.lists(st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                          st.floats(-1e308, 1e308), st.sampled_from([1e308, -1e308, 1e-16, 1.0])),
                min_size=1, max_size=12))
def test_fsum_and_prod(xs):
    check_all_levels(sums, xs, np.array(xs, dtype=np.float64))


@SET
@given(int_lists)
def test_prod_of_ints(xs):
    check_all_levels(sums, [float(x) for x in xs], np.array(xs, dtype=np.float64))


def range_values(n, step):
    cols = range(n)
    r = range(-3, n, step) if step % 2 else range(n, -3, -step)
    t = 0
    for i in r:
        for j in cols:
            t += i * j
    last = r[-1] if len(r) else None
    return (sum(cols), len(r), [c * 2 for c in cols], n - 1 in cols, last, list(reversed(r)),
            list(r[1:3]), len(set(i % 3 for i in r)), t)


@SET
@given(st.integers(0, 12), st.integers(1, 4))
def test_range_values(n, step):
    # a range held in a variable is the list of its ints (docs/language.md, "range"): same iteration,
    # len, indexing (IndexError past the end), `in` and slicing as the range
    check_all_levels(range_values, n, step)


def gcds_and_lcms(a, b, c):
    return (math.gcd(a, b, c), math.gcd(a), math.gcd(), math.lcm(a, b, c), math.lcm(a), math.lcm(),
            math.gcd(*(a, b)), math.lcm(*(b, c)))


@SET
@given(st.integers(-10**5, 10**5), st.integers(-10**5, 10**5), st.integers(-10**5, 10**5))
def test_gcd_and_lcm_of_any_number_of_ints(a, b, c):
    """math.gcd / math.lcm take any number of ints (CPython 3.9); compiled code called its
    two-int routine with all of them, a TypeError naming the routine ('gcd2() takes 2
    positional arguments but 3 were given') where CPython gives the gcd."""
    check_all_levels(gcds_and_lcms, a, b, c)


def gcd_of_two(a, b):
    return math.gcd(a, b), math.gcd(b, a, 6)


@pytest.mark.parametrize("a, b", [(-2**63, 1), (1, -2**63), (-2**63, -1), (-2**63, 6), (-2**63, 2**62),
                                  (-2**63, -2**63 + 1), (12, -18), (0, -5)])
def test_gcd_of_the_lowest_int64(a, b):
    """-2**63 has no int64 absolute value: gcd took absolute values first and raised
    OverflowError where the gcd (1, 2, 2**62) fits (rerun as Python, unless int_overflow="raise");
    only a gcd of 2**63 overflows."""
    import script
    assert script.script(gcd_of_two, int_overflow="raise")(a, b) == gcd_of_two(a, b)


def test_a_library_routine_called_with_arguments_it_does_not_take_is_a_compile_error():
    """A call of a builtin written in the subset that its routine's parameters do not bind
    is refused where it is written, not a TypeError naming the routine at run time."""
    import script
    from script.errors import CompileError

    def f(n):
        return math.factorial(n, 3)

    with pytest.raises(CompileError, match="factorial.*not supported in compiled code"):
        script.script(f)(3)


def isqrt_(n):
    return math.isqrt(n)


@SET
@given(st.one_of(st.integers(0, 2**63 - 1), st.integers(3037000499**2 - 5, 2**63 - 1), st.integers(0, 100)))
def test_isqrt_near_the_top_of_int64(n):
    """math.isqrt(2**63 - 1) never returned: the routine's `(x + 1) * (x + 1) <= n` wrapped
    (library code is not overflow-checked) and the loop went on; now compared by division."""
    check_all_levels(isqrt_, n)


def recursion_limit(n):
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(n)
    now = sys.getrecursionlimit()
    sys.setrecursionlimit(old)
    return now


def test_the_interpreters_recursion_limit():
    """sys.setrecursionlimit / getrecursionlimit set and read the interpreter's limit, with
    CPython's ValueError (frontend/interpreter_calls.py)."""
    for n in (5000, 1, 0, -3):
        check_all_levels(recursion_limit, n)


def stdout_writes(n):
    total = 0
    for i in range(n):
        total += sys.stdout.write("%i " % i)
        print("p", i, end="|")
    return total + sys.stdout.write("é\n")


def test_stdout_write_interleaves_with_print(capfd):
    """sys.stdout.write(s) writes where print writes, in order, and returns len(s)
    (frontend/interpreter_calls.py)."""
    for n in (0, 3):
        want = stdout_writes(n), capfd.readouterr().out
        got = compiled(stdout_writes)(n), capfd.readouterr().out
        assert got == want


STDOUT_SCRIPT = r'''
import script
from sys import stdout

def walk(n):
    for i in range(n):
        stdout.write("%i " % i)
        print(i * i, end=" ")
    return stdout.write("\n")

print(script.script(walk)(4) if RUN else walk(4))
'''


def test_stdout_write_of_from_sys_import_stdout(tmp_path):
    import subprocess
    outs = []
    for run in (False, True):
        path = tmp_path / f"walk_{run}.py"
        path.write_text(f"RUN = {run}\n" + STDOUT_SCRIPT)
        outs.append(subprocess.run([sys.executable, str(path)], capture_output=True, text=True, check=True).stdout)
    assert outs[0] == outs[1] == "0 0 1 1 2 4 3 9 \n1\n"
