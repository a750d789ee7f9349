"""`reshape` of arrays of any layout against NumPy: a view exactly where NumPy makes one
(its no-copy rule over the run-time strides), a C copy elsewhere; the same values, dtype,
shape and strides, writes through the result reaching the argument (or not) as in NumPy,
and the same ValueError for a shape that does not fit. `ravel` views only a C-contiguous
array; `flatten` always copies."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import reshape_view_kernels as K
import script
from difftest import compiled, outcome

DTYPES = [np.float64, np.int32, np.bool_]


def source(shape, dtype, transpose, fortran, steps, starts, newaxis):
    """An array of `dtype` with the layout the recipe names, and a twin of the same layout
    over separate memory (so that NumPy and compiled code each write their own)."""
    def make():
        n = int(np.prod(shape))
        base = (np.arange(n * 3) % 7).astype(dtype)[:n].reshape(shape)
        if fortran:
            base = np.asfortranarray(base)
        if transpose:
            base = base.T
        view = base[tuple(slice(s, None, k) if k > 0 else slice(None, None, k)
                          for s, k in zip(starts, steps))]
        if newaxis:
            view = view[:, None]
        return view, base
    return make(), make()


def compare(fn, args_np, args_cc, write=None):
    """Run `fn` in NumPy on one twin and compiled on the other; compare outcomes, strides,
    memory sharing, and (with `write`, a value) each source after writing `write` through
    each result's first element."""
    want = outcome(fn, args_np)
    got = outcome(compiled(fn), args_cc)
    assert want[0] == got[0], (fn.__name__, want, got)
    if want[0] == "raise":
        assert want == got, (fn.__name__, want, got)
        return
    w, g = want[1], got[1]
    src_np, src_cc = args_np[0], args_cc[0]
    assert w.dtype == g.dtype and w.shape == g.shape, (fn.__name__, w, g)
    assert np.array_equal(w, g), (fn.__name__, w, g)
    assert long_strides(w) == long_strides(g) or w.size == 0, (fn.__name__, w.strides, g.strides)
    assert np.shares_memory(w, src_np) == np.shares_memory(g, src_cc), (fn.__name__, src_np.strides)
    if write is not None and w.size:
        w.flat[0] = write
        g.flat[0] = write
    assert np.array_equal(src_np, src_cc), (fn.__name__, src_np, src_cc)


def long_strides(a):
    """The strides of the axes of length > 1: those of a length-1 axis are never used (a
    C-typed result keeps C strides there, where NumPy may keep the source's)."""
    return tuple(s for s, d in zip(a.strides, a.shape) if d > 1)


def factor(n, parts, draw):
    """A list of `parts` lengths whose product is `n`."""
    out = []
    for _ in range(parts - 1):
        divisors = [d for d in range(1, n + 1) if n % d == 0] if n else [0, 1, 2]
        d = draw(st.sampled_from(divisors))
        out.append(d)
        n = n // d if d else n
    return out + [n]


@st.composite
def cases(draw):
    ndim = draw(st.integers(1, 3))
    shape = draw(st.lists(st.integers(0, 4), min_size=ndim, max_size=ndim))
    if draw(st.integers(0, 9)) and 0 in shape:          # mostly not empty
        shape = [max(1, d) for d in shape]
    transpose, fortran = draw(st.booleans()), draw(st.booleans())
    steps = draw(st.lists(st.sampled_from([1, 1, 2, 3, -1]), min_size=ndim, max_size=ndim))
    starts = draw(st.lists(st.integers(0, 1), min_size=ndim, max_size=ndim))
    newaxis = ndim < 3 and draw(st.integers(0, 4)) == 0
    return shape, transpose, fortran, steps, starts, newaxis


@settings(max_examples=20, deadline=None)
@given(cases(), st.data())
def test_reshape_matches_numpy(case, data):
    (a, _), (b, _) = source(*case[:1], np.float64, *case[1:])
    n = a.size
    compare(K.to_flat, (a,), (b,), write=-1.0)
    p, q = factor(n, 2, data.draw)
    compare(K.to_2, (a, p, q), (b, p, q), write=-2.0)
    compare(K.to_2_tuple, (a, p, q), (b, p, q))
    compare(K.np_reshape_2, (a, p, q), (b, p, q))
    compare(K.to_2_infer_last, (a, p), (b, p), write=-3.0)
    compare(K.to_2_infer_first, (a, q), (b, q))
    x, y, z = factor(n, 3, data.draw)
    compare(K.to_3, (a, x, y, z), (b, x, y, z), write=-4.0)
    compare(K.to_3_infer_middle, (a, x, z), (b, x, z))
    compare(K.to_1, (a, n), (b, n))
    compare(K.to_1, (a, n + 1), (b, n + 1))                  # ValueError, NumPy's message
    compare(K.to_2, (a, p + 1, q), (b, p + 1, q))
    compare(K.to_2_infer_first, (a, 0), (b, 0))
    compare(K.transposed_to_flat, (a,), (b,), write=-5.0)
    compare(K.ravel, (a,), (b,), write=-6.0)
    compare(K.np_ravel, (a,), (b,))
    compare(K.flatten, (a,), (b,), write=-7.0)


