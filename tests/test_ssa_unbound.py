"""Locals unassigned on some paths, against CPython (tests/unbound_kernels.py): merge
parameters typed before their arguments are read (loops that come back to them), arrays and
tuples that may be unbound, and reads that no typed assignment reaches, which raise
UnboundLocalError when they run."""

import numpy as np
import pytest

import unbound_kernels as K
from difftest import check_all_levels


@pytest.mark.parametrize("n", [-1, 0, 1, 2, 3, 4, 5, 6, 7])
def test_unassigned_on_some_paths(n):
    for fn in (K.reassigned_in_empty_inner_loop, K.float_reassigned_in_empty_inner_loop,
               K.array_maybe_unbound, K.array_maybe_unbound_in_loop, K.tuple_with_array_maybe_unbound,
               K.counter_never_assigned, K.counter_never_assigned_in_and, K.unbound_after_break,
               K.abs_of_never_assigned):
        check_all_levels(fn, n)


@pytest.mark.parametrize("a", [np.array([-3, 1], dtype=np.int8), np.array([0, 4], dtype=np.int8),
                               np.array([2.5, 7.0])])
def test_parameter_read_after_loop_with_reduction_in_test(a):
    check_all_levels(K.param_after_reduction_loop, 5.0, a)
    check_all_levels(K.param_after_reduction_loop, -1.5, a)


@pytest.mark.parametrize("rows", [1, 2, 6])
def test_subscript_computed_before_checked(rows):
    for fn in (K.index_order, K.view_index_order, K.slice_part_order):
        check_all_levels(fn, 3, np.zeros((rows, 4)))
