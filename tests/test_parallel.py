"""`@script(parallel=True)`: prange loops on the runtime's threads (docs/parallel.md).

Results are compared with the same function compiled serially (and with CPython where the
types agree) over sizes and thread counts; reductions under conditionals; the loops that are
not independent, each a CompileError at its line (tests/parallel_kernels.py); exceptions
raised in an iteration; the same bits on every run and for every thread count."""

import inspect
import math
import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import parallel_kernels
import script
from script.backend.runtime import parallel as runtime


@pytest.fixture(autouse=True)
def _restore_threads():
    before = runtime.get_num_threads()
    yield
    runtime.set_num_threads(before)


def kernel(a, t, out):
    """Independent iterations writing out[i], with reductions of every kind, some under
    conditionals and one updated twice in an iteration."""
    s = 0
    f = 0.0
    p = 1.0
    lo = 10 ** 9
    hi = -10 ** 9
    for i in script.prange(a.shape[0]):
        v = a[i]
        out[i] = v * v - t
        if v > t:
            s += v
            p *= -1.0
        elif v < -t:
            s -= 2 * v
            lo = min(lo, v)
        else:
            f += 0.5
            hi = max(hi, v)
        s += 1
    return s, f, p, lo, hi


_parallel = script.script(parallel=True)(kernel)
_serial = script.script(kernel)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-50, 50), max_size=300), st.integers(0, 20), st.integers(1, 4))
def test_differential(values, t, threads):
    runtime.set_num_threads(threads)
    a = np.array(values, dtype=np.int64)
    out_p, out_s = np.zeros(len(a), dtype=np.int64), np.zeros(len(a), dtype=np.int64)
    got = _parallel(a, t, out_p)
    want = _serial(a, t, out_s)
    assert got == want
    assert np.array_equal(out_p, out_s)
    py_out = [0] * len(values)
    assert got == kernel(values_as_array(values), t, py_out)
    assert list(out_p) == py_out


def values_as_array(values):
    """A list that indexes and has `shape` as an array does, for CPython's run of `kernel`."""
    class Seq(list):
        shape = (len(values),)
    return Seq(values)


def test_reductions_under_conditionals():
    """Numba 0.5x gave wrong sums for a reduction updated in one branch of an `if`."""
    def f(a):
        s = 0.0
        m = 1e308
        c = 0
        for i in script.prange(a.shape[0]):
            if a[i] % 3 == 0:
                s += a[i]
                if a[i] > 10:
                    m = min(m, a[i])
            else:
                c += 1
        return s, m, c
    a = np.arange(1000.0)
    for threads in (1, 2, 3):
        runtime.set_num_threads(threads)
        assert script.script(parallel=True)(f)(a) == f(a)


def _error_cases():
    cases = []
    for fn in parallel_kernels.KERNELS:
        lines, first = inspect.getsourcelines(fn)
        for offset, line in enumerate(lines):
            m = re.search(r"#\s*error:\s*(.*)$", line)
            if m:
                cases.append(pytest.param(fn, first + offset, m.group(1).strip(), id=fn.__name__))
    return cases


@pytest.mark.parametrize("fn, line, text", _error_cases())
def test_dependent_iterations_are_compile_errors(fn, line, text):
    with pytest.raises(script.CompileError) as info:
        script.script(parallel=True)(fn)(*parallel_kernels.arguments(fn))
    message = str(info.value)
    assert text in message
    assert f"parallel_kernels.py:{line}:" in message


def test_without_parallel_prange_is_range():
    f = script.script(parallel_kernels.recurrence)
    a = np.arange(6.0)
    assert f(a) == parallel_kernels.recurrence(a)


def gather(a, idx, out):
    for i in script.prange(idx.shape[0]):
        out[i] = a[idx[i]] / (idx[i] - 70)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_first_exception_in_iteration_order(threads):
    runtime.set_num_threads(threads)
    f = script.script(parallel=True)(gather)
    a = np.arange(100.0)
    idx = np.arange(300) % 50
    idx[[5, 170, 260]] = [70, 1000, -500]            # a ZeroDivisionError first, then IndexErrors
    with pytest.raises(ZeroDivisionError, match="float division by zero"):
        f(a, idx, np.zeros(300))
    idx[5] = 5
    with pytest.raises(IndexError, match="index 1000 is out of bounds for axis 0 with size 100"):
        f(a, idx, np.zeros(300))
    idx[170] = 3
    with pytest.raises(IndexError, match="index -500 is out of bounds"):
        f(a, idx, np.zeros(300))
    idx[260] = 2
    out = np.zeros(300)
    f(a, idx, out)                                  # the pool works on after exceptions
    assert out[2] == gather_value(a, idx, 2)


