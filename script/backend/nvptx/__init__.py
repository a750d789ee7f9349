"""The NVPTX backend: kernels (`@script.kernel`) to PTX for NVIDIA GPUs.

- `abi`:    the kernel's parameters (pointer, shape and strides per array) and the error
            record through which a kernel raises; no llvmlite, the launcher reads it too.
- `lower`:  IR -> LLVM IR for NVPTX, on top of the CPU backend's `FunctionLowering`.
- `target`: target machines, libdevice, optimization, PTX emission, ptxas.

Import `lower` and `target` only when compiling: they import llvmlite.
"""
