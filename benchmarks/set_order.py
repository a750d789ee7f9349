"""Set-heavy code, compiled: adds, lookups, discards and iteration over int and str sets.

Run with ``PYTHONPATH=<checkout> python benchmarks/set_order.py``; prints the median of 9
timed calls of each kernel (after a warm-up call), in milliseconds. Used to compare the
sets in CPython's order (lib/python/setlib.py) with the insertion-ordered tables before them.
"""

import statistics
import time

import script


@script.script
def int_set(n):
    s = set()
    for i in range(n):
        s.add(i * 7919 % 100003)
    hits = 0
    for i in range(n):
        if i in s:
            hits += 1
    for i in range(0, n, 3):
        s.discard(i * 7919 % 100003)
    total = 0
    for x in s:
        total += x
    return hits + total + len(s)


@script.script
def str_set(words):
    s = set()
    for w in words:
        s.add(w)
    hits = 0
    for w in words:
        if w + "x" in s:
            hits += 1
    return hits + len(s)


def median_ms(fn, *args) -> float:
    fn(*args)
    times = []
    for _ in range(9):
        t = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


if __name__ == "__main__":
    words = [f"w{i % 5000}" + ("x" if i % 3 else "") for i in range(200_000)]
    print(f"int_set(200000): {median_ms(int_set, 200_000):.2f} ms")
    print(f"str_set(200000 words): {median_ms(str_set, words):.2f} ms")
