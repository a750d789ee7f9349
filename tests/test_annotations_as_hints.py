"""Annotations are hints, as in CPython (issue: CPython's answer on real code): a function
compiles on its first call, for its arguments' own types; results keep their own type;
annotations the compiler cannot use are ignored, as CPython ignores them."""

import pytest
from hypothesis import given, settings, strategies as st

import script
import hint_kernels as K


def same(py_fn, *args):
    """CPython's and the compiled function's answers: value, type and exception, exactly."""
    def run(f):
        try:
            r = f(*args)
            return ("ok", type(r).__name__, repr(r))
        except Exception as e:  # noqa: BLE001 - the exception is the answer
            return ("raise", type(e).__name__, str(e))
    want = run(py_fn)
    got = run(script.script(py_fn))
    assert got == want, f"{py_fn.__name__}{args}: CPython {want}, compiled {got}"
    return got


def test_recursion_and_helpers_defined_later_compile_on_first_call():
    f = script.script(K.fib)
    assert f.signatures == []
    assert f(20) == 6765 and f.signatures == ["(int) -> int"]
    same(K.uses_later_helper, 2, 12.0)        # an int result under `-> float`: CPython's 4096


@pytest.mark.parametrize("args", [(1,), (1.0,), (True,)])
def test_isinstance_sees_the_arguments_own_type(args):
    same(K.is_int, *args)


@pytest.mark.parametrize("args", [(5,), (0,), (0.1,), (-3,), (3.0,)])
def test_a_function_validating_its_own_arguments(args):
    same(K.factorial, *args)


@pytest.mark.parametrize("args", [([1, 2, 3],), ((1, 2, 3),), ([1.5, 2.5],), ([],)])
def test_list_annotation_given_other_sequences(args):
    same(K.total, *args)


def test_list_of_ints_and_floats_keeps_them_whatever_the_annotation():
    """`xs: list[int]` given `[1.5, 2]`: the list's own types decide (a list of num, each
    element keeping its type)."""
    same(K.total, [1.5, 2])


@pytest.mark.parametrize("args", [(1, 2), (1.5, 2), (1, 2.5), ("a", 3), (True, 1)])
def test_any_and_unions_specialize_per_call(args):
    same(K.add_any, *args)


@given(st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False)),
       st.one_of(st.integers(-100, 100), st.booleans()))
@settings(max_examples=40, deadline=None)
def test_results_keep_their_own_type(x, k):
    same(K.scaled, x, k)


def test_optional_return_and_local_hints():
    same(K.first_or_none, [4, 5])
    same(K.first_or_none, [])
    for n in (0, 1, 4):
        same(K.local_hint, n)


def test_annotations_that_name_no_known_type_are_ignored():
    same(K.unknown_annotation, 41)
    same(K.unknown_annotation, 1.5)


def test_an_empty_argument_takes_its_element_type_from_the_annotation():
    f = script.script(K.empty_hinted)
    assert f([]) == [1.5]
    assert f.signatures == ["(list[float]) -> list[float]"]


def test_is_between_bools_and_other_values():
    for args in ((True, 1), (False, 0), (True, -1)):
        same(K.bools_are_singletons, *args)


def test_is_between_ints_is_refused_clearly(tmp_path):
    from difftest import compile_snippet
    f = compile_snippet(tmp_path, "ints_is.py", "def f(a, b):\n    return a is b\n")
    with pytest.raises(script.CompileError, match="'is' between values of types i64 and i64"):
        f(1, 2)


def test_smaller_items():
    same(K.join_dict_keys, 4)
    same(K.sort_by_dict_get, ["ccc", "a", "bb", "dddd"])
    for n in (0, 1, 7):
        same(K.counts_in_helper, n)


def test_a_missing_argument_has_cpythons_message():
    f = script.script(K.missing_argument)
    with pytest.raises(TypeError) as compiled:
        f(1)
    with pytest.raises(TypeError) as python:
        K.missing_argument(1)
    assert str(compiled.value) == str(python.value)
    with pytest.raises(TypeError, match="takes 2 positional arguments but 3 were given"):
        f(1, 2, 3)


def test_save_and_check_compile_annotated_functions_never_called(tmp_path):
    f = script.script(K.scaled)
    path = tmp_path / "m.smod"
    script.save(f, str(path))
    g = script.load(str(path)).scaled
    assert g(2.0, 3) == 6.0


@pytest.mark.parametrize("fn,args", [
    (K.plus, ("a", 3)), (K.plus, (None, 1)), (K.plus, ([1], (1,))), (K.plus, (1, "a")),
    (K.plus, ([1], [2.5])),
    (K.less, ("a", 1)), (K.less, (None, 2)), (K.less, ([1], (1,))),
    (K.less, ((1, "a"), (2, 3))), (K.less, ((1, "a"), (1, 3))), (K.times_caught, ("a", "b")),
    (K.times_caught, ("ab", 2)), (K.plus, ({1: 2}, 1)), (K.string_minus, ("b",)),
    (K.float_bitwise, (3,)), (K.float_bitwise, (2.5,)), (K.attribute_on_int, (3,)),
    (K.counted, (2.5,)), (K.counted, ("ab",)), (K.counted, (3,)),
    (K.length_of, (3, False)), (K.length_of, (2.5, True)), (K.length_of, (None, True)),
    (K.length_of, (None, False)), (K.length_of, ("abc", True)),
    (K.not_a_container, (None, 0)), (K.not_a_container, (3, 0)), (K.not_a_container, (2.5, 1)),
    (K.not_a_container, (None, 1)), (K.not_a_container, (None, 2)), (K.not_a_container, (7, 2)),
    (K.not_a_container, (None, 3)), (K.not_a_container, ([5, 1], 0)),
    (K.reduced, (None, 0)), (K.reduced, (4, 1)), (K.reduced, (2.5, 2)), (K.reduced, (None, 3)),
    (K.reduced, ([3, 1], 0)), (K.reduced, ([3, 1], 1)),
])
def test_operand_types_cpython_refuses_raise_its_type_error_at_run_time(fn, args):
    same(fn, *args)


@given(st.integers(-50, 50), st.integers(100, 200), st.integers(0, 6))
@settings(max_examples=12, deadline=None)
def test_a_declared_dict_of_optionals_types_a_display_of_none(start, goal, hops):
    same(K.path_to_root, start, goal, hops)
