"""The `gemm` op: a matrix product through the BLAS NumPy itself uses, when there is one.

NumPy's wheels carry OpenBLAS built with 64-bit integers (its functions named
``scipy_cblas_dgemm64_``, ``cblas_dgemm64_`` in other builds); runtime.blas finds them when
the process starts compiled code and fills the table ``script.blas`` (?gemm for f64 and f32,
then ?gemv likewise; NULL where none was found). `gemm` calls the one for its dtype and shape
when it is there and the product is large enough to pay for the call (`MIN_WORK`
multiply-adds), and gives whether it did; the frontend's own loops run otherwise (numpy_linalg). The product is
NumPy's own then, bit for bit on the same BLAS.
"""

from __future__ import annotations

from script.ir import types as T
from script.backend.llvm.abi import ARRAY_DATA
from script.backend.llvm.builder import NULL, Builder, Callee, NativeModule, Value, int_const

TABLE_SYMBOL = "script.blas"        # [4 x ptr]: cblas dgemm, sgemm, dgemv, sgemv (runtime.blas)
MIN_WORK = 1 << 14                  # M*N*K below which the compiled loops are as fast
ROW_MAJOR, NO_TRANS, TRANS = 101, 111, 112      # CBLAS enums


def _layout(b: Builder, arr: Value, t: T.ArrayType, rows: Value, cols: Value, isz: int):
    """How BLAS reads the 2-d operand `arr` (rows x cols) in place: (readable, transposed,
    leading dimension). C-typed: as it is, row-major with `cols` a row. Otherwise checked at
    run time: C-contiguous strides as a C array; Fortran-contiguous ones (a transpose of a C
    array) as the row-major (cols x rows) matrix they are, transposed; other strides not at
    all (the frontend's loops copy it)."""
    from script.backend.llvm import arrays
    if t.layout == "C":
        return int_const("i1", 1), int_const("i32", NO_TRANS), cols
    s0, s1 = arrays.stride(b, arr, 0), arrays.stride(b, arr, 1)
    size = int_const("i64", isz)
    c_ok = b.and_(b.icmp("eq", s1, size), b.icmp("eq", s0, b.mul(cols, size)))
    f_ok = b.and_(b.icmp("eq", s0, size), b.icmp("eq", s1, b.mul(rows, size)))
    how = b.select(c_ok, int_const("i32", NO_TRANS), int_const("i32", TRANS))
    return b.or_(c_ok, f_ok), how, b.select(c_ok, cols, rows)


def lower_gemm(m: NativeModule, b: Builder, fn, c: Value, a: Value, bb: Value,
               types: tuple) -> Value:
    """``gemm %c, %a, %b``: C = A @ B for C-contiguous C (2-d, or 1-d: a column), A 2-d and B
    of a layout BLAS reads in place (`_layout`; a 1-d B is C-contiguous); gives i1 true when
    BLAS computed it. A column goes to ?gemv, as NumPy's matrix . vector does (?gemm with one
    column packs A into panels on every call: twice the time)."""
    from script.backend.llvm import arrays
    ct, at, bt = types
    scalar = "double" if ct.dtype == T.F64 else "float"
    isz = 8 if ct.dtype == T.F64 else 4
    column = bt.ndim == 1
    rows, inner = arrays.dim(b, a, 0), arrays.dim(b, a, 1)
    cols = int_const("i64", 1) if column else arrays.dim(b, bb, 1)
    table = m.declare_data(TABLE_SYMBOL, "[4 x ptr]")
    slot = (2 if column else 0) + (0 if ct.dtype == T.F64 else 1)
    fptr = b.load("ptr", b.offset(table, 8 * slot))
    work = b.mul(b.mul(rows, cols), inner)
    worth = b.and_(b.icmp("ne", fptr, NULL), b.icmp("sge", work, int_const("i64", MIN_WORK)))
    a_ok, trans_a, lda = _layout(b, a, at, rows, inner, isz)
    b_ok, trans_b, ldb = (int_const("i1", 1), int_const("i32", NO_TRANS), cols) if column else \
        _layout(b, bb, bt, inner, cols, isz)
    worth = b.and_(worth, b.and_(a_ok, b_ok))
    here = b.block
    call, done = fn.append_block("blas"), fn.append_block("blas_done")
    b.cbranch(worth, call, done)
    b.position_at_end(call)
    i32, i64 = (lambda k: int_const("i32", k)), (lambda k: int_const("i64", k))     # noqa: E731
    one, zero = Value(scalar, "1.0"), Value(scalar, "0.0")
    data = lambda v: b.extract_value(v, ARRAY_DATA, "ptr")       # noqa: E731
    if column:
        # y = A x on the matrix as stored: rows x inner (C), or inner x rows transposed (F)
        transposed = b.icmp("eq", trans_a, i32(TRANS))
        stored_rows, stored_cols = b.select(transposed, inner, rows), b.select(transposed, rows, inner)
        gemv = Callee(fptr.ref, "void", ["i32", "i32", "i64", "i64", scalar, "ptr", "i64", "ptr", "i64",
                                         scalar, "ptr", "i64"])
        b.call(gemv, [i32(ROW_MAJOR), trans_a, stored_rows, stored_cols, one, data(a), lda,
                      data(bb), i64(1), zero, data(c), i64(1)])
    else:
        gemm = Callee(fptr.ref, "void", ["i32", "i32", "i32", "i64", "i64", "i64", scalar, "ptr", "i64",
                                         "ptr", "i64", scalar, "ptr", "i64"])
        b.call(gemm, [i32(ROW_MAJOR), trans_a, trans_b, rows, cols, inner, one, data(a), lda,
                      data(bb), ldb, zero, data(c), cols])
    b.branch(done)
    b.position_at_end(done)
    result = b.phi("i1")
    result.add_incoming(int_const("i1", 1), call)
    result.add_incoming(int_const("i1", 0), here)
    return result
