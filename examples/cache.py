"""`@script.script(cache=True)`: the first process compiles and writes the entry, later ones load it
(no LLVM, no parsing). Run this file twice; SCRIPT_CACHE_DIR chooses where entries go (by default
__pycache__ beside this file)."""

import time

start = time.perf_counter()

import script  # noqa: E402 - timed with the rest


@script.script(cache=True)
def lcg_pi(n: int) -> float:
    state = 12345                   # a 31-bit LCG: ints are int64 in compiled code
    inside = 0
    for _ in range(n):
        state = (state * 1103515245 + 12345) % 2147483648
        x = state / 2147483648.0
        state = (state * 1103515245 + 12345) % 2147483648
        y = state / 2147483648.0
        if x * x + y * y < 1.0:
            inside += 1
    return 4.0 * inside / n


if __name__ == "__main__":
    hit = bool(lcg_pi._specializations)     # a hit is loaded when decorating; a miss compiles on the first call
    lcg_pi(10)
    ready = time.perf_counter()
    how = "loaded from the cache" if hit else "compiled"
    print(f"lcg_pi {how}: {1e3 * (ready - start):.1f} ms from the start of this process to its first call")
    print("lcg_pi(1_000_000) =", lcg_pi(1_000_000))
