"""The adjoint of one IR function: reverse mode as a transformation of the typed SSA IR.

`build_adjoint(primal, cache)` gives a new function ``F.adj(params..., shadows..., seed)``
that runs F (the forward sweep, F's own blocks, augmented) and then the reverse sweep, and
returns ``(value, adjoint of each float scalar parameter...)``; it adds the adjoints of the
float array parameters into their shadows (arrays of the same shape, owned by the caller).

The forward sweep is F with
- a *shadow* beside every float array value: a zeroed array for an `alloc` (and a parameter
  for a parameter), the same view/transpose/reshape/select of the source's shadow for a view,
  a shadow block parameter beside an array block parameter;
- an edge index parameter on each block with several incoming edges, so the reverse sweep
  knows which way control came (a control tape);
- pushes of the values the reverse sweep needs that it cannot use directly or recompute:
  each onto its own tape right after it is defined (`_tape`: an array grown by doubling for
  numbers, a list for arrays).

The reverse sweep has one block per block of F that reaches the return, undoing its
instructions in reverse order with the rules of script.autodiff.rules (memory and calls here),
then dispatching on the edge index to the reverse of the predecessor. The reverse of the
entry block returns. A value v defined in block D is *available* in the reverse sweep when D
runs at most once and dominates the return (it is still in its SSA register); otherwise a
cheap pure op is recomputed from operands at hand, a load is repeated when nothing can
have written its array since (`Activity.is_reloadable`), a loop counter is stepped back
(`_Counter`), and anything else is read from the top of v's tape (`peek`); the reverse of D
pops the tape when it leaves. Why peeking is right: the reverse of a block C that uses v
runs when the forward sweep is undone back to C, and then v's tape holds exactly the
instances made before C, the last of which C used.

Adjoints are variables of the reverse sweep, not memory (and a tape's buffer and count
are variables of both sweeps): each block reads and writes them in a map, and they are
joined into block parameters afterwards (every block that reads a variable it did not write
gets a parameter, fed from each predecessor; parameters that always hold one value are then
removed, `_prune_params`). An adjoint is reset to zero where its value's definition is
undone, so each loop iteration's instance starts from zero.

Arrays: a `load` of a float array adds the adjoint into the shadow at the same indices; a
`store` moves the shadow's element into the stored value's adjoint and zeroes it. The
values read before an overwrite are what the forward sweep pushed (loads are taped values),
so in-place updates (`x[i] += ...`) are exact. Two array parameters sharing memory would
share one shadow: the entry point refuses them (script.autodiff.entry).
"""

from __future__ import annotations

from script.errors import CompileError
from script.ir import types as T
from script.ir.core import (Block, BlockParam, Const, Function, Instr, Value,
                            reachable_blocks, replace_all_uses_with, set_terminator)
from script.ir.dom import DomTree
from script.ir.ops import OPS, ExcInfo
from script.autodiff.activity import Activity, is_float, is_float_array
from script.autodiff.rules import RULES
from script.autodiff.iteration import IterationShadows
from script.autodiff.window import Windows
from script.autodiff.tape import (push_function, reserve_function, reserve_nest_function,
                                  zeros_function)

# Pure ops the reverse sweep computes again from their operands rather than taping the
# result: cheaper than a push and a peek. Loads, calls, math functions and block parameters
# are taped.
RECOMPUTE = frozenset(("add", "sub", "mul", "neg", "and", "or", "xor", "not", "cmp", "select",
                       "convert", "min", "max", "abs", "dim", "stride", "view", "transpose",
                       "reshape", "shl", "shr"))
RECOMPUTE_DEPTH = 4
# The op that adds adjoints (ir.ops `acc`: an add LLVM may regroup). A gradient has no CPython
# result to match, and adding its contributions in another order is as right as any (torch
# and JAX do): the adjoint of a scalar used at every point of a loop (the heat equation's
# `k`) is then a sum LLVM splits into vector lanes, not a chain of one addition's latency a
# point. The forward sweep keeps the user's own adds, so the value is f's to the bit.
ACC = "acc"
TAPE_START = 16             # a tape's first capacity; it doubles when full

# Ops producing an array whose shadow is the same op on the source's shadow (operand 0).
MIRRORED = frozenset(("view", "transpose", "reshape"))


def adjoint_name(func: Function, wrt: set | None = None) -> str:
    """``F.adj`` for all of F's parameters, ``F.adj_0_2`` for parameters 0 and 2 (two
    gradients of one function in one `scriptc dump` differ in name where they may differ)."""
    if wrt is None:
        return f"{func.name}.adj"
    return f"{func.name}.adj_{'_'.join(str(k) for k in sorted(wrt))}"


def adjoint_of(func: Function, cache: dict, wrt: set | None = None) -> Function:
    """`func`'s adjoint, built once per `cache` (recursion: the function object is in the
    cache before its body is built)."""
    adj = cache.get(id(func))
    if adj is None:
        adj = build_adjoint(func, cache, wrt)
    return adj


def adjoint_result_type(func: Function) -> T.Type:
    """``(value, adjoint of each float scalar param)``: what `func`'s adjoint returns (its
    parameters: `func`'s, a shadow for each float array parameter, the seed)."""
    scalars = [t for t in func.param_types if is_float(t)]
    return T.TupleType([func.ret_type, *scalars])


def build_adjoint(primal: Function, cache: dict, wrt: set | None = None) -> Function:
    """The adjoint of `primal`. `wrt`: the indices of the parameters whose derivatives are
    wanted, when the caller also guarantees that its array parameters do not share memory
    (the entry point); None for all (a callee's adjoint)."""
    from script.ir.clone import copy_blocks
    if not is_float(primal.ret_type):
        raise CompileError(f"script.grad: cannot differentiate {primal.name.split('.')[0]}: its "
                           f"result is {primal.ret_type}, not a float", primal.loc)
    func = Function(adjoint_name(primal, wrt), [], adjoint_result_type(primal), primal.loc)
    func.blocks = []
    copy_blocks(primal, func, {}, {})        # a call of itself still calls the primal
    cache[id(primal)] = func
    _Builder(func, primal, cache, wrt).build()
    return func


