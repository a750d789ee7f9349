"""Complex numbers (docs/complex.md): each operation run in CPython and compiled on the same
inputs, infinities, NaNs and signed zeros included, comparing results and exceptions."""

import cmath
import math

import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check, check_all_levels, compiled
from script.errors import CompileError

SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, math.inf, -math.inf, math.nan, 1e308, -1e308,
           5e-324, 1e-300, 3.0]
parts = st.one_of(st.sampled_from(SPECIAL), st.floats(allow_nan=True, allow_infinity=True),
                  st.floats(-10, 10))
complexes = st.builds(complex, parts, parts)
finite_complexes = st.builds(complex, st.floats(-1e6, 1e6), st.floats(-1e6, 1e6))
reals = st.one_of(parts, st.integers(-10**6, 10**6))
EXAMPLES = settings(max_examples=60, deadline=None)


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


def div(a, b):
    return a / b


def power(a, b):
    return a ** b


def eq(a, b):
    return a == b, a != b


BINARY = [add, sub, mul, div, power, eq]


@pytest.mark.parametrize("fn", BINARY, ids=lambda f: f.__name__)
@EXAMPLES
@given(a=complexes, b=complexes)
def test_binary_complex(fn, a, b):
    check(fn, compiled(fn), a, b)


@pytest.mark.parametrize("fn", BINARY, ids=lambda f: f.__name__)
@settings(max_examples=30, deadline=None)
@given(a=complexes, b=reals, swap=st.booleans())
def test_binary_mixed(fn, a, b, swap):
    """complex with float or int: the real operand becomes complex(x, 0.0) first (3.11)."""
    check(fn, compiled(fn), *((b, a) if swap else (a, b)))


def small_powers(z, n: int):
    return z ** n


@EXAMPLES
@given(z=st.one_of(complexes, finite_complexes), n=st.integers(-120, 120))
def test_integer_powers(z, n):
    check(small_powers, compiled(small_powers), z, n)


def constant_powers(z):
    return z ** 2, z ** 3, z ** 1, z ** -1, z ** 0


def square_root_power(z):
    return z ** 0.5


def constant_powers_2(z):
    return z ** 2


@EXAMPLES
@given(z=st.one_of(complexes, finite_complexes))
def test_constant_powers(z):
    check(constant_powers, compiled(constant_powers), z)
    # _Py_c_pow's pow(|z|, 0.5) is sqrt(|z|) above opt=0 (LLVM's rewrite, correctly rounded;
    # glibc's pow is an ulp off for some |z|: docs/differences.md)
    check(square_root_power, compiled(square_root_power, opt=0), z)
    check(square_root_power, compiled(square_root_power), z, approx=True)
    check(constant_powers_2, compiled(constant_powers_2), z)


def unary(z):
    return -z, +z, z.real, z.imag, z.conjugate(), bool(z), not z, z == z


def absolute(z):
    return abs(z)


@EXAMPLES
@given(z=complexes)
def test_unary(z):
    check(unary, compiled(unary), z)
    check(absolute, compiled(absolute), z)


def construct(a, b):
    return complex(a, b), complex(a), complex(real=a, imag=b), complex(imag=b)


@EXAMPLES
@given(a=st.one_of(reals, complexes), b=st.one_of(reals, complexes))
def test_constructor(a, b):
    check(construct, compiled(construct), a, b)


def literals(x: float):
    z = 1j * x + 2 - 3.5j
    w = complex(x, -x) / (1 + 1j)
    return z, w, 1j, -0j, 2 + 0j


@EXAMPLES
@given(x=parts)
def test_literals(x):
    check(literals, compiled(literals), x)


def mandelbrot(c: complex, limit: int) -> int:
    z = 0j
    for i in range(limit):
        z = z * z + c
        if abs(z) > 2.0:
            return i
    return limit


def julia(z, c, limit: int):
    n = 0
    while n < limit and z.real * z.real + z.imag * z.imag <= 4.0:
        z = z ** 2 + c
        n += 1
    return n, z


@EXAMPLES
@given(c=st.builds(complex, st.floats(-2, 1), st.floats(-1.5, 1.5)))
def test_mandelbrot_julia(c):
    check(mandelbrot, compiled(mandelbrot), c, 200)
    check(julia, compiled(julia), c, -0.8 + 0.156j, 100)


def accumulate(n: int, x: float):
    total = 0j           # a complex accumulator from the start: CPython's answer for n = 0 too
    for k in range(n):
        total = total + x * 1j ** k
    return total


