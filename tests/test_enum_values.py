"""Members of plain `enum.Enum` classes as values in compiled code (frontend/enum_values.py):
held, merged, returned (the very member), passed in, compared, named, searched, shown and
stored as CPython has them; what compiled code cannot hold is a CompileError."""

from __future__ import annotations

import enum
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import enum_value_kernels as K
import script
from difftest import check_typed as check, compiled, outcome, run_child
from script.errors import CompileError

COLORS = list(K.Color)
MEMBERS = st.sampled_from(COLORS)
NAMES = st.sampled_from(["RED", "GREEN", "BLUE", "CRIMSON", "red", "", "PURPLE"])



@settings(max_examples=20, deadline=None)
@given(n=st.integers(-3, 6))
def test_variables_holding_members_merge_and_return_the_member(n):
    check(K.pick, n)
    check(K.alternate, n)
    assert compiled(K.pick)(n) is K.pick(n)


@pytest.mark.parametrize("fn", [K.attributes, K.texts, K.tests, K.contains, K.containers, K.key_missing,
                                K.hashed, K.passed_on, K.by_member, K.order_int], ids=lambda f: f.__name__)
@settings(max_examples=10, deadline=None)
@given(m=MEMBERS)
def test_operations_on_a_member_argument(fn, m):
    check(fn, m)


@settings(max_examples=15, deadline=None)
@given(m=st.sampled_from(list(K.Planet)), s=st.sampled_from(["earth", "Jupiter", "MERCURY", "pluto"]))
def test_methods_properties_static_and_class_methods(m, s):
    """What an enum class defines runs on its members as on instances: a method (with a
    keyword), a property, a static method through a member and the class, a class method
    looking a member up (CPython's KeyError for an unknown name)."""
    check(K.planet_members, m, s)


@settings(max_examples=25, deadline=None)
@given(m=MEMBERS, n=MEMBERS)
def test_equality_identity_and_order(m, n):
    check(K.compare, m, n)
    check(K.order, m, n)


@settings(max_examples=25, deadline=None)
@given(s=NAMES)
def test_lookup_by_name_raises_cpythons_key_error(s):
    check(K.by_name, s)


@settings(max_examples=25, deadline=None)
@given(v=st.integers(-2, 5))
def test_lookup_by_value_raises_cpythons_value_error(v):
    check(K.by_value, v)


@pytest.mark.parametrize("args", [(K.by_text, "y"), (K.by_text, "n"), (K.by_text, "q"), (K.by_text, "'"),
                                  (K.by_float, 0.5), (K.by_float, 1 / 3), (K.by_float, 0.25)])
def test_lookup_by_str_and_float_values(args):
    check(*args)


def test_iteration_length_and_list_skip_aliases():
    check(K.iterate)


@pytest.mark.parametrize("d", list(K.Direction))
def test_a_class_with_its_own_repr(d):
    check(K.direction_texts, d)


def test_print(capsys):
    K.printed(K.Color.GREEN)
    want = capsys.readouterr().out
    compiled(K.printed)(K.Color.GREEN)
    assert capsys.readouterr().out == want == "Color.GREEN Color.BLUE\n"


@pytest.mark.parametrize("args", [(1.0, "kilo", "mega"), (2.0, K.Unit.giga, "KILO"), (3.0, "Mega", K.Unit.mega),
                                  (1.0, K.Unit.kilo, K.Unit.giga), (1.0, "tera", "kilo")])
def test_a_str_or_a_member_as_in_prefix_conversions(args):
    check(K.convert_prefix, *args)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(["RED", "GREEN", "BLUE", "CRIMSON"]), max_size=6))
def test_sets_of_members_iterate_in_cpythons_order(names):
    check(K.set_of, names)


@pytest.mark.parametrize("args", [(K.tuple_values, K.Corner.TOP), (K.tuple_values, K.Corner.BOTTOM),
                                  (K.float_values, K.Ratio.THIRD), (K.held, 0), (K.held, 3)])
def test_tuple_and_float_values_and_class_fields(args):
    check(*args)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), max_size=7))
def test_a_helper_returning_members_as_in_graham_scan(points):
    check(K.turns, points)


def test_each_class_and_other_values_specialize_apart():
    f = compiled(K.attributes)
    assert f(K.Color.RED) == ("RED", 1, True)
    with pytest.raises(AttributeError, match="'int' object has no attribute 'name'"):
        f(1)                # (CPython's error, from an int specialization)
    assert f(K.Unit.kilo) == ("kilo", 3, False)        # (a specialization of its own)


def test_refusals():
    with pytest.raises(CompileError, match="not all of one kind"):
        script.script(K.mixed_member)()
    with pytest.raises(CompileError, match="sets of members are"):
        script.script(K.set_of_tuples)(K.Color.RED)
    with pytest.raises(TypeError, match="not all of one kind"):
        script.script(K.attributes)(K.Mixed.ONE)


def test_saved_modules_and_pickles_find_the_class_again(tmp_path):
    f = script.script(K.pick)
    g = script.script(K.by_name)
    assert f(1) is K.Color.GREEN and g("BLUE") is K.Color.BLUE
    path = tmp_path / "colors.script"
    script.save([f, g], path)
    compiled(K.by_member)(K.Color.BLUE)
    (tmp_path / "f.pkl").write_bytes(pickle.dumps(compiled(K.by_member)))
    out = run_child(
        "import pickle, sys\nsys.path.insert(0, \"tests\")\nimport script, enum_value_kernels as K\n"
        "m = script.load(sys.argv[1])\n"
        "ir = script.load(sys.argv[1], object_code=False)\n"
        "h = pickle.loads(open(sys.argv[2], 'rb').read())\n"
        "print(m.pick(-1) is K.Color.BLUE, m.by_name('GREEN') is K.Color.GREEN, ir.pick(1) is K.Color.GREEN,\n"
        "      h(K.Color.RED) is K.Color.RED)\n",
        str(path), str(tmp_path / "f.pkl"))
    assert out.split() == ["True"] * 4


def test_ir_text_round_trips():
    from script.ir.parser import parse_module
    from script.ir.printer import format_module
    f = script.script(K.containers)
    f(K.Color.RED)
    text = f.ir("opt")
    assert 'enum["enum_value_kernels:Color"]' in text
    assert format_module(parse_module(text)) == format_module(parse_module(format_module(parse_module(text))))


@pytest.mark.parametrize("k", [-1, 0, 1, 2])
def test_a_union_of_a_str_and_a_member(k):
    check(K.member_or_text, k)


def test_a_member_is_true():
    check(K.truth, K.Color.BLUE)


def test_what_stays_refused_is_a_compile_error():
    with pytest.raises(CompileError, match="sorting a list"):
        script.script(K.refused_order)(K.Color.RED)


def _mixed_value_read(i):
    return K.Mixed.ONE.value, K.Mixed.TEXT.name, K.Mixed.TEXT.value, i


def test_a_class_whose_members_are_no_values_still_reads_value_and_name():
    # (convert_number_to_words: `NumberWords.ONES.value[ones]` of a class of mixed values)
    f = script.script(_mixed_value_read)
    assert f(1) == _mixed_value_read(1)
