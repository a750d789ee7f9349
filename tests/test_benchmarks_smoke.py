"""The benchmark harness runs end to end (`benchmarks/run.py --quick`). No timing is checked:
only that it exits 0 and prints every section, and that no implementation disagreed."""

import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUN = os.path.join(ROOT, "benchmarks", "run.py")

HEADERS = [
    "== 1. Scalar kernels",
    "== 2. Call overhead",
    "== 3. Compile latency",
    "== 4. Import time",
    "== Summary against targets",
]


@pytest.mark.skipif(shutil.which("gcc") is None, reason="the C baselines need gcc")
def test_benchmarks_quick_run():
    r = subprocess.run([sys.executable, RUN, "--quick"], capture_output=True, text=True,
                       cwd=ROOT, timeout=180)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    for header in HEADERS:
        assert header in r.stdout, f"missing {header!r} in:\n{r.stdout}"
    assert "!!" not in r.stdout, r.stdout      # a result that disagreed with CPython's
    for kernel in ("fib", "collatz", "lcg_pi", "branchy"):
        assert f"kernel {kernel}:" in r.stdout


@pytest.mark.skipif(shutil.which("gcc") is None, reason="the C baselines need gcc")
def test_classic_kernels_quick_run():
    """benchmarks/classic.py --quick: every classic kernel compiles, agrees with CPython
    and with its C version (c/<name>.c)."""
    r = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "classic.py"), "--quick"],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "!!" not in r.stdout, r.stdout
    for kernel in ("nbody_accel", "sieve", "histogram", "int_mod_hash"):
        assert kernel in r.stdout


@pytest.mark.skipif(shutil.which("gcc") is None, reason="the C baselines need gcc")
def test_workload_kernels_quick_run():
    """benchmarks/workloads.py --quick: every workload kernel (lists, strs, dicts, float32,
    recursion, `@`) compiles, agrees with CPython and with its C version (c/<name>.c)."""
    r = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "workloads.py"), "--quick"],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "!!" not in r.stdout, r.stdout
    for kernel in ("fannkuch", "word_count", "blur_f32", "logreg", "quicksort_list"):
        assert kernel in r.stdout


def test_the_readme_chart_is_drawn_from_the_readme_tables(tmp_path):
    """docs/benchmarks.svg is what benchmarks/plot.py draws from README.md's tables today: a
    changed figure without a redrawn chart fails here (rerun `python benchmarks/plot.py`)."""
    sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
    try:
        import plot
    finally:
        sys.path.pop(0)
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    panels = plot.panels(readme)
    assert [len(rows) for _, _, rows in panels] == [6, 11, 5]
    assert dict(panels[1][2])["spectral norm"][0] == (0.94, 0.94)
    scalar = dict(panels[0][2])
    assert scalar["recursive fib(27)"] == [(1.02, 1.02), (2.63, 2.63)]
    assert scalar["Mersenne Twister pi (random.random)"][1] == (1.5, 2.7)
    out = tmp_path / "chart.svg"
    plot.main(["--out", str(out)])
    drawn = out.read_text()
    assert drawn.count("<title>") == sum(f is not None for _, _, rows in panels for _, fs in rows for f in fs)
    committed = open(os.path.join(ROOT, "docs", "benchmarks.svg"), encoding="utf-8").read()
    assert drawn == committed, "docs/benchmarks.svg is stale: run python benchmarks/plot.py"


@pytest.mark.skipif(shutil.which("gcc") is None, reason="the C baselines need gcc")
def test_shape_kernels_quick_run():
    """benchmarks/shapes.py --quick: issue 21's kernel shapes (a helper called in a double
    loop, `min`, `math.floor` under a flag, recursion) compile and agree with CPython and C."""
    r = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "shapes.py"), "--quick"],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "!!" not in r.stdout, r.stdout
    for kernel in ("spectral_norm_calls", "floyd_min", "histogram_floor", "levenshtein", "fib_rec"):
        assert kernel in r.stdout
