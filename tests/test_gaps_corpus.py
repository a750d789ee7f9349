"""Constructs a probe corpus of real-world numerical code hit, compiled against CPython
(kernels in gaps_corpus_kernels.py): functions, lambdas and strings passed to callees
(frontend/static_args.py), keyword-only parameters, global lists and `del` (lists.py),
row/column gathers and rows assigned from tuples (fancy_index.py, arrays.py), `key=` and
`reverse=` (keyed.py) with tuple ordering, np.finfo/np.iinfo, np.random.choice,
np.column_stack and a.tolist()."""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import gaps_corpus_kernels as K
import script
from difftest import check_all_levels

FLOATS = st.floats(-1e3, 1e3, allow_nan=False)
INTS = st.integers(-50, 50)


@settings(max_examples=25, deadline=None)
@given(st.floats(0.1, 3.0), st.integers(1, 40))
def test_functions_passed_to_callees(x, n):
    check_all_levels(K.pass_functions, x, n)


@settings(max_examples=25, deadline=None)
@given(st.one_of(FLOATS, INTS), st.one_of(FLOATS, INTS))
def test_closures_and_lambdas_passed_to_callees(x, k):
    check_all_levels(K.pass_closures, x, k)


def test_dtypes_passed_to_callees():
    check_all_levels(K.pass_dtypes, 3)
    check_all_levels(K.pass_dtypes, 0)


@settings(max_examples=25, deadline=None)
@given(hnp.arrays(np.float64, st.integers(1, 8), elements=FLOATS))
def test_strings_passed_to_callees(a):
    check_all_levels(K.pass_strings, a)
    check_all_levels(K.pass_bad_string, a)          # the message names the bound string


def test_string_argument_only_builds_its_branch():
    f = script.script(K.pass_strings)
    f(np.ones(3))
    funcs = f.ir("ssa").split("\nfunc ")
    l2 = [text for text in funcs if text.startswith("@norm.kind_l2")]
    assert len(l2) == 1 and "unknown norm" not in l2[0] and "call" not in l2[0].split("\n", 1)[1]


def test_assigned_function_parameter_is_a_compile_error():
    def reassign(f, x):
        f = abs
        return f(x)

    def caller(x):
        return reassign(math.floor, x)

    with pytest.raises(script.CompileError, match="can pass and call but not assign"):
        script.script(caller)(1.5)


@settings(max_examples=25, deadline=None)
@given(st.one_of(FLOATS, INTS))
def test_keyword_only_parameters(x):
    check_all_levels(K.call_keyword_only, x)
    f = script.script(K.keyword_only)
    assert f(x, offset=2) == K.keyword_only(x, offset=2)


def test_keyword_only_passed_positionally_is_a_compile_error():
    def bad(x):
        return K.keyword_only(x, 3, offset=1)

    with pytest.raises(script.CompileError, match="takes 1 positional arguments but 2 were given"):
        script.script(bad)(1)


def test_decorated_nested_function():
    check_all_levels(K.decorated_nested, np.linspace(-1, 2, 7))


@settings(max_examples=25, deadline=None)
@given(st.integers(-200, 200))
def test_global_lists(n):
    check_all_levels(K.global_lists, n)


def test_global_list_of_tuples():
    check_all_levels(K.neighbours, np.arange(12).reshape(3, 4))


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 5), st.floats(-1, 1))
def test_lists_inside_global_tuples_and_dicts(steps, dt):
    check_all_levels(K.nbody_energy, steps, dt)


def test_writing_a_list_inside_a_global_is_a_compile_error():
    def writes(x):
        for (p, v, m) in K.BODIES.values():
            v[0] = x
        return 0

    def appends(x):
        K.SHAPE[1].append((x, x))
        return 0

    for fn in (writes, appends):
        with pytest.raises(script.CompileError, match="a list inside global 'K.(BODIES|SHAPE)' is read-only"):
            script.script(fn)(1)


def test_writing_a_global_list_is_a_compile_error():
    def writes():
        K.PRIMES.append(17)
        return len(K.PRIMES)

    def writes_item(i):
        lst = K.PRIMES
        lst[i] = 0
        return lst

    for fn, args in ((writes, ()), (writes_item, (1,))):
        with pytest.raises(script.CompileError, match="global list 'K.PRIMES' is read-only"):
            script.script(fn)(*args)


