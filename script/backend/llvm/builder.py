"""LLVM IR written directly as text: typed values, functions of basic blocks, an instruction
builder, and the module that collects them.

Why text: `llvmlite.ir` makes several Python objects per instruction and formats them again
when the module is printed; for a small function that cost more than LLVM's own parsing. Here
an instruction is one formatted line, appended to its block.

- Types are LLVM's own spellings, as strings: ``"i1"``, ``"i64"``, ``"double"``, ``"ptr"``
  (pointers are opaque), ``"{i64, double}"``, ``"void"``.
- A `Value` is a type and the text that names it: a local (``%v3``), a constant (``42``,
  ``0x3FF0000000000000``, ``null``) or a global (``@"PyLong_Type"``).
- A `Callee` is what a call needs: the callee's reference and its signature.

Nothing is checked here: `Jit.parse` parses and verifies the module, and a malformed module
is a backend bug. Requires: each operand has the type the instruction expects.
"""

from __future__ import annotations

import struct


class Value:
    """An LLVM operand: its type and its reference."""

    __slots__ = ("type", "ref")

    def __init__(self, type: str, ref: str):
        self.type = type
        self.ref = ref

    def __str__(self) -> str:
        return f"{self.type} {self.ref}"

    def __repr__(self) -> str:
        return f"Value({self.type!r}, {self.ref!r})"


class Callee:
    """A function a call can name: its reference (``@"name"``, or a pointer value) and type."""

    __slots__ = ("ref", "ret", "params", "var_arg")

    def __init__(self, ref: str, ret: str, params, var_arg: bool = False):
        self.ref = ref
        self.ret = ret
        self.params = tuple(params)
        self.var_arg = var_arg

    @property
    def pointer(self) -> Value:
        """The function's address."""
        return Value("ptr", self.ref)


# --- names and constants -------------------------------------------------------------------

def global_ref(name: str) -> str:
    """``@"name"``, with the bytes LLVM's lexer cannot take in a quoted name escaped."""
    if name.isascii() and '"' not in name and "\\" not in name and name.isprintable():
        return f'@"{name}"'
    return '@"' + escape_bytes(name.encode()) + '"'


def escape_bytes(data: bytes) -> str:
    """`data` as the body of an LLVM quoted string (``c"..."`` or a quoted name)."""
    return "".join(chr(c) if 32 <= c < 127 and c not in (34, 92) else f"\\{c:02X}"
                   for c in data)


def int_width(type: str) -> int:
    """The width of the integer type ``iN``."""
    return int(type[1:])


def int_const(type: str, value: int) -> Value:
    """An integer constant from any Python int, reduced to `type`'s width (two's complement)."""
    if type == "i1":
        return Value("i1", "true" if value & 1 else "false")
    bits = int(type[1:])
    value &= (1 << bits) - 1
    if value >> (bits - 1):
        value -= 1 << bits
    return Value(type, str(value))


def float_const(type: str, value: float) -> Value:
    """A ``float`` or ``double`` constant, exact (LLVM's hexadecimal form of the double; a
    float constant is first rounded to single precision, as LLVM requires)."""
    if type == "float":
        value = struct.unpack("<f", struct.pack("<f", value))[0]
    return Value(type, "0x%016X" % struct.unpack("<Q", struct.pack("<d", value))[0])


def undef(type: str) -> Value:
    return Value(type, "undef")


TRUE = Value("i1", "true")
FALSE = Value("i1", "false")
NULL = Value("ptr", "null")


# --- functions and blocks ------------------------------------------------------------------

class Block:
    """A basic block: a label and its lines (instruction text, or a `Phi` still growing)."""

    __slots__ = ("label", "lines")

    def __init__(self, label: str):
        self.label = label
        self.lines: list = []

    @property
    def ref(self) -> str:
        return f"%{self.label}"


class Phi(Value):
    """A phi whose incoming edges are added as the predecessors are lowered."""

    __slots__ = ("incoming",)

    def __init__(self, type: str, ref: str):
        super().__init__(type, ref)
        self.incoming: list[str] = []

    def add_incoming(self, value: Value, block: Block) -> None:
        self.incoming.append(f"[{value.ref}, %{block.label}]")

    def line(self) -> str:
        return f"  {self.ref} = phi {self.type} {', '.join(self.incoming)}"


