"""Format specs made at run time (`f"{x:{w}}"`, `"{:{}}".format(x, w)`, `"{0:0{1}b}"`):
CPython's format() applies them, so values, fills and errors are CPython's."""

import pytest
from hypothesis import given, settings, strategies as st

import format_spec_kernels as K
from difftest import check_all_levels, compiled
from script.errors import CompileError

SET = settings(max_examples=40, deadline=None)
_SPECS = st.text(alphabet="<>^=+- #0123456789,_.bcdeEfFgGnosxX%z", max_size=6)


@SET
@given(st.integers(-10**6, 10**6), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=4),
       st.integers(-2, 12), st.integers(0, 8))
def test_fstring_and_format_specs(x, y, s, w, p):
    check_all_levels(K.fstring_specs, x, y, s, w, p)
    check_all_levels(K.format_specs, x, y, s, w, p)


@SET
@given(st.floats(-1e6, 1e6, allow_nan=False), _SPECS)
def test_any_spec_text_gives_cpythons_value_or_error(v, spec):
    check_all_levels(K.spec_text, v, spec)


@pytest.mark.parametrize("x, w", [(5, 4), (20, 6), (60, 3), (70, 0)])
def test_specs_in_raise_messages(x, w):
    check_all_levels(K.raise_with_spec, x, w)


def test_specs_in_print(capfd):
    for x, w in ((5, 4), (123, 2)):
        K.print_with_spec(x, w)
        want = capfd.readouterr().out
        compiled(K.print_with_spec)(x, w)
        assert capfd.readouterr().out == want


@pytest.mark.parametrize("fn, match", [
    (K.mixed_numbering, "cannot switch from manual field specification to automatic field numbering"),
    (K.nested_too_deep, "Max string recursion exceeded"),
])
def test_templates_cpython_rejects_are_compile_errors(fn, match):
    with pytest.raises(ValueError, match=match):
        fn(1)
    with pytest.raises(CompileError, match=match):
        compiled(fn)(1)
