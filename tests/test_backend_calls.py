"""Control flow, calls between IR functions, and exceptions raised by native code."""

from __future__ import annotations

import pytest

from script.errors import CompileError
from script.ir import types as T
from script.ir.core import Const, Function, Instr, Module, set_terminator
from script.ir.ops import MAX_MESSAGE_ARGS, ExcInfo
from script.ir.verifier import verify_function
from test_backend_ops import build, compiled, emit


def i64(v):
    return Const(v, T.I64)


def make_fib() -> Function:
    """fib(n) = n if n < 2 else fib(n - 1) + fib(n - 2), recursively."""
    f = Function("fib", [T.I64], T.I64)
    n, = f.params
    small, big = f.add_block("small"), f.add_block("big")
    c = emit(f.entry, "cmp", [n, i64(2)], T.BOOL, "lt")
    set_terminator(f.entry, "cbr", [c], [small, big], [0, 0])
    set_terminator(small, "ret", [n])
    a = big.append(Instr("call", [emit(big, "sub", [n, i64(1)])], T.I64, f))
    b = big.append(Instr("call", [emit(big, "sub", [n, i64(2)])], T.I64, f))
    set_terminator(big, "ret", [emit(big, "add", [a, b])])
    verify_function(f)
    return f


def make_sum_loop(t=T.I64) -> Function:
    """sum(i * i for i in range(n)), with block parameters for the loop variables."""
    f = Function("sumsq", [t], t)
    n, = f.params
    loop, body, done = f.add_block("loop"), f.add_block("body"), f.add_block("done")
    i, acc = loop.add_param(t), loop.add_param(t)
    result = done.add_param(t)
    zero = Const(0, t)
    set_terminator(f.entry, "br", [zero, zero], [loop], [2])
    c = emit(loop, "cmp", [i, n], T.BOOL, "lt")
    set_terminator(loop, "cbr", [c, acc], [body, done], [0, 1])
    acc2 = emit(body, "add", [acc, emit(body, "mul", [i, i])])
    set_terminator(body, "br", [emit(body, "add", [i, Const(1, t)]), acc2], [loop], [2])
    set_terminator(done, "ret", [result])
    verify_function(f)
    return f


def test_loop_with_block_parameters():
    f = compiled(make_sum_loop())
    for n in (0, 1, 2, 10, 1000):
        assert f(n) == sum(i * i for i in range(n))


def test_recursive_fib():
    fib = compiled(make_fib())
    assert [fib(n) for n in range(10)] == [0, 1, 1, 2, 3, 5, 8, 13, 21, 34]
    assert fib(25) == 75025


def test_recursion_is_guarded_against_stack_overflow():
    """A recursive function checks its frame against the Env's stack limit, so runaway
    recursion raises RecursionError instead of crashing the interpreter."""
    fib = compiled(make_fib())
    assert fib(20) == 6765
    assert "llvm.stacksave" in fib.library.llvm_ir
    down = Function("down", [T.I64], T.F64)
    (n,) = down.params
    zero = down.entry.append(Instr("cmp", [n, Const(0, T.I64)], T.BOOL, "eq"))
    base, rec = down.add_block("base"), down.add_block("rec")
    set_terminator(down.entry, "cbr", [zero], [base, rec], [0, 0])
    set_terminator(base, "ret", [Const(0.0, T.F64)])
    m1 = rec.append(Instr("sub", [n, Const(1, T.I64)], T.I64))
    r = rec.append(Instr("call", [m1], T.F64, down))
    half = rec.append(Instr("mul", [r, Const(0.5, T.F64)], T.F64))
    r2 = rec.append(Instr("call", [Const(0, T.I64)], T.F64, down))
    s = rec.append(Instr("add", [half, r2], T.F64))
    set_terminator(rec, "ret", [s])
    verify_function(down)
    f = compiled(down)
    assert f(1000) == 0.0
    with pytest.raises(RecursionError, match="maximum recursion depth exceeded"):
        f(10**8)