def accumulate_from_int(n: int, x: float):
    total = 0            # an int that becomes complex in the loop: 0 for n = 0, as CPython's
    for k in range(n):
        total = total + x * 1j ** k
    return total


def test_widening_loop_variable():
    for n in range(6):
        check(accumulate, compiled(accumulate), n, 0.75)
    with pytest.raises(CompileError, match=r"'total' has incompatible types i64 and c128.*"
                                           r"real number and a complex apart.*start of `0j`"):
        compiled(accumulate_from_int)(2, 0.75)


def branches(z: complex, flag: bool):
    w = z if flag else 2.0          # a complex or a float: no compiled value is either
    return w * 2


def real_or_complex(z: complex):
    return z.real if not z.imag else z


def test_merge():
    """A value that is a complex on one path and a float on another is refused at the line
    (making the float complex would change its type and its text: `(2+0j)` for `2.0`); returned
    to Python, it is either, as in CPython (a union: frontend/union_returns.py)."""
    with pytest.raises(CompileError, match=r"(f64 and c128|c128 and f64).*real number and a complex apart"):
        compiled(branches)(1 - 2j, False)
    for z in (2 + 0j, 2 - 1j, -0.0 + 0j):
        check_all_levels(real_or_complex, z)


GLOBAL_Z = 0.5 - 1.5j


def uses_global(z):
    return z * GLOBAL_Z + cmath.pi


def test_globals_and_cmath_constants():
    check(uses_global, compiled(uses_global), 2 + 1j)


def complex_tuple(z):
    return (z, z.real), [z, 2 * z]


def test_tuples_and_lists():
    check(complex_tuple, compiled(complex_tuple), 1.5 + 2j)


def test_numpy_complex_scalar_argument():
    import numpy as np
    f = compiled(mul)
    assert f(np.complex128(1 + 2j), 3j) == (1 + 2j) * 3j
    assert f(np.complex64(1 + 2j), 1j) == complex(np.complex64(1 + 2j)) * 1j


# ---- unsupported uses: CompileErrors with CPython's wording at the user's line -------------

def order(a, b):
    return a < b


def floor_div(a, b):
    return a // b


def modulo(a, b):
    return a % b


def to_int(z):
    return int(z)


def to_float(z):
    return float(z)


def invert(z):
    return ~z


def real_math(z):
    return math.sqrt(z)


def biggest(a, b):
    return max(a, b)


def rounded(z):
    return round(z)


def divided(a, b):
    return divmod(a, b)


def sort_them(z):
    return sorted([z, 1j])


@pytest.mark.parametrize("fn, args, text", [
    (sort_them, (2j,), "'<' not supported between instances of 'complex' and 'complex'"),
    (biggest, (1j, 2j), "'>' not supported between instances of 'complex' and 'complex'"),
    (rounded, (1j,), "type complex doesn't define __round__ method"),
    (divided, (1j, 1), "unsupported operand type(s) for divmod(): 'complex' and 'int'"),
    (order, (1j, 2j), "'<' not supported between instances of 'complex' and 'complex'"),
    (order, (1j, 2), "'<' not supported between instances of 'complex' and 'int'"),
    (floor_div, (1j, 2.0), "unsupported operand type(s) for //: 'complex' and 'float'"),
    (modulo, (1j, 1j), "unsupported operand type(s) for %: 'complex' and 'complex'"),
    (to_int, (1j,), "int() argument must be a string, a bytes-like object or a real number, not 'complex'"),
    (to_float, (1j,), "float() argument must be a string or a real number, not 'complex'"),
    (invert, (1j,), "bad operand type for unary ~: 'complex'"),
    (real_math, (1j,), "must be real number, not complex"),
])
def test_compile_errors(fn, args, text):
    with pytest.raises(TypeError) as py_err:
        fn(*args)
    assert str(py_err.value) == text
    try:
        script.script(fn)(*args)
    except CompileError as err:       # refused at the line
        assert text in str(err)
        assert f"{fn.__code__.co_firstlineno + 1}:" in str(err)
    except TypeError as err:          # or CPython's own error, where CPython raises it
        assert str(err) == text
    else:
        pytest.fail("no error")


# ---- cmath ---------------------------------------------------------------------------------

def cm_exp(z):
    return cmath.exp(z)


def cm_sqrt(z):
    return cmath.sqrt(z)


def cm_log(z):
    return cmath.log(z)


def cm_log10(z):
    return cmath.log10(z)