class Function(Callee):
    """A function definition: its parameters are `args`, its blocks are made by `append_block`
    in the order they are printed (the first one is the entry)."""

    __slots__ = ("name", "args", "blocks", "linkage", "attrs", "fp_flags", "_count", "_labels")

    def __init__(self, name: str, ret: str, params, linkage: str = "internal",
                 attrs=("nounwind",), fp_flags: str = ""):
        super().__init__(global_ref(name), ret, params)
        self.name = name
        self.fp_flags = fp_flags        # " reassoc contract" under fastmath, else ""
        self.linkage = linkage
        self.attrs = " ".join(attrs)
        self.args = [Value(t, f"%a{k}") for k, t in enumerate(self.params)]
        self.blocks: list[Block] = []
        self._count = 0
        self._labels: set[str] = set()

    def append_block(self, hint: str = "b") -> Block:
        label = hint
        while label in self._labels:
            self._count += 1
            label = f"{hint}.{self._count}"
        self._labels.add(label)
        block = Block(label)
        self.blocks.append(block)
        return block

    def fresh(self) -> str:
        """A new local value name."""
        self._count += 1
        return f"%v{self._count}"

    def text(self) -> str:
        params = ", ".join(str(a) for a in self.args)
        out = [f"define {self.linkage} {self.ret} {self.ref}({params}) {self.attrs} {{"]
        for block in self.blocks:
            out.append(f"{block.label}:")
            out.extend(line if type(line) is str else line.line() for line in block.lines)
        out.append("}")
        return "\n".join(out)


# --- the instruction builder ---------------------------------------------------------------

def _binary(opcode: str):
    def emit(self, x: Value, y: Value) -> Value:
        return self._emit(x.type, f"{opcode} {x.type} {x.ref}, {y.ref}")
    emit.__name__ = opcode
    return emit


def _float_binary(opcode: str):
    """A float operation, with the fast-math flags of the function it is emitted into."""
    def emit(self, x: Value, y: Value) -> Value:
        return self._emit(x.type, f"{opcode}{self.fn.fp_flags} {x.type} {x.ref}, {y.ref}")
    emit.__name__ = opcode
    return emit


def _cast(opcode: str):
    def emit(self, x: Value, to: str) -> Value:
        return self._emit(to, f"{opcode} {x.type} {x.ref} to {to}")
    emit.__name__ = opcode
    return emit


