"""Native code without LLVM: loading the object files the JIT emits (`elfload`), linking them
into shared objects that the system's loader loads (`elfso`), and the per-machine store of
what every process needs (`store`: the runtime library, entry points, shared objects of
compiled code) with what LLVM said about this CPU.

A cache hit or a `script.load` on this CPU loads saved code as a shared object (or links it
with `elfload`) and imports neither llvmlite.binding nor the frontend; whenever these decline
(another architecture or OS, a relocation they do not implement), the caller uses LLVM's
linker."""

import functools
import os
import sys


@functools.cache
def is_supported() -> bool:
    """Whether this process can run what elfload and elfso make (Linux on x86-64)."""
    return sys.platform.startswith("linux") and os.uname().machine == "x86_64" \
        and sys.maxsize > 2**32
