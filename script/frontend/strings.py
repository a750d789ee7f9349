"""Python strs in compiled code: constants, f-strings, indexing, slicing, iteration,
operators and the builtins that make or take them (methods: strmethods.py).

A str is a `T.STR` value, a reference to an immutable heap object of code points
(backend/llvm/strings.py; docs/strings.md). Everything lowers to nine IR ops: `str_const`,
`str_new`, `str_char`, `str_len`, `str_get`, `str_set`, `str_eq`, `str_concat`, and `str_py` for what only CPython's
Unicode tables and number syntax decide; loops are written in the compiled subset
(strlib.py, strtext.py), whose intrinsics `lower_str_intrinsic` lowers.

Characters. `s[i]` and the elements of `for c in s` are `str_char` of a code point: for a
code point below 256 no memory is touched. A comparison of two such characters (or of one
with a one-character constant), `ord` of one, and `c in "aeiou"` with a short constant
compare code points directly, so `a[i - 1] == b[j - 1]` costs two loads and a compare, and
the `str_char` itself is deleted as unused.
"""

from __future__ import annotations

import ast
import operator

from script.frontend import arrays, class_methods, enum_values, exceptions, mixed_numbers, optional, printf
from script.lib.python import byteslib, strlib, strtext
from script.frontend.container_text import container_text, has_text
from script.frontend.optional import is_optional, python_name
from script.frontend.lower_expr import NOT_INDICES, is_numpy_int, kind_sample, sample_type_error
from script.frontend.unknown import Undef
from script.ir import types as T
from script.ir.core import Const, Instr, Value

_INDEX_ERROR = "string index out of range"
_CHR_ERROR = "chr() arg not in range(0x110000)"
_MAX_INLINE_MEMBERS = 16            # `c in "..."` with a constant this long: compares inline


def _base_error() -> str:
    try:
        int("1", 1)
    except ValueError as e:
        return str(e)
    raise AssertionError("int('1', 1) did not raise")


_BASE_ERROR = _base_error()          # int()'s own text, from the running CPython


def is_str(v) -> bool:
    return isinstance(getattr(v, "type", None), T.StrType)


def char_code(v: Value) -> Value | None:
    """The code point of `v` when it is known to be one character: a `str_char` or a
    one-character constant; else None."""
    if isinstance(v, Instr) and v.opname == "str_char":
        return v.operands[0]
    if isinstance(v, Instr) and v.opname == "str_const" and len(v.attr) == 1:
        return Const(ord(v.attr), T.I64)
    return None


def str_constant(cx, text: str, node) -> Value:
    return cx.emit("str_const", [], T.STR, text, cx.loc(node))


def str_lib(cx, fn, args: list[Value], node) -> Value:
    """A call of strlib function `fn` with these values (ints as i64)."""
    args = [cx.coerce(Const(a.value, a.type) if isinstance(a, Const) else a,
                      T.I64 if isinstance(a.type, (T.IntType, T.BoolType)) else a.type, node)
            for a in args]
    callee = cx.ctx.callee(cx, cx.ctx.info_for(fn), tuple(a.type for a in args), node)
    return cx.emit("call", args, callee.ret_type, callee, cx.loc(node))


