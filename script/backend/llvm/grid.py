"""Kernels on the CPU: the kernel ops lowered for the host, and the grid driver around them.

Thread context. The CPU runs the threads of a launch one after another. The driver keeps the
current thread's coordinates in an extended `Env` (abi): a copy of the caller's Env, then
from `CONTEXT` on, i64 words tid x/y/z, ntid x/y/z, ctaid x/y/z, nctaid x/y/z and the address of
the block's shared memory. Every lowered function receives the Env, so ``sreg`` in the
kernel and in the device functions it calls is one load from it. ``shared`` is that block's
memory at an offset fixed per instruction (`SharedLayout`); ``atomic`` is the GPU's code
(llvm.atomics).

The driver is the library's ``script.kernel``: ``void(Env*, params..., i64 grid x, y, z,
i64 block x, y, z)``, so the ordinary CPython entry point of that signature (runtime.entry)
unboxes the arguments and raises what the kernel raised. For each block it runs each thread
in turn; for a kernel made resumable at its barriers (script.cuda.barriers) it runs rounds:
each unfinished thread until its next barrier or its end, until all are done, and raises
RuntimeError when the threads of a round stopped at different barriers. An exception in a
thread stops the launch.
"""

from __future__ import annotations

from script.ir import types as T
from script.ir.core import Function, Instr
from script.ir.ops import EXCEPTIONS
from script.backend.llvm import builder as llvm
from script.backend.llvm.abi import ENV_STACK, ENV_STATUS, itemsize, llvm_type
from script.backend.llvm.builder import Builder, NativeModule, int_const
from script.backend.llvm.lower import FunctionLowering, store_exception

from script.backend.llvm import abi as _abi

# The Env's size: its last field's offset + 8 (every field is at most 8 bytes).
ENV_SIZE = max(v for k, v in vars(_abi).items() if k.startswith("ENV_") and isinstance(v, int)) + 8
CONTEXT = (ENV_SIZE + 63) // 64 * 64
_REG_OFFSET = {f"{r}_{a}": CONTEXT + 8 * (3 * k + j)
               for k, r in enumerate(("tid", "ntid", "ctaid", "nctaid")) for j, a in enumerate("xyz")}
SHARED_PTR = CONTEXT + 8 * 12
CONTEXT_WORDS = SHARED_PTR // 8 + 1
DIVERGED = ("threads of a block stopped at different cuda.syncthreads() calls (on a GPU this "
            "is undefined behaviour)")


class SharedLayout:
    """Offsets of the `shared` instructions of a kernel in its block's shared memory."""

    def __init__(self, funcs: list[Function]):
        self.offsets: dict[int, int] = {}
        size = 0
        for f in funcs:
            for i in f.instructions():
                if i.opname == "shared":
                    self.offsets[id(i)] = size
                    n = itemsize(i.type.dtype)
                    for c in i.operands:
                        n *= c.value
                    size += (n + 15) // 16 * 16
        self.size = size


def cpu_lowering(layout: SharedLayout):
    """The `FunctionLowering` class for a kernel's functions on the CPU."""

    class CpuKernelLowering(FunctionLowering):
        def lower_instr(self, i: Instr) -> None:
            name = i.op.name
            if name == "sreg":
                self.values[id(i)] = self.b.load_at("i64", self.env, _REG_OFFSET[i.attr])
            elif name == "shared":
                from script.backend.llvm.arrays import static_array
                base = self.b.load_at("ptr", self.env, SHARED_PTR)
                data = self.b.offset(base, layout.offsets[id(i)])
                self.values[id(i)] = static_array(self.b, i.type, data, [c.value for c in i.operands])
            elif name == "atomic":
                from script.backend.nvptx.lower import emit_atomic
                self.values[id(i)] = emit_atomic(self, i)
            elif name == "barrier":
                raise AssertionError("barriers are split away before CPU lowering")
            else:
                super().lower_instr(i)

    return CpuKernelLowering


