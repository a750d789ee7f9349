"""Exception messages with values: f-strings, str.format and % formatting of ints, floats
and bools in `raise` and `assert`, against CPython."""

import math

import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check_all_levels
from script.errors import CompileError
from message_kernels import fstrings, lazy_assert, small_ints, string_parts, type_texts

SET = settings(max_examples=60, deadline=None)


@SET
@given(st.integers(-100, 100), st.floats(allow_nan=True, allow_infinity=True), st.booleans())
def test_fstrings_format_and_percent(n, x, b):
    check_all_levels(fstrings, n, x, b)


@SET
@given(st.integers(-5, 5), st.integers(-1, 1))
def test_assert_message_is_lazy(n, d):
    check_all_levels(lazy_assert, n, d)


@SET
@given(st.integers(-2**40, 2**40), st.integers(-10, 10))
def test_int_expressions_in_messages(a, b):
    check_all_levels(small_ints, a, b)


def test_string_constants_inside_messages():
    for n in range(4):
        check_all_levels(string_parts, n)


def test_unsigned_64_bit_values():
    def f(a: script.u64) -> script.u64:
        if a > 10:
            raise ValueError(f"big: {a}")
        return a
    g = script.script(f)
    with pytest.raises(ValueError, match="^big: 18446744073709551615$"):
        g(2**64 - 1)


def test_float32_values_print_as_their_double():
    def f(a: script.f32) -> script.f32:
        raise ValueError(f"{a} {a:.3f}")
    with pytest.raises(ValueError, match=r"^0\.5 0\.500$"):
        script.script(f)(0.5)


@pytest.mark.parametrize("src, match", [
    ("raise ValueError(f'{n:>5}')", "format spec '>5' is not supported"),
    ("raise ValueError(f'{n:x}')", "format spec 'x' is not supported"),
    ("raise ValueError(f'{n!a}')", "the !a conversion is not supported"),
    ("raise ValueError(f'{complex(n, 1)!r}')", "cannot be formatted in an exception message"),
    ("raise ValueError('%d %d' % (n,))", "not enough arguments for format string"),
    ("raise ValueError('%d' % (n, n))", "not all arguments converted"),
    ("raise ValueError('%c' % n)", "%c in printf-style formatting is not supported"),
    ("raise ValueError('{} {}'.format(n))", "needs argument 1"),
])
def test_unsupported_formats_are_compile_errors(tmp_path, src, match):
    path = tmp_path / "bad_message.py"
    path.write_text(f"def f(n):\n    if n > 0:\n        {src}\n    return n\n")
    ns = {}
    exec(compile(path.read_text(), str(path), "exec"), ns)
    with pytest.raises(CompileError, match=match) as info:
        script.script(ns["f"])(1)
    assert "bad_message.py:3:" in str(info.value)


def test_printf_directives_of_strs_in_messages(tmp_path):
    # a directive of its own the message formatting lacked (`%x`, `%5d`) is the str printf.py
    # makes, as CPython's (it was a CompileError)
    path = tmp_path / "hex_message.py"
    path.write_text("def f(n):\n    if n > 0:\n        raise ValueError('%x|%5d|%-3s|' % (n, n, n))\n    return n\n")
    ns = {}
    exec(compile(path.read_text(), str(path), "exec"), ns)
    for n in (10, 255, 3):
        with pytest.raises(ValueError) as want:
            ns["f"](n)
        with pytest.raises(ValueError) as got:
            script.script(ns["f"])(n)
        assert str(got.value) == str(want.value)


def test_kernel_messages_format_on_the_host():
    from script.backend.llvm.abi import encode_message, format_message
    import struct
    bits = struct.unpack("<q", struct.pack("<d", math.pi))[0]
    enc = encode_message("i=%lld x=%R %.3f %B %llu %%", 5)
    assert format_message(enc.data(), [-3, bits, bits, 0, -1]) == \
        f"i=-3 x={math.pi!r} {math.pi:.3f} False {2**64 - 1} %"


@SET
@given(st.integers(0, 12), st.floats(allow_nan=True, allow_infinity=True, width=64), st.booleans())
def test_print_writes_what_cpython_writes(n, x, b):
    import contextlib
    import io
    from message_kernels import printing
    for compiled in (script.script(printing, opt=0), script.script(printing)):
        want, got = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(want):
            printing(n, x, b)
        with contextlib.redirect_stdout(got):
            compiled(n, x, b)
        assert got.getvalue() == want.getvalue()


def test_print_from_threads_without_the_gil(capfd):
    import threading

    def count(n):
        t = 0
        for i in range(n):
            t += i
        print("total", t)
        return t
    f = script.script(count, nogil=True)
    threads = [threading.Thread(target=f, args=(200_000,)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert capfd.readouterr().out.count(f"total {sum(range(200_000))}\n") == 4


def test_a_print_without_values_ends_its_kinds(capfd):
    """script.print reads a slot kind for each slot until KINDS_END: a print of a constant
    (no slots) once had none, and read on into whatever followed the constant (addresses,
    which vary from run to run): about one process in twenty took one for a str and crashed."""
    import re

    def shout(n: int):
        if n > 1:
            print("big")
        print()
    f = script.script(shout)
    for n in (0, 5):
        f(n)
    assert capfd.readouterr().out == "\nbig\n\n"
    ir = next(iter(f._specializations.values())).native.llvm_ir
    assert re.search(r'c"big\\0A\\00\\FF\\00"', ir) and re.search(r'c"\\0A\\00\\FF\\00"', ir), ir


def test_print_options_and_errors():
    def bad_file(n):
        print(n, file=None)

    def bad_value(a):
        print(a.flat)
    with pytest.raises(CompileError, match="print\\(\\) keyword 'file' is not supported"):
        script.script(bad_file)(1)
    import numpy as np
    with pytest.raises(CompileError):
        script.script(bad_value)(np.zeros(2))


def test_print_in_a_kernel_is_a_compile_error():
    import numpy as np
    from script import cuda

    def show(x):
        i = cuda.grid(1)
        if i < x.shape[0]:
            print("x", x[i])
    with pytest.raises(CompileError, match="print\\(\\) is not supported in kernels") as info:
        script.kernel(show)[1, 2](np.array([1.5, 2.5]))
    assert "test_messages.py" in str(info.value)


def _print_maybe(n):
    x = n if n > 0 else None
    y = n if n > 1 else 0.5
    print(x, y, [x], f"{x}")


def test_print_of_a_value_or_none_and_of_an_int_or_a_float(capsys):
    """print() of a value that may be None shows None (it raised TypeError: the value was
    unwrapped as an operand is), and of an int|float the type it holds."""
    for n in (2, 1, -1):
        _print_maybe(n)
        want = capsys.readouterr().out
        script.script(_print_maybe)(n)
        assert capsys.readouterr().out == want


@pytest.mark.parametrize("x", [3, 2.5, True, "a"])
@pytest.mark.parametrize("n", [2, 1, -1])
def test_type_of_a_value_as_text(x, n):
    check_all_levels(type_texts, x, n)


def _type_tuples(a, b):
    # TheAlgorithms conversions/rgb_cmyk_conversion.py: f"Expected int, found {type(r), type(g)}"
    return f"{type(a), type(b)}", f"{(type(a),)}", str((type(a), b)), f"{(1, (type(b), 'x'))}"


@pytest.mark.parametrize("args", [(1, "x"), (2.5, [1]), (True, None)])
def test_a_tuple_display_of_types_is_cpythons_text(args):
    check_all_levels(_type_tuples, *args)