@pytest.mark.parametrize("dtype", DTYPES)
def test_writes_through_the_result(dtype):
    base = np.arange(40).reshape(4, 10) % 3
    layouts = [lambda x: x[::2], lambda x: x[:, ::2], lambda x: x.T, lambda x: x[1:, 1:],
               lambda x: x[::-1], lambda x: np.asfortranarray(x), lambda x: x[:1], lambda x: x[:, :1]]
    for make in layouts:
        for fn in (K.write_rows_through, K.write_flat_through, K.write_ravel, K.write_flatten):
            a, b = make(base.astype(dtype)), make(base.astype(dtype))
            want = fn(a, dtype(1))
            got = compiled(fn)(b, dtype(1))
            assert np.array_equal(a, b), (fn.__name__, a, b)
            assert np.array_equal(want, got) and long_strides(want) == long_strides(got)
            assert np.shares_memory(want, a) == np.shares_memory(got, b), fn.__name__


def test_fuzz_case_same_shape_is_a_view():
    base = np.array([0, 1, 1, 1, 0, 1, 1, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1, 1, 1], dtype=np.bool_)
    a = base.reshape(4, 5)[::2]
    compiled(K.write_rows_through)(a, True)
    assert a[0].all() and base[:5].all()


@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 3), (1,), (1, 1), (3, 1)])
def test_empty_and_single(shape):
    for make in (lambda x: x, lambda x: x.T, lambda x: x[::2] if x.ndim else x):
        a, b = make(np.zeros(shape)), make(np.zeros(shape))
        n = a.size
        compare(K.to_flat, (a,), (b,), write=1.0)
        compare(K.to_2, (a, 1, n), (b, 1, n), write=1.0)
        compare(K.to_2, (a, n, 1), (b, n, 1))
        compare(K.to_3, (a, 1, n, 1), (b, 1, n, 1))
        compare(K.to_2_infer_last, (a, 0), (b, 0))
        compare(K.to_2_infer_first, (a, 1), (b, 1))
        compare(K.ravel, (a,), (b,))
        compare(K.flatten, (a,), (b,))


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 12), dims=st.lists(st.integers(-3, 6), min_size=1, max_size=3))
def test_run_time_shapes_infer_a_negative_length(n, dims):
    """`a.reshape(s)` of a tuple `s` only known at run time: values, NumPy's ValueError
    messages (the unknown length written "newaxis"), one unknown at most."""
    a = np.arange(n * 1.0)
    want = outcome(K.reshape_to, (a, tuple(dims)))
    got = outcome(compiled(K.reshape_to), (a, tuple(dims)))
    assert repr(want) == repr(got)


def c_flagged(shape, odd):
    """A C-contiguous array of `shape` (NumPy's flag) and its twin; with `odd`, its axes of
    length 1 get a stride C would not give them, which the flag allows."""
    def make():
        a = np.arange(float(np.prod(shape))).reshape(shape)
        if odd:
            strides = tuple(8 * 97 if d == 1 else s for d, s in zip(shape, a.strides))
            a = np.lib.stride_tricks.as_strided(np.arange(float(max(a.size, 1) * 100)), shape, strides)
            a = a.copy() if not a.flags.c_contiguous else a
        return a
    return make(), make()


@pytest.mark.parametrize("odd", [False, True])
@pytest.mark.parametrize("shape", [(3, 4), (4, 1), (1, 4), (1, 1), (0, 3), (3, 0), (4, 3, 2), (2, 1, 3), (5, 2)])
def test_views_of_c_arrays_that_are_c_contiguous(shape, odd):
    """Views that are C-contiguous whatever the strides (indices first, a slice of step 1,
    whole axes: compile time treats them so) reshape and ravel as NumPy does: a view with
    C strides, the argument's memory, writes reaching it."""
    a, b = c_flagged(shape, odd)
    assert a.flags.c_contiguous
    for t in range(-1, shape[0] + 1):
        compare(K.row_ravel, (a, t), (b, t), write=-1.0)
    compare(K.rows_reshape, (a,), (b,), write=-2.0)
    compare(K.middle_rows_ravel, (a,), (b,), write=-3.0)
    if len(shape) == 3:
        for i in (0, shape[0] - 1):
            compare(K.inner_line_reshape, (a, i), (b, i), write=-4.0)
    if len(shape) == 2:
        w = np.arange(float(2 * shape[1])).reshape(2, shape[1])
        for t in range(shape[0]):
            want, got = K.row_matvec(w, a, t), compiled(K.row_matvec)(w, b, t)
            assert np.array_equal(want, got) and want.shape == got.shape


def test_matmul_takes_a_row_of_a_c_array_without_a_run_time_check():
    """`w @ xs[t]`: the row is C-contiguous whatever its strides, so no test of them and no
    copy loop (which LLVM compiled for nothing: 9 ms of the RNN kernel's compile)."""
    f = script.script(K.row_matvec)
    w, xs = np.ones((2, 3)), np.ones((4, 3))
    assert np.array_equal(f(w, xs, 1), w @ xs[1])
    assert "stride" not in f.ir("opt")
