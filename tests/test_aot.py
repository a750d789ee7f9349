"""`scriptc aot`: a shared library and header that a C program built with the system C
compiler links and calls without Python; its answers and exception texts are CPython's.
Skipped without a C compiler."""

import math
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from script.cli import main

CC = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
pytestmark = pytest.mark.skipif(not CC or not sys.platform.startswith("linux"),
                                reason="needs a C compiler on Linux")

SOURCE = textwrap.dedent('''
    import numpy as np
    from script import script

    @script
    def poly(x: float, n: int) -> float:
        s = 0.0
        for k in range(n):
            s = s * x + k
        return s

    @script
    def floordiv(a: int, b: int) -> int:
        return a // b

    def total(a):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i]
        return s

    def scale(a, f):
        for i in range(a.shape[0]):
            a[i] *= f

    @script
    def pair(x: int, flag: bool) -> tuple:
        return x * 2, x / 3, not flag

    @script
    def show(x: float) -> float:
        if x != 0.25:
            raise ValueError(f"got {x} ({x:.3f}, {x:e})")
        return x

    @script
    def fib(n: int) -> int:
        return n if n < 2 else fib(n - 1) + fib(n - 2)

    @script
    def rounded(x: float, n: int) -> float:
        return round(x, n)

    @script
    def talk(x: int) -> int:
        print(x)
        return x
''')

# round(x, n) where scaling by 10**n is inexact: C's decimal conversions give CPython's digits
ROUNDS = [(1e-30, 25), (2.5e-323, 323), (-4.5e-24, 23), (1.2345e-20, 24), (123456789012345678901.0, -5),
          (2.5e25, -25), (5e25, -26), (-9.75e40, -40), (1.7976931348623157e308, -308), (138.35399999999998, 9)]
FLOATS = [0.1, 1.0, -2.5, 1e16, 1e15, 123456789.125, 1e-5, 0.0001, -0.0, 1e300, 5e-324,
          2.0 ** 60, 1 / 3, float("inf"), float("-inf"), float("nan")]

PROGRAM = r'''
#include <stdio.h>
#include "kern.h"

static void error(int s) { printf("%d|%s\n", s, kern_error_message()); }

int main(void) {
    double r, a[5] = {1, 2.5, 3, 4, 5};
    int64_t q, n = 5, n2 = 3, step = 16;
    int s;
    if ((s = poly(0.5, 10, &r))) error(s); else printf("%.17g\n", r);
    if ((s = floordiv(-7, 2, &q))) error(s); else printf("%lld\n", (long long)q);
    if ((s = floordiv(7, 0, &q))) error(s); else printf("%lld\n", (long long)q);
    if ((s = total(a, &n, NULL, &r))) error(s); else printf("%.17g\n", r);
    if ((s = total(a, &n2, &step, &r))) error(s); else printf("%.17g\n", r);
    if ((s = scale(a, &n, NULL, 3.0))) error(s); else printf("%.17g %.17g\n", a[0], a[4]);
    kern_pair_result p;
    if ((s = pair(7, true, &p))) error(s); else printf("%lld %.17g %d\n", (long long)p.f0, p.f1, p.f2);
    if ((s = fib(20, &q))) error(s); else printf("%lld\n", (long long)q);
    double xs[] = {@FLOATS@};
    for (unsigned k = 0; k < sizeof xs / sizeof *xs; k++)
        if ((s = show(xs[k], &r))) error(s); else printf("%.17g\n", r);
    struct { double x; int64_t n; } rs[] = {@ROUNDS@};
    for (unsigned k = 0; k < sizeof rs / sizeof *rs; k++)
        if ((s = rounded(rs[k].x, rs[k].n, &r))) error(s); else printf("%.17g\n", r);
    return 0;
}
'''


def _c_double(x: float) -> str:
    if math.isnan(x):
        return "(0.0 / 0.0)"
    if math.isinf(x):
        return "(1.0 / 0.0)" if x > 0 else "(-1.0 / 0.0)"
    return repr(x) if x != 0 or math.copysign(1, x) > 0 else "-0.0"


