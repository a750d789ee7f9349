"""Loading saved modules and cache hits against compiling, in ms.

    python benchmarks/save_load.py [--repeats N] [--processes N]

1. Ten annotated functions (`KERNELS` below) compiled from source, against `script.load` of
   the module `script.save` wrote for them (object code linked, nothing compiled), and
   against a load that compiles again from the saved IR (the manifest's CPU edited).
   Compiles and loads are interleaved, and both wall and CPU time (this process's) are
   printed: on a shared machine the CPU ratio is the steadier one. The target is load >=
   20x faster than compiling.
2. `@script(cache=True)`: a miss (compile and write the entry) against a hit (read it and
   link), in this process; then a hit in a fresh process, the figure the target is about:
   the median over `--processes` fresh interpreters (Python's bytecode cache on, as users
   have it) of the time from the end of `import script` to the end of the import of a
   module whose one function is a hit — paying the one-time setup of a process's first
   load (the modules of the hit path, the runtime library from the per-machine store, the
   function type; not llvmlite, the frontend, zipfile, json or ctypes, which the benchmark checks
   a hit does not import, nor typing, re, struct or warnings) — and the same after a saved
   module was loaded ("warm"). The target is a hit under 5 ms on top of `import script`.
   Also `import script` itself, and with NumPy (target under 120 ms). The interpreters start
   without site (``-S``, the site directories on PYTHONPATH instead), so that no ``.pth``
   file imports modules before the clock starts, as none does in a clean environment (this
   machine's site imports zipfile, re and typing, which hid the ~13 ms a hit spent importing
   typing until session 6).

Everything runs in one process with a warm JIT unless said otherwise; figures are medians.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

import script  # noqa: E402

KERNELS = '''
import math

def collatz(n: int) -> int:
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps

def fib(n: int) -> int:
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)

def poly(x: float, k: int) -> float:
    acc = 0.0
    for i in range(k, 0, -1):
        acc = acc * x + i
    return acc

def lcg_pi(samples: int, seed: int) -> float:
    state = seed
    inside = 0
    for _ in range(samples):
        state = (state * 1103515245 + 12345) % 2147483648
        x = state / 2147483648.0
        state = (state * 1103515245 + 12345) % 2147483648
        y = state / 2147483648.0
        if x * x + y * y < 1.0:
            inside += 1
    return 4.0 * inside / samples

def newton(x: float, iters: int) -> float:
    if x < 0.0:
        raise ValueError("negative")
    g = x if x > 1.0 else 1.0
    for _ in range(iters):
        g = 0.5 * (g + x / g)
    return g

def gcd(a: int, b: int) -> int:
    while b != 0:
        a, b = b, a % b
    return a

def branchy(n: int) -> int:
    total = 0
    for i in range(n):
        if i % 3 == 0:
            total += i ^ 5
        elif total % 7 == 1:
            total -= i // 2
        else:
            total += 1
    return total

def stats(n: int) -> tuple[float, float]:
    s = 0.0
    s2 = 0.0
    for i in range(1, n + 1):
        x = math.sin(i * 0.1)
        s += x
        s2 += x * x
    mean = s / n
    return mean, math.sqrt(max(s2 / n - mean * mean, 0.0))

def digits(n: int) -> int:
    count = 0
    while n > 0:
        n //= 10
        count += 1
    return max(count, 1)

def logistic(r: float, x0: float, steps: int) -> float:
    x = x0
    for _ in range(steps):
        x = r * x * (1.0 - x)
    return x
'''
NAMES = ["collatz", "fib", "poly", "lcg_pi", "newton", "gcd", "branchy", "stats", "digits", "logistic"]
CHECKS = [("collatz", (27,)), ("fib", (20,)), ("gcd", (1071, 462)), ("stats", (100,))]


def fresh_module(directory: str, tag: str, filename: str | None = None):
    """The kernels as a new module (new function objects, so nothing is reused), from the
    file `filename` (default: one per tag)."""
    path = os.path.join(directory, filename or f"bench_kernels_{tag}.py")
    with open(path, "w") as f:
        f.write(KERNELS)
    spec = importlib.util.spec_from_file_location(f"bench_kernels_{tag}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def timed(fn) -> tuple[float, object]:
    t0 = time.perf_counter()
    out = fn()
    return (time.perf_counter() - t0) * 1e3, out


def with_other_cpu(src: str, dst: str) -> None:
    """A copy of the archive as if saved on another CPU (manifest and its hash rewritten)."""
    import hashlib
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        manifest = json.loads(zin.read("manifest.json"))
        manifest["target"]["cpu"] = "some-other-cpu"
        data = json.dumps(manifest).encode()
        zout.writestr("manifest.json", data)
        zout.writestr("manifest.sha256", hashlib.sha256(data).hexdigest())
        for name in zin.namelist():
            if not name.startswith("manifest."):
                zout.writestr(name, zin.read(name))


FRESH_HIT = r'''
import os, sys, time
t0, c0 = time.perf_counter(), time.process_time()
import script
t1, c1 = time.perf_counter(), time.process_time()
if sys.argv[2] == "warm":       # pay the one-time costs (LLVM, runtime, these modules) first
    script.load(sys.argv[3])
import math                     # what the kernel's module imports itself is not the cache's cost
before = set(sys.modules)
t2, c2 = time.perf_counter(), time.process_time()
sys.path.insert(0, sys.argv[1])
import cached_kernel
t3, c3 = time.perf_counter(), time.process_time()
assert cached_kernel.collatz(27) == 111
kind = type(next(iter(cached_kernel.collatz._specializations.values()))).__name__
heavy = sorted(m for m in ("llvmlite.binding", "script.frontend.specialize", "zipfile", "json",
                           "hashlib", "script.saved_manifest", "ctypes", "typing", "re",
                           "struct", "warnings")
               if m in sys.modules and m not in before)
print(f"{(t1 - t0) * 1e3:.3f} {(c1 - c0) * 1e3:.3f} {(t3 - t2) * 1e3:.3f} {(c3 - c2) * 1e3:.3f} "
      f"{kind} {len(set(sys.modules) - before)} {','.join(heavy) or '-'}")
'''

IMPORT_NUMPY = r'''
import time
t0 = time.perf_counter()
import numpy, script
print(f"{(time.perf_counter() - t0) * 1e3:.3f}")
'''


FRESH = [sys.executable, "-S", "-c"]


def fresh_env(directory: str) -> dict:
    """The environment of the fresh interpreters (run with `FRESH`): this checkout, then the
    site directories, whose .pth files do not run."""
    import site
    path = [ROOT, *site.getsitepackages(), site.getusersitepackages(),
            os.environ.get("PYTHONPATH", "")]
    env = dict(os.environ, SCRIPT_CACHE_DIR=os.path.join(directory, "fresh-cache"),
               PYTHONPATH=os.pathsep.join(p for p in path if p),
               PYTHONPYCACHEPREFIX=os.path.join(directory, "pyc"))
    env.pop("SCRIPT_VERIFY", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)      # a fresh process, not a first run
    return env


def fresh_process_hit(directory: str, archive: str, processes: int) -> dict:
    """Medians over `processes` fresh interpreters, in ms: `import script` (wall, CPU), and
    a cache hit after it, "cold" (the hit pays the backend's one-time setup) and "warm" (a
    saved module was loaded first), wall and CPU; the modules the cold hit imported."""
    src = KERNELS.split("def fib")[0].replace("def collatz", "@script.script(cache=True)\ndef collatz")
    with open(os.path.join(directory, "cached_kernel.py"), "w") as f:
        f.write("import script\n" + src)
    env = fresh_env(directory)
    rows: dict = {k: [] for k in ("import", "import cpu", "cold", "cold cpu", "warm", "warm cpu",
                                  "modules")}
    heavy = set()
    for i in range(processes + 1):
        for mode in ("cold", "warm"):            # interleaved, so that load drifts hit both
            for _attempt in range(3):            # a miss: the compiler's files changed
                r = subprocess.run([*FRESH, FRESH_HIT, directory, mode, archive],
                                   env=env, capture_output=True, text=True, check=True)
                imp, imp_cpu, hit, cpu, kind, modules, loaded = r.stdout.split()
                if kind == "LoadedSpecialization":
                    break
            if i == 0:                           # the first round fills the caches
                continue
            assert kind == "LoadedSpecialization", r.stdout
            rows["import"].append(float(imp))
            rows["import cpu"].append(float(imp_cpu))
            rows[mode].append(float(hit))
            rows[f"{mode} cpu"].append(float(cpu))
            if mode == "cold":
                rows["modules"].append(int(modules))
                heavy.update(loaded.split(",") if loaded != "-" else ())
    out = {k: statistics.median(v) for k, v in rows.items()}
    out["heavy"] = sorted(heavy)
    numpy_ms = [float(subprocess.run([*FRESH, IMPORT_NUMPY], env=env,
                                     capture_output=True, text=True, check=True).stdout)
                for _ in range(max(3, processes // 2))]
    out["import numpy"] = statistics.median(numpy_ms)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--processes", type=int, default=21,
                        help="fresh interpreters for the cache-hit figure")
    opts = parser.parse_args()
    med = statistics.median
    with tempfile.TemporaryDirectory() as tmp:
        script.script(fresh_module(tmp, "warmup").collatz)          # JIT and runtime set up
        path = os.path.join(tmp, "kernels.smod")
        compile_ms, compile_cpu, load_ms, load_cpu, funcs, loaded = [], [], [], [], None, None
        for r in range(opts.repeats):
            mod = fresh_module(tmp, f"c{r}")
            c0 = time.process_time()
            ms, funcs = timed(lambda: [script.script(getattr(mod, n)) for n in NAMES])
            compile_cpu.append((time.process_time() - c0) * 1e3)
            compile_ms.append(ms)
            if r == 0:
                save_ms, _ = timed(lambda: script.save(funcs, path))
            for _ in range(4):                   # interleaved with the compiles
                c0 = time.process_time()
                ms, loaded = timed(lambda: script.load(path))
                load_cpu.append((time.process_time() - c0) * 1e3)
                load_ms.append(ms)
        other = os.path.join(tmp, "other-cpu.smod")
        with_other_cpu(path, other)
        recompile_ms, again = timed(lambda: script.load(other))
        for name, args in CHECKS:
            want = funcs[NAMES.index(name)](*args)
            assert getattr(loaded, name)(*args) == want == getattr(again, name)(*args), name
        assert loaded.__recompiled__ is None and again.__recompiled__ is not None
        print(f"== Saved modules: {len(NAMES)} functions, {os.path.getsize(path)} bytes")
        print(f"compile from source      {med(compile_ms):8.1f} ms   CPU {med(compile_cpu):8.1f} ms")
        print(f"save                     {save_ms:8.1f} ms")
        print(f"load (object code)       {med(load_ms):8.1f} ms   CPU {med(load_cpu):8.1f} ms")
        print(f"load (recompile from IR) {recompile_ms:8.1f} ms")
        ratio = med(compile_ms) / med(load_ms)
        ratio_cpu = med(compile_cpu) / max(med(load_cpu), 1e-3)
        verdict = lambda x: "ok" if x >= 20 else "MISS"      # noqa: E731
        print(f"load-10 vs compile-10    {ratio:8.1f}x wall ({verdict(ratio)}), {ratio_cpu:.1f}x CPU "
              f"({verdict(ratio_cpu)})   (target >= 20x)")

        os.environ["SCRIPT_CACHE_DIR"] = os.path.join(tmp, "cache")
        miss_ms, hit_ms = [], []
        for r in range(opts.repeats):
            mod = fresh_module(tmp, f"k{r}", "cached.py")   # same file: same key, new objects
            ms, _ = timed(lambda: script.script(mod.lcg_pi, cache=True))
            (miss_ms if r == 0 else hit_ms).append(ms)
        print("== Compile cache (one function, lcg_pi)")
        print(f"miss (compile + write)   {med(miss_ms):8.1f} ms")
        print(f"hit, same process        {med(hit_ms):8.2f} ms")
        fresh = fresh_process_hit(tmp, path, opts.processes)
        print(f"== Fresh processes (median of {opts.processes}, bytecode caches on, no site)")
        print(f"import script            {fresh['import']:8.2f} ms   CPU {fresh['import cpu']:6.2f} ms")
        print(f"import numpy, script     {fresh['import numpy']:8.2f} ms   (target < 120 ms)")
        print(f"hit, after a load        {fresh['warm']:8.2f} ms   CPU {fresh['warm cpu']:6.2f} ms")
        print(f"hit, the process's first {fresh['cold']:8.2f} ms   CPU {fresh['cold cpu']:6.2f} ms   "
              f"({fresh['modules']:.0f} modules imported; "
              f"{', '.join(fresh['heavy']) or 'none'} of llvmlite.binding, the frontend, zipfile, "
              "json, hashlib, the manifest, ctypes, typing, re, struct, warnings)")
        ok = "ok" if fresh["cold"] < 5 else "MISS"
        print(f"cache hit on top of `import script`: {fresh['cold']:.2f} ms wall, "
              f"{fresh['cold cpu']:.2f} ms CPU   (target < 5 ms: {ok})")


if __name__ == "__main__":
    main()
