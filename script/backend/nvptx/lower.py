"""Lowering of a verified kernel module to LLVM IR for the NVPTX target.

The functions are lowered by the CPU backend's `FunctionLowering` (the same arithmetic,
arrays, calls and checks), with two changes:

- `NvptxModule` sends math to libdevice: ``llvm.exp``, ``log``, ``pow``, ``sin``, ``cos``,
  ``tan``, … abort the process inside NVPTX code generation, and libm does not exist on a
  GPU, so those names become ``__nv_<name>`` (linked from libdevice by `target`);
- `KernelLowering` adds the kernel ops: ``sreg`` reads ``llvm.nvvm.read.ptx.sreg.*``,
  ``barrier`` is ``bar.sync 0``, ``shared`` an ``addrspace(3)`` global per instruction,
  ``atomic`` one atomic instruction (llvm.atomics).

`lower_kernel` adds the ``ptx_kernel`` entry (nvptx.abi describes its parameters and the
error record).
"""

from __future__ import annotations

from script.ir import types as T
from script.ir.core import Function, Instr
from script.backend.llvm import arrays
from script.backend.llvm import builder as llvm
from script.backend.llvm.abi import (
    ENV_ARGS, ENV_EXC, ENV_FMT, ENV_STATUS, FN_PREFIX, MAX_MESSAGE_ARGS, compute_may_raise, element_type,
    llvm_type, native_signature, reachable_functions, recursive_functions)
from script.backend.llvm.atomics import lower_atomic
from script.backend.llvm.builder import Builder, NativeModule, int_const
from script.backend.llvm.lower import FunctionLowering, LoweredModule
from script.backend.llvm.mathlib import LIBM
from script.backend.nvptx.abi import ERROR_SYMBOL, ERROR_WORDS, kernel_param_kinds, ptx_name

TRIPLE = "nvptx64-nvidia-cuda"

# Float intrinsics NVPTX has no lowering for (some abort the process): libdevice instead.
_TO_LIBDEVICE = ("exp", "exp2", "exp10", "log", "log2", "log10", "pow", "sin", "cos", "tan",
                 "powi", "sincos", "asin", "acos", "atan", "sinh", "cosh", "tanh")
_LIBM_NAMES = frozenset(set(LIBM.values()) | {n + "f" for n in LIBM.values()}
                        | {"fmod", "fmodf"})


class NvptxModule(NativeModule):
    """A module for the NVPTX target: math calls go to libdevice (`__nv_*`); any other
    external function is recorded in `foreign` (the kernel compile rejects it)."""

    has_libc = False

    def __init__(self, name: str, data_layout: str):
        super().__init__(name, TRIPLE, data_layout)
        self.foreign: list[str] = []
        self.shared_count = 0

    def add_global(self, name: str, definition: str) -> str:
        """Define the global `name` as ``@name = <definition>``; returns its reference."""
        ref = llvm.global_ref(name)
        self._declarations.append(f"{ref} = {definition}")
        return ref

    def intrinsic(self, name: str, ret: str, params):
        parts = name.split(".")
        if len(parts) == 3 and parts[1] in _TO_LIBDEVICE and parts[2] in ("f32", "f64"):
            return self.declare(f"__nv_{parts[1]}" + ("f" if parts[2] == "f32" else ""), ret, params)
        return super().intrinsic(name, ret, params)

    def declare(self, name: str, ret: str, params, var_arg: bool = False, attrs=()):
        if name in _LIBM_NAMES:
            name = "__nv_" + name
        elif not name.startswith(("llvm.", "__nv_")) and name not in self.foreign:
            self.foreign.append(name)
        return super().declare(name, ret, params, var_arg, attrs)

    def unroll_metadata(self) -> str:
        """A new loop identity asking LLVM to unroll by UNROLL (one per loop, as LLVM wants)."""
        return self.loop_metadata(f'!{{!"llvm.loop.unroll.count", i32 {UNROLL}}}')

    @property
    def strings(self) -> dict:
        """Constant C strings by content (exception messages), as `cstring` made them."""
        return self._strings


