"""`match` statements (script/frontend/match.py), against CPython."""

import math

import pytest
from hypothesis import given, settings, strategies as st

import match_kernels as K
import script
from difftest import check_all_levels, compile_snippet

SET = settings(max_examples=15, deadline=None)
small = st.integers(-4, 4)


@SET
@given(st.integers(-10, 200), st.sampled_from([0, 1, 2, 3, -1, -5, 101]))
def test_literals_values_and_guards(n, m):
    check_all_levels(K.classify, n)
    check_all_levels(K.classify, m)
    check_all_levels(K.no_case_matches, m)
    check_all_levels(K.int_is_not_true, m)
    check_all_levels(K.guard_raises, m)


@SET
@given(st.text(alphabet="0123456789+-*/() x", max_size=12))
def test_tokenizer_on_characters(s):
    check_all_levels(K.tokenize, s)
    check_all_levels(K.strs_are_not_sequences, s[:3])


_COMMANDS = ["move up 3", "move down 1", "move left 2", "move right 5", "move north 1", "reset",
             "stop now", "", "  ", "echo a b c", "echo", "jump 2", "move up x"]


@SET
@given(st.lists(st.sampled_from(_COMMANDS), max_size=6))
def test_command_interpreter(cmds):
    check_all_levels(K.interpret, ";".join(cmds))


@SET
@given(st.sampled_from(["circle", "rect", "box", "square", "tri"]), st.floats(-3, 3), st.floats(-3, 3),
       small, small)
def test_tuples(kind, a, b, i, j):
    check_all_levels(K.shape_area, kind, a, b)
    check_all_levels(K.pair_kind, i, j)
    check_all_levels(K.tuple_star, i, j, a)
    check_all_levels(K.mixed_tuples, i)


@SET
@given(st.one_of(st.sampled_from([0.0, -0.0, 1.5, -2.5, 3.0, math.inf, -math.inf, math.nan]), st.floats()))
def test_float_literals(x):
    check_all_levels(K.float_literals, x)


@SET
@given(st.integers(0, 10), st.integers(0, 50))
def test_optional_subject(n, limit):
    check_all_levels(K.optional_subject, n, limit)


@SET
@given(st.one_of(st.booleans(), st.integers(-5, 5), st.floats(-1e6, 1e6), st.text(max_size=4)))
def test_builtin_class_patterns(x):
    check_all_levels(K.builtin_classes, x)


@SET
@given(st.sampled_from([0.0, 1.0, -2.0, 3.5]), st.sampled_from([0.0, 1.0, -2.0, 3.5]), small, small)
def test_class_patterns(a, b, i, j):
    check_all_levels(K.dataclass_patterns, a, b)
    check_all_levels(K.named_tuple_patterns, i, j)


@SET
@given(st.lists(st.lists(small, max_size=3), max_size=4), st.lists(small, max_size=5))
def test_sequence_patterns(rows, xs):
    check_all_levels(K.nested_sequences, rows)
    check_all_levels(K.list_heads, xs)


@SET
@given(st.integers(0, 3), small, st.integers(0, 20), st.booleans())
def test_mappings_loops_singletons(op, arg, n, b):
    check_all_levels(K.mappings, op, arg)
    check_all_levels(K.in_a_loop, n)
    check_all_levels(K.singletons, b)


@SET
@given(st.lists(st.sampled_from(["a=1", "b", "c=d=e", "", "start", "tick", "stop", "reset"]), max_size=6))
def test_in_generators_and_methods(words):
    check_all_levels(K.in_a_generator, words)
    check_all_levels(K.in_a_method, words)


_HEADER = ("import math\nfrom typing import NamedTuple\nclass P(NamedTuple):\n    x: int\n    y: int\n"
           "class C:\n    PAIR = (1, 2)\ndef f(n):\n")


@pytest.mark.parametrize("body, arg, match", [
    ("    match n:\n        case int(a, b):\n            return a\n    return 0\n", 1,
     r"int\(\) accepts 1 positional sub-pattern \(2 given\)"),
    ("    match P(n, n):\n        case P(a, b, c):\n            return a\n    return 0\n", 1,
     r"P\(\) accepts 2 positional sub-patterns \(3 given\)"),
    ("    match n:\n        case math.sqrt():\n            return 1\n    return 0\n", 1,
     "called match pattern must be a class"),
    ("    match (n, n):\n        case C.PAIR:\n            return 1\n    return 0\n", 1,
     r"a value pattern of type \(i64, i64\) is not supported"),
])
def test_unsupported_patterns_are_compile_errors(tmp_path, body, arg, match):
    f = compile_snippet(tmp_path, "match_bad.py", _HEADER + body)
    with pytest.raises(script.CompileError, match=match) as e:
        f(arg)
    assert "match_bad.py:" in str(e.value)
