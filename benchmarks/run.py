"""script's benchmark harness: steady-state speed against C (and CPython, Numba), call
overhead, compile latency and `import script` time, printed in one run.

    python benchmarks/run.py                 # the full run (about a minute and a half)
    python benchmarks/run.py --quick         # a smoke run (< 20 s): small sizes, no Numba
    python benchmarks/run.py --only kernels  # sections: kernels, calls, compile, import,
                                             # or kernel names (fib,collatz,...), comma-separated
    python benchmarks/run.py --json out.json # also write every figure as JSON

Figures are medians of several repeats (the machines are shared), and ratios are of medians.
Timing never gates anything: the targets are printed beside the figures, marked ok or MISS.
See benchmarks/README.md for the method.
"""

from __future__ import annotations

import argparse
import ctypes
import importlib.util
import json
import math
import operator
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, ROOT)

import _common as C            # noqa: E402
import kernels_scalar as K     # noqa: E402

TARGET_KERNEL_RATIO = 1.1      # script time / C time, each kernel
TARGET_COMPILE_S = 0.030       # decorate + first call - steady call, ~20-line function
TARGET_IMPORT_S = 0.12         # `import numpy; import script` in a fresh process
CFLAGS = ["-O3", "-march=native", "-ffp-contract=off", "-fPIC", "-shared"]
SECTIONS = ("kernels", "calls", "compile", "import")
DEFAULT_NUMBA_VENV = "/tmp/numba-venv/bin/python"


# ------------------------------------------------------------------------------------------
# settings and formatting

class Settings:
    def __init__(self, opts):
        self.quick = opts.quick
        self.size = "quick" if opts.quick else "full"
        self.repeats = opts.repeats or (3 if opts.quick else 7)
        self.min_time = 0.01 if opts.quick else 0.2          # seconds per timed loop
        self.cpy_repeats = 1 if opts.quick else 3
        self.calls_number = 20_000 if opts.quick else 200_000
        self.calls_repeats = 3 if opts.quick else 15
        self.compile_trials = 2 if opts.quick else 9
        self.cold_trials = 1 if opts.quick else 3
        self.import_runs = 1 if opts.quick else 9
        self.numba_python = None if (opts.quick and not opts.numba) or opts.no_numba \
            else find_numba_python(opts.numba_python)
        self.numba_note = ("skipped (--quick; pass --numba to include it)" if opts.quick
                           and not opts.numba else "skipped (--no-numba)" if opts.no_numba
                           else "not installed")
        # Fresh processes (import time, cold compile) import from this working tree and keep
        # their .pyc files outside it, written even where PYTHONDONTWRITEBYTECODE is set: an
        # installed package imports from cached bytecode, so that is what is measured.
        self.env = child_env(PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))


PYCACHE = os.path.join(tempfile.gettempdir(), "script-bench-pycache")


def child_env(**extra):
    env = dict(os.environ, PYTHONPYCACHEPREFIX=PYCACHE, **extra)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def fmt_time(s) -> str:
    if s is None or (isinstance(s, float) and math.isnan(s)):
        return "-"
    if s < 0:
        return "-" + fmt_time(-s)
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.2f} ms"
    if s >= 1e-6:
        return f"{s * 1e6:.1f} us"
    return f"{s * 1e9:.0f} ns"


def fmt_ratio(r) -> str:
    return "-" if r is None or math.isnan(r) else f"{r:.2f}x" if r < 100 else f"{r:.0f}x"


def ratio(a, b):
    return a / b if a is not None and b and not math.isnan(a) and not math.isnan(b) else None


def verdict(ok) -> str:
    return "-" if ok is None else "ok" if ok else "MISS"


def table(rows, header) -> None:
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    line = lambda r: "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)   # noqa: E731
                               for i, (c, w) in enumerate(zip(r, widths)))
    print(line(header))
    print(line(["-" * w for w in widths]))
    for r in rows:
        print(line(r))


def section(title: str) -> None:
    print(f"\n== {title} " + "=" * max(0, 86 - len(title)))


# ------------------------------------------------------------------------------------------
# environment: gcc, Numba

