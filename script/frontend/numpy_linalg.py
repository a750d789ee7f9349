"""Products of arrays in compiled code: `np.dot`, `a.dot(b)`, `np.matmul` and the `@` operator
on 1-d and 2-d arrays (vector . vector, matrix . vector, vector . matrix, matrix . matrix).

Functions over the lowering `cx` (numpy_reduce's `call_kernel` does the loops). Large
float products of one dtype go to NumPy's own BLAS when the process has it (`with_blas`, the
`gemm` op); the loops are numpy_kernels': a matrix product runs in i-k-j order over a C-contiguous
result, so its inner loop walks a row of the result and of the right operand and vectorizes.
Operands that are not C-contiguous are copied first for the matrix forms' loops (an O(n^2) copy
for O(n^3) work); BLAS reads a Fortran-contiguous matrix (a transpose, `x.T @ v`) in place, and
a vector . vector product reads them in place.

Result dtypes are NumPy's: the promotion of the two dtypes, bool for two bool arrays (any
pair of both-true elements); integers wrap in their own width, as NumPy's do. Float results
agree with NumPy's (whose BLAS adds in its own order) up to rounding. A length mismatch
raises NumPy's ValueError: ``shapes (3,) and (4,) not aligned: 3 (dim 0) != 4 (dim 0)`` for
`np.dot`, the gufunc's message for `@` and `np.matmul`.
"""

from __future__ import annotations

import ast

from script.frontend import builtins_lowering, elementwise, numpy_alloc, numpy_reduce
from script.lib.numpy import numpy_kernels
from script.frontend.elementwise import ArrayExpr, shape_format
from script.frontend.registry import BINOPS, CALLS, METHODS, numpy_function
from script.frontend.unknown import UNKNOWN, Undef, Unknown
from script.ir import types as T
from script.ir.core import Const, Value

