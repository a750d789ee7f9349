"""script: compile a statically typed subset of Python to native code.

    import script

    @script.script
    def collatz(n: int) -> int:
        ...

`import script` stays light: the decorator's dispatcher loads with it; the frontend, lark,
llvmlite and the CUDA path load when a function is first compiled, not before.
"""

from __future__ import annotations

import sys
import types as _types

from script.errors import CompileError, LoadError, VerifyError
from script.frontend.typeinfer import SizedType as _Sized
from script.ir import types as _T

from script.store import __version__  # noqa: F401  (a leaf: what saved modules record)


def prange(*args):
    """`range`, whose loop runs on all cores in a function compiled with ``parallel=True``
    (docs/parallel.md); elsewhere, and when Python runs it, a plain range."""
    return range(*args)


def set_num_threads(n: int) -> None:
    """Run prange loops of `parallel=True` functions on `n` threads (default: the CPUs this
    process may use, or $SCRIPT_NUM_THREADS). Results do not depend on it (docs/parallel.md)."""
    from script.backend.runtime.parallel import set_num_threads as set_
    set_(n)


def get_num_threads() -> int:
    """The number of threads prange loops run on."""
    from script.backend.runtime.parallel import get_num_threads as get
    return get()


from script.settings import config  # noqa: E402  (a leaf: script.cuda reads it too)

# The decorator's machinery is loaded with the package: every user decorates.
from script.dispatcher import Layers as _Layers, make_script_function as _make_script_function  # noqa: E402


# What the function objects (script.dispatcher) call in the layers above them, which import
# script.dispatcher: each module imported on the first call, as a cache hit needs no compiler.
def _lookup(*args, **kwargs):
    from script.cache import quick_lookup
    return quick_lookup(*args, **kwargs)


def _build(*args, **kwargs):
    from script.compiler import compile_specialization
    return compile_specialization(*args, **kwargs)


def _build_cached(*args, **kwargs):
    from script.cache import cached_specialization
    return cached_specialization(*args, **kwargs)


def _reduce_function(fn):
    from script.pickling import reduce_function
    return reduce_function(fn)


def _reduce_module(module):
    from script.pickling import reduce_module
    return reduce_module(module)


_Layers.lookup, _Layers.build, _Layers.build_cached = _lookup, _build, _build_cached
_Layers.reduce_function, _Layers.reduce_module = _reduce_function, _reduce_module

i8, i16, i32, i64 = (_Sized(t) for t in (_T.I8, _T.I16, _T.I32, _T.I64))
u8, u16, u32, u64 = (_Sized(t) for t in (_T.U8, _T.U16, _T.U32, _T.U64))
f32, f64 = _Sized(_T.F32), _Sized(_T.F64)
c64, c128 = _Sized(_T.C64), _Sized(_T.C128)
boolean = _Sized(_T.BOOL)


def script(fn=None, *, opt: int = 2, passes=None, cache: bool = False, boundscheck: bool = True,
           interruptible: bool = True, nogil: bool = True, fastmath: bool = False, parallel: bool = False,
           int_overflow: str = "python"):
    """Compile `fn` to native code.

    With every parameter annotated, the function is compiled when decorated; otherwise it is
    compiled on each call with a new tuple of argument types (one specialization each).
    `opt` (0-3) is the optimization level of script's own passes and LLVM's; `passes`
    restricts the IR passes to the named ones (for debugging). With `cache=True` compiled
    code is kept on disk and reused by later processes (see `script.cache`).
    `boundscheck=False` drops the check of array indices against the array's shape (an
    index out of bounds then reads or writes outside the array, as in C).
    `interruptible=False` leaves out the checks that let Ctrl-C (SIGINT) stop a running loop
    with KeyboardInterrupt (they cost under 2% on the benchmarks). `nogil=False` keeps the
    GIL during calls; by default a function with a loop or recursion runs without it, so
    other Python threads run meanwhile. `fastmath=True` lets LLVM reassociate float
    arithmetic and fuse multiply-adds, in this function and what it calls (float sums
    then vectorize; results may differ from CPython's in the last bits). Off by default:
    CPython's answers.
    `parallel=True` runs the function's `script.prange` (or `numba.prange`) loops on all
    cores (docs/parallel.md).
    `int_overflow`: what a call gives when Python's int result of its arithmetic leaves int64
    (or an int argument does not fit it). "python" (the default): CPython's answer, the call
    run again as plain Python, where the call changed nothing but objects it made (no
    argument written, nothing printed); an OverflowError otherwise. "raise": always the
    OverflowError (docs/integers.md).
    """
    if opt not in (0, 1, 2, 3):
        raise ValueError(f"opt must be 0, 1, 2 or 3, not {opt!r}")
    if int_overflow not in ("python", "raise"):
        raise ValueError(f"int_overflow must be 'python' or 'raise', not {int_overflow!r}")

    def wrap(f):
        given = f       # without the JIT, what was decorated (a functools.cache wrapper stays one)
        # (checked here, not through frontend/memo.py's cached_function, which imports ast: a
        # cache hit decorates too and imports nothing it need not, tests/test_loader.py)
        if type(f).__name__ == "_lru_cache_wrapper" and hasattr(getattr(f, "__wrapped__", None), "__code__"):
            f = f.__wrapped__       # functools.cache/lru_cache: memoized in compiled code (frontend/memo.py)
        elif (type(f).__module__ or "").startswith("numba") and hasattr(getattr(f, "py_func", None), "__code__"):
            f = f.py_func           # a numba.njit function: compiled from its source (frontend/numba_compat.py)
        if not callable(f) or not hasattr(f, "__code__"):
            raise TypeError(f"@script expects a Python function, not {type(f).__name__}")
        if config.disable_jit:
            return _python_function(given)
        return _make_script_function(f, opt=opt, passes=passes, cache=cache, boundscheck=boundscheck,
                                    interruptible=interruptible, nogil=nogil, fastmath=fastmath, parallel=parallel,
                                    int_overflow=int_overflow)

    return wrap if fn is None else wrap(fn)


