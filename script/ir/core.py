"""The in-memory IR: modules of functions, functions of blocks, blocks of instructions.

Invariants the rest of the compiler relies on (the verifier checks them):

- A block has typed parameters instead of phi instructions; a branch passes one argument per
  parameter of its target.
- A function's entry block is `blocks[0]`; its parameters are the function's parameters.
- Every `Value` has a type and a source location (possibly None for compiler-made values).
- `Value.uses` lists each instruction that uses the value, once per operand slot. Only the
  helpers here (`Instr.set_operand`, `replace_all_uses_with`, `Instr.erase`, `Block.append`,
  `Block.insert`) change operands, so use lists stay right.
- `Block.preds` lists each predecessor once per edge; `set_terminator`/`Instr.erase` keep it.

Terminator operand layout: ``br`` has its target's arguments; ``cbr`` has the condition, then
the arguments of `succs[0]`, then those of `succs[1]`; `succ_nargs` gives the counts.
"""

from __future__ import annotations

import math

from script.errors import SourceLoc
from script.ir import types as T
from script.ir.ops import OPS, OpInfo


class Value:
    __slots__ = ("type", "loc", "uses", "name")

    def __init__(self, type: T.Type, loc: SourceLoc | None = None, name: str | None = None):
        self.type = type
        self.loc = loc
        self.uses: list[Instr] = []
        self.name = name    # a source variable name, for humans only


class Const(Value):
    """A scalar constant. Constants belong to no block and are printed inline."""

    __slots__ = ("value",)

    def __init__(self, value, type: T.Type, loc: SourceLoc | None = None):
        super().__init__(type, loc)
        if isinstance(type, T.IntType):
            value = type.wrap(int(value))
        elif isinstance(type, T.FloatType):
            value = float(value)
        elif isinstance(type, T.ComplexType):
            value = complex(value)
        elif isinstance(type, T.BoolType):
            value = bool(value)
        elif isinstance(type, T.NoneType):
            value = None
        else:
            raise TypeError(f"no constants of type {type}")
        self.value = value

    def key(self):
        """Equal for constants of the same type and value (NaN equal to NaN, -0.0 not to 0.0)."""
        v = self.value
        if isinstance(v, float):
            return (self.type, "nan" if math.isnan(v) else v, math.copysign(1.0, v))
        if isinstance(v, complex):
            return (self.type, *(("nan" if math.isnan(x) else x, math.copysign(1.0, x))
                                 for x in (v.real, v.imag)))
        return (self.type, v)

    def __repr__(self):
        return f"Const({self.value!r}, {self.type})"


class BlockParam(Value):
    __slots__ = ("block",)

    def __init__(self, type: T.Type, block: Block, loc=None, name=None):
        super().__init__(type, loc, name)
        self.block = block

    @property
    def index(self) -> int:
        return self.block.params.index(self)