def gcc_version():
    gcc = shutil.which("gcc")
    if gcc is None:
        return None
    out = subprocess.run([gcc, "--version"], capture_output=True, text=True).stdout
    return out.splitlines()[0] if out else "gcc"


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def find_numba_python(explicit):
    """A Python that can import numba: --numba-python, $SCRIPT_BENCH_NUMBA_PYTHON, this one,
    or /tmp/numba-venv (see README). None when none works."""
    candidates = [explicit, os.environ.get("SCRIPT_BENCH_NUMBA_PYTHON")]
    if importlib.util.find_spec("numba") is not None:
        candidates.append(sys.executable)
    candidates.append(DEFAULT_NUMBA_VENV)
    for py in candidates:
        if py and os.path.exists(py):
            r = subprocess.run([py, "-c", "import numba"], capture_output=True, timeout=120)
            if r.returncode == 0:
                return py
    return None


def run_numba(settings, config):
    """Run numba_runner.py; returns (result dict, None) or (None, reason)."""
    if settings.numba_python is None:
        return None, settings.numba_note
    try:
        r = subprocess.run([settings.numba_python, os.path.join(HERE, "numba_runner.py"),
                            json.dumps(config)], capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return None, "timed out"
    if r.returncode != 0:
        tail = (r.stderr.strip().splitlines() or ["?"])[-1]
        return None, f"failed ({tail[:120]})"
    try:
        return json.loads(r.stdout.strip().splitlines()[-1]), None
    except (ValueError, IndexError):
        return None, "failed (unreadable output)"


# ------------------------------------------------------------------------------------------
# 1. scalar kernels

def build_c(names, build_dir):
    """Compile benchmarks/c/<name>.c into shared libraries; {name: ctypes function}."""
    gcc = shutil.which("gcc")
    funcs = {}
    if gcc is None:
        return funcs
    for name in names:
        src = os.path.join(HERE, "c", f"{name}.c")
        if not os.path.exists(src):
            continue
        lib = os.path.join(build_dir, f"lib{name}.so")
        subprocess.run([gcc, *CFLAGS, "-o", lib, src], check=True)
        funcs[name] = getattr(ctypes.CDLL(lib), f"bench_{name}")
    return funcs


def c_caller(cfunc, args, result):
    """A `run(reps) -> (seconds per call, result)` over the C `bench_<name>`."""
    ctype = lambda v: ctypes.c_double if isinstance(v, float) else ctypes.c_int64   # noqa: E731
    cfunc.argtypes = [ctype(a) for a in args] + [ctypes.c_int, ctypes.POINTER(ctype(result))]
    cfunc.restype = ctypes.c_double
    out = ctype(result)()

    def run(reps):
        per_call = cfunc(*args, reps, ctypes.byref(out))
        return per_call, out.value
    return run


def bench_kernels(settings, names, results):
    import script
    section("1. Scalar kernels: steady state (lower is better)")
    gcc = gcc_version()
    print(f"Method: median of {settings.repeats} repeats, each a loop of calls lasting "
          f">= {settings.min_time} s (CPython: {settings.cpy_repeats} "
          f"repeat{'s' if settings.cpy_repeats > 1 else ''}).")
    print(f"  C: {gcc or 'gcc not found'}, flags {' '.join(CFLAGS[:3])}; the repetition loop runs "
          "inside C (clock_gettime), inputs laundered\n     through an empty asm so nothing is "
          "hoisted; -ffp-contract=off keeps Python's float rounding (no FMA).")
    print("  script / Numba / CPython: a loop of calls timed from Python with perf_counter; the "
          "call overhead\n     (tens of ns) is < 0.01% of a kernel call at these sizes. C and "
          "script repeats are interleaved.")
    print("  Results of every implementation are checked equal to CPython's before timing.")
    print("  Python's // and % floor, C's truncate: operands stay non-negative so both agree, but "
          "script pays for the\n     floor form where it cannot prove an operand non-negative, "
          "and C for truncation in % by a power of two.")
    kernels = {n: K.KERNELS[n] for n in names}
    numba_res, numba_why = run_numba(settings, {
        "kernels": {n: list(sizes[settings.size]) for n, (_, sizes) in kernels.items()},
        "repeats": settings.repeats, "min_time": settings.min_time})
    numba_version = numba_res["version"] if numba_res else None
    print(f"  Numba: {numba_version + ' (' + settings.numba_python + ', a subprocess)' if numba_res else numba_why}")
    build_dir = tempfile.mkdtemp(prefix="script-bench-c-")
    try:
        cfuncs = build_c(kernels, build_dir)
    finally:          # the loaded libraries stay mapped after their files are gone
        shutil.rmtree(build_dir, ignore_errors=True)
    rows, out = [], {}
    for name, (fn, sizes) in kernels.items():
        args = sizes[settings.size]
        r = out[name] = {"args": list(args)}
        # CPython: the reference result
        t0 = time.perf_counter()
        expected = fn(*args)
        first = time.perf_counter() - t0
        r["result"] = expected
        cpy_call = lambda: fn(*args)                            # noqa: E731
        number = max(1, math.ceil(settings.min_time / first)) if first > 0 else 1
        r["cpython"] = [first] if settings.quick else \
            [C.time_per_call(cpy_call, number) for _ in range(settings.cpy_repeats)]
        # script: decorate + first call compiles
        t0 = time.perf_counter()
        f = script.script(fn)
        got = f(*args)
        r["script_first_call_s"] = time.perf_counter() - t0
        check = {"script": got}
        # C
        c_run = None
        if name in cfuncs:
            c_run = c_caller(cfuncs[name], args, expected)
            check["C"] = c_run(1)[1]
        if numba_res and "result" in numba_res["kernels"].get(name, {}):
            check["Numba"] = numba_res["kernels"][name]["result"]
        bad = {k: v for k, v in check.items() if not C.same_result(v, expected)}
        if bad:
            print(f"  !! {name}{tuple(args)}: CPython gives {expected!r}, but "
                  + ", ".join(f"{k} gives {v!r}" for k, v in bad.items()))
            r["mismatch"] = {k: repr(v) for k, v in bad.items()}
        # interleaved repeats of script and C
        s_call = lambda: f(*args)                               # noqa: E731
        s_number = C.calibrate(s_call, settings.min_time)
        c_reps = None
        if c_run is not None:
            one = c_run(1)[0]
            c_reps = max(1, math.ceil(settings.min_time / one)) if one > 0 else 1000
        r["script"], r["C"] = [], []
        for _ in range(settings.repeats):
            if c_run is not None:
                r["C"].append(c_run(c_reps)[0])
            r["script"].append(C.time_per_call(s_call, s_number))
        nk = (numba_res or {}).get("kernels", {}).get(name, {})
        r["numba"] = nk.get("times", [])
        if "error" in nk:
            print(f"  Numba {name}: {nk['error']}")
        m = {k: C.median(r[k]) if r[k] else None for k in ("cpython", "script", "numba", "C")}
        r["median"] = m
        s_c = ratio(m["script"], m["C"])
        r["script_over_C"] = s_c
        rows.append([name, ", ".join(map(str, args)), fmt_time(m["cpython"]),
                     fmt_time(m["script"]), fmt_time(m["numba"]), fmt_time(m["C"]),
                     fmt_ratio(s_c), fmt_ratio(ratio(m["numba"], m["C"])),
                     fmt_ratio(ratio(m["cpython"], m["script"])),
                     verdict(None if s_c is None else s_c <= TARGET_KERNEL_RATIO)])
    geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None     # noqa: E731
    s_cs = [out[n]["script_over_C"] for n in out if out[n]["script_over_C"]]
    n_cs = [ratio(out[n]["median"]["numba"], out[n]["median"]["C"]) for n in out]
    n_cs = [x for x in n_cs if x]
    p_ss = [ratio(out[n]["median"]["cpython"], out[n]["median"]["script"]) for n in out]
    p_ss = [x for x in p_ss if x]
    if len(out) > 1:
        rows.append(["geomean", "", "", "", "", "", fmt_ratio(geo(s_cs)), fmt_ratio(geo(n_cs)),
                     fmt_ratio(geo(p_ss)), ""])
    print()
    table(rows, ["kernel", "args", "CPython", "script", "Numba", "C", "script/C", "Numba/C",
                 "CPython/script", f"script/C<={TARGET_KERNEL_RATIO}"])
    firsts = ", ".join(f"{n} {fmt_time(out[n]['script_first_call_s'])}" for n in out)
    print(f"\nscript decorate + first call (compile included): {firsts}")
    if numba_res:
        print("Numba first call (compile included):            " + ", ".join(
            f"{n} {fmt_time(numba_res['kernels'][n].get('compile_s'))}" for n in out))
    results["kernels"] = {"numba": numba_version or numba_why, "cflags": CFLAGS, "gcc": gcc,
                          "per_kernel": out}


# ------------------------------------------------------------------------------------------
# 2. call overhead

def bench_calls(settings, results):
    import script
    section("2. Call overhead: f(1, 2) on two ints, ns per call")
    print(f"Method: interleaved rounds of timeit('f(1, 2)', number={settings.calls_number}); median "
          f"and min over {settings.calls_repeats} rounds.\n  Every figure includes timeit's own "
          "loop (a few ns). Numba runs in its own process, beside a pure-Python f measured there.")

    def add(a, b):
        return a + b

    def add_annotated(a: int, b: int) -> int:
        return a + b

    compiled = script.script(add)
    compiled(1, 2)                                   # compiles the (int, int) specialization
    candidates = {
        "pure Python f(a, b)": add,
        "operator.add": operator.add,
        "script f(a, b), unannotated": compiled,
        "script f(a: int, b: int)": script.script(add_annotated),
    }
    try:                                              # the other engineer's IR-level entry point
        import call_overhead
        candidates["script IR-built add (call_overhead.py)"] = call_overhead.compiled_add()[0]
        candidates["ctypes CFUNCTYPE (native add)"] = call_overhead.ctypes_add()
    except Exception as e:                            # noqa: BLE001
        print(f"  (call_overhead.py candidates skipped: {type(e).__name__}: {e})")
    for name, f in candidates.items():
        assert f(1, 2) == 3, name
    times = {name: [] for name in candidates}
    for _ in range(settings.calls_repeats):
        for name, f in candidates.items():
            times[name].append(C.ns_per_call(f, settings.calls_number))
    numba_res, numba_why = run_numba(settings, {"kernels": {}, "calls_number": settings.calls_number,
                                                "calls_repeats": settings.calls_repeats})
    py = C.median(times["pure Python f(a, b)"])
    rows = []
    for name, ts in times.items():
        rows.append([name, f"{C.median(ts):.1f}", f"{min(ts):.1f}", fmt_ratio(C.median(ts) / py)])
    if numba_res:
        nb, nb_py = numba_res["calls"]["numba dispatcher"], numba_res["calls"]["pure Python"]
        rows.append([f"Numba {numba_res['version']} dispatcher", f"{C.median(nb):.1f}",
                     f"{min(nb):.1f}", fmt_ratio(C.median(nb) / C.median(nb_py))])
        rows.append(["  (pure Python, in Numba's process)", f"{C.median(nb_py):.1f}",
                     f"{min(nb_py):.1f}", "1.00x"])
        times["numba dispatcher"] = nb
        times["numba process: pure Python"] = nb_py
    else:
        rows.append(["Numba dispatcher", "-", "-", numba_why.split(" (")[0]])
    table(rows, ["callable", "median ns", "min ns", "vs pure Python"])
    s = C.median(times["script f(a, b), unannotated"])
    ok = s <= py
    print(f"\ntarget: script call <= pure-Python call: {s:.1f} vs {py:.1f} ns -> {verdict(ok)}")
    results["calls"] = {"ns": times, "target_ok": ok}


# ------------------------------------------------------------------------------------------
# 3. compile latency

COMPILE_TEMPLATE = '''\
import math


def {name}(n, x0):
    """A damped oscillator stepped with semi-implicit Euler, with a few statistics."""
    x = x0
    v = 0.0
    dt = 0.01 + {k} * 1e-9
    energy_max = 0.0
    crossings = 0
    for i in range(n):
        a = -4.0 * x - 0.1 * v
        v += a * dt
        x_new = x + v * dt
        if x_new * x < 0.0:
            crossings += 1
        e = 0.5 * v * v + 2.0 * x_new * x_new
        if e > energy_max:
            energy_max = e
        elif e < 1e-12:
            break
        x = x_new
    if crossings % 2 == 1:
        return math.sqrt(energy_max) + crossings
    return energy_max - math.log1p(abs(x)) + crossings
'''
COMPILE_ARGS = (1000, 1.0)

COLD_SNIPPET = r'''
import importlib.util, json, sys, time
t0 = time.perf_counter()
import script
t1 = time.perf_counter()
spec = importlib.util.spec_from_file_location(sys.argv[2], sys.argv[1])
mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
fn = getattr(mod, sys.argv[2])
t2 = time.perf_counter()
f = script.script(fn); f(1000, 1.0)
t3 = time.perf_counter()
f(1000, 1.0)
t4 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "first": t3 - t2, "steady": t4 - t3}))
'''


def load_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def bench_compile(settings, results):
    import script
    section("3. Compile latency: decorate + first call - steady call, a 20-line function")
    print(f"Method: each trial writes a NEW module (a fresh function, name and constant) to a "
          f"temp .py file, imports it,\n  then times script.script(f) and the first f{COMPILE_ARGS} "
          "(which compiles), minus a steady call. Warm: in this process,\n  after other "
          f"compiles (median of {settings.compile_trials}); cold: `import script` and one compile "
          f"in a fresh process (median of {settings.cold_trials}).")
    print("  Stages (Specialization.timings): frontend = AST -> typed SSA; passes = script's IR "
          "passes; backend = LLVM IR,\n  LLVM O3, object code, load; other = the rest (decorator, "
          "argument binding, dispatcher update).")
    if os.environ.get("SCRIPT_VERIFY", "") not in ("", "0"):
        print("  NOTE: SCRIPT_VERIFY is set: the IR verifier runs after every pass, compile times "
              "are inflated.")
    keep = []                 # keep every module alive: the frontend caches by id(function)
    trials = []
    with tempfile.TemporaryDirectory(prefix="script-bench-compile-") as tmp:
        seed = int(time.time() * 1000) % 1_000_000
        for t in range(settings.compile_trials):
            name = f"bench_fn_{seed}_{t}"
            path = os.path.join(tmp, name + ".py")
            with open(path, "w") as fh:
                fh.write(COMPILE_TEMPLATE.format(name=name, k=t + 1))
            mod = load_module(path, name)
            keep.append(mod)
            fn = getattr(mod, name)
            expected = fn(*COMPILE_ARGS)
            t0 = time.perf_counter()
            f = script.script(fn)
            t1 = time.perf_counter()
            got = f(*COMPILE_ARGS)
            t2 = time.perf_counter()
            steady = C.median([C.time_per_call(lambda: f(*COMPILE_ARGS), 1) for _ in range(5)])
            keep.append(f)
            if not C.same_result(got, expected):
                print(f"  !! {name}: script gives {got!r}, CPython {expected!r}")
            spec = next(iter(f.__dict__["_specializations"].values()))
            tim = dict(getattr(spec, "timings", {}) or {})
            total = (t2 - t0) - steady
            trials.append({"decorate": t1 - t0, "first_call": t2 - t1, "steady": steady,
                           "compile": total, **tim,
                           "other": total - sum(tim.values())})
        cold = []
        for t in range(settings.cold_trials):
            name = f"bench_cold_{seed}_{t}"
            path = os.path.join(tmp, name + ".py")
            with open(path, "w") as fh:
                fh.write(COMPILE_TEMPLATE.format(name=name, k=100 + t))
            r = subprocess.run([sys.executable, "-c", COLD_SNIPPET, path, name], capture_output=True,
                               text=True, env=settings.env, cwd=ROOT, timeout=300)
            if r.returncode == 0:
                d = json.loads(r.stdout.strip().splitlines()[-1])
                cold.append({"import": d["import"], "compile": d["first"] - d["steady"]})
            else:
                print(f"  cold trial failed: {(r.stderr.strip().splitlines() or ['?'])[-1]}")
    keys = ["compile", "decorate", "first_call", "steady", "frontend", "passes", "backend", "other"]
    med = {k: C.median([tr[k] for tr in trials if k in tr]) for k in keys}
    rows = [["warm (in process)"] + [fmt_time(med[k]) for k in keys]]
    if cold:
        cm = C.median([c["compile"] for c in cold])
        rows.append(["cold (fresh process)", fmt_time(cm)] + ["-"] * (len(keys) - 1))
        med_cold_import = C.median([c["import"] for c in cold])
    table(rows, ["", "compile", "decorate", "1st call", "steady", "frontend", "passes", "backend",
                 "other"])
    ok = med["compile"] < TARGET_COMPILE_S
    print(f"\ntarget: compile latency < {TARGET_COMPILE_S * 1e3:.0f} ms (warm): "
          f"{med['compile'] * 1e3:.1f} ms -> {verdict(ok)}")
    if cold:
        print(f"cold: `import script` {fmt_time(med_cold_import)} + first compile {fmt_time(cm)} "
              f"(includes loading the frontend and llvmlite)")
    results["compile"] = {"trials": trials, "median": med, "cold": cold, "target_ok": ok}


# ------------------------------------------------------------------------------------------
# 4. import time

def timed_import(python, stmt_before, stmt, env, cwd):
    code = (f"import time\n{stmt_before}\nt0 = time.perf_counter()\n{stmt}\n"
            "print(time.perf_counter() - t0)")
    r = subprocess.run([python, "-c", code], capture_output=True, text=True, env=env, cwd=cwd,
                       timeout=120)
    if r.returncode != 0:
        raise RuntimeError((r.stderr.strip().splitlines() or ["?"])[-1])
    return float(r.stdout.strip().splitlines()[-1])


def startup_wall(python, code, env, cwd):
    t0 = time.perf_counter()
    subprocess.run([python, "-c", code], check=True, capture_output=True, env=env, cwd=cwd,
                   timeout=120)
    return time.perf_counter() - t0


def importtime_top(env, n=6):
    """The modules with the largest self time among those `import script` loads, under
    `python -X importtime` (whose report is post-order: a module's imports precede it, one
    indent deeper); and script's cumulative time. Modules that site already loaded are not
    in script's subtree."""
    r = subprocess.run([sys.executable, "-X", "importtime", "-c", "import script"],
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    rows = []
    for line in r.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[0].startswith("import time:") and parts[1].strip().isdigit():
            name = parts[2].rstrip()
            depth = (len(name) - len(name.lstrip())) // 2
            rows.append((int(parts[0].split(":")[1]), int(parts[1]), depth, name.strip()))
    top = [i for i, row in enumerate(rows) if row[2] == 0 and row[3] == "script"]
    if not top:
        return [], None
    i = top[-1]
    j = i
    while j > 0 and rows[j - 1][2] > 0:
        j -= 1
    subtree = sorted(rows[j:i + 1], reverse=True)
    return [(self_us, name) for self_us, _, _, name in subtree[:n]], rows[i][1]


def bench_import(settings, results):
    section("4. Import time, fresh process each (lower is better)")
    print(f"Method: a fresh `{os.path.basename(sys.executable)} -c` per run times the import "
          f"statement with perf_counter inside the process;\n  median of {settings.import_runs} "
          f"run{'s' if settings.import_runs > 1 else ''} after one warm-up (.pyc files cached). Wall "
          "clock of whole processes, minus `-c pass`, beside\n  (not in --quick).")
    env, py = settings.env, sys.executable
    cases = {
        "numpy": ("", "import numpy"),
        "script": ("", "import script"),
        "numpy + script": ("", "import numpy; import script"),
        "script after numpy": ("import numpy", "import script"),
    }
    out = {}
    for name, (before, stmt) in cases.items():
        timed_import(py, before, stmt, env, ROOT)            # warm-up
        out[name] = [timed_import(py, before, stmt, env, ROOT) for _ in range(settings.import_runs)]
    walls = {}
    for name, code in {} if settings.quick else {"pass": "pass", "import script": "import script",
                       "import numpy; import script": "import numpy; import script"}.items():
        walls[name] = C.median([startup_wall(py, code, env, ROOT)
                                for _ in range(settings.import_runs)])
    rows = [[name, fmt_time(C.median(ts)), fmt_time(min(ts))] for name, ts in out.items()]
    if walls:
        rows[1].append(fmt_time(walls["import script"] - walls["pass"]))
        rows[2].append(fmt_time(walls["import numpy; import script"] - walls["pass"]))
    if settings.numba_python:
        try:
            nb_env = child_env()
            timed_import(settings.numba_python, "", "import numba", nb_env, HERE)
            nb = [timed_import(settings.numba_python, "", "import numba", nb_env, HERE)
                  for _ in range(settings.import_runs)]
            rows.append(["numba (its venv; includes numpy)", fmt_time(C.median(nb)), fmt_time(min(nb))])
            out["numba"] = nb
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            rows.append(["numba", "-", "-", str(e)[:60]])
    for r in rows:
        r.extend([""] * (4 - len(r)))
    table(rows, ["import", "median", "min", "wall - `pass`"])
    total = C.median(out["numpy + script"])
    ok = total < TARGET_IMPORT_S
    print(f"\ntarget: `import script` including NumPy < {TARGET_IMPORT_S} s: {total:.3f} s -> "
          f"{verdict(ok)}")
    top, cumulative = importtime_top(env)
    if top:
        print(f"-X importtime, one run: `import script` {cumulative / 1e3:.1f} ms cumulative; "
              "largest self times (us) among the modules\n  it loads: "
              + ", ".join(f"{name} {us}" for us, name in top))
    results["import"] = {"seconds": out, "wall": walls, "target_ok": ok,
                         "importtime_script_us": cumulative, "importtime_top": top}


# ------------------------------------------------------------------------------------------

def summary(results) -> None:
    section("Summary against targets")
    rows = []
    for name, r in results.get("kernels", {}).get("per_kernel", {}).items():
        v = r.get("script_over_C")
        rows.append([f"kernel {name}: script/C <= {TARGET_KERNEL_RATIO}", fmt_ratio(v),
                     verdict(None if v is None else v <= TARGET_KERNEL_RATIO)])
    if "calls" in results:
        ns = results["calls"]["ns"]
        rows.append(["call overhead <= pure-Python call",
                     f"{C.median(ns['script f(a, b), unannotated']):.1f} vs "
                     f"{C.median(ns['pure Python f(a, b)']):.1f} ns",
                     verdict(results["calls"]["target_ok"])])
    if "compile" in results:
        rows.append([f"compile latency < {TARGET_COMPILE_S * 1e3:.0f} ms",
                     fmt_time(results["compile"]["median"]["compile"]),
                     verdict(results["compile"]["target_ok"])])
    if "import" in results:
        rows.append([f"import script incl. NumPy < {TARGET_IMPORT_S} s",
                     fmt_time(C.median(results["import"]["seconds"]["numpy + script"])),
                     verdict(results["import"]["target_ok"])])
    table(rows, ["target", "measured", ""])


def parse_only(only):
    if not only:
        return set(SECTIONS), list(K.KERNELS)
    words = {w.strip() for w in only.split(",") if w.strip()}
    unknown = words - set(SECTIONS) - set(K.KERNELS)
    if unknown:
        raise SystemExit(f"--only: unknown {', '.join(sorted(unknown))}; choose from "
                         f"{', '.join(SECTIONS + tuple(K.KERNELS))}")
    kernels = [k for k in K.KERNELS if k in words]
    sections = words & set(SECTIONS)
    if kernels:
        sections.add("kernels")
    return sections, kernels or list(K.KERNELS)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes, few repeats, no Numba")
    parser.add_argument("--only", help="comma-separated sections (kernels, calls, compile, import) "
                        "or kernel names")
    parser.add_argument("--repeats", type=int, help="repeats per kernel (default 7, quick 3)")
    parser.add_argument("--numba", action="store_true", help="run Numba even with --quick")
    parser.add_argument("--no-numba", action="store_true", help="leave Numba out")
    parser.add_argument("--numba-python", help="a Python that imports numba (default: this one, "
                        "$SCRIPT_BENCH_NUMBA_PYTHON or " + DEFAULT_NUMBA_VENV + ")")
    parser.add_argument("--json", help="also write all figures to this JSON file")
    opts = parser.parse_args(argv)
    sections, kernels = parse_only(opts.only)
    settings = Settings(opts)
    import llvmlite
    t_start = time.perf_counter()
    print(f"script benchmarks{' (--quick)' if opts.quick else ''} - {time.strftime('%Y-%m-%d %H:%M')}")
    print(f"  {cpu_model()}, {os.cpu_count()} logical CPUs, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"  Python {platform.python_version()}, llvmlite {llvmlite.__version__}, "
          f"{gcc_version() or 'no gcc'}, numba: "
          f"{settings.numba_python or settings.numba_note}")
    results = {"quick": opts.quick}
    if "kernels" in sections:
        bench_kernels(settings, kernels, results)
    if "calls" in sections:
        bench_calls(settings, results)
    if "compile" in sections:
        bench_compile(settings, results)
    if "import" in sections:
        bench_import(settings, results)
    summary(results)
    print(f"\n(total {time.perf_counter() - t_start:.1f} s)")
    if opts.json:
        with open(opts.json, "w") as fh:
            json.dump(results, fh, indent=1, default=repr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