def kernel(fn=None, *, arch: str | None = None, boundscheck: bool | None = None, opt: int = 2):
    """Compile `fn` as a CUDA kernel (`script.cuda` has its language and docs/cuda.md the
    details): ``k[grid, block](*args)`` runs it on the GPU when one is usable, else on the
    CPU; ``k.ptx()`` is its PTX for `arch` (default: the GPU's, else sm_80). `boundscheck`
    None checks array indices on the CPU path only."""
    if opt not in (0, 1, 2, 3):
        raise ValueError(f"opt must be 0, 1, 2 or 3, not {opt!r}")

    def wrap(f):
        if not callable(f) or not hasattr(f, "__code__"):
            raise TypeError(f"@script.kernel expects a Python function, not {type(f).__name__}")
        if config.disable_jit:
            from script.cuda.simulator import SimulatedKernel
            return SimulatedKernel(f)
        from script.cuda.kernel import Kernel
        return Kernel(f, arch=arch, boundscheck=boundscheck, opt=opt)

    return wrap if fn is None else wrap(fn)


def _python_function(f):
    """`f` itself when the JIT is disabled, with `f.py_func` naming it as a compiled
    function's does (where `f` takes attributes)."""
    if getattr(f, "py_func", None) is None:
        try:
            f.py_func = f
        except (AttributeError, TypeError):
            pass
    return f


def save(obj, path, signatures=None, key=None) -> None:
    """Write compiled functions (one, a list, or a dict name -> function) to the file `path`,
    to be loaded by `script.load` in another process without their source (`script.saved`),
    signed under `key` (default: the user's own key; script.saved_trust)."""
    from script.saved import save as save_
    save_(obj, path, signatures, key)


def load(path, trusted_keys=None, object_code=None):
    """The module `script.save` wrote at `path`: its attributes are the saved functions.
    Its object code runs only when signed under the user's key or one of `trusted_keys`, or
    with ``object_code=True``; otherwise its IR is compiled again. Raises `LoadError` when
    the file is not a valid saved module."""
    from script.saved import load as load_
    return load_(path, trusted_keys, object_code)


def grad(f, argnums=0):
    """The gradient of compiled function `f` (float result) with respect to its arguments
    `argnums`, as a compiled function: reverse mode on the IR (docs/grad.md)."""
    from script.autodiff import grad as grad_
    return grad_(f, argnums)


def value_and_grad(f, argnums=0):
    """As `grad`, returning ``(f(*args), gradient)``."""
    from script.autodiff import value_and_grad as value_and_grad_
    return value_and_grad_(f, argnums)


class _CallableModule(_types.ModuleType):
    """Lets `@script` be written for `@script.script`."""

    def __call__(self, fn=None, **kwargs):
        return script(fn, **kwargs)


sys.modules[__name__].__class__ = _CallableModule

__all__ = ["script", "kernel", "save", "load", "config", "grad", "value_and_grad", "CompileError", "LoadError",
           "VerifyError", "i8", "i16", "i32", "i64",
           "u8", "u16", "u32", "u64", "f32", "f64", "c64", "c128"]
