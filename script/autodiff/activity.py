"""Activity analysis: which float values of a function carry a derivative.

A float scalar value is *varied* when it depends on a float parameter or on the contents of
a float array (every float array may, through its shadow), and *useful* when the result
depends on it: the returned value, a value stored into a float array, an argument of a call
whose result is useful, and what those are computed from. Only values both varied and
useful (*active*) get an adjoint variable, and only their rules run in the reverse sweep, so
a loop counter converted to float, a constant, or a value only compared costs nothing.

Also here: the checks that refuse what cannot be differentiated, at the line: a float that
flows into a container or a native routine (`SINKS`), an op without a rule, and a call that
stays a call (a recursive function) which writes an array, or reads one the caller writes
after it (its adjoint runs it again in the reverse sweep and must see the same memory).
"""

from __future__ import annotations

from script.ir import types as T
from script.ir.core import Block, BlockParam, Instr, Value

# Ops through which a float's derivative would be lost without notice.
SINKS = frozenset(("tuple", "list_set", "complex", "atomic", "lapack", "str_py", "hash", "pyhash"))
# Ops (besides those of rules.RULES) the reverse sweep handles itself.
BUILTIN = frozenset(("load", "call"))


def is_float(t: T.Type) -> bool:
    return isinstance(t, T.FloatType)


def is_float_array(t: T.Type) -> bool:
    return isinstance(t, T.ArrayType) and isinstance(t.dtype, T.FloatType)


