"""Compile cost in instructions, which the machine's load does not change: N fresh functions
(compile_time.py's, run.py's COMPILE_TEMPLATE) compiled and first called under valgrind's
callgrind, counted from the first compile to the last, split into LLVM (inside ctypes'
`ffi_call`: parsing, optimization, code generation, linking) and the rest (Python: source,
frontend, IR passes, lowering to LLVM IR text, dispatch).

    python benchmarks/compile_instructions.py [--trials N] [--keep FILE]

Needs `valgrind` and `callgrind_control` on the PATH (Linux). Three warm-up compiles run
first, uncounted (JIT creation, the runtime library, entry points). The process runs with
instrumentation off until the trials start (callgrind's --instr-atstart=no), so a run of
4 trials takes a minute or two. The count includes ~0.5 million instructions of starting
`callgrind_control` twice; at ~70 million a compile, under 1%. A difference of a few tenths
of a percent between two checkouts is real (the counts repeat to a few in ten thousand),
which wall-clock medians on a shared machine cannot show. A full collection runs before the
trials: a collection of the older generations falling among them added ~2 million
instructions a compile to one run of 4 and not to another (the young generation's, after
each compile, are counted).
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def child(trials: int) -> None:
    """Runs under callgrind: warm up, then instrument the trials only."""
    sys.path[:0] = [os.path.join(HERE, ".."), HERE]
    import script
    from compile_time import fresh_functions
    from run import COMPILE_ARGS
    keep = []
    with tempfile.TemporaryDirectory(prefix="script-compile-instr-") as tmp:
        for fn in fresh_functions(3, tmp, "warm"):
            f = script.script(fn)
            f(*COMPILE_ARGS)
            keep.append(f)
        fns = list(fresh_functions(trials, tmp, "cg"))
        gc.collect()            # the trials start with empty young generations: see above
        pid = str(os.getpid())
        subprocess.run(["callgrind_control", "-i", "on", pid], check=True, capture_output=True)
        for fn in fns:
            f = script.script(fn)
            f(*COMPILE_ARGS)
            keep.append(f)
        subprocess.run(["callgrind_control", "-i", "off", pid], check=True, capture_output=True)


def _inclusive(out_file: str) -> tuple[int, int]:
    """(all instructions, those inside ffi_call) from callgrind_annotate's inclusive view."""
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out_file],
                          check=True, capture_output=True, text=True).stdout
    total = ffi = 0
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+)\s", line)
        if not m:
            continue
        n = int(m.group(1).replace(",", ""))
        if "PROGRAM TOTALS" in line:
            total = n
        elif re.search(r":ffi_call\b(?!')", line) and n > ffi:
            ffi = n
    return total, ffi


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=4)
    parser.add_argument("--keep", help="keep callgrind's output in this file")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.child:
        child(opts.trials)
        return
    if not (shutil.which("valgrind") and shutil.which("callgrind_control")):
        sys.exit("compile_instructions.py needs valgrind (callgrind) on the PATH")
    out_file = opts.keep or tempfile.mktemp(prefix="callgrind.", suffix=".out")
    subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no",
                    f"--callgrind-out-file={out_file}", sys.executable, os.path.abspath(__file__),
                    "--child", "--trials", str(opts.trials)],
                   check=True, capture_output=True)
    total, ffi = _inclusive(out_file)
    if not opts.keep:
        os.unlink(out_file)
    n = opts.trials
    print(f"instructions per compile (millions), {n} fresh functions under callgrind:")
    print(f"{'total':>9s} {'LLVM':>9s} {'Python':>9s}")
    print(f"{total / n / 1e6:9.2f} {ffi / n / 1e6:9.2f} {(total - ffi) / n / 1e6:9.2f}")


if __name__ == "__main__":
    main()
