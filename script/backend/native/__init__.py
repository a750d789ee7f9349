"""Native code without LLVM: loading the object files the JIT emits (`elfload`), linking them
into shared objects that the system's loader loads (`elfso`), kept in the per-machine store
(script.store: the runtime library, entry points, shared objects of compiled code).

A cache hit or a `script.load` on this CPU loads saved code through script.loadpath, which
reads the store, and imports neither llvmlite.binding nor the frontend, nor this package;
whenever elfload and elfso decline (another architecture or OS, a relocation they do not
implement), the caller uses LLVM's linker. Both run where loadpath `is_supported`.
"""