def _expected(ns) -> list[str]:
    out = [repr(ns["poly"].py_func(0.5, 10)), str(-7 // 2), "14|ZeroDivisionError: integer division or modulo by zero",
           repr(1 + 2.5 + 3 + 4 + 5), repr(1 + 3 + 5.0), f"{3.0!r} {15.0!r}"]
    x2, x3, flag = ns["pair"].py_func(7, True)
    out.append(f"{x2} {x3!r} {int(flag)}")
    out.append(str(ns["fib"].py_func(20)))
    for x in FLOATS:
        try:
            out.append(repr(ns["show"].py_func(x)))
        except ValueError as e:
            out.append(f"13|ValueError: {e}")
    for x, n in ROUNDS:
        try:
            out.append(repr(round(x, n)))
        except OverflowError as e:
            out.append(f"?|OverflowError: {e}")
    return out


def _build(tmp_path, *names, sigs=()):
    path = tmp_path / "kern.py"
    path.write_text(SOURCE)
    return main(["aot", str(path), *names, "-o", str(tmp_path / "libkern.so"), "--header",
                 str(tmp_path / "kern.h"), *(a for s in sigs for a in ("--sig", s))])


def test_c_program_gets_cpythons_answers(tmp_path, capsys):
    status = _build(tmp_path, "poly", "floordiv", "total", "scale", "pair", "show", "fib", "rounded",
                    sigs=("total=f64[:]", "scale=f64[:], float"))
    assert status == 0, capsys.readouterr().err
    header = (tmp_path / "kern.h").read_text()
    assert "int32_t total(const double *a_data, const int64_t *a_shape, const int64_t *a_strides, double *out);" in header
    assert "int32_t scale(double *a_data," in header            # written: not const
    assert "#define KERN_ZERODIVISIONERROR" in header
    rounds = ", ".join(f"{{{_c_double(x)}, {n}}}" for x, n in ROUNDS)
    program = PROGRAM.replace("@FLOATS@", ", ".join(map(_c_double, FLOATS))).replace("@ROUNDS@", rounds).replace("kern_pair_result", "pair_result")
    (tmp_path / "main.c").write_text(program)
    subprocess.run([CC, "-o", str(tmp_path / "main"), str(tmp_path / "main.c"), f"-L{tmp_path}", "-lkern",
                    f"-Wl,-rpath,{tmp_path}"], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run([str(tmp_path / "main")], capture_output=True, text=True, check=True, env=env)
    ns = {}
    exec(compile(SOURCE, str(tmp_path / "kern.py"), "exec"), ns)
    got = done.stdout.splitlines()
    expected = _expected(ns)
    assert len(got) == len(expected), done.stdout
    for line, want in zip(got, expected):
        if "|" in want:                     # an exception: status and text
            assert line == want or want.startswith("?|") and line.split("|")[1] == want[2:], (line, want)
            continue
        for a, b in zip(line.split(), want.split(), strict=True):
            x, y = float(a), float(b)
            assert x == y or (math.isnan(x) and math.isnan(y)), (line, want)


def test_refusal_names_function_and_reason(tmp_path, capsys):
    status = _build(tmp_path, "poly", "talk")
    err = capsys.readouterr().err
    assert status == 1
    assert "cannot export talk(int): it needs script's runtime library (script.print" in err
    assert not (tmp_path / "libkern.so").exists() and not (tmp_path / "kern.h").exists()


def test_unsigned_function_is_a_usage_error(tmp_path, capsys):
    assert _build(tmp_path, "total") == 2
    assert "--sig 'total=TYPES'" in capsys.readouterr().err


def test_parameter_without_c_type_is_refused(tmp_path, capsys):
    path = tmp_path / "cx.py"
    path.write_text("def real(z):\n    return z.real\n")
    status = main(["aot", str(path), "real", "--sig", "real=c128", "-o", str(tmp_path / "libc.so"),
                   "--header", str(tmp_path / "c.h")])
    assert status == 1
    assert "cannot export real(complex): parameter 'z' is of type c128" in capsys.readouterr().err
