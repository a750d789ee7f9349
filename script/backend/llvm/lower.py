"""Lowering of verified IR functions to LLVM IR (the ABI is described in `abi`).

Requires: every function is verified (script.ir.verifier). Guarantees: the LLVM function of
each IR function reachable from the entry, with its calling convention from `abi`; blocks are
lowered in reverse postorder, so every operand is lowered before its use, and unreachable
blocks are dropped. Block parameters become phis, except those of type ``none`` (their value
is the constant ``{}``). One IR block may become several LLVM blocks (a `check` or a call of
a raising function splits it), so phi edges record the LLVM block that ends the IR block.
"""

from __future__ import annotations

from dataclasses import dataclass

import llvmlite.ir as ir

from script.ir import types as T
from script.ir.core import Block, Const, Function, Instr, Value, reachable_blocks
from script.ir.ops import EXCEPTIONS, ExcInfo
from script.backend.llvm import arith, mathlib
from script.backend.llvm.abi import (
    ENV, ENV_ARGS, ENV_EXC, ENV_FMT, ENV_STATUS, FN_PREFIX, I32, I64, NONE_VALUE, PTR,
    NativeModule, branch_unlikely, compute_may_raise, const_int, encode_message, llvm_type,
    native_function_type, reachable_functions)


@dataclass
class LoweredModule:
    """The LLVM functions of a lowered entry: `native[id(f)]` for each function `f`."""

    entry: Function
    native: dict[int, ir.Function]
    may_raise: set[int]

    @property
    def entry_native(self) -> ir.Function:
        return self.native[id(self.entry)]

    @property
    def entry_may_raise(self) -> bool:
        return id(self.entry) in self.may_raise


def lower_entry(m: NativeModule, entry: Function) -> LoweredModule:
    """Lower `entry` and everything it calls into `m`."""
    funcs = reachable_functions(entry)
    lowered = LoweredModule(entry, {}, compute_may_raise(funcs))
    used_names = set()
    for f in funcs:
        name = FN_PREFIX + f.name
        k = 1
        while name in used_names:       # distinct functions that share a name
            name = f"{FN_PREFIX}{f.name}.{k}"
            k += 1
        used_names.add(name)
        lowered.native[id(f)] = m.new_function(name, native_function_type(f))
    for f in funcs:
        FunctionLowering(m, lowered, f).run()
    return lowered


def store_exception(b: ir.IRBuilder, env_arg: ir.Value, exc_index: int, fmt: ir.Value,
                    slots: list) -> None:
    """Record a pending exception in the Env (inline: a helper function would cost more
    code generation time than the stores)."""
    env = b.bitcast(env_arg, ENV.as_pointer())
    zero = ir.Constant(I32, 0)
    b.store(ir.Constant(I32, exc_index), b.gep(env, [zero, ir.Constant(I32, ENV_EXC)]))
    b.store(fmt, b.gep(env, [zero, ir.Constant(I32, ENV_FMT)]))
    for k, a in enumerate(slots):
        b.store(a, b.gep(env, [zero, ir.Constant(I32, ENV_ARGS), ir.Constant(I32, k)]))
    b.store(ir.Constant(I32, 1), b.gep(env, [zero, ir.Constant(I32, ENV_STATUS)]))


def load_status(b: ir.IRBuilder, env_arg: ir.Value) -> ir.Value:
    """``env->status != 0``."""
    env = b.bitcast(env_arg, ENV.as_pointer())
    zero = ir.Constant(I32, 0)
    status = b.load(b.gep(env, [zero, ir.Constant(I32, ENV_STATUS)]))
    return b.icmp_unsigned("!=", status, zero)