def str_of(cx, v: Value, node, conversion: str = "s") -> Value:
    """str(v) (`conversion` "r": repr(v)) of a str, int, bool, float or None."""
    t = v.type
    loc = cx.loc(node)
    if isinstance(t, T.StrType):
        return cx.emit("str_py", [v], T.STR, "repr", loc) if conversion == "r" else v
    if isinstance(t, T.BytesType):      # str(b) is repr(b): b'...' (bytes_values.py)
        return str_lib(cx, byteslib.repr_of, [cx.emit("convert", [v], T.STR, None, loc)], node)
    if isinstance(t, T.IntFloatType):
        return mixed_numbers.split(cx, [v], lambda w: str_of(cx, w, node, conversion), node)
    if isinstance(t, T.BoolType):
        if isinstance(v, Const):
            return str_constant(cx, str(bool(v.value)), node)
        return cx.choose(v, lambda: str_constant(cx, "True", node),
                         lambda: str_constant(cx, "False", node), node)
    if isinstance(t, T.IntType):
        if isinstance(v, Const):
            return str_constant(cx, str(v.value), node)
        if t == T.U64:
            return format_value(cx, v, str_constant(cx, "", node), node)
        return str_lib(cx, strlib.str_of_int, [cx.coerce(v, T.I64, node)], node)
    if isinstance(t, T.FloatType):
        return cx.emit("str_py", [cx.coerce(v, T.F64, node)], T.STR, "repr_float", loc)
    if isinstance(t, T.NoneType):
        return str_constant(cx, "None", node)
    if T.is_instance_type(t):
        return class_methods.instance_str(cx, v, conversion, node)
    if isinstance(t, T.EnumType):
        return enum_values.text(cx, v, node, conversion)
    if t == T.EXC:                  # `except C as e`: CPython's str(e) / repr(e) (caught_text.py)
        return cx.emit("str_py", [v], T.STR, "exc_repr" if conversion == "r" else "exc_str", loc)
    if has_text(t):
        return container_text(cx, v, node, conversion)
    if isinstance(t, T.ArrayType):  # NumPy's own text (its print options too), made by NumPy
        return cx.emit("str_py", [v], T.STR, "array_repr" if conversion == "r" else "array_str", loc)
    cx.error(f"str() of a value of type {t} is not supported in compiled code", node)


def format_value(cx, v: Value, spec: Value, node) -> Value:
    """format(v, spec) with `spec` a str value: CPython's format mini-language."""
    t = v.type
    loc = cx.loc(node)
    if T.is_instance_type(t):
        return class_methods.instance_format(cx, v, spec, node)
    if isinstance(t, T.EnumType):
        return enum_values.formatted(cx, v, spec, node)
    if isinstance(t, T.StrType):
        return cx.emit("str_py", [v, spec], T.STR, "format_str", loc)
    if isinstance(t, T.BytesType):      # object.__format__: str(b) for an empty spec
        empty = cx.cmp("eq", str_len(cx, spec, node), Const(0, T.I64), node)
        cx.raise_if(cx.emit("not", [empty], T.BOOL, None, loc), "TypeError",
                    "unsupported format string passed to bytes.__format__", node)
        return str_of(cx, v, node)
    if isinstance(t, T.BoolType):   # bool.__format__ is int's: format(True, ">3") is "  1"
        return cx.emit("str_py", [cx.coerce(v, T.I64, node), spec], T.STR, "format_bool", loc)
    if t == T.U64:
        return cx.emit("str_py", [v, spec], T.STR, "format_uint", loc)
    if isinstance(t, T.IntType):
        return cx.emit("str_py", [cx.coerce(v, T.I64, node), spec], T.STR, "format_int", loc)
    if isinstance(t, T.FloatType):
        return cx.emit("str_py", [cx.coerce(v, T.F64, node), spec], T.STR, "format_float", loc)
    if has_text(t):                 # object.__format__: str(v), with an empty spec only
        return container_format(cx, v, spec, node)
    cx.error(f"formatting a value of type {t} is not supported in compiled code", node)


def container_format(cx, v: Value, spec: Value, node) -> Value:
    """format(v, spec) of a list, tuple, dict or set: object.__format__, which takes only an
    empty spec (the spec must be a constant here)."""
    if not (isinstance(spec, Instr) and spec.opname == "str_const"):
        cx.error(f"a format spec computed at run time for a value of type {v.type} is not "
                 "supported in compiled code", node)
    if not spec.attr:
        return str_of(cx, v, node)
    name = v.type.name if isinstance(v.type, T.NamedTupleType) else python_name(v.type)
    cx.raise_if(Const(True, T.BOOL), "TypeError", f"unsupported format string passed to {name}.__format__",
                node)
    return str_constant(cx, "", node)


