"""A call of a chunk function (ir.core PARALLEL, made by ir.parallel): every chunk
``k in range(nchunks)`` run by the runtime's threads (runtime.parallel), the first exception in
chunk order raised.

At the call site the operands go into a context record on the stack::

    struct Ctx { i64 next; i64 nchunks; args... }   // args: the call's operands

and the call becomes, for this one call site, a *worker* function

    i64 script.par.N(Ctx *ctx, Env *env, i64 worker)

that takes chunk numbers from ``ctx->next`` (an atomic counter: every thread takes the next
chunk not yet taken) and calls the chunk function with each, until none is left or one
raised; it returns the number of the chunk that raised (its exception in `env`), or -1. A
thread runs its chunks in increasing order and finishes each chunk it took, so the smallest
failing number over all threads is the chunk of the first exception in iteration order.
With ``worker`` nonzero it first gives `env` the thread's own Python thread state (code that
takes the GIL back, `print` or an interrupt poll, uses it), and with ``worker`` 1 (a pool
thread, not the caller's) a stack limit below its own frame.

When the table ``script.parallel`` says one thread, the call site runs the worker itself
with its own Env (no Python is involved); else it calls the runtime's ``run(worker, ctx,
env)``, which returns nonzero when a chunk raised, its exception then copied into `env`.

Arrays in the operands are passed with their owner marked as borrowed (``owner | 1``,
llvm.memory): the caller keeps them alive across the call, and threads must not count
references in one buffer header concurrently (the counts are not atomic).
"""

from __future__ import annotations

from script.ir import types as T
from script.ir.core import Instr
from script.backend.llvm.abi import ARRAY_OWNER, ENV_STACK, ENV_TSTATE, LIKELY, UNLIKELY, llvm_type
from script.backend.llvm.builder import Builder, int_const

TABLE_SYMBOL = "script.parallel"     # {ptr run, i64 threads}: runtime.parallel
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
    table = m.declare_data(TABLE_SYMBOL, "{ptr, i64}")
    threads = b.load_at("i64", table, 8)
    fn = lowering.fn
    alone, many, done = fn.append_block("par_alone"), fn.append_block("par_threads"), fn.append_block("par_done")
    b.cbranch(b.icmp("sle", threads, int_const("i64", 1)), alone, many)
    b.position_at_end(alone)
    failed = b.call(worker, [ctx, lowering.env, int_const("i64", 0)])
    raised_alone = b.icmp("sge", failed, int_const("i64", 0))
    b.branch(done)
    b.position_at_end(many)
    run = b.load_at("ptr", table, 0)
    status = b._emit("i32", f"call i32 {run.ref}(ptr {worker.ref}, ptr {ctx.ref}, ptr {lowering.env.ref})")
    raised_many = b.icmp("ne", status, int_const("i32", 0))
    b.branch(done)
    b.position_at_end(done)
    raised = b._emit("i1", f"phi i1 [{raised_alone.ref}, %{alone.label}], [{raised_many.ref}, %{many.label}]")
    cont = fn.append_block()
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
    """``i64 script.par.N(Ctx*, Env*, i64 worker)`` for the call `i` (module docstring)."""
    from script.backend.runtime import capi
    from script.backend.runtime.entry import stack_budget
    m = lowering.m
    callee = lowering.lowered.native[id(i.attr)]
    fn = m.new_function(f"script.par.{len(m.functions)}", "i64", ["ptr", "ptr", "i64"])
    ctx, env, is_worker = fn.args
    b = Builder(fn, fn.append_block("entry"))
    setup, loop = fn.append_block("setup"), fn.append_block("next")
    b.cbranch(b.icmp("ne", is_worker, int_const("i64", 0)), setup, loop)
    b.position_at_end(setup)
    b.store_at(capi.call(m, b, "PyGILState_GetThisThreadState"), env, ENV_TSTATE)
    stack = fn.append_block("stack")
    b.cbranch(b.icmp("eq", is_worker, int_const("i64", 1)), stack, loop)
    b.position_at_end(stack)
    here = b.ptrtoint(b.entry_alloca("i64"), "i64")
    b.store_at(b.sub(here, int_const("i64", stack_budget())), env, ENV_STACK)
    b.branch(loop)
    b.position_at_end(loop)
    k = b.atomic_rmw("add", _field(b, ctx_type, ctx, 0), int_const("i64", 1))
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
    b.ret(k)
    return fn
