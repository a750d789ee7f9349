"""GPU check for the CUDA path: run on a machine with an NVIDIA GPU.

    python benchmarks/gpu_check.py [--skip-tests] [--json FILE] [--log-n 28]

1. Runs the kernel tests with SCRIPT_CUDA=gpu: tests/test_cuda_cpu.py (the same kernels and
   NumPy references, launched on the device, plus the GPU-only tests), tests/test_cuda_saved.py
   (saved PTX launched) and tests/test_cuda_ptx.py (ptxas on every kernel).
2. Figures, timed with CUDA events around back-to-back launches (medians of 15):
   saxpy bandwidth on large float32 device arrays (3 x 4 bytes per element) against the card's
   DRAM peak (target: >= 85%) and against a device-to-device copy (the bandwidth the card
   really gives); a block reduction (4 bytes per element); the launch overhead of an empty
   kernel (host time per launch, queued and with a synchronization each). The same with
   Numba's CUDA target and CuPy when they are installed, in a subprocess (they may need other
   versions of llvmlite than ours on PYTHONPATH).
Timing never decides a test; the figures go in docs/cuda.md ("On a GPU").
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPEAT = 15
LAUNCHES = 10                 # kernels per timed region

sys.path.insert(0, os.path.dirname(HERE))
import script  # noqa: E402  (light: llvmlite and the driver load on first use)
from script import cuda  # noqa: E402


@script.kernel
def saxpy(a: script.f32, x: script.f32[::1], y: script.f32[::1]):
    i = cuda.grid(1)
    if i < x.shape[0]:
        y[i] = a * x[i] + y[i]


@script.kernel
def reduce_sum(x: script.f32[::1], out: script.f32[::1]):
    sh = cuda.shared.array(256, script.f32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    acc = script.f32(0.0)
    while i < x.shape[0]:
        acc += x[i]
        i += cuda.gridsize(1)
    sh[t] = acc
    cuda.syncthreads()
    s = 128
    while s > 0:
        if t < s:
            sh[t] += sh[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        cuda.atomic.add(out, 0, sh[0])


@script.kernel
def saxpy_ilp4(a: script.f32, x: script.f32[::1], y: script.f32[::1]):
    # four elements per thread, a block's width apart (coalesced), all loads before the
    # stores: four times the bytes in flight per thread of `saxpy`
    n = x.shape[0]
    w = cuda.blockDim.x
    i = cuda.blockIdx.x * w * 4 + cuda.threadIdx.x
    if i + 3 * w < n:
        x0, x1, x2, x3 = x[i], x[i + w], x[i + 2 * w], x[i + 3 * w]
        y0, y1, y2, y3 = y[i], y[i + w], y[i + 2 * w], y[i + 3 * w]
        y[i] = a * x0 + y0
        y[i + w] = a * x1 + y1
        y[i + 2 * w] = a * x2 + y2
        y[i + 3 * w] = a * x3 + y3
    else:
        for k in range(4):
            if i + k * w < n:
                y[i + k * w] = a * x[i + k * w] + y[i + k * w]


@script.kernel
def empty(x: script.f32[::1]):
    pass


def median_ms(record, launch) -> float:
    """Median over REPEAT regions of the event-timed milliseconds of one launch."""
    times = []
    for _ in range(REPEAT):
        end = record()
        for _ in range(LAUNCHES):
            launch()
        times.append(end() / LAUNCHES)
    return statistics.median(times)


def host_us(launch, sync, count=2000) -> tuple[float, float]:
    """Host microseconds per launch: queued back to back, and each followed by a sync."""
    launch()
    sync()
    t = time.perf_counter()
    for _ in range(count):
        launch()
    sync()
    queued = (time.perf_counter() - t) / count * 1e6
    t = time.perf_counter()
    for _ in range(count // 4):
        launch()
        sync()
    synced = (time.perf_counter() - t) / (count // 4) * 1e6
    return queued, synced


# ---- ours ------------------------------------------------------------------------------------

def ours(n: int) -> dict:
    from script.cuda.driver import get_driver

    cuda.select("gpu")
    drv = get_driver()
    ev0, ev1 = drv.create_event(), drv.create_event()

    def record():
        drv.record_event(ev0)
        return lambda: (drv.record_event(ev1), drv.elapsed_ms(ev0, ev1))[1]

    rng = np.random.default_rng(0)
    host_x = rng.random(n, dtype=np.float32)
    host_y = rng.random(n, dtype=np.float32)
    x, y = cuda.to_device(host_x), cuda.to_device(host_y)
    out = cuda.to_device(np.zeros(1, np.float32))
    blocks = (n + 255) // 256
    t0 = time.perf_counter()
    saxpy[blocks, 256](np.float32(2.0), x, y)
    cuda.synchronize()
    first_ms = (time.perf_counter() - t0) * 1e3
    ok = np.allclose(y.copy_to_host(), np.float32(2.0) * host_x + host_y, rtol=1e-6)
    saxpy_ms = median_ms(record, lambda: saxpy[blocks, 256](np.float32(2.0), x, y))
    by_block = {}
    for b in (128, 512, 1024):
        ms = median_ms(record, lambda: saxpy[(n + b - 1) // b, b](np.float32(2.0), x, y))
        by_block[b] = round(12 * n / ms / 1e6)
    y.copy_to_device(host_y)
    saxpy_ilp4[(n + 1023) // 1024, 256](np.float32(2.0), x, y)
    ok = ok and np.allclose(y.copy_to_host(), np.float32(2.0) * host_x + host_y, rtol=1e-6)
    ilp_ms = median_ms(record, lambda: saxpy_ilp4[(n + 1023) // 1024, 256](np.float32(2.0), x, y))

    reduce_sum[1024, 256](x, out)
    sm = drv.attribute(16)                  # CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
    reduce_by_blocks = {}
    ref = float(host_x.astype(np.float64).sum())
    for per_sm in (4, 8, 16):
        out.copy_to_device(np.zeros(1, np.float32))
        reduce_sum[per_sm * sm, 256](x, out)
        got = float(out.copy_to_host()[0])
        ok = ok and abs(got - ref) / ref < 1e-4
        ms = median_ms(record, lambda: reduce_sum[per_sm * sm, 256](x, out))
        reduce_by_blocks[per_sm] = ms
    reduce_ms = min(reduce_by_blocks.values())

    copy_ms = median_ms(record, lambda: drv._check(drv.lib.cuMemcpyDtoD_v2(
        _u64(y.device_pointer), _u64(x.device_pointer), _size(4 * n)), "cuMemcpyDtoD"))
    queued, synced = host_us(lambda: empty[1, 1](x), cuda.synchronize)
    return {"gpu": drv.name, "arch": drv.arch, "results_ok": bool(ok),
            "peak_GBs": drv.dram_peak_gbs(), "copy_GBs": 8 * n / copy_ms / 1e6,
            "saxpy_GBs": 12 * n / saxpy_ms / 1e6, "saxpy_ms": saxpy_ms,
            "saxpy_GBs_by_block": by_block, "saxpy_ilp4_GBs": 12 * n / ilp_ms / 1e6,
            "reduce_GBs": 4 * n / reduce_ms / 1e6, "reduce_ms": reduce_ms,
            "reduce_GBs_by_blocks_per_sm": {k: round(4 * n / v / 1e6) for k, v in reduce_by_blocks.items()},
            "launch_queued_us": queued, "launch_synced_us": synced,
            "first_launch_ms": first_ms, "saxpy_ptxas": saxpy.inspect().splitlines()[-2:]}


def _u64(v):
    import ctypes
    return ctypes.c_uint64(v)


def _size(v):
    import ctypes
    return ctypes.c_size_t(v)


# ---- others (run in a subprocess) ------------------------------------------------------------

def numba_figures(n: int) -> dict | None:
    if not hasattr(np, "row_stack"):         # numba 0.68 still names it; NumPy 2.5 removed it
        np.row_stack = np.vstack
    try:
        from numba import cuda as ncuda, float32
    except ImportError:
        return None

    @ncuda.jit
    def nsaxpy(a, x, y):
        i = ncuda.grid(1)
        if i < x.shape[0]:
            y[i] = a * x[i] + y[i]

    @ncuda.jit
    def nreduce(x, out):
        sh = ncuda.shared.array(256, float32)
        t = ncuda.threadIdx.x
        i = ncuda.grid(1)
        acc = float32(0.0)
        while i < x.shape[0]:
            acc += x[i]
            i += ncuda.gridsize(1)
        sh[t] = acc
        ncuda.syncthreads()
        s = 128
        while s > 0:
            if t < s:
                sh[t] += sh[t + s]
            ncuda.syncthreads()
            s //= 2
        if t == 0:
            ncuda.atomic.add(out, 0, sh[0])

    @ncuda.jit
    def nempty(x):
        pass

    e0, e1 = ncuda.event(), ncuda.event()

    def record():
        e0.record()

        def end():
            e1.record()
            e1.synchronize()
            return ncuda.event_elapsed_time(e0, e1)
        return end

    rng = np.random.default_rng(0)
    x = ncuda.to_device(rng.random(n, dtype=np.float32))
    y = ncuda.to_device(rng.random(n, dtype=np.float32))
    out = ncuda.to_device(np.zeros(1, np.float32))
    blocks = (n + 255) // 256
    nsaxpy[blocks, 256](np.float32(2.0), x, y)
    sm = ncuda.get_current_device().MULTIPROCESSOR_COUNT
    nreduce[8 * sm, 256](x, out)
    ncuda.synchronize()
    saxpy_ms = median_ms(record, lambda: nsaxpy[blocks, 256](np.float32(2.0), x, y))
    reduce_ms = min(median_ms(record, lambda: nreduce[k * sm, 256](x, out)) for k in (4, 8, 16))
    queued, synced = host_us(lambda: nempty[1, 1](x), ncuda.synchronize)
    import numba
    return {"version": numba.__version__, "saxpy_GBs": 12 * n / saxpy_ms / 1e6,
            "reduce_GBs": 4 * n / reduce_ms / 1e6,
            "launch_queued_us": queued, "launch_synced_us": synced}


def cupy_figures(n: int) -> dict | None:
    try:
        import cupy as cp
    except ImportError:
        return None
    saxpy = cp.ElementwiseKernel("float32 a, float32 x", "float32 y", "y = a * x + y", "saxpy")
    x = cp.random.random(n, dtype=cp.float32)
    y = cp.random.random(n, dtype=cp.float32)
    e0, e1 = cp.cuda.Event(), cp.cuda.Event()

    def record():
        e0.record()

        def end():
            e1.record()
            e1.synchronize()
            return cp.cuda.get_elapsed_time(e0, e1)
        return end

    saxpy(cp.float32(2.0), x, y)
    cp.cuda.Device().synchronize()
    saxpy_ms = median_ms(record, lambda: saxpy(cp.float32(2.0), x, y))
    reduce_ms = median_ms(record, lambda: x.sum())
    return {"version": cp.__version__, "saxpy_GBs": 12 * n / saxpy_ms / 1e6,
            "reduce_GBs": 4 * n / reduce_ms / 1e6}


def others(n: int) -> dict:
    result = {}
    for name, fn in (("numba", numba_figures), ("cupy", cupy_figures)):
        try:
            result[name] = fn(n)
        except Exception as e:  # noqa: BLE001 - a report, not a test
            result[name] = {"error": f"{type(e).__name__}: {e}"[:500]}
    return result


def others_in_subprocess(n: int) -> dict:
    """Numba and CuPy with the machine's own packages: PYTHONPATH entries we added dropped."""
    env = dict(os.environ)
    keep = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p and "site" not in p]
    env["PYTHONPATH"] = os.pathsep.join(keep)
    proc = subprocess.run([sys.executable, __file__, "--others", str(n)], env=env,
                          capture_output=True, text=True, timeout=300)
    for line in proc.stdout.splitlines()[::-1]:
        if line.startswith("{"):
            return json.loads(line)
    return {"error": (proc.stdout + proc.stderr)[-1500:]}


