"""prange loops whose iterations are not independent: each is a CompileError at the line
marked ``# error: <text the message contains>`` (tests/test_parallel.py)."""

import random

import numpy as np

import script


def write_elsewhere(a, out):
    for i in script.prange(a.shape[0]):
        out[i + 1] = a[i]               # error: writes 'out' at an index that is not the loop variable


def write_fixed(a, out):
    for i in script.prange(a.shape[0]):
        out[0] += a[i]                  # error: writes 'out' at an index that is not the loop variable


def read_neighbour(a, out):
    for i in script.prange(1, a.shape[0]):
        out[i] = out[i - 1] + a[i]      # error: reads 'out' at an index other than the loop variable


def recurrence(a):
    x = 0.0
    for i in script.prange(a.shape[0]):
        x = x * 2.0 + a[i]              # error: 'x' carries a value
    return x


def last_value(a):
    last = 0.0
    for i in script.prange(a.shape[0]):
        last = a[i]                     # error: 'last' carries a value
    return last


def reduction_read(a):
    s = 0.0
    for i in script.prange(a.shape[0]):
        s += a[i]
        a[i] = s                        # error: 's' carries a value
    return s


def reduction_tested(a):
    s = 0.0
    for i in script.prange(a.shape[0]):
        if s > 1.0:                     # error: 's' carries a value
            s += a[i]
    return s


def mixed_kinds(a):
    s = 1.0
    for i in script.prange(a.shape[0]):
        if a[i] > 0:
            s += a[i]
        else:
            s *= a[i]                   # error: 's' carries a value
    return s


def min_reversed(a):
    m = 0.0
    for i in script.prange(a.shape[0]):
        m = min(a[i], m)                # error: 'm' carries a value
    return m


def shared_list(a):
    xs = [0.0]
    for i in script.prange(a.shape[0]):
        xs.append(a[i])                 # error: not a list[f64]
    return len(xs)


def breaks(a):
    s = 0.0
    for i in script.prange(a.shape[0]):
        if a[i] > 3:
            break                       # error: no break, return
        s += a[i]
    return s


def returns(a):
    for i in script.prange(a.shape[0]):
        if a[i] > 3:
            return i                    # error: no break, return
    return -1


def draws(a):
    s = 0.0
    for i in script.prange(a.shape[0]):
        s += random.random()            # error: random numbers in a prange loop
    return s


def stepped(a, out):
    for i in script.prange(0, a.shape[0], 2):   # error: a step is not supported
        out[i] = a[i]


@script.script
def _scale_into(dst, x):
    for j in range(dst.shape[0]):
        dst[j] = x


def callee_writes(a, out):
    for i in script.prange(a.shape[0]):
        _scale_into(out, a[i])          # error: passes 'out' to a function that writes it


def caught_outside(a):
    s = 0.0
    try:
        for i in script.prange(a.shape[0]):
            s += a[i] / (a[i] - 3)
    except ZeroDivisionError:
        s = -1.0
    return s                            # error: ends only when its range is exhausted


KERNELS = [write_elsewhere, write_fixed, read_neighbour, recurrence, last_value, reduction_read,
           reduction_tested, mixed_kinds, min_reversed, shared_list, breaks, returns, draws,
           stepped, callee_writes, caught_outside]


def arguments(fn):
    """Arguments of the right types for `fn`."""
    a = np.arange(6.0)
    if fn.__code__.co_argcount == 1:
        return (a,)
    return (a, np.zeros((6, 6))) if fn in (transposed_read, crossed_axes, summed_while_written) else (a, np.zeros(8))


def transposed_read(a, out):
    for i in script.prange(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = out[j, i] + a[i]    # error: reads 'out' at an index other than the loop variable


def crossed_axes(a, out):
    for i in script.prange(out.shape[0]):
        out[i, 0] = a[i]
        out[0, i] = a[i]                # error: along different axes


def summed_while_written(a, out):
    for i in script.prange(a.shape[0]):
        out[i, 0] = np.sum(out)         # error: reads 'out' at an index other than the loop variable


KERNELS += [transposed_read, crossed_axes, summed_while_written]
