"""The threads that run prange loops (llvm.parallel, docs/parallel.md).

The runtime library defines, in native code (`build_runtime`):

- ``i32 script.par.run(table, worker, ctx, env)``: runs a loop's *worker* (``i64 worker(ctx,
  env)``, llvm.parallel: it takes chunks from the loop's counter until none is left, and
  returns the number of a chunk that raised, or -1) on the pool's threads and on the calling
  thread, waits for them, and copies the exception of the smallest failing chunk into
  `env`; returns 1 when one raised. With one thread, or when the pool is busy (a loop in a
  loop's iteration, or a loop of another Python thread), the calling thread runs it alone.
- ``void script.par.serve(state, index)``: the body of pool thread `index`, forever.

Both work on one *state* record (`_state`, below), which compiled code finds through the
table ``script.parallel`` = ``{state, threads, grow}`` (bound when a library is loaded:
runtime.symbols; it passes the table to ``script.par.run``, since the runtime library
itself is loaded by the system's loader, which cannot bind it). Dispatch and waiting are native
(a mutex and two condition variables of the C library): no Python runs while a loop runs,
so neither the GIL nor a KeyboardInterrupt at a bad moment can stall or cut short the
hand-off. The calling thread runs chunks with a copy of its own Env (its thread state, its
stack limit), so an interrupt poll there raises KeyboardInterrupt as in serial code; the
other threads then start no new chunk.

The pool threads are Python threads (each has a Python thread state, which code taking the
GIL back, a `print` or a poll, uses), made once with an 8 MiB stack and kept: each calls
``script.par.serve`` through ctypes, which releases the GIL for good. Compiled code asks for
them through ``grow`` (a ctypes callback) the first time it finds fewer than it needs.
"""

from __future__ import annotations

import ctypes
import os
import threading
import time

RUN_SYMBOL = "script.par.run"
SERVE_SYMBOL = "script.par.serve"
TABLE_SYMBOL = "script.parallel"        # {ptr state, i64 threads, ptr grow}

ENV_SIZE = 136          # sizeof(Env), llvm.abi
EXC_SIZE = 112          # its first four fields: status, class, message and arguments
_STACK = 8 << 20        # the pool threads' stacks (runtime.entry's budget: a quarter)

# The state record: pthread mutexes and condition variables get 64 bytes each (40 and 48 on
# x86-64 glibc, 48 and 48 on AArch64); all-zero bytes are their static initializers.
MUTEX, WORK, DONE, BUSY = 0, 64, 128, 192     # WORK: a new loop; DONE: a thread finished one
# NWORKERS: how many pool threads may join the loop (0 once the caller found no chunk left);
# REMAINING: how many joined and have not finished.
GEN, WORKER, CTX, PARENT, NWORKERS, REMAINING, BEST, POOL, ASKED = (256 + 8 * k for k in range(9))
EXC = 328               # the exception of chunk BEST
STATE_SIZE = EXC + EXC_SIZE
NO_CHUNK = (1 << 63) - 1
SPINS = 4000            # rounds of `pause` a pool thread watches for the next loop (_spin)


def build_runtime(m) -> list[str]:
    """Define ``script.par.run`` and ``script.par.serve`` in `m` (the runtime library)."""
    _build_run(m)
    _build_serve(m)
    return [RUN_SYMBOL, SERVE_SYMBOL]


def _pthread(m, b, name: str, *args):
    return b.call(m.declare(f"pthread_{name}", "i32", ["ptr"] * len(args), attrs=("nounwind",)), list(args))


def _copy(m, b, dst, src, size: int) -> None:
    from script.backend.llvm.builder import FALSE, int_const
    memcpy = m.intrinsic("llvm.memcpy.p0.p0.i64", "void", ["ptr", "ptr", "i64", "i1"])
    b.call(memcpy, [dst, src, int_const("i64", size), FALSE])


def _record_failure(m, b, fn, state, k, env) -> None:
    """Under the mutex: keep `env`'s exception when chunk `k` (>= 0) is the smallest failing."""
    from script.backend.llvm.builder import int_const
    keep, done = fn.append_block("keep"), fn.append_block("kept")
    smaller = b.icmp("slt", k, b.load_at("i64", state, BEST))
    b.cbranch(b.and_(b.icmp("sge", k, int_const("i64", 0)), smaller), keep, done)
    b.position_at_end(keep)
    b.store_at(k, state, BEST)
    _copy(m, b, b.offset(state, EXC), env, EXC_SIZE)
    b.branch(done)
    b.position_at_end(done)