class Builder:
    """Appends instructions at the end of `block` of `fn`. Methods that make a value return
    it; terminators return None. Branch weights are ``(taken, not_taken)``."""

    __slots__ = ("fn", "block")

    def __init__(self, fn: Function, block: Block | None = None):
        self.fn = fn
        self.block = block

    def position_at_end(self, block: Block) -> None:
        self.block = block

    def _emit(self, type: str, text: str) -> Value:
        name = self.fn.fresh()
        self.block.lines.append(f"  {name} = {text}")
        return Value(type, name)

    def _emit_void(self, text: str) -> None:
        self.block.lines.append(f"  {text}")

    # arithmetic
    add, sub, mul = _binary("add"), _binary("sub"), _binary("mul")
    sdiv, srem, udiv, urem = _binary("sdiv"), _binary("srem"), _binary("udiv"), _binary("urem")
    shl, ashr, lshr = _binary("shl"), _binary("ashr"), _binary("lshr")
    and_, or_, xor = _binary("and"), _binary("or"), _binary("xor")
    fadd, fsub, fmul = _float_binary("fadd"), _float_binary("fsub"), _float_binary("fmul")
    fdiv, frem = _float_binary("fdiv"), _binary("frem")

    def fadd_reassoc(self, x: Value, y: Value) -> Value:
        """An `fadd` LLVM may regroup with the others so flagged (ops.py `acc`), and whose
        sign of zero does not matter (``x + 0.0`` is x)."""
        flags = " reassoc nsz" + (" contract" if "contract" in self.fn.fp_flags else "")
        return self._emit(x.type, f"fadd{flags} {x.type} {x.ref}, {y.ref}")

    def fneg(self, x: Value) -> Value:
        return self._emit(x.type, f"fneg {x.type} {x.ref}")

    def not_(self, x: Value) -> Value:
        return self.xor(x, int_const(x.type, -1))

    def icmp(self, pred: str, x: Value, y: Value) -> Value:
        """``icmp pred``: eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge."""
        return self._emit("i1", f"icmp {pred} {x.type} {x.ref}, {y.ref}")

    def fcmp(self, pred: str, x: Value, y: Value) -> Value:
        """``fcmp pred``: oeq, one, olt, ..., ueq, une, ..., ord, uno."""
        return self._emit("i1", f"fcmp {pred} {x.type} {x.ref}, {y.ref}")

    def select(self, cond: Value, x: Value, y: Value) -> Value:
        return self._emit(x.type, f"select i1 {cond.ref}, {x.type} {x.ref}, {y.type} {y.ref}")

    # conversions
    trunc, zext, sext = _cast("trunc"), _cast("zext"), _cast("sext")
    fptrunc, fpext = _cast("fptrunc"), _cast("fpext")
    sitofp, uitofp = _cast("sitofp"), _cast("uitofp")
    fptosi, fptoui = _cast("fptosi"), _cast("fptoui")
    ptrtoint, inttoptr = _cast("ptrtoint"), _cast("inttoptr")
    bitcast = _cast("bitcast")

    # aggregates
    def insert_element(self, vec: Value, value: Value, index: int) -> Value:
        return self._emit(vec.type, f"insertelement {vec.type} {vec.ref}, {value.type} {value.ref}, i32 {index}")

    def insert_value(self, agg: Value, value: Value, index: int) -> Value:
        return self._emit(agg.type, f"insertvalue {agg.type} {agg.ref}, "
                                    f"{value.type} {value.ref}, {index}")

    def extract_value(self, agg: Value, index, type: str) -> Value:
        """Element `index` (of LLVM type `type`) of the struct `agg`; a tuple of indices
        reaches into nested aggregates."""
        path = ", ".join(map(str, index)) if isinstance(index, tuple) else index
        return self._emit(type, f"extractvalue {agg.type} {agg.ref}, {path}")

    # memory
    def alloca(self, type: str) -> Value:
        """Stack memory at this point: in a block that runs repeatedly (a loop) each run takes
        more, until the function returns (prefer `entry_alloca` there)."""
        return self._emit("ptr", f"alloca {type}")

    def entry_alloca(self, type: str) -> Value:
        """Stack memory of the function's frame: an alloca at the start of its entry block, the
        same memory however often the code that uses it runs."""
        name = self.fn.fresh()
        self.fn.blocks[0].lines.insert(0, f"  {name} = alloca {type}")
        return Value("ptr", name)

    def load(self, type: str, ptr: Value, align: int | None = None) -> Value:
        tail = f", align {align}" if align else ""
        return self._emit(type, f"load {type}, ptr {ptr.ref}{tail}")

    def store(self, value: Value, ptr: Value, align: int | None = None) -> None:
        tail = f", align {align}" if align else ""
        self._emit_void(f"store {value.type} {value.ref}, ptr {ptr.ref}{tail}")

    def load_atomic(self, type: str, ptr: Value, align: int, ordering: str = "monotonic") -> Value:
        """An atomic load (never hoisted out of a loop, never merged with another)."""
        return self._emit(type, f"load atomic {type}, ptr {ptr.ref} {ordering}, align {align}")

    def store_atomic(self, value: Value, ptr: Value, align: int,
                     ordering: str = "monotonic") -> None:
        self._emit_void(f"store atomic {value.type} {value.ref}, ptr {ptr.ref} {ordering}, "
                        f"align {align}")

    def atomic_rmw(self, op: str, ptr: Value, value: Value, ordering: str = "monotonic") -> Value:
        """``atomicrmw op``: updates ``*ptr`` in one indivisible step; gives the old value."""
        return self._emit(value.type, f"atomicrmw {op} ptr {ptr.ref}, {value.type} {value.ref} "
                                      f"{ordering}")

    def index_arith(self, opcode: str, x: Value, y: Value, flags: str = "nsw") -> Value:
        """``add``/``mul`` with wrap flags, for address arithmetic known not to overflow."""
        return self._emit(x.type, f"{opcode} {flags} {x.type} {x.ref}, {y.ref}")

    def gep_inbounds(self, elem: str, ptr: Value, index: Value) -> Value:
        """``&ptr[index]`` for an array of `elem`, within the object `ptr` points into."""
        return self._emit("ptr", f"getelementptr inbounds {elem}, ptr {ptr.ref}, "
                                 f"{index.type} {index.ref}")

    def gep(self, elem: str, ptr: Value, index: Value) -> Value:
        """``&ptr[index]`` for an array of `elem`."""
        return self._emit("ptr", f"getelementptr {elem}, ptr {ptr.ref}, {index.type} {index.ref}")

    def offset(self, ptr: Value, offset: int) -> Value:
        """``ptr + offset`` bytes."""
        if not offset:
            return ptr
        return self._emit("ptr", f"getelementptr i8, ptr {ptr.ref}, i64 {offset}")

    def load_at(self, type: str, ptr: Value, offset: int) -> Value:
        """The `type` value stored `offset` bytes after `ptr`."""
        return self.load(type, self.offset(ptr, offset))

    def store_at(self, value: Value, ptr: Value, offset: int) -> None:
        self.store(value, self.offset(ptr, offset))

    # calls and phis
    def call(self, callee: Callee, args, notail: bool = False) -> Value | None:
        """Call `callee`; None when it returns void. `notail`: LLVM may not make it a tail
        call (nor, then, a loop)."""
        arg_text = ", ".join(f"{a.type} {a.ref}" for a in args)
        fnty = f"{callee.ret} ({', '.join(callee.params)}, ...)" if callee.var_arg \
            else callee.ret
        text = f"{'notail ' if notail else ''}call {fnty} {callee.ref}({arg_text})"
        if callee.ret == "void":
            self._emit_void(text)
            return None
        return self._emit(callee.ret, text)

    def phi(self, type: str) -> Phi:
        phi = Phi(type, self.fn.fresh())
        self.block.lines.append(phi)
        return phi

    # terminators
    def branch(self, target: Block) -> None:
        self._emit_void(f"br label %{target.label}")

    def cbranch(self, cond: Value, then: Block, other: Block, weights=None) -> None:
        prof = "" if weights is None else \
            f', !prof !{{!"branch_weights", i32 {weights[0]}, i32 {weights[1]}}}'
        self._emit_void(f"br i1 {cond.ref}, label %{then.label}, label %{other.label}{prof}")

    def switch(self, value: Value, default: Block, cases) -> None:
        """``switch`` on `value`: `cases` are (int, block) pairs."""
        arms = " ".join(f"{value.type} {k}, label %{b.label}" for k, b in cases)
        self._emit_void(f"switch {value.type} {value.ref}, label %{default.label} [{arms}]")

    def ret(self, value: Value) -> None:
        self._emit_void(f"ret {value.type} {value.ref}")

    def ret_void(self) -> None:
        self._emit_void("ret void")