def expr_JoinedStr(cx, node: ast.JoinedStr) -> Value:
    parts = []
    for part in node.values:
        if isinstance(part, ast.Constant):
            parts.append(str_constant(cx, part.value, part))
            continue
        conversion = chr(part.conversion) if part.conversion != -1 else "s"
        text = type_text(cx, part.value) if part.format_spec is None and conversion in "sr" else None
        if text is not None:                # (a class's repr is its str)
            parts.append(text)
            continue
        v = optional.expr_opt(cx, part.value, num=True) if part.format_spec is None else cx.expr(part.value)
        if conversion == "a":
            cx.error("ascii() conversions (!a) are not supported in compiled code", part)
        if part.format_spec is not None:
            if part.conversion != -1:       # `{x!s:>8}`, `{x!r:>8}`: the spec applies to the text
                v = str_of(cx, v, part, conversion)
            spec = expr_JoinedStr(cx, part.format_spec)
            parts.append(format_value(cx, v, spec, part))
        else:
            parts.append(str_of(cx, v, part, conversion))
    return str_join_parts(cx, parts, node)


def str_join_parts(cx, parts: list[Value], node) -> Value:
    """The concatenation of the str values `parts` ("" for none)."""
    if not parts:
        return str_constant(cx, "", node)
    out = parts[0]
    for p in parts[1:]:
        out = str_concat(cx, out, p, node)
    return out

# ---- reading them -------------------------------------------------------------------


def call_args(cx, node: ast.Call, name: str, names: tuple, evaluate: bool = False) -> list:
    """The argument nodes of a call of method `name` whose parameters `names` are given by
    position or by keyword (None where one is not given); with `evaluate`, each evaluated
    now in the order written, as CPython does, its value left for the caller's `expr`."""
    if evaluate:
        evaluate_in_order(cx, node)
    values = list(node.args)
    if len(values) > len(names):
        cx.error(f"{name}() takes at most {len(names)} arguments ({len(values)} given)", node)
    values += [None] * (len(names) - len(values))
    for k in node.keywords:
        if k.arg not in names or values[names.index(k.arg)] is not None:
            cx.error(f"{name}() got an unexpected or repeated keyword argument '{k.arg}'", k.value)
        values[names.index(k.arg)] = k.value
    return values


def evaluate_in_order(cx, node: ast.Call) -> None:
    """Evaluates the arguments of call `node` in the order written (keywords in any order
    included), each value left for the next `expr` of its node (pre_evaluated)."""
    for arg in list(node.args) + [k.value for k in node.keywords]:
        cx.pre_evaluate(arg)


def split_args(cx, node: ast.Call, name: str) -> tuple[Value, Value]:
    """(sep, maxsplit) of `x.split(...)` or `x.rsplit(...)` of a str or bytes (sep None when
    not given), evaluated."""
    sep, maxsplit = call_args(cx, node, name, ("sep", "maxsplit"), evaluate=True)
    sep = cx.expr(sep) if sep is not None else Const(None, T.NONE)
    maxsplit = cx.expr(maxsplit) if maxsplit is not None else Const(-1, T.I64)
    if not isinstance(maxsplit.type, (T.IntType, T.BoolType)):
        cx.error(f"{name}() maxsplit must be an int, not {maxsplit.type}", node)
    return sep, maxsplit


def str_concat(cx, a: Value, b: Value, node) -> Value:
    """a + b (in place when `a` is the only reference to its string: `s += t` in a loop)."""
    return cx.emit("str_concat", [a, b], T.STR, None, cx.loc(node))


def str_len(cx, s: Value, node) -> Value:
    if isinstance(s, Instr) and s.opname == "str_const":
        return Const(len(s.attr), T.I64)
    return cx.emit("str_len", [s], T.I64, None, cx.loc(node))


