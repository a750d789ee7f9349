"""Python bytes in compiled code: constants, `bytes(...)`, indexing, slicing, iteration,
operators, methods, `str.encode`/`bytes.decode` and `int.from_bytes`/`int.to_bytes`.

A bytes value is a `T.BYTES`: the text object of strings.py holding its bytes as code points
(each < 256), the same object a `convert` shows as a `T.STR` (`as_str`) and back
(`as_bytes`). So every byte-wise operation is the str operation on that view: slicing,
`+`, `*`, comparisons, searching, `replace`, `split(sep)`, `join`, `strip(chars)`, padding.
What differs from str is written here and in byteslib.py (compiled subset): an item is an
int, the character classes, case mappings and whitespace are ASCII's, the repr is `b'...'`,
and messages are bytes' own. Codecs are CPython's (`str_py`, pyhooks/codecs_text.py).
"""

from __future__ import annotations

import ast
import operator

from script.frontend import strings
from script.lib.python import byteslib, strlib, strtext
from script.frontend.int_consts import checks_int64
from script.frontend.lower_expr import kind_sample, sample_type_error
from script.frontend.registry import ANY, BINOPS, METHODS, lowers
from script.frontend.unknown import Undef
from script.ir import types as T
from script.ir.core import Const, Instr, Value

_NO_END = 1 << 62
_SPACES = " \t\n\r\x0b\x0c"          # Py_ISSPACE: what bytes.strip() strips
_SEARCH = {"find": strlib.find, "rfind": strlib.rfind, "index": strlib.index,
           "rindex": strlib.rindex, "count": strlib.count}
_CLASSES = {"isdigit": 2, "isalpha": 12, "isalnum": 14, "isspace": 16}    # byteslib.all_in
_JUSTIFY = {"ljust": strtext.ljust, "rjust": strtext.rjust, "center": strtext.center}
_BYTE_RANGE = "byte must be in range(0, 256)"


def is_bytes(v) -> bool:
    return isinstance(getattr(v, "type", None), T.BytesType)


def is_bytes_type(t) -> bool:
    return isinstance(t, T.BytesType)


def as_str(cx, v: Value, node) -> Value:
    """Bytes `v` seen as the str of its code points (the same object)."""
    if isinstance(v, Instr) and v.opname == "convert" and v.operands[0].type == T.STR:
        return v.operands[0]
    return cx.emit("convert", [v], T.STR, None, cx.loc(node))


def as_bytes(cx, s: Value, node) -> Value:
    """The str `s` of code points < 256 seen as bytes (the same object)."""
    t = s.type
    if isinstance(t, T.TupleType):
        return cx.emit("convert", [s], T.TupleType([T.BYTES if e == T.STR else e for e in t.elems]),
                       None, cx.loc(node))
    if type(t) is T.ListType:
        return cx.emit("convert", [s], T.ListType(T.BYTES), None, cx.loc(node))
    return cx.emit("convert", [s], T.BYTES, None, cx.loc(node))


def bytes_constant(cx, data: bytes, node) -> Value:
    return as_bytes(cx, strings.str_constant(cx, data.decode("latin-1"), node), node)


def _lib(cx, fn, args: list[Value], node) -> Value:
    """strlib/strtext/byteslib function `fn` of these values, bytes passed as their strs."""
    return strings.str_lib(cx, fn, [as_str(cx, a, node) if is_bytes(a) else a for a in args], node)


def _lib_bytes(cx, fn, args: list[Value], node) -> Value:
    return as_bytes(cx, _lib(cx, fn, args, node), node)

# ---- reading -------------------------------------------------------------------------


def bytes_len(cx, b: Value, node) -> Value:
    return strings.str_len(cx, as_str(cx, b, node), node)


def bytes_subscript(cx, b: Value, index_node, node) -> Value:
    s = as_str(cx, b, node)
    if isinstance(index_node, ast.Slice):
        return as_bytes(cx, strings.str_subscript(cx, s, index_node, node), node)
    return strings.code_at(cx, s, index_node, node, "byte indices must be integers or slices, not {}",
                           "index out of range")


def bytes_iterable(cx, b: Value, node):
    """(length, item, type) of `for x in b`: its bytes as ints."""
    s = as_str(cx, b, node)
    return strings.str_len(cx, s, node), lambda i: strings.str_code(cx, s, i, node), T.I64


