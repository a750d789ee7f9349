"""Functions for tests/test_scalar_dispatch.py, left undecorated: each test decorates its own
(`script.script(twice)`), so no test sees what another compiled."""

import script


def twice(x):
    return x + x


def times_1000(x):
    return x * 1000


def negate(x):
    return not x


def add_i32(x: script.i32, y: script.i32) -> script.i32:
    return x + y


def half_f32(x: script.f32) -> script.f32:
    return x / 2


def mixed(x, y: script.i32):
    return x + y


def pair_sum(t):
    return t[0] + t[0] + t[1]
