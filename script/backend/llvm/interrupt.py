"""Lowering of `poll` (script.ir.interrupts), and which compiled code may run for long.

A `poll` compares the process-wide count of SIGINTs (``script.sigints``, defined in the
runtime library: runtime.interrupt) with the count the call has seen (``env->sigints``, set
by the entry point, llvm.abi) and, only when they differ, calls the runtime's
``script.poll(env)``; a nonzero result means a signal handler raised, and the function
unwinds. ``script.poll`` compares the counts itself too, and returns 0 at once when they
agree: ``poll %due`` calls it whenever `%due` holds, without the inline compare. The fast path is one atomic (``acquire``, a plain ``mov`` on x86-64, ``ldar`` on AArch64)
load of the count, one load from the Env and a compare: the atomic load keeps LLVM from
hoisting the check out of the loop, and its ordering keeps the loop's own loads after it
(a `while flag[1] == 0:` spin sees another thread's write: the GIL is released while
compiled code runs, so Python code may hand it work through an array). ``poll %due`` does all this only when `%due` is true
(a test of a loop counter's low bits: script.ir.interrupts).
"""

from __future__ import annotations

from script.ir.core import Function, reachable_blocks
from script.backend.llvm.abi import ENV_SIGINTS, UNLIKELY, recursive_functions
from script.backend.llvm.builder import Block, Builder, NativeModule, Value, int_const

SIGINTS_SYMBOL = "script.sigints"   # i64: SIGINTs received by this process (runtime.interrupt)
POLL_SYMBOL = "script.poll"         # i32 (Env *): runs Python's signal handlers; 1: one raised
# i8, defined by every library: its entry point's flags (runtime.entry): RELEASE_GIL, whether
# it releases the GIL; NO_TRACE, whether a call that raised may run again (ir.effects)
RELEASE_GIL_SYMBOL = "script.nogil"
RELEASE_GIL, NO_TRACE = 1, 2


def emit_poll(m: NativeModule, b: Builder, env: Value, unwind: Block,
              due: Value | None = None) -> None:
    """Check for a SIGINT at `b`'s position (only when the i1 `due` is true, if given: a
    branch weighted as seldom taken, so that LLVM lays the check out of the loop's way);
    go to `unwind` when a handler raised. `b` ends positioned in the block that continues."""
    fn = b.fn
    cont = fn.append_block()
    poll = m.declare(POLL_SYMBOL, "i32", ["ptr"], attrs=("nounwind", "cold"))
    if due is not None:
        # seldom due: the runtime compares the counts itself, one block fewer for LLVM
        # (about 1 ms of its time each in this build, NOTES.md)
        check = fn.append_block("poll")
        b.cbranch(due, check, cont, UNLIKELY)
        b.position_at_end(check)
    else:
        count = b.load_atomic("i64", m.declare_data(SIGINTS_SYMBOL, "i64"), 8, "acquire")
        seen = b.load_at("i64", env, ENV_SIGINTS)
        slow = fn.append_block("sigint")
        b.cbranch(b.icmp("ne", count, seen), slow, cont, UNLIKELY)
        b.position_at_end(slow)
    raised = b.call(poll, [env])
    b.cbranch(b.icmp("ne", raised, int_const("i32", 0)), unwind, cont)
    b.position_at_end(cont)


def can_run_long(funcs: list[Function]) -> bool:
    """Whether code made of `funcs` (closed under calls) may run for long: one of them has a
    loop (an edge back to a block no later in reverse postorder) or calls itself, directly
    or not. The entry point releases the GIL only for such code (runtime.entry)."""
    for f in funcs:
        order = reachable_blocks(f)
        index = {id(block): k for k, block in enumerate(order)}
        if any(index.get(id(s), len(order)) <= index[id(block)]
               for block in order for s in block.succs):
            return True
    return bool(recursive_functions(funcs))
