"""The Numba side of the benchmarks, run by run.py as a subprocess of a Python that has Numba
(usually its own virtual environment, since Numba may not install next to the llvmlite that
script uses):

    <python-with-numba> benchmarks/numba_runner.py '<json config>'

The config names the kernels of kernels_scalar.py with their arguments and the timing
parameters; the answer is one JSON object on stdout: Numba's version, `import numba` time,
for each kernel its result, first-call (compile) time and per-call times, and the ns per
call of Numba's dispatcher and of a pure-Python function in this process. A failure of one
kernel is reported in its entry, not raised.
"""

from __future__ import annotations

import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def main() -> None:
    config = json.loads(sys.argv[1])
    t0 = time.perf_counter()
    import numba
    import_s = time.perf_counter() - t0

    import _common as C
    import kernels_scalar as K

    out = {"version": numba.__version__, "import_s": import_s, "kernels": {}, "calls": {}}
    jitted = {}
    for name in config["kernels"]:
        # Replace the module global too, so that recursive calls (fib) reach the dispatcher.
        jitted[name] = numba.njit(getattr(K, name))
        setattr(K, name, jitted[name])
    for name, args in config["kernels"].items():
        entry = out["kernels"][name] = {}
        f = jitted[name]
        try:
            t0 = time.perf_counter()
            entry["result"] = f(*args)
            entry["compile_s"] = time.perf_counter() - t0
            call = lambda: f(*args)          # noqa: E731
            number = C.calibrate(call, config["min_time"])
            entry["times"] = [C.time_per_call(call, number) for _ in range(config["repeats"])]
        except Exception as e:               # noqa: BLE001 - report, never break the run
            entry["error"] = f"{type(e).__name__}: {e}".splitlines()[0][:200]

    if config.get("calls_number"):
        def add(a, b):
            return a + b

        nb_add = numba.njit(add)
        assert nb_add(1, 2) == 3
        times = {"numba dispatcher": [], "pure Python": []}
        for _ in range(config["calls_repeats"]):
            times["numba dispatcher"].append(C.ns_per_call(nb_add, config["calls_number"]))
            times["pure Python"].append(C.ns_per_call(add, config["calls_number"]))
        out["calls"] = times
    print(json.dumps(out))


if __name__ == "__main__":
    main()