class _Loop:
    """``for i in range(n)`` in LLVM IR: `index` in the body, and i64 values `carried` around
    the loop (their phis; after `close(next_values)` they hold the final values)."""

    def __init__(self, b: Builder, n: llvm.Value, label: str, carried=()):
        self.b = b
        self.before = b.block
        self.head = b.fn.append_block(f"{label}.head")
        self.body = b.fn.append_block(f"{label}.body")
        self.exit = b.fn.append_block(f"{label}.exit")
        b.branch(self.head)
        b.position_at_end(self.head)
        self.index = b.phi("i64")
        self.index.add_incoming(int_const("i64", 0), self.before)
        self.carried = []
        for init in carried:
            phi = b.phi("i64")
            phi.add_incoming(int_const("i64", init), self.before)
            self.carried.append(phi)
        b.cbranch(b.icmp("ult", self.index, n), self.body, self.exit)
        b.position_at_end(self.body)

    def close(self, next_values=()) -> None:
        nxt = self.b.add(self.index, int_const("i64", 1))
        self.index.add_incoming(nxt, self.b.block)
        for phi, v in zip(self.carried, next_values):
            phi.add_incoming(v, self.b.block)
        self.b.branch(self.head)
        self.b.position_at_end(self.exit)


def _store_coords(b: Builder, ctx, linear, dims, base: int) -> None:
    """Store the x, y, z coordinates of `linear` in a box of `dims` at `ctx + base`."""
    x = b.urem(linear, dims[0])
    rest = b.udiv(linear, dims[0])
    b.store_at(x, ctx, base)
    b.store_at(b.urem(rest, dims[1]), ctx, base + 8)
    b.store_at(b.udiv(rest, dims[1]), ctx, base + 16)


def emit_driver(m: NativeModule, kernel: llvm.Function, param_types, layout: SharedLayout,
                resumable=None) -> llvm.Function:
    """The driver (see the module doc) calling the lowered `kernel`; `resumable` is the
    `barriers.Resumable` when the kernel was made resumable."""
    params = ["ptr"] + [llvm_type(t) for t in param_types] + ["i64"] * 6
    fn = m.new_function("script.driver", "void", params)
    b = Builder(fn, fn.append_block("entry"))
    env, args, dims = fn.args[0], fn.args[1:1 + len(param_types)], fn.args[1 + len(param_types):]
    grid, block = dims[:3], dims[3:]
    ctx = b._emit("ptr", f"alloca [{CONTEXT_WORDS} x i64], align 16")
    memcpy = m.intrinsic("llvm.memcpy.p0.p0.i64", "void", ["ptr", "ptr", "i64", "i1"])
    b.call(memcpy, [ctx, env, int_const("i64", ENV_SIZE), llvm.FALSE])
    for k in range(3):
        b.store_at(block[k], ctx, _REG_OFFSET["ntid_" + "xyz"[k]])
        b.store_at(grid[k], ctx, _REG_OFFSET["nctaid_" + "xyz"[k]])
    if layout.size:
        shared = b._emit("ptr", f"alloca [{layout.size} x i8], align 16")
        b.store_at(shared, ctx, SHARED_PTR)
    nthreads = b.mul(b.mul(block[0], block[1]), block[2])
    nblocks = b.mul(b.mul(grid[0], grid[1]), grid[2])
    failed = fn.append_block("failed")
    state = spills = None
    if resumable is not None:
        state = b._emit("ptr", f"alloca i64, i64 {nthreads.ref}, align 8")
        spills = [_spill_array(b, nthreads, resumable.int_slots, "i64"),
                  _spill_array(b, nthreads, resumable.float_slots, "double")]
    blocks = _Loop(b, nblocks, "block")
    _store_coords(b, ctx, blocks.index, grid, _REG_OFFSET["ctaid_x"])
    if resumable is None:
        threads = _Loop(b, nthreads, "thread")
        _store_coords(b, ctx, threads.index, block, _REG_OFFSET["tid_x"])
        b.call(kernel, [ctx, *args])
        _check_status(b, fn, ctx, failed)
        threads.close()
    else:
        _run_rounds(m, b, fn, kernel, ctx, env, args, block, nthreads, state, spills, failed)
    blocks.close()
    b.ret_void()
    b.position_at_end(failed)
    b.call(memcpy, [env, ctx, int_const("i64", ENV_STACK), llvm.FALSE])     # the exception
    b.ret_void()
    return fn