def bytes_truth(cx, b: Value, node) -> Value:
    return strings.str_truth(cx, as_str(cx, b, node), node)


def bytes_to_number(cx, b: Value, name: str, node) -> Value:
    """bool(b), int(b) or float(b): CPython parses bytes as it parses strs, and names the
    bytes in its errors (`invalid literal for int() with base 10: b'x'`)."""
    if name == "bool":
        return bytes_truth(cx, b, node)
    s = as_str(cx, b, node)
    if name == "int":
        return cx.emit("str_py", [s, Const(10, T.I64)], T.I64, "bytes_int", cx.loc(node))
    return cx.emit("str_py", [s], T.F64, "bytes_float", cx.loc(node))


# ---- operators -----------------------------------------------------------------------


def bytes_binop(cx, op: type, a: Value, b: Value, node) -> Value:
    if op is ast.Add and is_bytes(a) and is_bytes(b):
        return as_bytes(cx, strings.str_concat(cx, as_str(cx, a, node), as_str(cx, b, node), node), node)
    if op is ast.Mult:
        s, n = (a, b) if is_bytes(a) else (b, a)
        if isinstance(n.type, (T.IntType, T.BoolType)):
            return _lib_bytes(cx, strlib.repeat, [s, n], node)
    fn = {ast.Add: operator.add, ast.Mult: operator.mul, ast.Sub: operator.sub, ast.Div: operator.truediv,
          ast.FloorDiv: operator.floordiv, ast.Pow: operator.pow, ast.BitAnd: operator.and_,
          ast.BitOr: operator.or_, ast.BitXor: operator.xor, ast.LShift: operator.lshift,
          ast.RShift: operator.rshift}.get(op)
    refused = sample_type_error(fn, kind_sample(a.type), kind_sample(b.type)) if fn else None
    if refused is not None:             # `b"a" + "a"`: CPython's TypeError, where it raises it
        cx.raise_always("TypeError", refused, node)
        return Undef(T.BYTES, cx.loc(node))
    cx.error(f"this operator is not supported on {a.type} and {b.type} in compiled code", node)


def bytes_compare(cx, op: ast.cmpop, a: Value, b: Value, node) -> Value:
    """a op b where one of them is bytes."""
    loc = cx.loc(node)
    if isinstance(op, (ast.In, ast.NotIn)):
        hit = bytes_contains(cx, b, a, node)
        return hit if isinstance(op, ast.In) else cx.emit("not", [hit], T.BOOL, None, loc)
    if is_bytes(a) and is_bytes(b):
        return strings.str_compare(cx, op, as_str(cx, a, node), as_str(cx, b, node), node)
    pred = {ast.Eq: "eq", ast.NotEq: "ne"}.get(type(op))
    if pred is not None:                # bytes are never equal to a str or a number
        return Const(pred == "ne", T.BOOL)
    fn = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}.get(type(op))
    refused = sample_type_error(fn, kind_sample(a.type), kind_sample(b.type)) if fn else None
    if refused is not None:
        cx.raise_always("TypeError", refused, node)
        return Undef(T.BOOL, loc)
    cx.error(f"'{type(op).__name__}' is not supported between {a.type} and {b.type} in compiled code", node)


def _byte_value(cx, x: Value, node) -> Value:
    """Int `x` checked to be a byte (ValueError as CPython's)."""
    x = cx.coerce(x, T.I64, node)
    bad = cx.emit("or", [cx.cmp("lt", x, Const(0, T.I64), node), cx.cmp("gt", x, Const(255, T.I64), node)],
                  T.BOOL, None, cx.loc(node))
    cx.raise_if(bad, "ValueError", _BYTE_RANGE, node)
    return x


def bytes_contains(cx, b: Value, x: Value, node) -> Value:
    """`x in b`: a byte value (an int) or a subsequence (bytes)."""
    s = as_str(cx, b, node)
    if isinstance(x.type, (T.IntType, T.BoolType)):
        return strings.str_lib(cx, strlib.contains_char, [s, _byte_value(cx, x, node)], node)
    if is_bytes(x):
        return strings.str_lib(cx, strlib.contains, [s, as_str(cx, x, node)], node)
    refused = sample_type_error(operator.contains, b"s", kind_sample(x.type))
    if refused is not None:
        cx.raise_always("TypeError", refused, node)
        return Undef(T.BOOL, cx.loc(node))
    cx.error(f"'in <bytes>' of a value of type {x.type} is not supported in compiled code", node)