class _Counter:
    """A loop counter stepped back in the reverse sweep: `var` (a variable of the reverse
    sweep, like an adjoint) holds the counter's value for the iteration being undone. It is
    set where the reverse sweep enters a run of the loop (from a loop exit: the value the
    counter had there, taped once per run), and stepped back by `steps[edge]` where the
    reverse of the header leaves along that back edge. With one entry and one back edge the
    header's edge index is not taped either: the first iteration is the one whose counter
    equals the entry value."""

    __slots__ = ("loop", "param", "steps", "inits", "var")

    def __init__(self, loop, param, steps, inits, var):
        self.loop, self.param, self.steps, self.inits, self.var = loop, param, steps, inits, var


class _Tape:
    """Where a value's instances are kept: `arr` and `n` (variables: the buffer and the count)
    for numbers, `lst` (a list) for arrays; `block` pushes it."""

    __slots__ = ("block", "arr", "n", "lst")

    def __init__(self, block, arr, n, lst):
        self.block, self.arr, self.n, self.lst = block, arr, n, lst


class _RevState:
    """A block's variables (adjoints, tape buffers and counts, counters): `defs` the current
    value of each (by id of its key value), `params` the block parameters made for variables
    read before written."""

    __slots__ = ("defs", "params")

    def __init__(self):
        self.defs: dict[int, Value] = {}
        self.params: dict[int, tuple[Value, BlockParam]] = {}


