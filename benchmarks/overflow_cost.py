"""What the int64 overflow checks cost (docs/integers.md), kernel by kernel.

    python benchmarks/overflow_cost.py                   # every scalar, classic and workload kernel
    python benchmarks/overflow_cost.py --rounds 15 --only fib,collatz

Each kernel is compiled twice in this process: as it is, and with the frontend's overflow
checks left out (its `checked` step patched to give the wrapping result alone: the code
before the checks existed), each copy of the kernel's module functions compiled on its own
(so a recursive kernel calls its own variant). Then `--rounds` pairs of timed loops
(>= `--min-time` s each) alternate between the two, and the figure is the median of the
per-pair ratios checked / unchecked: a pair runs within a fraction of a second, so the
load of this shared machine, which moves by 2x over minutes, cancels in each ratio.
"""

from __future__ import annotations

import argparse
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

import _common  # noqa: E402
import script  # noqa: E402
from script.frontend.lower_expr import ExprLowering  # noqa: E402


def _copy_module_functions(fn):
    """`fn` and its module's other functions copied into one new globals dict, so that
    calls between them (recursion too) reach the copies."""
    g = dict(fn.__globals__)
    for name, value in list(g.items()):
        if isinstance(value, types.FunctionType) and value.__module__ == fn.__module__:
            g[name] = types.FunctionType(value.__code__, g, name, value.__defaults__, value.__closure__)
    return g[fn.__name__]


def _compile_unchecked(fn, args):
    saved = ExprLowering.checked
    ExprLowering.checked = lambda self, kind, operands, r, node: r
    try:
        f = script.script(_copy_module_functions(fn))
        f(*args)                        # compiles now, with the checks left out
    finally:
        ExprLowering.checked = saved
    return f


def _kernels(only):
    import kernels_classic
    import kernels_scalar
    import kernels_workloads
    sets = [(n, fn, args["full"]) for n, (fn, args) in kernels_scalar.KERNELS.items()]
    for K in (kernels_classic, kernels_workloads):
        sets += [(n, getattr(K, n), K.arguments(n, "full")) for n in K.NAMES]
    return [s for s in sets if not only or s[0] in only]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--min-time", type=float, default=0.05)
    p.add_argument("--only", default="")
    opts = p.parse_args(argv)
    only = set(opts.only.split(",")) if opts.only else None
    print(f"{'kernel':<16} {'checked ms':>11} {'unchecked ms':>13} {'ratio':>7} {'checks':>7}")
    ratios = []
    for name, fn, args in _kernels(only):
        checked = script.script(_copy_module_functions(fn))
        checked(*args)
        unchecked = _compile_unchecked(fn, args)
        checks = checked.ir("opt").count("OverflowError")
        number = _common.calibrate(lambda: checked(*args), opts.min_time)
        times = {"c": [], "u": []}
        for k in range(opts.rounds):
            pair = (("c", checked), ("u", unchecked)) if k % 2 == 0 else (("u", unchecked), ("c", checked))
            for key, f in pair:
                times[key].append(_common.time_per_call(lambda: f(*args), number))
        ratio = _common.median([c / u for c, u in zip(times["c"], times["u"])])
        ratios.append(ratio)
        c, u = (_common.median(times[k]) * 1e3 for k in "cu")
        print(f"{name:<16} {c:11.3f} {u:13.3f} {ratio:7.3f} {checks:7d}", flush=True)
    gm = 1.0
    for r in ratios:
        gm *= r
    print(f"{'geomean':<16} {'':11} {'':13} {gm ** (1 / len(ratios)):7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
