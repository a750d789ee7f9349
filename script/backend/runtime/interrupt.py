"""Ctrl-C in compiled code: a native SIGINT hook in front of Python's, and the poll that
answers it.

Compiled loops run without the GIL (runtime.entry), so they cannot call PyErr_CheckSignals
as they go. Instead:

- The runtime library (runtime.shared) defines ``script.sigints``, a process-wide count of
  SIGINTs, and ``script.sigint``, a C signal handler that calls the handler it replaced —
  Python's own, which trips the signal for the interpreter, so Python still sees every
  SIGINT exactly as before — and then adds one to the count (an atomic add:
  async-signal-safe), so that a poll that sees the new count finds the signal tripped.
- script.loadpath's `install_sigint_hook` puts ``script.sigint`` in front of Python's handler
  with ``PyOS_getsig``/``PyOS_setsig`` (in the runtime module, runtime.pymodule). It runs whenever code is compiled or loaded (cheap: one
  system call) and does nothing unless SIGINT is handled by Python, through a Python-level
  handler (``signal.getsignal(SIGINT)`` is callable): a program that ignores SIGINT, or
  leaves it to the system, is not changed. ``signal.signal(SIGINT, h)`` reinstalls Python's
  C handler, dropping the hook until the next compile or load; loops compiled before then
  are not interruptible meanwhile (the signal is still handled when the call returns).
  At exit the previous handler is put back, before the JIT's code is unmapped.
- The entry point copies the count into the call's `Env` (``env->sigints``); a `poll`
  compares the two (llvm.interrupt). When they differ it calls ``script.poll(env)``, which
  records the new count, takes the GIL back if the entry released it, calls
  PyErr_CheckSignals — Python runs its handlers there, in the main thread, as its own eval
  loop would — and releases the GIL again. When a handler raised (KeyboardInterrupt, by
  default), it sets ``env->status`` to 2 (the exception is already set) and returns 1: the
  compiled code unwinds and the entry point returns NULL. When none raised (a handler that
  only records the signal, or a call running in another thread, where Python runs no
  handlers), the loop goes on.

Counting instead of a flag needs no reset: each call compares with the count it started
from, so every running call sees every SIGINT once, in every thread. A SIGINT that arrives
just before a call starts is handled by Python when the call returns.
"""

from __future__ import annotations

HANDLER_SYMBOL = "script.sigint"        # void (int): the SIGINT hook
PREVIOUS_SYMBOL = "script.sigint.prev"  # the handler the hook chains to


def build_runtime(m) -> list[str]:
    """Define the count, the hook and ``script.poll`` in `m` (the runtime library); returns
    the names to export. ``script.poll(env)`` returns 0 at once when the count is the one
    ``env`` has seen; else it records the count, runs Python's signal handlers and returns 1
    (status set) when one raised."""
    from script.backend.llvm.builder import NULL, int_const
    from script.backend.llvm.interrupt import POLL_SYMBOL, SIGINTS_SYMBOL
    count = m.define_variable(int_const("i64", 0), SIGINTS_SYMBOL)
    previous = m.define_variable(NULL, PREVIOUS_SYMBOL)
    _build_handler(m, count, previous)
    _build_poll(m, count)
    return [SIGINTS_SYMBOL, PREVIOUS_SYMBOL, HANDLER_SYMBOL, POLL_SYMBOL]


def _build_handler(m, count, previous) -> None:
    from script.backend.llvm.builder import Builder, Callee, int_const
    fn = m.new_function(HANDLER_SYMBOL, "void", ["i32"], linkage="external")
    sig, = fn.args
    b = Builder(fn, fn.append_block("entry"))
    prev = b.load_atomic("ptr", previous, 8)
    chain, done = fn.append_block("chain"), fn.append_block("done")
    # SIG_DFL is 0 and SIG_IGN 1: only a function is called (install never stores those).
    b.cbranch(b.icmp("ugt", b.ptrtoint(prev, "i64"), int_const("i64", 1)), chain, done)
    b.position_at_end(chain)
    b.call(Callee(prev.ref, "void", ["i32"]), [sig])
    b.branch(done)
    b.position_at_end(done)
    # Counted after Python's handler tripped the signal: a poll that sees the new count
    # finds it tripped. Counted first, a poll between the two (the handler's thread
    # preempted) ran PyErr_CheckSignals too early, took the count as seen and looped on.
    b.atomic_rmw("add", count, int_const("i64", 1))
    b.ret_void()


def _build_poll(m, count) -> None:
    from script.backend.llvm.abi import ENV_SIGINTS, ENV_STATUS, STATUS_PYTHON_ERROR
    from script.backend.llvm.builder import Builder, int_const
    from script.backend.llvm.interrupt import POLL_SYMBOL
    from script.backend.runtime import capi
    fn = m.new_function(POLL_SYMBOL, "i32", ["ptr"], linkage="external")
    env, = fn.args
    b = Builder(fn, fn.append_block("entry"))
    now = b.load_atomic("i64", count, 8)
    raised, clean, handle = (fn.append_block(n) for n in ("raised", "clean", "handle"))
    b.cbranch(b.icmp("eq", now, b.load_at("i64", env, ENV_SIGINTS)), clean, handle)
    b.position_at_end(handle)
    b.store_at(now, env, ENV_SIGINTS)
    failed = capi.holding_gil(m, b, env, lambda: b.icmp(
        "ne", capi.call(m, b, "PyErr_CheckSignals"), int_const("i32", 0)))
    b.cbranch(failed, raised, clean)
    b.position_at_end(raised)
    b.store_at(int_const("i32", STATUS_PYTHON_ERROR), env, ENV_STATUS)
    b.ret(int_const("i32", 1))
    b.position_at_end(clean)
    b.ret(int_const("i32", 0))