def _build_run(m) -> None:
    from script.backend.llvm.abi import ENV_STATUS, ENV_TSTATE
    from script.backend.llvm.builder import NULL, Builder, Callee, int_const
    from script.backend.runtime import capi
    fn = m.new_function(RUN_SYMBOL, "i32", ["ptr", "ptr", "ptr", "ptr"], linkage="external")
    table, worker_ptr, ctx, env = fn.args
    worker = Callee(worker_ptr.ref, "i64", ["ptr", "ptr"])
    b = Builder(fn, fn.append_block("entry"))
    state = b.load_at("ptr", table, 0)
    threads = b.load_at("i64", table, 8)
    alone, try_pool, grow, check, share = (fn.append_block(n) for n in ("alone", "try", "grow", "check", "share"))
    b.cbranch(b.and_(b.icmp("sgt", threads, int_const("i64", 1)), b.icmp("ne", state, NULL)), try_pool, alone)
    b.position_at_end(try_pool)
    busy = b.icmp("ne", _pthread(m, b, "mutex_trylock", b.offset(state, BUSY)), int_const("i32", 0))
    b.cbranch(busy, alone, check)
    b.position_at_end(check)                # more threads wanted than ever asked for: ask
    wanted = b.sub(threads, int_const("i64", 1))
    b.cbranch(b.icmp("sgt", wanted, b.load_at("i64", state, ASKED)), grow, share)
    b.position_at_end(grow)
    b.call(Callee(b.load_at("ptr", table, 16).ref, "void", ["i64"]), [wanted])
    b.branch(share)
    b.position_at_end(share)                # the GIL, if this thread holds it, goes for the loop
    held = b.icmp("eq", b.load_at("ptr", env, ENV_TSTATE), NULL)
    release, hand_off = fn.append_block("release"), fn.append_block("hand_off")
    b.cbranch(held, release, hand_off)
    b.position_at_end(release)
    b.store_at(capi.call(m, b, "PyEval_SaveThread"), env, ENV_TSTATE)
    b.branch(hand_off)
    b.position_at_end(hand_off)
    _pthread(m, b, "mutex_lock", b.offset(state, MUTEX))
    pool = b.load_at("i64", state, POOL)
    nworkers = b.select(b.icmp("slt", wanted, pool), wanted, pool)
    for value, offset in ((worker_ptr, WORKER), (ctx, CTX), (env, PARENT), (nworkers, NWORKERS),
                          (int_const("i64", 0), REMAINING), (int_const("i64", NO_CHUNK), BEST)):
        b.store_at(value, state, offset)
    generation = b.add(b.load_at("i64", state, GEN), int_const("i64", 1))
    b.store_atomic(generation, b.offset(state, GEN), 8)     # (pool threads spinning read it)
    _pthread(m, b, "cond_broadcast", b.offset(state, WORK))
    _pthread(m, b, "mutex_unlock", b.offset(state, MUTEX))
    mine = b.entry_alloca(f"[{ENV_SIZE} x i8], align 8")
    _copy(m, b, mine, env, ENV_SIZE)
    b.store_at(int_const("i32", 0), mine, ENV_STATUS)
    k = b.call(worker, [ctx, mine])
    _pthread(m, b, "mutex_lock", b.offset(state, MUTEX))
    # No chunk is left to take: a thread that has not picked the loop up yet must not start
    # (it would find nothing to do, and this call need not wait for it to wake).
    b.store_at(int_const("i64", 0), state, NWORKERS)
    _record_failure(m, b, fn, state, k, mine)
    wait, sleep, finished = fn.append_block("wait"), fn.append_block("sleep"), fn.append_block("finished")
    b.branch(wait)
    b.position_at_end(wait)
    b.cbranch(b.icmp("sgt", b.load_at("i64", state, REMAINING), int_const("i64", 0)), sleep, finished)
    b.position_at_end(sleep)
    _pthread(m, b, "cond_wait", b.offset(state, DONE), b.offset(state, MUTEX))
    b.branch(wait)
    b.position_at_end(finished)
    failed = b.icmp("ne", b.load_at("i64", state, BEST), int_const("i64", NO_CHUNK))
    copy, unlock = fn.append_block("copy"), fn.append_block("unlock")
    b.cbranch(failed, copy, unlock)
    b.position_at_end(copy)
    _copy(m, b, env, b.offset(state, EXC), EXC_SIZE)
    b.branch(unlock)
    b.position_at_end(unlock)
    _pthread(m, b, "mutex_unlock", b.offset(state, MUTEX))
    _pthread(m, b, "mutex_unlock", b.offset(state, BUSY))
    take, out = fn.append_block("take_gil"), fn.append_block("out")
    b.cbranch(held, take, out)
    b.position_at_end(take)
    capi.call(m, b, "PyEval_RestoreThread", b.load_at("ptr", env, ENV_TSTATE))
    b.store_at(NULL, env, ENV_TSTATE)
    b.branch(out)
    b.position_at_end(out)
    b.ret(b.zext(failed, "i32"))
    b.position_at_end(alone)
    k = b.call(worker, [ctx, env])
    b.ret(b.zext(b.icmp("sge", k, int_const("i64", 0)), "i32"))


