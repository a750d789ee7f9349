"""`re` in compiled code: CPython's `re` runs the matches; values and errors compared with
CPython on generated text (docs/strings.md, "Regular expressions")."""

import pytest
from hypothesis import given, settings, strategies as st

import re_kernels as K
import script
from difftest import check_all_levels

TEXT = st.text(alphabet="ab12 -=_.\tAZé9\n", max_size=14)
EXAMPLES = settings(max_examples=25, deadline=None)


def test_examples_as_written_in_the_corpus():
    check_all_levels(K.split_input, "one two 31235three4four")
    check_all_levels(K.indian_phone_validator, "+918827897895")
    check_all_levels(K.indian_phone_validator, "+91-1234567899")
    check_all_levels(K.is_dna, "GATTACA")
    check_all_levels(K.is_dna, "GATTXCA")
    check_all_levels(K.natural_key, "elm13")
    check_all_levels(K.dna, "GCTA")
    check_all_levels(K.dna, "GFGG")


@EXAMPLES
@given(TEXT, st.integers(-1, 3))
def test_functions_and_methods(s, n):
    check_all_levels(K.finds, s)
    check_all_levels(K.search_groups, s)
    check_all_levels(K.named, s)
    check_all_levels(K.matches, s)
    check_all_levels(K.subs, s)
    check_all_levels(K.splits, s, n)
    check_all_levels(K.iterate, s)
    check_all_levels(K.escaped, s)
    check_all_levels(K.local_pattern, s)
    check_all_levels(K.bad_group, s)
    check_all_levels(K.function_replacements, s)
    check_all_levels(K.module_pattern_as_argument, s)
    check_all_levels(K.argument_order, s)


def test_errors_are_cpythons():
    check_all_levels(K.bad_pattern, "x")        # re.error, raised where CPython raises it


def test_patterns_made_when_it_runs():
    check_all_levels(K.emails, "ann@x.org, bob@y.org bob@x.org", r"x\.org")
    check_all_levels(K.dynamic_groups, "a1 b2", r"\w\d")
    check_all_levels(K.dynamic_groups, "a1 b2", r"(\w)\d")
    with pytest.raises(TypeError, match="several groups"):     # tuples: refused when it runs
        script.script(K.dynamic_groups)("a1 b2", r"(\w)(\d)")


@pytest.mark.parametrize("fn, message", [
    (K.none_in_split, "may not take part"),
    (K.returns_match, "cannot be returned to Python"),
])
def test_refusals_are_clear(fn, message):
    with pytest.raises(script.CompileError, match=message):
        script.script(fn)("ab")


@pytest.mark.parametrize("pattern, absent", [
    ("(a)", False), ("(a)|b", True), ("(a)?", True), ("(a)+", False), ("(?:(a)|b)c", True),
    ("x(?=(a))", False), ("x(?!(a))", True), ("(a)(?(1)b|(c))", True), ("(a)*", True),
    ("(a){0,2}", True), ("(a){1,2}", False), ("([0-9]+)", False),
])
def test_which_groups_may_not_take_part(pattern, absent):
    import re
    from script.frontend.re_calls import _may_be_absent
    assert _may_be_absent(re.compile(pattern)) is absent
