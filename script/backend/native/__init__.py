"""Native code without LLVM: loading the object files the JIT emits (`elfload`), and the
per-machine store of the objects every process needs (`store`: the runtime library, entry
points) with what LLVM said about this CPU.

A cache hit or a `script.load` on this CPU links saved object code with `elfload` and
imports neither llvmlite.binding nor the frontend; whenever the loader declines (another
architecture or OS, a relocation it does not implement), the caller uses LLVM's linker."""