def str_code(cx, s: Value, i: Value, node) -> Value:
    """Code point `i` (0 <= i < len) of `s`."""
    return cx.emit("str_get", [s, i], T.I64, None, cx.loc(node))


def str_char(cx, code: Value, node) -> Value:
    return cx.emit("str_char", [code], T.STR, None, cx.loc(node))


def str_subscript(cx, s: Value, index_node, node) -> Value:
    if isinstance(index_node, ast.Slice):
        start, count, step = arrays.slice_operands(cx, s, 0, index_node, node, length=str_len(cx, s, node))
        return str_lib(cx, strlib.slice_of, [s, start, count, step], node)
    return str_char(cx, code_at(cx, s, index_node, node, "string indices must be integers, not '{}'", _INDEX_ERROR),
                    node)


def code_at(cx, s: Value, index_node, node, indices: str, out_of_range: str) -> Value:
    """Code point `s[i]` (i64) of the index `index_node` gives, counted from the end when
    negative: CPython's TypeError `indices` (formatted with the index's class name) for an
    index of another type when the line runs (a float alternative of an int|float: `s[10 ** i
    - 1]`), IndexError `out_of_range` outside the text (bytes_values.py: a byte's int)."""
    index = cx.expr(index_node)
    if not isinstance(index.type, (T.IntType, T.BoolType)):
        if isinstance(index.type, NOT_INDICES) and not is_numpy_int(index, cx.python_ints):
            cx.raise_always("TypeError", indices.format(python_name(index.type)), index_node)
            return Const(0, T.I64)
        cx.error(f"{indices.format(index.type)}", index_node)
    loc = cx.loc(node)
    i = cx.coerce(index, T.I64, index_node)
    n = str_len(cx, s, node)
    neg = cx.cmp("lt", i, Const(0, T.I64), node)
    i = arrays.pick(cx, neg, cx.emit("add", [i, n], T.I64, None, loc), i, node)
    bad = cx.emit("or", [cx.cmp("lt", i, Const(0, T.I64), node), cx.cmp("ge", i, n, node)],
                  T.BOOL, None, loc)
    cx.raise_if(bad, "IndexError", out_of_range, node)
    return str_code(cx, s, i, node)


def str_iterable(cx, s: Value, node):
    """(length, item, type) of `for c in s` (a str cannot change while iterated)."""
    return str_len(cx, s, node), lambda i: str_char(cx, str_code(cx, s, i, node), node), T.STR


def str_truth(cx, s: Value, node) -> Value:
    return cx.cmp("ne", str_len(cx, s, node), Const(0, T.I64), node)

# ---- operators ----------------------------------------------------------------------


def str_binop(cx, op: type, a: Value, b: Value, node) -> Value:
    if op is ast.Add and is_str(a) and is_str(b):
        return str_concat(cx, a, b, node)
    if op is ast.Mult:
        s, n = (a, b) if is_str(a) else (b, a)
        if isinstance(n.type, (T.IntType, T.BoolType)):
            return str_lib(cx, strlib.repeat, [s, n], node)
    if op is ast.Mod and is_str(a):
        if getattr(a, "opname", None) != "str_const":
            cx.error("printf-style formatting (str % values) needs a string literal on the left "
                     "in compiled code; use an f-string", node)
        return printf.percent_format(cx, a.attr, b, node)
    cx.error(f"unsupported operand types for this operator: {a.type} and {b.type}", node)


