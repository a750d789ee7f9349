"""``np.random.default_rng(seed)`` in compiled code gives NumPy's numbers: PCG64 seeded
through SeedSequence, ziggurat normals and exponentials, Lemire's integers, NumPy's choice,
shuffle, permutation, poisson and binomial (each function runs in NumPy and compiled, on
hypothesis's seeds and sizes, at opt=0 and the default level); errors come before any
draw, with NumPy's messages."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check_all_levels, compiled
from script.frontend import ziggurat

SEEDS = st.integers(0, 2**32 - 1) | st.integers(2**32, 2**63 - 1) | st.integers(0, 10)
SIZES = st.sampled_from([None, 0, 1, 7, (2, 3), (3, 0)])


def floats(s, size):
    rng = np.random.default_rng(s)
    return (rng.random(size), rng.standard_normal(size), rng.normal(1.5, 2.0, size),
            rng.uniform(-1.0, 3.0, size), rng.exponential(0.5, size), rng.standard_exponential(size),
            rng.random(), rng.normal())


def ints(s, low, high, size):
    rng = np.random.default_rng(s)
    return (rng.integers(low, high, size), rng.integers(low, high, size, endpoint=True),
            rng.integers(high - low), rng.integers(low, high))


def samples(s, n, k):
    rng = np.random.default_rng(s)
    a = np.arange(n) * 1.5
    rng.shuffle(a)
    m = np.arange(n * 2).reshape(n, 2)
    rng.shuffle(m)
    p = np.arange(n) + 1.0
    p = p / p.sum()
    return (a, m, rng.permutation(n), rng.permutation(a), rng.permutation(m),
            rng.choice(n, size=k), rng.choice(n, size=k, replace=False),
            rng.choice(a, size=(k,), replace=False), rng.choice(n, size=k, p=p), rng.choice(a, p=p),
            rng.choice(n, replace=False))


def discrete(s, lam, n, p, size):
    rng = np.random.default_rng(s)
    return rng.poisson(lam, size), rng.binomial(n, p, size), rng.poisson(lam), rng.binomial(n, p)


@settings(max_examples=6, deadline=None)
@given(SEEDS, SIZES)
def test_floats_are_numpys(s, size):
    check_all_levels(floats, s, size)


SPANS = st.sampled_from([1, 2, 3, 10, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**40, 2**62 + 12345, 2**63 - 1])


@settings(max_examples=12, deadline=None)
@given(SEEDS, st.integers(-2**62, 2**62) | st.integers(-5, 5), SPANS, SIZES)
def test_integers_are_numpys_lemire(s, low, span, size):
    high = low + span
    if high > 2**63 - 2:
        low, high = 2**63 - 2 - span, 2**63 - 2
    check_all_levels(ints, s, low, high, size)


@settings(max_examples=7, deadline=None)
@given(SEEDS, st.integers(1, 40), st.integers(0, 1))
def test_choice_shuffle_permutation_are_numpys(s, n, k):
    check_all_levels(samples, s, n, k * n)


@pytest.mark.parametrize("n,k", [(20000, 500), (20000, 30), (12000, 12000)])
def test_choice_without_replacement_both_algorithms(n, k):
    def draw(s):
        return np.random.default_rng(s).choice(n, size=k, replace=False)
    fn = compiled(draw)
    for s in (0, 5):
        np.testing.assert_array_equal(fn(s), draw(s))


@settings(max_examples=7, deadline=None)
@given(SEEDS, st.sampled_from([0.0, 0.5, 3.0, 9.99, 10.0, 40.0, 1e6]), st.integers(0, 2000),
       st.sampled_from([0.0, 0.01, 0.3, 0.5, 0.9, 1.0]), SIZES)
def test_poisson_and_binomial_are_numpys(s, lam, n, p, size):
    check_all_levels(discrete, s, lam, n, p, size)


def many(s, n):
    rng = np.random.default_rng(s)
    return rng.standard_normal(n), rng.standard_exponential(n), rng.integers(0, 1000, n), rng.random(n)


def test_ziggurats_are_bit_exact_on_many_draws():
    """Every strip of both ziggurats, the tails included, over 2 * 10**5 draws."""
    fn = compiled(many)
    for s in (1, 2**40 + 3):
        for got, want in zip(fn(s, 200_000), many(s, 200_000)):
            np.testing.assert_array_equal(got, want)


def test_tables_are_numpys():
    t = ziggurat.tables()
    assert sorted(t) == sorted(["ki_double", "wi_double", "fi_double", "ke_double", "we_double", "fe_double"])
    assert all(v.shape == (256,) for v in t.values())


def errors(k, x):
    rng = np.random.default_rng(3)
    if k == 0:
        return rng.integers(x, 0, endpoint=True)
    if k == 1:
        return rng.integers(x, endpoint=True)
    if k == 2:
        return rng.uniform(0.0, x)
    if k == 3:
        return rng.poisson(x)
    if k == 4:
        return rng.choice(3, p=np.array([0.5, x, 0.5]))
    if k == 5:
        return rng.integers(x, 0)
    if k == 6:
        return rng.exponential(x)
    if k == 7:
        return float(rng.binomial(3, x))
    return rng.normal(0.0, x)


@pytest.mark.parametrize("k", range(9))
@pytest.mark.parametrize("x", [-1.0, 0.0, 2.0, float("nan"), float("inf"), 1e19])
def test_errors_are_numpys(k, x):
    if k in (0, 1, 5) and not (x == x and abs(x) < 1e18):
        return
    if k in (0, 1, 5):
        x = int(x)
    check_all_levels(errors, k, x)


def two(s):
    a = np.random.default_rng(s)
    b = np.random.default_rng(s + 1)
    return a.random(), b.random()


def test_two_generators_in_one_function_are_refused():
    with pytest.raises(script.CompileError, match="second numpy.random.Generator"):
        script.script(two)(1)


def _draw_own(s):
    g = np.random.default_rng(s)
    return g.random()


def _made_in_a_callee(s):
    rng = np.random.default_rng(s)
    a = rng.random()
    b = _draw_own(s + 1)            # CPython: its own Generator, the caller's stream untouched
    return a, b, rng.random()


def _recursive_instances(n):
    import random
    r = random.Random(n)
    x = r.random()
    if n > 0:
        x += _recursive_instances(n - 1)
    return x + r.random()


def _passed_to_a_helper(s):
    rng = np.random.default_rng(s)
    return rng.random() + _draw_from(rng), rng.random()


def _draw_from(rng):
    return rng.random()


def _each_call_its_own(n):
    t = 0.0
    for i in range(n):
        t += _draw_own(i)
    return t


def test_a_generator_made_in_a_callee_is_refused_where_it_would_reseed_the_callers():
    """Compiled Generators (and random.Random instances) share one state per process: a
    callee making one would reseed its caller's, whose later numbers would differ from
    NumPy's. Refused at the call (also through recursion); a Generator passed to a helper,
    and a helper making its own for a caller that has none, give NumPy's numbers."""
    for fn, arg in ((_made_in_a_callee, 1), (_recursive_instances, 2)):
        with pytest.raises(script.CompileError, match="share one state per process, so the call would reseed"):
            script.script(fn)(arg)
    for s in (0, 5, 2**40):
        assert script.script(_passed_to_a_helper)(s) == _passed_to_a_helper(s)
        assert script.script(_each_call_its_own)(4) == _each_call_its_own(4)
