"""The one writer of IR text. `parser.py` reads exactly what this writes.

Format (one function)::

    func @poly(%0: f64, %1: i64) -> f64 "demo.py":3 {
    bb0:
      %2 = sub %1, 1:i64 : i64                      ; 5:4
      br bb1(%1, 0.0:f64)
    bb1(%3: i64, %4: f64):
      %5 = cmp.gt %3, 0:i64 : bool
      cbr %5, bb2, bb3(%4)
      ...
    }

Values and blocks are numbered densely in print order (entry parameters first), so output is
deterministic. Constants are written inline as ``value:type`` (``true``, ``false``, ``none``,
``nan:f64``, ``-nan:f64`` (a NaN with its sign bit set), ``inf:f32``, ``-0.0:f64``; floats
use Python's shortest round-tripping repr).
A trailing ``; line:col`` is the source location.
"""

from __future__ import annotations

import json
import math
import re

from script.ir import types as T
from script.ir.core import Block, Const, Function, Instr, Module, Value

_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.$]*$")


def format_func_name(name: str) -> str:
    return "@" + (name if _NAME_RE.match(name) else json.dumps(name))


def format_const(c: Const) -> str:
    v = c.value
    if isinstance(c.type, T.BoolType):
        return "true" if v else "false"
    if isinstance(c.type, T.NoneType):
        return "none"
    if isinstance(c.type, T.FloatType):
        return f"{format_float(v)}:{c.type}"
    if isinstance(c.type, T.ComplexType):       # both parts, each with its sign: 1.0+-0.0j
        return f"{format_float(v.real)}+{format_float(v.imag)}j:{c.type}"
    return f"{v}:{c.type}"


def format_float(v: float) -> str:
    if math.isnan(v):       # the sign bit is observable (math.copysign): kept
        return "-nan" if math.copysign(1.0, v) < 0 else "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return repr(v)


class Namer:
    """Dense numbering of a function's values and blocks in print order."""

    def __init__(self, func: Function):
        self.values: dict[int, str] = {}
        self.blocks: dict[int, str] = {}
        n = 0
        for bi, block in enumerate(func.blocks):
            self.blocks[id(block)] = f"bb{bi}"
            for p in block.params:
                self.values[id(p)] = f"%{n}"
                n += 1
            for instr in block.instrs:
                if instr.has_result:
                    self.values[id(instr)] = f"%{n}"
                    n += 1

    def value(self, v: Value) -> str:
        if isinstance(v, Const):
            return format_const(v)
        return self.values.get(id(v), "%<unnamed>")

    def block(self, b: Block) -> str:
        return self.blocks.get(id(b), "bb<detached>")


def _loc_suffix(text: str, v: Value) -> str:
    if v.loc is None:
        return text
    return f"{text:<46} ; {v.loc.line}:{v.loc.col}"


def _target(namer: Namer, block: Block, args) -> str:
    if not args:
        return namer.block(block)
    return f"{namer.block(block)}({', '.join(namer.value(a) for a in args)})"


def format_instr(instr: Instr, namer: Namer) -> str:
    op = instr.op
    name = op.name
    ops = instr.operands
    if name == "br":
        body = f"br {_target(namer, instr.succs[0], instr.succ_args(0))}"
    elif name == "cbr":
        body = (f"cbr {namer.value(ops[0])}, {_target(namer, instr.succs[0], instr.succ_args(0))}, "
                f"{_target(namer, instr.succs[1], instr.succ_args(1))}")
    elif name == "call":
        args = ", ".join(namer.value(a) for a in ops)
        body = f"call {format_func_name(instr.attr.name)}({args})"
    elif name == "print":
        body = f"print {json.dumps(instr.attr)}" + "".join(f", {namer.value(a)}" for a in ops)
    elif name == "str_const":
        body = f"str_const {json.dumps(instr.attr)}"        # ASCII, any code point escaped
    elif op.attr == "exc":
        exc = instr.attr
        parts = [namer.value(a) for a in ops]
        text = exc.name if exc.message is None else f"{exc.name} {json.dumps(exc.message)}"
        if name == "check":
            body = f"check {parts[0]}, {text}" + "".join(f", {p}" for p in parts[1:])
        else:               # raise, exception
            body = f"{name} {text}" + "".join(f", {p}" for p in parts)
    else:
        full = name if op.attr is None else f"{name}.{instr.attr}"
        body = full + (" " + ", ".join(namer.value(a) for a in ops) if ops else "")
    if instr.has_result:
        body = f"{namer.value(instr)} = {body} : {instr.type}"
    return _loc_suffix("  " + body, instr)


def format_function(func: Function) -> str:
    namer = Namer(func)
    params = ", ".join(f"{namer.value(p)}: {p.type}" for p in func.params)
    header = f"func {format_func_name(func.name)}({params}) -> {func.ret_type}"
    if func.loc is not None:
        header += f" {json.dumps(func.loc.file)}:{func.loc.line}"
    lines = [header + " {"]
    for bi, block in enumerate(func.blocks):
        if bi == 0 or not block.params:
            lines.append(f"{namer.block(block)}:")
        else:
            ps = ", ".join(f"{namer.value(p)}: {p.type}" for p in block.params)
            lines.append(f"{namer.block(block)}({ps}):")
        for instr in block.instrs:
            lines.append(format_instr(instr, namer))
    lines.append("}")
    return "\n".join(lines) + "\n"


def format_module(module: Module) -> str:
    return "\n".join(format_function(f) for f in module.functions.values())