# --- the module ----------------------------------------------------------------------------

def counted_loop(b: Builder, n: Value, body) -> None:
    """`body(i, latch)` for 0 <= i < n (i64) in `b`'s function, `b` left after the loop.
    `body` may branch away on its own paths (to an error exit, or to `latch` to go on) but
    leaves `b` in an open block, which then goes on to the next `i`."""
    fn = b.fn
    head, body_block, latch, done = (fn.append_block(x) for x in ("loop_head", "loop_body", "loop_next",
                                                                   "loop_done"))
    entry = b.block
    b.branch(head)
    b.position_at_end(head)
    i = b.phi("i64")
    i.add_incoming(int_const("i64", 0), entry)
    b.cbranch(b.icmp("slt", i, n), body_block, done)
    b.position_at_end(body_block)
    body(i, latch)
    b.branch(latch)
    b.position_at_end(latch)
    i.add_incoming(b.add(i, int_const("i64", 1)), latch)
    b.branch(head)
    b.position_at_end(done)


class NativeModule:
    """An LLVM module under construction, with caches so that each declaration, intrinsic and
    constant string appears once however many lowering steps ask for it."""

    has_libc = True             # its code may call the C library (not on a GPU)

    def __init__(self, name: str, triple: str = "", data_layout: str = "", fp_flags: str = ""):
        self.name = name
        self.triple = triple
        self.data_layout = data_layout
        self.fp_flags = fp_flags        # fast-math flags of every float add, sub, mul, div
        self.functions: list[Function] = []
        self._callees: dict[str, Callee] = {}       # declared or defined, by name
        self._declarations: list[str] = []
        self._loop_ids = 0                          # loop identities made (`loop_metadata`)
        self._data: dict[str, Value] = {}
        self._strings: dict[bytes, Value] = {}
        self.helpers: dict[str, Function] = {}      # internal helpers made on demand

    def declare(self, name: str, ret: str, params, var_arg: bool = False,
                attrs=()) -> Callee:
        """The function `name`, declared (external) on first use."""
        callee = self._callees.get(name)
        if callee is None:
            callee = Callee(global_ref(name), ret, params, var_arg)
            self._callees[name] = callee
            args = ", ".join(callee.params + (("...",) if var_arg else ()))
            self._declarations.append(f"declare {ret} {callee.ref}({args}) {' '.join(attrs)}")
        return callee

    def intrinsic(self, name: str, ret: str, params) -> Callee:
        return self.declare(name, ret, params)

    def declare_data(self, name: str, type: str = "i8") -> Value:
        """The address of an external global variable (the symbol's address)."""
        ref = self._data.get(name)
        if ref is None:
            ref = Value("ptr", global_ref(name))
            self._data[name] = ref
            self._declarations.append(f"{ref.ref} = external global {type}")
        return ref

    def cstring(self, data: bytes) -> Value:
        """A pointer to a private, NUL-terminated constant copy of `data`."""
        ref = self._strings.get(data)
        if ref is None:
            ref = Value("ptr", f"@script.str.{len(self._strings)}")
            self._strings[data] = ref
            self._declarations.append(
                f"{ref.ref} = private unnamed_addr constant [{len(data) + 1} x i8] "
                f'c"{escape_bytes(data)}\\00"')
        return ref

    def constant_data(self, data: bytes, align: int = 64) -> Value:
        """A pointer to a private constant copy of `data`, aligned to `align` bytes."""
        ref = Value("ptr", f"@script.data.{len(self._declarations)}")
        self._declarations.append(f"{ref.ref} = private unnamed_addr constant [{len(data)} x i8] "
                                  f'c"{escape_bytes(data)}", align {align}')
        return ref

    def define_constant(self, value: Value, name: str) -> None:
        """An exported constant global `name` holding `value`."""
        self._declarations.append(f"{global_ref(name)} = constant {value.type} {value.ref}")

    def define_variable(self, value: Value, name: str) -> Value:
        """An exported, writable global `name` holding `value` at first; returns its address."""
        ref = Value("ptr", global_ref(name))
        self._declarations.append(f"{ref.ref} = global {value.type} {value.ref}, align 8")
        return ref

    def define_global(self, name: str, type: str, init: str, constant: bool = False,
                      linkage: str = "internal") -> Value:
        """A global `name` of LLVM type `type` initialized with the constant text `init`
        (which may name functions and other globals); returns its address."""
        ref = Value("ptr", global_ref(name))
        kind = "constant" if constant else "global"
        self._declarations.append(f"{ref.ref} = {linkage} {kind} {type} {init}, align 8")
        return ref

    def alias(self, name: str, fn: Function) -> None:
        """Export `fn` under the symbol `name` too."""
        self._declarations.append(
            f"{global_ref(name)} = alias {fn.ret} ({', '.join(fn.params)}), ptr {fn.ref}")

    def loop_metadata(self, *properties: str) -> str:
        """A new loop identity (LLVM wants one per loop: a distinct node naming itself)
        carrying `properties`, each a metadata node's text such as
        ``!{!"llvm.loop.vectorize.enable", i1 false}``; for a back edge's ``!llvm.loop``."""
        k = self._loop_ids = self._loop_ids + 1
        ref = f"!{1000 + 8 * k}"
        refs = [f"!{1001 + 8 * k + n}" for n in range(len(properties))]
        self._declarations.append(f"{ref} = distinct !{{{', '.join([ref, *refs])}}}")
        self._declarations.extend(f"{r} = {text}" for r, text in zip(refs, properties))
        return ref

    def new_function(self, name: str, ret: str, params, linkage: str = "internal",
                     attrs=("nounwind",)) -> Function:
        fn = Function(name, ret, params, linkage, attrs, self.fp_flags)
        self._callees[name] = fn
        self.functions.append(fn)
        return fn

    def text(self) -> str:
        head = [f'; ModuleID = "{self.name}"']
        if self.triple:
            head.append(f'target triple = "{self.triple}"')
        if self.data_layout:
            head.append(f'target datalayout = "{self.data_layout}"')
        return "\n".join(head + self._declarations + [f.text() for f in self.functions]) + "\n"

    def __str__(self) -> str:
        return self.text()