class _Builder:
    def __init__(self, func: Function, primal: Function, cache: dict, wrt: set | None):
        self.func = func
        self.wrt = wrt
        self.primal_func = primal
        self.cache = cache
        self.shadow: dict[int, Value] = {}
        self.edges: dict[Block, list[tuple[Block, int]]] = {}
        self.edge_param: dict[Block, BlockParam] = {}
        self.tapes: dict[tuple, _Tape] = {}
        self.peeks: dict[tuple[int, int], Value] = {}
        self.state: dict[Block, _RevState] = {}
        self.rev: dict[Block, Block] = {}
        self.zeros: dict[T.Type, Const] = {}
        self.cur: Block | None = None
        self.cur_fwd: Block | None = None        # the block whose reverse is being built
        self.counters: dict[int, _Counter] = {}
        self.hoisted: dict[tuple[int, int], tuple[Value, "_Tape", object]] = {}
        self.windows = Windows(self)
        self.iteration_shadows = IterationShadows(self)
        self.mem_block: Block | None = None     # `_memory`'s block and what it knows
        self.mem: dict[tuple, tuple] = {}

    # ---- the forward sweep -------------------------------------------------------------

    def build(self) -> None:
        f = self.func
        blocks = reachable_blocks(f)
        kept = set(blocks)
        for b in list(f.blocks):
            if b not in kept:
                f.remove_block(b)
        f.blocks = blocks
        self.exit = self._single_exit(blocks)
        _dedicated_exits(f)
        blocks = reachable_blocks(f)
        f.blocks = list(blocks)
        self.orig_instrs = {b: list(b.instrs) for b in blocks}
        self.local = _local_values(blocks)
        self.orig_params = {b: list(b.params) for b in blocks}
        nparams = len(f.params)
        self.scalar_params = [p for p in f.params if is_float(p.type)]
        for p in list(f.params):
            if is_float_array(p.type):
                self.shadow[id(p)] = f.entry.add_param(p.type, p.loc, f"d{p.name or ''}")
        self.seed = f.entry.add_param(self.primal_func.ret_type, f.loc, "seed")
        self.dom = DomTree(f)
        self.once = _acyclic_blocks(blocks)
        self.live = _reaching(blocks, self.exit)
        self._edge_indices(blocks)
        self._find_counters()
        self.iteration_shadows.find(blocks)
        self._shadows(blocks)
        self.act = Activity(f, blocks, self.orig_instrs, self.orig_params, self.ret_value,
                            nparams, self.wrt, self.wrt is not None)
        self.act.check_supported(self.refuse)
        self._reverse(blocks)

    def _single_exit(self, blocks: list[Block]) -> Block:
        rets = [b for b in blocks if b.terminator is not None and b.terminator.opname == "ret"]
        if not rets:
            raise CompileError("script.grad: the function never returns", self.func.loc)
        if len(rets) == 1:
            exit_ = rets[0]
            self.ret_value = exit_.terminator.operands[0]
            return exit_
        exit_ = self.func.add_block("exit")
        v = exit_.add_param(self.primal_func.ret_type)
        for b in rets:
            term = b.terminator
            set_terminator(b, "br", [term.operands[0]], [exit_], [1], term.loc)
        exit_.append(Instr("ret", [v], T.NONE, loc=self.func.loc))
        self.ret_value = v
        return exit_

    def _edge_indices(self, blocks: list[Block]) -> None:
        """Each block's incoming edges (predecessor, successor slot) in a fixed order; a block
        with several gets an i64 parameter, the index of the edge taken."""
        for b in blocks:
            self.edges[b] = []
        for p in blocks:
            term = p.terminator
            if term is None:
                continue
            for k, s in enumerate(term.succs):
                if s in self.edges:
                    self.edges[s].append((p, k))
        for b in blocks:
            edges = self.edges[b]
            if len(edges) < 2:
                continue
            self.edge_param[b] = b.add_param(T.I64, None, "edge")
            for n, (p, k) in enumerate(edges):
                p.terminator.add_succ_arg(k, Const(n, T.I64))

    def _find_counters(self) -> None:
        """Loop counters the reverse sweep steps back instead of taping (`_Counter`): an int
        parameter of a loop header that every back edge passes as ``add %p, C`` (C a nonzero
        constant), not used outside the loop, in a loop whose header dominates every exit."""
        from script.ir.dom import find_loops
        self.loops = find_loops(self.func, self.dom)
        for loop in self.loops:
            h = loop.header
            exits = [(b, s) for b in loop.blocks for s in b.succs if s not in loop.blocks]
            if any(s in self.live and not self.dom.dominates(h, s) for _, s in exits):
                continue
            for j, p in enumerate(self.orig_params[h]):
                if not isinstance(p.type, T.IntType):
                    continue
                steps, inits = {}, []
                for n, (pred, k) in enumerate(self.edges[h]):
                    a = pred.terminator.succ_args(k)[j]
                    if pred not in loop.blocks:
                        inits.append((n, a))
                    elif isinstance(a, Instr) and a.opname == "add" and a.operands[0] is p and \
                            isinstance(a.operands[1], Const) and a.operands[1].value != 0:
                        steps[n] = a.operands[1]
                    else:
                        break
                else:
                    if inits and steps and all(u.block in loop.blocks for u in p.uses):
                        self.counters[id(p)] = _Counter(loop, p, steps, inits, Value(p.type))

    def _shadows(self, blocks: list[Block]) -> None:
        """A shadow beside each float array value of the forward sweep (module docstring)."""
        array_params = []
        for b in blocks[1:]:
            for p in self.orig_params[b]:
                if is_float_array(p.type):
                    self.shadow[id(p)] = b.add_param(p.type, p.loc)
                    array_params.append((b, p))
        for b in blocks:
            for i in self.orig_instrs[b]:
                if i.has_result and is_float_array(i.type) and id(i) not in self.shadow:
                    self._shadow_instr(i)       # (not one made in the reverse: iteration.py)
        for b, p in array_params:          # in the order the shadow parameters were added
            idx = self.orig_params[b].index(p)
            for pred, k in self.edges[b]:
                arg = pred.terminator.succ_args(k)[idx]
                pred.terminator.add_succ_arg(k, self._shadow_of(arg, p))

    def _shadow_of(self, v: Value, user: Value) -> Value:
        sh = self.shadow.get(id(v))
        if sh is None:
            self.refuse(user, "script.grad: cannot follow this float array (it comes from a "
                              "container or a call)")
        return sh

    def _shadow_instr(self, i: Instr) -> None:
        block = i.block
        at = block.instrs.index(i) + 1
        if i.opname == "alloc":
            sh = Instr("call", list(i.operands), i.type, zeros_function(i.type, self.cache), i.loc)
        elif i.opname == "const_array":
            dims = [Const(n, T.I64) for n in i.attr.shape]
            t = i.type.with_layout("C")
            sh = Instr("call", dims, t, zeros_function(t, self.cache), i.loc)
        elif i.opname == "reshape" and len(i.operands) != 1 + i.type.ndim:
            # its strides are the primal's (NumPy's no-copy rule), not the shadow's
            self.refuse(i, "script.grad: cannot differentiate through a reshape that may be a view "
                           "of an array that is not C-contiguous (reshape a copy: `a.copy().reshape(...)`)")
        elif i.opname in MIRRORED:
            src = self._shadow_of(i.operands[0], i)
            sh = Instr(i.op, [src, *i.operands[1:]], i.type, i.attr, i.loc)
        elif i.opname == "select":
            c, a, b = i.operands
            sh = Instr("select", [c, self._shadow_of(a, i), self._shadow_of(b, i)], i.type, None, i.loc)
        else:
            self.refuse(i, f"script.grad: cannot differentiate through a float array made by "
                           f"`{i.opname}`")
        block.insert(at, sh)
        self.shadow[id(i)] = sh

    # ---- helpers the rules use ---------------------------------------------------------

    def refuse(self, v: Value, message: str):
        loc = getattr(v, "loc", None) or self.func.loc
        raise CompileError(message, loc)

    def const(self, value, t: T.Type) -> Const:
        if value == 0 and isinstance(t, T.FloatType):
            return self.zero(t)
        return Const(value, t)

    def zero(self, t: T.Type) -> Const:
        z = self.zeros.get(t)
        if z is None:
            z = self.zeros[t] = Const(0.0, t)
        return z

    def emit(self, op: str, operands: list, type: T.Type | None = None, attr=None) -> Instr:
        """A new instruction at the end of the block being built (`cur`). Loads and stores
        of shadows go through `shadow_load` and `shadow_store` instead."""
        t = type if type is not None else operands[1 if op == "select" else 0].type
        if not OPS[op].pure and op != "load":
            self.mem = {}                       # a call may write shadows
        return self.cur.insert_before_terminator(Instr(op, operands, t, attr))

    def shadow_load(self, arr: Value, idx: list, t: T.Type) -> Value:
        return self._memory("load", [arr, *idx], t)

    def shadow_store(self, arr: Value, v: Value, idx: list) -> None:
        self._memory("store", [arr, v, *idx], T.NONE)

    def _memory(self, op: str, operands: list, t: T.Type) -> Value | None:
        """A load or store of a shadow, knowing what the block being built last stored or
        loaded at each place (`mem`: the array and index values -> ``(value, its store or
        None, the entry before that store)``): a load of a place known is its value; a store
        of what a place holds is dropped; a store over a store that nothing read since
        replaces it. The reverse of an in-place update (``x[i] += ...``) was a load, a store
        of zero, a load and a store of the first load's value, all of the same element; it is
        now the first load alone. A store forgets every other place (another index may be
        the same element), a load keeps them but marks their stores read, and any other op
        with an effect but a load forgets all. Only shadows are written in the reverse sweep,
        and no shadow shares memory with a tape or a primal array, whose loads are `emit`'s."""
        if self.mem_block is not self.cur:
            self.mem_block, self.mem = self.cur, {}
        arr, *rest = operands
        idx = rest if op == "load" else rest[1:]
        key = (id(arr), *map(_key, idx))
        got = self.mem.get(key)
        if op == "load":
            if got is not None:
                return got[0]
            x = self.cur.insert_before_terminator(Instr("load", operands, t))
            self.mem = {k: (v, None, None) for k, (v, _, _) in self.mem.items()}
            self.mem[key] = (x, None, None)
            return x
        v = rest[0]
        if got is not None and got[1] is not None:
            got[1].erase()                     # overwritten before anything read it
            got = got[2]
        if got is not None and got[1] is None and got[0] is v:
            self.mem = {key: got}              # the place holds v already
            return None
        x = self.cur.insert_before_terminator(Instr("store", operands, T.NONE))
        self.mem = {key: (v, x, got)}
        return x

    def add_into(self, arr: Value, idx: list, d: Value) -> None:
        """``arr[idx] += d`` (an adjoint into a shadow)."""
        old = self.shadow_load(arr, idx, d.type)
        self.shadow_store(arr, d if old is self.zero(d.type) else self.emit(ACC, [old, d]), idx)

    def active(self, v: Value) -> bool:
        return self.act.is_active(v)

    def read(self, v: Value) -> Value:
        st = self.state[self.cur]
        x = st.defs.get(id(v))
        if x is None:
            if id(v) in self.local:
                x = st.defs[id(v)] = self.zero(v.type)
            else:
                x = self._var_param(self.cur, v)
        return x

    def _var_param(self, block: Block, v: Value) -> BlockParam:
        st = self.state[block]
        p = block.add_param(v.type)
        st.params[id(v)] = (v, p)
        st.defs[id(v)] = p
        self.pending.append((block, id(v)))
        return p

    def write(self, v: Value, x: Value) -> None:
        self.state[self.cur].defs[id(v)] = x

    def acc(self, v: Value, contrib: Value) -> None:
        if not self.active(v):
            return
        if contrib.type != v.type:
            contrib = self.emit("convert", [contrib], v.type)
        cur = self.read(v)
        self.write(v, contrib if cur is self.zero(v.type) else self.emit(ACC, [cur, contrib]))

    def available(self, v: Value) -> bool:
        if isinstance(v, Const) or v is self.seed:
            return True
        b = v.block if isinstance(v, (Instr, BlockParam)) else None
        return b is not None and b in self.once and self.dom.dominates(b, self.exit)

    def primal(self, v: Value) -> Value:
        """The value `v` had in the forward sweep at the point being undone."""
        if self.iteration_shadows.is_shadow(v):
            return self.iteration_shadows.value(v)
        if self.available(v):
            return v
        pv = self._counter(v)
        if pv is not None:
            return self.read(pv)
        key = (id(self.cur), id(v))
        x = self.peeks.get(key)
        if x is not None:
            return x
        if self._recomputable(v) and all(self._obtainable(o, 1) for o in v.operands):
            x = self.emit(v.opname, [self.primal(o) for o in v.operands], v.type, v.attr)
        else:
            x = self._hoisted_peek(self._tape(v))
        self.peeks[key] = x
        return x

    def _peek(self, lst: Value) -> Value:
        n = self.emit("list_len", [lst], T.I64)
        return self.emit("list_get", [lst, self.emit("sub", [n, Const(1, T.I64)])], lst.type.elem)

    def _recomputable(self, v: Value) -> bool:
        return isinstance(v, Instr) and (v.opname in RECOMPUTE or v.opname == "load" and
                                         self.act.is_reloadable(v))

    def _obtainable(self, v: Value, depth: int) -> bool:
        """Whether `primal(v)` needs no new tape: a value is recomputed only from what is at
        hand, else the value itself is taped (one list rather than one per leaf)."""
        if self.available(v) or (id(v), None) in self.tapes or self._counter(v) is not None:
            return True
        if not isinstance(v.type, T.FloatType):
            return True         # an index or an array: taped if it must be, and shared by the
                                # loads using it
        return depth < RECOMPUTE_DEPTH and self._recomputable(v) and \
            all(self._obtainable(o, depth + 1) for o in v.operands)

    def _counter(self, v: Value) -> Value | None:
        """The variable holding loop counter `v` in the reverse sweep (`_find_counters`), when
        the block being undone is in its loop; else None."""
        c = self.counters.get(id(v))
        if c is None or self.cur_fwd not in c.loop.blocks:
            return None
        return c.var

    def _tape(self, v: Value, at: Block | None = None) -> "_Tape":
        """The tape of `v`: each instance the forward sweep made (pushed where it is defined,
        or at the start of block `at`), made on first use. Numbers go to an array grown by
        doubling, whose count and buffer are variables of both sweeps (so LLVM keeps them in
        registers); arrays (shadows made in a loop) to a list."""
        key = (id(v), None if at is None else id(at))
        got = self.tapes.get(key)
        if got is not None:
            return got
        block = v.block if at is None else at
        where = 0 if isinstance(v, BlockParam) or at is not None else block.instrs.index(v) + 1
        entry = self.func.entry
        if isinstance(v.type, (T.IntType, T.FloatType, T.BoolType)):
            tape = _Tape(block, Value(T.ArrayType(v.type, 1, "C")), Value(T.I64), None)
            a0 = entry.insert(0, Instr("alloc", [Const(TAPE_START, T.I64)], tape.arr.type))
            self.state[entry].defs[id(tape.arr)] = a0
            self.state[entry].defs[id(tape.n)] = Const(0, T.I64)
            self.fwd_keys |= {id(tape.arr), id(tape.n)}
            self.tapes[key] = tape
            reserved = self._reserve(tape, v.type)
            arr_in, n_in = self._fwd_read(block, tape.arr), self._fwd_read(block, tape.n)
            if reserved:
                push = Instr("store", [arr_in, v, n_in], T.NONE)
            else:
                push = Instr("call", [arr_in, n_in, v], tape.arr.type,
                             push_function(v.type, self.cache))
            n_out = Instr("add", [n_in, Const(1, T.I64)], T.I64)
            at = where + 1 if block is entry else where
            block.insert(at, push)
            block.insert(at + 1, n_out)
            if not reserved:
                self.state[block].defs[id(tape.arr)] = push
            self.state[block].defs[id(tape.n)] = n_out
            return tape
        if not T.is_list_element(v.type):
            self.refuse(v, f"script.grad: cannot save a value of type {v.type} for the reverse sweep")
        lst = entry.insert(0, Instr("list_new", [], T.ListType(v.type)))
        ok = entry.insert(1, Instr("list_resize", [lst, Const(0, T.I64)], T.BOOL))
        bad = entry.insert(2, Instr("not", [ok], T.BOOL))
        entry.insert(3, Instr("check", [bad], T.NONE, ExcInfo("MemoryError", None)))
        at = where + 4 if block is entry else where
        n = Instr("list_len", [lst], T.I64)
        m = Instr("add", [n, Const(1, T.I64)], T.I64)
        ok = Instr("list_resize", [lst, m], T.BOOL)
        bad = Instr("not", [ok], T.BOOL)
        chk = Instr("check", [bad], T.NONE, ExcInfo("MemoryError", None))
        put = Instr("list_set", [lst, v, n], T.NONE)
        for k, ins in enumerate((n, m, ok, bad, chk, put)):
            block.insert(at + k, ins)
        tape = self.tapes[key] = _Tape(block, None, None, lst)
        return tape

    def _hoisted_peek(self, tape: "_Tape") -> Value:
        """The top of `tape`, read where the reverse sweep enters the outermost loop that
        holds the block being undone but not the block pushing `tape` (nothing pushes or pops
        it while that loop's run is undone): a variable set once per run of the loop rather
        than a load (or a list read) per iteration (an array made each time step and read by
        the inner loop). Set by `_hoisted_peeks` once the pops are in place."""
        loop = None
        for l in self.loops:           # inner loops first
            if self.cur_fwd in l.blocks and tape.block not in l.blocks and \
                    all(len(self.edges[e]) == 1 for e in l.exits() if e in self.edges):
                loop = l
        if loop is None:
            return self._peek(tape)
        key = (id(tape), id(loop.header))
        got = self.hoisted.get(key)
        if got is None:
            elem = tape.lst.type.elem if tape.lst is not None else tape.arr.type.dtype
            got = self.hoisted[key] = (Value(elem), tape, loop)
        return self.read(got[0])

    def _hoisted_peeks(self) -> None:
        """Each hoisted peek at the end of the reverse of each exit of its loop (after that
        block's pops: what the loop's run used is the top once the exit is undone). Each
        exit has that loop as its only predecessor (`_dedicated_exits`), so the reverse of
        the loop is entered only through these blocks."""
        for var, tape, loop in self.hoisted.values():
            for e in _unique(loop.exits()):
                rb = self.rev.get(e)
                if rb is None:
                    continue
                self.cur = rb
                self.write(var, self._peek(tape))

    def _reserve(self, tape: "_Tape", t: T.Type) -> bool:
        """Make room for `tape`'s pushes before the loop that runs its block, when that is
        the innermost loop holding it, counted (`_trip_range`) and left only by its header's
        test: its block runs at most once per test, so at most ``trips + 1`` times a run.
        Then the pushes are plain stores (tape.reserve_function). Whether it did."""
        loop = next((l for l in self.loops if tape.block in l.blocks), None)
        if loop is None:
            return False
        got = self._trip_range(loop)
        if got is None:
            return False
        pred, lo, hi = got
        self._reserve_nest(tape, t, loop, pred, lo, hi)
        arr_p, n_p = self._fwd_read(pred, tape.arr), self._fwd_read(pred, tape.n)
        r = pred.insert_before_terminator(Instr("call", [arr_p, n_p, lo, hi], tape.arr.type,
                                                reserve_function(t, self.cache)))
        self.state[pred].defs[id(tape.arr)] = r
        return True

    def _reserve_nest(self, tape: "_Tape", t: T.Type, loop, pred: Block, lo: Value,
                      hi: Value) -> None:
        """Also reserve, before the loop around `loop`, what all its runs push
        (tape.reserve_nest_function), when that is about what they push: the outer loop is
        counted too, runs `loop` on each iteration (`pred` dominates its latches), `loop`
        runs `tape`'s block on each of its own and its bounds `lo` and `hi` are the same for
        every run (defined before the outer loop)."""
        outer = next((l for l in self.loops if l is not loop and loop.header in l.blocks), None)
        if outer is None or not all(self.dom.dominates(tape.block, b) for b in loop.latches) \
                or not all(self.dom.dominates(pred, b) for b in outer.latches):
            return
        got = self._trip_range(outer)
        if got is None:
            return
        pred2, lo2, hi2 = got
        for v in (lo, hi):
            if isinstance(v, (Instr, BlockParam)) and (v.block in outer.blocks or
                                                       not self.dom.dominates(v.block, pred2)):
                return
        arr, n = self._fwd_read(pred2, tape.arr), self._fwd_read(pred2, tape.n)
        r = pred2.insert_before_terminator(Instr("call", [arr, n, lo2, hi2, lo, hi],
                                                 tape.arr.type,
                                                 reserve_nest_function(t, self.cache)))
        self.state[pred2].defs[id(tape.arr)] = r

    def _trip_range(self, loop) -> tuple | None:
        """``(pred, lo, hi)`` when `loop` runs at most ``max(hi - lo, 0)`` iterations a run
        and is entered only from block `pred`, whose end `lo` and `hi` dominate: its header
        ends in ``cbr (cmp.lt %i, %n)`` into the loop (or ``cmp.gt`` counting down), `%i` a
        parameter of the header that every back edge passes as ``add %i, 1`` (``-1``), `%n`
        defined outside the loop, and no other block of the loop leaves it."""
        h = loop.header
        term = h.terminator
        if term is None or term.opname != "cbr" or term.succs[0] not in loop.blocks or \
                term.succs[1] in loop.blocks:
            return None
        cond = term.operands[0]
        if not (isinstance(cond, Instr) and cond.opname == "cmp" and cond.attr in ("lt", "gt")):
            return None
        p, n = cond.operands
        if not (isinstance(p, BlockParam) and p.block is h and p in self.orig_params[h]):
            return None
        if isinstance(n, (Instr, BlockParam)) and n.block in loop.blocks:
            return None
        if any(s not in loop.blocks for b in loop.blocks if b is not h for s in b.succs):
            return None
        step = 1 if cond.attr == "lt" else -1
        j = self.orig_params[h].index(p)
        entries = []
        for pred, k in self.edges[h]:
            a = pred.terminator.succ_args(k)[j]
            if pred not in loop.blocks:
                entries.append((pred, a))
            elif not (isinstance(a, Instr) and a.opname == "add" and a.operands[0] is p and
                      isinstance(a.operands[1], Const) and a.operands[1].value == step):
                return None
        if len(entries) != 1:
            return None
        pred, init = entries[0]
        return (pred, init, n) if step == 1 else (pred, n, init)

    def _fwd_read(self, block: Block, var: Value) -> Value:
        x = self.state[block].defs.get(id(var))
        return x if x is not None else self._var_param(block, var)

    def _peek(self, tape: "_Tape") -> Value:
        if tape.lst is not None:
            n = self.emit("list_len", [tape.lst], T.I64)
            return self.emit("list_get", [tape.lst, self.emit("sub", [n, Const(1, T.I64)])],
                             tape.lst.type.elem)
        last = self.emit("sub", [self.read(tape.n), Const(1, T.I64)])
        return self.emit("load", [self.read(tape.arr), last], tape.arr.type.dtype)

    # ---- the reverse sweep -------------------------------------------------------------

    def new_block(self, name: str) -> Block:
        b = self.func.add_block(name)
        self.state[b] = _RevState()
        return b

    def _reverse(self, blocks: list[Block]) -> None:
        self.pending: list[tuple[Block, int]] = []
        self.forward = set(self.func.blocks)
        self.fwd_keys: set[int] = set()         # the tapes' variables (the others: adjoints)
        for b in self.func.blocks:
            self.state[b] = _RevState()
        live = [b for b in blocks if b in self.live]
        for b in live:
            self.rev[b] = self.new_block("rev")
        start = self.rev[self.exit]
        value = start.add_param(self.primal_func.ret_type, None, "value")
        term = self.exit.terminator
        set_terminator(self.exit, "br", [term.operands[0]], [start], [1], term.loc)
        self.value = value
        self.cur = start
        if self.active(self.ret_value):
            self.write(self.ret_value, self.seed)
        for b in reversed(live):
            self._reverse_block(b)
        self.iteration_shadows.finish()
        self._pops()
        self._hoisted_peeks()
        self._join_variables()

    def _reverse_block(self, b: Block) -> None:
        self.cur = self.rev[b]
        self.cur_fwd = b
        for i in reversed(self.orig_instrs[b]):
            if i.is_terminator:
                continue
            self._reverse_instr(i)
        if b is self.func.entry:
            self._finish()
            return
        bars = []
        for p in self.orig_params[b]:
            if self.active(p):
                bars.append((p, self.read(p)))
                self.write(p, self.zero(p.type))
        edges = [(p, k) for p, k in self.edges[b] if p in self.live]
        self.entering = {}          # counter -> its value where the reverse enters its loop here
        for c in self.counters.values():
            if b not in c.loop.blocks and any(p in c.loop.blocks for p, _ in edges):
                self.entering[id(c)] = self._peek(self._tape(c.param, b))
        for c in self.counters.values():
            if c.loop.header is b:
                self.windows.retire(c)
        if len(edges) == 1:
            self._transfer(b, edges[0], bars)
            return
        ordered = self._ordered_test(b, edges)
        if ordered is not None:
            more, back, entry = ordered
            again, leave = self.new_block("rev.loop"), self.new_block("rev.leave")
            set_terminator(self.cur, "cbr", [more], [again, leave], [0, 0])
            self.cur = again
            self._transfer(b, back, bars)
            self.cur = leave
            self._transfer(b, entry, bars)
            return
        idx = self._edge_index(b)
        all_edges = self.edges[b]
        for n, e in enumerate(edges):
            if n + 1 == len(edges):
                self._transfer(b, e, bars)
                break
            is_e = self.emit("cmp", [idx, Const(all_edges.index(e), T.I64)], T.BOOL, "eq")
            yes, no = self.new_block("rev.edge"), self.new_block("rev.next")
            set_terminator(self.cur, "cbr", [is_e], [yes, no], [0, 0])
            self.cur = yes
            self._transfer(b, e, bars)
            self.cur = no

    def _ordered_test(self, b: Block, edges: list):
        """``(more, back edge, entry edge)`` when `b` heads a counted loop whose counter
        cannot wrap: its one back edge steps the counter by +1 (-1) and the body runs only
        while ``%i < %n`` (``%i > %n``), the header's own test. Then the counter only grows
        (shrinks) from its entry value, and the iteration being undone came by the back edge
        exactly when the counter is past that value: ``more`` is ``cmp.gt %i, %init``
        (``cmp.lt``), the reverse loop's own test in the shape of a counted loop's
        (script.ir.interrupts strip-mines or skips its polls rather than testing the counter
        every iteration, which kept LLVM from vectorizing the reverse loop)."""
        if len(edges) != 2:
            return None
        c = next((c for c in self.counters.values() if c.loop.header is b), None)
        if c is None or len(c.inits) != 1 or len(c.steps) != 1:
            return None
        (n_entry, init), = c.inits
        (n_back, step), = c.steps.items()
        term = b.terminator
        cond = term.operands[0] if term is not None and term.opname == "cbr" else None
        if not (isinstance(cond, Instr) and cond.opname == "cmp" and cond.operands[0] is c.param
                and (cond.attr, step.value) in (("lt", 1), ("gt", -1))
                and term.succs[0] in c.loop.blocks and term.succs[1] not in c.loop.blocks):
            return None
        all_edges = self.edges[b]
        more = self.emit("cmp", [self.read(c.var), self.primal(init)], T.BOOL,
                         "gt" if step.value > 0 else "lt")
        return more, all_edges[n_back], all_edges[n_entry]

    def _edge_index(self, b: Block) -> Value:
        """Which edge came into `b` in the iteration being undone."""
        edges = self.edges[b]
        for c in self.counters.values():
            if c.loop.header is b and len(edges) == 2 and len(c.inits) == 1:
                (n, init), = c.inits
                first = self.emit("cmp", [self.read(c.var), self.primal(init)], T.BOOL, "eq")
                return self.emit("select", [first, Const(n, T.I64), Const(1 - n, T.I64)], T.I64)
        return self.primal(self.edge_param[b])

    def _transfer(self, b: Block, edge, bars) -> None:
        """Leave the reverse of `b` along edge (pred, slot): each active parameter's adjoint
        goes to the argument that edge passed; counters step back or are set; then on to
        the reverse of pred."""
        pred, k = edge
        args = pred.terminator.succ_args(k)
        for p, bar in bars:
            self.acc(args[self.orig_params[b].index(p)], bar)
        n = self.edges[b].index(edge)
        for c in self.counters.values():
            if c.loop.header is b:
                self.windows.step(c, leaving=n not in c.steps)
            if c.loop.header is b and n in c.steps:
                self.write(c.var, self.emit("sub", [self.read(c.var), c.steps[n]]))
            elif id(c) in self.entering and pred in c.loop.blocks:
                self.write(c.var, self.entering[id(c)])
        self.iteration_shadows.transfer(b, pred)
        set_terminator(self.cur, "br", [], [self.rev[pred]], [0])

    def _finish(self) -> None:
        outs = [self.value]
        for p in self.scalar_params:
            outs.append(self.read(p) if self.active(p) else self.zero(p.type))
        t = self.emit("tuple", outs, self.func.ret_type)
        set_terminator(self.cur, "ret", [t])

    def _reverse_instr(self, i: Instr) -> None:
        op = i.opname
        if op == "store":
            self._reverse_store(i)
            return
        if op == "call":
            self._reverse_call(i)
            return
        if not self.active(i):
            return
        g = self.read(i)
        if g is self.zero(i.type):
            return
        self.write(i, self.zero(i.type))
        if op == "load":
            if self.windows.add(i, g):
                return
            arr = i.operands[0]
            sh = self.primal(self.shadow[id(arr)])
            self.add_into(sh, [self.primal(x) for x in i.operands[1:]], g)
            return
        RULES[op](self, i, g)

    def _reverse_store(self, i: Instr) -> None:
        arr, v = i.operands[0], i.operands[1]
        if not is_float_array(arr.type) or not (self.act.roots(arr) & self.act.varied_roots):
            return
        sh = self.primal(self.shadow[id(arr)])
        idx = [self.primal(x) for x in i.operands[2:]]
        if self.active(v):
            self.acc(v, self.shadow_load(sh, idx, v.type))
        self.shadow_store(sh, self.zero(arr.type.dtype), idx)

    def _reverse_call(self, i: Instr) -> None:
        callee = i.attr
        arrays = [a for a in i.operands if is_float_array(a.type)]
        if arrays:
            self.act.check_call_safe(i, self.refuse)
        if not self.active(i):
            return          # what it wrote it did not write (checked): no derivative flows
        g = self.read(i)
        if g is self.zero(i.type):
            return
        self.write(i, self.zero(i.type))
        adj = adjoint_of(callee, self.cache)
        args = [self.primal(a) for a in i.operands]
        shadows = [self.primal(self.shadow[id(a)]) for a in arrays]
        out = self.emit("call", [*args, *shadows, g], adj.ret_type, adj)
        k = 1
        for a in i.operands:
            if is_float(a.type):
                self.acc(a, self.emit("extract", [out], a.type, k))
                k += 1

    # ---- joining adjoint variables -----------------------------------------------------

    def _join_variables(self) -> None:
        """Feed each variable parameter from every predecessor (module docstring), then drop
        the parameters that receive one value."""
        queue = self.pending
        n = 0
        while n < len(queue):
            block, key = queue[n]
            n += 1
            v, _ = self.state[block].params[key]
            for pred in _unique(block.preds):
                term = pred.terminator
                for k, s in enumerate(term.succs):
                    if s is not block:
                        continue
                    if pred in self.forward and key not in self.fwd_keys:
                        if not isinstance(v.type, T.FloatType):
                            raise AssertionError(f"script.grad: {v.type} variable read before "
                                                 "the reverse sweep sets it")
                        x = self.zero(v.type)       # an adjoint in the forward sweep: zero
                    else:
                        x = self.state[pred].defs.get(key)
                        if x is None:
                            x = self._var_param(pred, v)
                    term.add_succ_arg(k, x)
        _prune_params([p for st in self.state.values() for _, p in st.params.values()])
        _drop_zero_adds([b for b in self.state])

    def _pops(self) -> None:
        """Each tape is popped where the reverse of the block that pushes it ends."""
        for tape in self.tapes.values():
            rb = self.rev.get(tape.block)
            if rb is None:
                continue
            self.cur = rb
            if tape.lst is not None:
                n = self.emit("list_len", [tape.lst], T.I64)
                self.emit("list_resize", [tape.lst, self.emit("sub", [n, Const(1, T.I64)])], T.BOOL)
            else:
                self.write(tape.n, self.emit("sub", [self.read(tape.n), Const(1, T.I64)]))


