"""Run one generated program in CPython and compiled (opt=0 and the default level) and say
whether they agree.

`run_program(source, workdir)` returns a verdict, a dict with `status`:

- "agree": every input that was not discarded gave the same result (floats exactly, NaN
  equal to NaN, the sign of zero counted), or the same exception type and message, and left
  the argument arrays with the same contents;
- "mismatch": some input did not (`detail` says which, and both outcomes);
- "compile_error": the compiler raised `CompileError` (a compiler gap, or a generator bug);
- "internal_error": an exception escaped from inside the compiler (frontend, IR, backend);
- "generator_error": the program is not valid Python of the subset (CPython itself raised
  TypeError or NameError, or the source does not parse);
- "skipped": every input was discarded by reference.py (int64 overflow and the like).

Crashes and hangs cannot be seen from inside; the worker's parent records those.
"""

from __future__ import annotations

import copy
import importlib.util
import math
import os
import re
import sys
import traceback

import numpy as np

import script
from script.errors import CompileError

from ..difftest import _python_scalar, same_value
from .reference import (ComplexResult, Discard, arrays_before_part_way, instrument, raised_marker,
                        watch_arguments)

SCRIPT_DIR = os.path.dirname(os.path.abspath(script.__file__))
LEVELS = (("opt=0", {"opt": 0}), ("default", {}))


class CompilerProblem(Exception):
    def __init__(self, status: str, error: BaseException):
        self.status = status
        self.error = error
        super().__init__(f"{status}: {type(error).__name__}: {error}")


def _from_compiler(e: BaseException) -> bool:
    """Whether `e` was raised by the compiler (its last frame is in script/, outside the
    dispatcher through which compiled code's own exceptions pass)."""
    frames = traceback.extract_tb(e.__traceback__)
    if not frames:
        return False
    last = os.path.abspath(frames[-1].filename)
    return last.startswith(SCRIPT_DIR + os.sep) and os.path.basename(last) != "dispatcher.py"


def _snapshot(args) -> list:
    """The arguments a call may write: arrays, and lists, dicts and sets (compiled code
    writes those back to the caller's objects)."""
    return [a.copy() if isinstance(a, np.ndarray) else copy.deepcopy(a) for a in args
            if isinstance(a, (np.ndarray, list, dict, set))]


def _outcome(fn, args, reference: bool):
    try:
        result = ("ok", fn(*args))
    except (Discard, ComplexResult):
        raise
    except CompileError as e:
        raise CompilerProblem("compile_error", e) from None
    except Exception as e:  # noqa: BLE001 - every exception is part of the behaviour
        if not reference and _from_compiler(e):
            raise CompilerProblem("internal_error", e) from None
        result = ("raise", type(e).__name__, str(e))
    if reference and raised_marker() is not None:
        raise raised_marker()()          # one a `finally:` swallowed still stops the reference
    return result, _snapshot(args)


