"""Values that may be None (Numba's optionals; script/frontend/optional.py), compiled against
CPython (kernels in optional_kernels.py): returns of None from several depths, optionals in
loops, narrowing after `is None`/`is not None`/`==`/truth tests in `if`, `while`, `and`/`or`,
conditional expressions and `assert`, and the TypeError a None raises where a value is used,
at opt levels 0 and default; the `opt[T]` type in the textual IR."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import optional_kernels as K
import script
from difftest import check_all_levels, compiled, outcome
from script.ir import types as T
from script.ir.parser import parse_module
from script.ir.printer import format_module
from script.ir.verifier import verify_module

FLOATS = st.floats(-100, 100, allow_nan=False)
ARRAYS = hnp.arrays(np.float64, st.integers(0, 8), elements=st.sampled_from([-2.0, -0.5, 0.0, 1.0, 2.0, 3.0, 150.0]))
SMALL = st.sampled_from([-3.0, -1.0, 0.0, 0.5, 1.0, 2.0, 2.5, 200.0])

RETURNS = [K.find, K.best_pair, K.first_positive]


@settings(max_examples=40, deadline=None)
@given(ARRAYS, SMALL)
def test_examples_of_the_brief(a, x):
    check_all_levels(K.find, a, x)
    check_all_levels(K.best_pair, a)
    check_all_levels(K.first_positive, a)


@settings(max_examples=40, deadline=None)
@given(st.integers(-5, 40), st.integers(0, 3))
def test_none_returned_from_several_depths(n, k):
    check_all_levels(K.deep_none, n, k)
    check_all_levels(K.none_first, n - 5)


@settings(max_examples=30, deadline=None)
@given(st.integers(-3, 3), st.integers(-3, 3))
def test_optional_tuples(x, y):
    check_all_levels(K.maybe_tuple, x, y)
    check_all_levels(K.none_in_tuple, x)


@settings(max_examples=40, deadline=None)
@given(ARRAYS, SMALL)
def test_optionals_from_calls(a, x):
    check_all_levels(K.calls_optional, a, x)
    check_all_levels(K.passes_through, a, x)
    check_all_levels(K.passes_optional, a, x)
    check_all_levels(K.narrow_walrus, a, x)


NARROWING = [K.narrow_is_not, K.narrow_eq_none, K.narrow_ne_none, K.narrow_and, K.narrow_or_else,
             K.narrow_not, K.narrow_ifexp, K.narrow_assert]


@pytest.mark.parametrize("fn", NARROWING, ids=lambda f: f.__name__)
@settings(max_examples=25, deadline=None)
@given(a=ARRAYS, t=SMALL)
def test_narrowing(fn, a, t):
    check_all_levels(fn, a, t)


@settings(max_examples=30, deadline=None)
@given(ARRAYS, st.integers(-5, 30))
def test_narrowing_in_loops(a, n):
    check_all_levels(K.narrow_continue, a)
    check_all_levels(K.narrow_break, a)
    check_all_levels(K.narrow_while, n)
    check_all_levels(K.optional_ints, np.arange(abs(n) % 7), n % 5)


@settings(max_examples=40, deadline=None)
@given(ARRAYS, SMALL, SMALL)
def test_truth_and_comparisons(a, t, y):
    check_all_levels(K.truthiness, a, t)
    check_all_levels(K.compare_values, a, t, y)
    check_all_levels(K.or_default, a, t)
    check_all_levels(K.in_tuple, a, t)
    check_all_levels(K.bool_of, a, t)


USES = [K.use_add, K.use_radd, K.use_aug, K.use_compare, K.use_neg, K.int_of]


@pytest.mark.parametrize("fn", USES, ids=lambda f: f.__name__)
@settings(max_examples=20, deadline=None)
@given(a=ARRAYS, t=SMALL)
def test_a_none_used_raises_cpythons_type_error(fn, a, t):
    check_all_levels(fn, a, t)          # the same message as CPython's


@settings(max_examples=30, deadline=None)
@given(ARRAYS, SMALL, SMALL)
def test_both_operands_optional(a, t, u):
    check_all_levels(K.use_both, a, t, u)


@pytest.mark.parametrize("x", [-1, 2])
def test_subscript_and_unpack_of_none(x):
    check_all_levels(K.use_subscript, x)
    check_all_levels(K.use_unpack, x)


@pytest.mark.parametrize("t", [1.0, 9.0])
def test_none_passed_to_a_function_raises_type_error(t):
    a = np.array([3.0, -1.0, 2.0])
    want, got = outcome(K.use_math, (a, t)), outcome(compiled(K.use_math), (a, t))
    assert want[:2] == got[:2], (want, got)        # TypeError; CPython's text names the callee


def test_return_type_is_optional():
    f = script.script(K.find)
    f(np.arange(3.0), 1.0)
    assert "-> opt[i64]" in f.ir("ssa")
    g = script.script(K.first_positive)
    g(np.ones(2))
    assert "-> f64" in g.ir("ssa")          # narrowed by `if r is None: raise`


@pytest.mark.parametrize("fn", [K.find, K.maybe_tuple, K.optional_ints, K.narrow_break, K.use_both])
def test_optional_ir_round_trips(fn):
    args = {K.find: (np.arange(3.0), 1.0), K.maybe_tuple: (1, 2), K.optional_ints: (np.arange(4), 1),
            K.narrow_break: (np.arange(3.0),), K.use_both: (np.arange(3.0), 0.5, 1.5)}[fn]
    f = script.script(fn)
    f(*args)
    for stage in ("ssa", "opt"):
        text = f.ir(stage)
        assert "opt[" in text
        module = parse_module(text)
        verify_module(module)
        assert format_module(module) == text


def test_opt_type_spelling():
    t = T.OptionalType(T.TupleType([T.I64, T.OptionalType(T.F64)]))
    assert str(t) == "opt[(i64, opt[f64])]"
    assert t != T.TupleType([T.BOOL, t.value]) and T.TupleType([T.BOOL, t.value]) != t
    assert T.unify(T.NONE, T.I64) == T.OptionalType(T.I64)
    assert T.unify(T.OptionalType(T.I32), T.F64) == T.OptionalType(T.F64)
    assert T.unify(T.NONE, T.ListType(T.I64)) == T.OptionalType(T.ListType(T.I64))     # NULL when absent
    assert T.unify(T.NONE, T.ArrayType(T.F64, 1)) is None
    assert T.is_list_element(T.OptionalType(T.I64)) and not T.is_list_element(T.NONE)    # ([None] * n: lists.py)


def _saves_optionals() -> bool:
    from script.saved_manifest import encode_type
    return isinstance(encode_type(T.OptionalType(T.I64)), dict) and "optional" in encode_type(T.OptionalType(T.I64))


@pytest.mark.skipif(not _saves_optionals(), reason="the saved-module manifest does not know opt[T] yet")
def test_save_and_load(tmp_path):
    f = script.script(K.find)
    a = np.arange(5.0)
    f(a, 3.0)
    path = tmp_path / "opt.smod"
    script.save([f], str(path))
    m = script.load(str(path))
    assert m.find(a, 3.0) == 3 and m.find(a, 9.0) is None


def test_unsupported_optional_is_a_compile_error():
    """Arrays have no optional (a list, a dict and a set have: above)."""
    def mixed(n):
        if n > 0:
            return np.zeros(n)
        return None

    with pytest.raises(script.CompileError, match="returns"):
        script.script(mixed)(3)


LISTS = st.lists(st.integers(-3, 9), max_size=6)


@settings(max_examples=40, deadline=None)
@given(LISTS, st.integers(-2, 9), st.integers(0, 4))
def test_optional_lists(xs, k, how):
    """A list that is None on some paths (a search returning None, `best = None` replaced
    by a row): returned, narrowed, tested for truth, compared, stored in lists, tuples and
    dicts, and each use of a None raising CPython's error."""
    check_all_levels(K.above, xs, k)
    check_all_levels(K.uses_optional_list, xs, k)
    check_all_levels(K.optional_list_truth, xs, k)
    check_all_levels(K.optional_list_in_containers, xs, k)
    check_all_levels(K.optional_list_used, xs, k, how)
    check_all_levels(K.path_or_none, [xs, xs[:2], [k]], k)


@settings(max_examples=30, deadline=None)
@given(st.text("abc", max_size=5), st.integers(-1, 2), LISTS)
def test_optional_dicts_and_sets(text, k, xs):
    check_all_levels(K.counts_or_none, text, k)
    check_all_levels(K.uses_optional_dict, text, k)
    check_all_levels(K.optional_set, xs, k)


def test_optional_list_messages():
    f = compiled(K.optional_list_used)
    for how, (exc, text) in enumerate([(TypeError, "object of type 'NoneType' has no len()"),
                                       (TypeError, "'NoneType' object is not subscriptable"),
                                       (TypeError, "'NoneType' object is not iterable"),
                                       (TypeError, "argument of type 'NoneType' is not iterable"),
                                       (AttributeError, "'NoneType' object has no attribute 'append'")]):
        with pytest.raises(exc) as info:
            f([1, 2], -1, how)
        assert str(info.value) == text


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=6), st.sets(st.integers(0, 6)))
def test_none_stored_after_values_makes_optionals(xs, holes):
    check_all_levels(K.none_after_values, xs, holes)
    check_all_levels(K.none_after_values, [str(x) for x in xs], holes)
