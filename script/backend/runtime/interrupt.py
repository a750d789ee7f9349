"""Ctrl-C in compiled code: a native SIGINT hook in front of Python's, and the poll that
answers it.

Compiled loops run without the GIL (runtime.entry), so they cannot call PyErr_CheckSignals
as they go. Instead:

- The runtime library (runtime.shared) defines ``script.sigints``, a process-wide count of
  SIGINTs, and ``script.sigint``, a C signal handler that adds one to it (an atomic add:
  async-signal-safe) and then calls the handler it replaced — Python's own, which trips the
  signal for the interpreter, so Python still sees every SIGINT exactly as before.
- `install_sigint_hook` puts ``script.sigint`` in front of Python's handler with
  ``PyOS_getsig``/``PyOS_setsig``. It runs whenever code is compiled or loaded (cheap: one
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

import atexit
import ctypes
import os
import threading

import _signal as signal    # the C module without `signal`'s enums: a cache hit imports this

HANDLER_SYMBOL = "script.sigint"        # void (int): the SIGINT hook
PREVIOUS_SYMBOL = "script.sigint.prev"  # the handler the hook chains to


# The hook is installed on the load path, which does not import the LLVM backend: the code
# generation below imports it when it runs.

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
    b.atomic_rmw("add", count, int_const("i64", 1))
    prev = b.load_atomic("ptr", previous, 8)
    chain, done = fn.append_block("chain"), fn.append_block("done")
    # SIG_DFL is 0 and SIG_IGN 1: only a function is called (install never stores those).
    b.cbranch(b.icmp("ugt", b.ptrtoint(prev, "i64"), int_const("i64", 1)), chain, done)
    b.position_at_end(chain)
    b.call(Callee(prev.ref, "void", ["i32"]), [sig])
    b.branch(done)
    b.position_at_end(done)
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


# --- installing the hook -------------------------------------------------------------------

_lock = threading.Lock()
_installed: dict = {}       # "handler", "previous": addresses, once installed


def _api():
    api = ctypes.pythonapi
    getsig, setsig = api.PyOS_getsig, api.PyOS_setsig
    getsig.restype, getsig.argtypes = ctypes.c_void_p, [ctypes.c_int]
    setsig.restype, setsig.argtypes = ctypes.c_void_p, [ctypes.c_int, ctypes.c_void_p]
    return getsig, setsig


def install_sigint_hook(address: dict) -> bool:
    """Put the runtime's SIGINT hook in front of Python's handler, unless it is there already
    or Python does not handle SIGINT; `address` maps the runtime library's symbols to their
    addresses. Returns whether the hook is installed."""
    if os.name != "posix" or not hasattr(signal, "SIGINT"):
        return False
    if not callable(signal.getsignal(signal.SIGINT)):
        return False                     # SIG_IGN, SIG_DFL, or not installed from Python
    handler = address[HANDLER_SYMBOL]
    getsig, setsig = _api()
    with _lock:
        current = getsig(signal.SIGINT) or 0
        if current == handler:
            return True
        if current in (0, 1) or current == ctypes.c_void_p(-1).value:   # DFL, IGN, ERR
            return False
        previous = ctypes.c_void_p.from_address(address[PREVIOUS_SYMBOL])
        previous.value = current         # before the hook can run
        replaced = setsig(signal.SIGINT, handler) or 0
        if replaced != current:          # changed in between: chain to what was there
            previous.value = replaced if replaced > 1 else None
        if not _installed:
            atexit.register(_uninstall)
        _installed.update(handler=handler, previous=previous)
        return True


def _uninstall() -> None:
    """Give SIGINT back to the handler the hook chains to (at exit: the JIT's code goes)."""
    getsig, setsig = _api()
    with _lock:
        if _installed and getsig(signal.SIGINT) == _installed["handler"]:
            setsig(signal.SIGINT, _installed["previous"].value or 0)


def sigint_count(address: dict) -> int:
    """SIGINTs the hook has seen (for tests)."""
    from script.backend.llvm.interrupt import SIGINTS_SYMBOL
    return ctypes.c_int64.from_address(address[SIGINTS_SYMBOL]).value
