"""Arrays made in a loop and used only in the iteration that makes them, whose shadows the
reverse sweep makes where it enters each iteration (script/autodiff/iteration.py): left by a
break, made under a condition, in an inner loop, in the header of a ``while True`` loop, and
the arrays that must keep a shadow made with them (one carried to the next iteration, one
used after the loop); each gradient against central finite differences. (Sums are loops:
`np.sum` of an array made in a loop is refused, docs/grad.md.)"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, strategies as st

import script
from test_grad import SETTINGS, check, vec


@script
def left_by_break(a, k: float, limit: float) -> float:
    s = 0.0
    for t in range(6):
        tmp = a * k + t
        for i in range(tmp.shape[0]):
            s += tmp[i] * tmp[i]
        if s > limit:
            break
    return s


@script
def made_under_condition(a, k: float) -> float:
    s = 0.0
    for t in range(5):
        if t % 2 == 0:
            b = a.copy()
            for i in range(b.shape[0]):
                b[i] = b[i] * k + math.sin(b[i])
            for i in range(b.shape[0]):
                s += b[i] * t
        else:
            s += k
    return s


@script
def inner_loop_temporaries(a, k: float) -> float:
    s = 0.0
    for t in range(3):
        for j in range(3):
            w = np.tanh(a * (k + j) - t)
            for i in range(w.shape[0]):
                s += w[i] * a[i]
    return s


@script
def while_true_header(a, k: float) -> float:
    s = 0.0
    t = 0
    while True:
        tmp = a * k
        for i in range(tmp.shape[0]):
            s += tmp[i] * (t + 1)
        t += 1
        if t >= 4:
            break
    return s


@script
def carried_over(a, k: float) -> float:
    h = a.copy()
    for t in range(4):
        h = np.tanh(h * k + a)
    return np.sum(h * h)


@script
def used_after_loop(a, k: float) -> float:
    tmp = a.copy()
    for t in range(3):
        tmp = a * (k + t)
    return np.sum(tmp * tmp)


@given(vec(12), st.floats(-1.0, 1.0), st.floats(0.0, 30.0))
@SETTINGS
def test_left_by_a_break(a, k, limit):
    s = 0.0
    for t in range(6):
        s += float(np.sum((a * k + t) ** 2))
        if abs(s - limit) < 1e-3:
            return          # the break moves under the finite difference's step
        if s > limit:
            break
    check(left_by_break, (a, k, limit), (0, 1), rtol=1e-4, atol=1e-5)


@given(vec(10), st.floats(-1.0, 1.0))
@SETTINGS
def test_made_under_a_condition(a, k):
    check(made_under_condition, (a, k), (0, 1))


@given(vec(9), st.floats(-1.0, 1.0))
@SETTINGS
def test_in_an_inner_loop(a, k):
    check(inner_loop_temporaries, (a, k), (0, 1), rtol=1e-4, atol=1e-6)


@given(vec(10), st.floats(-1.0, 1.0))
@SETTINGS
def test_in_the_header_of_a_while_true_loop(a, k):
    check(while_true_header, (a, k), (0, 1))


@given(vec(10), st.floats(-1.0, 1.0))
@SETTINGS
def test_arrays_that_outlive_their_iteration(a, k):
    check(carried_over, (a, k), (0, 1), rtol=1e-4, atol=1e-6)
    check(used_after_loop, (a, k), (0, 1))
