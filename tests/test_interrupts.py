"""Ctrl-C in compiled loops, the GIL released during calls, compiling from several threads.

- Where `insert_polls` puts `poll` (script.ir.interrupts): strip-mined counted innermost
  loops, a poll per iteration elsewhere; that it never changes what a function computes
  (the IR interpreter, random functions, tiny chunks); that compiled loops near the ends of
  the int range still run exactly Python's iterations.
- SIGINT: subprocesses run long compiled loops and get a SIGINT once the loop is known to run
  (the loop itself writes a flag another thread watches): KeyboardInterrupt, a clean exit, a
  user's handler that raises or that lets the loop go on.
- The GIL: a compiled loop in one thread waits for a write that only another Python thread
  can make, which it can only make while the GIL is released. No test depends on timing.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import script
from filecheck import filecheck, parse_checks
from ir_gen import arguments, functions
from ir_interp import outcome, same_outcome
from script.ir import interrupts
from script.ir.interrupts import insert_polls
from script.ir.parser import parse_function
from script.ir.printer import format_function
from script.ir.verifier import verify_function

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def polled(text: str):
    f = parse_function(text)
    insert_polls(f)
    verify_function(f, after="interrupts")
    out = format_function(f)
    assert format_function(parse_function(out)) == out
    return out


# --- where the polls go --------------------------------------------------------------------

COUNTED = """
func @f(%0: i64) -> i64 {
bb0:
  br bb1(0:i64, 0:i64)
bb1(%1: i64, %2: i64):
  %3 = cmp.lt %1, %0 : bool
  cbr %3, bb2, bb3
bb2:
  %4 = add %2, %1 : i64
  %5 = add %1, 1:i64 : i64
  br bb1(%5, %4)
bb3:
  ret %2
}
"""


def test_a_counted_innermost_loop_is_strip_mined_with_a_poll_between_chunks():
    filecheck(polled(COUNTED), parse_checks("""
        // CHECK:      br bb1(0:i64, 0:i64)
        // CHECK-NEXT: bb1(%1: i64, %2: i64):
        // CHECK-NEXT:   %3 = max %1, 0:i64 : i64
        // CHECK-NEXT:   %4 = cmp.gt %3, 9223372036854710271:i64 : bool
        // CHECK-NEXT:   %5 = add %3, 65536:i64 : i64
        // CHECK-NEXT:   %6 = select %4, 9223372036854775807:i64, %5 : i64
        // CHECK-NEXT:   %7 = min %0, %6 : i64
        // CHECK-NEXT:   br bb2(%3, %2, %7)
        // CHECK-NEXT: bb2(%8: i64, %9: i64, %10: i64):
        // CHECK-NEXT:   %11 = cmp.lt %8, %0 : bool
        // CHECK-NEXT:   %12 = cmp.lt %8, %10 : bool
        // CHECK-NEXT:   cbr %12, bb5, bb3
        // CHECK-NEXT: bb3:
        // CHECK-NEXT:   cbr %11, bb4, bb6
        // CHECK-NEXT: bb4:
        // CHECK-NEXT:   poll
        // CHECK-NEXT:   br bb1(%8, %9)
        // CHECK-NEXT: bb5:
        // CHECK-NEXT:   %13 = add %9, %8 : i64
        // CHECK-NEXT:   %14 = add %8, 1:i64 : i64
        // CHECK-NEXT:   br bb2(%14, %13, %10)
        // CHECK-NEXT: bb6:
        // CHECK-NEXT:   ret %9
    """))


def test_a_loop_counting_down_is_strip_mined_too():
    text = polled(COUNTED.replace("cmp.lt %1, %0", "cmp.gt %1, %0").replace(
        "add %1, 1:i64", "add %1, -1:i64"))
    filecheck(text, parse_checks("""
        // CHECK: %3 = min %1, 0:i64
        // CHECK: cmp.lt %3, -9223372036854710272:i64
        // CHECK: add %3, -65536:i64
        // CHECK: select %4, -9223372036854775808:i64, %5
        // CHECK: max %0, %6
        // CHECK: cmp.gt %8, %10
        // CHECK: poll
    """))
    assert text.count("poll") == 1


def polled_with_callee(source: str) -> str:
    from script.ir.parser import parse_module
    module = parse_module("func @g(%0: i64) -> i64 {\nbb0:\n  ret %0\n}\n" + source)
    f = module.functions["f"]
    insert_polls(f)
    return format_function(f)


@pytest.mark.parametrize("change", [
    [("add %1, 1:i64", "add %1, 2:i64")],                               # a step of two
    [("add %1, 1:i64", "add %1, 2:i64"), ("add %2, %1 : i64", "call @g(%1) : i64")],
])
def test_other_loops_poll_once_per_iteration_before_the_back_edge(change):
    source = COUNTED
    for old, new in change:
        source = source.replace(old, new)
    text = polled_with_callee(source) if "@g" in source else polled(source)
    filecheck(text, parse_checks("""
        // CHECK:      bb1(%1: i64, %2: i64):
        // CHECK-NEXT:   %3 = cmp.lt %1, %0 : bool
        // CHECK-NEXT:   cbr %3, bb2, bb3
        // CHECK-NEXT: bb2:
        // CHECK:        poll
        // CHECK-NEXT:   br bb1(%5, %4)
    """))
    assert text.count("poll") == 1


BRANCHY = """
func @f(%0: i64) -> i64 {
bb0:
  br bb1(0:i64, 0:i64)
bb1(%1: i64, %2: i64):
  %3 = cmp.lt %1, %0 : bool
  cbr %3, bb2, bb5
bb2:
  %4 = cmp.lt %2, 100:i64 : bool
  cbr %4, bb3, bb4(%2)
bb3:
  %5 = add %2, %1 : i64
  br bb4(%5)
bb4(%6: i64):
  %7 = add %1, 1:i64 : i64
  br bb1(%7, %6)
bb5:
  ret %2
}
"""


@pytest.mark.parametrize("change", [
    ("", ""),
    ("cbr %4, bb3, bb4(%2)", "cbr %4, bb3, bb5"),                 # a break
    ("%4 = cmp.lt %2, 100:i64 : bool",                            # a check
     "%4 = cmp.lt %2, 100:i64 : bool\n  check %4, IndexError \"i\""),
])
def test_a_counted_loop_with_an_if_in_its_body_is_strip_mined_too(change):
    # LLVM turns the if into a select and then unrolls or vectorizes the chunk loop, which
    # it does for neither a loop with a poll inside nor one with a second exit. With a
    # second exit (a break, a check) it does neither anyway, but the chunk loop's one
    # compare replaces the test of the counter's low bits in every iteration (the
    # histogram's loop, with its float and bounds checks: 1.45 -> 1.36 ms).
    f = parse_function(BRANCHY.replace(*change))
    ns = (0, 1, 5, 99, 100, 200)
    want = [outcome(f, [n]) for n in ns]
    insert_polls(f)
    verify_function(f, after="interrupts")
    assert all(same_outcome(outcome(f, [n]), w) for n, w in zip(ns, want))
    filecheck(format_function(f), parse_checks("""
        // CHECK:      bb1(%1: i64, %2: i64):
        // CHECK-NEXT:   %3 = max %1, 0:i64 : i64
        // CHECK:        %7 = min %0, %6 : i64
        // CHECK-NEXT:   br bb2(%3, %2, %7)
        // CHECK-NEXT: bb2(%8: i64, %9: i64, %10: i64):
        // CHECK-NEXT:   %11 = cmp.lt %8, %0 : bool
        // CHECK-NEXT:   %12 = cmp.lt %8, %10 : bool
        // CHECK-NEXT:   cbr %12, bb5, bb3
        // CHECK-NEXT: bb3:
        // CHECK-NEXT:   cbr %11, bb4, bb8
        // CHECK-NEXT: bb4:
        // CHECK-NEXT:   poll
        // CHECK-NEXT:   br bb1(%8, %9)
        // CHECK-NOT:    poll
    """))


@pytest.mark.parametrize("change", [
    ("cmp.lt %1, %0", "cmp.ne %1, %0"),        # not a bound test: a while loop with a counter
    ("add %1, 1:i64", "add %1, -1:i64"),       # counting down
])
def test_a_loop_with_a_counter_polls_before_its_back_edge_when_its_low_bits_are_zero(change):
    filecheck(polled(BRANCHY.replace(*change)), parse_checks("""
        // CHECK:      bb1(%1: i64, %2: i64):
        // CHECK-NOT:    poll
        // CHECK:      bb4(%6: i64):
        // CHECK-NEXT:   %7 = add %1, {{-?}}1:i64 : i64
        // CHECK-NEXT:   %8 = and %1, 65535:i64 : i64
        // CHECK-NEXT:   %9 = cmp.eq %8, 0:i64 : bool
        // CHECK-NEXT:   poll %9
        // CHECK-NEXT:   br bb1(%7, %6)
        // CHECK-NOT:    poll
    """))


@pytest.mark.parametrize("change", [
    [("br bb1(%7, %6)", "cbr %4, bb1(%7, %6), bb1(%1, %6)")],    # one back edge does not step
    [("cmp.lt %1, %0", "cmp.ne %1, %0"), ("i64", "i16")],        # a while loop, 16 bits
])
def test_a_counter_steps_by_one_on_every_back_edge_and_is_wide(change):
    source = BRANCHY
    for old, new in change:
        source = source.replace(old, new)
    text = polled(source)
    assert "poll %" not in text and text.count("poll") == 1


def test_a_counted_loop_with_a_call_polls_every_call_chunk_iterations_as_one_loop():
    # Strip-mined without a loop nest: the poll block computes the next limit and goes
    # back to the header, so an iteration runs one compare, as without checks.
    text = polled_with_callee(COUNTED.replace("add %2, %1 : i64", "call @g(%1) : i64"))
    filecheck(text, parse_checks("""
        // CHECK:      bb1(%1: i64, %2: i64):
        // CHECK-NEXT:   %3 = max %1, 0:i64 : i64
        // CHECK-NEXT:   %4 = cmp.gt %3, 9223372036854775743:i64 : bool
        // CHECK-NEXT:   %5 = add %3, 64:i64 : i64
        // CHECK-NEXT:   %6 = select %4, 9223372036854775807:i64, %5 : i64
        // CHECK-NEXT:   %7 = min %0, %6 : i64
        // CHECK-NEXT:   br bb2(%3, %2, %7)
        // CHECK-NEXT: bb2(%8: i64, %9: i64, %10: i64):
        // CHECK-NEXT:   %11 = cmp.lt %8, %0 : bool
        // CHECK-NEXT:   %12 = cmp.lt %8, %10 : bool
        // CHECK-NEXT:   cbr %12, bb5, bb3
        // CHECK-NEXT: bb3:
        // CHECK-NEXT:   cbr %11, bb4, bb6
        // CHECK-NEXT: bb4:
        // CHECK-NEXT:   poll
        // CHECK-NEXT:   %13 = cmp.gt %8, 9223372036854775743:i64 : bool
        // CHECK-NEXT:   %14 = add %8, 64:i64 : i64
        // CHECK-NEXT:   %15 = select %13, 9223372036854775807:i64, %14 : i64
        // CHECK-NEXT:   %16 = min %0, %15 : i64
        // CHECK-NEXT:   br bb2(%8, %9, %16)
        // CHECK-NEXT: bb5:
        // CHECK-NEXT:   %17 = call @g(%8) : i64
        // CHECK-NEXT:   %18 = add %8, 1:i64 : i64
        // CHECK-NEXT:   br bb2(%18, %17, %10)
    """))
    assert interrupts.CALL_CHUNK == 64


def test_a_loop_with_a_call_and_a_counter_polls_once_in_call_chunk_iterations():
    source = BRANCHY.replace("cmp.lt %1, %0", "cmp.ne %1, %0").replace(
        "%5 = add %2, %1 : i64", "%5 = call @g(%1) : i64")
    filecheck(polled_with_callee(source), parse_checks("""
        // CHECK:      bb4(%6: i64):
        // CHECK-NEXT:   %7 = add %1, 1:i64 : i64
        // CHECK-NEXT:   %8 = and %1, 63:i64 : i64
        // CHECK-NEXT:   %9 = cmp.eq %8, 0:i64 : bool
        // CHECK-NEXT:   poll %9
        // CHECK-NEXT:   br bb1(%7, %6)
    """))


def test_a_counted_loop_with_a_16_bit_counter_needs_no_poll_whatever_its_body():
    assert "poll" not in polled(BRANCHY.replace("i64", "i16"))


def test_every_latch_of_a_loop_polls():
    # Two back edges from two blocks (a `continue`): each iteration ends on one of them.
    source = BRANCHY.replace("cbr %4, bb3, bb4(%2)", "cbr %4, bb3, bb6").replace(
        "bb5:\n  ret %2", "bb5:\n  ret %2\nbb6:\n  %8 = add %1, 1:i64 : i64\n"
        "  br bb1(%8, %2)").replace("cmp.lt %1, %0", "cmp.ne %1, %0")
    text = polled(source)
    assert text.count("poll %") == 2
    filecheck(text, parse_checks("""
        // CHECK:      bb4(%6: i64):
        // CHECK:        poll %
        // CHECK-NEXT:   br bb1(
        // CHECK:      bb6:
        // CHECK:        poll %
        // CHECK-NEXT:   br bb1(
    """))


INNER_EXITS_TO_OUTER_HEADER = """
func @f(%0: i64) -> i64 {
bb0:
  br bb1(0:i64, 0:i64)
bb1(%1: i64, %2: i64):
  %3 = cmp.ne %1, %0 : bool
  cbr %3, bb2, bb4
bb2:
  br bb3(0:i64, %2)
bb3(%4: i64, %5: i64):
  %6 = cmp.lt %4, 10:i64 : bool
  %7 = call @g(%4) : i64
  %8 = add %5, %7 : i64
  %9 = add %4, 1:i64 : i64
  %10 = add %1, 1:i64 : i64
  cbr %6, bb3(%9, %8), bb1(%10, %8)
bb4:
  ret %2
}
"""


def test_an_outer_loop_whose_latch_heads_an_inner_loop_polls_on_its_own_back_edge():
    # bb3 heads the inner loop and ends the outer one's iterations: the outer loop's poll
    # goes on a block of its own on that edge, not into bb3 (every inner iteration).
    from script.ir.parser import parse_module
    from ir_interp import outcome
    module = parse_module("func @g(%0: i64) -> i64 {\nbb0:\n  ret %0\n}\n"
                          + INNER_EXITS_TO_OUTER_HEADER)
    f = module.functions["f"]
    want = outcome(f, [3])
    insert_polls(f)
    verify_function(f, after="interrupts")
    text = format_function(f)
    assert same_outcome(outcome(f, [3]), want)
    filecheck(text, parse_checks("""
        // CHECK:      call @g
        // CHECK-NOT:  poll
        // CHECK:      cbr
        // CHECK:      poll
        // CHECK:      bb7(%24: i64, %25: i64):
        // CHECK-NEXT:   poll
        // CHECK-NEXT:   br bb1(%24, %25)
    """))
    assert text.count("poll") == 2             # the outer loop's and the inner chunks'


def test_a_poll_with_a_due_flag_parses_and_verifies_only_with_a_bool():
    from script.ir.parser import IRParseError
    text = polled(BRANCHY.replace("cmp.lt %1, %0", "cmp.ne %1, %0"))
    assert "poll %9" in text
    with pytest.raises(IRParseError, match="poll of i64: takes nothing or a bool"):
        parse_function(text.replace("poll %9", "poll %8"))


def test_nested_loops_poll_in_the_outer_loop_only():
    f = script.script(nested_sum)
    assert f(3, 4) == nested_sum(3, 4)
    text = f.ir("opt")
    assert text.count("poll") == 1          # the outer latch: between runs of the inner loop
    assert "65536" not in text


def nested_sum(n, m):
    t = 0
    for i in range(n):
        for j in range(m):
            t += i * j
    return t


def test_a_loop_with_a_16_bit_counter_needs_no_poll():
    assert "poll" not in polled(COUNTED.replace("i64", "i16").replace("65536", "1"))


def test_without_loops_nothing_changes():
    source = "func @f(%0: i64) -> i64 {\nbb0:\n  ret %0\n}\n"
    assert polled(source) == format_function(parse_function(source))


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(func=functions(), inputs=st.lists(arguments(), min_size=3, max_size=3),
       chunk=st.sampled_from([1, 2, 1 << 16]))
def test_polls_never_change_what_a_function_computes(func, inputs, chunk):
    expected = [outcome(func, args) for args in inputs]
    saved = interrupts.CHUNK, interrupts.CALL_CHUNK
    interrupts.CHUNK = interrupts.CALL_CHUNK = chunk
    try:
        insert_polls(func)
    finally:
        interrupts.CHUNK, interrupts.CALL_CHUNK = saved
    verify_function(func, after="interrupts")
    for args, want in zip(inputs, expected):
        if want[0] in ("undefined", "step limit"):
            continue
        assert same_outcome(outcome(func, args, step_limit=1_000_000), want)


def range_sum(a, b, step):
    t = 0
    for i in range(a, b, step):
        t = (t * 31 + i) % 2**64           # masked: int64's wrapping value, no OverflowError
    return t


def while_down(a, b):
    t = 0
    i = a
    while i > b:
        t = (t * 7 + i) % 2**64
        i -= 1
    return t


@pytest.mark.parametrize("chunk", [1, 3, 1 << 16])
def test_compiled_chunks_run_pythons_iterations_near_the_int_edges(monkeypatch, chunk):
    monkeypatch.setattr(interrupts, "CHUNK", chunk)
    big = 2 ** 63 - 1
    f, g = script.script(range_sum), script.script(while_down)
    cases = [(0, 10, 1), (5, 5, 1), (big - 7, big, 1), (-big - 1, -big + 6, 1), (10, 0, -1),
             (-big + 5, -big - 1, -1), (3, 50, 7), (0, 9, 2)]
    for a, b, step in cases:
        assert f(a, b, step) == range_sum(a, b, step)
    for a, b in [(10, 0), (-big + 5, -big - 1), (big, big - 9), (3, 3)]:
        assert g(a, b) == while_down(a, b)


# --- the option ----------------------------------------------------------------------------

def int_sum(a):
    s = 0
    for i in range(a.shape[0]):
        s += a[i]
    return s


def test_interruptible_false_leaves_loops_unchecked():
    a = np.arange(1000)
    checked = script.script(int_sum)
    plain = script.script(int_sum, interruptible=False)
    assert checked(a) == plain(a) == int(a.sum())
    assert "poll" in checked.ir("opt") and "poll" not in plain.ir("opt")
    assert "script.poll" in checked.ir("llvm") and "script.poll" not in plain.ir("llvm")
    assert "script.sigints" not in plain.ir("llvm").split("; ModuleID")[1]


def int_xor(a):
    s = 0
    for i in range(a.shape[0]):
        s ^= a[i]
    return s


def vector_types(f) -> set:
    kernel = f.ir("llvm").split("; ModuleID")[1]         # the library, not the entry point
    return set(re.findall(r"<\d+ x (?:i64|double)>", kernel))


def axpy(a, x, y, out):
    for i in range(x.shape[0]):
        out[i] = a * x[i] + y[i]


def clip(a, lo, hi):
    for i in range(a.shape[0]):
        x = a[i]
        if x < lo:
            a[i] = lo
        elif x > hi:
            a[i] = hi


@pytest.mark.skipif(not re.match(r"x86_64|AMD64|aarch64|arm64", os.uname().machine),
                    reason="vector units of a known target")
def test_strip_mined_loops_still_vectorize():
    x, y, out = np.arange(100.0), np.ones(100), np.zeros(100)
    # (an int sum's overflow test reads its partial sums, which LLVM does not vectorize:
    # docs/integers.md; an xor reduction has none)
    for fn, args in [(int_xor, (np.arange(100),)), (axpy, (2.0, x, y, out)),
                     (clip, (np.linspace(0, 1, 100), 0.2, 0.8))]:   # an if in the body
        plain, checked = script.script(fn, interruptible=False), script.script(fn)
        plain(*args), checked(*args)
        assert vector_types(plain) and vector_types(checked) == vector_types(plain)


# --- SIGINT in a subprocess ----------------------------------------------------------------

CHILD = """
import signal, sys, threading, time, os
sys.path.insert(0, {root!r})
signal.signal(signal.SIGINT, signal.default_int_handler)   # even if started with SIGINT ignored
import numpy as np
import script

