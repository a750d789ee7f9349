"""isinstance against CPython: a constant of each specialization (instance_test.py)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import gaps_isinstance_kernels as K
import script
from difftest import check_all_levels

SCALARS = st.one_of(st.booleans(), st.integers(-2**62, 2**62), st.floats(allow_nan=True))
VALUES = st.one_of(
    SCALARS,
    st.tuples(st.integers(-5, 5), st.floats(-5, 5)),
    hnp.arrays(st.sampled_from([np.float64, np.int32, np.bool_]), st.integers(0, 5)),
)


@settings(max_examples=60, deadline=None)
@given(VALUES)
def test_against_cpython(x):
    check_all_levels(K.describe, x)
    check_all_levels(K.queries, x)
    check_all_levels(K.negated, x)
    check_all_levels(K.none_result, x)


@settings(max_examples=20, deadline=None)
@given(st.complex_numbers(allow_nan=False))
def test_complex_values(z):
    """isinstance of a complex was a CompileError ('a value of type c128 is not supported')."""
    check_all_levels(K.queries, z)
    check_all_levels(K.describe, z)


def test_numpy_scalar_arguments():
    # Fresh functions: the entry point passes a Python int to an existing (i32)
    # specialization, so sized scalars get functions of their own.
    from difftest import check
    for x in (np.float32(1.5), np.int32(-3), np.uint8(7), np.float64(2.5), np.int64(4), np.bool_(True)):
        for fn in (K.describe, K.queries):
            want = fn(x)
            got = script.script(fn)(x)
            if isinstance(x, (np.int64, np.bool_, np.float64)):
                continue        # CPython holds the NumPy scalar, compiled code an int, bool, float
            assert want == got, (fn.__name__, x, want, got)
    check(K.queries, script.script(K.queries), np.float32(0.25))


@settings(max_examples=20, deadline=None)
@given(hnp.arrays(np.float64, st.integers(1, 8), elements=st.floats(allow_nan=False)), st.integers(-3, 10))
def test_float64_elements_are_floats(a, i):
    check_all_levels(K.element, a, i)


def test_first_argument_is_evaluated():
    check_all_levels(K.side_effect, np.zeros(3))
    check_all_levels(K.side_effect, np.zeros(6))


def test_dead_branch_is_not_built():
    f = script.script(K.describe)
    assert f(3) == 4
    assert "sum" not in f.ir("ssa")     # the array branch exists only in the array specialization
    assert f(np.ones(3)) == 3.0


def test_int64_elements_are_ints_compiled():
    # Documented difference: CPython holds an np.int64 (not an int), compiled code an int.
    f = script.script(K.element)
    assert f(np.arange(3), 0) == (False, True, True, True)


@pytest.mark.parametrize("fn,text", [(K.bad_sized, "script.i32 is an annotation, not a class"),
                                     (K.bad_spec, "isinstance() arg 2 must be a type"),
                                     (K.bad_arity, "isinstance expected 2 arguments, got 1")])
def test_errors_point_at_the_call(fn, text):
    with pytest.raises(script.CompileError) as info:
        script.script(fn)(3)
    assert text in info.value.message
    assert "isinstance(x" in str(info.value)


@settings(max_examples=40, deadline=None)
@given(VALUES)
def test_hasattr_and_getattr(x):
    check_all_levels(K.attributes, x)
