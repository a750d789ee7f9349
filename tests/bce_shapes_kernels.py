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



def binned(counts, x, lo, scale):
    """`0 <= b < n` tested before `counts[b]`: the index check is decided by the branch."""
    n = counts.shape[0]
    for i in range(x.shape[0]):
        b = int((x[i] - lo) * scale)
        if 0 <= b < n:
            counts[b] += 1
    return counts


def below_only(counts, idx):
    """Only `b < n` tested: a negative b still wraps (NumPy) or fails at -n - 1."""
    n = counts.shape[0]
    for k in range(idx.shape[0]):
        b = idx[k]
        if b < n:
            counts[b] += k
        else:
            counts[0] -= 1
    return counts


def else_side(out, idx, m):
    """The false edge: `if b >= m: ... else: out[b]` with m the length; a negative b reaches
    the else side too."""
    for k in range(idx.shape[0]):
        b = idx[k]
        if b >= m or b < 0:
            out[0] += 1.0
        else:
            out[b] = out[b] * 2.0 + k
    return out


def nan_guard(out, x):
    """Of floats, `not (x < 1.0)` is not `x >= 1.0` (NaN): the second test stays."""
    for k in range(x.shape[0]):
        if x[k] < 1.0:
            out[k] = 1.0
        elif x[k] >= 1.0:
            out[k] = 2.0
        else:
            out[k] = 3.0
    return out
