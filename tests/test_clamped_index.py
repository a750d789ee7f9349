"""Index checks of clamped bins (ranges.py `_clamped_index`): a bin that is 0, ``n - 1`` or
tested into ``[0, n)`` is checked only for ``n <= 0``. End to end against CPython at every
level: empty and one-bin tables (IndexError with NumPy's message, naming the bin: 0 or -1),
NaN and infinite samples (ValueError, OverflowError), bins far outside, and near-misses
(a clamp to 1, a clamp from above only: negative bins wrap as NumPy's do) that keep their
checks. Golden IR cases: tests/ir/ranges/clamped_index*.ir."""

from __future__ import annotations

import math

import numpy as np
import pytest

import clamp_kernels as K
from difftest import check, compiled

LEVELS = ({"opt": 0}, {}, {"opt": 3})
SAMPLES = [-5.0, -1.0, -0.0, 0.0, 0.25, 0.999, 1.0, 3.5, 1e15, -1e15]


@pytest.mark.parametrize("nbins", [0, 1, 2, 7])
def test_clamped_histogram(nbins):
    for options in LEVELS:
        f = compiled(K.clamped, **options)
        check(K.clamped, f, np.array(SAMPLES), nbins, -1.0, 1.0)
        check(K.clamped, f, np.array([], dtype=np.float64), nbins, -1.0, 1.0)
        for bad in (math.nan, math.inf, -math.inf):
            check(K.clamped, f, np.array([0.5, bad]), nbins, -1.0, 1.0)


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_clamped_bins(n):
    bins = np.array([-(1 << 62), -3, -1, 0, 1, 2, 4, 5, 9, (1 << 62)], dtype=np.int64)
    for options in LEVELS:
        for fn in (K.clamped_into, K.clamped_to_one, K.clamped_above_only):
            check(fn, compiled(fn, **options), np.zeros(n, dtype=np.int64), bins)
            check(fn, compiled(fn, **options), np.zeros(n, dtype=np.int64), bins[3:6])


def test_only_the_clamped_checks_change():
    def opt(fn, *args):
        f = compiled(fn)
        f(*args)
        return f.ir("opt")
    counts, bins = np.zeros(3, dtype=np.int64), np.arange(3, dtype=np.int64)
    assert "cmp.le %" in opt(K.clamped, np.zeros(3), 4, -1.0, 1.0)
    assert "cmp.le %" in opt(K.clamped_into, counts, bins)
    for fn in (K.clamped_to_one, K.clamped_above_only):
        text = opt(fn, counts, bins)
        assert "IndexError" in text and ", 0:i64 : bool" in text      # the cmp.lt of the bin stays
