"""What the int64 overflow checks cost (docs/integers.md), kernel by kernel.

    python benchmarks/overflow_cost.py               # every scalar, classic and workload kernel
    python benchmarks/overflow_cost.py --rounds 5 --only fib,collatz

Each round runs two fresh processes one after the other, in alternating order: one compiles
the kernels as they are, the other with the frontend's overflow checks left out (its
`checked` step patched to give the wrapping result alone: the code before the checks
existed). Each process times every kernel (median of 3 loops of >= `--min-time` s). The
table gives, per kernel, the median over rounds of each variant and their ratio
(checked / unchecked); the machine is shared, so read the ratio of medians, and rerun a
kernel whose ratio is off before believing it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

_CHILD = r"""
import json, os, sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
import script
if sys.argv[3] == "unchecked":
    from script.frontend.lower_expr import ExprLowering
    ExprLowering.checked = lambda self, kind, operands, r, node: r
import _common, kernels_scalar, kernels_classic, kernels_workloads
sets = [(n, fn, args["full"]) for n, (fn, args) in kernels_scalar.KERNELS.items()]
for K in (kernels_classic, kernels_workloads):
    sets += [(n, getattr(K, n), K.arguments(n, "full")) for n in K.NAMES]
only = set(sys.argv[5].split(",")) if sys.argv[5] else None
out = {}
for name, fn, args in sets:
    if only and name not in only:
        continue
    f = script.script(fn)
    f(*args)
    number = _common.calibrate(lambda: f(*args), float(sys.argv[4]))
    out[name] = _common.median([_common.time_per_call(lambda: f(*args), number) for _ in range(3)])
print(json.dumps(out))
"""


def _run(variant: str, min_time: float, only: str) -> dict:
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("SCRIPT_VERIFY", None)
    out = subprocess.run([sys.executable, "-c", _CHILD, ROOT, HERE, variant, str(min_time), only],
                         capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--min-time", type=float, default=0.1)
    p.add_argument("--only", default="")
    opts = p.parse_args(argv)
    runs = {"checked": [], "unchecked": []}
    for k in range(opts.rounds):
        order = ("checked", "unchecked") if k % 2 == 0 else ("unchecked", "checked")
        for variant in order:
            runs[variant].append(_run(variant, opts.min_time, opts.only))
    from _common import median
    print(f"{'kernel':<16} {'checked ms':>11} {'unchecked ms':>13} {'ratio':>7}")
    ratios = []
    for name in runs["checked"][0]:
        c = median([r[name] for r in runs["checked"]]) * 1e3
        u = median([r[name] for r in runs["unchecked"]]) * 1e3
        ratios.append(c / u)
        print(f"{name:<16} {c:11.3f} {u:13.3f} {c / u:7.3f}")
    gm = 1.0
    for r in ratios:
        gm *= r
    print(f"{'geomean':<16} {'':11} {'':13} {gm ** (1 / len(ratios)):7.3f}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    sys.exit(main())
