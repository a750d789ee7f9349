"""GPU check for the CUDA path: run on a machine with an NVIDIA GPU.

    python benchmarks/gpu_check.py [--skip-tests]

1. Runs the kernel tests (tests/test_cuda_cpu.py) with SCRIPT_CUDA=gpu: the same kernels and
   NumPy references, launched on the device.
2. saxpy bandwidth on large float32 arrays (device arrays, 3 x 4 bytes per element) against the
   card's DRAM peak (target: >= 85%), a block reduction, and the launch overhead of an empty
   kernel; the same with Numba's CUDA target and CuPy when they are installed.
Timing never decides a test; the figures go in README.md.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))

import script  # noqa: E402
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
def empty(x: script.f32[::1]):
    pass


def best(fn, repeat=20) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def run_tests() -> int:
    env = dict(os.environ, SCRIPT_CUDA="gpu")
    return subprocess.call([sys.executable, "-m", "pytest", "-q", "-p", "no:warnings",
                            "tests/test_cuda_cpu.py", "-k", "not cpu_path_only"], env=env)


def ours(n: int) -> dict:
    from script.cuda.driver import get_driver
    drv = get_driver()
    x = cuda.to_device(np.ones(n, np.float32))
    y = cuda.to_device(np.ones(n, np.float32))
    out = cuda.to_device(np.zeros(1, np.float32))
    blocks = (n + 255) // 256
    saxpy[blocks, 256](np.float32(2.0), x, y)
    t = best(lambda: saxpy[blocks, 256](np.float32(2.0), x, y))
    reduce_sum[1024, 256](x, out)
    tr = best(lambda: reduce_sum[1024, 256](x, out))
    te = best(lambda: empty[1, 1](x), 200)
    return {"saxpy_GBs": 12 * n / t / 1e9, "peak_GBs": drv.dram_peak_gbs(),
            "reduce_GBs": 4 * n / tr / 1e9, "launch_us": te * 1e6, "gpu": drv.name}


def numba_figures(n: int) -> dict | None:
    try:
        from numba import cuda as ncuda
    except ImportError:
        return None

    @ncuda.jit
    def nsaxpy(a, x, y):
        i = ncuda.grid(1)
        if i < x.shape[0]:
            y[i] = a * x[i] + y[i]

    @ncuda.jit
    def nempty(x):
        pass

    x = ncuda.to_device(np.ones(n, np.float32))
    y = ncuda.to_device(np.ones(n, np.float32))
    blocks = (n + 255) // 256

    def run():
        nsaxpy[blocks, 256](np.float32(2.0), x, y)
        ncuda.synchronize()

    run()
    t = best(run)
    nempty[1, 1](x)
    te = best(lambda: (nempty[1, 1](x), ncuda.synchronize()), 200)
    return {"saxpy_GBs": 12 * n / t / 1e9, "launch_us": te * 1e6}


def cupy_figures(n: int) -> dict | None:
    try:
        import cupy as cp
    except ImportError:
        return None
    x = cp.ones(n, cp.float32)
    y = cp.ones(n, cp.float32)

    def run():
        y[...] = cp.float32(2.0) * x + y
        cp.cuda.Device().synchronize()

    run()
    t = best(run)

    def red():
        float(x.sum())

    tr = best(red)
    return {"saxpy_GBs": 12 * n / t / 1e9, "reduce_GBs": 4 * n / tr / 1e9}


def main() -> int:
    if not cuda.is_available():
        print("no usable GPU: nothing to check here")
        return 1
    cuda.select("gpu")
    status = 0 if "--skip-tests" in sys.argv else run_tests()
    n = 1 << 26
    figures = {"script": ours(n), "numba": numba_figures(n), "cupy": cupy_figures(n)}
    for name, f in figures.items():
        print(name, "not installed" if f is None else
              ", ".join(f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}" for k, v in f.items()))
    s = figures["script"]
    print(f"saxpy at {100 * s['saxpy_GBs'] / s['peak_GBs']:.1f}% of the DRAM peak (target 85%)")
    return status


if __name__ == "__main__":
    sys.exit(main())
