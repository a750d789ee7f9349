"""Values of types CPython keeps apart on different paths (frontend/union_values.py): a
variable that holds an int on one path and a str on another, a conditional expression of
both, the result of a function returning either, called from compiled code. Every operation
on such a value gives CPython's value, type, exception and message; what compiled code
cannot split is a CompileError, never another answer.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import script
import union_value_kernels as K
from difftest import check_typed as check, compiled, outcome
from script.errors import CompileError

SMALL = st.integers(-3, 9)



@pytest.mark.parametrize("fn", [K.mixed, K.branch_types, K.conditional, K.subtract, K.method_on_narrowed,
                                K.iterate, K.unpack, K.tests, K.numbers, K.while_state, K.except_value,
                                K.closure, K.aug_assign, K.or_default, K.passed_on, K.returned, K.run_ops],
                         ids=lambda f: f.__name__)
@settings(max_examples=15, deadline=None)
@given(n=SMALL)
def test_each_operation_gives_cpythons_answer(fn, n):
    check(fn, n)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=6))
def test_a_variable_that_changes_type_in_a_loop(xs):
    check(K.loop_carried, xs)


@pytest.mark.parametrize("tokens", [["2", "3", "+", "4", "*"], ["1.5"], ["9", "3", "/", "2", "-"]])
def test_a_helper_returning_a_float_or_a_str(tokens):
    check(K.evaluate_postfix, tokens)


@pytest.mark.parametrize("binary", [["0.00.01.5"], ["0.00.01.5", "0.00.01.5"], ["0.01", "1.01", "0.11"]])
def test_a_bool_or_a_str_tested_with_is(binary):
    check(K.check, binary)


@pytest.mark.parametrize("args", [(2, 3), (0, 0), (5, 6), ("a", "b"), ("a", 0)])
def test_a_recursion_whose_result_type_depends_on_the_argument(args):
    check(K.power, *args)


def test_the_union_is_boxed_as_the_value_it_holds():
    f = script.script(K.mixed)
    assert [type(f(n)) for n in range(3)] == [int, str, float]


def comprehension_of_a_union(n):
    v = K.mixed(n)
    return [v for _ in range(2)], [str(w) for w in (v, n)]


def second_call_in_a_tuple(n):
    return K.method_on_narrowed(n), K.conditional(n)


@pytest.mark.parametrize("fn", [comprehension_of_a_union, second_call_in_a_tuple], ids=lambda f: f.__name__)
@settings(max_examples=10, deadline=None)
@given(n=SMALL)
def test_unions_in_comprehensions_and_tuples(fn, n):
    # a comprehension's element and a tuple's item keep a union whole; an expression that
    # reads one inside a comprehension is lowered once per alternative
    check(fn, n)


def test_no_union_holds_a_bool_beside_a_number():
    def f(n):
        v = True
        if n:
            v = 1.5
        return v
    with pytest.raises(CompileError, match="incompatible types"):
        script.script(f)(1)


def test_union_locals_save_load_and_pickle(tmp_path):
    import pickle
    f = script.script(K.evaluate_postfix)
    assert f(["2", "3", "+"]) == 5.0
    script.save(f, tmp_path / "postfix.so")
    m = script.load(tmp_path / "postfix.so")
    assert m.evaluate_postfix(["2", "3", "+", "4", "*"]) == 20.0
    h = script.script(K.branch_types)
    h(1)
    g = pickle.loads(pickle.dumps(h))
    assert g(3) == K.branch_types(3) and g(1) == K.branch_types(1)


@pytest.mark.parametrize("i", [-4, -3, -1, 0, 1, 2, 3])
def test_a_tuple_of_several_types_indexed_at_run_time(i):
    check(K.tuple_at, i)


def test_star_args_of_several_types_indexed_in_a_loop():
    check(K.star_args_as_text, 1, "x", [2], 2.5)


MIXED_ITEMS = st.lists(st.one_of(st.integers(-5, 5), st.floats(-5, 5, allow_nan=False),
                                 st.sampled_from(["a", "b"])), max_size=6)


@pytest.mark.parametrize("fn", [K.best_so_far, K.smallest_doubled, K.last_or_none, K.holes],
                         ids=lambda f: f.__name__)
@settings(max_examples=25, deadline=None)
@given(xs=MIXED_ITEMS)
def test_none_beside_several_types(fn, xs):
    check(fn, list(xs))


@pytest.mark.parametrize("fn", [K.half_or_none, K.word_or_none, K.sum_of_present], ids=lambda f: f.__name__)
@settings(max_examples=15, deadline=None)
@given(n=SMALL)
def test_none_returned_beside_several_types(fn, n):
    check(fn, n)