# ---- methods -------------------------------------------------------------------------


def _want_bytes(cx, v: Value, name: str, node) -> Value:
    if not is_bytes(v):
        cx.error(f"bytes.{name}() takes bytes in compiled code, not {v.type}", node)
    return as_str(cx, v, node)


def _sub(cx, v: Value, name: str, node) -> Value:
    """The subsequence argument of find/count/index: bytes, or an int (one byte)."""
    if isinstance(v.type, (T.IntType, T.BoolType)):
        return strings.str_char(cx, _byte_value(cx, v, node), node)
    if not is_bytes(v):
        cx.error(f"bytes.{name}() takes bytes or an int in compiled code, not {v.type}", node)
    return as_str(cx, v, node)


def _bound(cx, v: Value | None, default: int, name: str, node) -> Value:
    if v is None or isinstance(v.type, T.NoneType):
        return Const(default, T.I64)
    if not isinstance(v.type, (T.IntType, T.BoolType)):
        cx.error(f"slice indices of bytes.{name}() must be integers or None, not {v.type}", node)
    return v


def _search(cx, s: Value, name: str, node) -> Value:
    args = cx.positional(node, name, 1, 3)
    start = _bound(cx, args[1] if len(args) > 1 else None, 0, name, node)
    end = _bound(cx, args[2] if len(args) > 2 else None, _NO_END, name, node)
    sub = args[0]
    if name in ("startswith", "endswith"):
        fn = strlib.startswith if name == "startswith" else strlib.endswith
        parts = ([cx.emit("extract", [sub], T.BYTES, k, cx.loc(node)) for k in range(len(sub.type.elems))]
                 if isinstance(sub.type, T.TupleType) and all(map(is_bytes_type, sub.type.elems)) else [sub])
        hit: Value = Const(False, T.BOOL)
        for part in parts:
            if not is_bytes(part):
                cx.error(f"{name} first arg must be bytes or a tuple of bytes, not {part.type}", node)
            h = strings.str_lib(cx, fn, [s, as_str(cx, part, node), start, end], node)
            hit = h if isinstance(hit, Const) else cx.emit("or", [hit, h], T.BOOL, None, cx.loc(node))
        return hit
    sub = _sub(cx, sub, name, node)
    if name in ("index", "rindex"):         # bytes say "subsection", strs "substring"
        at = strings.str_lib(cx, strlib.find if name == "index" else strlib.rfind, [s, sub, start, end], node)
        cx.raise_if(cx.cmp("lt", at, Const(0, T.I64), node), "ValueError", "subsection not found", node)
        return at
    return strings.str_lib(cx, _SEARCH[name], [s, sub, start, end], node)


def _split(cx, s: Value, name: str, node) -> Value:
    sep, maxsplit = strings.split_args(cx, node, name)
    left = name == "split"
    if isinstance(sep.type, T.NoneType):
        fn = strtext.split_spaces if left else strtext.rsplit_spaces
        return _lib_bytes(cx, fn, [s, maxsplit, Const(True, T.BOOL)], node)
    sep = _want_bytes(cx, sep, name, node)
    return _lib_bytes(cx, strtext.split_sep if left else strtext.rsplit_sep, [s, sep, maxsplit], node)


def _join(cx, s: Value, node) -> Value:
    if len(node.args) == 1 and not node.keywords and cx.walks_generator(node.args[0]):
        parts = cx.generator_list(node.args[0])
    else:
        (parts,) = cx.positional(node, "join", 1)
    if isinstance(parts.type, T.TupleType) and parts.type.elems and all(map(is_bytes_type, parts.type.elems)):
        n, item, et = cx.iterable_value(parts, node)
        lst = cx.new_list(T.BYTES, n, node)
        cx.fill_from(lst, Const(0, T.I64), (n, item, et), node)
        parts = lst
    if isinstance(parts.type, T.ListType):
        cx.merge_pending(parts.type.elem, T.BYTES)
    if not (type(parts.type) is T.ListType and cx.read_type(parts) == T.BYTES):
        cx.error(f"bytes.join() takes a list or tuple of bytes in compiled code, not {parts.type}", node)
    view = cx.emit("convert", [parts], T.ListType(T.STR), None, cx.loc(node))
    return as_bytes(cx, strings.str_lib(cx, strlib.join, [s, view], node), node)


