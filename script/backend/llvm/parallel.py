"""A call of a chunk function (ir.core PARALLEL, made by ir.parallel): every chunk
``k in range(nchunks)`` run by the runtime's threads (runtime.parallel), the first exception in
chunk order raised.

At the call site the operands go into a context record on the stack::

    struct Ctx { i64 next; i64 nchunks; args... }   // args: the call's operands

and the call becomes, for this one call site, a *worker* function

    i64 script.par.N(Ctx *ctx, Env *env)

that takes chunk numbers from ``ctx->next`` (an atomic counter: every thread takes the next
chunk not yet taken) and calls the chunk function with each, until none is left or one
raised; it returns the number of the chunk that raised (its exception in `env`), or -1, and
when one raised it sets ``ctx->next`` past the end, so that no thread starts another chunk.
A thread runs its chunks in increasing order and finishes each chunk it took, so the
smallest failing number over all threads is the chunk of the first exception in iteration
order. The call site hands the worker to the runtime's ``script.par.run(table, worker, ctx,
env)``, which returns nonzero when a chunk raised (the exception then in `env`).

Arrays in the operands are passed with their owner marked borrowed (``owner | 1``,
llvm.memory): the caller keeps them alive across the call, and threads must not count
references in one buffer header concurrently (the counts are not atomic).
"""

from __future__ import annotations

from script.ir import types as T
from script.ir.core import Instr
from script.backend.llvm.abi import ARRAY_OWNER, LIKELY, UNLIKELY, llvm_type
from script.backend.llvm.builder import Builder, Value, int_const

RUN_SYMBOL = "script.par.run"        # i32 (table, worker, ctx, env): runtime.parallel
TABLE_SYMBOL = "script.parallel"     # {ptr state, i64 threads, ptr grow}: runtime.parallel
_CTX_ARGS = 2                         # next and nchunks before the operands


def lower_parallel_call(lowering, i: Instr) -> None:
    """Lower `i`, a ``call`` of a PARALLEL function, at `lowering.b` (an llvm.lower
    FunctionLowering): run it for every chunk, then unwind when one raised."""
    m, b = lowering.m, lowering.b
    args = [_borrowed(b, lowering.value(v), v.type) for v in i.operands]
    ctx_type = "{" + ", ".join(["i64", "i64"] + [a.type for a in args]) + "}"
    worker = _worker(lowering, i, ctx_type, [a.type for a in args])
    ctx = b.entry_alloca(ctx_type)
    b.store(int_const("i64", 0), _field(b, ctx_type, ctx, 0))
    b.store(lowering.value(i.operands[1]), _field(b, ctx_type, ctx, 1))
    for k, a in enumerate(args):
        b.store(a, _field(b, ctx_type, ctx, _CTX_ARGS + k))
    run = m.declare(RUN_SYMBOL, "i32", ["ptr", "ptr", "ptr", "ptr"], attrs=("nounwind",))
    table = m.declare_data(TABLE_SYMBOL, "{ptr, i64, ptr}")
    worker_ptr = Value("ptr", worker.ref)
    raised = b.icmp("ne", b.call(run, [table, worker_ptr, ctx, lowering.env]), int_const("i32", 0))
    cont = lowering.fn.append_block()
    b.cbranch(raised, lowering.unwind_with_cleanup(i), cont, UNLIKELY)
    b.position_at_end(cont)


def _field(b: Builder, ctx_type: str, ctx, k: int):
    return b._emit("ptr", f"getelementptr inbounds {ctx_type}, ptr {ctx.ref}, i32 0, i32 {k}")


def _borrowed(b: Builder, v, t: T.Type):
    """`v` with the owner of every array in it marked borrowed (``owner | 1``; NULL stays)."""
    if isinstance(t, T.ArrayType):
        owner = b.extract_value(v, ARRAY_OWNER, "ptr")
        addr = b.ptrtoint(owner, "i64")
        marked = b.select(b.icmp("eq", addr, int_const("i64", 0)), addr, b.or_(addr, int_const("i64", 1)))
        return b.insert_value(v, b.inttoptr(marked, "ptr"), ARRAY_OWNER)
    if isinstance(t, T.TupleType) and any(isinstance(e, (T.ArrayType, T.TupleType)) for e in t.elems):
        for k, e in enumerate(t.elems):
            v = b.insert_value(v, _borrowed(b, b.extract_value(v, k, llvm_type(e)), e), k)
    return v


def _worker(lowering, i: Instr, ctx_type: str, arg_types: list[str]):
    """``i64 script.par.N(Ctx*, Env*)`` for the call `i` (module docstring)."""
    m = lowering.m
    callee = lowering.lowered.native[id(i.attr)]
    fn = m.new_function(f"script.par.{len(m.functions)}", "i64", ["ptr", "ptr"])
    ctx, env = fn.args
    b = Builder(fn, fn.append_block("entry"))
    loop = fn.append_block("next")
    b.branch(loop)
    b.position_at_end(loop)
    counter = _field(b, ctx_type, ctx, 0)
    k = b.atomic_rmw("add", counter, int_const("i64", 1))
    n = b.load("i64", _field(b, ctx_type, ctx, 1))
    body, finished = fn.append_block("chunk"), fn.append_block("finished")
    b.cbranch(b.icmp("slt", k, n), body, finished, LIKELY)
    b.position_at_end(finished)
    b.ret(int_const("i64", -1))
    b.position_at_end(body)
    args = [b.load(t, _field(b, ctx_type, ctx, _CTX_ARGS + j)) for j, t in enumerate(arg_types)]
    args[0] = k
    b.call(callee, [env] + args)
    failed = fn.append_block("failed")
    status = b.load_at("i32", env, 0)
    b.cbranch(b.icmp("ne", status, int_const("i32", 0)), failed, loop, UNLIKELY)
    b.position_at_end(failed)
    b.store_atomic(n, counter, 8)           # no thread starts another chunk
    b.ret(k)
    return fn