def cm_sin(z):
    return cmath.sin(z)


def cm_cos(z):
    return cmath.cos(z)


def cm_tan(z):
    return cmath.tan(z)


def cm_sinh(z):
    return cmath.sinh(z)


def cm_cosh(z):
    return cmath.cosh(z)


def cm_tanh(z):
    return cmath.tanh(z)


def cm_inverse(z):
    return cmath.acos(z), cmath.asin(z), cmath.atan(z)


def cm_inverse_h(z):
    return cmath.acosh(z), cmath.asinh(z), cmath.atanh(z)


def cm_phase_polar(z):
    return cmath.phase(z), cmath.polar(z)


def cm_predicates(z):
    return cmath.isnan(z), cmath.isinf(z), cmath.isfinite(z)


CMATH = [cm_exp, cm_sqrt, cm_log, cm_log10, cm_sin, cm_cos, cm_tan, cm_sinh, cm_cosh, cm_tanh,
         cm_phase_polar, cm_predicates, cm_inverse, cm_inverse_h]
wide = st.one_of(complexes, finite_complexes,
                 st.builds(complex, st.floats(-800, 800), st.floats(-800, 800)))


def atan2_underflows(z) -> bool:
    """glibc's atan2 sets errno (ERANGE) for some arguments whose quotient underflows, and
    CPython's phase and polar then raise OverflowError; compiled code gives 0.0 (documented)."""
    return z.imag != 0 and math.isfinite(z.real) and math.atan2(z.imag, z.real) == 0


@pytest.mark.parametrize("fn", CMATH, ids=lambda f: f.__name__)
@settings(max_examples=50, deadline=None)
@given(z=wide)
def test_cmath(fn, z):
    if fn is cm_phase_polar and atan2_underflows(z):
        return
    check(fn, compiled(fn), z)


def cm_rect(r, phi):
    return cmath.rect(r, phi)


def cm_log_base(z, b):
    return cmath.log(z, b)


def cm_isclose(a, b):
    return cmath.isclose(a, b), cmath.isclose(a, b, rel_tol=1e-3, abs_tol=0.5)


@settings(max_examples=50, deadline=None)
@given(a=parts, b=parts, z=complexes, w=complexes)
def test_cmath_two_arguments(a, b, z, w):
    check(cm_rect, compiled(cm_rect), a, b)
    check(cm_log_base, compiled(cm_log_base), z, w)
    check(cm_isclose, compiled(cm_isclose), z, w)


def test_cmath_real_arguments():
    for x in (2, -3.5, 0.0, True):
        check(cm_sqrt, compiled(cm_sqrt), x)
        check(cm_log, compiled(cm_log), x)


def printing(z, w, n: int):
    print(z)
    print("z =", z, "w =", w, n, sep=", ", end=".\n")
    return n


def test_print(capsys):
    """complex_repr: ``1j`` for a +0.0 real part, else ``(re+imj)``, parts without ".0"."""
    @settings(max_examples=30, deadline=None)
    @given(z=complexes, w=complexes)
    def each(z, w):
        capsys.readouterr()
        printing(z, w, 3)
        want = capsys.readouterr().out
        compiled(printing)(z, w, 3)
        assert capsys.readouterr().out == want
    each()


def formatted(z, w, k: int):
    if k == 0:
        raise ValueError(f"bad z={z} w={w}!")
    if k == 1:
        raise ValueError("z is " + str(z) + " 100%")
    raise OverflowError("{} and {}".format(w, z))


@settings(max_examples=30, deadline=None)
@given(z=complexes, w=complexes, k=st.integers(0, 2))
def test_raise_messages(z, w, k):
    check(formatted, compiled(formatted), z, w, k)


def asserted(z):
    assert z == 0, f"{z}"


def test_formatting_elsewhere_is_a_compile_error():
    with pytest.raises(CompileError, match="formatted in a raise's message, not here"):
        script.script(asserted)(1j)


def list_argument(lst):
    s = 0j
    for z in lst:
        s += z * z
    return s, len(lst), lst[-1]


def test_list_arguments():
    """A list of complex numbers is one; with ints or floats among them it is refused at the
    call (they would become complex: `print(lst[0])` would show `(3+0j)`)."""
    for lst in ([1 + 1j], [complex(-0.0, math.nan), 0j]):
        check(list_argument, compiled(list_argument), lst)
    with pytest.raises(TypeError, match="not supported in compiled code"):
        compiled(list_argument)([3, 2.5, 1j])
