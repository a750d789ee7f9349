"""The small functions the gradient's tapes and shadows call: pushing onto a tape of numbers
(an array grown by doubling), growing it, reserving room for a counted loop's pushes before
the loop runs, and the zeroed shadow of a new array. One of each per element type per
`cache` (the cache of one gradient's build, script.autodiff.adjoint)."""

from __future__ import annotations

from script.ir import types as T
from script.ir.core import OUT_OF_LINE, Const, Function, Instr
from script.ir.ops import ExcInfo

# A reservation larger than this many elements cannot be met (it would be petabytes); it is
# a MemoryError, as the pushes it stands for would be, and keeps `n + trips` from wrapping.
MAX_RESERVE = 1 << 56


def push_function(t: T.Type, cache: dict) -> Function:
    """``grad$push.<T>(a, n, v) -> T[::1]``: stores v at a[n] (n <= len(a)), first moving the
    n elements to an array twice as long when a is full (`grow_function`); gives the array
    now holding them. Inlined: the common path is a compare and a store."""
    key = ("push", t)
    f = cache.get(key)
    if f is not None:
        return f
    at = T.ArrayType(t, 1, "C")
    f = cache[key] = Function(f"grad$push.{t}", [at, T.I64, t], at)
    a, n, v = f.params
    entry = f.entry
    grow, put = f.add_block("grow"), f.add_block("put")
    cap = entry.append(Instr("dim", [a], T.I64, 0))
    full = entry.append(Instr("cmp", [n, cap], T.BOOL, "ge"))
    entry.append(Instr("cbr", [full, a], succs=[grow, put], succ_nargs=[0, 1]))
    twice = grow.append(Instr("mul", [cap, Const(2, T.I64)], T.I64))
    new = grow.append(Instr("call", [a, n, twice], at, grow_function(t, cache)))
    grow.append(Instr("br", [new], succs=[put], succ_nargs=[1]))
    b = put.add_param(at)
    put.append(Instr("store", [b, v, n]))
    put.append(Instr("ret", [b]))
    return f


def reserve_function(t: T.Type, cache: dict) -> Function:
    """``grad$reserve.<T>(a, n, lo, hi) -> T[::1]``: an array holding a's n first elements
    with room for ``max(hi - lo, 0) + 1`` more (a, when it has it). Called before a counted
    loop whose only exit is its header's test (``i < hi`` from ``i = lo``, or down from hi to
    lo), so that the pushes of the blocks it runs once per iteration need no test of their
    own: each is a store and an increment, which LLVM vectorizes with the loop."""
    key = ("reserve", t)
    f = cache.get(key)
    if f is not None:
        return f
    at = T.ArrayType(t, 1, "C")
    f = cache[key] = Function(f"grad$reserve.{t}", [at, T.I64, T.I64, T.I64], at)
    a, n, lo, hi = f.params
    e, grow, done = f.entry, f.add_block("grow"), f.add_block("done")

    def emit(op, operands, t=T.I64, attr=None):
        return e.append(Instr(op, operands, t, attr))
    ahead = emit("cmp", [hi, lo], T.BOOL, "gt")
    diff = emit("sub", [hi, lo])                  # wraps only when hi - lo exceeds int64
    trips = emit("select", [ahead, diff, Const(0, T.I64)])
    bad = emit("cmp", [trips, Const(0, T.I64)], T.BOOL, "lt")
    bad = emit("or", [bad, emit("cmp", [trips, Const(MAX_RESERVE, T.I64)], T.BOOL, "gt")], T.BOOL)
    emit("check", [bad], T.NONE, ExcInfo("MemoryError", None))
    need = emit("add", [emit("add", [n, trips]), Const(1, T.I64)])
    cap = emit("dim", [a], T.I64, 0)
    short = emit("cmp", [need, cap], T.BOOL, "gt")
    e.append(Instr("cbr", [short, a], succs=[grow, done], succ_nargs=[0, 1]))
    twice = grow.append(Instr("mul", [cap, Const(2, T.I64)], T.I64))
    size = grow.append(Instr("max", [twice, need], T.I64))
    new = grow.append(Instr("call", [a, n, size], at, grow_function(t, cache)))
    grow.append(Instr("br", [new], succs=[done], succ_nargs=[1]))
    b = done.add_param(at)
    done.append(Instr("ret", [b]))
    return f