def _decode(cx, s: Value, node) -> Value:
    """b.decode(encoding="utf-8", errors="strict"): CPython's codecs (pyhooks.codecs_text)."""
    codec = _codec_args(cx, node, "decode")
    return cx.emit("str_py", [s, codec], T.STR, "bytes_decode", cx.loc(node))


def _codec_args(cx, node: ast.Call, name: str) -> Value:
    """The encoding and errors arguments of encode/decode as one str "encoding\\0errors"."""
    values = strings.call_args(cx, node, name, ("encoding", "errors"), evaluate=True)
    parts = []
    for v, default in zip(values, ("utf-8", "strict")):
        v = cx.expr(v) if v is not None else strings.str_constant(cx, default, node)
        if not strings.is_str(v):
            cx.error(f"{name}() argument must be str, not {v.type}", node)
        parts.append(v)
    sep = strings.str_constant(cx, "\0", node)
    return strings.str_concat(cx, strings.str_concat(cx, parts[0], sep, node), parts[1], node)


def str_encode(cx, s: Value, node: ast.Call) -> Value:
    """s.encode(encoding="utf-8", errors="strict"): CPython's codecs."""
    codec = _codec_args(cx, node, "encode")
    return as_bytes(cx, cx.emit("str_py", [s, codec], T.STR, "str_encode", cx.loc(node)), node)


def bytes_method(cx, b: Value, name: str, node: ast.Call) -> Value:
    s = as_str(cx, b, node)
    if node.keywords and name not in ("split", "rsplit", "decode", "splitlines"):
        cx.error(f"bytes.{name}() takes no keyword arguments in compiled code", node)
    if name == "decode":
        return _decode(cx, s, node)
    if name == "hex":
        cx.positional(node, name, 0)
        return strings.str_lib(cx, byteslib.hex_of, [s], node)
    if name in _SEARCH or name in ("startswith", "endswith"):
        return _search(cx, s, name, node)
    if name in ("lower", "upper"):
        cx.positional(node, name, 0)
        return _lib_bytes(cx, strtext.ascii_lower if name == "lower" else strtext.ascii_upper, [s], node)
    if name in _CLASSES:
        cx.positional(node, name, 0)
        return strings.str_lib(cx, byteslib.all_in, [s, Const(_CLASSES[name], T.I64)], node)
    if name in ("isupper", "islower"):
        cx.positional(node, name, 0)
        return strings.str_lib(cx, byteslib.is_cased, [s, Const(name == "isupper", T.BOOL)], node)
    if name in ("capitalize", "title", "swapcase"):
        cx.positional(node, name, 0)
        how = ("capitalize", "title", "swapcase").index(name)
        return _lib_bytes(cx, byteslib.recase, [s, Const(how, T.I64)], node)
    if name == "istitle":
        cx.positional(node, name, 0)
        return strings.str_lib(cx, byteslib.is_title, [s], node)
    if name == "splitlines":
        values = strings.call_args(cx, node, name, ("keepends",))
        keep = cx.truth(cx.expr(values[0]), node) if values[0] is not None else Const(False, T.BOOL)
        return _lib_bytes(cx, byteslib.splitlines, [s, keep], node)
    if name == "translate":
        args = cx.positional(node, name, 1, 2)
        table, has_table = args[0], Const(not isinstance(args[0].type, T.NoneType), T.BOOL)
        table = _want_bytes(cx, table, name, node) if has_table.value else strings.str_constant(cx, "", node)
        delete = _want_bytes(cx, args[1], name, node) if len(args) == 2 else strings.str_constant(cx, "", node)
        return _lib_bytes(cx, byteslib.translate, [s, table, has_table, delete], node)
    if name == "maketrans":             # a static method, called through bytes
        return bytes_maketrans(cx, node)
    if name == "isascii":
        cx.positional(node, name, 0)
        return strings.str_lib(cx, strtext.is_ascii, [s], node)
    if name in ("strip", "lstrip", "rstrip"):
        args = cx.positional(node, name, 0, 1)
        chars = (strings.str_constant(cx, _SPACES, node) if not args or isinstance(args[0].type, T.NoneType)
                 else _want_bytes(cx, args[0], name, node))
        flags = [Const(name != "rstrip", T.BOOL), Const(name != "lstrip", T.BOOL)]
        return _lib_bytes(cx, strtext.strip_chars, [s, chars] + flags, node)
    if name in ("split", "rsplit"):
        return _split(cx, s, name, node)
    if name == "join":
        return _join(cx, s, node)
    if name == "replace":
        args = cx.positional(node, name, 2, 3)
        old, new = (_want_bytes(cx, a, name, node) for a in args[:2])
        limit = args[2] if len(args) == 3 else Const(-1, T.I64)
        return _lib_bytes(cx, strtext.replace, [s, old, new, limit], node)
    if name in ("partition", "rpartition", "removeprefix", "removesuffix"):
        (arg,) = cx.positional(node, name, 1)
        return _lib_bytes(cx, getattr(strtext, name), [s, _want_bytes(cx, arg, name, node)], node)
    if name == "zfill":
        (width,) = cx.positional(node, name, 1)
        return _lib_bytes(cx, strtext.zfill, [s, width], node)
    if name in _JUSTIFY:
        args = cx.positional(node, name, 1, 2)
        fill: Value = Const(32, T.I64)
        if len(args) == 2:
            f = _want_bytes(cx, args[1], name, node)
            cx.raise_if(cx.cmp("ne", strings.str_len(cx, f, node), Const(1, T.I64), node), "TypeError",
                        f"{name}() argument 2 must be a byte string of length 1, not bytes", node)
            fill = strings.str_code(cx, f, Const(0, T.I64), node)
        return _lib_bytes(cx, _JUSTIFY[name], [s, args[0], fill], node)
    cx.error(f"bytes.{name}() is not supported in compiled code", node.func)