def gather_value(a, idx, i):
    return a[idx[i]] / (idx[i] - 70)


def test_exception_with_a_message_built_at_run_time():
    def f(a):
        for i in script.prange(a.shape[0]):
            if a[i] > 5:
                raise ValueError("bad value " + str(a[i]))
    runtime.set_num_threads(2)
    with pytest.raises(ValueError, match="bad value 6"):
        script.script(parallel=True)(f)(np.arange(100))


def float_sum(a):
    s = 0.0
    for i in script.prange(a.shape[0]):
        s += math.sin(a[i])
    return s


def test_same_bits_on_every_run_and_thread_count():
    a = np.random.default_rng(1).random(100_000)
    f = script.script(parallel=True)(float_sum)
    results = set()
    for threads in (1, 2, 3, 4):
        script.set_num_threads(threads)
        assert script.get_num_threads() == threads
        results.update(f(a).hex() for _ in range(5))
    assert len(results) == 1
    assert math.isclose(float.fromhex(results.pop()), float(np.sin(a).sum()), rel_tol=1e-12)


def nested(n):
    out = np.zeros((n, n))
    t = 0.0
    for i in script.prange(n):
        for j in script.prange(n):          # runs serially inside the outer loop's chunk
            out[i, j] = i * n + j
        t += out[i, n - 1]
    return out, t


def rows(n):
    out = np.zeros((n, 3))
    for i in script.prange(n):
        row = out[i]                        # a view taken at the loop variable is the iteration's
        for j in range(3):
            row[j] = i * 10.0 + j
    return out


def temporaries(n):
    total = 0.0
    for i in script.prange(n):
        tmp = np.zeros(4)                   # an array made in the iteration is its own
        for j in range(4):
            tmp[j] = i + j
        total += tmp.sum()
    return total


def caught_inside(n):
    s = 0.0
    for i in script.prange(n):
        try:
            s += 1.0 / (i - 10)
        except ZeroDivisionError:
            s += 5.0
    return s


@pytest.mark.parametrize("fn", [nested, rows, temporaries, caught_inside])
def test_shapes_match_serial(fn):
    runtime.set_num_threads(2)
    got, want = script.script(parallel=True)(fn)(37), script.script(fn)(37)
    assert str(got) == str(want)


def test_pool_threads_persist():
    runtime.set_num_threads(2)
    f = script.script(parallel=True)(float_sum)
    a = np.ones(1000)
    f(a)
    threads = runtime.pool_threads()
    assert len(threads) >= 1                        # (the calling thread is one of the two)
    for _ in range(20):
        f(a)
    assert runtime.pool_threads() == threads


def test_empty_and_negative_ranges():
    def f(lo, hi, a):
        s = 0
        for i in script.prange(lo, hi):
            a[i] = i
            s += i
        return s
    g = script.script(parallel=True)(f)
    for lo, hi in ((0, 0), (5, 2), (-3, 4), (0, 200)):
        a1, a2 = np.zeros(200, dtype=np.int64), np.zeros(200, dtype=np.int64)
        assert g(lo, hi, a1) == f(lo, hi, a2)
        assert np.array_equal(a1, a2)


def test_saved_module_runs_in_parallel(tmp_path):
    f = script.script(parallel=True)(float_sum)
    a = np.random.default_rng(2).random(5000)
    want = f(a)
    path = tmp_path / "par.zip"
    script.save(f, str(path))
    assert script.load(str(path)).float_sum(a) == want


def test_set_num_threads_checks():
    with pytest.raises(ValueError, match="threads"):
        runtime.set_num_threads(0)


CACHED = """
import numpy as np
import script

@script.script(cache=True, parallel=PARALLEL)
def total(a: np.ndarray) -> float:
    s = 0.0
    for i in script.prange(a.shape[0]):
        s += a[i] * 0.5
    return s
"""


