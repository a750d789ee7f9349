"""User classes with special methods, properties, static and class methods and single
inheritance in compiled code, against CPython (docs/records.md): results and raised
exceptions on hypothesis draws, CPython's TypeErrors as CompileErrors where static types
make them certain, and the CompileErrors of what is not supported."""

import sys

import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check, check_all_levels, compiled
import class_method_kernels as K

floats = st.floats(-100, 100, allow_nan=False)
small = st.integers(-50, 50)


@settings(max_examples=20, deadline=None)
@given(floats, floats, floats)
def test_vector_operators(a, b, c):
    check_all_levels(K.vec_ops, a, b, c)


@pytest.mark.parametrize("k", [2.0, 0.0, -0.5])
def test_exception_inside_a_special_method(k):
    check_all_levels(K.vec_divide, 1.5, k)


def test_ray_tracer():
    check(K.trace, compiled(K.trace), 8, 6, 1.0)


@pytest.mark.slow
@pytest.mark.parametrize("w, h, r", [(1, 1, 1.0), (12, 9, 0.5)])
def test_ray_tracer_all_levels(w, h, r):
    check_all_levels(K.trace, w, h, r)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(small, small.filter(bool)), max_size=8))
def test_fractions_sorted_summed(pairs):
    check(K.frac_sort, compiled(K.frac_sort), [n for n, _ in pairs], [d for _, d in pairs])


@pytest.mark.parametrize("n", [0, 1, 4, 7])
def test_total_ordering_and_reflected_add(n):
    check_all_levels(K.harmonic, n)


@pytest.mark.parametrize("a, b, c", [(1, 2, 3), (3, 0, 1), (-4, 6, -3)])
def test_exception_in_init_called_from_an_operator(a, b, c):
    check_all_levels(K.frac_div, a, b, c)


@pytest.mark.parametrize("n", [0, 1, 10, 40])
def test_matrix_getitem_setitem_matmul_pow(n):
    check_all_levels(K.fib_matrix, n)


@settings(max_examples=30, deadline=None)
@given(st.text("([{}])ab", max_size=12))
def test_stack_balanced(text):
    check(K.balanced, compiled(K.balanced), text)


@settings(max_examples=25, deadline=None)
@given(st.lists(small, min_size=1, max_size=6), small)
def test_stack_len_bool_contains_iter(xs, k):
    check(K.stack_ops, compiled(K.stack_ops), xs, k)


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(st.integers(1, 8), st.lists(st.tuples(small, small), min_size=1, max_size=10), small)
def test_queue_bfs(n, edges, start):
    check(K.bfs, compiled(K.bfs), n, edges, start)


@pytest.mark.parametrize("n", [0, 1, 6])
def test_generator_iter_and_generator_method(n):
    check_all_levels(K.countdown, n)


@settings(max_examples=20, deadline=None)
@given(st.floats(0, 10), st.floats(0, 10))
def test_inheritance_super_properties(a, b):
    check_all_levels(K.shapes, a, b)


@pytest.mark.parametrize("a", [-1, 1])
def test_abstract_method_raises(a):
    check_all_levels(K.shape_abstract, a)


@pytest.mark.parametrize("side, density", [(2.0, 3.0), (0.5, 1.0)])
def test_abc_base(side, density):
    check_all_levels(K.solids, side, density)


@settings(max_examples=25, deadline=None)
@given(st.floats(0, 5), st.floats(-7, 7))
def test_class_and_static_methods(r, theta):
    check_all_levels(K.points, r, theta)


@settings(max_examples=25, deadline=None)
@given(st.floats(-300, 300), st.floats(-100, 100))
def test_property_setters(c, df):
    check_all_levels(K.temperatures, c, df)


def test_call_len_str_print(capfd):
    check_all_levels(K.newton, [-2.0, 0.0, 1.0], 1.0, 20)
    check(K.newton, compiled(K.newton), [1.0, 1.0], 0.0, 3)
    out = capfd.readouterr().out        # (CPython's runs print too)
    assert out.count("poly -2.0x^0 + 0.0x^1 + 1.0x^2 3\n") == 4 and out.count("poly 1.0x^0 + 1.0x^1 2\n") == 2


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9), st.integers(0, 10**9), st.integers(0, 8))
def test_modular_arithmetic_class(a, b, n):
    check(K.modular, compiled(K.modular), a, b, n)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 99), min_size=1, max_size=8))
