"""try / except / else / finally: each function run by CPython and compiled (at opt=0 and
the default level) on the same inputs, results and raised exceptions (type and message)
compared; the IR of the new ops round-trips; saved modules and the cache keep them; kernels
reject them at the user's line."""

import math
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import exception_kernels as K
import script
from difftest import check, check_all_levels, compiled
from script.errors import CompileError
from script.ir.parser import parse_module
from script.ir.printer import format_module

SMALL = st.integers(-8, 8)
INT = st.integers(-200, 200)
FLOAT = st.floats(-800.0, 800.0, allow_nan=False) | st.sampled_from([0.0, -1.0, 1e308])


@settings(max_examples=30, deadline=None)
@given(INT, SMALL)
def test_scalar_handlers(a, b):
    for fn in (K.safe_div, K.calls_checked, K.tuple_clause, K.else_and_finally, K.reraise,
               K.reraise_named, K.raise_in_handler, K.unmatched):
        check_all_levels(fn, a, b)


@settings(max_examples=30, deadline=None)
@given(SMALL, SMALL, st.floats(-800.0, 43.0) | st.floats(710.0, 800.0))
def test_class_hierarchy(a, b, x):
    # int(exp(x)) within int64 (compiled ints are 64 bits), or exp(x) overflowing
    check_all_levels(K.hierarchy, a, b, x)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 20), st.integers(-2, 22))
def test_loops_with_break_continue_and_finally(n, k):
    check_all_levels(K.loop_break_continue, n, k)
    check_all_levels(K.while_continue, n)
    check_all_levels(K.break_in_finally, n)
    check_all_levels(K.list_ops, n, k % 7 - 3)


@settings(max_examples=25, deadline=None)
@given(SMALL, SMALL, SMALL)
def test_nested_try(a, b, c):
    check_all_levels(K.nested, a, b, c)


@settings(max_examples=25, deadline=None)
@given(SMALL)
def test_finally_paths(a):
    for fn in (K.raise_in_finally, K.return_in_finally, K.finally_sees_assignments, K.assertion,
               K.recursive if a >= 0 else K.assertion):
        check_all_levels(fn, a)


@settings(max_examples=25, deadline=None)
@given(FLOAT, SMALL)
def test_math_and_assert_errors(x, n):
    check_all_levels(K.bare_except, x)
    check_all_levels(K.except_exception, x, n)
    check_all_levels(K.sqrt_domain, x)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 6), st.integers(-9, 9), st.integers(-4, 4))
def test_bounds_checks(n, i, j):
    a = np.arange(float(n))
    check_all_levels(K.index_array, a, i)
    check_all_levels(K.unmatched_index, a, i)
    check_all_levels(K.index_2d, np.arange(6.0).reshape(2, 3), i % 5 - 2, j)
    check_all_levels(K.try_in_try_handler_loop, np.arange(n) - 2, j)


@settings(max_examples=20, deadline=None)
@given(st.integers(-3, 6), st.integers(-2, 8))
def test_arrays_stay_counted(n, k):
    check_all_levels(K.array_from_call, n)
    check_all_levels(K.array_across, max(n, 0), k)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from([-1.0, 0.0, 0.5, 1.0, 2.0, 3.0]), max_size=6), FLOAT, st.integers(0, 8))
def test_realistic_fallbacks(xs, x, iters):
    a = np.array(xs, dtype=np.float64)
    check_all_levels(K.mean_log_ratio, a, a[::-1].copy())
    check_all_levels(K.newton_sqrt, x, iters)


def test_keyboard_interrupt_is_not_an_exception():
    f = compiled(K.keyboard)
    assert (f(0), f(1)) == (K.keyboard(0), K.keyboard(1)) == (0, 2)


def test_runaway_recursion_is_caught():
    f = compiled(K.catch_recursion)
    assert (f(50), f(10 ** 8)) == (K.catch_recursion(50), K.catch_recursion(10 ** 8)) == (50, -1)


def test_the_message_of_an_unmatched_exception_is_kept():
    f = compiled(K.unmatched)
    with pytest.raises(ValueError, match="^negative: -5$"):
        f(-5, 1)
    with pytest.raises(IndexError, match="index 9 is out of bounds for axis 0 with size 3"):
        compiled(K.unmatched_index)(np.zeros(3), 9)


def test_a_division_caught_is_a_branch():
    """`except ZeroDivisionError` around `a // b`: the raise and the match fold away; no
    exception is made, matched or raised again."""
    f = compiled(K.safe_div)
    f(1, 1)
    text = _ir_text(f)
    # (the check left is -2**63 // -1's OverflowError, which the handler does not catch)
    ops = {line.split("=")[-1].split()[0] for line in text.splitlines()
           if line.startswith("  ") and "OverflowError" not in line}
    assert not ops & {"exception", "exc_match", "reraise", "check"}, text


def _ir_text(f) -> str:
    return f.ir("opt")


def _ssa_text(f) -> str:
    return f.ir("ssa")