def test_stack_test_waits_for_a_call_where_a_frame_may_return_without_one():
    """fib's ``n < 2`` frames return without reading the stack pointer, so LLVM needs no
    prologue for them; the test is before the calls, once per path (abi.py)."""
    fib = compiled(make_fib())
    ir = fib.library.llvm_ir
    body = ir[ir.index("@script.fn.fib"):]
    body = body[:body.index("\n}")]
    entry = body[:body.index("\n\n")]
    assert "stacksave" not in entry and body.count("llvm.stacksave") == 1
    assert [fib(n) for n in range(12)] == [0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89]


def test_cbr_to_one_block_with_different_arguments():
    f = Function("pick", [T.BOOL, T.I64, T.I64], T.I64)
    c, a, b = f.params
    join = f.add_block("join")
    x = join.add_param(T.I64)
    set_terminator(f.entry, "cbr", [c, a, b], [join, join], [1, 1])
    set_terminator(join, "ret", [x])
    verify_function(f)
    pick = compiled(f)
    assert pick(True, 1, 2) == 1 and pick(False, 1, 2) == 2


def test_unreachable_block_is_dropped():
    f = Function("dead", [T.I64], T.I64)
    dead = f.add_block("dead")
    set_terminator(f.entry, "ret", [f.params[0]])
    set_terminator(dead, "ret", [i64(0)])
    verify_function(f)
    assert compiled(f)(5) == 5


def test_calls_with_tuples_and_none():
    pair = T.TupleType([T.I64, T.F64])
    swap = build("swap", [pair], lambda blk, p: [
        emit(blk, "extract", [p], T.F64, 1), emit(blk, "extract", [p], T.I64, 0)])
    nothing = build("nothing", [T.I64], lambda blk, a: Const(None, T.NONE), ret_type=T.NONE)

    def body(blk, a, x):
        p = emit(blk, "tuple", [a, x], pair)
        blk.append(Instr("call", [a], T.NONE, nothing))
        return blk.append(Instr("call", [p], swap.ret_type, swap))
    caller = build("caller", [T.I64, T.F64], body)
    assert compiled(caller, swap, nothing)(3, 0.5) == (0.5, 3)


def test_functions_with_one_name_in_two_modules():
    """Two libraries defining the same symbols do not clash in the JIT."""
    one = build("same", [T.I64], lambda blk, a: emit(blk, "add", [a, i64(1)]))
    two = build("same", [T.I64], lambda blk, a: emit(blk, "add", [a, i64(2)]))
    f1, f2 = compiled(one), compiled(two)
    assert (f1(10), f2(10), f1(10)) == (11, 12, 11)


def test_function_names_need_no_escaping():
    f = build('we"ird nämé', [T.I64], lambda blk, a: emit(blk, "add", [a, a]))
    assert compiled(f)(21) == 42


# --- exceptions ----------------------------------------------------------------------------

def checked_div() -> Function:
    """a // b, raising ZeroDivisionError for b == 0 and ValueError (with both operands in
    the message) for a negative a."""
    def body(blk, a, b):
        zero = emit(blk, "cmp", [b, i64(0)], T.BOOL, "eq")
        blk.append(Instr("check", [zero], T.NONE, ExcInfo("ZeroDivisionError",
                                                          "integer division or modulo by zero")))
        neg = emit(blk, "cmp", [a, i64(0)], T.BOOL, "lt")
        blk.append(Instr("check", [neg, a, b], T.NONE,
                         ExcInfo("ValueError", "a=%lld must not be negative (b=%lld), 100%%")))
        return emit(blk, "floordiv", [a, b])
    return build("checked_div", [T.I64, T.I64], body)


def test_check_raises_with_formatted_message():
    f = compiled(checked_div())
    assert f(7, 2) == 3
    with pytest.raises(ZeroDivisionError, match="^integer division or modulo by zero$"):
        f(1, 0)
    with pytest.raises(ValueError) as info:
        f(-5, 3)
    assert str(info.value) == "a=-5 must not be negative (b=3), 100%"
    assert f(7, 2) == 3         # nothing left pending


