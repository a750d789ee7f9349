"""Differential testing: run a function in CPython and compiled, compare results and errors."""

from __future__ import annotations

import copy
import enum
import math

import script


def outcome(fn, args):
    try:
        return ("ok", fn(*args))
    except Exception as e:  # noqa: BLE001 - every exception is part of the behaviour
        return ("raise", type(e), str(e))


def _is_array(v) -> bool:
    return type(v).__name__ == "ndarray"


def same_array(a, b, approx: bool = False) -> bool:
    """Same dtype, shape and elements (NaN equal to NaN; `approx`: up to a few ulps)."""
    import numpy as np
    if not (_is_array(a) and _is_array(b)) or a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind == "c":           # part by part, as floats
        return same_array(a.real.copy(), b.real.copy(), approx) and same_array(a.imag.copy(), b.imag.copy(), approx)
    if a.dtype.kind == "f":
        if approx:
            rtol = 1e-12 if a.dtype.itemsize == 8 else 1e-6      # libm vs NumPy's own: a few ulps
            return bool(np.allclose(a, b, rtol=rtol, atol=rtol * 1e-2, equal_nan=True))
        signs = (np.signbit(a) == np.signbit(b)) | np.isnan(a)     # signed zeros, not NaN's sign
        return bool(np.array_equal(a, b, equal_nan=True)) and bool(np.all(signs))
    return bool(np.array_equal(a, b))


def same_value(a, b) -> bool:
    if _is_array(a) or _is_array(b):
        return same_array(a, b)
    # NumPy scalars (what indexing an array gives in CPython) compare as the Python scalars
    # compiled code returns.
    a, b = _python_scalar(a), _python_scalar(b)
    if isinstance(a, list) or isinstance(b, list):
        return type(a) is type(b) and len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, complex) or isinstance(b, complex):       # part by part, as floats
        return type(a) is type(b) and same_value(a.real, b.real) and same_value(a.imag, b.imag)
    if isinstance(a, float) or isinstance(b, float):
        if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
            return False
        a, b = float(a), float(b)
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return type(a) is type(b) and a == b