def reserve_nest_function(t: T.Type, cache: dict) -> Function:
    """``grad$reserve_nest.<T>(a, n, lo2, hi2, lo, hi) -> T[::1]``: `reserve_function`'s
    array for ``max(hi2 - lo2, 0) * (max(hi - lo, 0) + 1)`` more elements: the pushes of a
    loop nest (an inner loop of ``hi - lo`` trips, run by each of an outer loop's ``hi2 -
    lo2``), reserved once before the outer loop rather than grown by doubling as the inner
    one's reservations run (the heat equation's tape of 128,000 numbers was copied five
    times over, as much memory traffic as the function's own copies). Only a hint: when the
    product is not below MAX_RESERVE (or a difference wraps), `a` as it is, and the inner
    loop's reservations decide."""
    key = ("reserve_nest", t)
    f = cache.get(key)
    if f is not None:
        return f
    at = T.ArrayType(t, 1, "C")
    f = cache[key] = Function(f"grad$reserve_nest.{t}", [at] + [T.I64] * 5, at)
    a, n, lo2, hi2, lo, hi = f.params
    e, go, keep = f.entry, f.add_block("reserve"), f.add_block("keep")

    def emit(op, operands, t=T.I64, attr=None):
        return e.append(Instr(op, operands, t, attr))

    def trips(lo, hi):
        return emit("select", [emit("cmp", [hi, lo], T.BOOL, "gt"), emit("sub", [hi, lo]),
                               Const(0, T.I64)])
    outer, inner = trips(lo2, hi2), emit("add", [trips(lo, hi), Const(1, T.I64)])
    wrapped = emit("or", [emit("cmp", [outer, Const(0, T.I64)], T.BOOL, "lt"),
                          emit("cmp", [inner, Const(1, T.I64)], T.BOOL, "lt")], T.BOOL)
    safe_inner = emit("select", [wrapped, Const(1, T.I64), inner])
    room = emit("floordiv", [Const(MAX_RESERVE, T.I64), safe_inner])
    fits = emit("and", [emit("not", [wrapped], T.BOOL),
                        emit("cmp", [outer, room], T.BOOL, "lt")], T.BOOL)
    e.append(Instr("cbr", [fits], succs=[go, keep], succ_nargs=[0, 0]))
    total = go.append(Instr("mul", [outer, safe_inner], T.I64))
    last = go.append(Instr("sub", [total, Const(1, T.I64)], T.I64))
    r = go.append(Instr("call", [a, n, Const(0, T.I64), last], at, reserve_function(t, cache)))
    go.append(Instr("ret", [r]))
    keep.append(Instr("ret", [a]))
    return f


def grow_function(t: T.Type, cache: dict) -> Function:
    """``grad$grow$outline.<T>(a, n, cap) -> T[::1]``: a's n first elements in a new array of
    `cap` elements. Never inlined (ir.core OUT_OF_LINE): it seldom runs, and a copy at every
    push made the gradient's code several times longer."""
    key = ("grow", t)
    f = cache.get(key)
    if f is not None:
        return f
    at = T.ArrayType(t, 1, "C")
    f = cache[key] = Function(f"grad$grow{OUT_OF_LINE}.{t}", [at, T.I64, T.I64], at)
    a, n, cap = f.params
    entry = f.entry
    copy, body, done = f.add_block("copy"), f.add_block("body"), f.add_block("done")
    new = entry.append(Instr("alloc", [cap], at))
    entry.append(Instr("br", [Const(0, T.I64)], succs=[copy], succ_nargs=[1]))
    i = copy.add_param(T.I64)
    more = copy.append(Instr("cmp", [i, n], T.BOOL, "lt"))
    copy.append(Instr("cbr", [more], succs=[body, done], succ_nargs=[0, 0]))
    x = body.append(Instr("load", [a, i], t))
    body.append(Instr("store", [new, x, i]))
    j = body.append(Instr("add", [i, Const(1, T.I64)], T.I64))
    body.append(Instr("br", [j], succs=[copy], succ_nargs=[1]))
    done.append(Instr("ret", [new]))
    return f


_ZERO_NAME = "grad$zeros"


def zeros_function(t: T.ArrayType, cache: dict) -> Function:
    """``grad$zeros.<T>(d0, ..., dn) -> T``: a new C-contiguous array of those lengths, all
    zeros (the shadow of an `alloc`). One per array type per `cache`."""
    t = t.with_layout("C")
    key = ("zeros", t)
    f = cache.get(key)
    if f is not None:
        return f
    name = f"{_ZERO_NAME}.{t.dtype}_{t.ndim}"
    f = cache[key] = Function(name, [T.I64] * t.ndim, t)
    entry = f.entry
    a = entry.append(Instr("alloc", list(f.params), t))
    flat, size = a, f.params[0]
    if t.ndim > 1:
        for d in f.params[1:]:
            size = entry.append(Instr("mul", [size, d], T.I64))
        flat = entry.append(Instr("reshape", [a, size], T.ArrayType(t.dtype, 1, "C")))
    head, body, done = f.add_block("loop"), f.add_block("body"), f.add_block("done")
    entry.append(Instr("br", [Const(0, T.I64)], succs=[head], succ_nargs=[1]))
    i = head.add_param(T.I64)
    c = head.append(Instr("cmp", [i, size], T.BOOL, "lt"))
    head.append(Instr("cbr", [c], succs=[body, done], succ_nargs=[0, 0]))
    body.append(Instr("store", [flat, Const(0.0, t.dtype), i]))
    j = body.append(Instr("add", [i, Const(1, T.I64)], T.I64))
    body.append(Instr("br", [j], succs=[head], succ_nargs=[1]))
    done.append(Instr("ret", [a]))
    return f