def test_exception_propagates_through_calls():
    inner = checked_div()

    def body(blk, a, b):
        r = blk.append(Instr("call", [a, b], T.I64, inner))
        return emit(blk, "add", [r, i64(1)])
    outer = build("outer", [T.I64, T.I64], body)
    f = compiled(outer, inner)
    assert f(9, 3) == 4
    with pytest.raises(ValueError, match=r"a=-9 must not be negative \(b=3\)"):
        f(-9, 3)


def test_raise_terminator_without_message_and_sized_arguments():
    f = Function("fail", [T.U8, T.BOOL], T.F64)
    x, how = f.params
    plain, formatted = f.add_block("plain"), f.add_block("formatted")
    set_terminator(f.entry, "cbr", [how], [plain, formatted], [0, 0])
    set_terminator(plain, "raise", [], attr=ExcInfo("KeyError", None))
    set_terminator(formatted, "raise", [x], attr=ExcInfo("IndexError", "index %lld ünïcode ✓"))
    verify_function(f)
    fail = compiled(f)
    with pytest.raises(KeyError) as info:
        fail(200, True)
    assert info.value.args == ()
    with pytest.raises(IndexError, match="^index 200 ünïcode ✓$"):
        fail(200, False)


def _message_of(n: int) -> Function:
    """Raises ValueError when its argument is negative, the message naming n values a, a+1, ..."""
    def body(blk, a):
        t = emit(blk, "cmp", [a, i64(0)], T.BOOL, "lt")
        values = [a] + [emit(blk, "add", [a, i64(k)]) for k in range(1, n)]
        blk.append(Instr("check", [t, *values], T.NONE, ExcInfo("ValueError", " ".join(["%lld"] * n))))
        return a
    return build(f"many{n}", [T.I64], body)


def test_message_with_the_most_arguments_reaches_python_in_order():
    f = compiled(_message_of(MAX_MESSAGE_ARGS))
    with pytest.raises(ValueError) as info:
        f(-100)
    assert str(info.value) == " ".join(str(-100 + k) for k in range(MAX_MESSAGE_ARGS))


def test_message_with_too_many_arguments_is_a_compile_error():
    with pytest.raises(CompileError, match=f"at most {MAX_MESSAGE_ARGS}"):
        compiled(_message_of(MAX_MESSAGE_ARGS + 1))


def test_every_exception_class_reaches_python():
    from script.ir.ops import EXCEPTIONS
    f = Function("raise_any", [T.I64], T.NONE)
    blocks = [f.add_block(name) for name in EXCEPTIONS]
    cur = f.entry
    for k, (name, blk) in enumerate(zip(EXCEPTIONS, blocks)):
        set_terminator(blk, "raise", [f.params[0]], attr=ExcInfo(name, f"{name} %lld"))
        nxt = f.add_block()
        c = emit(cur, "cmp", [f.params[0], i64(k)], T.BOOL, "eq")
        set_terminator(cur, "cbr", [c], [blk, nxt], [0, 0])
        cur = nxt
    set_terminator(cur, "ret", [Const(None, T.NONE)])
    verify_function(f)
    g = compiled(f)
    for k, name in enumerate(EXCEPTIONS):
        with pytest.raises(BaseException) as info:
            g(k)
        assert type(info.value).__name__ == name and str(info.value).strip("'") == f"{name} {k}"
    assert g(len(EXCEPTIONS)) is None


def test_compile_native_reports_ir_and_assembly():
    lib = compiled(make_sum_loop()).library
    for text in (lib.llvm_ir, lib.asm):     # the library's code, then its entry point's
        assert "script.fn.sumsq" in text and "script.entry" in text
    assert "define" in lib.llvm_ir
    assert lib.object_code[:4] == b"\x7fELF" and lib.compile_seconds > 0


def test_module_with_many_functions_compiles_only_what_the_entry_reaches():
    fib = make_fib()
    unused = build("unused", [T.I64], lambda blk, a: a)
    f = compiled(fib)
    assert f(10) == 55
    from script.backend import compile_native
    lib = compile_native(Module([unused, fib]), "fib")
    assert "unused" not in lib.llvm_ir
