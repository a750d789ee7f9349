"""Run by test_memory.py in a child process: compiles N distinct functions (written to a
module in DIR), each dropped after one call, and prints one JSON line of what stayed: RSS
and Python's traced memory (bytes) and the number of memory maps, after the warm-up, after
the first half of the N functions and after all of them. With a third argument ``traced``,
Python's allocations are traced (tracemalloc's own records then add to RSS, so RSS is
measured without it); with ``live``, the functions are kept instead of dropped; with
``store``, they are compiled with ``cache=True`` and kept, so that a second run in a
fresh process (with the same SCRIPT_CACHE_DIR) loads every one from the store."""

import gc
import json
import os
import sys
import tracemalloc

import script

n, folder = int(sys.argv[1]), sys.argv[2]
with open(os.path.join(folder, "many_functions.py"), "w") as f:
    for k in range(n + 10):
        f.write(f"def f_{k}(x):\n    s = 0\n    for i in range(x):\n        s += i * {k} + {k % 7}\n    return s\n\n")
sys.path.insert(0, folder)
import many_functions  # noqa: E402


def measure() -> dict:
    gc.collect()
    with open("/proc/self/statm") as f:
        rss = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    with open("/proc/self/maps") as f:
        maps = sum(1 for _ in f)
    return {"rss": rss, "maps": maps, "traced": tracemalloc.get_traced_memory()[0]}


kept = []


def compile_and_drop(k: int) -> None:
    g = getattr(many_functions, f"f_{k}")
    fresh = type(g)(g.__code__, g.__globals__, g.__name__)     # a new function each time
    f = script.script(fresh, cache=sys.argv[3:] == ["store"])
    assert f(4) == sum(i * k + k % 7 for i in range(4))
    if sys.argv[3:] in (["live"], ["store"]):
        kept.append(f)


if sys.argv[3:] == ["traced"]:
    tracemalloc.start()
for k in range(n, n + 10):
    compile_and_drop(k)
before = measure()
for k in range(n // 2):
    compile_and_drop(k)
middle = measure()
for k in range(n // 2, n):
    compile_and_drop(k)
kinds = sorted({type(s).__name__ for f in kept for s in f._specializations.values()})
print(json.dumps({"before": before, "middle": middle, "after": measure(), "kinds": kinds}))
