"""isinstance in compiled code (tests/test_gaps_isinstance.py)."""

import numbers

import numpy as np

import script

NUMBERS = (int, float)


def describe(x):
    if isinstance(x, bool):
        return 0
    if isinstance(x, int):
        return x + 1
    elif isinstance(x, float):
        return x * 2.0
    elif isinstance(x, np.ndarray):
        return x.sum() * 1.0        # only built for arrays
    elif isinstance(x, tuple):
        return len(x) * 1.0
    return -1


def queries(x):
    return (isinstance(x, bool), isinstance(x, int), isinstance(x, float), isinstance(x, (int, float)),
            isinstance(x, NUMBERS), isinstance(x, (tuple, (list, np.ndarray))), isinstance(x, numbers.Real),
            isinstance(x, numbers.Integral), isinstance(x, np.integer), isinstance(x, np.floating),
            isinstance(x, np.number), isinstance(x, np.generic), isinstance(x, int | None),
            isinstance(x, object), isinstance(x, list), isinstance(x, np.float32), isinstance(x, np.int32))


def element(a, i):
    # float64 elements are floats in CPython too (np.float64 subclasses float)
    x = a[i]
    return isinstance(x, float), isinstance(x, int), isinstance(x, (int, float)), isinstance(a, np.ndarray)


def negated(x):
    return 1 if not isinstance(x, float) and isinstance(x, int) else 2


def side_effect(a):
    # the first argument is evaluated: an index error is raised as in CPython
    return isinstance(a[5], float)


def none_result(x):
    y = None
    return isinstance(y, type(None)) if False else isinstance(x, float)


def bad_sized(x):
    return isinstance(x, script.i32)  # error: script.i32 is an annotation, not a class


def bad_spec(x):
    return isinstance(x, 3)  # error: isinstance() arg 2 must be a type


def bad_arity(x):
    return isinstance(x)  # error: isinstance expected 2 arguments, got 1


class Probe:
    def __init__(self, x):
        self.x = x

    def norm(self):
        return abs(self.x)


def attributes(x):
    # hasattr/getattr with constant names: decided when compiled, as isinstance is
    p = Probe(1.5)
    return (hasattr(x, "shape"), hasattr(x, "real"), hasattr(x, "bit_length"), hasattr(x, "count"),
            getattr(x, "real", None) is not None, hasattr(p, "x"), hasattr(p, "y"), hasattr(p, "norm"),
            getattr(p, "x"), getattr(p, "y", -1.0))