def _build_serve(m) -> None:
    from script.backend.llvm.abi import ENV_SIGINTS, ENV_STACK, ENV_STATUS, ENV_TSTATE
    from script.backend.llvm.builder import Builder, Callee, int_const
    from script.backend.runtime import capi
    from script.backend.runtime.entry import stack_budget
    fn = m.new_function(SERVE_SYMBOL, "void", ["ptr", "i64"], linkage="external")
    state, index = fn.args
    b = Builder(fn, fn.append_block("entry"))
    env = b.entry_alloca(f"[{ENV_SIZE} x i8], align 8")
    seen = b.entry_alloca("i64")
    b.store_at(capi.call(m, b, "PyGILState_GetThisThreadState"), env, ENV_TSTATE)
    b.store_at(b.sub(b.ptrtoint(seen, "i64"), int_const("i64", stack_budget())), env, ENV_STACK)
    _pthread(m, b, "mutex_lock", b.offset(state, MUTEX))
    b.store(b.load_at("i64", state, GEN), seen)     # loops before this one are not ours
    b.store_at(b.add(b.load_at("i64", state, POOL), int_const("i64", 1)), state, POOL)
    wait, sleep, woken, job = (fn.append_block(n) for n in ("wait", "sleep", "woken", "job"))
    b.branch(wait)
    b.position_at_end(wait)                 # the mutex is held here
    gen = b.load_at("i64", state, GEN)
    b.cbranch(b.icmp("eq", gen, b.load("i64", seen)), sleep, woken)
    b.position_at_end(sleep)
    _pthread(m, b, "cond_wait", b.offset(state, WORK), b.offset(state, MUTEX))
    b.branch(wait)
    b.position_at_end(woken)
    b.store(gen, seen)
    b.cbranch(b.icmp("slt", index, b.load_at("i64", state, NWORKERS)), job, wait)
    b.position_at_end(job)
    worker = Callee(b.load_at("ptr", state, WORKER).ref, "i64", ["ptr", "ptr"])
    ctx = b.load_at("ptr", state, CTX)
    b.store_at(b.load_at("i64", b.load_at("ptr", state, PARENT), ENV_SIGINTS), env, ENV_SIGINTS)
    b.store_at(int_const("i32", 0), env, ENV_STATUS)
    b.store_at(b.add(b.load_at("i64", state, REMAINING), int_const("i64", 1)), state, REMAINING)
    _pthread(m, b, "mutex_unlock", b.offset(state, MUTEX))
    k = b.call(worker, [ctx, env])
    _python_error_to_record(m, b, fn, env)
    _pthread(m, b, "mutex_lock", b.offset(state, MUTEX))
    _record_failure(m, b, fn, state, k, env)
    left = b.sub(b.load_at("i64", state, REMAINING), int_const("i64", 1))
    b.store_at(left, state, REMAINING)
    last, back = fn.append_block("last"), fn.append_block("back")
    b.cbranch(b.icmp("eq", left, int_const("i64", 0)), last, back)
    b.position_at_end(last)
    _pthread(m, b, "cond_broadcast", b.offset(state, DONE))
    b.branch(back)
    b.position_at_end(back)
    _spin(m, b, fn, state, seen, wait)


def _spin(m, b, fn, state, seen, wait) -> None:
    """With the mutex held at `b`: let it go and watch for the next loop for a while (SPINS
    rounds of a spin-wait hint, 0.1-0.3 ms), then take the mutex again and go to
    `wait` (which sleeps when nothing came). Loops that follow each other closely (a
    time-stepping loop, a benchmark) start without a wake-up, which on a loaded machine can
    take longer than a loop of a millisecond; ``sched_yield`` instead gave the core away to
    other processes for their whole time slice (1 ms loops 1.55-1.76x on 2 threads)."""
    from script.backend.llvm.builder import int_const
    count = b.entry_alloca("i64")
    b.store(int_const("i64", 0), count)
    _pthread(m, b, "mutex_unlock", b.offset(state, MUTEX))
    watch, again, stop = fn.append_block("watch"), fn.append_block("again"), fn.append_block("stop")
    b.branch(watch)
    b.position_at_end(watch)
    changed = b.icmp("ne", b.load_atomic("i64", b.offset(state, GEN), 8), b.load("i64", seen))
    n = b.load("i64", count)
    b.cbranch(b.or_(changed, b.icmp("sge", n, int_const("i64", SPINS))), stop, again)
    b.position_at_end(again)
    b.store(b.add(n, int_const("i64", 1)), count)
    if m.triple.startswith(("x86_64", "i686", "i386")):
        b.call(m.intrinsic("llvm.x86.sse2.pause", "void", []), [])
    b.branch(watch)
    b.position_at_end(stop)
    _pthread(m, b, "mutex_lock", b.offset(state, MUTEX))
    b.branch(wait)


