"""Every file of examples/ runs as its README says, in a fresh process, and prints what it
promises (the examples are documentation: they must not rot)."""

import os
import subprocess
import sys

import pytest

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")


def run(name: str, cache: str) -> str:
    env = dict(os.environ, SCRIPT_CACHE_DIR=cache, SCRIPT_CUDA="cpu")
    r = subprocess.run([sys.executable, os.path.join(EXAMPLES, name)], env=env,
                       capture_output=True, text=True, timeout=600, cwd=cache)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    return r.stdout


@pytest.mark.parametrize("name, expected", [
    ("quickstart.py", ["collatz(27) = 111", "poly(2, 3) = 17.0", "signatures of poly"]),
    ("errors.py", ["ZeroDivisionError: division by zero",
                   "ValueError: 7 is not in list", "TypeError: unsupported operand type(s) for +: 'int' and 'str'",
                   "errors.py:33:", "with open(\"data.txt\")"]),
    ("numpy_kernels.py", ["blur", "pairwise", "histogram", "monte_carlo_pi"]),
    ("save_and_load.py", ["steps(27) = 111", "smooth = [0. 1. 2. 1. 0.]"]),
    ("cuda_saxpy.py", [".entry", "saxpy ran on the CPU - y[:5] = [1. 3. 5. 7. 9.]"]),
])
def test_an_example_runs(name, expected, tmp_path):
    out = run(name, str(tmp_path))
    for text in expected:
        assert text in out, out


def test_the_cache_example_compiles_then_loads(tmp_path):
    first, second = run("cache.py", str(tmp_path)), run("cache.py", str(tmp_path))
    assert "lcg_pi compiled" in first and "lcg_pi loaded from the cache" in second, first + second
    assert first.splitlines()[-1] == second.splitlines()[-1] == "lcg_pi(1_000_000) = 3.142956"


@pytest.mark.slow          # a Dask cluster of two processes starts and stops: ~7 s
def test_the_dask_example_maps_over_worker_processes(tmp_path):
    pytest.importorskip("dask.distributed")
    out = run("dask_map.py", str(tmp_path))
    assert "64 rows on 2 Dask worker processes; same as local: True" in out, out


def test_the_readme_lists_every_example():
    readme = open(os.path.join(EXAMPLES, "README.md")).read()
    files = sorted(f for f in os.listdir(EXAMPLES) if f.endswith(".py"))
    assert files and all(f"`{f}`" in readme for f in files), files