def test_dataclass_order_and_repr(xs):
    check(K.versions, compiled(K.versions), xs)


@pytest.mark.parametrize("amounts", [[1.0, 2.5, 4.0], [3.0, 1.0, 2.0, 5.5, -1.0]])
def test_iadd_returning_self_max_sorted(amounts):
    check(K.accounts, compiled(K.accounts), amounts)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(small, small), min_size=1, max_size=6), st.integers(1, 4))
def test_tuple_keys_and_item_aug_assign(pts, w):
    check(K.grid_counts, compiled(K.grid_counts), pts, w)


@pytest.mark.slow
@pytest.mark.parametrize("steps", [0, 3])
def test_nbody_with_vector_class(steps):
    check_all_levels(K.nbody, steps, 0.01)


@pytest.mark.parametrize("n", [-1, 0, 3])
def test_len_must_not_be_negative(n):
    check_all_levels(K.neg_len, n)


@pytest.mark.parametrize("a", [1, 2.5])
def test_type_of_a_value(a):
    check(K.class_names, compiled(K.class_names), a)
    check(K.type_of_numbers, compiled(K.type_of_numbers), a)


@settings(max_examples=7, deadline=None)
@given(st.floats(0.5, 10), st.floats(0.5, 10))
def test_list_of_several_classes(a, b):
    check(K.zoo, compiled(K.zoo), a, b)


@pytest.mark.parametrize("k", [0, 1])
def test_attribute_one_class_lacks(k):
    check_all_levels(K.shape_attribute, 2.0, k)


@pytest.mark.parametrize("c", [True, False])
def test_variable_of_several_classes(c, capfd):
    check(K.pick, compiled(K.pick), 2.0, c)
    check(K.passed, compiled(K.passed), 1.5, c)
    assert capfd.readouterr().out.count("shape ") == 2


@settings(max_examples=15, deadline=None)
@given(st.lists(st.sampled_from([-2.0, 0.0, 1.5, 3.0]), max_size=6))
def test_empty_list_of_several_classes(xs):
    check(K.by_kind, compiled(K.by_kind), xs)


def test_no_leaks():
    f = compiled(K.stack_ops)
    g = compiled(K.accounts)
    h = compiled(K.by_kind)
    name = "".join(["a", "0"])
    before = sys.getrefcount(name)
    for _ in range(2000):
        assert f([1, 2, 3], 2) == K.stack_ops([1, 2, 3], 2)
        g([1.0, 2.0])
        h([1.0, -1.0, 0.0])
    assert sys.getrefcount(name) == before


def test_a_field_given_an_instance_of_another_class_holds_both():
    """Was a CompileError: `h.s = Circle(a)` into a field holding a Rect makes it a union
    of both classes, each method call taken by the class it holds (class_types.py)."""
    assert script.script(K.field_of_two_classes)(3) == K.field_of_two_classes(3)


@pytest.mark.parametrize("fn, message", [
    (K.plain_add, r"unsupported operand type\(s\) for \+: 'Plain' and 'int'"),
    (K.plain_radd, r"unsupported operand type\(s\) for \+: 'int' and 'Plain'"),
    (K.plain_lt, "'<' not supported between instances of 'Plain' and 'Plain'"),
    (K.plain_neg, "bad operand type for unary -: 'Plain'"),
    (K.vec_lt_number, "'<' not supported between instances of 'Vec3' and 'int'"),
    (K.bad_bool, "__bool__ should return bool, returned int"),
    (K.solid_abstract, "Can't instantiate abstract class Solid with"),
    (K.instance_key, "unhashable type: 'Frac'"),
])
def test_errors(fn, message):
    """CPython raises TypeError each time these run (static types make it certain): a
    CompileError with its message; and what compiled code does not take."""
    with pytest.raises(script.CompileError, match=message) as e:
        script.script(fn)(1)
    assert "class_method_kernels.py" in str(e.value)