def same_array(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal elements (NaN equal to NaN, zeros' signs counted), floats within 2 ulps: NumPy's
    SIMD kernels (`power`, and the transcendentals) on CPUs with AVX-512 are that far off the
    correctly rounded result (libm's, for float64) compiled code gives."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind != "f":
        return bool(np.array_equal(a, b))
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    x, y = a[~nan_a], b[~nan_b]
    if not (np.array_equal(nan_a, nan_b) and np.array_equal(np.signbit(x), np.signbit(y))):
        return False
    if np.array_equal(np.isinf(x), np.isinf(y)):
        finite = np.isfinite(x)
        ulp = np.spacing(np.maximum(np.abs(x[finite]), np.abs(y[finite])))
        return bool(np.array_equal(x[~finite], y[~finite]) and np.all(np.abs(x[finite] - y[finite]) <= 2 * ulp))
    return False


APPROX_REL = 1e-5          # a few float32 ulps; float64 values from exp/log/tanh, BLAS products
APPROX_ABS = 1e-9          # and sums in another order are much closer than this


def close_array(a: np.ndarray, b: np.ndarray) -> bool:
    """Same dtype, shape, NaNs and infinities; finite floats within APPROX_REL."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind != "f":
        return bool(np.array_equal(a, b))
    return bool(np.allclose(a, b, rtol=APPROX_REL, atol=APPROX_ABS, equal_nan=True)
                and np.array_equal(np.isinf(a), np.isinf(b)))


def _same_container(a, b, same) -> bool | None:
    """Containers compared with `same` item by item, of the same types all the way down (an
    int is not a float inside a list, as it is not at the top: `[1.5, 3]` is not
    `[1.5, 3.0]`); a dict's items in order, a set's elements by their reprs (its order is
    compared where a program iterates it). None when `a` and `b` are not containers."""
    if isinstance(a, (tuple, list, dict, set)) or isinstance(b, (tuple, list, dict, set)):
        if type(a) is not type(b) or len(a) != len(b):
            return False
        if isinstance(a, dict):
            return all(same(ka, kb) and same(va, vb) for (ka, va), (kb, vb) in zip(a.items(), b.items()))
        if isinstance(a, set):
            return sorted(map(repr, a)) == sorted(map(repr, b))
        return all(map(same, a, b))
    return None


def same_result(a, b) -> bool:
    """`difftest.same_value`, with arrays (also inside tuples) compared by `same_array`, and
    containers by `_same_container`."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and same_array(a, b)
    container = _same_container(a, b, same_result)
    if container is not None:
        return container
    a, b = _python_scalar(a), _python_scalar(b)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and type(a) is not type(b):
        return False                # bools too: True is not 1
    return same_value(a, b)


def close_value(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and close_array(a, b)
    container = _same_container(a, b, close_value)
    if container is not None:
        return container
    if type(a) is float and type(b) is float and math.isfinite(a) and math.isfinite(b):
        return math.isclose(a, b, rel_tol=APPROX_REL, abs_tol=APPROX_ABS)
    return same_value(a, b)


# The one error raised part way through an element-wise loop (docs/arrays.md): which elements
# it leaves written follows NumPy's iteration order there (memory order: negative strides
# flipped, axes ordered by stride), index order in compiled code, a documented difference.
PART_WAY_ERROR = ("raise", "ValueError", "Integers to negative integer powers are not allowed.")


def same_outcome(want, got, approx: bool = False, before: list | None = None) -> bool:
    """Exactly the same (NaN equal to NaN, zeros' signs counted), or with `approx` floats
    within a few ulps (the program's APPROX: see arrays.py). `before`: the argument arrays
    as the failing statement found them (reference.py records them; else as the call did);
    after a PART_WAY_ERROR in both, an element may differ where one side left it as it was
    there (written in one order and not yet in the other)."""
    (w, w_arrays), (g, g_arrays) = want, got
    if len(w_arrays) != len(g_arrays):
        return False
    if before is not None and w == PART_WAY_ERROR and g == PART_WAY_ERROR:
        return all(map(_written_or_not, w_arrays, g_arrays, before))
    if not all(_same_argument(a, b, approx) for a, b in zip(w_arrays, g_arrays)):
        return False
    if w[0] == "complex":
        return g[0] == "raise" and g[1] == "ValueError"
    if w[0] == "ok" and g[0] == "ok":
        return close_value(w[1], g[1]) if approx else same_result(w[1], g[1])
    return w == g


def _same_argument(a, b, approx: bool) -> bool:
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return close_array(a, b) if approx else same_array(a, b)
    return close_value(a, b) if approx else same_result(a, b)


def _written_or_not(a: np.ndarray, b: np.ndarray, old: np.ndarray) -> bool:
    """`a` and `b` equal (as `same_array`) except where one of them still holds `old`'s
    element."""
    if not isinstance(a, np.ndarray):
        return same_result(a, b)
    if a.shape != b.shape or a.dtype != b.dtype or old.shape != a.shape:
        return False
    if a.dtype.kind == "f":
        return same_array(a, b)         # the error is an integer power's: float arrays unchanged
    return bool(np.all((a == b) | (a == old) | (b == old)))


def _describe(outcome) -> str:
    result, arrays = outcome
    text = repr(result)
    if arrays:
        text += " arrays " + " ".join(np.array2string(a, threshold=30) if isinstance(a, np.ndarray)
                                      else repr(a) for a in arrays)
    return text


def load_module(source: str, path: str, module_name: str):
    with open(path, "w") as f:
        f.write(source)
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


# Failures already understood and reported, but not fixed yet: (status, pattern in the
# detail, why). They are counted apart ("known") so that a run still finds new ones.
KNOWN = (
    ("compile_error", r"is read before any assignment",
     "the compiler rejects a read that no assignment reaches, where CPython raises "
     "UnboundLocalError only if the line runs"),
    ("compile_error", r"range\(\) arg 3 must not be zero",
     "a step that folds to 0 is a compile-time error, where CPython raises ValueError only if "
     "the loop runs"),
    ("mismatch", r"CPython \('complex',\)( arrays [\s\S]*?)?, compiled \('(ok|raise)'",
     "a negative number to a fractional power is complex in CPython and a ValueError compiled "
     "(docs: differences by design); an `except` that catches the ValueError hides it, and "
     "what the program does next (returns, or raises another error) has no CPython answer"),
    ("mismatch", r"CPython \('raise', 'ValueError', 'Integers to negative integer powers are not allowed\.'\) "
                 r"arrays [\s\S]*compiled \('raise', 'ValueError', 'Integers to negative integer powers",
     "an int array power that raises part way through a non-contiguous array: NumPy's buffered "
     "loop copies its whole buffer back, elements it never computed included (uninitialized "
     "memory: pointer-like values, different each run), which PART_WAY_ERROR's written-or-not "
     "allowance cannot match; compiled code leaves them as they were"),
    ("compile_error", r"(lists of|sets with|dicts with|of elements of type) \? |types list\[\?\]|sets of \S+ and \S+ cannot be combined",
     "an empty container whose element type nothing near it gives (`sorted([])`, `set([])`, "
     "`reversed([])`, a comprehension whose condition folds to False, `set()` beside a set "
     "of strs) is a CompileError; CPython needs no element type for it"),
    ("compile_error", r"is an int on some paths and a float on others, and compiled code cannot use such a value here",
     "an int|float value computed inside a statement after a call (docs/differences.md: "
     "refused, assign it to a variable first)"),
    ("compile_error", r"integer constant expression .* does not fit in 64 bits",
     "an int constant expression beyond 64 bits is a compile-time error (compiled ints are "
     "int64, docs/integers.md), where CPython computes it only if the line runs"),
)


def classify(verdict: dict) -> dict:
    """`verdict` with status "known" (and `known`, the reason) when it matches KNOWN."""
    detail = verdict.get("detail", "")
    for status, pattern, why in KNOWN:
        if verdict["status"] == status and re.search(pattern, detail) or (
                # the same compile error, met by the dispatcher trying an argument's types
                status == "compile_error" and verdict["status"] == "mismatch"
                and re.search(r"compiled \('raise', 'TypeError', .main\(\) got arguments .* it fails: .*"
                              + pattern, detail)):
            return {**verdict, "status": "known", "known": why, "was": verdict["status"]}
    return verdict


def run_program(source: str, workdir: str, tag: str = "prog") -> dict:
    path = os.path.join(workdir, f"{tag}.py")
    module_name = f"fuzzprog_{tag}"
    try:
        try:
            module = load_module(source, path, module_name)
            ref = instrument(source, path)
        except SyntaxError as e:
            return {"status": "generator_error", "detail": f"SyntaxError: {e}"}
        return classify(_compare(module, ref))
    finally:
        sys.modules.pop(module_name, None)


def _compare(module, ref) -> dict:
    compiled = [(level, script.script(module.main, **options)) for level, options in LEVELS]
    approx = bool(getattr(module, "APPROX", False))
    ran = skipped = 0
    n_inputs = len(module.inputs())
    for k in range(n_inputs):
        try:
            with np.errstate(all="ignore"):   # NumPy warns where compiled code cannot
                args = ref["inputs"]()[k]
                watch_arguments(args)
                want = _outcome(ref["main"], args, reference=True)
        except Discard:
            skipped += 1
            continue
        except ComplexResult:
            want = (("complex",), _snapshot(ref["inputs"]()[k]))
            want = _complex_outcome(ref, k)
        if want[0][0] == "raise" and want[0][1] in ("TypeError", "NameError", "AttributeError"):
            return {"status": "generator_error", "detail": f"input {k}: CPython {want[0]}"}
        ran += 1
        # an in-place int power that raised part way: the arrays as that statement found them
        before = arrays_before_part_way() if want[0] == PART_WAY_ERROR else None
        before = before if before is not None else _snapshot(module.inputs()[k])
        for level, fn in compiled:
            try:
                got = _outcome(fn, module.inputs()[k], reference=False)
            except CompilerProblem as p:
                return {"status": p.status, "detail": f"{level}: {type(p.error).__name__}: {p.error}",
                        "error": type(p.error).__name__}
            if not same_outcome(want, got, approx, before):
                return {"status": "mismatch", "detail": f"input {k}, {level}: CPython "
                        f"{_describe(want)}, compiled {_describe(got)}"}
    if ran == 0:
        return {"status": "skipped", "detail": f"{skipped} inputs discarded"}
    return {"status": "agree", "ran": ran, "skipped": skipped}


def _complex_outcome(ref, k):
    """The reference outcome when CPython made a complex number: ValueError expected, with
    the arrays as they were when it happened."""
    args = ref["inputs"]()[k]
    watch_arguments(args)
    try:
        ref["main"](*args)
    except (ComplexResult, Exception):    # (the program's own, where a `finally:` swallowed it)
        pass
    return ("complex",), _snapshot(args)


__all__ = ["run_program", "same_outcome", "same_array", "LEVELS", "math"]