def str_compare(cx, op: ast.cmpop, a: Value, b: Value, node) -> Value:
    """a op b where one of them is a str."""
    loc = cx.loc(node)
    if isinstance(op, (ast.In, ast.NotIn)):
        hit = str_contains(cx, b, a, node)
        return hit if isinstance(op, ast.In) else cx.emit("not", [hit], T.BOOL, None, loc)
    pred = {ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt",
            ast.GtE: "ge"}.get(type(op))
    if pred is None:
        cx.error(f"'{type(op).__name__}' is not supported on strings in compiled code", node)
    if not (is_str(a) and is_str(b)):
        if pred in ("eq", "ne"):        # a str is never equal to a number (as in Python)
            return Const(pred == "ne", T.BOOL)
        cx.error(f"'{ast.unparse(op) if hasattr(ast, 'unparse') else pred}' is not supported "
                 f"between {a.type} and {b.type}", node)
    ca, cb = char_code(a), char_code(b)
    if ca is not None and cb is not None:
        return cx.cmp(pred, ca, cb, node)
    if pred in ("eq", "ne"):
        same = cx.emit("str_eq", [a, b], T.BOOL, None, loc)
        return same if pred == "eq" else cx.emit("not", [same], T.BOOL, None, loc)
    order = str_lib(cx, strlib.compare, [a, b], node)
    return cx.cmp(pred, order, Const(0, T.I64), node)


def str_contains(cx, s: Value, x: Value, node) -> Value:
    """`x in s` for str `s`: a substring test (a str `x` only, as CPython requires)."""
    refused = sample_type_error(operator.contains, "s", kind_sample(x.type)) if not is_str(x) else None
    if refused is not None:         # `3 in s`: CPython's TypeError, where it raises it
        cx.raise_always("TypeError", refused, node)
        return Undef(T.BOOL, cx.loc(node))
    if not is_str(x):
        cx.error(f"'in <string>' requires string as left operand, not {x.type}", node)
    c = char_code(x)
    if c is not None and isinstance(s, Instr) and s.opname == "str_const" \
            and len(s.attr) <= _MAX_INLINE_MEMBERS:
        hit: Value = Const(False, T.BOOL)
        for ch in dict.fromkeys(s.attr):
            eq = cx.cmp("eq", c, Const(ord(ch), T.I64), node)
            if isinstance(eq, Const):       # (a constant character: `"a" in t` of t = " pad ")
                if eq.value:
                    return eq
                continue
            hit = eq if isinstance(hit, Const) else cx.emit("or", [hit, eq], T.BOOL, None, cx.loc(node))
        return hit
    if c is not None:
        return str_lib(cx, strlib.contains_char, [s, c], node)
    return str_lib(cx, strlib.contains, [s, x], node)

# ---- builtins -------------------------------------------------------------------------


def builtin_str(cx, node, name) -> Value:
    if node.keywords or len(node.args) > 1:
        cx.error("str() takes at most 1 argument here (encodings are not supported)", node)
    if not node.args:
        return str_constant(cx, "", node)
    text = type_text(cx, node.args[0])
    if text is not None:
        return text
    return str_of(cx, optional.expr_opt(cx, node.args[0], num=True), node, "r" if name == "repr" else "s")


def type_text(cx, node, probe: bool = False) -> Value | bool | None:
    """``str(type(x))`` where `node` is the call ``type(x)`` (in an f-string, `str`, an
    exception's message): CPython's ``<class 'int'>``, of the class the value holds; None
    for any other node, and CPython's text of a tuple display holding one (``f"{type(a),
    type(b)}"``: each item's repr). ``type(x)`` as a value is not supported."""
    if isinstance(node, ast.Tuple) and node.elts and not any(isinstance(e, ast.Starred) for e in node.elts) \
            and any(type_text(cx, e, probe=True) for e in node.elts):
        if probe:
            return True
        items = [type_text(cx, e) or str_of(cx, optional.expr_opt(cx, e, num=True), e, "r") for e in node.elts]
        seps = [str_constant(cx, "(", node)]
        for k, item in enumerate(items):
            seps += [item, str_constant(cx, ", " if k < len(items) - 1 else ",)" if len(items) == 1 else ")", node)]
        return str_join_parts(cx, seps, node)
    if not (isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords
            and isinstance(node.func, ast.Name) and node.func.id not in cx.locals
            and getattr(cx.lookup(node.func), "obj", None) is type):
        return None
    if probe:               # (only whether it is one)
        return True
    from script.frontend.instance_test import python_class
    v = optional.expr_opt(cx, node.args[0], num=True)

    def text(w):
        cls = python_class(w.type)
        if cls is None:
            cx.error(f"type() of a value of type {w.type} is not supported in compiled code", node)
        return str_constant(cx, str(cls), node)
    if is_optional(v):
        return cx.choose(optional.present(cx, v, node), lambda: text(optional.value_of(cx, v, node)),
                         lambda: str_constant(cx, str(type(None)), node), node)
    return mixed_numbers.split(cx, [v], text, node)