# ---- making bytes --------------------------------------------------------------------


@lowers(bytes)
def builtin_bytes(cx, node: ast.Call, name) -> Value:
    """bytes(), bytes(n), bytes(ints), bytes(b), bytes(s, encoding[, errors])."""
    if not node.args and not node.keywords:
        return bytes_constant(cx, b"", node)
    if len(node.args) > 1 or node.keywords:
        rest = ast.Call(node.func, node.args[1:], node.keywords)
        s = cx.expr(node.args[0])
        if not strings.is_str(s):
            cx.raise_always("TypeError", "encoding without a string argument", node)
            return Undef(T.BYTES, cx.loc(node))
        return str_encode(cx, s, ast.copy_location(rest, node))
    arg = node.args[0]
    if cx.walks_generator(arg):
        xs = cx.generator_list(arg)
    else:
        xs = cx.expr(arg)
    t = xs.type
    if is_bytes(xs):
        return xs
    if strings.is_str(xs):
        cx.raise_always("TypeError", "string argument without an encoding", node)
        return Undef(T.BYTES, cx.loc(node))
    if isinstance(t, (T.IntType, T.BoolType)):
        return _lib_bytes(cx, byteslib.zeros, [cx.coerce(xs, T.I64, node)], node)
    return _from_ints(cx, xs, "bytes()", node)


def _from_ints(cx, xs: Value, what: str, node) -> Value:
    """The bytes of the ints `xs` gives (ValueError for one outside 0..255): a list of ints
    read as it is, any other iterable of ints copied into one first."""
    if not (type(xs.type) is T.ListType and isinstance(cx.read_type(xs), (T.IntType, T.BoolType))):
        n, item, et = cx.iterable_value(xs, node)
        if not isinstance(et, (T.IntType, T.BoolType)):
            cx.error(f"{what} of elements of type {et} is not supported in compiled code (ints are)", node)
        lst = cx.new_list(T.I64, n, node)
        cx.fill_from(lst, Const(0, T.I64), (n, item, et), node)
        xs = lst
    return _lib_bytes(cx, byteslib.from_ints, [xs], node)


def bytes_maketrans(cx, node: ast.Call) -> Value:
    """bytes.maketrans(frm, to): the 256-byte table of `translate`."""
    frm, to = cx.positional(node, "maketrans", 2)
    return _lib_bytes(cx, byteslib.maketrans, [_want_bytes(cx, frm, "maketrans", node),
                                               _want_bytes(cx, to, "maketrans", node)], node)


