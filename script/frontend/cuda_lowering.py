"""The CUDA kernel language in the frontend: `cuda.*` calls and registers lowered to IR.

`script.cuda`'s marker objects call `lower_call` / `lower_register` with the function being
built (a `FunctionLowering`). The IR ops are `sreg`, `barrier`, `shared` and `atomic`
(script/ir/ops.py). They are built in any function, so that device functions need no
decorator of their own; `reject_kernel_ops` is what makes them an error in code compiled for
the CPU with `@script` (a kernel's CPU path has its own lowering of them).

Array indices of atomics follow the function's `boundscheck` like any indexing.
"""

from __future__ import annotations

import ast

from script.errors import CompileError
from script.frontend import arrays
from script.frontend.arrays import index_parts
from script.frontend.typeinfer import type_from_annotation
from script.frontend.pyref import PyRef
from script.ir import types as T
from script.ir.core import Const, Instr, Value

MAX_SHARED_BYTES = 48 * 1024          # CUDA's limit for static shared memory per block

_SPELLING = {"sreg": "cuda.threadIdx/blockIdx/blockDim/gridDim and cuda.grid",
             "barrier": "cuda.syncthreads()", "shared": "cuda.shared.array()",
             "atomic": "cuda.atomic"}


def lower_register(reg: str, b, node) -> Value:
    return b.emit("sreg", [], T.I64, reg, b.loc(node))


def lower_call(name: str, b, node: ast.Call) -> Value:
    handler = _CALLS.get(name)
    if handler is None:
        b.error(f"cuda.{name}() is not supported in compiled code", node)
    return handler(b, node, name)


def _ndim_arg(b, node, name: str) -> int:
    (v,) = b.positional(node, f"cuda.{name}", 1)
    if not (isinstance(v, Const) and isinstance(v.type, T.IntType) and v.value in (1, 2, 3)):
        b.error(f"cuda.{name}() takes a constant 1, 2 or 3", node)
    return v.value


def _per_axis(b, node, name: str, regs) -> Value:
    ndim = _ndim_arg(b, node, name)
    loc = b.loc(node)
    parts = []
    for axis in "xyz"[:ndim]:
        r = [lower_register(f"{reg}_{axis}", b, node) for reg in regs]
        v = b.emit("mul", [r[0], r[1]], T.I64, None, loc)
        if len(r) == 3:
            v = b.emit("add", [v, r[2]], T.I64, None, loc)
        parts.append(v)
    return parts[0] if ndim == 1 else b.make_tuple(parts, node)


def _grid(b, node, name):
    """`cuda.grid(n)`: blockIdx * blockDim + threadIdx along the first n axes."""
    return _per_axis(b, node, name, ("ctaid", "ntid", "tid"))


def _gridsize(b, node, name):
    """`cuda.gridsize(n)`: blockDim * gridDim along the first n axes."""
    return _per_axis(b, node, name, ("ntid", "nctaid"))


def _syncthreads(b, node, name):
    b.positional(node, "cuda.syncthreads", 0)
    b.emit("barrier", [], T.NONE, None, b.loc(node))
    return Const(None, T.NONE)


def _shared_array(b, node, name):
    args = list(node.args)
    kw = {k.arg: k.value for k in node.keywords}
    for key in kw:
        if key not in ("shape", "dtype"):
            b.error(f"cuda.shared.array() got an unexpected keyword argument '{key}'", node)
    for key in ("shape", "dtype"):
        if key in kw:
            args.append(kw[key])
    if len(args) != 2:
        b.error("cuda.shared.array() takes a shape and a dtype", node)
    shape = _constant_shape(b, args[0])
    dtype = _dtype(b, args[1])
    t = T.ArrayType(dtype, len(shape), "C")
    size = 1 if isinstance(dtype, T.BoolType) else dtype.bits // 8
    for n in shape:
        size *= n
    if size > MAX_SHARED_BYTES:
        b.error(f"this shared array needs {size} bytes; a block has at most {MAX_SHARED_BYTES} "
                "bytes of static shared memory", node)
    return b.emit("shared", [Const(n, T.I64) for n in shape], t, None, b.loc(node))