class FunctionLowering:
    """Lowers one IR function into its (declared, empty) LLVM function."""

    def __init__(self, m: NativeModule, lowered: LoweredModule, func: Function):
        self.m = m
        self.lowered = lowered
        self.func = func
        self.fn = lowered.native[id(func)]
        self.env = self.fn.args[0]
        self.values: dict[int, ir.Value] = {}
        self.blocks: dict[int, ir.Block] = {}
        self.phis: dict[int, ir.PhiInstr] = {}
        self.b = ir.IRBuilder()
        self._unwind: ir.Block | None = None

    def run(self) -> None:
        order = reachable_blocks(self.func)
        for block in order:
            name = f"bb{self.func.blocks.index(block)}"
            self.blocks[id(block)] = self.fn.append_basic_block(name)
        for p, arg in zip(self.func.params, self.fn.args[1:]):
            self.values[id(p)] = arg
        for block in order[1:]:
            self.b.position_at_end(self.blocks[id(block)])
            for p in block.params:
                if not isinstance(p.type, T.NoneType):
                    phi = self.b.phi(llvm_type(p.type))
                    self.phis[id(p)] = phi
                    self.values[id(p)] = phi
        for block in order:
            self.b.position_at_end(self.blocks[id(block)])
            for instr in block.instrs:
                self.lower_instr(instr)

    # --- values ----------------------------------------------------------------------------

    def value(self, v: Value) -> ir.Value:
        if isinstance(v.type, T.NoneType):
            return NONE_VALUE
        if isinstance(v, Const):
            return self.const(v)
        return self.values[id(v)]

    @staticmethod
    def const(c: Const) -> ir.Constant:
        lt = llvm_type(c.type)
        if isinstance(c.type, T.IntType):
            return const_int(lt, c.value)
        if isinstance(c.type, T.BoolType):
            return ir.Constant(lt, int(c.value))
        return ir.Constant(lt, c.value)

    def unwind_block(self) -> ir.Block:
        """Where a pending exception leaves this function: return an undefined value."""
        if self._unwind is None:
            self._unwind = self.fn.append_basic_block("unwind")
            b = ir.IRBuilder(self._unwind)
            ret = self.fn.function_type.return_type
            if isinstance(ret, ir.VoidType):
                b.ret_void()
            else:
                b.ret(ir.Constant(ret, ir.Undefined))
        return self._unwind

    # --- instructions ----------------------------------------------------------------------

    def lower_instr(self, i: Instr) -> None:
        name = i.opname
        handler = getattr(self, "_op_" + name, None)
        if handler is not None:
            result = handler(i)
        elif i.op.nargs == 2 and i.op.result == "same":
            x, y = (self.value(v) for v in i.operands)
            result = arith.lower_binary(self.m, self.b, name, i.operands[0].type, x, y)
        elif i.op.nargs == 1 and i.op.result == "same":
            result = arith.lower_unary(self.m, self.b, name, i.type, self.value(i.operands[0]))
        else:
            raise AssertionError(f"no lowering for {name}")
        if result is not None:
            self.values[id(i)] = result

    def _op_cmp(self, i: Instr):
        x, y = (self.value(v) for v in i.operands)
        return arith.lower_cmp(self.b, i.attr, i.operands[0].type, x, y)

    def _op_convert(self, i: Instr):
        src = i.operands[0]
        return arith.lower_convert(self.m, self.b, src.type, i.type, self.value(src))

    def _op_select(self, i: Instr):
        c, x, y = (self.value(v) for v in i.operands)
        return self.b.select(c, x, y)

    def _op_tuple(self, i: Instr):
        out = ir.Constant(llvm_type(i.type), ir.Undefined)
        for k, v in enumerate(i.operands):
            out = self.b.insert_value(out, self.value(v), k)
        return out

    def _op_extract(self, i: Instr):
        return self.b.extract_value(self.value(i.operands[0]), i.attr)

    def _op_math(self, i: Instr):
        args = [self.value(v) for v in i.operands]
        return mathlib.lower_math(self.m, self.b, i.attr, i.type, args)

    def _op_call(self, i: Instr):
        callee: Function = i.attr
        call = self.b.call(self.lowered.native[id(callee)],
                           [self.env] + [self.value(v) for v in i.operands])
        if id(callee) in self.lowered.may_raise:
            cont = self.fn.append_basic_block()
            branch_unlikely(self.b, load_status(self.b, self.env), self.unwind_block(), cont)
            self.b.position_at_end(cont)
        return None if isinstance(callee.ret_type, T.NoneType) else call

    def _op_check(self, i: Instr):
        cond, *args = i.operands
        cold = self.fn.append_basic_block("raise")
        cont = self.fn.append_basic_block()
        branch_unlikely(self.b, self.value(cond), cold, cont)
        self.b.position_at_end(cold)
        self.emit_raise(i.attr, args, i)
        self.b.position_at_end(cont)

    def _op_raise(self, i: Instr):
        self.emit_raise(i.attr, i.operands, i)

    def emit_raise(self, exc: ExcInfo, args: list[Value], i: Instr) -> None:
        """Record `exc` with message arguments `args` in the Env, then unwind."""
        slots = [ir.Constant(I64, 0)] * 4
        fmt = ir.Constant(PTR, None)
        if exc.message is not None:
            enc = encode_message(exc.message, len(args), i.loc)
            fmt = self.m.cstring(enc.fmt)
            for k, slot in enumerate(enc.slots):
                if isinstance(slot, bytes):
                    slots[k] = self.b.ptrtoint(self.m.cstring(slot), I64)
                else:
                    slots[k] = self.widen(args[slot])
        store_exception(self.b, self.env, EXCEPTIONS.index(exc.name), fmt, slots)
        self.b.branch(self.unwind_block())

    def widen(self, v: Value) -> ir.Value:
        x = self.value(v)
        if x.type.width == 64:
            return x
        return self.b.sext(x, I64) if arith.is_signed(v.type) else self.b.zext(x, I64)

    def _op_ret(self, i: Instr):
        if isinstance(self.func.ret_type, T.NoneType):
            self.b.ret_void()
        else:
            self.b.ret(self.value(i.operands[0]))

    def _op_br(self, i: Instr):
        self.add_edge(i.succs[0], i.succ_args(0))
        self.b.branch(self.blocks[id(i.succs[0])])

    def _op_cbr(self, i: Instr):
        cond = self.value(i.operands[0])
        then, other = i.succs
        if then is other:       # one LLVM edge: choose the arguments with selects
            args = [self.b.select(cond, self.value(x), self.value(y))
                    for x, y in zip(i.succ_args(0), i.succ_args(1))]
            self.add_edge_values(then, args)
            self.b.branch(self.blocks[id(then)])
            return
        self.add_edge(then, i.succ_args(0))
        self.add_edge(other, i.succ_args(1))
        self.b.cbranch(cond, self.blocks[id(then)], self.blocks[id(other)])

    def add_edge(self, target: Block, args: list[Value]) -> None:
        self.add_edge_values(target, [self.value(a) for a in args])

    def add_edge_values(self, target: Block, args: list[ir.Value]) -> None:
        for p, a in zip(target.params, args):
            phi = self.phis.get(id(p))
            if phi is not None:
                phi.add_incoming(a, self.b.block)