def builtin_radix(cx, node, name) -> Value:
    """bin(i), oct(i), hex(i): CPython's ``format(i, "#b")`` and so on."""
    (v,) = cx.positional(node, name, 1)
    refused = sample_type_error(bin, kind_sample(v.type))
    if refused is not None:                 # `bin(1.5)`: CPython's TypeError, where it raises it
        cx.raise_always("TypeError", refused, node)
        return Undef(T.STR, cx.loc(node))         # (a str, in the dead block after the raise)
    if not isinstance(v.type, (T.IntType, T.BoolType)):
        cx.error(f"'{v.type}' object cannot be interpreted as an integer", node)
    spec = str_constant(cx, {"bin": "#b", "oct": "#o", "hex": "#x"}[name], node)
    return format_value(cx, v if v.type == T.U64 else cx.coerce(v, T.I64, node), spec, node)


def builtin_format(cx, node, name) -> Value:
    """format(value, spec=""): the f-string's ``f"{value:{spec}}"``."""
    args = cx.positional(node, "format", 1, 2)
    if len(args) == 1:
        return str_of(cx, args[0], node)
    if not is_str(args[1]):
        cx.error(f"format() argument 2 must be str, not {args[1].type}", node)
    return format_value(cx, args[0], args[1], node)


def builtin_ord(cx, node, name) -> Value:
    (v,) = cx.positional(node, "ord", 1)
    if isinstance(v.type, T.BytesType):     # ord(b) of one byte: the same test and message
        v = cx.emit("convert", [v], T.STR, None, cx.loc(node))
    if not is_str(v):
        cx.error(f"ord() expected string of length 1, but {v.type} found", node)
    c = char_code(v)
    if c is not None:
        return c
    n = str_len(cx, v, node)
    cx.raise_if(cx.cmp("ne", n, Const(1, T.I64), node), "TypeError",
                "ord() expected a character, but string of length %lld found", node, [n])
    return str_code(cx, v, Const(0, T.I64), node)


def builtin_chr(cx, node, name) -> Value:
    (v,) = cx.positional(node, "chr", 1)
    if not isinstance(v.type, (T.IntType, T.BoolType)):
        cx.error(f"chr() argument must be an int, not {v.type}", node)
    c = cx.coerce(v, T.I64, node)
    bad = cx.emit("or", [cx.cmp("lt", c, Const(0, T.I64), node),
                         cx.cmp("gt", c, Const(0x10FFFF, T.I64), node)], T.BOOL, None, cx.loc(node))
    cx.raise_if(bad, "ValueError", _CHR_ERROR, node)
    return str_char(cx, c, node)


def str_minmax(cx, name: str, best: Value, x: Value, node) -> Value:
    """min/max's step: `x` replaces `best` only when strictly smaller/greater."""
    better = str_compare(cx, ast.Gt() if name == "max" else ast.Lt(), x, best, node)
    return cx.emit("select", [better, x, best], T.STR, None, cx.loc(node))


