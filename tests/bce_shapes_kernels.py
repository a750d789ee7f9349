"""Kernels for tests/test_bce_shapes.py (in a file: the compiler reads source): indices of
stepped ranges (a step other than 1, counting down, from 0) plus or minus constants, and
mirrored indices ``a[len(a) - 1 - i]``."""


def step_from_zero(b, stop):
    s = 0.0
    for i in range(0, stop, 2):
        s += b[i]
    return s


def step_offsets(out, b, start, stop):
    for i in range(start, stop, 3):
        out[i] = b[i - 1] + b[i + 1]


def step_down_offsets(out, b, start, stop):
    for i in range(start, stop, -2):
        out[i] = b[i] - b[i - 1] + b[i + 2]


def step_variable(out, b, start, stop, step):
    for i in range(start, stop, step):
        out[i] = b[i + 1] * 2.0


def mirror(out, b):
    n = len(b)
    for i in range(n):
        out[i] = b[n - 1 - i]


def mirror_from_one(b):
    s = 0.0
    n = b.shape[0]
    for i in range(1, n):
        s += b[n - i]
    return s


def mirror_past_the_end(b):
    s = 0.0
    for i in range(len(b)):
        s += b[len(b) - i]
    return s


def mirror_wraps(out, b):
    n = len(b)
    for i in range(n):
        out[i] = b[n - 2 - i]

