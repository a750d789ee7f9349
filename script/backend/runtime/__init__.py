"""The CPython side of native code: entry points generated in LLVM IR, and the callable type.

- `capi`:      C-API declarations for generated code, object layout, symbol addresses.
- `symbols`:   every external symbol the JIT binds (C-API and libm).
- `boxing`:    exact type matching, unboxing and boxing of arguments and results.
- `entry`:     the per-specialization entry point (a vectorcall) and exception raising.
- `library`:   `compile_native` / `load_native` and the `NativeLibrary` they return.
- `shared`:    the runtime library: functions every compiled library shares, compiled once.
- `interrupt`: Ctrl-C: the SIGINT hook in front of Python's, and `script.poll`.
- `dispatch`:  the instance layout and its vectorcall / GC functions, in LLVM IR.
- `pymodule`:  the runtime's extension module: the heap type and its instances, the SIGINT
               hook, dlopen (the load path, script.loadpath, uses it instead of ctypes).
"""
