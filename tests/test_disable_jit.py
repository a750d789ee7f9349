"""SCRIPT_DISABLE_JIT / script.config.disable_jit: decorated code runs as plain Python, kernels
in the Python simulation (script.cuda.simulator), compared with the compiled CPU path."""

import functools
import importlib.util
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import script
from script import cuda

import cuda_kernels as K

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture
def no_jit(monkeypatch):
    monkeypatch.setattr(script.config, "disable_jit", True)


@pytest.fixture(scope="module")
def S():
    """tests/cuda_kernels.py imported again with the JIT disabled: its kernels simulated."""
    saved = script.config.disable_jit
    script.config.disable_jit = True
    try:
        spec = importlib.util.spec_from_file_location("cuda_kernels_simulated", os.path.join(HERE, "cuda_kernels.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        script.config.disable_jit = saved
    return module


@pytest.fixture(autouse=True)
def cpu_path():
    cuda.select("cpu")
    yield
    cuda.select("auto")


def test_compiled_functions_have_py_func():
    def f(x: int) -> int:
        return x + 1
    g = script.script(f)
    assert g.py_func is f and g(1) == f(1) == 2


def test_decorators_return_python_without_the_jit(no_jit):
    def f(x: int) -> int:
        return x + 1
    assert script.script(f) is f and f.py_func is f
    assert script.script(opt=3)(f) is f
    cached = functools.cache(lambda n: n)
    assert script.script(cached) is cached          # memoized as before
    k = script.kernel(lambda a: None)
    assert "simulated" in repr(k) and k.py_func.__name__ == "<lambda>"
    with pytest.raises(TypeError, match="configuration"):
        k(1)


def test_the_environment_variable_and_a_tracer_sees_every_line(tmp_path):
    (tmp_path / "prog.py").write_text(textwrap.dedent("""
        import sys, types
        import script

        @script
        def total(n: int) -> int:
            s = 0
            for i in range(n):
                s += i
            return s

        lines = set()
        def tracer(frame, event, arg):
            if frame.f_code is getattr(total, "__code__", None) and event == "line":
                lines.add(frame.f_lineno)
            return tracer
        sys.settrace(tracer)
        r = total(4)
        sys.settrace(None)
        print(type(total) is types.FunctionType, r, sorted(lines), script.config.disable_jit)
    """))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = {}
    for flag in ("1", "0"):
        env["SCRIPT_DISABLE_JIT"] = flag
        r = subprocess.run([sys.executable, str(tmp_path / "prog.py")], env=env, capture_output=True,
                           text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        out[flag] = r.stdout.strip()
    assert out["1"] == "True 6 [7, 8, 9, 10] True"
    assert out["0"] == "False 6 [] False"


def _compare(compiled, simulated, config, *arrays):
    """Launch both kernels on copies of `arrays`; the arrays after the launches must agree."""
    a, b = [x.copy() for x in arrays], [x.copy() for x in arrays]
    compiled[config](*a)
    simulated[config](*b)
    for x, y in zip(a, b):
        np.testing.assert_allclose(x, y, rtol=1e-6)
    return b


def test_kernels_agree_with_the_compiled_cpu_path(S):
    rng = np.random.default_rng(7)
    x, y = rng.random(300, dtype=np.float32), rng.random(300, dtype=np.float32)
    y2 = y.copy()
    K.saxpy[3, 128](2.5, x, y)
    S.saxpy[3, 128](2.5, x, y2)
    np.testing.assert_allclose(y, y2, rtol=1e-6)
    f64 = rng.random(700)
    _compare(K.block_sum, S.block_sum, (6, 128), f64, np.zeros(6))
    _compare(K.reverse_block, S.reverse_block, (4, 64), np.arange(256, dtype=np.int32))
    _compare(K.histogram, S.histogram, (3, 64), rng.integers(0, 1000, 900), np.zeros(7, np.int32))
    _compare(K.atomic_extremes, S.atomic_extremes, (2, 64), rng.random(100), np.array([-1.0, 2.0]),
             np.array([-1, 10**6]))
    _compare(K.shared_counter, S.shared_counter, (3, 50), np.zeros(3, np.int32))
    _compare(K.device_math, S.device_math, (2, 32), rng.normal(size=50), np.zeros(50))
    _compare(K.add_2d, S.add_2d, ((2, 3), (4, 4)), rng.random((7, 9)), rng.random((7, 9)), np.zeros((7, 9)))
    _compare(K.indices_3d, S.indices_3d, ((1, 2, 3), (3, 2, 2)), np.zeros((3, 4, 5), np.int64))
    a, b = rng.random((9, 5), dtype=np.float32), rng.random((5, 10), dtype=np.float32)
    _compare(K.matmul_tiled, S.matmul_tiled, ((2, 2), (8, 8)), a, b, np.zeros((9, 10), np.float32))
    _compare(K.early_exit_barrier, S.early_exit_barrier, (1, 8), np.arange(5.0), np.zeros(5))
    (sorted_,) = _compare(K.odd_even_sort, S.odd_even_sort, (1, 32), rng.integers(-99, 99, 64).astype(np.int32))
    assert (np.diff(sorted_) >= 0).all()
    _compare(K.grid_stride_sum, S.grid_stride_sum, (3, 7), rng.random(500), np.zeros(1))
    # (splitmix_keys is left out: in Python, NumPy's uint64 scalars overflow where compiled
    # code computes Python's int and masks it)
    d = cuda.to_device(np.arange(8.0))
    S.strided_scale[1, 8](d, 3)
    assert d.copy_to_host().tolist() == [3.0 * i for i in range(8)]


def test_errors_are_raised_by_the_launch(S):
    for k in (K, S):
        with pytest.raises(ValueError, match=r"^negative at 1: -2.50 -2.5 True$"):
            k.checked_positive[1, 4](np.array([1.0, -2.5, 3.0]))
        with pytest.raises(RuntimeError, match="different cuda.syncthreads"):
            k.diverged_barrier[1, 4](np.zeros(2))
    with pytest.raises(IndexError):
        S.out_of_bounds[1, 20](np.zeros(10))
    with pytest.raises(ValueError, match="grid"):
        S.saxpy[-1, 2]


def test_markers_outside_a_simulated_thread_still_raise(S):
    S.saxpy[1, 4](1.0, np.zeros(4, np.float32), np.zeros(4, np.float32))
    with pytest.raises(RuntimeError, match="inside a @script.kernel"):
        cuda.grid(1)
    assert "only inside kernels" in repr(cuda.threadIdx.x)
