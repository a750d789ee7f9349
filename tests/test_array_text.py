"""`str`, `repr`, `print` and f-strings of arrays in compiled code: NumPy's own text
(pyhooks/array_text.py, over the elements without a copy), for every element type, rank,
layout and size, and under NumPy's print options."""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import script


def texts(a, b):
    print(a)
    print("a:", a, b, sep="|")
    return str(a), repr(a), f"{a} {b!r}", str(a[::-1]), repr(b.T), str(a[:0])


def loop_prints(n):
    a = np.arange(n * 3).reshape(n, 3) * 0.25
    for row in a:
        print(row)
    return repr(a > 1.0)


def run_both(fn, *args):
    outs = []
    for f in (fn, script.script(fn)):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            r = f(*args)
        outs.append((r, buf.getvalue()))
    return outs


DTYPES = st.sampled_from([np.bool_, np.int8, np.int32, np.int64, np.uint16, np.float32, np.float64, np.complex128])


@settings(max_examples=30, deadline=None)
@given(a=hnp.arrays(DTYPES, hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)),
       b=hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, max_side=3),
                    elements=st.floats(-1e6, 1e6, allow_nan=False)))
def test_text_of_arrays_is_numpys(a, b):
    want, got = run_both(texts, a, b)
    assert want == got


@pytest.mark.parametrize("n", [0, 1, 4])
def test_rows_printed_in_a_loop(n):
    want, got = run_both(loop_prints, n)
    assert want == got


def test_print_options_are_numpys():
    a = np.linspace(0, 1, 7)
    with np.printoptions(precision=3, suppress=True):
        want, got = run_both(texts, a, a.reshape(7, 1))
    assert want == got
    big = np.arange(5000.0)
    want, got = run_both(texts, big, big.reshape(50, 100))      # summarized with ...
    assert want == got