def _python_error_to_record(m, b, fn, env) -> None:
    """A Python exception left set in this pool thread's state (status 2: one of a class
    compiled code does not know, py_errors) cannot reach the caller's thread: it becomes a
    SystemError saying so, and this thread's state is cleared."""
    from script.backend.llvm.abi import ENV_EXC, ENV_FMT, ENV_STATUS, STATUS_PYTHON_ERROR
    from script.backend.llvm.builder import int_const
    from script.backend.runtime import capi
    convert, done = fn.append_block("python_error"), fn.append_block("recorded")
    b.cbranch(b.icmp("eq", b.load_at("i32", env, ENV_STATUS), int_const("i32", STATUS_PYTHON_ERROR)), convert, done)
    b.position_at_end(convert)
    capi.holding_gil(m, b, env, lambda: capi.call(m, b, "PyErr_Clear"))
    b.store_at(int_const("i32", 1), env, ENV_STATUS)
    b.store_at(int_const("i32", capi.EXCEPTION_CLASSES.index("SystemError")), env, ENV_EXC)
    b.store_at(m.cstring(b"an exception of a class compiled code does not know was raised on a thread "
                         b"of a parallel loop"), env, ENV_FMT)
    b.branch(done)
    b.position_at_end(done)


# --- the Python side: the table, the threads, the number of threads -----------------------

_state = (ctypes.c_int64 * (STATE_SIZE // 8))()
_table = (ctypes.c_int64 * 3)()
_threads: list[threading.Thread] = []
_lock = threading.Lock()


def _default_threads() -> int:
    text = os.environ.get("SCRIPT_NUM_THREADS", "")
    if text.strip().isdigit() and int(text) > 0:
        return int(text)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _grow(n: int) -> None:
    """Make pool threads until there are `n` (called by ``script.par.run``, which holds the
    pool's BUSY lock, with the GIL taken by ctypes); wait up to a second for them to be
    ready. Never lets a Python exception escape (a ctypes callback would print and drop it)."""
    try:
        from script.store import runtime_library     # loaded: script.par.run is in it
        serve = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int64)(runtime_library().address[SERVE_SYMBOL])
        _state[ASKED // 8] = max(n, _state[ASKED // 8])
        with _lock:
            old = threading.stack_size(_STACK)
            try:
                while len(_threads) < n:
                    t = threading.Thread(target=serve, args=(ctypes.addressof(_state), len(_threads)),
                                         name=f"script-parallel-{len(_threads)}", daemon=True)
                    t.start()
                    _threads.append(t)
            finally:
                threading.stack_size(old)
        deadline = time.monotonic() + 1.0
        while _state[POOL // 8] < n and time.monotonic() < deadline:
            time.sleep(0.0002)
    except BaseException:  # noqa: BLE001 - see the docstring: the loop runs on fewer threads
        pass


_grow_callback = ctypes.CFUNCTYPE(None, ctypes.c_int64)(_grow)


def _after_fork() -> None:
    """A child of fork has none of the parent's threads, and the locks may be held by them:
    a new, empty pool."""
    ctypes.memset(_state, 0, ctypes.sizeof(_state))
    _threads.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


def table_address() -> int:
    """The address of ``script.parallel``, filled on first use."""
    if _table[0] == 0:
        _table[1] = _default_threads()
        _table[2] = ctypes.cast(_grow_callback, ctypes.c_void_p).value
        _table[0] = ctypes.addressof(_state)
    return ctypes.addressof(_table)


def set_num_threads(n: int) -> None:
    """Run prange loops on `n` threads from now on (1: in the calling thread). The answer
    does not depend on it: a loop's chunks and the order its reductions combine them are
    fixed by its length alone."""
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"the number of threads must be an int >= 1, not {n!r}")
    table_address()
    _table[1] = n


def get_num_threads() -> int:
    """The number of threads prange loops run on."""
    table_address()
    return int(_table[1])


def pool_threads() -> list[threading.Thread]:
    """The pool's threads made so far (for tests)."""
    return list(_threads)
