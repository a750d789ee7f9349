"""Fields of class instances that hold None beside a number, or values of several types
(frontend/class_types.py, union_values.py): each read, store, operation and boxing gives
CPython's value, type, exception and message."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import union_field_kernels as K
from difftest import check_typed, compiled, outcome

ITEMS = st.one_of(st.integers(-3, 3), st.sampled_from([0.5, -1.0]), st.sampled_from(["a", ""]))


def shown(v):
    if isinstance(v, (K.Box, K.Cell, K.Node)):
        return type(v).__name__, {k: shown(x) for k, x in vars(v).items()}
    if isinstance(v, tuple):
        return tuple(map(shown, v))
    return v


def check(fn, *args):
    check_typed(fn, *args, same=lambda a, b: repr(shown(a)) == repr(shown(b)))


@pytest.mark.parametrize("fn", [K.last_put, K.running_total, K.chain], ids=lambda f: f.__name__)
@settings(max_examples=20, deadline=None)
@given(xs=st.lists(ITEMS, max_size=5))
def test_fields_given_values_of_several_types(fn, xs):
    check(fn, xs)


@pytest.mark.parametrize("fn", [K.relabel, K.cells, K.made], ids=lambda f: f.__name__)
@settings(max_examples=15, deadline=None)
@given(n=st.integers(-4, 6))
def test_constructions_and_stores_of_several_types(fn, n):
    check(fn, n)


def test_numbers_only_keep_their_types():
    for xs in ([1, 2], [1.5, 2.5], [1, 2.5], []):
        check(K.last_put, xs)


@settings(max_examples=20, deadline=None)
@given(vs=st.lists(st.one_of(ITEMS, st.none()), min_size=1, max_size=4))
def test_instances_from_python_whose_fields_hold_several_types(vs):
    """Read as a union, written back with each value's own type, on an error too."""
    want_cells, got_cells = [K.Cell(v) for v in vs], [K.Cell(v) for v in vs]
    want = outcome(K.doubled, (want_cells,))
    got = outcome(compiled(K.doubled), (got_cells,))
    assert repr(want) == repr(got)
    assert [repr(c.v) for c in want_cells] == [repr(c.v) for c in got_cells]
