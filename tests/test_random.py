"""Random numbers in compiled code: after the same seed, the compiled `random` and
`numpy.random` generators give exactly the numbers CPython's `random` and NumPy's legacy
global generator give (each function runs in CPython and compiled, at opt=0 and at the
default level, on hypothesis's seeds and arguments), raise the same errors, keep their
state between calls, stay separate from each other and from the interpreter's, survive
threads, and work from saved modules and the cache."""

import json
import os
import random
import subprocess
import sys
import threading

from random import random as rand_, seed as seed_

import numpy as np
import numpy.random as npr
import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check_all_levels, compiled
from script.errors import CompileError
from script.ir.parser import IRParseError, parse_module
from script.ir.printer import format_module

PY_SEEDS = st.integers(-2**63, 2**63 - 1) | st.integers(-2**33, 2**33)
NP_SEEDS = st.integers(0, 2**32 - 1)
INT64 = st.integers(-2**63, 2**63 - 1)


# ---- Python's random ------------------------------------------------------------------------

def py_floats(s, n):
    random.seed(s)
    out = np.empty((n, 6))
    for i in range(n):
        out[i, 0] = random.random()
        out[i, 1] = random.uniform(-2.0, 3.5)
        out[i, 2] = random.gauss(1.0, 2.0)          # one of two: the cached value alternates
        out[i, 3] = random.normalvariate(0.5, 1.5)
        out[i, 4] = random.expovariate(0.7)
        out[i, 5] = random.gauss()
    return out


def py_bits(s, n):
    random.seed(s)
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = random.getrandbits(i % 64)
    return out, random.getrandbits(64)


def py_range(s, start, stop, step, n):
    random.seed(s)
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = random.randrange(start, stop, step)
    return out


def py_stop_and_randint(s, a, b, n):
    random.seed(s)
    out = np.empty((n, 2), dtype=np.int64)
    for i in range(n):
        out[i, 0] = random.randrange(b)
        out[i, 1] = random.randint(a, b)
    return out


def py_choice_shuffle(s, n):
    random.seed(s)
    a = np.arange(n) * 0.5
    random.shuffle(a)
    return a, random.choice(a), random.choice(np.arange(1, n + 2))


def py_errors(k):
    if k == 0:
        return random.randrange(5, 5)
    if k == 1:
        return random.randrange(0)
    if k == 2:
        return random.randrange(5, 6, 0)
    if k == 3:
        return random.randrange(5, 5, 2)
    if k == 4:
        return random.getrandbits(-1)
    if k == 5:
        return random.randint(5, 3)
    if k == 6:
        return random.choice(np.empty(0))
    if k == 7:
        return random.expovariate(0.0)
    return random.randrange(-5)


@settings(max_examples=15, deadline=None)
@given(PY_SEEDS, st.integers(0, 40))
def test_python_floats_are_cpythons(s, n):
    check_all_levels(py_floats, s, n)


@settings(max_examples=15, deadline=None)
@given(PY_SEEDS, st.integers(0, 130))
def test_getrandbits_is_cpythons(s, n):
    """Up to 64 bits; getrandbits(64) wraps to int64 (compared as CPython's value, wrapped)."""
    want, want64 = _py_bits_wrapped(s, n)
    for fn in (compiled(py_bits, opt=0), compiled(py_bits)):
        got, got64 = fn(s, n)
        assert np.array_equal(got, want) and got64 == want64


def _py_bits_wrapped(s, n):
    random.seed(s)
    out = np.array([random.getrandbits(i % 64) for i in range(n)], dtype=np.int64)
    last = random.getrandbits(64)
    return out, last - 2**64 if last >= 2**63 else last


@settings(max_examples=40, deadline=None)
@given(PY_SEEDS, st.integers(-2**40, 2**40) | st.integers(-20, 20), st.integers(-2**40, 2**40) | st.integers(-20, 20),
       st.integers(-7, 7) | st.integers(-2**35, 2**35), st.integers(1, 12))
def test_randrange_is_cpythons_also_its_errors(s, start, stop, step, n):
    check_all_levels(py_range, s, start, stop, step, n)


@settings(max_examples=25, deadline=None)
@given(PY_SEEDS, st.integers(-2**62, 2**62) | st.integers(-10, 10), st.integers(-2**62, 2**62) | st.integers(-10, 10),
       st.integers(1, 12))
def test_randint_and_randrange_of_stop(s, a, b, n):
    check_all_levels(py_stop_and_randint, s, a, b, n)


