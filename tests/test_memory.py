"""Memory comes back (docs/memory.md): a dropped compiled function frees its closure's
objects, its frontend state and its LLVM module; what stays per function is bounded."""

import gc
import json
import subprocess
import sys
import weakref
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

import memory_kernels as K  # noqa: E402

# What a compiled and dropped function still costs (measured: ~60 KiB in llvmlite 0.50's pass
# builder, which no API of it frees, and allocator slack; it was 100-150 KiB before the
# frontend's caches let go): a bound that a leak of the IR or the AST per function breaks.
MAX_RSS_PER_FUNCTION = 120 << 10
MAX_TRACED_PER_FUNCTION = 2 << 10     # Python's own share (was ~27 KiB: AST, IR, infos)


def test_dropped_closures_free_what_they_captured():
    refs = []
    for k in range(5):
        a = np.full(1 << 17, float(k))
        f = K.closure_over(a)
        assert f(3) == float(k)
        refs.append(weakref.ref(a))
        del a, f
    gc.collect()
    assert [r() is None for r in refs] == [True] * 5


def _measure(n: int, folder, *mode) -> tuple:
    r = subprocess.run([sys.executable, str(Path(__file__).with_name("memory_child.py")), str(n), str(folder),
                        *mode], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    m = json.loads(r.stdout.splitlines()[-1])
    return m["before"], m["after"]


def test_dropped_functions_give_back_their_memory(tmp_path):
    n = 150
    before, after = _measure(n, tmp_path)
    assert after["rss"] - before["rss"] <= n * MAX_RSS_PER_FUNCTION, (before, after)
    assert after["maps"] - before["maps"] <= 8, (before, after)    # a dropped function's code is unmapped
    before, after = _measure(n, tmp_path, "traced")
    assert after["traced"] - before["traced"] <= n * MAX_TRACED_PER_FUNCTION, (before, after)
