"""Closures nested to any depth, unpacking in displays, *args/**kwargs of nested functions and
lambdas (closures.py, star_displays.py, varargs.py), and str()/repr() of containers
(container_text.py), against CPython."""

import pytest
from hypothesis import given, settings, strategies as st

import script
import syntax_kernels as K
from difftest import check, check_all_levels, compile_snippet, compiled

SET = settings(max_examples=10, deadline=None)
ints = st.integers(-50, 50)
small_lists = st.lists(st.integers(-9, 9), max_size=5)


@SET
@given(ints, st.integers(0, 25))
def test_deep_closures(a, n):
    check_all_levels(K.adder_chain, a, n)
    check_all_levels(K.three_deep, a)
    check_all_levels(K.nonlocal_across_levels, n)
    check_all_levels(K.inner_nonlocal, n)
    check_all_levels(K.inner_recursion, n)
    check_all_levels(K.calls_outer_helper, a)
    check_all_levels(K.shadowing, a)


@SET
@given(small_lists, st.integers(1, 4))
def test_lambda_in_nested_function(xs, k):
    check_all_levels(K.lambda_in_nested, xs, k)


@SET
@given(small_lists, small_lists, ints, st.floats(-10, 10))
def test_star_displays(xs, ys, a, b):
    check_all_levels(K.list_display, xs, ys, a)
    check_all_levels(K.set_display, xs, ys)
    check_all_levels(K.tuple_display, a, b)
    check_all_levels(K.spread_tuple_display, xs, ys, a)
    check_all_levels(K.dict_display, a, b)
    check_all_levels(K.generator_display, a % 6)


@SET
@given(ints, ints)
def test_nested_varargs_and_kwargs(a, b):
    check_all_levels(K.nested_varargs, a, b)
    check_all_levels(K.nested_kwargs, a, b)


def check_default(fn, *args):
    """`check` at the default level only: the text is made by the same helpers at every level."""
    check(fn, compiled(fn), *args)


@SET
@given(small_lists, st.floats(allow_nan=True, allow_infinity=True),
       st.lists(st.text(max_size=3), max_size=3), st.integers(0, 5))
def test_container_text(xs, x, words, n):
    check_default(K.list_text, xs)
    check_default(K.list_text, [float(v) / 3 for v in xs])
    check_default(K.float_list_text, x)
    check_default(K.str_list_text, words)
    check_default(K.nested_text, n)
    check_default(K.tuple_text, n, x)
    check_default(K.named_tuple_text, n, x)
    check_default(K.dict_set_text, xs)
    check_default(K.sorted_set_text, xs)
    check_default(K.optional_text, n)
    check_default(K.format_spec_on_list, xs)


def test_print_of_containers(capsys):
    K.print_containers([1, 2], 3)
    want = capsys.readouterr().out
    compiled(K.print_containers)([1, 2], 3)
    assert capsys.readouterr().out == want == "[1, 2]; (3,); {'k': [1, 2]}\nxs=[1, 2]\n"


@SET
@given(st.lists(st.integers(-9, 9), max_size=4))
def test_spread_list_into_fixed_arity(xs):
    check_all_levels(K.spread_list, xs)


@pytest.mark.parametrize("xs", [[], [1], [2, 3, -4], ["a", "b"]])
def test_print_unpacked(capsys, xs):
    K.print_unpacked(xs)
    want = capsys.readouterr().out
    compiled(K.print_unpacked)(xs)
    assert capsys.readouterr().out == want


@pytest.mark.parametrize("body, match", [
    ("    return {**[(1, n)]}\n", "in a dict display must be a dict"),
    ("    def f(**kw):\n        return len(kw)\n    return f(a=n, b=True)\n", "cannot be mixed"),
    ("    def g(x):\n        def h(y):\n            return y + n\n        return h\n    return g(n)(1)\n",
     "'h' reads 'n', a variable of a function around 'g'"),
])
def test_unsupported_forms_are_compile_errors(tmp_path, body, match):
    f = compile_snippet(tmp_path, "syntax_bad.py", "def f(n):\n" + body)
    with pytest.raises(script.CompileError, match=match) as e:
        f(1)
    assert "syntax_bad.py:" in str(e.value)


@pytest.mark.parametrize("text", ["3 4 + 2 *", "1 2 3 * -", "5", "2 0 /", "1 +"])
def test_a_display_of_items_typed_in_a_later_round(text):
    check_all_levels(K.rpn, text)
