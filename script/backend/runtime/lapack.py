"""The LAPACK routines compiled code's `lapack` op calls (llvm.lapack): SciPy's, else NumPy's.

Each routine of `script.ir.ops.LAPACK_ROUTINES` gets one pointer-sized cell, the symbol
``script.lapack.<routine>``, holding the address of a routine with the 64-bit-integer Fortran
interface llvm.lapack calls, or NULL (compiled code then raises RuntimeError naming the NumPy
function). Where the address comes from: NumPy's own library where it has the routines (the
bits np.linalg gives: SciPy's OpenBLAS, another build, may round differently: an inverse's
entry of -1.5e-16 where NumPy's is 0.0), else SciPy's (``SCRIPT_LAPACK=scipy``, ``numpy`` or
``none`` forces one source, for tests; ``SCRIPT_NO_BLAS=1`` is ``none``):

1. SciPy (when installed and NumPy's library lacks the routines: a NumPy built against MKL): ``scipy.linalg.cython_lapack`` and ``cython_blas`` export every
   routine as a PyCapsule in ``__pyx_capi__`` (what Numba uses), whatever BLAS SciPy was built
   with (OpenBLAS, MKL, Accelerate). Their INTEGERs are 32-bit, so the cell holds an adapter
   (`_adapters`, LLVM IR compiled once per process) with the 64-bit interface: it narrows
   each INTEGER argument into a temporary, calls SciPy's routine, widens INFO and the INTEGER
   outputs compiled code reads (dgetrf's IPIV, dgelsd's RANK, the optimal LIWORK a workspace
   query leaves in IWORK(1)) in place, and gives INFO = LAPACK_MISSING without calling
   anything when an argument does not fit 32 bits. (The BLAS routines have no INFO: the
   library code calls ?gemm only on the factors of a decomposition that passed that test.)
2. (first) NumPy's wheels bundle OpenBLAS built with 64-bit integers, LAPACK included, in
   ``numpy.libs`` (runtime.blas finds the library; ``SCRIPT_NO_BLAS=1`` hides it): the
   routine under a name of the 64-bit interface (``scipy_dsyevd_64_``, ``dsyevd_64_``). A
   routine with 32-bit integers found under another name is never called with 64-bit ones.
"""

from __future__ import annotations

import ctypes
import functools
import os

PREFIX = "script.lapack."               # llvm.lapack's symbol of routine R: PREFIX + R

# The INTEGER outputs that compiled code reads, by argument position, as a count of elements:
# an int, or a pair of positions whose smaller INTEGER argument is the count.
_INT_OUTPUTS = {
    "dsyevd": {8: 1},                   # IWORK(1): the optimal LIWORK of a query
    "dgesdd": {12: 0},                  # IWORK: workspace only
    "dgelsd": {9: 1, 12: 1},            # RANK; IWORK(1) of a query
    "dgetrf": {4: (0, 1)},              # IPIV: min(M, N)
}


@functools.cache
def addresses() -> dict[str, int]:
    """``script.lapack.<routine>`` -> the address of its cell, for every known routine."""
    from script.ir.ops import LAPACK_ROUTINES
    out = {}
    found = routines()
    for name in LAPACK_ROUTINES:
        cell = ctypes.c_void_p(found.get(name))
        _cells.append(cell)
        out[PREFIX + name] = ctypes.addressof(cell)
    return out


_cells: list = []                       # keeps the cells alive for the process


def available(name: str) -> bool:
    """Whether routine `name` was found (what compiled code will call)."""
    return routines().get(name) is not None


@functools.cache
def routines() -> dict:
    """Routine name -> the address compiled code calls (64-bit interface) or None."""
    from script.ir.ops import LAPACK_ROUTINES
    source = source_name()
    if source == "scipy":
        return _adapters(_scipy_routines())
    if source == "numpy":
        return _numpy_routines()
    return {}


@functools.cache
def source_name() -> str:
    """Where the routines come from: "scipy", "numpy" or "none" (see the module doc)."""
    forced = os.environ.get("SCRIPT_LAPACK", "").lower()
    if forced in ("scipy", "numpy", "none"):
        return forced
    if os.environ.get("SCRIPT_NO_BLAS"):
        return "none"
    if _numpy_routines().get("dgesv") is not None:
        return "numpy"          # NumPy's own library: np.linalg's bits (SciPy's may differ)
    return "scipy" if _scipy_routines() else "numpy"


@functools.cache
def _numpy_routines() -> dict:
    from script.backend.runtime import blas
    from script.ir.ops import LAPACK_ROUTINES
    return {name: blas._find((f"scipy_{name}_64_", f"{name}_64_")) for name in LAPACK_ROUTINES}