def _check_status(b: Builder, fn, ctx, failed) -> None:
    ok = fn.append_block("ok")
    b.cbranch(b.icmp("ne", b.load_at("i32", ctx, ENV_STATUS), int_const("i32", 0)), failed, ok, (1, 2000))
    b.position_at_end(ok)


def _spill_array(b: Builder, nthreads, slots: int, elem: str) -> llvm.Value:
    """A C array struct of shape (nthreads, max(slots, 1)) on the stack."""
    cols = max(slots, 1)
    count = b.mul(nthreads, int_const("i64", cols))
    data = b._emit("ptr", f"alloca {elem}, i64 {count.ref}, align 8")
    lt = "{ptr, ptr, [2 x i64], [2 x i64]}"
    out = b.insert_value(b.insert_value(llvm.undef(lt), llvm.NULL, 0), data, 1)
    for k, v in enumerate((nthreads.ref, str(cols), str(8 * cols), "8")):
        out = b._emit(lt, f"insertvalue {lt} {out.ref}, i64 {v}, {2 + k // 2}, {k % 2}")
    return out


def _run_rounds(m, b: Builder, fn, kernel, ctx, env, args, block, nthreads, state, spills, failed) -> None:
    """One block of a resumable kernel: rounds of every unfinished thread until all are done."""
    reset = _Loop(b, nthreads, "reset")
    b.store(int_const("i64", 0), b.gep("i64", state, reset.index), 8)
    reset.close()
    round_head = fn.append_block("round")
    b.branch(round_head)
    b.position_at_end(round_head)
    threads = _Loop(b, nthreads, "thread", carried=(0, 0))
    active, wait = threads.carried          # threads still running; the barrier they wait at
    slot = b.gep("i64", state, threads.index)
    st = b.load("i64", slot, 8)
    run, nxt = fn.append_block("run"), fn.append_block("next")
    skip_from = b.block
    b.cbranch(b.icmp("eq", st, int_const("i64", -1)), nxt, run)
    b.position_at_end(run)
    _store_coords(b, ctx, threads.index, block, _REG_OFFSET["tid_x"])
    r = b.call(kernel, [ctx, *args, st, *spills])
    _check_status(b, fn, ctx, failed)
    running = b.icmp("ne", r, int_const("i64", 0))
    b.store(b.select(running, r, int_const("i64", -1)), slot, 8)
    other = b.and_(b.icmp("ne", wait, int_const("i64", 0)), b.icmp("ne", wait, r))
    diverged = fn.append_block("diverged")
    same = fn.append_block("same")
    b.cbranch(b.and_(running, other), diverged, same, (1, 2000))
    b.position_at_end(same)
    active2 = b.add(active, b.zext(running, "i64"))
    wait2 = b.select(running, r, wait)
    b.branch(nxt)
    b.position_at_end(nxt)
    active3, wait3 = b.phi("i64"), b.phi("i64")
    for phi, a, c in ((active3, active, active2), (wait3, wait, wait2)):
        phi.add_incoming(a, skip_from)
        phi.add_incoming(c, same)
    threads.close([active3, wait3])
    again = b.icmp("ne", active, int_const("i64", 0))
    done = fn.append_block("block.done")
    b.cbranch(again, round_head, done)
    b.position_at_end(diverged)
    store_exception(b, env, EXCEPTIONS.index("RuntimeError"), m.cstring(DIVERGED.encode()), [])
    b.ret_void()
    b.position_at_end(done)