def test_cached_parallel_function(tmp_path, monkeypatch):
    import importlib.util
    import sys
    monkeypatch.setenv("SCRIPT_CACHE_DIR", str(tmp_path / "cache"))
    for round_ in range(2):                         # a miss, then a hit
        for parallel in (True, False):              # one entry each
            path = tmp_path / f"m{parallel}.py"
            path.write_text(CACHED.replace("PARALLEL", str(parallel)))
            spec = importlib.util.spec_from_file_location(f"m{round_}{parallel}", path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module
            spec.loader.exec_module(module)
            assert module.total(np.arange(1000.0)) == 249750.0


def test_numba_prange():
    numba = pytest.importorskip("numba")

    def f(a):
        s = 0
        for i in numba.prange(a.shape[0]):
            if a[i] % 2:
                s += a[i]
        return s
    a = np.arange(1001)
    assert script.script(parallel=True)(f)(a) == f(a)


# Loops Numba's parallel=True got wrong (numba/numba issues #4922, #7344, #7630, #9518, #6414,
# #7051), each compared with CPython here; #7867 (``acc //= 2``) is not a reduction.

def numba_4922(n):
    c = 0
    for i in script.prange(n):
        c += 1
        if i > 10:
            c += 1
    return c


def numba_7344(a, cond):
    s = 1
    for i in script.prange(a.shape[0]):
        if cond[i]:
            s += 1
    return s


def numba_7630(flag):
    result = 0
    if flag:
        for i in script.prange(100_000):
            result += 1
    else:
        for i in script.prange(100_000):
            result -= 3
    return result


def numba_9518(test, pre, err1, err2):
    for k in range(0, 100):
        pre = pre + test[k, 0]
    for k in script.prange(0, 100):
        err1 = err1 + test[k, 0]
        err2 = err2 - test[k, 0]
    return err1, err2


def numba_6414(n):
    a = b = 0
    for k in script.prange(n):
        if k == 2:
            a += 1
        else:
            x = np.zeros((1, 1))
            if x[0, 0] == 0:
                b += 1
    return a, b


def numba_7051(size, case):
    result = np.zeros(size)
    if case == 1:
        for i in script.prange(size):
            result[i] += 1
    else:
        for i in script.prange(size):
            result[i] += 2
    return result.sum()


def test_numba_miscompiles():
    runtime.set_num_threads(3)
    par = script.script(parallel=True)
    assert par(numba_4922)(10) == numba_4922(10) == 10
    assert par(numba_4922)(1000) == numba_4922(1000)
    rng = np.random.default_rng(3)
    a, cond = rng.integers(0, 10, 100), rng.integers(0, 2, 100).astype(np.bool_)
    assert par(numba_7344)(a, cond) == numba_7344(a, cond)
    assert par(numba_7630)(False) == numba_7630(False) == -300_000
    assert par(numba_7630)(True) == 100_000
    test = np.arange(10000).reshape((100, 100))
    assert par(numba_9518)(test, 0, 0, 0) == tuple(map(int, numba_9518(test, 0, 0, 0)))
    assert par(numba_6414)(7) == numba_6414(7) == (1, 6)
    for size in (1, 10, 100):
        assert par(numba_7051)(size, 2) == numba_7051(size, 2) == 2.0 * size


def test_floordiv_is_not_a_reduction():
    def f():
        acc = 10000
        for i in script.prange(4):
            acc //= 2
        return acc
    with pytest.raises(script.CompileError, match="'acc' carries a value"):
        script.script(parallel=True)(f)()


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs fork")
def test_child_of_fork_gets_its_own_pool():
    import os
    runtime.set_num_threads(2)
    f = script.script(parallel=True)(float_sum)
    a = np.arange(1000.0)
    want = f(a)
    pid = os.fork()
    if pid == 0:                                    # the parent's threads are gone here
        os._exit(0 if f(a) == want else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def long_sines(a, out):
    for i in script.prange(a.shape[0]):
        acc = 0.0
        for j in range(2000):
            acc += math.sin(a[i] * j)
        out[i] = acc


def test_ctrl_c_stops_a_parallel_loop():
    import os
    import signal
    import threading
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        runtime.set_num_threads(2)
        f = script.script(parallel=True)(long_sines)
        a, out = np.random.default_rng(4).random(200_000), np.zeros(200_000)
        f(a[:10], out[:10])
        timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            f(a, out)                               # ~30 s uninterrupted
        timer.join()
        f(a[:100], out[:100])                       # the pool is fine afterwards
    finally:
        signal.signal(signal.SIGINT, old)


def test_threads_of_python_and_nested_parallel_calls():
    import threading
    runtime.set_num_threads(2)
    g = script.script(parallel=True)(long_sines)
    b = np.random.default_rng(5).random(200)
    want = np.zeros(200)
    script.script(long_sines)(b, want)
    ok = []

    def run():
        out = np.zeros(200)
        for _ in range(3):
            g(b, out)
        ok.append(np.array_equal(out, want))
    threads = [threading.Thread(target=run) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert ok == [True] * 3
    m = np.random.default_rng(6).random((40, 100))
    row_sums = script.script(parallel=True)(outer_of_parallel)(m)   # float_sum is parallel too
    assert np.array_equal(row_sums, script.script(outer_of_parallel)(m))


_parallel_float_sum = script.script(parallel=True)(float_sum)


def outer_of_parallel(m):
    out = np.zeros(m.shape[0])
    for i in script.prange(m.shape[0]):
        out[i] = _parallel_float_sum(m[i])
    return out


def test_gil_held_and_print(capsys):
    def f(n):
        s = 0
        for i in script.prange(n):
            if i % 250 == 0:
                print("at", i)
            s += i
        return s
    runtime.set_num_threads(2)
    assert script.script(parallel=True, nogil=False)(f)(1000) == f(1000)
    lines = capsys.readouterr().out.split("\n")
    assert sorted(line for line in lines if line) == sorted(["at 0", "at 250", "at 500", "at 750"] * 2)


def test_ir_round_trip():
    from script.ir.parser import parse_module
    from script.ir.printer import format_module
    f = script.script(parallel=True)(float_sum)
    f(np.ones(3))
    spec = next(iter(f._specializations.values()))
    for stage in ("ssa", "opt"):
        text = spec.ir(stage)
        assert ("$parallel" in text) == (stage == "opt")    # outlined after the frontend's stage
        assert format_module(parse_module(text)) == text


@pytest.mark.parametrize("options", [dict(opt=0), dict(opt=3), dict(boundscheck=False),
                                     dict(interruptible=False)], ids=str)
def test_options_keep_the_answer(options):
    runtime.set_num_threads(2)
    values = list(range(-40, 60))
    a = np.array(values, dtype=np.int64)
    out = np.zeros(100, dtype=np.int64)
    got = script.script(parallel=True, **options)(kernel)(a, 7, out)
    py_out = [0] * 100
    assert got == kernel(values_as_array(values), 7, py_out)
    assert list(out) == py_out


@script.script
def _weighted(x, m):
    s = 0.0
    for j in range(m):
        s += x * j
    return s


def time_steps(u, nsteps):
    """prange loops inside a serial loop: a stencil reading its neighbours in one array and
    writing another, then a copy back with a reduction; a compiled helper with a loop."""
    tmp = np.zeros_like(u)
    total = 0.0
    for t in range(nsteps):
        for i in script.prange(1, u.shape[0] - 1):
            tmp[i] = 0.25 * (u[i - 1] + 2 * u[i] + u[i + 1]) + _weighted(u[i], 3)
        for i in script.prange(1, u.shape[0] - 1):
            u[i] = tmp[i]
            total += tmp[i]
    return total


def test_time_stepping_stencil():
    runtime.set_num_threads(2)
    u1 = np.random.default_rng(7).random(1000)
    u2 = u1.copy()
    got = script.script(parallel=True)(time_steps)(u1, 20)
    want = script.script(time_steps)(u2, 20)
    assert np.array_equal(u1, u2)
    assert math.isclose(got, want, rel_tol=1e-12)


def shifted(src, dst):
    for i in script.prange(dst.shape[0] - 1):
        acc = src[i + 1]
        for j in range(40):                 # (work enough that both threads take chunks)
            acc = acc * 0.5 + math.sin(acc + j)
        dst[i] = acc


def test_aliased_arrays_run_in_order():
    """Two arguments that are one array (or overlapping views): the loop runs as one chunk,
    in the serial loop's order, so the answer is the serial loop's."""
    runtime.set_num_threads(2)
    f, g = script.script(parallel=True)(shifted), script.script(shifted)
    for make in (lambda a: (a, a), lambda a: (a[1:], a[:-1]), lambda a: (a[:10_000], a[10_000:])):
        a1, a2 = np.arange(20_000.0), np.arange(20_000.0)
        f(*make(a1))
        g(*make(a2))
        assert np.array_equal(a1, a2)


def row_sums(m):
    s = 0.0
    c = 0
    for i in script.prange(m.shape[0]):
        for j in range(m.shape[1]):         # a reduction updated in a serial inner loop
            if m[i, j] > 0.5:
                s += m[i, j]
            c += 1
    return s, c


def test_reduction_in_an_inner_loop():
    runtime.set_num_threads(2)
    m = np.random.default_rng(8).random((300, 200))
    s, c = script.script(parallel=True)(row_sums)(m)
    want_s, want_c = row_sums(m)
    assert c == want_c
    assert math.isclose(s, want_s, rel_tol=1e-12)


def test_prange_imported_by_name():
    from script import prange as imported

    def f(a):
        s = 0.0
        for i in imported(a.shape[0]):
            s += a[i]
        return s
    g = script.script(parallel=True)(f)
    assert g(np.arange(100.0)) == 4950.0
    spec = next(iter(g._specializations.values()))
    assert "$parallel" in spec.ir("opt")