_MATMUL_MISMATCH = ("matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                    "signature (n?,k),(k,m?)->(n?,m?) (size %lld is different from %lld)")


def product_type(a: T.Type, b: T.Type) -> T.Type:
    if isinstance(a, T.BoolType) and isinstance(b, T.BoolType):
        return T.BOOL
    return T.promote(a, b)


def np_dot(cx, node, name):
    a, b = numpy_alloc.np_args(cx, node, name, ("a", "b"), 2)
    return product(cx, *_array_likes(cx, a, b), "dot", node)


def np_matmul(cx, node, name):
    a, b = numpy_alloc.np_args(cx, node, name, ("x1", "x2"), 2)
    return product(cx, *_array_likes(cx, a, b), "matmul", node)


def method_dot(cx, arr, node):
    (b,) = numpy_alloc.np_args(cx, node, "dot", ("b",), 1)
    return product(cx, arr, numpy_reduce.array_like(cx, cx.expr(b), b), "dot", node)


def _array_likes(cx, *nodes) -> list:
    """The arrays of the argument nodes, lists of numbers made arrays (np.asarray), each
    evaluated in turn."""
    return [numpy_reduce.array_like(cx, cx.expr(n), n) for n in nodes]


def matmul(cx, a: Value, b: Value, node) -> Value:
    """`a @ b` (the hook lower_expr's `binop` calls when an operand is an array)."""
    return product(cx, a, b, "matmul", node)


def product(cx, a: Value, b: Value, how: str, node) -> Value:
    if isinstance(a.type, Unknown) or isinstance(b.type, Unknown):
        return Undef(UNKNOWN, cx.loc(node))
    what = f"numpy.{how}()" if isinstance(node, ast.Call) else "operator @"
    for v in (a, b):
        if not isinstance(v.type, T.ArrayType):
            cx.error(f"{what} of {a.type} and {b.type} is not supported in compiled code (it "
                     "takes two arrays; scale by a scalar with *)", node)
    if max(a.type.ndim, b.type.ndim) > 2:
        if how != "matmul":
            cx.error(f"{what} of arrays of more than 2 dimensions is not supported in compiled "
                     "code (use @ or np.matmul)", node)
        return stacked_matmul(cx, a, b, what, node)
    dtype = product_type(a.type.dtype, b.type.dtype)
    check_aligned(cx, a, b, how, node)
    if isinstance(dtype, T.FloatType) and any(isinstance(v.type.dtype, T.IntType) for v in (a, b)):
        # int64 with uint64 is float64 in NumPy, which casts both first; the kernels'
        # element products would meet as ints (an int meeting a u64 is a u64)
        a, b = (v if v.type.dtype == dtype else numpy_alloc.copy_array(cx, v, node, dtype) for v in (a, b))
    zero = Const(0, T.I64) if isinstance(dtype, T.BoolType) else Const(0.0 if isinstance(
        dtype, T.FloatType) else 0, dtype)
    shape = (a.type.ndim, b.type.ndim)
    if shape == (1, 1):
        s = numpy_reduce.call_kernel(cx, numpy_kernels.dot_1d, [a, b, zero], node)
        return cx.truth(s, node) if isinstance(dtype, T.BoolType) else s
    if shape[1] == 1:
        b = c_layout(cx, b, node)
    da, db = numpy_alloc.dims_of(cx, a, node), numpy_alloc.dims_of(cx, b, node)
    if shape == (2, 1):
        out = numpy_alloc.alloc_array(cx, dtype, [da[0]], node)
        with_blas(cx, out, a, b, lambda ac, bc: numpy_reduce.call_kernel(
            cx, numpy_kernels.matvec, [out, ac, bc, zero], node), node)
        return out
    out = numpy_alloc.alloc_array(cx, dtype, [da[0], db[1]] if shape == (2, 2) else [db[1]], node)

    def loops(ac, bc):
        numpy_alloc.fill(cx, out, Const(0, T.I64), node)
        kernel = numpy_kernels.matmul if shape == (2, 2) else numpy_kernels.vecmat
        numpy_reduce.call_kernel(cx, kernel, [out, ac, bc], node)
    if shape == (2, 2):
        with_blas(cx, out, a, b, loops, node)
    else:
        loops(c_layout(cx, a, node), c_layout(cx, b, node))
    return out


def stacked_matmul(cx, a: Value, b: Value, what: str, node) -> Value:
    """`a @ b` with an operand of more than two axes: a stack of matrix products over the
    leading axes (broadcast, a length 1 stretching), as the einsum ``...ij,...jk->...ik``
    written for these ranks (numpy_einsum.py); NumPy's error when the core lengths differ.
    Float sums run in index order (NumPy's BLAS may differ by rounding)."""
    from script.frontend.numpy_einsum import EinsumError, einsum_function
    if isinstance(a.type.dtype, T.BoolType) or isinstance(b.type.dtype, T.BoolType):
        cx.error(f"{what} of bool arrays of more than 2 dimensions is not supported in compiled code", node)
    da, db = numpy_alloc.dims_of(cx, a, node), numpy_alloc.dims_of(cx, b, node)
    k_b = db[0] if b.type.ndim == 1 else db[-2]
    cx.raise_if(cx.cmp("ne", da[-1], k_b, node), "ValueError", _MATMUL_MISMATCH, node, [k_b, da[-1]])
    batch = "abcdefgh"
    nb = max(a.type.ndim, b.type.ndim) - 2
    sa = batch[nb - (a.type.ndim - 2):nb] + "ik" if a.type.ndim > 1 else "k"
    sb = batch[nb - (b.type.ndim - 2):nb] + "kj" if b.type.ndim > 1 else "k"
    out = batch[:nb] + ("i" if a.type.ndim > 1 else "") + ("j" if b.type.ndim > 1 else "")
    try:
        fn = einsum_function(f"{sa},{sb}->{out}", [a.type, b.type])
    except EinsumError as e:
        cx.error(f"{what}: {e}", node)
    call = ast.copy_location(ast.Call(func=ast.Name(id="matmul", ctx=ast.Load()), args=[], keywords=[]), node)
    return builtins_lowering.call_script(cx, cx.ctx.info_for(fn), call, leading=(a, b))


def with_blas(cx, out: Value, a: Value, b: Value, loops, node) -> None:
    """`out = a @ b` by the platform's BLAS (the `gemm` op) where it has one and the
    product is large, else by `loops(a, b)` on C-contiguous `a` and `b` (copies where
    they are not): float arrays of one dtype only. BLAS reads a C- or
    Fortran-contiguous 2-d operand in place (`x.T @ v`); one with other strides is
    copied, then BLAS is tried again, as NumPy does."""
    def copied():
        ac, bc = c_layout(cx, a, node), c_layout(cx, b, node)
        if not eligible:
            loops(ac, bc)
            return
        again = cx.emit("gemm", [out, ac, bc], T.BOOL, None, cx.loc(node))
        cx.choose(again, lambda: None, lambda: (loops(ac, bc), None)[1], node)
    eligible = out.type.dtype == a.type.dtype == b.type.dtype and out.type.dtype in (T.F32, T.F64)
    if not eligible or a.type.layout == b.type.layout == "C":
        copied()
        return
    done = cx.emit("gemm", [out, a, b], T.BOOL, None, cx.loc(node))
    cx.choose(done, lambda: None, lambda: (copied(), None)[1], node)


def check_aligned(cx, a: Value, b: Value, how: str, node) -> None:
    """NumPy's ValueError unless a's last length equals b's first."""
    da, db = numpy_alloc.dims_of(cx, a, node), numpy_alloc.dims_of(cx, b, node)
    k_a, k_b = da[-1], db[0]
    bad = cx.cmp("ne", k_a, k_b, node)
    if how == "matmul":
        cx.raise_if(bad, "ValueError", _MATMUL_MISMATCH, node, [k_b, k_a])
        return
    text = (f"shapes {shape_format(len(da))} and {shape_format(len(db))} not aligned: "
            f"%lld (dim {len(da) - 1}) != %lld (dim 0)")
    cx.raise_if(bad, "ValueError", text, node, [*da, *db, k_a, k_b])


def c_layout(cx, arr: Value, node) -> Value:
    """`arr` typed C-contiguous: itself, or (when its strides are not C's) a copy."""
    return arr if arr.type.layout == "C" else numpy_alloc.contiguous(cx, arr, node)


CALLS.register(numpy_function("dot"), np_dot)
CALLS.register(numpy_function("matmul"), np_matmul)
METHODS.register(("array", "dot"), method_dot)


def _matmul(low, op: type, a, b, node) -> Value:
    """``a @ b`` of arrays (array expressions computed first)."""
    return matmul(low, *(elementwise.materialize(low, v, node) if isinstance(v, ArrayExpr) else v for v in (a, b)), node)


BINOPS.register(("array", ast.MatMult), _matmul)