def bytes_fromhex(cx, node: ast.Call) -> Value:
    (s,) = cx.positional(node, "fromhex", 1)
    if not strings.is_str(s):
        cx.error(f"fromhex() argument must be str, not {s.type}", node)
    return _lib_bytes(cx, byteslib.from_hex, [s], node)


def _byteorder(cx, args: list, keywords: dict, at: int, node) -> Value:
    """Whether the byteorder argument (position `at`, or keyword; default "big") is "big";
    ValueError as CPython's for any other than "big" and "little"."""
    v = args[at] if len(args) > at else keywords.pop("byteorder", None)
    if v is None:
        return Const(True, T.BOOL)
    v = cx.expr(v)
    if not strings.is_str(v):
        cx.error(f"byteorder must be a str, not {v.type}", node)
    big = strings.str_compare(cx, ast.Eq(), v, strings.str_constant(cx, "big", node), node)
    little = strings.str_compare(cx, ast.Eq(), v, strings.str_constant(cx, "little", node), node)
    neither = cx.emit("not", [cx.emit("or", [big, little], T.BOOL, None, cx.loc(node))], T.BOOL, None, cx.loc(node))
    cx.raise_if(neither, "ValueError", "byteorder must be either 'little' or 'big'", node)
    return big


def _signed(cx, keywords: dict, node) -> Value:
    v = keywords.pop("signed", None)
    return Const(False, T.BOOL) if v is None else cx.truth(cx.expr(v), node)


def int_from_bytes(cx, node: ast.Call) -> Value:
    """int.from_bytes(b, byteorder="big", *, signed=False)."""
    strings.evaluate_in_order(cx, node)
    args, keywords = list(node.args), {k.arg: k.value for k in node.keywords}
    data = args[0] if args else keywords.pop("bytes", None)
    if data is None or len(args) > 2:
        cx.error("int.from_bytes() takes bytes, byteorder and signed= in compiled code", node)
    b = cx.expr(data)
    if not is_bytes(b):
        b = _from_ints(cx, b, "int.from_bytes()", node)
    big = _byteorder(cx, args, keywords, 1, node)
    signed = _signed(cx, keywords, node)
    if keywords:
        cx.error(f"int.from_bytes() got an unexpected keyword argument '{next(iter(keywords))}'", node)
    return _lib(cx, byteslib.from_bytes, [b, big, signed], node)


def int_to_bytes(cx, x: Value, node: ast.Call) -> Value:
    """n.to_bytes(length=1, byteorder="big", *, signed=False)."""
    strings.evaluate_in_order(cx, node)
    args, keywords = list(node.args), {k.arg: k.value for k in node.keywords}
    if len(args) > 2:
        cx.error("to_bytes() takes at most 2 positional arguments", node)
    length = args[0] if args else keywords.pop("length", None)
    length = Const(1, T.I64) if length is None else cx.expr(length)
    if not isinstance(length.type, (T.IntType, T.BoolType)):
        cx.error(f"to_bytes() length must be an int, not {length.type}", node)
    big = _byteorder(cx, args, keywords, 1, node)
    signed = _signed(cx, keywords, node)
    if keywords:
        cx.error(f"to_bytes() got an unexpected keyword argument '{next(iter(keywords))}'", node)
    return _lib_bytes(cx, byteslib.to_bytes, [cx.coerce(x, T.I64, node), length, big, signed], node)


checks_int64(byteslib.from_bytes)      # (an int beyond int64: OverflowError, then run as Python)
lowers(bytes.fromhex, equal=True)(lambda low, node, name: bytes_fromhex(low, node))
lowers(bytes.maketrans)(lambda low, node, name: bytes_maketrans(low, node))
lowers(int.from_bytes, equal=True)(lambda low, node, name: int_from_bytes(low, node))
METHODS.register(("int", "to_bytes"), lambda low, x, node: int_to_bytes(low, x, node))
METHODS.register(("bytes", ANY), lambda low, b, node: bytes_method(low, b, node.func.attr, node))
BINOPS.register(("bytes", ANY), lambda low, op, a, b, node: bytes_binop(low, op, a, b, node))
