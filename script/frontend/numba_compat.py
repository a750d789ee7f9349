"""Code written for Numba, compiled as it is: `numba.prange` is `script.prange` (a range
whose loop runs on all cores when the function is compiled with ``parallel=True``: the
frontend names its header ir.parallel's PRANGE_HEAD, ir.parallel outlines it), and a function decorated with `numba.njit` /
`numba.jit` that compiled code calls is compiled from its Python source (`py_func`), as a
plain function is. Numba itself is never imported here: only objects the user's module
already holds are recognized."""

from __future__ import annotations

import types


def is_numba_object(obj, name: str) -> bool:
    """Whether `obj` is Numba's object called `name` (its class's or its own name)."""
    module = getattr(type(obj), "__module__", "") or ""
    if not module.startswith("numba"):
        module = getattr(obj, "__module__", "") or ""
    return module.startswith("numba") and name in (getattr(obj, "__name__", None), type(obj).__name__)


def is_prange(obj) -> bool:
    """Whether `obj` is `script.prange` or Numba's `prange` (known by its module and name: the
    frontend does not import the package above it, tests/test_import_graph.py)."""
    return (getattr(obj, "__module__", None) == "script"
            and getattr(obj, "__qualname__", None) == "prange") or is_numba_object(obj, "prange")


def numba_python_function(obj):
    """The Python function a Numba dispatcher (`@njit`, `@jit`, `@vectorize` aside) wraps,
    else None."""
    if not (getattr(type(obj), "__module__", "") or "").startswith("numba"):
        return None
    fn = getattr(obj, "py_func", None)
    return fn if isinstance(fn, types.FunctionType) else None