UNROLL = 4                  # the count asked of LLVM for small innermost loops (see below)
# An array's length on a GPU is below 2**48 (no GPU has 256 TiB). Said to LLVM, it proves
# that `i += stride` below a length cannot wrap, which it needs to count a grid-stride loop's
# trips and unroll it with a remainder (then the copies' loads come before their uses).
SHAPE_PARAM = "i64 range(i64 0, 281474976710656)"
_UNROLL_MAX_OPS = 40


class KernelLowering(FunctionLowering):
    """`FunctionLowering` plus the kernel ops, for the GPU.

    Small innermost loops without barriers are marked ``llvm.loop.unroll.count`` 4. A GPU
    thread issues its loads in order and waits for none until a value is used, so the copies
    of an unrolled grid-stride loop keep four loads in flight where the loop kept one; LLVM
    does not unroll such loops itself (their trip count needs a division by the stride).
    Each copy keeps its exit test, so nothing runs that the loop would not have run."""

    def run(self) -> None:
        self._unroll_latches = _small_loop_latches(self.func)
        super().run()

    def lower_instr(self, i: Instr) -> None:
        handler = _KERNEL_HANDLERS.get(i.op.name)
        if handler is None:
            super().lower_instr(i)
            if i.op.terminator and i.block in self._unroll_latches and self.b.block.lines[-1].startswith("  br "):
                self.b.block.lines[-1] += f", !llvm.loop {self.m.unroll_metadata()}"
            return
        result = handler(self, i)
        if result is not None:
            self.values[id(i)] = result

    def _kop_sreg(self, i: Instr):
        reg, axis = i.attr.split("_")
        fn = self.m.intrinsic(f"llvm.nvvm.read.ptx.sreg.{reg}.{axis}", "i32", [])
        return self.b.zext(self.b.call(fn, []), "i64")

    def _kop_barrier(self, i: Instr):
        self.b.call(self.m.intrinsic("llvm.nvvm.barrier.cta.sync.aligned.all", "void", ["i32"]),
                    [int_const("i32", 0)])

    def _kop_shared(self, i: Instr):
        t: T.ArrayType = i.type
        shape = [c.value for c in i.operands]
        count = 1
        for n in shape:
            count *= n
        ref = self.m.add_global(f"script.shared.{self.m.shared_count}", "internal addrspace(3) global "
                                f"[{count} x {element_type(t.dtype)}] undef, align 16")
        self.m.shared_count += 1
        data = llvm.Value("ptr", f"addrspacecast (ptr addrspace(3) {ref} to ptr)")
        return arrays.static_array(self.b, t, data, shape)

    def _kop_atomic(self, i: Instr):
        return emit_atomic(self, i)


def _small_loop_latches(func: Function) -> set:
    """The latches of `func`'s innermost loops of at most _UNROLL_MAX_OPS instructions with
    no barrier (unrolling a loop with a barrier is legal, but the copies only add code)."""
    from script.ir.dom import find_loops
    loops = find_loops(func)
    headers = {loop.header for loop in loops}
    latches = set()
    for loop in loops:
        if any(b is not loop.header and b in headers for b in loop.blocks):
            continue                            # not innermost
        ops = [i for b in loop.blocks for i in b.instrs]
        if len(ops) <= _UNROLL_MAX_OPS and not any(i.op.name == "barrier" for i in ops):
            latches.update(loop.latches)
    return latches


def emit_atomic(fl: FunctionLowering, i: Instr):
    arr = i.operands[0]
    nvals = 2 if i.attr == "cas" else 1
    values = [fl.value(v) for v in i.operands[1:1 + nvals]]
    idx = [fl.value(v) for v in i.operands[1 + nvals:]]
    ptr = arrays.element_address(fl.b, arr.type, fl.value(arr), idx)
    return lower_atomic(fl.m, fl.b, i.attr, arr.type.dtype, ptr, values)


_KERNEL_HANDLERS = {name[5:]: fn for name, fn in vars(KernelLowering).items()
                    if name.startswith("_kop_")}


def lower_functions(m: NativeModule, entry: Function, lowering=KernelLowering) -> LoweredModule:
    """Declare and lower `entry` and all it calls into `m` with the `lowering` class."""
    funcs = reachable_functions(entry)
    lowered = LoweredModule(entry, {}, compute_may_raise(funcs), recursive_functions(funcs))
    used = set()
    for f in funcs:
        name = FN_PREFIX + f.name
        k = 1
        while name in used:
            name = f"{FN_PREFIX}{f.name}.{k}"
            k += 1
        used.add(name)
        lowered.native[id(f)] = m.new_function(name, *native_signature(f.param_types, f.ret_type))
    for f in funcs:
        lowering(m, lowered, f).run()
    return lowered


