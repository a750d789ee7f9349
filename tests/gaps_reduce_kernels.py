"""keepdims= and dtype= of reductions (tests/test_gaps_reduce.py)."""

import numpy as np


def centred(a):
    return a - a.mean(axis=1, keepdims=True)


def normalized(a):
    return (a - np.mean(a, axis=0, keepdims=True)) / (np.std(a, axis=0, keepdims=True) + 1.0)


def keep_whole(a):
    return (np.sum(a, keepdims=True), a.prod(keepdims=True), np.min(a, keepdims=True), a.max(keepdims=True),
            np.any(a, keepdims=True), a.all(keepdims=True), np.argmax(a, keepdims=True), a.argmin(keepdims=True))


def keep_axis0(a):
    return (np.sum(a, 0, keepdims=True), a.prod(axis=0, keepdims=True), np.amin(a, axis=0, keepdims=True),
            a.max(axis=0, keepdims=True), np.mean(a, axis=0, keepdims=True), a.any(axis=0, keepdims=True),
            np.all(a, axis=0, keepdims=True), a.argmax(axis=0, keepdims=True), np.argmin(a, axis=0, keepdims=True))


def keep_last(a):
    return (a.sum(axis=-1, keepdims=True), np.max(a, axis=-1, keepdims=True), a.mean(axis=-1, keepdims=False),
            np.var(a, axis=-1, keepdims=True), a.std(axis=-1, keepdims=True))


def keep_float_stats(a):
    return np.std(a, keepdims=True), a.var(keepdims=True), a.mean(keepdims=True)


def with_dtype(a):
    return (a.sum(dtype=np.float64), np.sum(a, dtype=np.int32), np.prod(a, dtype=np.int16), a.prod(dtype=np.float64),
            np.sum(a, dtype=bool), a.prod(dtype=np.bool_), np.mean(a, dtype=np.float64))


def with_dtype_axis(a):
    return (np.sum(a, axis=0, dtype=np.int8), a.sum(axis=-1, dtype=np.float64, keepdims=True),
            np.prod(a, axis=0, dtype=np.uint16), a.mean(axis=0, dtype=np.float64, keepdims=True))


def float_dtype(a):
    return a.sum(dtype=np.float32), np.mean(a, dtype=np.float32), a.mean(axis=0, dtype=np.float32)


def cumulative_dtype(a):
    return (np.cumsum(a, dtype=np.float64), a.cumsum(dtype=np.int8), np.cumprod(a, axis=0, dtype=np.int16),
            a.cumprod(axis=-1, dtype=np.float64))


def bad_keepdims(a, k):
    return a.sum(keepdims=k)  # error: keepdims must be a constant


def bad_dtype_on_max(a):
    return a.max(dtype=np.int32)  # error: unsupported keyword argument 'dtype'


def bad_int_mean(a):
    return a.mean(dtype=np.int32)  # error: takes a float dtype


def ufunc_methods(a):
    return (np.maximum.accumulate(a), np.minimum.accumulate(a), np.add.accumulate(a),
            np.multiply.accumulate(a, axis=1), np.maximum.accumulate(a, axis=-1), np.add.reduce(a),
            np.add.reduce(a, axis=1), np.maximum.reduce(a), np.minimum.reduce(a, axis=None),
            np.multiply.reduce(a, 0), np.logical_or.reduce(a > 0), np.logical_and.reduce(a > 0, axis=1))


def drawdown(prices):
    peak = np.maximum.accumulate(prices)
    return ((prices - peak) / peak).min()
