"""Memory comes back (docs/memory.md): a dropped compiled function frees its closure's
objects, its frontend state and its LLVM module; what stays per function is bounded."""

import gc
import json
import os
import subprocess
import sys
import weakref
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

import memory_kernels as K  # noqa: E402

# What a compiled and dropped function still costs, measured over the second half of the
# functions a child compiles (the first half pays the process's warm-up: ~25 KiB each over
# 150): ~2.4 KiB each over 150, ~4.5 KiB each over 2,000 with the warm-up (docs/memory.md).
# A leak of the IR or the AST per function breaks the bound, and so does each of the leaks
# fixed before: llvmlite's undisposed pass manager (~67 KiB a compile) and a JIT link per
# function (~10 KiB: its JITDylib stays).
MAX_RSS_PER_FUNCTION = 8 << 10
MAX_TRACED_PER_FUNCTION = 2 << 10     # Python's own share (was ~27 KiB: AST, IR, infos)
MAX_RSS_GROWTH_2000 = 20 << 20        # issue 22's bound: 2,000 dropped functions


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


def _measure(n: int, folder, *mode, env=None) -> dict:
    r = subprocess.run([sys.executable, str(Path(__file__).with_name("memory_child.py")), str(n), str(folder),
                        *mode], capture_output=True, text=True, timeout=1200, env=env)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.splitlines()[-1])


def test_dropped_functions_give_back_their_memory(tmp_path):
    m = _measure(300, tmp_path)
    assert m["after"]["rss"] - m["middle"]["rss"] <= 150 * MAX_RSS_PER_FUNCTION, m
    assert m["after"]["maps"] - m["before"]["maps"] <= 8, m    # a dropped function's code is unmapped
    m = _measure(150, tmp_path, "traced")
    assert m["after"]["traced"] - m["before"]["traced"] <= 150 * MAX_TRACED_PER_FUNCTION, m


def test_live_functions_share_their_memory_maps(tmp_path):
    """Every compiled library's code lies in one shared arena (native.arena): 100 live
    functions add a few maps, not 3-5 each (LLJIT's), which reached the kernel's limit of
    65,530 maps near 16k live functions."""
    m = _measure(100, tmp_path, "live")
    assert m["after"]["maps"] - m["before"]["maps"] <= 8, m


def test_functions_loaded_from_the_store_share_their_memory_maps(tmp_path):
    """Code loaded from the store (cache hits; script.load takes the same path) is linked
    into the arena by elfload: 100 live functions loaded add a few maps (they were shared
    objects, ~3 maps each, never unloaded)."""
    env = dict(os.environ, SCRIPT_CACHE_DIR=str(tmp_path / "cache"))
    assert _measure(100, tmp_path, "store", env=env)["kinds"] == ["Specialization"]
    m = _measure(100, tmp_path, "store", env=env)
    assert m["kinds"] == ["LoadedSpecialization"], m
    assert m["after"]["maps"] - m["before"]["maps"] <= 8, m


def test_a_dropped_loaded_module_gives_its_blocks_back(tmp_path):
    import script
    from script.backend.native import arena, elfload
    if not elfload.is_supported():
        pytest.skip("elfload runs on x86-64 Linux")
    expected = K.scaled(2.0, 3), K.offset(5)
    script.save([K.scaled, K.offset], tmp_path / "k.smod")

    def free() -> int:
        gc.collect()
        return sum(sum(r.sizes) for a in arena._arenas for r in a.regions)

    before = free()
    m = script.load(tmp_path / "k.smod")
    assert (m.scaled(2.0, 3), m.offset(5)) == expected
    images = [s.native._image for f in (m.scaled, m.offset) for s in f._specializations.values()]
    assert all(isinstance(i, elfload.Image) for i in images)
    assert free() < before
    refs = [weakref.ref(i) for i in images]
    del m, images
    assert free() == before and all(r() is None for r in refs)


@pytest.mark.slow
def test_two_thousand_dropped_functions_grow_the_process_by_at_most_20_mib(tmp_path):
    m = _measure(2000, tmp_path)
    print(f"2,000 dropped functions: RSS {(m['after']['rss'] - m['before']['rss']) / 2**20:+.1f} MiB, "
          f"maps {m['after']['maps'] - m['before']['maps']:+d}")     # the figure (pytest -rP)
    assert m["after"]["rss"] - m["before"]["rss"] <= MAX_RSS_GROWTH_2000, m