def builtin_hash(cx, node, name) -> Value:
    """hash(x) of a bool, int, float, str or tuple of them: CPython's own (the `pyhash` op,
    a str's keyed by this process's hash secret)."""
    (v,) = cx.positional(node, "hash", 1)
    if isinstance(v, Const):
        v = Const(v.value, v.type)      # (a weak constant too)
    if T.is_instance_type(v.type):      # __hash__ (docs/records.md)
        return class_methods.instance_conversion(cx, v, "hash", [], node)
    if not T.is_key_type(v.type):
        cx.error(f"hash() of a value of type {v.type} is not supported in compiled code", node)
    if enum_values.holds_enum(v.type):
        return enum_values.pyhash(cx, v, node)
    return cx.emit("pyhash", [v], T.I64, None, cx.loc(node))


def str_to_int_base(cx, node: ast.Call) -> Value:
    """int(s, base): CPython's parsing (prefixes, base 0, underscores) and errors."""
    args = list(node.args) + [k.value for k in node.keywords]
    if len(args) != 2:
        cx.error("int() takes a string and a base here", node)
    s, base = cx.expr(args[0]), cx.expr(args[1])
    text = isinstance(s.type, T.BytesType)
    if text:                # int(b, base): the bytes' code points, parsed by CPython as bytes
        s = cx.emit("convert", [s], T.STR, None, cx.loc(node))
    if not is_str(s):
        cx.error("int() can't convert non-string with explicit base", node)
    if not isinstance(base.type, (T.IntType, T.BoolType)):
        cx.error(f"int() base must be an int, not {base.type}", node)
    base = cx.coerce(base, T.I64, node)
    bad = cx.emit("and", [cx.cmp("ne", base, Const(0, T.I64), node), cx.emit("or", [
        cx.cmp("lt", base, Const(2, T.I64), node), cx.cmp("gt", base, Const(36, T.I64), node)],
        T.BOOL, None, cx.loc(node))], T.BOOL, None, cx.loc(node))
    cx.raise_if(bad, "ValueError", _BASE_ERROR, node)
    return cx.emit("str_py", [s, base], T.I64, "bytes_int" if text else "int_base", cx.loc(node))


def str_to_number(cx, s: Value, t: T.Type, node) -> Value:
    """int(s) (`t` i64) or float(s) (f64): CPython's syntax and errors."""
    if t == T.I64:
        return str_lib(cx, strtext.parse_int, [s], node)
    if exceptions.in_try(cx):
        return str_lib(cx, strtext.parse_float, [s], node)
    return cx.emit("str_py", [s], T.F64, "float", cx.loc(node))

# ---- strlib's intrinsics --------------------------------------------------------------


def lower_str_intrinsic(cx, fn, node: ast.Call) -> Value:
    loc = cx.loc(node)
    if fn is strlib._py:
        name = node.args[0].value
        args = [cx.expr(a) for a in node.args[1:]]
        params, result = _str_py_types(name)
        return cx.emit("str_py", args, result, name, loc)
    args = [cx.expr(a) for a in node.args]
    if fn is strlib._new:
        return cx.emit("str_new", [cx.coerce(args[0], T.I64, node)], T.STR, None, loc)
    if fn is strlib._code:
        return str_code(cx, args[0], cx.coerce(args[1], T.I64, node), node)
    if fn is strlib._put:
        cx.emit("str_set", [args[0], cx.coerce(args[2], T.I64, node), cx.coerce(args[1], T.I64, node)],
                T.NONE, None, loc)
        return Const(None, T.NONE, loc)
    if fn is strlib._char:
        return str_char(cx, cx.coerce(args[0], T.I64, node), node)
    raise AssertionError(fn)


STR_INTRINSICS = (strlib._new, strlib._code, strlib._put, strlib._char, strlib._py)


def _str_py_types(name: str):
    from script.ir.ops import STR_PY
    params, result = STR_PY[name]
    return [T.parse_scalar(p) for p in params], T.parse_scalar(result)