@settings(max_examples=15, deadline=None)
@given(PY_SEEDS, st.integers(1, 60))
def test_choice_and_shuffle(s, n):
    check_all_levels(py_choice_shuffle, s, n)


def py_sample_choices(s, xs, k, weights):
    random.seed(s)
    out = (random.sample(xs, min(k, len(xs))), random.sample(range(200), k), random.sample("abcdefgh", k % 9),
           random.choices(xs, k=k) if xs else [], random.choices("xyz", weights[:3], k=k))
    r = random.Random(s)
    return out + (r.sample(xs, len(xs)), r.choices(xs or [0], cum_weights=None, k=2))


def py_sample_errors(s, xs, k, weights):
    random.seed(s)
    if k % 3 == 0:
        return random.sample(xs, k)                      # ValueError when k > len(xs)
    if k % 3 == 1:
        return random.choices(xs, weights, k=2)          # ValueError: counts, total, finiteness
    return random.choices(xs, cum_weights=weights, k=1)


@settings(max_examples=20, deadline=None)
@given(PY_SEEDS, st.lists(st.integers(-5, 5), max_size=30), st.integers(0, 40),
       st.lists(st.floats(0, 10) | st.just(float("inf")), min_size=3, max_size=4))
def test_sample_and_choices(s, xs, k, weights):
    if sum(weights[:3]) > 0 and sum(weights[:3]) < float("inf"):
        check_all_levels(py_sample_choices, s, xs, k, weights)
    check_all_levels(py_sample_errors, s, xs, k, weights)


def test_sample_of_a_set_is_cpythons_type_error():
    def sample_set(s):
        random.seed(s)
        return random.sample({1, 2, 3}, 2)
    check_all_levels(sample_set, 4)


def _random_step(r, x):
    return x + r.random()


def py_instance(s, n):
    # one random.Random(seed) in the function: the compiled state seeded, its methods the module's
    r = random.Random(s)
    xs = list(range(n))
    r.shuffle(xs)
    x = 0.0
    for _ in range(n):
        x = _random_step(r, x)
    return xs, x, r.randint(1, 6), r.choice(xs) if xs else -1, r.gauss(0.0, 1.0), r.uniform(1.0, 2.0)


@settings(max_examples=15, deadline=None)
@given(PY_SEEDS, st.integers(0, 30))
def test_a_seeded_random_instance_is_cpythons(s, n):
    check_all_levels(py_instance, s, n)


def unseeded_instance(n):
    r = random.Random()
    return r.random()


def test_an_unseeded_random_instance_is_an_error():
    with pytest.raises(CompileError, match="random.Random\\(\\) takes one argument, the seed"):
        script.script(unseeded_instance)(1)


@pytest.mark.parametrize("k", range(9))
def test_python_errors_are_cpythons(k):
    got = check_all_levels(py_errors, k)
    assert got[0] == "raise"


# ---- NumPy's legacy generator ---------------------------------------------------------------

def np_floats(s, n):
    np.random.seed(s)
    a = np.random.random(n)
    b = np.random.rand(2, n)
    c = np.random.randn(n, 3)
    d = np.random.normal(1.0, 2.0, (n,))
    e = np.random.uniform(-1.0, 4.0, n)
    f = np.random.exponential(2.0, n)
    g = np.random.standard_normal(n)
    h = np.random.standard_exponential(n)
    x = np.random.random() + np.random.normal() + np.random.rand() + np.random.randn()
    y = np.random.random_sample((n, 2)) + np.random.uniform(size=(n, 2))
    return a, b, c, d, e, f, g, h, x, y


def np_randint(s, low, high, n):
    np.random.seed(s)
    a = np.random.randint(low, high, n)
    b = np.random.randint(low, high, size=(2, n))
    return a, b, np.random.randint(low, high)


def np_randint_below(s, high, n):
    np.random.seed(s)
    return np.random.randint(high, size=n), np.random.randint(high)


def np_permutations(s, n):
    np.random.seed(s)
    a = np.arange(n) * 1.5
    np.random.shuffle(a)
    b = np.random.permutation(n)
    c = np.random.permutation(a)
    m = np.arange(n * 3).reshape(n, 3)
    np.random.shuffle(m)
    return a, b, c, m, np.random.permutation(m)


