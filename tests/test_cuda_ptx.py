"""Kernels to PTX: every test kernel assembled by ptxas for sm_80 and sm_90; the kernel ops in
the IR's text form; the kernel language's errors."""

import subprocess
import sys

import numpy as np
import pytest

import script
from script import cuda
from script.errors import CompileError

import cuda_kernels as K

ptxas = pytest.mark.skipif(__import__("shutil").which("ptxas") is None, reason="ptxas not installed")


@ptxas
@pytest.mark.parametrize("kernel", K.ALL_ANNOTATED, ids=lambda k: k.__name__)
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_every_kernel_assembles(kernel, arch):
    from script.backend.nvptx.target import run_ptxas
    ptx = kernel.ptx(arch=arch)
    assert f".target {arch}" in ptx and ".entry script_" in ptx
    report = run_ptxas(ptx, arch)
    assert "registers" in report


def test_ptx_uses_the_global_address_space_and_libdevice():
    ptx = K.saxpy.ptx()
    assert "ld.global" in ptx and "st.global" in ptx
    math_ptx = K.device_math.ptx()
    assert "__nv_" not in math_ptx.split(".entry")[0] or ".func" in math_ptx   # linked, internal
    assert ".extern" not in math_ptx
    reduction = K.block_sum.ptx()
    assert "bar.sync" in reduction and ".shared" in reduction


def test_unannotated_kernel_ptx_with_signature():
    ptx = K.strided_scale.ptx(signature=(script.f32[:], float))
    assert ".entry" in ptx


@ptxas
def test_inspect_shows_registers():
    text = K.saxpy.inspect(arch="sm_90")
    assert "registers" in text and "sm_90" in text


def test_kernel_arch_option():
    @script.kernel(arch="sm_90")
    def k(a: script.f64[:]):
        a[cuda.grid(1)] = 1.0
    assert ".target sm_90" in k.ptx()
    with pytest.raises(ValueError):
        script.kernel(arch="compute_x")(lambda a: None)


def test_kernel_ops_round_trip_through_text():
    from script.cuda.compile import build_module
    from script.ir.parser import parse_module
    from script.ir.printer import format_module
    for kernel in (K.block_sum, K.histogram, K.atomic_extremes, K.matmul_tiled, K.cas_first):
        module = build_module(kernel._info, tuple(kernel._info.param_types), False, 2)
        text = format_module(module)
        assert format_module(parse_module(text)) == text
    assert "barrier" in format_module(build_module(K.block_sum._info, tuple(K.block_sum._info.param_types), False, 2))


def test_resumable_kernel_verifies():
    from script.cuda.barriers import make_resumable
    from script.cuda.compile import build_module
    from script.ir.verifier import verify_function
    module = build_module(K.matmul_tiled._info, tuple(K.matmul_tiled._info.param_types), True, 2)
    r = make_resumable(next(iter(module.functions.values())))
    verify_function(r.func, after="cuda.barriers")
    assert r.barriers == 2 and r.int_slots + r.float_slots >= 3


def _error(src_fn):
    with pytest.raises(CompileError) as e:
        src_fn()
    return str(e.value)


def test_cuda_in_plain_script_function_is_a_compile_error():
    def make():
        @script.script
        def f(a: script.f64[:]) -> None:
            a[cuda.threadIdx.x] = 1.0
        f(np.zeros(2))          # (compiled on its first call)
    msg = _error(make)
    assert "only be used in a @script.kernel" in msg and "test_cuda_ptx.py" in msg


def test_kernel_errors_point_at_the_line():
    @script.kernel
    def returns(a: script.f64[:]):
        return a[0]

    @script.kernel
    def bad_shape(a: script.f64[:], n: int):
        s = cuda.shared.array(n, script.f64)
        a[0] = s[0]

    @script.kernel
    def bad_atomic(a: script.f64[:]):
        cuda.atomic.cas(a, 0, 1.0, 2.0)

    @script.kernel
    def bad_grid(a: script.f64[:]):
        a[0] = cuda.grid(4)

    @script.kernel
    def recursive(a: script.i64[:]):
        a[0] = fact(a[0])

    assert "cannot return a value" in _error(returns.ptx)
    assert "shape of a shared array" in _error(bad_shape.ptx)
    assert "cuda.atomic.cas() works on arrays of 32- or 64-bit ints" in _error(bad_atomic.ptx)
    assert "constant 1, 2 or 3" in _error(bad_grid.ptx)
    assert "recursion" in _error(recursive.ptx)


def fact(n: int) -> int:
    return 1 if n <= 1 else n * fact(n - 1)


def test_import_script_stays_light():
    code = ("import sys, script; from script import cuda; "
            "bad = [m for m in ('llvmlite', 'numpy', 'lark', 'ctypes.util') if m in sys.modules]; "
            "print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_default_arch_from_the_environment(monkeypatch):
    monkeypatch.setenv("SCRIPT_CUDA_ARCH", "sm_86")
    assert ".target sm_86" in K.saxpy.ptx()
    monkeypatch.setenv("SCRIPT_CUDA_ARCH", "gfx90a")
    with pytest.raises(ValueError, match="SCRIPT_CUDA_ARCH: arch must name"):
        K.saxpy.ptx()


def test_grid_stride_loops_are_unrolled_with_a_remainder():
    """Four loads in the unrolled body, none of them behind an exit test of its own (the
    lengths' range lets LLVM count the trips), so a thread keeps four loads in flight."""
    ptx = K.grid_stride_sum.ptx(arch="sm_90")
    bodies = [b for b in ptx.split("$L__BB") if b.count("ld.global.b64") == 4]
    assert len(bodies) == 1, ptx
    loads = bodies[0][bodies[0].index("ld.global"):bodies[0].rindex("ld.global")]
    assert "bra" not in loads and "div" in ptx, ptx       # the trip count: one division