def _dedicated_exits(func: Function) -> None:
    """Give each loop exit edge that enters a block with other incoming edges a block of its
    own (LLVM's LoopSimplify does the same). What the reverse sweep records once per run of a
    loop (a counter's value at the exit, `_Counter`) is then pushed on that edge, once per
    run, rather than in the block it enters, which may run far more often: a loop that exits
    into the header of the next loop taped its counter at every iteration of that next
    loop (the heat equation's copy loop, 2x the gradient's time)."""
    from script.ir.dom import find_loops
    from script.ir.passes._cfg import retarget
    incoming: dict[Block, int] = {}
    for b in func.blocks:
        for s in b.succs:
            incoming[s] = incoming.get(s, 0) + 1
    for loop in find_loops(func):
        for b in list(loop.blocks):
            term = b.terminator
            if term is None or term.opname not in ("br", "cbr"):
                continue
            for k, s in enumerate(list(term.succs)):
                if s in loop.blocks or incoming.get(s, 0) < 2:
                    continue
                edge = func.add_block("exit")
                term = b.terminator
                set_terminator(edge, "br", list(term.succ_args(k)), [s],
                               [len(term.succ_args(k))], term.loc)
                retarget(b, k, edge, [])


def _local_values(blocks: list[Block]) -> set[int]:
    """The ids of the instructions whose every use is an instruction of their own block
    (no branch argument): their adjoints are zero where the reverse of that block begins,
    since only the block's own reverse adds to them (and a value known to be zero when the
    reverse sweep is built is a rule not run, rather than a block parameter pruned later)."""
    out = set()
    for b in blocks:
        for i in b.instrs:
            if i.has_result and all(u.block is b and not u.is_terminator for u in i.uses):
                out.add(id(i))
    return out