def _constant_shape(b, node) -> list[int]:
    v = b.expr(node)
    if isinstance(v, Const) and isinstance(v.type, T.IntType):
        dims = [v]
    elif isinstance(v, Instr) and v.opname == "tuple":
        dims = list(v.operands)
    else:
        dims = []
    if not dims or len(dims) > 3 or any(not (isinstance(d, Const) and isinstance(d.type, T.IntType)
                                             and d.value >= 1) for d in dims):
        b.error("the shape of a shared array must be a positive constant int or a tuple of "
                "up to three of them", node)
    return [d.value for d in dims]


def _dtype(b, node) -> T.Type:
    ref = b.callee_ref(node)
    t = type_from_annotation(ref.obj) if isinstance(ref, PyRef) else None
    if t is None or not t.is_numeric():
        b.error("the dtype of a shared array must be a scalar type (script.f32, numpy.float32, "
                "float, int, ...)", node)
    return t


def _atomic(b, node, name):
    fn = name.split(".")[1]
    nvals = 2 if fn == "cas" else 1
    if node.keywords or len(node.args) != 2 + nvals:
        what = "an array, an index, the expected and the new value" if fn == "cas" \
            else "an array, an index and a value"
        b.error(f"cuda.atomic.{fn}() takes {what}", node)
    arr = b.expr(node.args[0])
    t = arr.type
    if not isinstance(t, T.ArrayType):
        b.error(f"cuda.atomic.{fn}() needs an array, not {t}", node.args[0])
    ok = isinstance(t.dtype, T.IntType) and t.dtype.bits in (32, 64)
    if fn != "cas":
        ok = ok or isinstance(t.dtype, T.FloatType)
    if not ok:
        kinds = "32- or 64-bit ints" if fn == "cas" else "32- or 64-bit ints and floats"
        b.error(f"cuda.atomic.{fn}() works on arrays of {kinds}, not {t.dtype}", node.args[0])
    index_node = node.args[1]
    parts = index_parts(index_node)
    if len(parts) != t.ndim:
        b.error(f"cuda.atomic.{fn}() needs {t.ndim} indices for a {t.ndim}-d array", index_node)
    indices = []
    for axis, p in enumerate(parts):
        v = b.expr(p)
        if not isinstance(v.type, (T.IntType, T.BoolType)):
            b.error(f"array indices must be integers, not {v.type}", p)
        indices.append(arrays.checked_index(b, arr, axis, b.coerce(v, T.I64, p), p))
    values = []
    for vn in node.args[2:]:
        v = b.expr(vn)
        if not v.type.is_numeric():
            b.error(f"cannot use a {v.type} in cuda.atomic.{fn}()", vn)
        if isinstance(t.dtype, T.IntType) and isinstance(v.type, T.FloatType):
            b.error(f"cuda.atomic.{fn}() of a float value on an array of {t.dtype}: convert it first", vn)
        values.append(b.coerce(Const(v.value, v.type) if isinstance(v, Const) else v, t.dtype, vn))
    return b.emit("atomic", [arr, *values, *indices], t.dtype, fn, b.loc(node))


_CALLS = {"grid": _grid, "gridsize": _gridsize, "syncthreads": _syncthreads,
          "shared.array": _shared_array, "atomic.add": _atomic, "atomic.max": _atomic,
          "atomic.min": _atomic, "atomic.cas": _atomic}


def reject_kernel_ops(module) -> None:
    """CompileError at the first use of the kernel language in CPU code (`@script`)."""
    for f in module.functions.values():
        for i in f.instructions():
            if i.op.family == "kernel":        # the kernel language's ops (ir.ops)
                raise CompileError(f"{_SPELLING[i.opname]} can only be used in a @script.kernel "
                                   "function and the device functions it calls", i.loc)
