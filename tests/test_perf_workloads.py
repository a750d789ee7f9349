"""Fixes made for the workload kernels of benchmarks/kernels_workloads.py, end to end.

- ``fixedlen``: the length of a list that only the function's own resizes change
  (``[0] * n``, ``list(range(n))``, a comprehension over a range, a list built by `append`
  and then sorted in place) is a value the pass knows, so its bounds checks compare with
  that value instead of a length read back from memory after every store.
- ``for w in s.split()`` (and ``splitlines``, and a comprehension's clause) walks the parts
  one at a time, without a list of them; a table of strs is probed without counting the
  keys it compares.

Differential: compiled (opt=0, the default level, opt=3) against CPython on indices in and
out of range (negative ones included), and on lists that must keep reading their length:
appended to, popped, grown by a callee, stored in another list.
"""

from __future__ import annotations

import re

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import workload_kernels as K
from difftest import check, compiled

LEVELS = ({"opt": 0}, {}, {"opt": 3})


def check_levels(fn, *args, levels=LEVELS):
    for options in levels:
        check(fn, compiled(fn, **options), *args)


def opt_ir(fn, *args) -> str:
    f = compiled(fn)
    f(*args)
    return f.ir("opt")


def test_fixed_lists_index_in_and_out_of_range():
    for n in range(0, 6):
        for i in range(-n - 2, n + 2):
            check_levels(K.fill_and_index, n, i, (i * 3) % (n + 3) - 1)
            check_levels(K.comprehension_sum, n, i)
            check_levels(K.grows, n, i)
            check_levels(K.grows_in_callee, n, i)
            check_levels(K.fixed_then_popped, n, i)
        for i in range(-3, 5):
            if n:
                check_levels(K.nested_rows, n, i)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 12), st.lists(st.integers(0, 200), min_size=1, max_size=30))
def test_range_list_swaps(n, moves):
    check_levels(K.range_list_swaps, n, moves)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-3, 12), min_size=1, max_size=40), st.integers(0, 10))
def test_counts(xs, m):
    check_levels(K.counts_of, xs, m)


def test_lengths_forwarded_only_where_fixed():
    # the table's length is n once made: no list_len of it is left in the loop
    assert "list_len" not in opt_ir(K.fill_and_index, 5, 1, 2)
    # the function's own appends change it to a value it knows: forwarded too
    assert "list_len" not in opt_ir(K.grows, 5, 1)
    # a list inside another one and a pop (a call) may change it: the length is read back
    assert "list_len" in opt_ir(K.nested_rows, 5, 1)
    assert "list_len" in opt_ir(K.fixed_then_popped, 5, 1)


def test_many_calls_keep_lists_right():
    f = compiled(K.counts_of)
    xs = list(range(-2, 40)) * 3
    want = K.counts_of(xs, 17)
    for _ in range(2000):
        assert f(xs, 17) == want


# --- products of transposed operands: BLAS reads them in place -------------------------------

def _products(rng, dtype):
    r = lambda *s: rng.standard_normal(s).astype(dtype)     # noqa: E731
    for n, k in ((3, 2), (300, 40), (40, 500), (1, 20000), (20000, 1)):
        yield K.xt_v, (r(n, k), r(n))
    for m, k, n in ((2, 3, 4), (60, 70, 50), (1, 200, 90), (130, 1, 140)):
        yield K.a_bt, (r(m, k), r(n, k))
        yield K.at_bt, (r(k, m), r(n, k))
    yield K.strided_a_b, (r(80, 90), r(30, 45))
    yield K.strided_a_b, (r(8, 9), r(3, 4))


def _same_product(got, want, dtype):
    assert got.dtype == want.dtype and got.shape == want.shape
    tol = 1e-12 if dtype == np.float64 else 2e-4
    assert np.allclose(got, want, rtol=tol, atol=tol * np.abs(want).max(initial=1.0)), (got, want)


def test_transposed_products_against_numpy():
    rng = np.random.default_rng(5)
    for dtype in (np.float64, np.float32):
        for fn, args in _products(rng, dtype):
            for options in LEVELS:
                _same_product(compiled(fn, **options)(*args), fn(*args), dtype)