@functools.cache
def _scipy_routines() -> dict[str, int]:
    """SciPy's routines (32-bit INTEGERs) by name, from the capsules; empty without SciPy."""
    from script.ir.ops import LAPACK_ROUTINES
    try:
        from scipy.linalg import cython_blas, cython_lapack
    except ImportError:
        return {}
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype, get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype, get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    out = {}
    for name in LAPACK_ROUTINES:
        capsule = cython_lapack.__pyx_capi__.get(name) or cython_blas.__pyx_capi__.get(name)
        if capsule is not None:
            out[name] = get_pointer(capsule, get_name(capsule))
    return out


def _adapters(targets: dict[str, int]) -> dict[str, int]:
    """For each routine of `targets` (32-bit INTEGERs), the address of its 64-bit adapter."""
    if not targets:
        return {}
    from script.backend.llvm.builder import NativeModule
    from script.backend.llvm.jit import get_jit
    jit = get_jit()
    m = NativeModule("script.lapack_adapters", jit.triple, jit.data_layout)
    names = {name: build_adapter(m, name, address) for name, address in targets.items()}
    mod = jit.parse(m.text())
    jit.optimize(mod, 2)
    tracker = jit.link([jit.emit_object(mod)], list(names.values()))
    _trackers.append(tracker)
    return {name: tracker[symbol] for name, symbol in names.items()}


_trackers: list = []                    # keeps the adapters loaded for the process


def build_adapter(m, routine: str, address: int) -> str:
    """Define ``script.lapack32.<routine>`` in `m`: the 64-bit interface of `routine` over
    the 32-bit routine at `address` (see the module doc). Returns its name."""
    from script.backend.llvm.builder import Builder, Callee, int_const
    from script.ir.ops import LAPACK_MISSING, LAPACK_NO_INFO, LAPACK_ROUTINES
    sig = LAPACK_ROUTINES[routine]
    has_info = routine not in LAPACK_NO_INFO
    nchars = sig.count("c")
    name = "script.lapack32." + routine
    fn = m.new_function(name, "void", ["ptr"] * (len(sig) + has_info) + ["i64"] * nchars,
                        linkage="external")
    b = Builder(fn, fn.append_block("entry"))
    args = fn.args[:len(sig)]
    info = fn.args[len(sig)] if has_info else None
    refs, fits = [], int_const("i1", 1)
    ints = {}
    for k, (letter, arg) in enumerate(zip(sig, args)):
        if letter != "i":
            refs.append(arg)
            continue
        value = ints[k] = b.load("i64", arg)
        fits = b.and_(fits, b.icmp("eq", b.sext(b.trunc(value, "i32"), "i64"), value))
        slot = b.alloca("i32")
        b.store(b.trunc(value, "i32"), slot)
        refs.append(slot)
    call, refuse = fn.append_block("call"), fn.append_block("too_large")
    b.cbranch(fits, call, refuse)
    b.position_at_end(refuse)
    if info is not None:
        b.store(int_const("i64", LAPACK_MISSING), info)
    b.ret_void()
    b.position_at_end(call)
    info32 = b.alloca("i32")
    b.store(int_const("i32", 0), info32)
    target = b.inttoptr(int_const("i64", address), "ptr")
    callee = Callee(target.ref, "void", ["ptr"] * (len(refs) + has_info) + ["i64"] * nchars)
    b.call(callee, refs + [info32] * has_info + list(fn.args[len(sig) + has_info:]))
    for k, count in _INT_OUTPUTS.get(routine, {}).items():
        if isinstance(count, tuple):
            x, y = (ints[j] for j in count)
            n = b.select(b.icmp("slt", x, y), x, y)
        else:
            n = int_const("i64", count)
        _widen(fn, b, args[k], n)
    if info is not None:
        b.store(b.sext(b.load("i32", info32), "i64"), info)
    b.ret_void()
    return name


def _widen(fn, b, array, n) -> None:
    """The first `n` int32 elements of `array` as int64 elements, in place, from the last
    (element k moves to bytes 8k..8k+8, which hold only elements k and above)."""
    from script.backend.llvm.builder import int_const
    head, body, done = fn.append_block("widen"), fn.append_block("widen_body"), fn.append_block("widened")
    start = b.block
    b.branch(head)
    b.position_at_end(head)
    k = b.phi("i64")
    k.add_incoming(n, start)
    b.cbranch(b.icmp("sgt", k, int_const("i64", 0)), body, done)
    b.position_at_end(body)
    j = b.sub(k, int_const("i64", 1))
    value = b.load("i32", b.gep("i32", array, j))
    b.store(b.sext(value, "i64"), b.gep("i64", array, j))
    k.add_incoming(j, body)
    b.branch(head)
    b.position_at_end(done)