@settings(max_examples=25, deadline=None)
@given(st.lists(INTS, min_size=2, max_size=8), st.integers(-10, 10))
def test_del(xs, i):
    check_all_levels(K.del_items, xs, i)


SHAPES_2D = st.tuples(st.integers(0, 5), st.integers(1, 5))
DTYPES = st.sampled_from([np.float64, np.int32, np.bool_, np.uint8])


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(DTYPES, SHAPES_2D), hnp.arrays(np.int64, st.integers(0, 6), elements=st.integers(-7, 7)))
def test_gather_rows_and_columns(a, idx):
    for m in (a, a.T, a[::-1]):
        check_all_levels(K.take_rows, m, idx)
        check_all_levels(K.take_columns, m, idx)
        check_all_levels(K.take_rows, m, idx.reshape(-1, 1))


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.float64, st.tuples(st.integers(2, 4), st.integers(2, 5)), elements=FLOATS),
       hnp.arrays(np.int32, st.integers(1, 4), elements=st.integers(-3, 3)))
def test_gather_mixed_with_ints_and_slices(a, idx):
    check_all_levels(K.take_mixed, a, idx)
    b = np.arange(2 * 4 * 5).reshape(2, 4, 5)
    check_all_levels(K.take_apart, b, idx)


@settings(max_examples=25, deadline=None)
@given(hnp.arrays(np.float64, st.tuples(st.integers(0, 8), st.just(2)), elements=FLOATS, unique=True))
def test_gather_by_argsort(p):
    check_all_levels(K.sort_points, p)


def test_rows_from_tuples_and_lists():
    check_all_levels(K.rows_from_tuples, 4)
    check_all_levels(K.array_of_tuple, 2)
    check_all_levels(K.array_of_tuple, 2.5)
    for a, x, y in ((np.zeros(2), 1.5, np.nan), (np.zeros(2, np.int64), 1.5, 2), (np.zeros(2, np.int64), np.nan, 2),
                    (np.zeros(3), 1.0, 2.0)):
        check_all_levels(K.fill_from_tuple, a, x, y)


@settings(max_examples=20, deadline=None)
@given(st.lists(INTS, max_size=40), st.integers(-20, 20))
def test_sorted_and_sort_with_key_and_reverse(xs, k):
    check_all_levels(K.sorted_keys, xs + [0], k)
    check_all_levels(K.sort_method, xs + [0], k)
    check_all_levels(K.sort_method, [x / 4 for x in xs] + [0.5], k)


@settings(max_examples=40, deadline=None)
@given(st.lists(INTS, min_size=1, max_size=12), st.integers(-20, 20))
def test_min_max_with_key(xs, k):
    check_all_levels(K.min_max_key, xs, k)
    check_all_levels(K.max_key_empty, 0)
    check_all_levels(K.max_key_empty, 3)


@settings(max_examples=60, deadline=None)
# a fresh NaN object for each argument: CPython compares the same object as equal
@given(*[st.sampled_from([0, 1, 2, 1.5, -0.0, "nan", math.inf]).map(lambda v: float(v) if v == "nan" else v)] * 4)
def test_tuple_ordering(a, b, c, d):
    check_all_levels(K.order_tuples, a, b, c, d)


def test_min_and_sorted_of_tuples_by_key():
    rng = np.random.default_rng(5)
    check_all_levels(K.nearest, rng.standard_normal((7, 2)))


def test_numeric_limits():
    check_all_levels(K.limits, np.zeros(3))
    check_all_levels(K.limits, np.zeros(2, np.float32))
    assert script.script(lambda_free_uint64_max)() == 2**64 - 1      # a u64 (int_consts.py)


def lambda_free_uint64_max():
    return np.iinfo(np.uint64).max


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 9), st.integers(0, 2**31))
def test_random_choice(n, seed):
    check_all_levels(K.random_choice, n, seed)


def test_random_choice_errors():
    check_all_levels(K.random_choice_empty, 0)
    check_all_levels(K.random_choice_int, 0)
    check_all_levels(K.random_choice_int, -3)


def test_column_stack_and_tolist():
    a, b, m = np.arange(4.0), np.arange(4) * 2, np.ones((4, 2), dtype=np.int32)
    check_all_levels(K.column_stack, a, b, m)
    check_all_levels(K.column_stack, a[:0], b[:0], m[:0])
    check_all_levels(K.to_list, np.array([1.5, -2.0, 0.0]))
    check_all_levels(K.to_list, np.arange(5, dtype=np.int16) - 2)
