"""Timing helpers shared by run.py and numba_runner.py (standard library only: the Numba
runner loads this file from another virtual environment)."""

from __future__ import annotations

import math
import statistics
import time
import timeit


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def calibrate(fn, min_time: float) -> int:
    """How many calls of `fn()` take at least `min_time` seconds (at least 1)."""
    t0 = time.perf_counter()
    fn()
    one = time.perf_counter() - t0
    if one <= 0:
        return 1000
    return max(1, math.ceil(min_time / one))


def time_per_call(fn, number: int, clock=time.perf_counter) -> float:
    """Seconds per call of `fn()`, from one timed loop of `number` calls (by `clock`: wall
    time, or `time.thread_time` for CPU time on a loaded machine)."""
    t0 = clock()
    for _ in range(number):
        fn()
    return (clock() - t0) / number


def ns_per_call(f, number: int) -> float:
    """ns per `f(1, 2)`, timed with timeit (its loop adds ~5 ns/iteration to every entry)."""
    return timeit.timeit("f(1, 2)", globals={"f": f}, number=number) / number * 1e9


def same_result(a, b) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return a == b or math.isclose(a, b, rel_tol=1e-12, abs_tol=0.0)
    return a == b
