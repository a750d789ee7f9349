"""`np.einsum(subscripts, *operands)` with constant subscripts.

The subscripts are read when the call is compiled, and a function of nested loops is written
for them in the compiled subset and compiled like any callee: one loop per output label,
outside, then one per summed label around a scalar accumulator of NumPy's result type
(`np.result_type` of the operands). Labels follow NumPy's rules: the implicit output is the
labels seen once, sorted; a label repeated in one operand takes its diagonal; a dimension of
length 1 broadcasts against the label's length. Not supported (a CompileError): ellipsis
(`...`), `out=`/`optimize=`/other keywords, bool operands, the operands-and-sublists form.

The generated source is kept in `linecache` under a name that says what it is, so the
frontend reads it as it reads a user's file (errors inside point at the generated line).
"""

from __future__ import annotations

import ast
import linecache

import numpy as np

from script.ir import types as T

_NUMPY_NAMES = {"i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8",
                "u16": "uint16", "u32": "uint32", "u64": "uint64", "f32": "float32", "f64": "float64"}
_made: dict[tuple, object] = {}


class EinsumError(Exception):
    """Subscripts the compiled form cannot take (the message says why)."""


def parse(subscripts: str, ndims: list[int]) -> tuple[list[str], str]:
    """(each operand's labels, the output's labels), checked as NumPy checks them."""
    text = subscripts.replace(" ", "")
    if "." in text:
        raise EinsumError("einsum subscripts with an ellipsis ('...') are not supported in compiled code")
    if text.count("->") > 1 or ("-" in text.replace("->", "")) or (">" in text.replace("->", "")):
        raise EinsumError("einsum(): invalid subscript '-' or '>' in the subscripts string")
    inputs, arrow, output = text.partition("->")
    labels = inputs.split(",")
    if len(labels) != len(ndims):
        raise EinsumError(f"einsum(): more operands were provided than specified in the subscripts string"
                          if len(ndims) > len(labels) else
                          "einsum(): fewer operands were provided than were specified in the subscripts string")
    for lab, nd in zip(labels, ndims):
        if not all(c.isalpha() for c in lab):
            raise EinsumError(f"einsum(): invalid subscript in the subscripts string '{subscripts}'")
        if len(lab) != nd:
            raise EinsumError(f"einsum(): operand has more dimensions than subscripts given in einstein sum"
                              if nd > len(lab) else
                              "einsum(): einstein sum subscripts string contains too many subscripts for operand")
    seen = "".join(labels)
    if not arrow:
        output = "".join(sorted(c for c in set(seen) if seen.count(c) == 1))
    for c in output:
        if not c.isalpha():
            raise EinsumError(f"einsum(): invalid subscript '{c}' in the output")
        if output.count(c) > 1:
            raise EinsumError(f"einsum(): output subscript string contains the character '{c}' more than once")
        if c not in seen:
            raise EinsumError(f"einsum(): output subscript string included a character '{c}' which never "
                              "appeared in an input")
    return labels, output


def source(labels: list[str], output: str, dtype: str) -> str:
    """The Python source of the loops (see the module's docstring)."""
    args = [f"a{k}" for k in range(len(labels))]
    order = list(output) + [c for c in dict.fromkeys("".join(labels)) if c not in output]
    lines = [f"def einsum({', '.join(args)}):"]
    # each label's length: the longest of its dimensions; every dimension is it or 1
    for c in order:
        dims = [f"a{k}.shape[{d}]" for k, lab in enumerate(labels) for d, x in enumerate(lab) if x == c]
        lines.append(f"    n_{c} = max({', '.join(dims + ['1'])})")
        for d in dims:
            lines.append(f"    if {d} != n_{c} and {d} != 1:")
            lines.append(f"        raise ValueError(\"operands could not be broadcast together (einsum label '{c}')\")")
    index = []
    for k, lab in enumerate(labels):
        parts = []
        for d, c in enumerate(lab):
            lines.append(f"    s{k}_{d} = 0 if a{k}.shape[{d}] == 1 else 1")
            parts.append(f"{c} * s{k}_{d}")
        index.append(f"a{k}[{', '.join(parts)}]" if parts else f"a{k}")
    zero = f"np.{dtype}(0)"
    product = " * ".join(f"np.{dtype}({x})" for x in index)
    if output:
        lines.append(f"    out = np.zeros(({', '.join(f'n_{c}' for c in output)},), np.{dtype})")
    pad = "    "
    for c in output:
        lines.append(f"{pad}for {c} in range(n_{c}):")
        pad += "    "
    lines.append(f"{pad}acc = {zero}")
    inner = pad
    for c in order[len(output):]:
        lines.append(f"{inner}for {c} in range(n_{c}):")
        inner += "    "
    lines.append(f"{inner}acc += {product}")
    if output:
        lines.append(f"{pad}out[{', '.join(output)}] = acc")
        lines.append("    return out")
    else:
        lines.append("    return acc")
    return "\n".join(lines) + "\n"


def einsum_function(subscripts: str, types: list[T.Type]):
    """The compiled-subset function computing `np.einsum(subscripts, ...)` for operands of
    these array types (EinsumError when it cannot)."""
    if any(not isinstance(t, T.ArrayType) for t in types):
        raise EinsumError("einsum() operands must be arrays in compiled code")
    if any(isinstance(t.dtype, T.BoolType) for t in types):
        raise EinsumError("einsum() of bool arrays is not supported in compiled code")
    dtype = np.result_type(*[np.dtype(_NUMPY_NAMES[str(t.dtype)]) for t in types]).name
    labels, output = parse(subscripts, [t.ndim for t in types])
    key = (",".join(labels), output, dtype)
    fn = _made.get(key)
    if fn is None:
        text = source(labels, output, dtype)
        filename = f"<script einsum '{key[0]}->{output}' {dtype}>"
        linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
        namespace = {"np": np}
        exec(compile(text, filename, "exec"), namespace)
        fn = _made[key] = namespace["einsum"]
    return fn


def lower_einsum(low, node: ast.Call):
    """`np.einsum(...)` in `low`, a FunctionLowering."""
    if node.keywords:
        low.error(f"einsum() keyword '{node.keywords[0].arg}' is not supported in compiled code", node)
    if not node.args:
        low.error("einsum() needs its subscripts and operands", node)
    first = node.args[0]
    if isinstance(first, ast.Constant):
        subscripts = first.value
    else:
        subscripts = getattr(low.callee_ref(first), "obj", None)     # a global constant
    if not isinstance(subscripts, str):
        low.error("einsum()'s subscripts must be a constant string in compiled code", first)
    operands = [low.expr(a) for a in node.args[1:]]
    try:
        fn = einsum_function(subscripts, [v.type for v in operands])
    except EinsumError as e:
        low.error(str(e), node)
    call = ast.Call(node.func, [], [])
    return low.call_script(low.ctx.info_for(fn), call, leading=tuple(operands))
