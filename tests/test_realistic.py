"""Realistic scalar functions, compiled and in CPython, over many inputs."""

from hypothesis import given, settings, strategies as st

import realistic as R
from difftest import check_all_levels

SET = settings(max_examples=40, deadline=None)
small = st.integers(-50, 50)


@SET
@given(st.integers(-10**6, 10**6), st.integers(-10**6, 10**6))
def test_number_theory(a, b):
    check_all_levels(R.gcd_loop, a, b)
    check_all_levels(R.digits_sum, a)
    check_all_levels(R.is_prime, abs(a) % 10000)


@SET
@given(st.integers(0, 300))
def test_loops_and_calls(n):
    check_all_levels(R.count_primes, n)
    check_all_levels(R.fizzbuzz_score, n)
    check_all_levels(R.first_negative_pair, n % 40)
    check_all_levels(R.countdown, n - 100)
    check_all_levels(R.early_exit_loop, n)
    check_all_levels(R.mixed_merge, n - 150)


@SET
@given(st.floats(-10, 1e6, allow_nan=False))
def test_numerics(x):
    check_all_levels(R.newton, x)
    check_all_levels(R.horner, x)
    check_all_levels(R.bisect_root, 0.0, 100.0, abs(x) % 1000)


@SET
@given(st.integers(-5, 40), st.integers(-5, 40))
def test_combinatorics(n, k):
    check_all_levels(R.binomial, n, k)


def test_ackermann():
    for m in range(3):
        for n in range(5):
            check_all_levels(R.ackermann_bounded, m, n)


@SET
@given(st.one_of(small, st.floats(-1e3, 1e3)), small, st.floats(-1e3, 1e3))
def test_statistics(a, b, c):
    # x ** 2 is x * x, exactly rounded; glibc's pow (CPython's) can be an ulp off.
    check_all_levels(R.stats3, a, b, c, approx=True)
    check_all_levels(R.bool_arith, a, b)
    check_all_levels(R.nested_tuple_ret, a)


@SET
@given(st.floats(0.5, 4.0), st.floats(0.01, 0.99), st.integers(0, 500))
def test_dynamics(r, x0, steps):
    check_all_levels(R.logistic_map, r, x0, steps)
    check_all_levels(R.rk4_decay, x0, r, 0.01, steps)
    check_all_levels(R.clamp_sum, steps % 60, -10, 50)


import numpy as np  # noqa: E402

import realistic_more as M  # noqa: E402


@SET
@given(st.integers(-3, 200))
def test_lists_and_formatted_errors(n):
    check_all_levels(M.sieve, n)
    check_all_levels(M.newton_sqrt, float(n) * 1.7)


@SET
@given(st.lists(st.floats(-1e3, 1e3), max_size=12), st.integers(-1, 6))
def test_windows_histograms_ranking(xs, k):
    if xs:      # an empty list argument has no element type (docs/lists.md)
        check_all_levels(M.moving_average, xs, k, approx=True)
        check_all_levels(M.histogram_counts, xs, -1e3, 1e3, k)
        check_all_levels(M.run_length, [round(x / 400) for x in xs])
    check_all_levels(M.top_k, np.array(xs), min(max(k, 0), len(xs)))
    check_all_levels(M.smooth3, np.array(xs), approx=True)


@SET
@given(st.integers(0, 7), st.integers(0, 1000))
def test_closure_over_an_array(n, seed):
    pts = np.random.default_rng(seed).standard_normal((n, 3))
    check_all_levels(M.pairwise_min_distance, pts, approx=True)
