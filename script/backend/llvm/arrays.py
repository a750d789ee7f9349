"""Lowering of the array ops (`dim`, `stride`, `load`, `store`, `view`, `overlap`) on the
array struct of `abi`.

Addresses: for layout "C" the strides are not read: the element address is
``&data[((i0 * d1 + i1) * d2 + i2) ...]`` in elements, so LLVM sees unit stride along the
last axis and can vectorize (NumPy's C_CONTIGUOUS flag allows any stride on an axis of
length 1, where the only valid index is 0, so the computed address is the right one). For
layout "A" the address is ``data + sum(i_k * stride_k)`` bytes. Indices are in bounds (the
frontend checks them), so the arithmetic cannot overflow (``nsw``) and the address stays in
the array's buffer (``inbounds``), even for negative strides.
"""

from __future__ import annotations

from script.ir import types as T
from script.backend.llvm.abi import (
    ARRAY_DATA, ARRAY_OWNER, ARRAY_SHAPE, ARRAY_STRIDES, element_type, alignment, itemsize, llvm_type)
from script.backend.llvm.builder import Builder, Value, int_const, undef


def static_array(b: Builder, t: T.ArrayType, data: Value, shape: list[int]) -> Value:
    """The array struct of a C array at `data` of constant `shape` that nobody owns (owner
    NULL: reference counting passes it by): shared memory of kernels, `const_array`."""
    lt = llvm_type(t)
    out = b.insert_value(undef(lt), Value("ptr", "null"), ARRAY_OWNER)
    out = b.insert_value(out, data, ARRAY_DATA)
    stride = itemsize(t.dtype)
    strides = []
    for n in reversed(shape):
        strides.insert(0, stride)
        stride *= n
    for k, (n, s) in enumerate(zip(shape, strides)):
        out = b._emit(lt, f"insertvalue {lt} {out.ref}, i64 {n}, {ARRAY_SHAPE}, {k}")
        out = b._emit(lt, f"insertvalue {lt} {out.ref}, i64 {s}, {ARRAY_STRIDES}, {k}")
    return out


def dim(b: Builder, arr: Value, axis: int) -> Value:
    return b.extract_value(arr, (ARRAY_SHAPE, axis), "i64")


def stride(b: Builder, arr: Value, axis: int) -> Value:
    """The stride NumPy reports (`a.strides[axis]`), read from the struct."""
    return b.extract_value(arr, (ARRAY_STRIDES, axis), "i64")


def overlap(b: Builder, a: Value, ta: T.ArrayType, c: Value, tc: T.ArrayType) -> Value:
    """Whether the byte ranges of arrays `a` and `c` intersect (the `overlap` op): each runs
    from its lowest element to the end of its highest, and an empty array has none."""
    def extent(arr, t):
        lo = b.ptrtoint(b.extract_value(arr, ARRAY_DATA, "ptr"), "i64")
        hi = b.add(lo, int_const("i64", itemsize(t.dtype)))
        empty = int_const("i1", 0)
        for axis in range(t.ndim):
            n = dim(b, arr, axis)
            span = b.mul(b.sub(n, int_const("i64", 1)), stride(b, arr, axis))
            below = b.icmp("slt", span, int_const("i64", 0))
            lo = b.add(lo, b.select(below, span, int_const("i64", 0)))
            hi = b.add(hi, b.select(below, int_const("i64", 0), span))
            empty = b.or_(empty, b.icmp("eq", n, int_const("i64", 0)))
        return lo, hi, empty
    lo_a, hi_a, empty_a = extent(a, ta)
    lo_c, hi_c, empty_c = extent(c, tc)
    meet = b.and_(b.icmp("ult", lo_a, hi_c), b.icmp("ult", lo_c, hi_a))
    return b.and_(meet, b.not_(b.or_(empty_a, empty_c)))


def element_address(b: Builder, t: T.ArrayType, arr: Value, indices: list[Value]) -> Value:
    data = b.extract_value(arr, ARRAY_DATA, "ptr")
    if t.layout == "C":
        linear = indices[0]
        for axis in range(1, t.ndim):
            linear = b.index_arith("mul", linear, dim(b, arr, axis), "nuw nsw")
            linear = b.index_arith("add", linear, indices[axis], "nuw nsw")
        return b.gep_inbounds(element_type(t.dtype), data, linear)
    offset = None
    for axis, i in enumerate(indices):
        term = b.index_arith("mul", i, stride(b, arr, axis))
        offset = term if offset is None else b.index_arith("add", offset, term)
    return b.gep_inbounds("i8", data, offset)