def np_errors(k):
    if k == 0:
        return np.random.randint(5, 5)
    if k == 1:
        return np.random.randint(0)
    if k == 2:
        return np.random.randint(5, 3, size=-1).sum()
    if k == 3:
        return np.random.randint(3, 5, size=-1).sum()
    if k == 4:
        return np.random.normal(0.0, -1.0)
    if k == 5:
        return np.random.exponential(-1.0, size=3).sum()
    if k == 6:
        return np.random.uniform(0.0, np.inf)
    if k == 7:
        np.random.seed(-1)
    if k == 8:
        np.random.seed(2**32)
    if k == 9:
        return np.random.random(-1).sum()
    if k == 10:
        return np.random.rand(2, -1).sum()
    if k == 11:
        return np.random.randint(5, 3, size=(2, 0)).sum()        # nothing to draw: no error
    return -1


@settings(max_examples=15, deadline=None)
@given(NP_SEEDS, st.integers(0, 30))
def test_numpy_floats_are_numpys(s, n):
    check_all_levels(np_floats, s, n)


SPANS = st.sampled_from([1, 2, 10, 2**32 - 1, 2**32, 2**32 + 1, 2**40, 2**62 + 12345, 2**63, 2**64 - 1])


@settings(max_examples=40, deadline=None)
@given(NP_SEEDS, st.integers(-2**62, 2**62) | st.integers(-5, 5), SPANS, st.integers(0, 20))
def test_randint_is_numpys_masked_sampling(s, low, span, n):
    high = low + span
    if high > 2**63 - 1:
        low, high = 2**63 - 1 - span, 2**63 - 1
    check_all_levels(np_randint, s, low, high, n)


@settings(max_examples=15, deadline=None)
@given(NP_SEEDS, INT64, st.integers(0, 5))
def test_randint_of_high_only(s, high, n):
    check_all_levels(np_randint_below, s, high, n)


@settings(max_examples=15, deadline=None)
@given(NP_SEEDS, st.integers(0, 40))
def test_shuffle_and_permutation(s, n):
    check_all_levels(np_permutations, s, n)


@pytest.mark.parametrize("k", range(13))
def test_numpy_errors_are_numpys(k):
    check_all_levels(np_errors, k)


def call_forms(s):
    """Imported names, keywords, defaults, a nested draw (arguments run in order), a tuple
    and a list."""
    seed_(s)
    x = rand_() + random.uniform(1, 2) + random.randrange(10) + random.gauss() + random.randint(1, 6)
    npr.seed(s)
    y = npr.random(size=3).sum() + np.random.normal(size=(2, 2)).sum() + np.random.randn()
    z = np.random.normal(np.random.random(), 1.0, size=3)
    items = [1, 2, 3, 4, 5, 6]
    random.shuffle(items)
    return (x, y, z, np.random.randint(5, size=3), random.choice((1, 2, 3)), items,
            random.choice(items), np.random.uniform(size=2), np.random.exponential(size=2))


@pytest.mark.parametrize("s", [0, 1, 2**32 - 1])
def test_call_forms(s):
    check_all_levels(call_forms, s)


def empty_size():
    return np.random.random(())


# ---- state --------------------------------------------------------------------------------

def seed_both(s):
    random.seed(s)
    np.random.seed(s)


def draw_both():
    return random.random(), random.gauss(), np.random.random(), np.random.randn()


def test_state_persists_across_calls_and_functions():
    """Two calls continue one stream, as two Python calls would; compiled code draws from
    the interpreter's own generators, so Python's draws continue after compiled ones."""
    seeding, drawing = script.script(seed_both), script.script(draw_both)
    for s in (1, 2**31 + 5):
        seeding(s)
        got = [drawing() for _ in range(4)]
        seed_both(s)
        assert got == [draw_both() for _ in range(4)]
    random.seed(99)
    random.random()
    seeding(7)
    drawing()
    got = [random.random(), random.random(), np.random.random()]
    random.seed(99)
    random.random()
    seed_both(7)
    draw_both()
    assert got == [random.random(), random.random(), np.random.random()]


def gauss_pair():
    return random.gauss(0.5, 2.0), np.random.standard_normal()


@pytest.mark.parametrize("start", [0, 1, 2, 3])
def test_interleaved_with_the_interpreter(start):
    """Seeding in Python seeds compiled code and the reverse; a cached Gaussian (CPython's
    gauss_next, NumPy's legacy second value) left by one side is the other's next."""
    compiled = script.script(gauss_pair)
    sides = [compiled, gauss_pair]

    def run():
        random.seed(start)
        np.random.seed(start)
        return [sides[(k + start) % 2]() for k in range(5)] + [draw_both()]
    got = run()
    sides[:] = [gauss_pair, gauss_pair]
    assert got == run()


def own_generators(s):
    r = random.Random(s)
    g = np.random.default_rng(s)
    return r.random(), r.gauss(), g.random(), g.normal()


