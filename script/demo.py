"""`python -m script demo`: compile the bundled examples, run them against CPython, show IR."""

from __future__ import annotations

import time


def _best(fn, args, repeat=3):
    best = float("inf")
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn(*args)
        best = min(best, time.perf_counter() - t0)
    return best, result


def _arrays(script, out) -> None:
    """The array examples against NumPy running the same functions."""
    import numpy as np
    from script.examples import arrays
    out("\nNumPy code (script/examples/arrays.py), compiled against NumPy running it:\n")
    out(f"{'function':<16}{'compile':>10}{'NumPy':>12}{'compiled':>12}{'speed-up':>10}  same result")
    for name, args in arrays.arguments().items():
        py = getattr(arrays, name)
        t0 = time.perf_counter()
        fn = script.script(py)
        fn(*args)
        compile_s = time.perf_counter() - t0
        t_py, r_py = _best(py, args)
        t_c, r_c = _best(fn, args)
        same = "yes" if np.allclose(r_py, r_c, rtol=1e-12, atol=1e-12) else "NO"
        out(f"{name:<16}{compile_s * 1e3:>8.1f}ms{t_py * 1e3:>10.2f}ms{t_c * 1e3:>10.3f}ms{t_py / t_c:>9.1f}x  {same}")


def main(out=print) -> int:
    import script
    from script.examples import scalar

    cases = [
        ("collatz_total", (30000,)),
        ("fib", (24,)),
        ("monte_carlo_pi", (200000, 7)),
        ("poly", (0.5, 2000)),
        ("newton_sqrt", (2.0, 50)),
    ]
    out("script demo: compiling the bundled examples (script/examples/scalar.py)\n")
    out(f"{'function':<16}{'args':<18}{'compile':>10}{'CPython':>12}{'compiled':>12}{'speed-up':>10}  same result")
    for name, args in cases:
        py = getattr(scalar, name)
        t0 = time.perf_counter()
        fn = script.script(py)
        fn(*args)
        compile_s = time.perf_counter() - t0
        t_py, r_py = _best(py, args, 1)
        t_c, r_c = _best(fn, args)
        same = "yes" if r_py == r_c else f"NO ({r_py!r} vs {r_c!r})"
        out(f"{name:<16}{str(args):<18}{compile_s * 1e3:>8.1f}ms{t_py * 1e3:>10.2f}ms{t_c * 1e3:>10.3f}ms"
            f"{t_py / t_c:>9.0f}x  {same}")
    _arrays(script, out)
    poly = script.script(scalar.poly)
    poly(0.5, 10)
    poly(2, 3)
    out(f"\npoly.signatures = {poly.signatures}\n")
    out("--- poly.ir('ssa', (float, int)): typed SSA from the frontend ---")
    out(poly.ir("ssa", (float, int)))
    out("--- poly.ir('opt', (float, int)): after script's passes ---")
    out(poly.ir("opt", (float, int)))
    asm = poly.ir("asm", (float, int)).splitlines()
    out(f"--- poly.ir('asm', (float, int)): machine code, first 25 of {len(asm)} lines ---")
    out("\n".join(asm[:25]))
    return 0