def test_the_ir_of_caught_exceptions_round_trips():
    ops = set()
    for fn in (K.calls_checked, K.else_and_finally, K.reraise_named, K.recursive, K.list_ops):
        f = compiled(fn, opt=0)
        f(*([1] * fn.__code__.co_argcount))
        for text in (_ir_text(f), _ssa_text(f)):
            ops |= {line.split("=")[-1].split()[0].split(".")[0] for line in text.splitlines() if line.startswith("  ")}
            assert format_module(parse_module(text)) == text
    assert {"exception", "raised", "catch", "exc_match", "reraise"} <= ops, ops


def test_save_and_load(tmp_path):
    f = script.script(K.else_and_finally)
    g = script.script(K.calls_checked)
    f(1, 1), g(1, 1)
    path = tmp_path / "m.scm"
    script.save([f, g], str(path))
    m = script.load(str(path))
    for a, b in ((7, 2), (7, 0), (500, 3), (-500, 3)):
        check(K.else_and_finally, m.else_and_finally, a, b)
        check(K.calls_checked, m.calls_checked, a, b)


def test_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SCRIPT_CACHE_DIR", str(tmp_path))
    for _ in range(2):
        f = script.script(K.loop_break_continue, cache=True)
        assert f(12, 9) == K.loop_break_continue(12, 9)


def test_kernels_reject_caught_exceptions():
    from script import cuda

    def k(a):
        i = cuda.grid(1)
        try:
            a[i] = 1.0 // a[i]
        except ZeroDivisionError:
            a[i] = 0.0

    with pytest.raises(CompileError, match="not supported in kernels"):
        script.kernel(k)[1, 4](np.ones(4))


# --- Ctrl-C --------------------------------------------------------------------------------

def test_keyboard_interrupt_passes_through_handlers(tmp_path):
    """A SIGINT in a loop of a called function (a Python exception set by the signal
    handler) matches no `except` clause, not even a bare one, runs `finally` bodies on its
    way out and is not dropped by a `return` in one; one in the function's own loop leaves
    at once."""
    from test_interrupts import run_child
    out = run_child(tmp_path, """
        @script.script
        def catch_all(flag, n: int) -> int:
            try:
                return spin_range(flag, n)
            except Exception:
                return -1

        @script.script
        def catch_bare(flag, n: int) -> int:
            try:
                return spin_range(flag, n)
            except:
                return -2

        @script.script
        def with_finally(flag, n: int) -> int:
            r = 0
            try:
                r = spin_range(flag, n)
            finally:
                print("finally")
            return r

        @script.script
        def finally_returns(flag, n: int) -> int:
            try:
                return spin_range(flag, n)
            finally:
                return -4

        @script.script
        def own_loop(flag, n: int) -> int:
            x = 1
            try:
                flag[0] = 1
                for i in range(n):
                    x = (x * 1103515245 + 12345) % 2147483648
            except Exception:
                return -3
            return x

        for f in (catch_all, catch_bare, with_finally, finally_returns, own_loop):
            flag = np.zeros(4, np.int64)
            send_sigint_when_running(flag)
            try:
                f(flag, 10 ** 17)
                print("finished")
            except KeyboardInterrupt:
                print("KeyboardInterrupt")
    """)
    assert out.split() == ["KeyboardInterrupt", "KeyboardInterrupt", "finally", "KeyboardInterrupt",
                           "KeyboardInterrupt", "KeyboardInterrupt"]


def _made_then_raised(n):
    if n < 1:
        my_error = ValueError("n should be positive, got %d" % n)
        raise my_error
    return n


def _made_in_branches(n):
    if n < 0:
        e = KeyError(n)
    else:
        e = IndexError(f"index {n} is out of range")
    if n != 3:
        raise e
    return str(e)


def _made_and_caught(n):
    e = ZeroDivisionError("made early")
    n += 1                      # (the message is the one made, not one made at the raise)
    try:
        if n > 2:
            raise e
    except ArithmeticError as x:
        return "caught " + str(x)
    return str(e)


@pytest.mark.parametrize("fn", [_made_then_raised, _made_in_branches, _made_and_caught])
@pytest.mark.parametrize("n", [-2, 0, 1, 3, 7])
def test_exceptions_made_outside_a_raise(fn, n):
    check_all_levels(fn, n)


def _optional_exception(n):
    err = None
    if n < 0:
        err = ValueError("negative")
    if err is not None:
        raise err
    return n


def test_an_exception_or_none_is_refused_at_the_line():
    with pytest.raises(CompileError, match="incompatible types exc and none"):
        script.script(_optional_exception)(1)


def _pascal_row(n, r):
    c = [0 for i in range(r + 1)]       # range() of a float: CPython's TypeError here
    c[0] = 1
    for i in range(1, n + 1):
        j = min(i, r)
        while j > 0:
            c[j] += c[j - 1]            # (a float index, never reached)
            j -= 1
    return c[r]


@pytest.mark.parametrize("args", [(10, 5), (10, 5.1), (4, 0)])
def test_what_follows_an_unconditional_raise_is_not_typed(args):
    # the statements after the raise cannot run, so what they could not type does not
    # matter: CPython's TypeError, not a CompileError at the index
    check_all_levels(_pascal_row, *args)


