"""Checks lowered with fewer instructions on the hot path (script/backend/llvm/lower.py),
end to end against CPython at every level (opt=0, the default, opt=3):

- an unproven index ``a[x]``: NumPy's fix-up ``x + n if x < 0`` and the bounds check are one
  unsigned compare ``x <u n``, with a cold path for negative indices
  (`lower_wrapped_index_check`). Indices 0, n - 1, n, -1, -n, -n - 1, INT64_MIN, INT64_MAX
  and empty axes, on the first, a middle and the last iteration: values, IndexError
  messages (which name the index as written) and what was stored before the error agree.
- ``int(x)``/``math.floor`` of a float stored as an int64: on x86-64 the conversion comes
  first and one compare of its result with INT64_MIN stands for the NaN, infinity and range
  checks (`_truncating_convert`); -2**63 itself converts, 2**63 and the first double below
  -2**63 raise OverflowError, NaN ValueError, infinities OverflowError, in that order
  against an index error that follows.
"""

from __future__ import annotations

import math
import platform

import numpy as np
import pytest

import lowered_check_kernels as K
from difftest import check, compiled

LEVELS = ({"opt": 0}, {}, {"opt": 3})
I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1
BELOW_MIN = -(2.0 ** 63) - 4096.0           # the first double below -2**63


def check_levels(fn, *args):
    for options in LEVELS:
        check(fn, compiled(fn, **options), *(a.copy() if isinstance(a, np.ndarray) else a for a in args))


def positions(bad, good=1):
    """`bad` at the first, a middle and the last of five places, `good` elsewhere."""
    return [[bad] + [good] * 4, [good] * 2 + [bad] + [good] * 2, [good] * 4 + [bad]]


@pytest.mark.parametrize("n", [0, 1, 3])
def test_gather_every_edge_index(n):
    a = np.arange(1.0, n + 1.0)
    for x in (0, n - 1, n, -1, -n, -n - 1, I64_MIN, I64_MAX, 1 << 40, -(1 << 40)):
        for idx in positions(x, good=0 if n else x):
            check_levels(K.gather, a, np.array(idx, dtype=np.int64))


def test_scatter_two_axes():
    m = np.zeros((2, 3))
    for r, c in ((0, 0), (1, 2), (-2, -3), (-1, -1), (2, 0), (-3, 0), (0, 3), (0, -4), (I64_MIN, 0), (0, I64_MIN)):
        for rows in positions(r, good=0):
            for cols in positions(c, good=1):
                check_levels(K.scatter_rows, m, np.array(rows, dtype=np.int64), np.array(cols, dtype=np.int64))


def test_index_used_after_its_check():
    for i in (0, 2, 3, -1, -3, -4, I64_MIN):
        check_levels(K.index_then_use, np.arange(3.0), i)


# floats whose int is outside int64: CPython makes a big int (then an IndexError or "Python
# int too large to convert to C long"), compiled code raises OverflowError "float value out
# of range for i64" (compiled ints are int64, docs/language.md); pinned below, unchanged
OUTSIDE = [2.0 ** 63, BELOW_MIN, 1e19, -1e19, 1e300, -1e300]


@pytest.mark.parametrize("nbins", [0, 1, 4])
def test_bins_float_and_index_errors(nbins):
    """floor, then the index: a float error comes first, a bin outside [-n, n) raises
    IndexError, -2**63 converts (and is no bin)."""
    samples = [0.0, 0.5, 3.9, 4.0, -0.5, -4.0, -4.5, math.nan, math.inf, -math.inf,
               -(2.0 ** 63), 2.0 ** 63 - 1024.0, 2.0 ** 62]
    for s in samples:
        for x in positions(s, good=0.25):
            check_levels(K.bins, np.array(x), np.zeros(nbins, dtype=np.int64), 0.0, 1.0)


def test_truncate_at_the_limits():
    edges = [0.0, -0.0, 0.9, -0.9, 2.0 ** 63 - 1024.0, -(2.0 ** 63), math.nan, math.inf, -math.inf, 5e-324]
    check_levels(K.truncate, np.array([e for e in edges if not (math.isnan(e) or math.isinf(e))]))
    for e in edges:
        for x in positions(e, good=1.5):
            check_levels(K.truncate, np.array(x))


def test_outside_int64_raises_overflow_at_every_level():
    for options in LEVELS:
        f, g = compiled(K.truncate, int_overflow="raise", **options), compiled(K.bins, int_overflow="raise", **options)
        for e in OUTSIDE:
            for x in positions(e, good=1.5):
                for call in (lambda: f(np.array(x)), lambda: g(np.array(x), np.zeros(4, dtype=np.int64), 0.0, 1.0)):
                    with pytest.raises(OverflowError, match="^float value out of range for i64$"):
                        call()


def test_lowering_shapes():
    """The kernels above really take the new paths (so the comparisons test them)."""
    f = compiled(K.bins)
    f(np.array([0.5]), np.zeros(2, dtype=np.int64), 0.0, 1.0)
    text = f.ir("llvm")
    assert "negative_index" in text
    if platform.machine() in ("x86_64", "AMD64"):
        assert "cvttsd2si" in f.ir("asm") and "vandpd" not in f.ir("asm").split("script.entry")[0]