def _unique(blocks):
    seen, out = set(), []
    for b in blocks:
        if id(b) not in seen:
            seen.add(id(b))
            out.append(b)
    return out


def _key(v: Value):
    return ("c", v.key()) if isinstance(v, Const) else id(v)


def _prune_params(params: list[BlockParam]) -> None:
    """Remove each of `params` that always holds one value, and use that value instead: the
    redundant phis of Braun et al., cycles of parameters passing each other included (an
    adjoint carried around a loop that nothing adds to). Optimistic, as SCCP is: a parameter
    is first assumed to hold nothing, then the values its edges bring, until none changes.
    A worklist: a parameter is looked at again only when one that an edge passes it changed
    (sweeping all of them to a fixed point took seconds on an RNN's gradient)."""
    TOP = object()
    under = {id(p): p for p in params}
    val: dict[int, object] = {}             # id(param) -> key of its one value, or TOP
    rep: dict[object, Value] = {}
    args = {id(p): [a for _, a in p.block.incoming(p.block.params.index(p))] for p in params}
    users: dict[int, list[BlockParam]] = {}
    for p in params:
        for a in args[id(p)]:
            if id(a) in under:
                users.setdefault(id(a), []).append(p)
    work, queued = list(reversed(params)), {id(p) for p in params}
    while work:
        p = work.pop()
        queued.discard(id(p))
        cur = val.get(id(p))
        if cur is TOP:
            continue
        for a in args[id(p)]:
            k = val.get(id(a)) if id(a) in under else _key(a)
            if k is None:
                continue
            if id(a) not in under:
                rep.setdefault(k, a)
            if cur is None:
                cur = k
            elif cur != k:
                cur = TOP
                break
        if cur != val.get(id(p)):
            val[id(p)] = cur
            for q in users.get(id(p), ()):
                if id(q) not in queued:
                    queued.add(id(q))
                    work.append(q)
    for p in params:
        k = val.get(id(p))
        if k is not None and k is not TOP:
            replace_all_uses_with(p, rep[k])
    for p in params:
        k = val.get(id(p))
        if k is not None and k is not TOP:
            p.block.remove_param(p.block.params.index(p))


