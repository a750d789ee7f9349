"""Lowering of verified IR to LLVM IR, and the process-wide JIT that loads the result.

Modules here import `llvmlite`; import them only when compiling, so that `import script`
stays cheap.

- `builder`:  LLVM IR written directly as text: values, functions, blocks, the module.
- `abi`:      the native calling convention of lowered functions (the `Env` record that
              carries exceptions out without the GIL), type mapping.
- `arith`:    integer and float arithmetic with Python's semantics.
- `mathlib`:  `math.F` as LLVM intrinsics or libm calls.
- `lower`:    functions, blocks, branches, calls, checks.
- `interrupt`: lowering of `poll` (Ctrl-C checks); which code may run long (the GIL).
- `jit`:      target machine, optimization, object emission, linking into the JIT.
"""
