"""NumPy complex128 and complex64 arrays in compiled code, compared with NumPy element for
element (NaNs and signed zeros included) on the same inputs (docs/complex.md)."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from difftest import check, compiled
from script import cuda

SPECIAL = [0.0, -0.0, 1.0, -2.5, math.inf, -math.inf, math.nan, 1e300, 3.0, 0.5]
parts = st.one_of(st.sampled_from(SPECIAL), st.floats(-100, 100))
elements = st.builds(complex, parts, parts)
finite = st.builds(complex, st.floats(-100, 100), st.floats(-100, 100))


def arrays(elems=elements, dtype=np.complex128, min_size=0, max_size=9):
    return st.lists(elems, min_size=min_size, max_size=max_size).map(lambda xs: np.array(xs, dtype=dtype))


EXAMPLES = settings(max_examples=40, deadline=None)


@pytest.fixture(autouse=True)
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)        # NumPy's overflow/invalid
        yield


def arith(a, b):
    return a + b, a - b, a * b, a / b, -a, a * 2.5 - 1j, (1 + 2j) / a


def unary(a):
    return np.abs(a), np.conj(a), np.conjugate(a), a.real, a.imag, np.real(a), np.imag(a), \
        np.square(a), np.isnan(a), np.isinf(a), np.isfinite(a)


def angles(a):
    # (up to a few ulps: NumPy's complex64 angle is its float32 arctan2, a SIMD approximation
    # 1 ulp off the correctly rounded value on CPUs with AVX-512)
    return np.angle(a), np.angle(a, deg=True)


def compare(a, b):
    return a == b, a != b


def transcendental(a):
    return np.exp(a), np.log(a), np.sqrt(a), np.sin(a), np.cos(a), np.tan(a), np.sinh(a), \
        np.cosh(a), np.tanh(a)


def reciprocal(a):
    return np.reciprocal(a)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
@EXAMPLES
@given(data=st.data())
def test_elementwise(dtype, data):
    n = data.draw(st.integers(0, 8))
    a = data.draw(arrays(dtype=dtype, min_size=n, max_size=n))
    b = data.draw(arrays(dtype=dtype, min_size=n, max_size=n))
    check(arith, compiled(arith), a, b)
    check(unary, compiled(unary), a)
    check(angles, compiled(angles), a, approx=True)
    check(compare, compiled(compare), a, b)
    check(reciprocal, compiled(reciprocal), a)


@EXAMPLES
@given(a=arrays(st.one_of(elements, finite)))
def test_transcendental(a):
    check(transcendental, compiled(transcendental), a)


def broadcast(a, m):
    return m * a[:, None] + a, (a[:, None] - m) / 2


@EXAMPLES
@given(a=arrays(finite, min_size=1, max_size=4), m=arrays(finite, min_size=3, max_size=3))
def test_broadcasting(a, m):
    check(broadcast, compiled(broadcast), a, m.reshape(1, 3))


def reductions(a):
    return a.sum(), np.sum(a), a.mean(), np.mean(a), a.prod(), a.cumsum(), a.cumprod(), a.var(), a.std()


def products(a, b):
    return np.vdot(a, b), np.dot(a, b)


def reductions_2d(m):
    return m.sum(), m.sum(axis=0), m.sum(axis=1), m.mean(axis=0)


@EXAMPLES
@given(a=arrays(st.one_of(elements, finite), min_size=1, max_size=300))
def test_reductions(a):
    check(reductions, compiled(reductions), a, approx=True)
    check(lambda_sum, compiled(lambda_sum), a)


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_dot_products(data):
    """BLAS computes these (zdotc, zdotu) in its own order: finite values, equal up to
    rounding relative to the sum of the magnitudes of the products."""
    n = data.draw(st.integers(1, 50))
    a, b = (data.draw(arrays(finite, min_size=n, max_size=n)) for _ in range(2))
    scale = float(np.sum(np.abs(a) * np.abs(b))) + 1e-300
    for want, got in zip(products(a, b), compiled(products)(a, b)):
        assert type(got) is complex and abs(complex(want) - got) <= 1e-13 * scale


def lambda_sum(a):
    return a.sum(), a.mean()          # exact: NumPy's pairwise order


@EXAMPLES
@given(a=arrays(finite, min_size=6, max_size=200))
def test_reductions_2d(a):
    m = a[: a.size // 3 * 3].reshape(-1, 3)
    check(reductions_2d, compiled(reductions_2d), m)


def build(n: int):
    a = np.zeros(n, np.complex128)
    b = np.empty(n, dtype=np.complex64)
    c = np.ones((n, 2), dtype=complex)
    for i in range(n):
        a[i] = complex(i, -i) * 1j
        b[i] = a[i]
        c[i, 1] = a[i] / (i + 1)
    return a, b, c, np.zeros_like(a), np.array([1j, 2, 3.5])


def test_allocation_and_element_writes():
    for n in (0, 1, 5):
        check(build, compiled(build), n)


def write_parts(a, x: float):
    a.real[0] = x
    a.imag[:] = -1.0
    a.real[1:] *= 2.0
    return a.real.sum()


def test_writes_through_real_and_imag():
    a = np.array([1 + 2j, 3 - 4j, -0.5j])
    check(write_parts, compiled(write_parts), a, 7.0)
    check(write_parts, compiled(write_parts), a.astype(np.complex64), 7.0)


def real_of_argument(a):
    return a.real


def test_real_view_is_a_float_array():
    a = np.array([1 + 2j, 3 - 4j])
    r = compiled(real_of_argument)(a)
    assert r.dtype == np.float64 and list(r) == [1.0, 3.0]
    r[0] = 9.0                       # a view, as NumPy's
    assert a[0] == 9 + 2j


def mandelbrot(xs, ys, limit: int):
    out = np.zeros((ys.shape[0], xs.shape[0]), np.int64)
    for i in range(ys.shape[0]):
        for j in range(xs.shape[0]):
            c = complex(xs[j], ys[i])
            z = 0j
            n = 0
            while n < limit and abs(z) <= 2.0:
                z = z * z + c
                n += 1
            out[i, j] = n
    return out


def test_mandelbrot_grid():
    xs, ys = np.linspace(-2, 0.6, 40), np.linspace(-1.2, 1.2, 30)
    check(mandelbrot, compiled(mandelbrot), xs, ys, 60)


def loop_over(a):
    s = 0j
    for z in a:
        s += z.conjugate() * z
    return s


def test_iteration():
    check(loop_over, compiled(loop_over), np.array([1 + 1j, -2j, 3.0]))


def power(a):
    return a ** 0.5


def powers(a):
    return a ** 2, a ** 3, a ** 0, a ** 1, a ** -1, a ** -2, np.power(a, 5), a ** 99, a ** -7


@EXAMPLES
@given(a=arrays(st.one_of(elements, finite, st.sampled_from([0j, complex(-0.0, 0.0), -0j]))))
def test_integer_powers(a):
    check(powers, compiled(powers), a)


def maximum(a):
    return a.max()


@pytest.mark.parametrize("fn", [power, maximum])
def test_unsupported_are_compile_errors(fn):
    from script.errors import CompileError
    with pytest.raises(CompileError) as err:
        compiled(fn)(np.array([1j]))
    assert "complex" in str(err.value)


def rotate_kernel(a, w):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] = a[i] * w


def test_kernels_reject_complex():
    import script
    from script.errors import CompileError
    k = script.kernel(rotate_kernel)
    with pytest.raises(CompileError) as err:
        k[1, 4](np.zeros(4, np.complex128), 1j)
    assert "complex numbers are not supported in kernels" in str(err.value)
    assert "a[i] = a[i] * w" in str(err.value)


def assorted(a, x: float):
    c = a.copy().reshape(2, 2).T
    return (np.complex128(x), a.conj(), a.conjugate(), np.full(3, 1j * x), a.real * 2 + a.imag,
            np.where(a.real > 0, a, 2 * a), c, a[a.real > 0], np.abs(a) ** 2 - (a * a.conj()).real,
            np.concatenate((a, a)), np.arange(3.0).astype(np.complex128))


@EXAMPLES
@given(a=arrays(finite, min_size=4, max_size=4), x=st.floats(-5, 5))
def test_assorted_numpy(a, x):
    check(assorted, compiled(assorted), a, x)


def scalar_ufuncs(z, w, x):
    return np.exp(z), np.log(z), np.sqrt(z), np.sin(z), np.cos(z), np.tan(z), np.sinh(z), \
        np.cosh(z), np.tanh(z), np.abs(z), np.absolute(z), np.conj(z), np.square(z), \
        np.isnan(z), np.isinf(z), np.isfinite(z), np.reciprocal(z), np.add(z, w), \
        np.multiply(z, x), np.exp(-2j * np.pi * x / 7)


def twiddled_dft(a):
    n = len(a)
    out = np.zeros(n, dtype=np.complex128)
    for k in range(n):
        s = 0j
        for t in range(n):
            s += a[t] * np.exp(-2j * np.pi * k * t / n)
        out[k] = s
    return out


@EXAMPLES
@given(z=st.one_of(elements, finite), w=finite, x=st.floats(-100, 100))
def test_scalar_ufuncs_of_complex(z, w, x):
    # NumPy's ufuncs on complex scalars: compiled code runs one element of NumPy's complex
    # loops (with FMA where NumPy's have it; NumPy's own scalar objects multiply without)
    want = [r[0] for r in scalar_ufuncs(np.array([z]), np.array([w]), np.array([x]))]
    got = compiled(scalar_ufuncs)(z, w, x)
    assert len(got) == len(want)
    for i, (g, e) in enumerate(zip(got, want)):
        assert type(g) in (complex, float, bool), type(g)
        assert np.array_equal(np.asarray(g), np.asarray(e), equal_nan=True) \
            or np.allclose(g, e, rtol=1e-12, atol=0, equal_nan=True), (i, z, w, x, g, e)


@EXAMPLES
@given(a=arrays(finite, max_size=6))
def test_dft_with_complex_scalar_ufunc(a):
    np.testing.assert_allclose(compiled(twiddled_dft)(a), twiddled_dft(a), rtol=1e-9, atol=1e-9)
