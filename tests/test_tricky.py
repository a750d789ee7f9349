"""SSA construction corner cases against CPython."""

from hypothesis import given, settings, strategies as st

import tricky as T
from difftest import check_all_levels

SET = settings(max_examples=30, deadline=None)


@SET
@given(st.integers(-5, 25))
def test_corner_cases(n):
    for fn in (T.shadow_global, T.widen_in_nested, T.carry_tuple, T.last_assigned,
               T.while_else_break, T.assigned_later_in_loop, T.cond_in_loop_header,
               T.nested_ifexp, T.reassign_param, T.loop_var_type_change, T.deep_nesting):
        check_all_levels(fn, n)
    check_all_levels(T.swap_chain, n, n + 1, 2.5)