def _binary_or(a, b):
    a_bits, b_bits = str(bin(a))[2:], str(bin(b))[2:]       # bin() of a float: TypeError
    n = max(len(a_bits), len(b_bits))
    return "0b" + "".join(str(int("1" in (x, y))) for x, y in zip(a_bits.zfill(n), b_bits.zfill(n)))


@pytest.mark.parametrize("args", [(25, 32), (0.8, 5), (5, 1.5)])
def test_bin_of_a_float_is_cpythons_type_error(args):
    check_all_levels(_binary_or, *args)


def _store_item(x, i):
    x[i] = 0
    return x


@pytest.mark.parametrize("args", [((1, 2, 3), 1), ("abc", 0), ([1, 2], 1), (5, 0), ((1, 2), 7)])
def test_item_assignment_to_an_immutable_is_cpythons_type_error(args):
    check_all_levels(_store_item, *args)


def _contains(x, s):
    return 1 if x in s else 0


@pytest.mark.parametrize("args", [("a", "abc"), (3, "abc"), (None, "x"), (2.5, "")])
def test_in_a_str_of_a_non_str_is_cpythons_type_error(args):
    check_all_levels(_contains, *args)


def _one(x):
    return x * 2


def _one_or_two(x, y=1):
    return x + y


def _calls(k, f):
    if k == 1:
        return _one(k, 2)                   # CPython's TypeError for the count, at run time
    if k == 2:
        return _one_or_two(1, 2, 3)
    if k == 3:
        return f(k) + 1                     # 'int' object is not callable
    return 0


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_calls_that_always_fail_raise_cpythons_type_error(k):
    check_all_levels(_calls, k, 5)


def _two(x, y):
    return x + y


def _always_type_errors(k, s, xs):
    if k == 0:
        return _two(k)                      # missing 1 required positional argument: 'y'
    if k == 1:
        return -s                           # bad operand type for unary -: 'str'
    if k == 2:
        return abs(xs)                      # bad operand type for abs(): 'list'
    if k == 3:
        return sum([s, s])                  # unsupported operand type(s) for +: 'int' and 'str'
    if k == 4:
        return int(xs)                      # int() argument must be ..., not 'list'
    if k == 5:
        return sum(xs, s)                   # sum() can't sum strings
    return len(s)


@pytest.mark.parametrize("k", range(7))
def test_operations_that_always_fail_raise_cpythons_type_error(k):
    check_all_levels(_always_type_errors, k, "ab", [1, 2])


def _validated_height(v, angle):
    if not isinstance(v, (int, float)):
        raise TypeError("Invalid velocity. Should be an integer or float.")
    return round(v**2 * math.sin(math.radians(angle)) ** 2 / 19.6, 2)


def _height(v, angle):
    if angle < 0:
        raise ValueError("negative angle")
    return round(v**2 * math.sin(math.radians(angle)) ** 2 / 19.6, 2)


def _checked_height(v, angle):
    _validate(v)            # raises for a str; what follows never runs for one
    return round(v**2 * math.sin(math.radians(angle)) ** 2 / 19.6, 2)


def _validate(v):
    if not isinstance(v, (int, float)):
        raise TypeError("Invalid velocity. Should be an integer or float.")


@pytest.mark.parametrize("fn", [_validated_height, _height, _checked_height])
@pytest.mark.parametrize("args", [(30, 45), (12.5, 60), ("a", 20), (30, "b"), ([1], 3)])
def test_what_follows_a_raise_inside_a_statement_is_not_typed(fn, args):
    # `v ** 2` of a str raises; the round() of its value, which never exists, is not typed
    # (was an internal error, 'no constants of type ?'); math.radians of a str is CPython's
    # TypeError at run time (was a CompileError)
    check_all_levels(fn, *args)


@pytest.mark.parametrize("fn", [lambda x: math.sqrt(x), lambda x: math.atan2(1.0, x),
                                lambda x: math.floor(x) + 1, lambda x: math.isnan(x)])
@pytest.mark.parametrize("x", ["s", [1.0], None, (1, 2), 2.25])
def test_math_of_a_non_number_is_cpythons_type_error(fn, x):
    check_all_levels(fn, x)


@pytest.mark.parametrize("args", [(2.016, 4.002), (-2.0, 4.0), (1.0, 0.0)])
def test_an_exception_object_returned_is_cpythons(args):
    """`return ValueError(...)` beside `return x` (a union result), KeyError(n), a user
    class with several arguments, and exceptions in a tuple come back to Python as the
    objects CPython returns: same class, same args (runtime.boxing `_box_exception`)."""
    for fn, call in ((K.ratio_or_error, args), (K.errors_returned, (int(args[0]),)),
                     (K.errors_returned, (3,)), (K.errors_returned, (1,))):
        want, got = fn(*call), script.script(fn)(*call)
        for w, g in zip(want if isinstance(want, tuple) else (want,), got if isinstance(got, tuple) else (got,)):
            assert type(g) is type(w)
            assert (g.args == w.args) if isinstance(w, BaseException) else g == w
            assert repr(g) == repr(w)