@script.script
def spin_while(flag, n: int) -> int:
    flag[0] = 1
    x = 1
    i = 0
    while i < n:
        x = (x * 1103515245 + 12345) % 2147483648
        i += 1
    return x

@script.script
def spin_range(flag, n: int) -> int:
    flag[0] = 1
    x = 1
    for i in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
    return x

@script.script
def spin_sum(flag, n: int) -> int:
    flag[0] = 1
    t = 0
    for k in range(n):
        for i in range(flag.shape[0]):
            t += flag[i] * k
    return t

@script.script
def spin_branchy(flag, n: int) -> int:
    flag[0] = 1
    x = 1
    for i in range(n):
        if x % 3 == 0:
            x = (x * 1103515245 + 12345) % 2147483648
        else:
            x = (x * 69069 + 1) % 2147483648
    return x

@script.script
def spin_break(flag, n: int) -> int:
    flag[0] = 1
    x = 1
    for i in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
        if x == -1:
            break
    return x

@script.script
def spin_checked(flag, n: int) -> int:
    flag[0] = 1
    x = 1
    t = 0
    for i in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
        t += flag[x % 7]
    return t

@script.script
def spin_countdown(flag, n: int) -> int:
    flag[0] = 1
    x = 1
    j = n
    while j >= 0:
        x = (x * 1103515245 + 12345) % 2147483648
        j -= 1
    return x