class Instr(Value):
    """One instruction. Its type is its result's (`none` when it has no result)."""

    __slots__ = ("op", "operands", "attr", "block", "succs", "succ_nargs")

    def __init__(self, op: str | OpInfo, operands, type: T.Type = T.NONE, attr=None,
                 loc: SourceLoc | None = None, succs=(), succ_nargs=()):
        super().__init__(type, loc)
        self.op: OpInfo = OPS[op] if isinstance(op, str) else op
        self.operands: list[Value] = []
        self.attr = attr
        self.block: Block | None = None
        self.succs: list[Block] = list(succs)
        self.succ_nargs: list[int] = list(succ_nargs)
        for v in operands:
            self.operands.append(v)
            v.uses.append(self)

    @property
    def opname(self) -> str:
        return self.op.name

    @property
    def is_terminator(self) -> bool:
        return self.op.terminator

    @property
    def has_result(self) -> bool:
        return self.op.result != "void" and not isinstance(self.type, T.NoneType)

    def set_operand(self, i: int, v: Value) -> None:
        old = self.operands[i]
        old.uses.remove(self)
        self.operands[i] = v
        v.uses.append(self)

    def succ_args(self, i: int) -> list[Value]:
        """The block arguments passed to `succs[i]`."""
        start = self._succ_start(i)
        return self.operands[start:start + self.succ_nargs[i]]

    def _succ_start(self, i: int) -> int:
        start = 1 if self.op.name == "cbr" else 0
        return start + sum(self.succ_nargs[:i])

    def set_succ_arg(self, i: int, j: int, v: Value) -> None:
        self.set_operand(self._succ_start(i) + j, v)

    def add_succ_arg(self, i: int, v: Value) -> None:
        """Append an argument for `succs[i]` (used when a block gains a parameter)."""
        pos = self._succ_start(i) + self.succ_nargs[i]
        self.operands.insert(pos, v)
        v.uses.append(self)
        self.succ_nargs[i] += 1

    def remove_succ_arg(self, i: int, j: int) -> None:
        pos = self._succ_start(i) + j
        self.operands[pos].uses.remove(self)
        del self.operands[pos]
        self.succ_nargs[i] -= 1

    def drop_operands(self) -> None:
        for v in self.operands:
            v.uses.remove(self)
        self.operands = []

    def erase(self) -> None:
        """Remove from its block. The result must be unused."""
        assert not self.uses, f"erasing {self.opname} that still has uses"
        if self.is_terminator and self.block is not None:
            for s in self.succs:
                s.preds.remove(self.block)
        self.drop_operands()
        if self.block is not None:
            self.block.instrs.remove(self)
            self.block = None

    def __repr__(self):
        return f"Instr({self.opname}, {self.type})"


class Block:
    __slots__ = ("params", "instrs", "preds", "func", "name")

    def __init__(self, func: Function | None = None, name: str | None = None):
        self.params: list[BlockParam] = []
        self.instrs: list[Instr] = []
        self.preds: list[Block] = []
        self.func = func
        self.name = name     # a hint for humans ("loop", "then"); printing numbers blocks

    def add_param(self, type: T.Type, loc=None, name=None) -> BlockParam:
        p = BlockParam(type, self, loc, name)
        self.params.append(p)
        return p

    def remove_param(self, i: int) -> None:
        """Drop parameter `i` and the matching argument of every branch here. It must be unused."""
        p = self.params[i]
        assert not p.uses, "removing a block parameter that still has uses"
        for pred in set(self.preds):
            term = pred.terminator
            for k, s in enumerate(term.succs):
                if s is self:
                    term.remove_succ_arg(k, i)
        del self.params[i]

    def incoming(self, i: int) -> list[tuple[Block, Value]]:
        """(predecessor, argument) for parameter `i` on each edge into this block (an edge
        per branch: a `cbr` with both arms here gives two)."""
        out = []
        for pred in set(self.preds):
            term = pred.terminator
            for k, s in enumerate(term.succs):
                if s is self:
                    out.append((pred, term.succ_args(k)[i]))
        return out

    @property
    def terminator(self) -> Instr | None:
        if self.instrs and self.instrs[-1].is_terminator:
            return self.instrs[-1]
        return None

    @property
    def succs(self) -> list[Block]:
        t = self.terminator
        return list(t.succs) if t is not None else []

    def append(self, instr: Instr) -> Instr:
        assert self.terminator is None, "appending after a terminator"
        instr.block = self
        self.instrs.append(instr)
        if instr.is_terminator:
            for s in instr.succs:
                s.preds.append(self)
        return instr

    def insert(self, index: int, instr: Instr) -> Instr:
        assert not instr.is_terminator
        instr.block = self
        self.instrs.insert(index, instr)
        return instr

    def insert_before_terminator(self, instr: Instr) -> Instr:
        return self.insert(len(self.instrs) - (1 if self.terminator is not None else 0), instr)

    def __repr__(self):
        return f"Block({self.name or id(self)})"


# Marks at the end of a library function's Python name (frontend.dictlib): the function is
# never inlined (by the inline pass or LLVM), for code that is large and not worth copying
# into every caller; COLD also says it seldom runs. PARALLEL marks the chunk function of a
# prange loop (ir.parallel): a call of it runs it once per chunk, on the runtime's threads.
OUT_OF_LINE, COLD, PARALLEL = "$outline", "$cold", "$parallel"

