"""Kernels for tests/test_clamped_index.py (in a file: the compiler reads source): histogram
bins clamped into the end bins by branches (the `ranges` pass's `_clamped_index`), and
near-misses whose index checks must stay."""

import math

import numpy as np


def clamped(x, nbins, lo, hi):
    counts = np.zeros(nbins, dtype=np.int64)
    scale = nbins / (hi - lo)
    for i in range(x.shape[0]):
        b = math.floor((x[i] - lo) * scale)
        if b < 0:
            b = 0
        elif b >= nbins:
            b = nbins - 1
        counts[b] += 1
    return counts


def clamped_into(counts, bins):
    n = counts.shape[0]
    for i in range(bins.shape[0]):
        b = bins[i]
        if b >= n:
            b = n - 1
        elif b < 0:
            b = 0
        counts[b] += 1
    return counts


def clamped_to_one(counts, bins):
    n = counts.shape[0]
    for i in range(bins.shape[0]):
        b = bins[i]
        if b < 1:
            b = 1
        elif b >= n:
            b = n - 1
        counts[b] += 1
    return counts


def clamped_above_only(counts, bins):
    n = counts.shape[0]
    for i in range(bins.shape[0]):
        b = bins[i]
        if b >= n:
            b = n - 1
        counts[b] += 1
    return counts