def test_own_generators_leave_the_interpreters_alone():
    """``random.Random(seed)`` and ``default_rng(seed)`` in compiled code have states of
    their own: the module's streams go on untouched."""
    f = script.script(own_generators)
    seed_both(3)
    f(11)
    got = [random.random(), np.random.random()]
    seed_both(3)
    assert got == [random.random(), np.random.random()]
    r = random.Random(11)
    assert f(11)[:2] == (r.random(), r.gauss())


def test_every_compiled_function_shares_the_state():
    a = script.script(lambda_free_draw)
    b = script.script(lambda_free_draw, opt=0)
    seed = script.script(seed_both)
    seed(12)
    got = [a(), b(), a()]
    random.seed(12)
    assert got == [random.random() for _ in range(3)]


def lambda_free_draw():
    return random.random()


def burn(n):
    s = 0.0
    for _ in range(n):
        s += random.random() + np.random.standard_normal() + np.random.randint(1 << 40)
    return s


def test_threads_drawing_at_once_do_not_crash():
    """The state has no lock (documented): concurrent draws race but stay in bounds."""
    fn = script.script(burn)
    fn(1)
    results = []
    threads = [threading.Thread(target=lambda: results.append(fn(200_000))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 4 and all(np.isfinite(r) for r in results)
    seed = script.script(seed_both)
    seed(3)                                  # still a valid generator afterwards
    got = script.script(draw_both)()
    seed_both(3)
    assert got == draw_both()


# ---- the IR, saved modules, the cache --------------------------------------------------------

def test_rng_state_prints_parses_and_is_verified():
    fn = script.script(draw_both)
    fn()
    text = fn.ir("opt")
    assert "rng_state.random_key : u32[::1]" in text and "rng_state.numpy_gauss : f64[::1]" in text
    assert format_module(parse_module(text)) == text
    bad = "func @f() -> i64 {\nbb0:\n  %0 = rng_state.random_key : f32[::1]\n  ret 0:i64\n}\n"
    with pytest.raises(IRParseError, match=r"rng_state.random_key : f32\[::1\]"):
        parse_module(bad)
    with pytest.raises(IRParseError, match="unknown rng_state 'python'"):
        parse_module(bad.replace("random_key : f32", "python : u32"))


def seed_without_value():
    random.seed()


def test_seeding_from_entropy_and_0d_sizes_are_compile_errors():
    with pytest.raises(CompileError, match="needs an int seed"):
        script.script(seed_without_value)()
    with pytest.raises(CompileError, match="0-d array"):
        script.script(empty_size)()


SAVED = '''
import random, sys
import numpy as np
import script

def pi(n, s):
    if s >= 0:
        random.seed(s)
    hits = 0
    for _ in range(n):
        x = random.random()
        y = random.random()
        if x * x + y * y <= 1.0:
            hits += 1
    return 4.0 * hits / n

def normals(s, n):
    np.random.seed(s)
    return np.random.randn(n)

def unseeded():
    return random.random(), np.random.random()
'''

RUN_SAVED = '''
import json, sys
import script
m = script.load(sys.argv[1])
print(json.dumps([m.unseeded(), m.pi(1000, 5), m.normals(3, 4).tolist()]))
'''


def test_saved_modules_and_the_cache_draw_the_same_streams(tmp_path, monkeypatch):
    (tmp_path / "rk.py").write_text(SAVED)
    sys.path.insert(0, str(tmp_path))
    try:
        import rk
    finally:
        sys.path.remove(str(tmp_path))
    fns = [script.script(rk.pi), script.script(rk.normals), script.script(rk.unseeded)]
    fns[0](10, 1)
    fns[1](1, 1)
    fns[2]()
    script.save(fns, tmp_path / "rk.smod")
    runs = [json.loads(subprocess.run([sys.executable, "-c", RUN_SAVED, str(tmp_path / "rk.smod")],
                                      capture_output=True, text=True, check=True, timeout=300).stdout)
            for _ in range(2)]
    want = [rk.pi(1000, 5), rk.normals(3, 4).tolist()]
    assert all(r[1:] == want for r in runs)
    # never seeded: each process, and each generator, starts from its own entropy
    (a, b), (c, d) = runs[0][0], runs[1][0]
    assert a != c and b != d and a != b
    monkeypatch.setenv("SCRIPT_CACHE_DIR", str(tmp_path / "cache"))
    for _ in range(2):                        # a miss, then a hit
        cached = script.script(rk.pi, cache=True)
        assert cached(1000, 5) == want[0]
    assert os.listdir(tmp_path / "cache")
