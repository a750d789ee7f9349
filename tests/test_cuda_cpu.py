"""Kernels run on the CPU path, against NumPy (script.cuda, docs/cuda.md)."""

import os

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import script
from script import cuda

import cuda_kernels as K


# benchmarks/gpu_check.py runs this file with SCRIPT_CUDA=gpu: the same tests on a GPU.
ON_GPU = os.environ.get("SCRIPT_CUDA") == "gpu"
cpu_only = pytest.mark.skipif(ON_GPU, reason="CPU-path behaviour")
gpu_only = pytest.mark.skipif(not ON_GPU, reason="GPU behaviour (benchmarks/gpu_check.py)")


@pytest.fixture(autouse=True)
def cpu_path():
    cuda.select("gpu" if ON_GPU else "cpu")
    yield
    cuda.select("auto")


@settings(max_examples=15, deadline=None)
@given(n=st.integers(0, 700), a=st.floats(-4, 4), block=st.sampled_from([1, 32, 128, 256]))
def test_saxpy(n, a, block):
    rng = np.random.default_rng(n)
    x = rng.random(n, dtype=np.float32)
    y = rng.random(n, dtype=np.float32)
    want = (np.float64(a) * x + y).astype(np.float32)
    K.saxpy[(n + block - 1) // block, block](a, x, y)
    np.testing.assert_allclose(y, want, rtol=1e-6)


@settings(max_examples=10, deadline=None)
@given(n=st.integers(1, 2000))
def test_block_tree_reduction(n):
    x = np.random.default_rng(n).random(n)
    blocks = (n + 127) // 128
    out = np.zeros(blocks)
    K.block_sum[blocks, 128](x, out)
    want = [x[b * 128:(b + 1) * 128].sum() for b in range(blocks)]
    np.testing.assert_allclose(out, want, rtol=1e-12)


@settings(max_examples=10, deadline=None)
@given(n=st.integers(0, 3000), blocks=st.integers(1, 5), threads=st.sampled_from([1, 7, 32, 64]))
def test_grid_stride_loop(n, blocks, threads):
    x = np.random.default_rng(n).random(n)
    out = np.zeros(1)
    K.grid_stride_sum[blocks, threads](x, out)
    np.testing.assert_allclose(out[0], x.sum(), rtol=1e-12)


def test_values_live_across_barrier():
    a = np.arange(256, dtype=np.int32)
    K.reverse_block[4, 64](a)
    np.testing.assert_array_equal(a, np.concatenate([np.arange(64)[::-1] + 64 * b for b in range(4)]))


def test_barrier_in_for_loop_sorts():
    a = np.random.default_rng(1).integers(-100, 100, 64).astype(np.int32)
    want = np.sort(a)
    K.odd_even_sort[1, 32](a)
    np.testing.assert_array_equal(a, want)


@settings(max_examples=10, deadline=None)
@given(n=st.integers(0, 3000), nbins=st.integers(1, 17))
def test_histogram_atomic_add_grid_stride(n, nbins):
    x = np.random.default_rng(n).integers(0, 1000, n)
    bins = np.zeros(nbins, np.int32)
    K.histogram[3, 64](x, bins)
    np.testing.assert_array_equal(bins, np.bincount(x % nbins, minlength=nbins))


def test_atomic_max_min_float_and_int():
    x = np.random.default_rng(2).random(500)
    out = np.array([-np.inf, np.inf])
    iout = np.array([-10**9, 10**9], np.int64)
    K.atomic_extremes[4, 128](x, out, iout)
    assert out.tolist() == [x.max(), x.min()]
    assert iout.tolist() == [int(x.max() * 1000), int(x.min() * 1000)]


def test_atomics_on_shared_memory():
    out = np.zeros(5, np.int32)
    K.shared_counter[5, (8, 4)](out)
    assert out.tolist() == [32] * 5


@cpu_only
def test_atomic_cas():
    flag = np.zeros(1, np.int32)
    winner = np.full(1, -1, np.int32)
    K.cas_first[2, 16](flag, winner)
    assert flag[0] == 1 and winner[0] == 0      # threads run in order on the CPU


@gpu_only
def test_atomic_cas_on_the_gpu():
    flag = np.zeros(1, np.int32)
    winner = np.full(1, -1, np.int32)
    K.cas_first[2, 16](flag, winner)
    assert flag[0] == 1 and 0 <= winner[0] < 32      # one thread won, any of them


def test_device_functions_and_libdevice_math():
    x = np.linspace(-3, 3, 301)
    out = np.zeros_like(x)
    K.device_math[3, 128](x, out)
    want = np.clip(np.exp(-x * x) + np.sin(x) * np.cos(x) + np.log1p(np.abs(x)) + np.tanh(x), -1, 2)
    np.testing.assert_allclose(out, want, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("n", [2, 9, -3, 30, -25])
def test_round_to_digits_in_a_kernel(n):
    # On the CPU, CPython's correctly rounded answer (GPU code scales where 10**n is inexact)
    x = np.array([2.675, 138.35399999999998, 0.125, -1e-30, 2.5e25, 1234567.5, -0.0, 5e-324])
    out = np.zeros_like(x)
    K.rounded_digits[1, 32](x, n, out)
    assert [repr(v) for v in out.tolist()] == [repr(round(v, n)) for v in x.tolist()]


def test_2d_grid_on_strided_arrays():
    a = np.random.default_rng(3).random((40, 30))
    b = np.random.default_rng(4).random((80, 30))[::2]          # strided rows
    out = np.zeros((40, 30)).T.copy().T                           # Fortran order
    K.add_2d[(5, 4), (8, 8)](a, b, out)
    np.testing.assert_allclose(out, a + 2 * b)


def test_3d_indices_and_dims():
    out = np.zeros((6, 5, 4), np.int64)
    K.indices_3d[(2, 3, 2), (3, 2, 2)](out)
    x, y, z = np.indices(out.shape)
    np.testing.assert_array_equal(out, (x * 6 + y) * 4 + z + 3_000_000 + 30_000)


@pytest.mark.parametrize("shape", [(8, 8, 8), (13, 21, 9), (1, 5, 1)])
def test_tiled_matmul(shape):
    m, k, n = shape
    rng = np.random.default_rng(m * k * n)
    a = rng.random((m, k), dtype=np.float32)
    b = rng.random((k, n), dtype=np.float32)
    c = np.zeros((m, n), np.float32)
    K.matmul_tiled[((n + 7) // 8, (m + 7) // 8), (8, 8)](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5)


def test_unannotated_kernel_specializes_per_launch():
    a = np.arange(20.0)
    K.strided_scale[1, 32](a[::2], 3.0)
    np.testing.assert_array_equal(a, np.where(np.arange(20) % 2 == 0, 3.0, 1.0) * np.arange(20.0))
    b = np.arange(10, dtype=np.int32)
    K.strided_scale[1, 32](b, 2)
    assert b.tolist() == [2 * i for i in range(10)]


@cpu_only
def test_exceptions_raise_as_in_python():
    a = np.arange(10)
    with pytest.raises(ZeroDivisionError):
        K.int_divide[1, 16](a, 0)
    K.int_divide[1, 16](a, 3)
    assert a.tolist() == [i // 3 for i in range(10)]
    with pytest.raises(IndexError, match="out of bounds"):
        K.out_of_bounds[1, 20](np.zeros(10))      # bounds are checked on the CPU path
    with pytest.raises(ValueError, match=r"^negative at 1: -2.50 -2.5 True$"):
        K.checked_positive[1, 4](np.array([1.0, -2.5, 3.0]))


@gpu_only
def test_exceptions_raise_from_the_gpu():
    a = np.arange(10)
    with pytest.raises(ZeroDivisionError):
        K.int_divide[1, 16](a, 0)
    K.int_divide[1, 16](a, 3)                  # the record was cleared
    assert a.tolist() == [i // 3 for i in range(10)]
    with pytest.raises(ValueError, match=r"^negative at 1: -2.50 -2.5 True$"):
        K.checked_positive[1, 4](np.array([1.0, -2.5, 3.0]))
    with pytest.raises(IndexError, match="out of bounds"):
        K.checked_out_of_bounds[1, 20](np.zeros(10))     # boundscheck=True on the GPU too
    d = cuda.to_device(np.arange(10))
    with pytest.raises(ZeroDivisionError):
        K.int_divide[1, 16](d, 0)                # device arrays: the launch still raises


@cpu_only
def test_divergent_barrier_is_an_error():
    with pytest.raises(RuntimeError, match="different cuda.syncthreads"):
        K.diverged_barrier[1, 4](np.zeros(2))


def test_threads_that_exit_before_a_barrier():
    a, out = np.arange(5.0), np.zeros(5)
    K.early_exit_barrier[1, 8](a, out)
    b = np.arange(5.0) + 1
    np.testing.assert_array_equal(out, b + np.roll(b, -1))


def test_device_arrays_on_the_cpu_path():
    x = np.arange(100, dtype=np.float32)
    dx = cuda.to_device(x)
    dy = cuda.device_array(100, np.float32)
    dy.copy_to_device(np.ones(100, np.float32))
    K.saxpy[4, 32](2.0, dx, dy)
    np.testing.assert_array_equal(dy.copy_to_host(), 2 * x + 1)
    assert dy.shape == (100,) and dy.strides == (4,)


def test_streams_and_asynchronous_launches():
    s = cuda.stream()
    n = 1 << 16
    x = np.random.default_rng(5).random(n, dtype=np.float32)
    dx, dy = cuda.to_device(x, s), cuda.to_device(np.ones(n, np.float32), s)
    for _ in range(3):                         # queued one after another on the stream
        K.saxpy[(n + 255) // 256, 256, s](2.0, dx, dy)
    s.synchronize()
    np.testing.assert_allclose(dy.copy_to_host(stream=s), 6 * x + 1, rtol=1e-6)
    K.saxpy[(n + 255) // 256, 256](1.0, dx, dy)       # default stream, returns at once
    np.testing.assert_allclose(dy.copy_to_host(), 7 * x + 1, rtol=1e-6)   # the copy waits
    cuda.synchronize()


def test_stream_arguments_of_other_libraries():
    import ctypes
    from script.cuda.driver import stream_handle

    class Protocol:
        def __cuda_stream__(self):
            return (0, 0)

    class CuPyLike:
        ptr = 0

    class NumbaLike:
        handle = ctypes.c_void_p(None)

    assert [stream_handle(s) for s in (None, 0, Protocol(), CuPyLike(), NumbaLike())] == [0] * 5
    assert stream_handle(cuda.stream()) >= 0
    with pytest.raises(TypeError, match="stream"):
        stream_handle("fast")


def test_launch_configuration_errors():
    with pytest.raises(TypeError, match=r"saxpy\[grid, block\]"):
        K.saxpy(1.0, np.zeros(1, np.float32), np.zeros(1, np.float32))
    with pytest.raises(ValueError):
        K.saxpy[1]
    with pytest.raises(TypeError, match="must be"):
        K.saxpy[1, 1](1.0, np.zeros(1), np.zeros(1, np.float32))
    K.saxpy[1, 1, 0, 0](1.0, np.zeros(1, np.float32), np.zeros(1, np.float32))
    with pytest.raises(ValueError, match="shared_bytes"):
        K.saxpy[1, 1, 0, -4]
    y = np.zeros(4, np.float32)
    K.saxpy[[1], [4]](1.0, np.ones(4, np.float32), y)           # lists: not memoized, same launch
    K.saxpy[0, 32](1.0, np.ones(4, np.float32), y)              # no threads: nothing runs
    assert y.tolist() == [1.0] * 4


def test_repeated_launches_convert_and_check_every_argument():
    d = cuda.to_device(np.arange(8, dtype=np.float32))
    out = cuda.to_device(np.zeros(8, np.float32))
    for a in (2.0, 3, np.float32(0.5), np.float64(1.5), True):   # the same or new memo entries
        out.copy_to_device(np.zeros(8, np.float32))
        K.saxpy[1, 8](a, d, out)
        np.testing.assert_array_equal(out.copy_to_host(), np.float32(float(a)) * np.arange(8, dtype=np.float32))
    with pytest.raises(TypeError, match="argument 'a' must be"):
        K.saxpy[1, 8]("2", d, out)
    with pytest.raises(TypeError, match="argument 'x' must be"):
        K.saxpy[1, 8](2.0, cuda.to_device(np.zeros(8)), out)
    a = np.arange(10)
    K.int_divide[1, 16](a, 2)
    with pytest.raises(TypeError, match="argument 'd' must be"):
        K.int_divide[1, 16](a, 2.5)


@cpu_only
def test_gpu_requested_without_driver_is_a_clear_error():
    if cuda.is_available():
        pytest.skip("a GPU is present")
    cuda.select("gpu")
    with pytest.raises(cuda.CudaError, match="no usable GPU"):
        K.saxpy[1, 1](1.0, np.zeros(1, np.float32), np.zeros(1, np.float32))


def test_intrinsics_called_from_python_raise():
    with pytest.raises(RuntimeError, match="inside a @script.kernel"):
        cuda.syncthreads()


@cpu_only
def test_select_and_env(monkeypatch):
    cuda.select("auto")
    monkeypatch.setenv("SCRIPT_CUDA", "cpu")
    import script.cuda as c
    c._mode = None
    assert cuda.selected() == "cpu"
    with pytest.raises(ValueError):
        cuda.select("tpu")


def test_u64_constants_and_masks_in_a_kernel():
    def splitmix(seed):
        z = (seed + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)
    seeds = np.array([0, 1, 2**63, 2**64 - 1, 12345, 2**63 - 1, 7, 99], np.uint64)
    out = np.zeros_like(seeds)
    K.splitmix_keys[2, 4](seeds, out)
    assert out.tolist() == [splitmix(int(s)) for s in seeds]


@cpu_only
def test_the_cpu_path_is_linked_into_the_arena():
    # native.elfload, as compiled functions are (memory maps shared, code freed with the
    # kernel), not LLVM's JIT, whose JITDylibs stay for the process
    from script.backend.native import elfload
    if not elfload.is_supported():
        pytest.skip("elfload runs on x86-64 Linux")
    x = np.ones(4, dtype=np.float32)
    K.saxpy[1, 4](2.0, x, x)
    [kernel] = K.saxpy._cpu.values()
    assert isinstance(kernel.library._tracker, elfload.Image)