def load(b: Builder, t: T.ArrayType, arr: Value, indices: list[Value]) -> Value:
    ptr = element_address(b, t, arr, indices)
    v = b.load(element_type(t.dtype), ptr, alignment(t.dtype))
    if isinstance(t.dtype, T.BoolType):
        return b.icmp("ne", v, int_const("i8", 0))
    return v


def store(b: Builder, t: T.ArrayType, arr: Value, value: Value, indices: list[Value]) -> None:
    ptr = element_address(b, t, arr, indices)
    if isinstance(t.dtype, T.BoolType):
        value = b.zext(value, "i8")
    b.store(value, ptr, alignment(t.dtype))


def view(b: Builder, t: T.ArrayType, arr: Value, axes: str, operands: list[Value],
         result: T.ArrayType) -> Value:
    """The struct of ``view.AXES``: same owner, data moved to the first element, one
    (length, stride * step) per sliced axis. Offsets use the stored strides, which are
    NumPy's even for a C array (an axis of length 1 may have any stride: its only index 0
    adds nothing, and an empty slice of it is never read)."""
    data = b.extract_value(arr, ARRAY_DATA, "ptr")
    offset = None
    kept = []
    pos = 0
    axis = -1
    for kind in axes:
        if kind == "n":                 # a new axis of length 1
            kept.append((int_const("i64", 1), int_const("i64", 0)))
            continue
        axis += 1
        st = stride(b, arr, axis)
        first = operands[pos]
        term = b.index_arith("mul", first, st)
        offset = term if offset is None else b.index_arith("add", offset, term)
        if kind == "s":
            length, step = operands[pos + 1], operands[pos + 2]
            kept.append((length, b.index_arith("mul", st, step)))
            pos += 3
        else:
            pos += 1
    lt = llvm_type(result)
    out = b.insert_value(undef(lt), b.extract_value(arr, ARRAY_OWNER, "ptr"), ARRAY_OWNER)
    out = b.insert_value(out, b._emit("ptr", f"getelementptr i8, ptr {data.ref}, i64 {offset.ref}"),
                         ARRAY_DATA)
    for k, (length, st) in enumerate(kept):
        out = b._emit(lt, f"insertvalue {lt} {out.ref}, i64 {length.ref}, {ARRAY_SHAPE}, {k}")
        out = b._emit(lt, f"insertvalue {lt} {out.ref}, i64 {st.ref}, {ARRAY_STRIDES}, {k}")
    return out


def transpose(b: Builder, arr: Value, t: T.ArrayType) -> Value:
    """The same struct with shape and strides reversed."""
    lt = llvm_type(t.with_layout("A"))
    out = arr
    for k in range(t.ndim):
        d = b._emit("i64", f"extractvalue {arr.type} {arr.ref}, {ARRAY_SHAPE}, {t.ndim - 1 - k}")
        st = b._emit("i64", f"extractvalue {arr.type} {arr.ref}, {ARRAY_STRIDES}, {t.ndim - 1 - k}")
        out = b._emit(lt, f"insertvalue {lt} {out.ref}, i64 {d.ref}, {ARRAY_SHAPE}, {k}")
        out = b._emit(lt, f"insertvalue {lt} {out.ref}, i64 {st.ref}, {ARRAY_STRIDES}, {k}")
    return out


def part(b: Builder, arr: Value, t: T.ArrayType, k: int) -> Value:
    """``part.K``: the same struct (owner, shape, strides in bytes) with the data pointer
    moved to part `k` of the first complex element."""
    if k == 0:
        return arr
    data = b.extract_value(arr, ARRAY_DATA, "ptr")
    moved = b.gep("i8", data, int_const("i64", itemsize(t.dtype) // 2))
    return b.insert_value(arr, moved, ARRAY_DATA)


def reshape(b: Builder, arr: Value, t: T.ArrayType, dims: list[Value],
            strides: list[Value] | None = None) -> Value:
    """The same owner and data with lengths `dims` and byte strides `strides`, or C strides
    when there are none (`arr` is then C-contiguous)."""
    lt = llvm_type(t)
    out = b.insert_value(undef(lt), b.extract_value(arr, ARRAY_OWNER, "ptr"), ARRAY_OWNER)
    out = b.insert_value(out, b.extract_value(arr, ARRAY_DATA, "ptr"), ARRAY_DATA)
    st = int_const("i64", itemsize(t.dtype))
    for k in reversed(range(t.ndim)):
        if strides is not None:
            st = strides[k]
        out = b._emit(lt, f"insertvalue {lt} {out.ref}, i64 {dims[k].ref}, {ARRAY_SHAPE}, {k}")
        out = b._emit(lt, f"insertvalue {lt} {out.ref}, i64 {st.ref}, {ARRAY_STRIDES}, {k}")
        if k and strides is None:
            st = b.index_arith("mul", st, dims[k])
    return out