def test_transposed_products_mismatch_raises_numpys_error():
    rng = np.random.default_rng(6)
    check_levels(K.xt_v, rng.random((30, 4)), rng.random(29))
    check_levels(K.a_bt, rng.random((3, 4)), rng.random((5, 3)))
    check_levels(K.at_bt, rng.random((4, 3)), rng.random((5, 3)))


def test_transposed_products_use_blas_in_place():
    # x.T goes to gemm as it is: no copy of it into a C array on the way
    ir = opt_ir(K.xt_v, np.ones((300, 40)), np.ones(300))
    transposed = re.search(r"(%\d+) = transpose", ir).group(1)
    first_gemm = next(line for line in ir.splitlines() if "= gemm" in line)
    assert re.search(rf"gemm %\d+, {transposed}, ", first_gemm), ir


def test_gradient_steps():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((400, 8))
    y = (rng.random(400) > 0.5).astype(np.float64)
    for options in LEVELS:
        np.testing.assert_allclose(compiled(K.gradient_steps, **options)(x, y, 20), K.gradient_steps(x, y, 20),
                                   rtol=1e-10)


# --- loops over the parts of a str ---------------------------------------------------------

_TEXT = st.lists(st.sampled_from(list("ab ,\t\n\r\x0b\x1c\x85\u2028\u3000xé€😀") + ["stop"]),
                 max_size=30).map("".join)


@settings(max_examples=25, deadline=None)
@given(_TEXT, st.sampled_from([None, " ", ",", "ab", "", "😀"]), st.integers(-2, 4))
def test_split_loops(text, sep, maxsplit):
    check_levels(K.split_counts, text, sep, maxsplit, levels=LEVELS[:2])


@settings(max_examples=20, deadline=None)
@given(_TEXT, st.booleans())
def test_split_comprehensions_and_lines(text, keepends):
    check_levels(K.split_comprehensions, text, levels=LEVELS[1:2])
    check_levels(K.split_lines_kept, text, keepends, levels=LEVELS[1:2])


def test_split_edge_cases():
    for text in ("", " ", "a", "  a  b  ", "stop a", "a,,b,", "\r\n\n", "x\u2028y\x85z", "é € 😀"):
        for sep in (None, " ", ",", "", "stop"):
            for maxsplit in (-1, 0, 1, 5):
                check_levels(K.split_counts, text, sep, maxsplit)
        check_levels(K.split_comprehensions, text, levels=LEVELS[:2])
        check_levels(K.split_lines_kept, text, True, levels=LEVELS[:2])
    check_levels(K.split_receiver_once, ["a b", "c dd  e"], 2)
    check_levels(K.split_receiver_once, [], 2)


def test_split_loop_makes_no_list():
    ir = opt_ir(K.split_counts, "a b", None, -1)
    assert "list_new : list[str]" not in ir, ir


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["", "a", "ab", "a", "é", "ab€", "b" * 9, "😀"]), max_size=40),
       st.integers(0, 4))
def test_str_table_churn(words, limit):
    check_levels(K.str_table_churn, words, limit, levels=LEVELS[:2])


def test_str_key_errors_made_when_missing():
    # KeyError('k') needs the key's repr: made on the failing path only
    for words, probe in ((["a", "b", "a"], "a"), (["a"], "zz"), ([], "é'\""), (["x"], "x")):
        check_levels(K.str_key_reads, words, probe)
    ir = opt_ir(K.str_key_reads, ["a"], "a")
    for line in ir.splitlines():
        if "str_py.repr" in line:
            i = ir.index(line)
            assert "check true, KeyError" in ir[i:i + 300], ir


# --- lists their own appends resize ------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-50, 50), max_size=25), st.integers(-30, 30), st.integers(-30, 30))
def test_append_then_sort(xs, i, j):
    check_levels(K.append_then_sort, xs, i, j)


def test_grows_in_loop():
    for n in range(0, 4):
        for m in range(0, 8):
            for i in range(-n - 4, n + 4):
                check_levels(K.grows_in_loop, n, m, i)


def test_sort_in_place_reads_its_length_once():
    # the length is read where the appends leave it (the build loop's test) and once
    # after: every index check of the sort compares with that one value
    ir = opt_ir(K.append_then_sort, [3, 1, 2], 0, 1)
    built = re.search(r"(%\d+) = list_new", ir).group(1)
    assert len(re.findall(rf"list_len {built}\b", ir)) == 2, ir
