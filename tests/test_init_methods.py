"""An __init__ that calls methods (frontend/init_rest.py): the statements before the first
call build the instance, the rest run on it as a method, in CPython's order; a field first
assigned after that call is a CompileError naming it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import init_method_kernels as K
import script
from difftest import check_typed

WORDS = st.lists(st.text("abc", min_size=1, max_size=3), max_size=6)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-20, 20), max_size=12))
def test_a_heap_built_by_its_methods(xs):
    check_typed(K.heap_sorted, xs)


@settings(max_examples=25, deadline=None)
@given(WORDS, st.text("abcd", max_size=8))
def test_tables_filled_by_methods_and_an_error_raised_from_init(words, text):
    check_typed(K.matches, words, text)


@pytest.mark.parametrize("n", [0, 2, 5, -4])
def test_parameters_and_locals_carried_past_the_call(n):
    check_typed(K.scaled, n)
    check_typed(K.by_property, n)


@pytest.mark.parametrize("n", [0, 3])
def test_the_instance_passed_on_from_init(n):
    check_typed(K.registered, n)


def test_an_instance_built_so_returns_to_python_with_its_fields():
    a = script.script(K.made)(["ab", "b"])
    assert vars(a) == vars(K.made(["ab", "b"]))
    assert a.find("abb") == K.made(["ab", "b"]).find("abb")


@pytest.mark.parametrize("n", [0, 3])
def test_fields_first_assigned_after_the_call(n):
    check_typed(K.late, n)
    check_typed(K.set_by_method, n)
    check_typed(K.empty_after_call, n - 1)
    made = script.script(lambda k: K.EmptyAfterCall(k))(n)
    assert list(vars(made).items()) == list(vars(K.EmptyAfterCall(n)).items())     # CPython's order
    made = script.script(lambda k: K.SetByMethod(k))(n)
    assert list(vars(made).items()) == list(vars(K.SetByMethod(n)).items())


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), max_size=6), st.integers(-3, 3))
def test_fields_computed_by_methods_then_compared(points, goal):
    check_typed(K.heuristics, points, goal)


@settings(max_examples=10, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), max_size=5))
def test_a_dataclass_post_init(pairs):
    check_typed(K.intervals, pairs)
    mine = [vars(x[2]) for x in K.intervals(pairs) if isinstance(x, tuple)]
    theirs = [vars(x[2]) for x in script.script(K.intervals)(pairs) if isinstance(x, tuple)]
    assert mine == theirs


@pytest.mark.parametrize("fn, message", [
    (K.reads_late, r"assigns self.twice only after it calls a method .*, and self.twice is read before"),
    (K.late_in_branch, r"assigns self.size only inside an if, a loop or a method called from one"),
    (K.empty_late, r"field 'items' of class 'EmptyLate' is first assigned an empty container after __init__"),
    (K.read_in_method, r"assigns self.total only after it calls a method .*, and self.total is read before"),
    (K.derived, r"Base.__init__ calls a method, and Derived.__init__ calls it"),
])
def test_what_stays_refused_says_why(fn, message):
    with pytest.raises(script.CompileError, match=message) as e:
        script.script(fn)(2)
    assert "init_method_kernels.py" in str(e.value)
