"""Kernels the CUDA tests compile (CPU path against NumPy, PTX through ptxas)."""

import math

import numpy as np

import script
from script import cuda


@script.kernel
def saxpy(a: float, x: script.f32[:], y: script.f32[:]):
    i = cuda.grid(1)
    if i < x.shape[0]:
        y[i] = a * x[i] + y[i]


@script.kernel
def block_sum(x: script.f64[:], out: script.f64[:]):
    """A block-level tree reduction in shared memory (blocks of 128 threads)."""
    sh = cuda.shared.array(128, script.f64)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    sh[tid] = x[i] if i < x.shape[0] else 0.0
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if tid < s:
            sh[tid] += sh[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        out[cuda.blockIdx.x] = sh[0]


@script.kernel
def reverse_block(a: script.i32[:]):
    """Each block reverses its slice through shared memory (values live across a barrier)."""
    sh = cuda.shared.array(64, np.int32)
    t = cuda.threadIdx.x
    base = cuda.blockIdx.x * cuda.blockDim.x
    v = a[base + t]
    sh[t] = v
    cuda.syncthreads()
    a[base + t] = sh[cuda.blockDim.x - 1 - t] + v - v


@script.kernel
def histogram(x: script.i64[:], bins: script.i32[:]):
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < x.shape[0]:
        cuda.atomic.add(bins, x[i] % bins.shape[0], 1)
        i += stride


@script.kernel
def atomic_extremes(x: script.f64[:], out: script.f64[:], iout: script.i64[:]):
    i = cuda.grid(1)
    if i < x.shape[0]:
        cuda.atomic.max(out, 0, x[i])
        cuda.atomic.min(out, 1, x[i])
        cuda.atomic.max(iout, 0, int(x[i] * 1000.0))
        cuda.atomic.min(iout, 1, int(x[i] * 1000.0))


@script.kernel
def shared_counter(out: script.i32[:]):
    """atomics on a shared array, then one thread writes the block's count."""
    c = cuda.shared.array(1, script.i32)
    if cuda.threadIdx.x == 0:
        c[0] = 0
    cuda.syncthreads()
    cuda.atomic.add(c, 0, 1)
    cuda.syncthreads()
    if cuda.threadIdx.x == 0:
        out[cuda.blockIdx.x] = c[0]


@script.kernel
def cas_first(flag: script.i32[:], winner: script.i32[:]):
    i = cuda.grid(1)
    old = cuda.atomic.cas(flag, 0, 0, 1)
    if old == 0:
        winner[0] = i


def clamp(v, lo, hi):
    """A plain Python function used as a device function."""
    return min(max(v, lo), hi)


@script.script
def smooth(v: float) -> float:
    return math.exp(-v * v) + math.sin(v) * math.cos(v) + math.log1p(abs(v)) + abs(v) ** 2.5 * 0.0 + math.tanh(v)


@script.kernel
def device_math(x: script.f64[:], out: script.f64[:]):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = clamp(smooth(x[i]), -1.0, 2.0)


@script.kernel
def rounded_digits(x: script.f64[:], n: int, out: script.f64[:]):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = round(x[i], n)


@script.kernel
def add_2d(a: script.f64[:, :], b: script.f64[:, :], out: script.f64[:, :]):
    i, j = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = a[i, j] + 2.0 * b[i, j]


@script.kernel
def indices_3d(out: script.i64[:, :, :]):
    x, y, z = cuda.grid(3)
    nx, ny, nz = cuda.gridsize(3)
    if x < out.shape[0] and y < out.shape[1] and z < out.shape[2]:
        out[x, y, z] = ((x * ny + y) * nz + z) + 1000000 * cuda.blockDim.x + 10000 * cuda.gridDim.y


@script.kernel
def matmul_tiled(a: script.f32[:, :], b: script.f32[:, :], c: script.f32[:, :]):
    """C = A @ B with 8x8 tiles in shared memory."""
    sa = cuda.shared.array((8, 8), script.f32)
    sb = cuda.shared.array((8, 8), script.f32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    row = cuda.blockIdx.y * 8 + ty
    col = cuda.blockIdx.x * 8 + tx
    acc = script.f32(0.0)
    for t in range((a.shape[1] + 7) // 8):
        k = t * 8
        sa[ty, tx] = a[row, k + tx] if row < a.shape[0] and k + tx < a.shape[1] else script.f32(0.0)
        sb[ty, tx] = b[k + ty, col] if k + ty < b.shape[0] and col < b.shape[1] else script.f32(0.0)
        cuda.syncthreads()
        for m in range(8):
            acc += sa[ty, m] * sb[m, tx]
        cuda.syncthreads()
    if row < c.shape[0] and col < c.shape[1]:
        c[row, col] = acc


@script.kernel
def strided_scale(a, k):
    """Unannotated: specialized per launch (strided views included)."""
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] = a[i] * k


@script.kernel
def int_divide(a: script.i64[:], d: int):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] = a[i] // d


@script.kernel
def out_of_bounds(a: script.f64[:]):
    a[cuda.grid(1)] = 1.0


@script.kernel(boundscheck=True)
def checked_out_of_bounds(a: script.f64[:]):
    a[cuda.grid(1)] = 1.0


@script.kernel
def diverged_barrier(a: script.f64[:]):
    if cuda.threadIdx.x < 2:
        cuda.syncthreads()
        a[0] = 1.0
    else:
        cuda.syncthreads()
        a[1] = 1.0


@script.kernel
def early_exit_barrier(a: script.f64[:], out: script.f64[:]):
    """Threads that return before a barrier do not hold the others up."""
    t = cuda.threadIdx.x
    if t >= a.shape[0]:
        return
    a[t] += 1.0
    cuda.syncthreads()
    out[t] = a[t] + a[(t + 1) % a.shape[0]]


@script.kernel
def odd_even_sort(a: script.i32[:]):
    """One block sorts 2 * blockDim.x values (a barrier inside a for loop)."""
    t = cuda.threadIdx.x
    n = a.shape[0]
    for phase in range(n):
        i = 2 * t + phase % 2
        if i + 1 < n and a[i] > a[i + 1]:
            tmp = a[i]
            a[i] = a[i + 1]
            a[i + 1] = tmp
        cuda.syncthreads()


@script.kernel
def checked_positive(x: script.f64[:]):
    """A raise whose message formats an int, a float and a bool (script.frontend.messages)."""
    i = cuda.grid(1)
    if i < x.shape[0]:
        if x[i] < 0:
            raise ValueError(f"negative at {i}: {x[i]:.2f} {x[i]} {x[i] > -5}")
        x[i] = x[i] * 2


@script.kernel
def grid_stride_sum(x: script.f64[:], out: script.f64[:]):
    """Each thread sums a grid-stride slice (the GPU lowering unrolls this loop)."""
    i = cuda.grid(1)
    acc = 0.0
    while i < x.shape[0]:
        acc += x[i]
        i += cuda.gridsize(1)
    cuda.atomic.add(out, 0, acc)


@script.kernel
def splitmix_keys(seeds: script.u64[:], out: script.u64[:]):
    """64-bit constants beyond int64 and Python masks (frontend/int_consts.py, docs/integers.md)."""
    i = cuda.grid(1)
    if i < out.shape[0]:
        z = (seeds[i] + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
        out[i] = z ^ (z >> 31)


ALL_ANNOTATED = [grid_stride_sum, saxpy, block_sum, reverse_block, histogram, atomic_extremes, shared_counter,
                 cas_first, device_math, rounded_digits, add_2d, indices_3d, matmul_tiled, int_divide,
                 out_of_bounds, checked_out_of_bounds, diverged_barrier, early_exit_barrier, odd_even_sort, checked_positive,
                 splitmix_keys]