# ---- main ------------------------------------------------------------------------------------

def run_tests() -> int:
    env = dict(os.environ, SCRIPT_CUDA="gpu")
    args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs",
            "tests/test_cuda_cpu.py", "tests/test_cuda_saved.py", "tests/test_cuda_ptx.py"]
    return subprocess.call(args, env=env, cwd=os.path.dirname(HERE))


def show(name: str, figures) -> None:
    if figures is None:
        print(f"{name}: not installed")
        return
    print(f"{name}: " + ", ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                                  for k, v in figures.items()))


def main(argv: list[str]) -> int:
    if argv[:1] == ["--others"]:
        print(json.dumps(others(int(argv[1]))))
        return 0
    if not cuda.is_available():
        print("no usable GPU: nothing to check here")
        return 1
    n = 1 << (int(argv[argv.index("--log-n") + 1]) if "--log-n" in argv else 28)
    status = 0 if "--skip-tests" in argv else run_tests()
    figures = {"n": n, "tests_status": status, "script": ours(n)}
    figures.update(others_in_subprocess(n))
    for name in ("script", "numba", "cupy"):
        show(name, figures.get(name))
    s = figures["script"]
    print(f"saxpy at {100 * s['saxpy_GBs'] / s['peak_GBs']:.1f}% of the DRAM peak (target 85%), "
          f"{100 * s['saxpy_GBs'] / s['copy_GBs']:.1f}% of a device-to-device copy")
    if "--json" in argv:
        with open(argv[argv.index("--json") + 1], "w") as f:
            json.dump(figures, f, indent=1)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