class Activity:
    def __init__(self, func, blocks: list[Block], instrs: dict, params: dict, ret_value: Value,
                 nparams: int, wrt: set | None, distinct_params: bool):
        """`wrt`: the parameter indices differentiated (None: all); `distinct_params`: array
        parameters are known not to share memory (the entry point checks)."""
        self.func = func
        self.blocks = blocks
        self.instrs = instrs
        self.params = params
        self.distinct = distinct_params
        self._roots_memo: dict[int, set] = {}
        self._reloadable: dict[int, bool] = {}
        self.edges_in = self._edges_in()
        self.written_roots = self._written_roots()
        self.varied = self._varied(nparams, wrt)
        self.useful = self._useful(ret_value)

    def roots(self, v: Value) -> set:
        """What array `v` may be a view of: allocations (by id) and parameters (by index, or
        all as one when they may share memory)."""
        got = self._roots_memo.get(id(v))
        if got is not None:
            return got
        out = _roots(v, self.edges_in, set())
        if not self.distinct:
            out = {"param" if isinstance(r, tuple) else r for r in out}
        self._roots_memo[id(v)] = out
        return out

    def is_read_only(self, v: Value) -> bool:
        """Whether no array `v` may be a view of is written in this function: a load from it
        may be repeated in the reverse sweep instead of taped."""
        return not (self.roots(v) & self.written_roots)

    def is_reloadable(self, load: Instr) -> bool:
        """Whether `load` reads the same value if repeated anywhere in the reverse sweep: no
        write to what it read may run after it. A write into an array allocated in a loop is
        harmless when every path from the load to it makes a new array first and it writes
        that new one (an RNN's `h = np.tanh(...)` each step: the previous `h`, read by
        `W @ h`, is never written again)."""
        got = self._reloadable.get(id(load))
        if got is None:
            got = self._reloadable[id(load)] = self._is_reloadable(load)
        return got

    def _is_reloadable(self, load: Instr) -> bool:
        from script.ir.analysis import written_array_params
        arr = load.operands[0]
        if self.is_read_only(arr):
            return True
        roots = self.roots(arr)
        if "any" in self.written_roots:
            return False
        allocs = {id(i): i for i in self._all_instrs() if i.opname == "alloc"}
        for w in self._all_instrs():
            if w.opname == "call":
                if any(self.roots(w.operands[k]) & roots for k in written_array_params(w.attr)):
                    return False
                continue
            if w.opname not in ("store", "atomic"):
                continue
            for r in self.roots(w.operands[0]) & roots:
                alloc = allocs.get(r) if isinstance(r, int) else None
                fresh = alloc is not None and _is_fresh(w.operands[0], alloc)
                if _runs_after(load, w, alloc if fresh else None):
                    return False
        return True

    def _written_roots(self) -> set:
        from script.ir.analysis import written_array_params
        out = set()
        for i in self._all_instrs():
            if i.opname in ("store", "atomic"):
                out |= self.roots(i.operands[0])
            elif i.opname == "call":
                for k in written_array_params(i.attr):
                    out |= self.roots(i.operands[k])
            elif i.opname == "list_set" and not isinstance(i.operands[1].type, (T.IntType, T.FloatType,
                                                                              T.BoolType)):
                out.add("any")
        if "any" in out:
            out |= {r for i in self._all_instrs() for a in i.operands
                    if isinstance(a.type, T.ArrayType) for r in self.roots(a)}
        return out

    def is_active(self, v: Value) -> bool:
        return is_float(v.type) and id(v) in self.varied and id(v) in self.useful

    def _edges_in(self) -> dict:
        """For each block parameter (of the primal), the arguments its incoming edges pass."""
        out: dict[int, list[Value]] = {}
        for b in self.blocks:
            term = b.terminator
            if term is None:
                continue
            for k, s in enumerate(term.succs):
                if s not in self.params:
                    continue
                args = term.succ_args(k)
                for j, p in enumerate(self.params[s]):
                    out.setdefault(id(p), []).append(args[j])
        return out

    def _all_instrs(self):
        for b in self.blocks:
            yield from self.instrs[b]

    def _varied(self, nparams: int, wrt: set | None) -> set:
        """Float values that depend on the differentiated inputs, and (as roots, in
        `self.varied_roots`) the arrays that may hold such values."""
        ps = self.func.params[:nparams]
        wanted = [p for k, p in enumerate(ps) if wrt is None or k in wrt]
        varied = {id(p) for p in wanted if is_float(p.type)}
        vroots = set()
        for p in wanted:
            if is_float_array(p.type):
                vroots |= self.roots(p)
        self.varied_roots = vroots
        changed = True
        while changed:
            changed = False
            for i in self._all_instrs():
                if i.opname == "store" and id(i.operands[1]) in varied:
                    new = self.roots(i.operands[0]) - vroots
                    if new:
                        vroots |= new
                        changed = True
            for b in self.blocks:
                for p in self.params[b]:
                    if id(p) not in varied and is_float(p.type) and \
                            any(id(a) in varied for a in self.edges_in.get(id(p), ())):
                        varied.add(id(p))
                        changed = True
                for i in self.instrs[b]:
                    if id(i) in varied or not is_float(i.type):
                        continue
                    if i.opname == "load":
                        hit = bool(self.roots(i.operands[0]) & vroots)
                    elif i.opname == "call":
                        hit = any(id(a) in varied or is_float_array(a.type) and self.roots(a) & vroots
                                  for a in i.operands)
                    else:
                        hit = any(id(a) in varied for a in i.operands)
                    if hit:
                        varied.add(id(i))
                        changed = True
        return varied

    def _useful(self, ret_value: Value) -> set:
        useful = {id(ret_value)}
        changed = True
        while changed:
            changed = False
            for b in reversed(self.blocks):
                for i in reversed(self.instrs[b]):
                    if i.opname == "store":
                        srcs = [i.operands[1]] if is_float_array(i.operands[0].type) else []
                    elif id(i) in useful and i.opname != "load":
                        srcs = i.operands
                    else:
                        continue
                    for a in srcs:
                        if is_float(a.type) and id(a) not in useful:
                            useful.add(id(a))
                            changed = True
                for p in self.params[b]:
                    if id(p) in useful:
                        for a in self.edges_in.get(id(p), ()):
                            if is_float(a.type) and id(a) not in useful:
                                useful.add(id(a))
                                changed = True
        return useful

    def check_supported(self, refuse) -> None:
        """Refuse, at its line, each op the reverse sweep cannot undo."""
        from script.autodiff.rules import MATH_DERIVATIVES, RULES
        for i in self._all_instrs():
            op = i.opname
            if op in SINKS and any(
                    is_float(a.type) and id(a) in self.varied for a in i.operands):
                refuse(i, f"script.grad: cannot differentiate through `{op}`: a float that "
                          "depends on the inputs goes into a container or a native routine")
            if not self.is_active(i):
                continue
            if op == "math" and i.attr not in MATH_DERIVATIVES:
                refuse(i, f"script.grad: cannot differentiate math.{i.attr}")
            if op not in RULES and op not in BUILTIN:
                refuse(i, f"script.grad: cannot differentiate `{op}`")

    def check_call_safe(self, call: Instr, refuse) -> None:
        """A call kept as a call is differentiated by running the callee again in the reverse
        sweep: refuse one that writes an array argument, or whose array arguments may be
        written after it returns."""
        from script.ir.analysis import written_array_params
        callee = call.attr
        name = callee.name.split(".")[0]
        if any(is_float_array(call.operands[k].type) for k in written_array_params(callee)):
            refuse(call, f"script.grad: cannot differentiate this call of {name}: it is "
                         "recursive and writes to an array argument")
        roots = set()
        for a in call.operands:
            if is_float_array(a.type):
                roots |= self.roots(a)
        for w in self._writes_after(call):
            if w.opname == "call" or self.roots(w.operands[0]) & roots:
                refuse(call, f"script.grad: cannot differentiate this call of {name}: an array "
                             "it reads is written after it returns (the reverse sweep runs "
                             "the call again)")

    def _writes_after(self, call: Instr):
        """Stores into float arrays (and calls writing arrays) that may run after `call`."""
        from script.ir.analysis import written_array_params
        block = call.block
        after = list(self.instrs[block][self.instrs[block].index(call) + 1:])
        seen, work = set(), list(block.succs)
        while work:
            b = work.pop()
            if id(b) in seen or b not in self.instrs:
                continue
            seen.add(id(b))
            after.extend(self.instrs[b])
            work.extend(b.succs)
        for i in after:
            if i.opname == "store" and is_float_array(i.operands[0].type):
                yield i
            elif i.opname == "call" and any(is_float_array(i.operands[k].type)
                                            for k in written_array_params(i.attr)):
                yield i


