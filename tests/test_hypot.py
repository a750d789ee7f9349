"""math.hypot is CPython's vector_norm (lib/python/pylib.py), bit for bit: libm's hypot is one
ulp away from it in about 0.5% of cases (hypot(1.0, 3.1622776601683795) is
3.3166247903554 in CPython, 3.3166247903554003 from glibc)."""

import math

from hypothesis import given, settings, strategies as st

from difftest import check_all_levels

FLOATS = st.floats(allow_nan=True, allow_infinity=True) | st.floats(-10, 10) | st.floats(0, 1e-300)


def hypots(x, y, z):
    return math.hypot(x, y), math.hypot(x, y, z), math.hypot(x), math.hypot(), math.hypot(3, 4)


@settings(max_examples=300, deadline=None)
@given(FLOATS, FLOATS, FLOATS)
def test_hypot_against_cpython(x, y, z):
    check_all_levels(hypots, x, y, z)


def test_the_case_glibc_rounds_the_other_way():
    check_all_levels(hypots, 1.0, 3.1622776601683795, -3.0)


def test_an_overflowing_hypot_is_inf_as_in_cpython():
    check_all_levels(hypots, 1.2711610061536462e+308, 1.2711610061536464e+308, 1e308)