def _drop_zero_adds(blocks: list[Block]) -> None:
    """``add %x, 0.0`` -> ``%x`` in the reverse sweep, where a variable parameter that was
    pruned to zero left its sums (an adjoint's sign of zero means nothing)."""
    for b in blocks:
        for i in list(b.instrs):
            if i.opname not in ("add", ACC) or not isinstance(i.type, T.FloatType):
                continue
            x, y = i.operands
            keep = x if _is_zero(y) else y if _is_zero(x) else None
            if keep is not None:
                replace_all_uses_with(i, keep)
                i.erase()


def _is_zero(v: Value) -> bool:
    return isinstance(v, Const) and isinstance(v.value, float) and v.value == 0.0


def _acyclic_blocks(blocks: list[Block]) -> set:
    """The blocks on no cycle of the CFG: each runs at most once a call."""
    out = set()
    for b in blocks:
        seen, work = set(), list(b.succs)
        on_cycle = False
        while work:
            s = work.pop()
            if s is b:
                on_cycle = True
                break
            if id(s) not in seen:
                seen.add(id(s))
                work.extend(s.succs)
        if not on_cycle:
            out.add(b)
    return out


def _reaching(blocks: list[Block], exit_: Block) -> set:
    """The blocks from which the return is reachable (the others end in a raise)."""
    preds = {b: [] for b in blocks}
    for b in blocks:
        for s in b.succs:
            if s in preds:
                preds[s].append(b)
    out, work = {exit_}, [exit_]
    while work:
        b = work.pop()
        for p in preds[b]:
            if p not in out:
                out.add(p)
                work.append(p)
    return out