def _roots(v: Value, edges_in: dict, seen: set) -> set:
    """Allocations (by id) and parameters (("param", index)) array `v` may be a view of."""
    if id(v) in seen:
        return set()
    seen.add(id(v))
    if isinstance(v, Instr) and v.opname in ("view", "transpose", "reshape"):
        return _roots(v.operands[0], edges_in, seen)
    if isinstance(v, Instr) and v.opname == "select":
        return _roots(v.operands[1], edges_in, seen) | _roots(v.operands[2], edges_in, seen)
    if isinstance(v, BlockParam):
        if v.block is v.block.func.entry:
            return {("param", v.index)}
        out = set()
        for a in edges_in.get(id(v), ()):
            out |= _roots(a, edges_in, seen)
        return out
    return {id(v)}


def _is_fresh(v: Value, alloc: Instr) -> bool:
    """Whether array `v` is the array `alloc` made last (or a view of it), not one an
    earlier run of it made and a block parameter carried."""
    if v is alloc:
        return True
    if isinstance(v, Instr) and v.opname in ("view", "transpose", "reshape"):
        return _is_fresh(v.operands[0], alloc)
    if isinstance(v, Instr) and v.opname == "select":
        return _is_fresh(v.operands[1], alloc) and _is_fresh(v.operands[2], alloc)
    return False


def _runs_after(first: Instr, then: Instr, barrier: Instr | None) -> bool:
    """Whether `then` may run after `first` on a path that does not run `barrier` between."""
    b0 = first.block
    k0 = b0.instrs.index(first)
    kb = b0.instrs.index(barrier) if barrier is not None and barrier.block is b0 else None
    if then.block is b0 and then is not first:
        kt = b0.instrs.index(then)
        if kt > k0 and not (kb is not None and k0 < kb < kt):
            return True
    if kb is not None and kb > k0:
        return False                    # every path out of the block runs the barrier
    seen, work = set(), list(b0.succs)
    while work:
        b = work.pop()
        if id(b) in seen:
            continue
        seen.add(id(b))
        stop = barrier.block.instrs.index(barrier) if barrier is not None and barrier.block is b \
            else len(b.instrs)
        if then.block is b and b.instrs.index(then) < stop:
            return True
        if stop == len(b.instrs):
            work.extend(b.succs)
    return False