@script.script
def spin_no_counter(flag, n: int) -> int:
    flag[0] = 1
    x = 1
    while x != 0:
        x = (x * 1103515245 + 12345) % 2147483648 + n
    return x

@script.script
def lcg_step(x):
    if x < 0:
        return lcg_step(-x)
    return (x * 1103515245 + 12345) % 2147483648

@script.script
def spin_calls(flag, n: int) -> int:
    flag[0] = 1
    x = 1
    for i in range(n):
        x = lcg_step(x)
    return x

@script.script
def spin_recursive(flag, n, depth):
    if depth > 0:
        return spin_recursive(flag, n, depth - 1) + 1
    return spin_range(flag, n)

@script.script
def wait_for(flag) -> int:
    flag[0] = 1
    i = 0
    while flag[1] == 0:
        i += 1
    return 7

def send_sigint_when_running(flag):
    def watch():
        while flag[0] == 0:
            time.sleep(0.001)
        time.sleep(0.05)
        os.kill(os.getpid(), signal.SIGINT)
    threading.Thread(target=watch, daemon=True).start()

{body}
"""


def child_file(tmp_path, body: str) -> str:
    """A program (compiled functions need their source in a file) running `body`."""
    path = tmp_path / "child.py"
    path.write_text(CHILD.format(root=ROOT, body=textwrap.dedent(body)))
    return str(path)


def run_child(tmp_path, body: str, timeout: float = 120) -> str:
    r = subprocess.run([sys.executable, child_file(tmp_path, body)], capture_output=True,
                       text=True, timeout=timeout)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.mark.parametrize("kernel", [
    "spin_while", "spin_range", "spin_sum", "spin_branchy", "spin_break", "spin_checked",
    "spin_countdown", "spin_no_counter", "spin_calls", "spin_recursive"])
def test_sigint_interrupts_a_long_compiled_loop(tmp_path, kernel):
    args = "flag, 10 ** 17, 3" if kernel == "spin_recursive" else "flag, 10 ** 17"
    if kernel == "spin_no_counter":
        args = "flag, 1"
    out = run_child(tmp_path, f"""
        flag = np.zeros(1000, np.int64)
        send_sigint_when_running(flag)
        try:
            {kernel}({args})
            print("finished")
        except KeyboardInterrupt:
            print("KeyboardInterrupt")
    """)
    assert out.split() == ["KeyboardInterrupt"]


def test_sigint_sent_from_outside_interrupts_the_loop(tmp_path):
    path = child_file(tmp_path, """
        flag = np.zeros(4, np.int64)
        def ready():
            while flag[0] == 0:
                time.sleep(0.001)
            print("running", flush=True)
        threading.Thread(target=ready, daemon=True).start()
        try:
            spin_range(flag, 10 ** 17)
        except KeyboardInterrupt:
            print("KeyboardInterrupt", flush=True)
    """)
    p = subprocess.Popen([sys.executable, path], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "running"
        p.send_signal(2)
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
    assert out.split() == ["KeyboardInterrupt"] and p.returncode == 0, err


def test_a_users_handler_runs_inside_the_loop_and_what_it_raises_propagates(tmp_path):
    out = run_child(tmp_path, """
        class Stop(Exception):
            pass
        def handler(signum, frame):
            raise Stop("from the handler")
        signal.signal(signal.SIGINT, handler)
        flag = np.zeros(2, np.int64)
        send_sigint_when_running(flag)
        try:
            spin_while(flag, 10 ** 17)
        except Stop as e:
            print("Stop:", e)
    """)
    assert out.strip() == "Stop: from the handler"


def test_a_handler_that_does_not_raise_lets_the_loop_go_on(tmp_path):
    # wait_for ends only when flag[1] is set, which only the handler does, which runs in
    # the main thread, which is inside wait_for: the handler ran in the loop, which went on.
    out = run_child(tmp_path, """
        calls = []
        def handler(signum, frame):
            calls.append(signum)
            flag[1] = 1
        signal.signal(signal.SIGINT, handler)
        flag = np.zeros(2, np.int64)
        send_sigint_when_running(flag)
        print(wait_for(flag), calls)
    """)
    assert out.strip() == "7 [2]"


def test_the_hook_comes_back_with_the_next_compile_after_signal_signal(tmp_path):
    out = run_child(tmp_path, """
        flag = np.zeros(2, np.int64)
        spin_range(flag, 10)                     # compiled, hook installed
        signal.signal(signal.SIGINT, signal.default_int_handler)   # Python's handler again
        @script.script
        def other(x: int) -> int:                # any compile puts the hook back in front
            return x
        other(1)                                 # (compiled on its first call)
        flag[0] = 0
        send_sigint_when_running(flag)
        try:
            spin_range(flag, 10 ** 17)
        except KeyboardInterrupt:
            print("KeyboardInterrupt")
    """)
    assert out.split() == ["KeyboardInterrupt"]


def test_a_loop_in_another_thread_is_not_interrupted_but_the_main_thread_is(tmp_path):
    # Python runs signal handlers in the main thread only: the worker's loop goes on (its
    # poll finds nothing to do) and ends when the main thread, interrupted, tells it to.
    out = run_child(tmp_path, """
        worker_flag = np.zeros(2, np.int64)
        results = []
        t = threading.Thread(target=lambda: results.append(wait_for(worker_flag)))
        t.start()
        while worker_flag[0] == 0:
            time.sleep(0.001)
        flag = np.zeros(4, np.int64)
        send_sigint_when_running(flag)
        try:
            spin_range(flag, 10 ** 17)
        except KeyboardInterrupt:
            print("KeyboardInterrupt")
        worker_flag[1] = 1
        t.join()
        print(results)
    """)
    assert out.split() == ["KeyboardInterrupt", "[7]"]


# --- the GIL -------------------------------------------------------------------------------

def wait_for_flag(flag, out, limit):
    flag[1] = 1
    i = 0
    while flag[0] == 0 and i < limit:
        out[0] = i      # `out` may be `flag`: LLVM reads flag[0] again in every iteration
        i += 1
    return i


def test_the_gil_is_released_while_a_compiled_loop_runs():
    # Another thread's write to an array races with compiled code reading it, as in C:
    # the store to `out` keeps LLVM from keeping flag[0] in a register (a poll only
    # makes it read flag[0] again after a SIGINT was handled).
    f = script.script(wait_for_flag)
    flag, out = np.zeros(2, np.int64), np.zeros(1, np.int64)
    f(flag, out, 1)
    flag[:] = 0
    limit = 10 ** 11            # minutes: reached only if this thread never ran meanwhile
    result = []
    t = threading.Thread(target=lambda: result.append(f(flag, out, limit)))
    t.start()
    while flag[1] == 0:         # the loop has started ...
        t.join(0.001)
    flag[0] = 1                 # ... and this thread runs while it does
    t.join()
    assert result[0] < limit


def releases_gil(f) -> bool:
    m = re.search(r'@"?script\.nogil"? = [^\n]*constant i8 (\d)', f.ir("llvm"))
    return int(m.group(1)) & 1 == 1         # (bit 2: the call leaves no trace, ir.effects)


def no_loop(a, b):
    return a * b + 1


def recursive(n: int) -> int:
    if n < 2:
        return n
    return recursive(n - 1) + recursive(n - 2)


def test_only_code_that_may_run_long_releases_the_gil_and_nogil_false_keeps_it():
    a = np.arange(10)
    cases = [(script.script(int_sum), (a,), True),
             (script.script(int_sum, nogil=False), (a,), False),
             (script.script(no_loop), (2, 3), False),
             (script.script(recursive), (10,), True)]
    for f, args, expected in cases:
        f(*args)
        assert releases_gil(f) is expected, f


def test_options_are_part_of_the_cache_key(tmp_path, monkeypatch):
    monkeypatch.setenv("SCRIPT_CACHE_DIR", str(tmp_path))
    a = np.arange(10)
    variants = [script.script(int_sum, cache=True, **o)
                for o in ({}, {"interruptible": False}, {"nogil": False})]
    for f in variants:
        assert f(a) == 45
    assert len([p for p in tmp_path.iterdir() if p.name != "native"]) == 3     # (native/: the store)
    assert "poll" in variants[0].ir("opt") and "poll" not in variants[1].ir("opt")


# --- compiling from several threads --------------------------------------------------------

def poly(x, y):
    return x * x + 3 * y


def loop_poly(n, x):
    t = x
    for i in range(n):
        t = t * 0.5 + i
    return t


def test_compiling_from_several_threads_at_once():
    functions_ = [script.script(poly), script.script(loop_poly)]
    args = [(2, 3), (2.5, 1.5), (1, 2.0), (2.0, 1)], [(10, 1.0), (5, 2), (0, 3.5), (7, 4)]
    barrier = threading.Barrier(6)
    errors, results = [], []

    def work(k):
        try:
            barrier.wait()
            for f, py, cases in zip(functions_, (poly, loop_poly), args):
                for a in cases[k % 2:] + cases[:k % 2]:
                    results.append((f(*a), py(*a)))
            g = script.script(no_loop)        # a fresh object: decorated in every thread
            results.append((g(k, 2), no_loop(k, 2)))
        except Exception as e:                # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert len(results) == 6 * 9 and all(got == want for got, want in results)
    assert len(functions_[0].signatures) == 4 and len(functions_[1].signatures) == 2


def test_the_hook_trips_python_before_it_counts():
    """The SIGINT hook calls Python's handler, which trips the signal, before it adds to the
    count that polls compare: counted first, a poll between the two (the handler's thread
    preempted under load) ran PyErr_CheckSignals before the trip, took the count as seen,
    and the loop ran on (a loaded 10**17-iteration loop hung a full test run once)."""
    from script.backend.llvm.builder import NativeModule
    from script.backend.runtime.interrupt import HANDLER_SYMBOL, build_runtime
    m = NativeModule("hook")
    build_runtime(m)
    text = m.text()
    body = text[text.index(f'@"{HANDLER_SYMBOL}"(i32'):]
    body = body[:body.index("\n}")]
    assert body.index("call void") < body.index("atomicrmw add"), body
