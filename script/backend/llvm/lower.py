"""Lowering of verified IR functions to LLVM IR (the ABI is described in `abi`).

Requires: every function is verified (script.ir.verifier). Guarantees: the LLVM function of
each IR function reachable from the entry, with its calling convention from `abi`; blocks are
lowered in reverse postorder, so every operand is lowered before its use, and unreachable
blocks are dropped. Block parameters become phis, except those of type ``none`` (their value
is the constant ``{}``). One IR block may become several LLVM blocks (a `check` or a call of
a raising function splits it), so phi edges record the LLVM block that ends the IR block.
Raises whose message takes no run-time value share one block per exception and message.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from script.ir import types as T
from script.ir.core import COLD, PARALLEL, ROWS_LATCH, Block, Const, Function, Instr, Value, reachable_blocks
from script.ir.analysis import written_array_params
from script.ir.dom import DomTree
from script.ir.list_flow import param_list_effects
from script.ir.ops import EXCEPTIONS, STR_PY, ExcInfo
from script.ir.semantics import fold
from script.backend.llvm import (arith, arrays, blas, caught, complex_arith, hashing, interrupt, lists, mathlib,
                                 memory, overflow, refcount, rng, strings)
from script.backend.llvm import builder as llvm
from script.backend.llvm import parallel
from script.backend.llvm.abi import (
    ENV_ARGS, ENV_EXC, ENV_FMT, ENV_STACK, ENV_STATUS, FN_PREFIX, MAX_MESSAGE_ARGS, PRINT_SYMBOL, RECURSION_MESSAGE,
    KERNEL_SYMBOL, KINDS_END, LIKELY as _LIKELY, NONE_VALUE, UNLIKELY,
    REFLECT_SYMBOL, WRITTEN_SYMBOL, reflect_mask, reflected_params, compute_may_raise, has_arrays, encode_message, kernel_name, llvm_type, native_signature,
    reachable_functions, recursive_functions)
from script.backend.llvm.builder import NULL, Builder, NativeModule
from script.store import signature_symbol

# The loop property of a jammed rows loop's back edge (ir.core ROWS_LATCH): vectorized along
# its counter, each row's in-order float sum takes one dependent add per element; the SLP
# vectorizer packs the rows instead, one row a lane (the spectral norm without its overflow
# tests: 2.7 -> 1.3 ms; benchmarks/README.md, section 11's fifth pass).
_NO_VECTORIZE = '!{!"llvm.loop.vectorize.enable", i1 false}'


@dataclass
class LoweredModule:
    """The LLVM functions of a lowered entry: `native[id(f)]` for each function `f`."""

    entry: Function
    native: dict[int, llvm.Function]
    may_raise: set[int]
    recursive: set[int]

    @property
    def entry_native(self) -> llvm.Function:
        return self.native[id(self.entry)]


def lower_entry(m: NativeModule, entry: Function) -> LoweredModule:
    """Lower `entry` and everything it calls into `m`, and export `entry` (`export_entry`)."""
    funcs = reachable_functions(entry)
    lowered = LoweredModule(entry, {}, compute_may_raise(funcs), recursive_functions(funcs))
    used_names = set()
    for f in funcs:
        name = FN_PREFIX + f.name
        k = 1
        while name in used_names:       # distinct functions that share a name
            name = f"{FN_PREFIX}{f.name}.{k}"
            k += 1
        used_names.add(name)
        lowered.native[id(f)] = m.new_function(name, *native_signature(f.param_types, f.ret_type),
                                               attrs=_attributes(f))
    for f in funcs:
        FunctionLowering(m, lowered, f).run()
    recursive = any(c is entry for f in funcs for c in f.callees())
    export_entry(m, lowered.entry_native, entry.name, recursive)
    # the types it was compiled for, which loading its object code checks (loadpath)
    m.define_constant(llvm.int_const("i64", 1),      # (8 bytes: a 1-byte constant here broke
                                                      # the str constants after it: see the note)
                      signature_symbol(entry.name, entry.param_types, entry.ret_type))
    if has_arrays(entry.param_types):
        written = written_array_params(entry)
        assert all(k < 64 for k in written), "more than 64 parameters"
        m.define_constant(llvm.int_const("i64", sum(1 << k for k in written)), WRITTEN_SYMBOL)
    if reflected_params(entry.param_types):
        m.define_constant(llvm.int_const("i64", reflect_mask(entry.param_types, *param_list_effects(funcs))),
                          REFLECT_SYMBOL)
    return lowered


def _attributes(f: Function) -> tuple:
    """A library function marked out of line (ir.core `inline_mark`) is never inlined by
    LLVM either (which would copy it into every caller); a cold one is also laid out apart."""
    mark = f.inline_mark
    if mark is None:
        return ("nounwind",)
    return ("nounwind", "noinline", "cold", "minsize", "optsize") if mark == COLD else ("nounwind", "noinline")


def export_entry(m: NativeModule, native: llvm.Function, name: str, recursive: bool) -> None:
    """Export the entry function `name` as KERNEL_SYMBOL and `kernel_name(name)` (llvm.abi):
    aliases, or, for a recursive function, aliases of a function that calls it, so that its
    own recursive calls stay internal (LLVM may still drop their `env` and change their
    calling convention)."""
    if recursive:
        thunk = m.new_function(KERNEL_SYMBOL + ".thunk", native.ret, native.params)
        b = Builder(thunk, thunk.append_block("entry"))
        result = b.call(native, thunk.args)
        if result is None:
            b.ret_void()
        else:
            b.ret(result)
        native = thunk
    m.alias(KERNEL_SYMBOL, native)
    m.alias(kernel_name(name), native)


def store_exception(b: Builder, env: llvm.Value, exc_index: int, fmt: llvm.Value,
                    slots: list) -> None:
    """Record a pending exception in the Env: the slots the message uses, then the status
    (inline: a helper function would cost more code generation time than the stores)."""
    b.store_at(llvm.int_const("i32", exc_index), env, ENV_EXC)
    b.store_at(fmt, env, ENV_FMT)
    for k, a in enumerate(slots):
        b.store_at(a, env, ENV_ARGS + 8 * k)
    b.store_at(llvm.int_const("i32", 1), env, ENV_STATUS)


def load_status(b: Builder, env: llvm.Value) -> llvm.Value:
    """``env->status != 0``."""
    return b.icmp("ne", b.load_at("i32", env, ENV_STATUS), llvm.int_const("i32", 0))


class FunctionLowering:
    """Lowers one IR function into its (declared, empty) LLVM function."""

    def __init__(self, m: NativeModule, lowered: LoweredModule, func: Function):
        self.m = m
        self.lowered = lowered
        self.func = func
        self.fn = lowered.native[id(func)]
        self.env = self.fn.args[0]
        self.values: dict[int, llvm.Value] = {}
        self.blocks: dict[int, llvm.Block] = {}
        self.phis: dict[int, llvm.Phi] = {}
        self.b = Builder(self.fn)
        self.early: dict[int, llvm.Value] = {}   # results computed before their instruction
        self._unwind: llvm.Block | None = None
        self._raises: dict[tuple, llvm.Block] = {}    # shared blocks of constant raises
        self._cleanups: dict[tuple, llvm.Block] = {}  # shared releases before unwinding
        self._too_deep: dict[int, llvm.Block] = {}    # RecursionError raises, by unwind block
        self.rc = refcount.plan(func, self.may_raise)
        # calls whose exception goes to a handler of this function: `raised` follows them
        self.caught_calls = {id(b.instrs[k - 1]) for b in func.blocks for k, i in enumerate(b.instrs)
                       if i.opname == "raised"}

    def run(self) -> None:
        order = reachable_blocks(self.func)
        index = {id(block): k for k, block in enumerate(self.func.blocks)}
        recursive = id(self.func) in self.lowered.recursive
        # the calls tested against the stack limit before they run (emit_call_guard)
        self.guarded_calls = self.first_cycle_calls() if recursive and self.can_guard_calls() else None
        guard = self.fn.append_block("stack_guard") if recursive and self.guarded_calls is None else None
        for block in order:
            self.blocks[id(block)] = self.fn.append_block(f"bb{index[id(block)]}")
        if guard is not None:
            self.emit_stack_guard(guard, self.blocks[id(order[0])])
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
            if self.rc is not None:
                self.emit_rc(self.rc.start.get(id(block), ()))
            instrs = block.instrs
            k = 0
            while k < len(instrs):
                end = self.check_run(instrs, k)
                if end:
                    self.lower_check_run(instrs[k:end])
                    k = end
                elif (end := self.wrapped_index_run(instrs, k)):
                    self.lower_wrapped_index_check(instrs[k:end])
                    k = end
                else:
                    self.lower_instr(instrs[k])
                    k += 1

    def may_raise(self, i: Instr) -> bool:
        """Whether non-terminator `i` can raise (refcount.plan needs to know)."""
        if i.opname == "call":
            return id(i.attr) in self.lowered.may_raise
        return i.op.may_raise and not i.op.terminator

    def emit_rc(self, ops, cold: bool = False) -> None:
        for kind, v in ops:
            if v.type == T.EXC:
                caught.emit_rc(self.m, self.b, self.env, kind, self.value(v))
            else:
                memory.emit_rc(self.m, self.b, kind, self.value(v), v.type, cold)

    def cleanup(self, i: Instr) -> list:
        """The owned values to release when `i` raises (refcount)."""
        return self.rc.cleanup.get(id(i), []) if self.rc is not None else []

    def can_guard_calls(self) -> bool:
        """Whether this recursive function tests the stack before its calls on a call cycle
        instead of on entry (abi.py, "Deep recursion"). It may when every such call is a
        plain one, whose RecursionError may leave the function (a call inside a ``try``
        goes to a handler here; a prange loop's chunks run on other threads). It gains
        when a frame can return having neither called nor raised (fib's ``n < 2``): only
        there can LLVM leave out the prologue. Elsewhere (Ackermann's ``n + 1`` may raise
        OverflowError) the prologue stays on entry, and tests before calls cost LLVM a
        callee-saved register there (1.75x -> 2.0x C): the test stays on entry too."""
        recursive = self.lowered.recursive
        if any(i.opname == "call" and id(i.attr) in recursive
               and (i.attr.inline_mark == PARALLEL or id(i) in self.caught_calls)
               for i in self.func.instructions()):
            return False
        seen, work = set(), [self.func.entry]
        while work:
            block = work.pop()
            if id(block) in seen:
                continue
            seen.add(id(block))
            body = block.instrs[:-1]
            if any(self.may_raise(i) or i.opname == "call" for i in body):
                continue
            if block.instrs[-1].opname == "ret":
                return True
            work.extend(block.succs)
        return False

    def first_cycle_calls(self) -> set[int]:
        """The calls on a call cycle that no other such call dominates: the stack pointer
        is the same all through a frame, so one passed test covers the calls after it."""
        recursive, dom = self.lowered.recursive, DomTree(self.func)
        calls = {}
        for block in dom.order:
            for i in block.instrs:
                if i.opname == "call" and id(i.attr) in recursive:
                    calls.setdefault(block, i)       # the first in its block
        return {id(i) for block, i in calls.items()
                if not any(other is not block and dom.dominates(other, block) for other in calls)}

    def stack_is_low(self) -> llvm.Value:
        """Whether this frame is below the Env's stack limit (abi.py)."""
        frame = self.b.call(self.m.intrinsic("llvm.stacksave.p0", "ptr", []), [])
        here = self.b.ptrtoint(frame, "i64")
        return self.b.icmp("ult", here, self.b.load_at("i64", self.env, ENV_STACK))

    def emit_stack_guard(self, guard: llvm.Block, body: llvm.Block) -> None:
        """RecursionError on entry when this frame is below the Env's stack limit."""
        self.b.position_at_end(guard)
        low = self.stack_is_low()
        deep = self.fn.append_block("too_deep")
        self.b.cbranch(low, deep, body, UNLIKELY)
        self.b.position_at_end(deep)
        self.emit_raise(ExcInfo("RecursionError", RECURSION_MESSAGE), [], None)

    def emit_call_guard(self, i: Instr) -> None:
        """RecursionError before call `i` (on a call cycle) when this frame is below the
        Env's stack limit, as CPython raises it at the call; the references `i` would
        release on raising are released. Tested here rather than on entry, a frame that
        returns without calling (fib's ``n < 2``) never reads the stack pointer, and LLVM
        saves the callee-saved registers only on the paths that call (shrink-wrapping: a
        read of the stack pointer needs the prologue before it)."""
        unwind = self.unwind_with_cleanup(i)
        deep = self._too_deep.get(id(unwind))
        if deep is None:
            here = self.b.block
            deep = self._too_deep[id(unwind)] = self.fn.append_block("too_deep")
            self.b.position_at_end(deep)
            self.emit_raise(ExcInfo("RecursionError", RECURSION_MESSAGE), [], None, unwind)
            self.b.position_at_end(here)
        cont = self.fn.append_block()
        self.b.cbranch(self.stack_is_low(), deep, cont, UNLIKELY)
        self.b.position_at_end(cont)

    # --- values ----------------------------------------------------------------------------

    def value(self, v: Value) -> llvm.Value:
        if isinstance(v.type, T.NoneType):
            return NONE_VALUE
        if isinstance(v, Const):
            return self.const(v)
        return self.values[id(v)]

    @staticmethod
    def const(c: Const) -> llvm.Value:
        lt = llvm_type(c.type)
        if isinstance(c.type, (T.IntType, T.BoolType)):
            return llvm.int_const(lt, int(c.value))
        if isinstance(c.type, T.ComplexType):
            return complex_arith.const(c.type, c.value)
        return llvm.float_const(lt, c.value)

    def unwind_block(self) -> llvm.Block:
        """Where a pending exception leaves this function: return an undefined value."""
        if self._unwind is None:
            self._unwind = self.fn.append_block("unwind")
            b = Builder(self.fn, self._unwind)
            if self.fn.ret == "void":
                b.ret_void()
            elif refcount.managed(self.func.ret_type):
                # zero: a caller catching the exception releases the value (a NULL owner)
                b.ret(llvm.Value(self.fn.ret, "null" if self.fn.ret == "ptr" else "zeroinitializer"))
            else:
                b.ret(llvm.undef(self.fn.ret))
        return self._unwind

    # --- instructions ----------------------------------------------------------------------

    def lower_instr(self, i: Instr) -> None:
        name = i.op.name
        if self.rc is not None:
            self.emit_rc(self.rc.before.get(id(i), ()))
        handler = _HANDLERS.get(name)
        folded = _folded_float(i)
        if folded is not None:
            result = self.const(folded)
        elif handler is not None:
            result = handler(self, i)
        elif isinstance(i.type, T.ComplexType) and i.op.result == "same":
            args = [self.value(v) for v in i.operands]
            result = complex_arith.lower_binary(self.b, name, i.type, *args) if len(args) == 2 \
                else complex_arith.lower_neg(self.b, i.type, *args)
        elif i.op.nargs == 2 and i.op.result == "same":
            x, y = (self.value(v) for v in i.operands)
            result = arith.lower_binary(self.m, self.b, name, i.operands[0].type, x, y)
        elif i.op.nargs == 1 and i.op.result == "same":
            result = arith.lower_unary(self.m, self.b, name, i.type, self.value(i.operands[0]))
        else:
            raise AssertionError(f"no lowering for {name}")
        if result is not None:
            self.values[id(i)] = result
        if self.rc is not None and not i.op.terminator:
            self.emit_rc(self.rc.after.get(id(i), ()))

    def _op_cmp(self, i: Instr):
        mod = _mod_by_constant(i)
        if mod is not None:
            dividend, k, c = mod
            return arith.lower_mod_cmp(self.b, i.attr, self.value(dividend), k, c)
        x, y = (self.value(v) for v in i.operands)
        t = i.operands[0].type
        if isinstance(t, T.ComplexType):
            return complex_arith.lower_cmp(self.b, i.attr, t, x, y)
        return arith.lower_cmp(self.b, i.attr, t, x, y)

    def _op_ovf(self, i: Instr):
        return overflow.lower_overflow(self.m, self.b, i.attr, [self.value(v) for v in i.operands[:-1]])

    def _op_convert(self, i: Instr):
        src = i.operands[0]
        if id(i) in self.early:
            return self.early[id(i)]
        if _is_range_checked(i):
            return arith.lower_exact_float_to_int(self.b, i.type, self.value(src))
        return arith.lower_convert(self.m, self.b, src.type, i.type, self.value(src))

    def _op_dim(self, i: Instr):
        return arrays.dim(self.b, self.value(i.operands[0]), i.attr)

    def _op_view(self, i: Instr):
        arr, *parts = i.operands
        return arrays.view(self.b, arr.type, self.value(arr), i.attr,
                           [self.value(v) for v in parts], i.type)

    def _op_transpose(self, i: Instr):
        return arrays.transpose(self.b, self.value(i.operands[0]), i.operands[0].type)

    def _op_part(self, i: Instr):
        return arrays.part(self.b, self.value(i.operands[0]), i.operands[0].type, i.attr)

    def _op_reshape(self, i: Instr):
        arr, *sizes = i.operands
        n = i.type.ndim
        dims = [self.value(d) for d in sizes[:n]]
        strides = [self.value(s) for s in sizes[n:]] or None
        return arrays.reshape(self.b, self.value(arr), i.type, dims, strides)

    def _op_stride(self, i: Instr):
        return arrays.stride(self.b, self.value(i.operands[0]), i.attr)

    def _op_overlap(self, i: Instr):
        a, c = i.operands
        return arrays.overlap(self.b, self.value(a), a.type, self.value(c), c.type)

    def _op_load(self, i: Instr):
        arr, *idx = i.operands
        return arrays.load(self.b, arr.type, self.value(arr), [self.value(v) for v in idx])

    def _op_store(self, i: Instr):
        arr, v, *idx = i.operands
        arrays.store(self.b, arr.type, self.value(arr), self.value(v),
                     [self.value(x) for x in idx])

    def _op_select(self, i: Instr):
        c, x, y = (self.value(v) for v in i.operands)
        return self.b.select(c, x, y)

    def _op_tuple(self, i: Instr):
        out = llvm.undef(llvm_type(i.type))
        for k, v in enumerate(i.operands):
            out = self.b.insert_value(out, self.value(v), k)
        return out

    def _op_complex(self, i: Instr):
        re, im = (self.value(v) for v in i.operands)
        return complex_arith.make(self.b, i.type, re, im)

    def _op_extract(self, i: Instr):
        return self.b.extract_value(self.value(i.operands[0]), i.attr, llvm_type(i.type))

    def _op_hash(self, i: Instr):
        k = i.operands[0]
        return hashing.lower_hash(self.m, self.b, k.type, self.value(k))

    def _op_pyhash(self, i: Instr):
        k = i.operands[0]
        return hashing.lower_pyhash(self.m, self.b, k.type, self.value(k))

    def _op_math(self, i: Instr):
        args = [self.value(v) for v in i.operands]
        return mathlib.lower_math(self.m, self.b, i.attr, i.type, args)

    def _op_call(self, i: Instr):
        callee: Function = i.attr
        if callee.inline_mark == PARALLEL:         # a prange loop's chunks (ir.parallel)
            return parallel.lower_parallel_call(self, i)
        if self.guarded_calls is not None and id(i) in self.guarded_calls:
            self.emit_call_guard(i)
        # `notail` on a call within a call cycle: LLVM would turn a tail call into a loop,
        # which never reaches a stack test again, so runaway recursion would spin (or
        # wrap around) where CPython raises RecursionError.
        call = self.b.call(self.lowered.native[id(callee)],
                           [self.env] + [self.value(v) for v in i.operands],
                           notail=id(callee) in self.lowered.recursive)
        if id(callee) in self.lowered.may_raise and id(i) not in self.caught_calls:
            cont = self.fn.append_block()
            self.b.cbranch(load_status(self.b, self.env), self.unwind_with_cleanup(i), cont, UNLIKELY)
            self.b.position_at_end(cont)
        return None if isinstance(callee.ret_type, T.NoneType) else call

    def _op_raised(self, i: Instr):
        call = i.block.instrs[i.block.instrs.index(i) - 1]
        if call.opname == "call" and id(call.attr) not in self.lowered.may_raise:
            return llvm.int_const("i1", 0)
        return self.b.call(self.m.intrinsic("llvm.expect.i1", "i1", ["i1", "i1"]),
                           [load_status(self.b, self.env), llvm.int_const("i1", 0)])

    def _op_catch(self, i: Instr):
        return caught.catch(self.b, self.env)

    def _op_exception(self, i: Instr):
        """The record `emit_raise` would store, as a value."""
        exc = i.attr
        exc_word, fmt, slots = EXCEPTIONS.index(exc.name), llvm.NULL, []
        if exc.message is not None:
            enc = encode_message(exc.message, len(i.operands), i.loc)
            fmt = self.m.cstring(enc.data())
            exc_word = enc.exc_word(exc_word)
            slots = self.message_slots(enc, i.operands)
        return caught.make(self.b, exc_word, fmt, slots)

    def _op_exc_match(self, i: Instr):
        return caught.match(self.b, self.value(i.operands[0]), i.attr)

    def _op_reraise(self, i: Instr):
        caught.reraise(self.b, self.env, self.value(i.operands[0]))
        self.b.branch(self.unwind_block())

    def unwind_with_cleanup(self, i: Instr) -> llvm.Block:
        """Where an exception pending after `i` leaves: the unwind block, through a block
        releasing what `i`'s cleanup list holds when it is not empty."""
        values = self.cleanup(i)
        if not values:
            return self.unwind_block()
        key = tuple(sorted(id(v) for v in values))
        block = self._cleanups.get(key)       # one per set of values: raises share it
        if block is None:
            here = self.b.block
            block = self._cleanups[key] = self.fn.append_block("cleanup")
            self.b.position_at_end(block)
            self.emit_rc([("decref", v) for v in values], cold=True)
            self.b.branch(self.unwind_block())
            self.b.position_at_end(here)
        return block

    def _op_alloc(self, i: Instr):
        fail = self.fn.append_block("no_memory")
        here = self.b.block
        self.b.position_at_end(fail)
        self.emit_raise(ExcInfo("MemoryError", None), [], i, self.unwind_with_cleanup(i))
        self.b.position_at_end(here)
        return memory.alloc(self.m, self.b, i.type, [self.value(v) for v in i.operands], fail)

    def _op_list_new(self, i: Instr):
        return lists.new(self.m, self.b)

    def _op_list_null(self, i: Instr):
        return NULL

    def _op_list_len(self, i: Instr):
        return lists.length(self.b, self.value(i.operands[0]))

    def _op_list_same(self, i: Instr):
        a, b = i.operands
        return self.b.icmp("eq", self.value(a), self.value(b))

    def _op_list_id(self, i: Instr):
        return self.b.ptrtoint(self.value(i.operands[0]), "i64")

    def _op_is_null(self, i: Instr):
        return self.b.icmp("eq", self.value(i.operands[0]), NULL)

    def _op_list_get(self, i: Instr):
        lst, index = i.operands
        return lists.get(self.b, lst.type, self.value(lst), self.value(index))

    def _op_list_set(self, i: Instr):
        lst, v, index = i.operands
        memory.replace_item(self.m, self.b, lst.type, self.value(lst), self.value(v), self.value(index))

    def _op_list_resize(self, i: Instr):
        lst, n = i.operands
        return memory.resize_list(self.m, self.b, lst.type, self.value(lst), self.value(n))

    def _op_str_const(self, i: Instr):
        return strings.constant(self.m, i.attr)

    def _op_str_new(self, i: Instr):
        fail = self.fn.append_block("no_memory")
        here = self.b.block
        self.b.position_at_end(fail)
        self.emit_raise(ExcInfo("MemoryError", None), [], i, self.unwind_with_cleanup(i))
        self.b.position_at_end(here)
        return strings.new(self.m, self.b, self.value(i.operands[0]), fail)

    def _op_str_char(self, i: Instr):
        fail = self.fn.append_block("no_memory")
        here = self.b.block
        self.b.position_at_end(fail)
        self.emit_raise(ExcInfo("MemoryError", None), [], i, self.unwind_with_cleanup(i))
        self.b.position_at_end(here)
        return strings.char(self.m, self.b, self.value(i.operands[0]), fail)

    def _op_str_concat(self, i: Instr):
        fail = self.fn.append_block("no_memory")
        here = self.b.block
        self.b.position_at_end(fail)
        self.emit_raise(ExcInfo("MemoryError", None), [], i, self.unwind_with_cleanup(i))
        self.b.position_at_end(here)
        a, b = (self.value(v) for v in i.operands)
        return strings.concat(self.m, self.b, a, b, fail)

    def _op_str_eq(self, i: Instr):
        a, b = (self.value(v) for v in i.operands)
        return strings.equal(self.m, self.b, a, b)

    def _op_str_len(self, i: Instr):
        return strings.length(self.b, self.value(i.operands[0]))

    def _op_str_get(self, i: Instr):
        s, index = i.operands
        return strings.get(self.b, self.value(s), self.value(index))

    def _op_str_set(self, i: Instr):
        s, code, index = i.operands
        strings.set_item(self.b, self.value(s), self.value(code), self.value(index))

    def _op_str_py(self, i: Instr):
        types, result = STR_PY[i.attr]
        unwind = None if id(i) in self.caught_calls else self.unwind_with_cleanup(i)
        operands = [strings.array_view(self.b, self.value(v), v.type) if t == "array" else self.value(v)
                    for v, t in zip(i.operands, types)]
        return strings.call_python(self.m, self.b, self.env, list(STR_PY).index(i.attr), operands,
                                   ["i64" if t == "array" else t for t in types], result, unwind)

    def _op_rng_state(self, i: Instr):
        return rng.state_view(self.m, i.attr, i.type)

    def _op_poll(self, i: Instr):
        due = self.value(i.operands[0]) if i.operands else None
        interrupt.emit_poll(self.m, self.b, self.env, self.unwind_with_cleanup(i), due)

    def _op_gemm(self, i: Instr):
        c, a, b = (self.value(v) for v in i.operands)
        return blas.lower_gemm(self.m, self.b, self.fn, c, a, b, tuple(v.type for v in i.operands))

    def _op_lapack(self, i: Instr):
        from script.backend.llvm.lapack import lower_lapack
        return lower_lapack(self.m, self.b, i.attr, [self.value(v) for v in i.operands])

    def _op_const_array(self, i: Instr):
        data = self.m.constant_data(i.attr.data or b"\0")
        return arrays.static_array(self.b, i.type, data, list(i.attr.shape))

    def _op_print(self, i: Instr):
        """A call of the runtime's ``script.print`` (runtime.entry) with the message's slots."""
        enc = encode_message(i.attr, len(i.operands), i.loc)
        enc = replace(enc, kinds=enc.kinds or bytes(4 * len(enc.slots)))
        slots = [self.b.ptrtoint(s, "i64") if s.type == "ptr" else s for s in self.message_slots(enc, i.operands)]
        slots += [llvm.int_const("i64", 0)] * (MAX_MESSAGE_ARGS - len(slots))
        # script.print always reads the kinds, up to KINDS_END: a print without slots too
        # (read past "big\n", whatever followed the constant could say SLOT_STR)
        fmt = self.m.cstring(enc.fmt + b"\0" + enc.kinds + bytes([KINDS_END]))
        fn = self.m.declare(PRINT_SYMBOL, "void", ["ptr", "i32", "ptr"] + ["i64"] * MAX_MESSAGE_ARGS,
                            attrs=("nounwind", "cold"))
        self.b.call(fn, [self.env, llvm.int_const("i32", len(enc.fmt) + 1), fmt, *slots])

    def check_run(self, instrs: list[Instr], k: int) -> int:
        """The end of a run of `check`s starting at ``instrs[k]`` that `lower_check_run`
        tests with one compare: the checks of Python's ``int(x)`` of a float (NaN,
        infinity, range: `_float_special_test`, `_float_range_test`) with only
        speculatable instructions (`_is_speculatable`) between them, none of them followed
        by reference counting (a check's own cleanup on raising is its slow path's
        business); 0 when there is no such run. Other checks stay one branch each: a
        loop-invariant bounds check or'ed with a varying one could no longer leave its
        loop (k-means and a 2-d convolution ran 4-6% slower so)."""
        if instrs[k].opname != "check":
            return 0
        end = 0
        ranged = set()
        special = set()
        for j in range(k, len(instrs)):
            i = instrs[j]
            if self.rc is not None and self.rc.after.get(id(i)):
                break       # a release before a later check would change what it cleans up
            if i.opname == "check":
                r = _float_range_test(i.operands[0])
                x = id(r[0]) if r is not None else _float_special_test(i.operands[0])
                if x is None:
                    break
                (ranged if r is not None else special).add(x)
                end = j + 1
            elif not _is_speculatable(i):
                break
        return end if len(ranged) == 1 and special <= ranged and end - k > 1 else 0

    def lower_check_run(self, run: list[Instr]) -> None:
        """The checks of ``int(x)`` (`check_run`) as one branch on ``|x| >= T`` (unordered),
        which every one of them failing implies, to a cold block that tests them again in
        order, so that the first one failing raises, as before, and none failing goes on.
        The instructions between them are computed first: they cannot trap or make poison
        (arith.py), so computing them when an earlier check would have raised changes
        nothing. Why: the three checks were three branches and five compares on the hot
        path (LLVM does not fold them: it splits an ``or`` of them into branches again); a
        histogram's binning loop ran 1.25x faster with one (with `_is_range_checked`)."""
        tests = _check_only(run)
        for i in run:
            if i.opname != "check" and id(i) not in tests:
                self.lower_instr(i)
        ranges = [r for r in (_float_range_test(i.operands[0]) for i in run if i.opname == "check") if r]
        x = ranges[0][0]
        t = min(r[1] for r in ranges)
        conv = self._truncating_convert(run, x, t)
        if conv is not None:
            # x86's cvttsd2si gives INT64_MIN for NaN, the infinities and whatever is out of
            # range, and for -2**63 itself (which the checks, tested again, let through)
            vec = self.b.insert_element(llvm.undef("<2 x double>"), self.value(x), 0)
            cvt = self.m.intrinsic("llvm.x86.sse2.cvttsd2si64", "i64", ["<2 x double>"])
            self.early[id(conv)] = converted = self.b.call(cvt, [vec])
            fails = self.b.icmp("eq", converted, llvm.int_const("i64", -(1 << 63)))
        else:
            # |x| >= T, unordered: true for NaN, the infinities and whatever is out of range
            fabs = self.b.call(arith._float_intrinsic(self.m, "fabs", x.type, 1), [self.value(x)])
            fails = self.b.fcmp("uge", fabs, llvm.float_const(fabs.type, t))
        slow = self.fn.append_block("checks")
        cont = self.fn.append_block()
        self.b.cbranch(fails, slow, cont, UNLIKELY)
        self.b.position_at_end(slow)
        for i in run:
            if i.opname == "check" or id(i) in tests:
                self.lower_instr(i)
        self.b.branch(cont)
        self.b.position_at_end(cont)

    def _truncating_convert(self, run: list[Instr], x: Value, t: float) -> Instr | None:
        """On x86-64, the ``convert %x : i64`` of a double that follows `run` (the checks of
        ``int(x)`` against exactly int64's range, [-2**63, 2**63)) in its block, to be
        computed before the checks by one ``cvttsd2si`` whose result tests them all
        (`lower_check_run`); None otherwise. The cold path tests the checks again, in
        order. Why: the test ``|x| >= 2**63`` was three instructions beside the conversion, on a
        histogram's binning loop, and comparing the conversion's result with INT64_MIN is
        one."""
        if not (self.m.triple.startswith("x86_64") and x.type == T.F64):
            return None
        if any(i.opname == "check" and _float_range_test(i.operands[0]) is not None
               and _float_range_bounds(i.operands[0]) != (-2.0 ** 63, 2.0 ** 63) for i in run):
            return None
        instrs = run[0].block.instrs
        for i in instrs[instrs.index(run[-1]) + 1:]:
            if i.opname == "convert" and i.operands[0] is x:
                return i if i.type == T.I64 and _is_range_checked(i) else None
            if i.op.terminator:
                return None
        return None

    def wrapped_index_run(self, instrs: list[Instr], k: int) -> int:
        """`_wrapped_index_check`'s run from ``instrs[k]``, when no reference is counted
        around its instructions (0 otherwise)."""
        end = _wrapped_index_check(instrs, k)
        if end and self.rc is not None and any(
                self.rc.before.get(id(i)) or self.rc.after.get(id(i)) for i in instrs[k:end]):
            return 0
        return end

    def lower_wrapped_index_check(self, run: list[Instr]) -> None:
        """NumPy's negative-index fix-up and the bounds check after it
        (`_wrapped_index_check`: ``%j = select (%x < 0), %x + %n, %x``, then a check that
        ``%j < 0 or %j >= %n``) as one unsigned compare ``%x <u %n`` on the hot path, which
        holds exactly when %x is an index in [0, n) (n, an axis length, is >= 0); otherwise
        a cold block computes ``%x + %n`` and raises unless it is in [0, n) (then %x was a
        negative index from the end; for %x >= n, %x + n is >= n or wraps below 0). %j is
        the phi of the two. Why: LLVM makes the fix-up a shift, an ``and`` and an add before
        the compare (four instructions on every index), and an unproven index is mostly
        >= 0: a histogram's ``counts[b] += 1`` with `b` from data."""
        select, check = run[0], run[-1]
        for i in run[1:-1]:
            if not _is_wrap_chain(i, check):
                self.lower_instr(i)
        x, n = (self.value(v) for v in _wrap_parts(select))
        here = self.b.block
        slow = self.fn.append_block("negative_index")
        cont = self.fn.append_block()
        self.b.cbranch(self.b.icmp("ult", x, n), cont, slow, _LIKELY)
        self.b.position_at_end(slow)
        wrapped = self.b.add(x, n)
        self.raise_if(self.b.icmp("uge", wrapped, n), check)
        end = self.b.block
        self.b.branch(cont)
        self.b.position_at_end(cont)
        j = self.b.phi(x.type)
        j.add_incoming(x, here)
        j.add_incoming(wrapped, end)
        self.values[id(select)] = j

    def _op_check(self, i: Instr):
        self.raise_if(self.value(i.operands[0]), i)

    def raise_if(self, cond: llvm.Value, i: Instr) -> None:
        """Raise the exception of check `i` when `cond` (an LLVM i1) holds; continue in a new
        block otherwise."""
        args = i.operands[1:]
        cont = self.fn.append_block()
        raise_block = self.shared_raise(i, args) if not self.cleanup(i) else None
        if raise_block is None:
            raise_block = self.fn.append_block("raise")
            self.b.cbranch(cond, raise_block, cont, UNLIKELY)
            self.b.position_at_end(raise_block)
            self.emit_raise(i.attr, args, i, self.unwind_with_cleanup(i))
        else:
            self.b.cbranch(cond, raise_block, cont, UNLIKELY)
        self.b.position_at_end(cont)

    def _op_raise(self, i: Instr):
        raise_block = self.shared_raise(i, i.operands)
        if raise_block is None:
            self.emit_raise(i.attr, i.operands, i, self.unwind_with_cleanup(i))
        else:
            self.b.branch(raise_block)

    def shared_raise(self, i: Instr, args: list[Value]) -> llvm.Block | None:
        """The one block raising the exception of `i` when its message takes no run-time
        values (every ``math domain error`` of a function shares it), or None when it does."""
        if args:
            return None
        exc = i.attr
        key = (exc.name, exc.message)
        block = self._raises.get(key)
        if block is None:
            block = self._raises[key] = self.fn.append_block("raise")
            here = self.b.block
            self.b.position_at_end(block)
            self.emit_raise(exc, [], i)
            self.b.position_at_end(here)
        return block

    def emit_raise(self, exc: ExcInfo, args: list[Value], i: Instr, unwind=None) -> None:
        """Record `exc` with message arguments `args` in the Env, then unwind (through
        `unwind`, a block releasing what is held, when given)."""
        slots = []
        fmt = llvm.NULL
        exc_word = EXCEPTIONS.index(exc.name)
        if exc.message is not None:
            enc = encode_message(exc.message, len(args), i.loc if i is not None else None)
            fmt = self.m.cstring(enc.data())
            exc_word = enc.exc_word(exc_word)
            slots = self.message_slots(enc, args)
        store_exception(self.b, self.env, exc_word, fmt, slots)
        self.b.branch(unwind or self.unwind_block())

    def message_slots(self, enc, args: list[Value]) -> list[llvm.Value]:
        """The values of an encoded message's slots: its strings' addresses, its operands
        widened (`widen`)."""
        return [self.m.cstring(s) if isinstance(s, bytes) else self.widen(args[s]) for s in enc.slots]

    def widen(self, v: Value) -> llvm.Value:
        """A message operand as its i64 slot: ints extended by their sign, floats' bits."""
        x = self.value(v)
        if isinstance(v.type, T.TextType):      # the slot holds a reference (abi.SLOT_STR)
            strings.emit_rc(self.m, self.b, "incref", x)
            return self.b.ptrtoint(x, "i64")
        if x.type == "i64":
            return x
        if x.type == "double":
            return self.b.bitcast(x, "i64")
        return self.b.sext(x, "i64") if arith.is_signed(v.type) else self.b.zext(x, "i64")

    def _op_ret(self, i: Instr):
        if isinstance(self.func.ret_type, T.NoneType):
            self.b.ret_void()
        else:
            self.b.ret(self.value(i.operands[0]))

    def _op_br(self, i: Instr):
        self.b.branch(self.edge(i, 0))
        if i.block.name == ROWS_LATCH:
            self.b.block.lines[-1] += f", !llvm.loop {self.m.loop_metadata(_NO_VECTORIZE)}"

    def edge(self, i: Instr, k: int) -> llvm.Block:
        """The LLVM block the k-th edge of terminator `i` jumps to, its phis fed: the
        target's, or a block counting the references the edge passes (refcount) first."""
        ops = self.rc.edge.get((id(i.block), k)) if self.rc is not None else None
        target = i.succs[k]
        if not ops:
            self.add_edge(target, i.succ_args(k))
            return self.blocks[id(target)]
        here = self.b.block
        block = self.fn.append_block("edge")
        self.b.position_at_end(block)
        self.emit_rc(ops)
        self.add_edge(target, i.succ_args(k))
        self.b.branch(self.blocks[id(target)])
        self.b.position_at_end(here)
        return block

    def _op_cbr(self, i: Instr):
        cond = self.value(i.operands[0])
        then, other = i.succs
        if self.rc is not None and ((id(i.block), 0) in self.rc.edge or (id(i.block), 1) in self.rc.edge):
            self.b.cbranch(cond, self.edge(i, 0), self.edge(i, 1))
            return
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

    def add_edge_values(self, target: Block, args: list[llvm.Value]) -> None:
        for p, a in zip(target.params, args):
            phi = self.phis.get(id(p))
            if phi is not None:
                phi.add_incoming(a, self.b.block)


def _folded_float(i: Instr) -> Const | None:
    """The float an op of constants gives, computed as CPython computes it (ir.semantics,
    the constfold pass's own folding), or None. Lowering folds these at every
    level: LLVM would fold them itself, with NaN results whose sign bit it leaves
    unspecified where CPython has the machine's (``math.inf % 0.25``, ``inf - inf``: the sign
    bit set on x86-64, which ``math.copysign`` shows)."""
    if not (i.op.pure and i.has_result and isinstance(i.type, T.FloatType) and i.operands
            and all(isinstance(v, Const) for v in i.operands)):
        return None
    return fold(i.op.name, i.attr, i.type, i.operands)


def _mod_by_constant(cmp: Instr):
    """``(x, k, c)`` when `cmp` is ``cmp.eq``/``cmp.ne`` of ``mod x, k`` (signed ints, `k` a
    constant > 0 and not a power of two) with a constant `c` in ``[0, k)``, either way
    round: the shape `arith.lower_mod_cmp` lowers without the sign fix-up."""
    if cmp.attr not in ("eq", "ne"):
        return None
    for mod, c in (cmp.operands, reversed(cmp.operands)):
        if not (isinstance(mod, Instr) and mod.opname == "mod" and isinstance(c, Const)):
            continue
        x, k = mod.operands
        t = mod.type
        if (isinstance(t, T.IntType) and t.signed and isinstance(k, Const)
                and k.value > 0 and k.value & (k.value - 1) and 0 <= c.value < k.value):
            return x, k.value, c.value
    return None


def _float_range_bounds(c: Instr) -> tuple[float, float]:
    """(LO, HI) of a `_float_range_test` condition."""
    lt, ge = sorted(c.operands, key=lambda v: v.attr != "lt")
    return float(lt.operands[1].value), float(ge.operands[1].value)


def _check_only(run: list[Instr]) -> set[int]:
    """The ids of the instructions of `run` that only its checks use, directly or through
    other such instructions (the compares of ``int(x)``'s checks, their ``or``): computed in
    the cold block, as only a failing check needs them. (LLVM left one such compare, the
    lower bound of the range, on a histogram's hot path.)"""
    inside = {id(i) for i in run}
    only: set[int] = set()
    for i in reversed(run):
        if i.opname != "check" and i.uses and all(
                id(u) in inside and (u.opname == "check" or id(u) in only) for u in i.uses):
            only.add(id(i))
    return only


def _wrap_parts(select: Instr):
    """(%x, %n) when `select` is ``select (cmp.lt %x, 0), (add %x, %n), %x`` (either order of
    the add's operands), NumPy's fix-up of a negative index %x into an axis of length %n."""
    if select.opname != "select" or not isinstance(select.type, T.IntType) or select.type.bits != 64:
        return None
    neg, plus, x = select.operands
    if not (isinstance(neg, Instr) and neg.opname == "cmp" and neg.attr == "lt" and neg.operands[0] is x
            and isinstance(neg.operands[1], Const) and neg.operands[1].value == 0):
        return None
    if not (isinstance(plus, Instr) and plus.opname == "add" and x in plus.operands):
        return None
    n = plus.operands[1] if plus.operands[0] is x else plus.operands[0]
    return x, n


def _index_test(cond: Value, j: Value, n: Value) -> bool:
    """Whether `cond` is ``or (cmp.lt %j, 0), (cmp.ge %j, %n)`` (either order)."""
    if not (isinstance(cond, Instr) and cond.opname == "or" and len(cond.operands) == 2):
        return False
    lt, ge = sorted(cond.operands, key=lambda v: getattr(v, "attr", None) != "lt")
    return (all(isinstance(v, Instr) and v.opname == "cmp" for v in (lt, ge))
            and lt.attr == "lt" and lt.operands[0] is j and isinstance(lt.operands[1], Const)
            and lt.operands[1].value == 0 and ge.attr == "ge" and ge.operands[0] is j
            and ge.operands[1] is n)


def _is_wrap_chain(i: Instr, check: Instr) -> bool:
    """Whether `i` is one of the compares or the ``or`` of `check`'s index test."""
    cond = check.operands[0]
    return i is cond or any(i is v for v in cond.operands)


def _wrapped_index_check(instrs: list[Instr], k: int) -> int:
    """The end of the run from ``instrs[k]``, a negative-index fix-up `select` (`_wrap_parts`),
    to the IndexError `check` of its result against the same length in the same block, that
    `lower_wrapped_index_check` lowers as one compare; 0 when there is no such run. Between
    them may stand the check's compares and ``or`` (used by nothing else) and instructions
    that do not use the fix-up's result (they are lowered before the compare, as before).
    The check is the frontend's (`checked_index`: its message arguments are %x, the axis
    and %n), so %n is an axis length, >= 0 (a value CSE or forwarding put in place of the
    `dim` is that length, or the array would not exist)."""
    select = instrs[k]
    parts = _wrap_parts(select)
    if parts is None:
        return 0
    x, n = parts
    for j in range(k + 1, min(len(instrs), k + 8)):
        i = instrs[j]
        if i.opname == "check":
            cond = i.operands[0]
            if not (_index_test(cond, select, n) and i.attr.name == "IndexError" and len(i.operands) == 4
                    and i.operands[1] is x and i.operands[3] is n):
                return 0
            chain = [cond, *cond.operands]
            between = instrs[k + 1:j]
            if any(not any(c is b for b in between) for c in chain):
                return 0
            if any(not any(u is w for w in (i, *chain)) for c in chain for u in c.uses):
                return 0
            if any(any(v is select for v in b.operands) for b in between if not any(b is c for c in chain)):
                return 0
            return j + 1
        if i.op.terminator or not _is_speculatable(i):
            return 0
    return 0


def _is_speculatable(i: Instr) -> bool:
    """Whether `i` may run before the checks that precede it: it has no effect, cannot trap
    (no division) and makes no poison for any operand (arith.py), so a float -> int
    ``convert``, which `_is_range_checked` may lower to LLVM's ``fptosi``, is left out
    (`OpInfo.always_defined`)."""
    if i.opname == "convert":
        return not (isinstance(i.operands[0].type, T.FloatType) and isinstance(i.type, T.IntType))
    return i.op.always_defined


def _float_range_test(c: Value):
    """``(x, T)`` when `c` is ``or (cmp.lt %x, LO), (cmp.ge %x, HI)`` of a float with
    ``LO <= 0 < HI`` (``int(x)``'s range check): ``|x| < T`` for ``T = min(-LO, HI)`` then
    implies that it is false, and ``|x| >= T`` (unordered) holds for NaN and infinities too."""
    if not (isinstance(c, Instr) and c.opname == "or"
            and all(isinstance(v, Instr) and v.opname == "cmp" for v in c.operands)):
        return None
    lt, ge = sorted(c.operands, key=lambda v: v.attr != "lt")
    x = lt.operands[0]
    if not (lt.attr == "lt" and ge.attr == "ge" and ge.operands[0] is x
            and isinstance(x.type, T.FloatType) and isinstance(lt.operands[1], Const)
            and isinstance(ge.operands[1], Const) and lt.operands[1].value <= 0 < ge.operands[1].value):
        return None
    return x, min(-lt.operands[1].value, ge.operands[1].value)


def _float_special_test(c: Value) -> int | None:
    """id(x) when `c` is ``cmp.ne %x, %x`` (NaN) or ``cmp.eq (abs %x), inf`` of a float: a
    test that ``|x| >= T`` (unordered) implies for any finite T."""
    if not (isinstance(c, Instr) and c.opname == "cmp"):
        return None
    a, b = c.operands
    if c.attr == "ne" and a is b and isinstance(a.type, T.FloatType):
        return id(a)
    if (c.attr == "eq" and isinstance(a, Instr) and a.opname == "abs" and isinstance(b, Const)
            and b.value == float("inf") and isinstance(a.type, T.FloatType)):
        return id(a.operands[0])
    return None


def _is_range_checked(conv: Instr, window: int = 12) -> bool:
    """Whether `conv`, a float -> int ``convert``, follows in its block (within `window`
    instructions) both a ``check (cmp.ne %x, %x)`` and a ``check (or (cmp.lt %x, LO),
    (cmp.ge %x, HI))`` of its operand with ``[LO, HI)`` inside the target's range: Python's
    ``int(x)`` as the frontend lowers it. Past them %x is neither NaN nor out of range, so
    LLVM's plain ``fptosi`` is exact, and the saturating form (five more instructions a
    conversion, on the hot path of a histogram's binning) is not needed."""
    x = conv.operands[0]
    dst = conv.type
    if not (isinstance(dst, T.IntType) and isinstance(x.type, T.FloatType)):
        return False
    lo_min, hi_max = (-(1 << (dst.bits - 1)), 1 << (dst.bits - 1)) if dst.signed else (0, 1 << dst.bits)
    instrs = conv.block.instrs
    k = instrs.index(conv)
    nan = ranged = False
    for prev in reversed(instrs[max(0, k - window):k]):
        if prev.opname != "check":
            continue
        c = prev.operands[0]
        if not isinstance(c, Instr):
            continue
        if c.opname == "cmp" and c.attr == "ne" and c.operands[0] is x and c.operands[1] is x:
            nan = True
        elif c.opname == "or" and all(isinstance(v, Instr) and v.opname == "cmp" for v in c.operands):
            lt, ge = sorted(c.operands, key=lambda v: v.attr != "lt")
            if (lt.attr == "lt" and ge.attr == "ge" and lt.operands[0] is x and ge.operands[0] is x
                    and isinstance(lt.operands[1], Const) and isinstance(ge.operands[1], Const)
                    and lt.operands[1].value >= lo_min and ge.operands[1].value <= hi_max):
                ranged = True
    return nan and ranged


# op name -> the FunctionLowering method lowering it (``_op_<name>``); others are arith's.
_HANDLERS = {name[4:]: fn for name, fn in vars(FunctionLowering).items()
             if name.startswith("_op_")}