# A block's name (passes.jam): the back edge of an inner loop that computes several rows of
# its outer loop side by side, one lane each; the backend asks LLVM not to vectorize that
# loop along its own counter, so that the SLP vectorizer packs the rows instead.
ROWS_LATCH = "jam.rows"


class Function:
    """One specialization of a user function: fixed parameter and return types."""

    def __init__(self, name: str, param_types, ret_type: T.Type, loc: SourceLoc | None = None,
                 param_names=None):
        self.name = name
        self.ret_type = ret_type
        self.loc = loc
        self.blocks: list[Block] = []
        entry = self.add_block("entry")
        names = list(param_names or [None] * len(param_types))
        for t, n in zip(param_types, names):
            entry.add_param(t, loc, n)

    @property
    def entry(self) -> Block:
        return self.blocks[0]

    @property
    def inline_mark(self) -> str | None:
        """OUT_OF_LINE, COLD or PARALLEL when the function's name carries that mark, else None."""
        base = self.name.split(".", 1)[0]
        for mark in (OUT_OF_LINE, COLD, PARALLEL):
            if base.endswith(mark):
                return mark
        return None

    @property
    def params(self) -> list[BlockParam]:
        return self.entry.params

    @property
    def param_types(self) -> list[T.Type]:
        return [p.type for p in self.params]

    def add_block(self, name: str | None = None) -> Block:
        b = Block(self, name)
        self.blocks.append(b)
        return b

    def remove_block(self, block: Block) -> None:
        """Delete an unreachable block: its instructions, its edges and its parameters."""
        for instr in reversed(block.instrs):
            instr.uses.clear()
            if instr.is_terminator:
                for s in instr.succs:
                    s.preds.remove(block)
            instr.drop_operands()
            instr.block = None
        block.instrs = []
        self.blocks.remove(block)

    def instructions(self):
        for b in self.blocks:
            yield from b.instrs

    def callees(self) -> list[Function]:
        """The functions this one calls directly, each once, in first-call order."""
        seen: dict[int, Function] = {}
        for i in self.instructions():
            if i.opname == "call":
                seen.setdefault(id(i.attr), i.attr)
        return list(seen.values())

    def __repr__(self):
        return f"Function(@{self.name})"


class Module:
    """Functions by name. A compiled entry point's module holds it and all it calls."""

    def __init__(self, functions=()):
        self.functions: dict[str, Function] = {}
        for f in functions:
            self.add(f)

    def add(self, f: Function) -> Function:
        assert f.name not in self.functions, f.name
        self.functions[f.name] = f
        return f


def replace_all_uses_with(old: Value, new: Value) -> None:
    if old is new:
        return
    for user in list(old.uses):
        for i, v in enumerate(user.operands):
            if v is old:
                user.set_operand(i, new)


def set_terminator(block: Block, op: str, operands=(), succs=(), succ_nargs=(), loc=None,
                   attr=None) -> Instr:
    """End `block` with a new terminator, replacing any it had."""
    old = block.terminator
    if old is not None:
        old.erase()
    return block.append(Instr(op, operands, T.NONE, attr, loc, succs, succ_nargs))


def closure_of(func: Function) -> list[Function]:
    """`func` and every function it calls, transitively, `func` first."""
    seen = {id(func): func}
    work = [func]
    while work:
        f = work.pop()
        for c in f.callees():
            if id(c) not in seen:
                seen[id(c)] = c
                work.append(c)
    return list(seen.values())


def reachable_blocks(func: Function) -> list[Block]:
    """Blocks reachable from the entry, in reverse postorder."""
    entry = func.entry
    seen = {entry}
    order = []
    stack = [(entry, iter(_succs(entry)))]
    while stack:
        block, it = stack[-1]
        for s in it:
            if s not in seen:
                seen.add(s)
                stack.append((s, iter(_succs(s))))
                break
        else:
            order.append(block)
            stack.pop()
    order.reverse()
    return order


def _succs(block: Block) -> list[Block]:
    """`block.succs` without the copy (not to be changed)."""
    instrs = block.instrs
    if instrs:
        last = instrs[-1]
        if last.op.terminator:
            return last.succs
    return []