def lower_kernel(m: NvptxModule, entry: Function) -> tuple[str, list[bytes]]:
    """Lower the kernel `entry` (returning none, no recursion, no tuple parameters) and its
    callees into `m`, with its ``ptx_kernel`` entry. Returns the entry's PTX name and the
    message table (the format of each exception message, by index)."""
    lowered = lower_functions(m, entry)
    name = ptx_name(entry.name)
    params = []
    for kind, t in kernel_param_kinds(entry.param_types):
        params.append("ptr addrspace(1)" if kind == "data" else SHAPE_PARAM if kind == "shape" else
                      "i8" if isinstance(t, T.BoolType) else llvm_type(t))
    # The calling convention goes where a linkage would: `define ptx_kernel void @k(...)`.
    fn = m.new_function(name, "void", params, linkage="ptx_kernel", attrs=())
    b = Builder(fn, fn.append_block("entry"))
    env = b.alloca("[7 x i64]")
    b.store(int_const("i32", 0), env)
    args = [env]
    pos = 0
    for t in entry.param_types:
        if isinstance(t, T.ArrayType):
            data = b._emit("ptr", f"addrspacecast ptr addrspace(1) {fn.args[pos].ref} to ptr")
            lt = llvm_type(t)
            out = b.insert_value(b.insert_value(llvm.undef(lt), llvm.NULL, 0), data, 1)
            for k in range(t.ndim):
                out = b._emit(lt, f"insertvalue {lt} {out.ref}, i64 {fn.args[pos + 1 + k].ref}, 2, {k}")
                out = b._emit(lt, f"insertvalue {lt} {out.ref}, i64 {fn.args[pos + 1 + t.ndim + k].ref}, 3, {k}")
            args.append(out)
            pos += 1 + 2 * t.ndim
        elif isinstance(t, T.BoolType):
            args.append(b.icmp("ne", fn.args[pos], int_const("i8", 0)))
            pos += 1
        else:
            args.append(fn.args[pos])
            pos += 1
    b.call(lowered.entry_native, args)
    messages = _emit_error_record(m, b, fn, env)
    b.ret_void()
    return name, messages


def _emit_error_record(m: NvptxModule, b: Builder, fn: llvm.Function, env) -> list[bytes]:
    """After the call: when an exception is pending, claim the error record and fill it."""
    record = m.add_global(ERROR_SYMBOL, f"addrspace(1) global [{ERROR_WORDS} x i64] zeroinitializer, align 8")
    raised, claim, done = fn.append_block("raised"), fn.append_block("claim"), fn.append_block("done")
    status = b.load_at("i32", env, ENV_STATUS)
    b.cbranch(b.icmp("ne", status, int_const("i32", 0)), raised, done)
    b.position_at_end(raised)
    pair = b._emit("{i64, i1}", f"cmpxchg ptr addrspace(1) {record}, i64 0, i64 1 monotonic monotonic")
    b.cbranch(b.extract_value(pair, 1, "i1"), claim, done)
    b.position_at_end(claim)
    word = lambda k: b._emit("ptr", f"getelementptr [{ERROR_WORDS} x i64], ptr addrspacecast "  # noqa: E731
                                    f"(ptr addrspace(1) {record} to ptr), i64 0, i64 {k}")
    b.store(b.zext(b.load_at("i32", env, ENV_EXC), "i64"), word(1))
    fmt = b.load_at("ptr", env, ENV_FMT)
    messages = list(m.strings)
    index = int_const("i64", -1)
    for k, data in enumerate(messages):
        hit = b.icmp("eq", fmt, m.strings[data])
        index = b.select(hit, int_const("i64", k), index)
    b.store(index, word(2))
    for k in range(MAX_MESSAGE_ARGS):
        b.store(b.load_at("i64", env, ENV_ARGS + 8 * k), word(3 + k))
    b.branch(done)
    b.position_at_end(done)
    return messages