def same_typed(a, b) -> bool:
    """`same_value`, and of the same types all the way down (same_value takes 1 for 1.0);
    enum members the very same object."""
    if isinstance(a, enum.Enum) or isinstance(b, enum.Enum):
        return a is b
    if isinstance(a, (tuple, list)):
        return type(a) is type(b) and len(a) == len(b) and all(same_typed(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return type(a) is type(b) and same_typed(list(a.items()), list(b.items()))
    return type(a) is type(b) and same_value(a, b)


def check_typed(fn, *args, same=same_typed):
    """Assert that `fn` compiled at opt=0 and at the default level gives CPython's outcome:
    values `same` (by default of the same types all the way down), exceptions of the same
    type and message; each run gets its own deep copy of `args`."""
    want = outcome(fn, copy.deepcopy(args))
    for got in (outcome(compiled(fn, opt=0), copy.deepcopy(args)), outcome(compiled(fn), copy.deepcopy(args))):
        if want[0] == "ok" and got[0] == "ok":
            assert same(want[1], got[1]), f"{fn.__name__}{args}: CPython {want[1]!r}, compiled {got[1]!r}"
        else:
            assert want == got, f"{fn.__name__}{args}: CPython {want}, compiled {got}"


def _python_scalar(v):
    return v.item() if type(v).__module__ == "numpy" and hasattr(v, "item") and not hasattr(v, "shape") or (
        type(v).__module__ == "numpy" and getattr(v, "shape", None) == ()) else v


def _has_list(v) -> bool:
    if isinstance(v, tuple):
        return any(_has_list(x) for x in v)
    return type(v) is list


def _has_complex(v) -> bool:
    if isinstance(v, tuple):
        return any(_has_complex(x) for x in v)
    return isinstance(v, complex)


def close_value(a, b, rel=1e-13) -> bool:
    """Equal up to a few ulps: for functions whose libm result CPython computes its own way."""
    if isinstance(a, (tuple, list)):
        return type(b) is type(a) and len(a) == len(b) and all(close_value(x, y, rel) for x, y in zip(a, b))
    if _is_array(a) or _is_array(b):
        return same_array(a, b, approx=True)
    a, b = _python_scalar(a), _python_scalar(b)   # np.float32(-0.0) as a float: NumPy's SIMD
    # max of 0.0 and -0.0 may be either
    if isinstance(a, complex) and isinstance(b, complex):
        return close_value(a.real, b.real, rel) and close_value(a.imag, b.imag, rel)
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b) or math.isinf(a) or math.isinf(b):
            return same_value(a, b)
        return math.isclose(a, b, rel_tol=rel, abs_tol=1e-14)
    return same_value(a, b)


def check(py_fn, compiled, *args, approx: bool = False):
    """Assert that `compiled(*args)` behaves exactly as `py_fn(*args)`; array and list
    arguments are copied for each run (lists deeply, keeping which lists are the same
    object), and what each run leaves in them must agree too."""
    py_args = tuple(a.copy() if _is_array(a) else a for a in args)
    if any(_has_list(a) for a in args):
        py_args = copy.deepcopy(args)
        args = copy.deepcopy(args)
    want = outcome(py_fn, py_args)
    got = outcome(compiled, args)
    for x, y in zip(py_args, args):
        if _is_array(x):
            assert (close_value(x, y) if approx else same_array(x, y)), \
                f"{py_fn.__name__}: arguments after the call differ: CPython {x!r}, compiled {y!r}"
        elif _has_list(x):
            assert (close_value(x, y) if approx else same_value(x, y)), \
                f"{py_fn.__name__}: list arguments after the call differ: CPython {x!r}, compiled {y!r}"
    complex_overflow = want[0] == "raise" and want[2] == "complex exponentiation"
    if (want[0] == "ok" and _has_complex(want[1]) or complex_overflow) and not _has_complex(args) \
            and not (got[0] == "ok" and _has_complex(got[1])):
        # Documented difference: a negative float to a fractional power is complex in CPython;
        # compiled code raises ValueError instead.
        assert got[0] == "raise" and got[1] is ValueError, f"{py_fn.__name__}{args}: {got}"
        return got
    if want[0] == "ok" and got[0] == "ok":
        ok = close_value(want[1], got[1]) if approx else same_value(want[1], got[1])
        assert ok, f"{py_fn.__name__}{args}: CPython {want[1]!r}, compiled {got[1]!r}"
    else:
        assert want == got, f"{py_fn.__name__}{args}: CPython {want}, compiled {got}"
    return got


_cache = {}


def compiled(py_fn, **options):
    key = (py_fn, tuple(sorted(options.items())))
    if key not in _cache:
        _cache[key] = script.script(py_fn, **options)
    return _cache[key]


def check_all_levels(py_fn, *args, approx: bool = False):
    """Compare CPython with the compiled function at opt=0 and at the default level."""
    check(py_fn, compiled(py_fn, opt=0), *args, approx=approx)
    return check(py_fn, compiled(py_fn), *args, approx=approx)


def compile_snippet(tmp_path, filename: str, source: str, name: str = "f"):
    """`name` from `source`, written to `filename` under `tmp_path` (so that errors can
    point at its lines), compiled."""
    path = tmp_path / filename
    path.write_text(source)
    ns = {}
    exec(compile(source, str(path), "exec"), ns)
    return script.script(ns[name])


def run_child(code: str, *argv: str, **env) -> str:
    """The standard output of `code` run by a new Python in the repository root (tests on
    the path: ``sys.path.insert(0, "tests")``), with `env` added; its failure fails the test."""
    import os
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=root, **env), cwd=root)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    return out.stdout
