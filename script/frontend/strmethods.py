"""The methods of strs in compiled code (`s.split()`, `s.find(t)`, `"{}".format(x)`, ...):
functions over the lowering `cx`, with strings.py's help. Each method is a call
of a function of strlib.py or strtext.py, written in the compiled subset, or a `str_py` op
for what CPython's Unicode tables decide (docs/strings.md)."""

from __future__ import annotations

import ast

from script.frontend import bytes_values, default_tables, dict_methods, str_format, strings
from script.lib.python import listlib, strlib, strtext
from script.frontend.optional import python_name
from script.frontend.pyref import PyRef
from script.frontend.strings import char_code, is_str
from script.frontend.registry import ANY, BINOPS, METHODS
from script.ir import types as T
from script.ir.core import Const, Instr, Value

_NO_END = 1 << 62                   # an end index beyond any string (ADJUST_INDICES clamps it)

# Methods without arguments computed by strlib or CPython (ops.STR_PY).
_LIB_METHODS = {"lower": strtext.lower, "upper": strtext.upper, "isdigit": strtext.isdigit,
                "isalpha": strtext.isalpha, "isalnum": strtext.isalnum, "isspace": strtext.isspace,
                "isascii": strtext.is_ascii}
_PY_METHODS = ("casefold", "title", "capitalize", "swapcase", "isupper", "islower", "isdecimal",
               "isnumeric", "istitle", "isidentifier", "isprintable")
_SEARCH_METHODS = {"find": strlib.find, "rfind": strlib.rfind, "index": strlib.index,
                   "rindex": strlib.rindex, "count": strlib.count}
# The methods a loop walks part by part (is_str_parts): each list-making strtext function
# beside its generator.
_PART_GENERATORS = {"split": {strtext.split_spaces: strtext.iter_split_spaces,
                              strtext.split_sep: strtext.iter_split_sep},
                    "splitlines": {strtext.splitlines: strtext.iter_splitlines}}
_JUSTIFY = {"ljust": strtext.ljust, "rjust": strtext.rjust, "center": strtext.center}


def str_maketrans(cx, node: ast.Call) -> Value:
    """`str.maketrans(x, y[, z])`: in compiled code a dict of characters to their
    replacements ("" to delete), which only `s.translate(table)` reads as CPython's table
    (returned to Python it is not CPython's dict of ordinals)."""
    if node.keywords or not 2 <= len(node.args) <= 3:
        cx.error("str.maketrans() takes two or three strs in compiled code (not a dict)", node)
    args = [cx.expr(a) for a in node.args] + [cx.expr(ast.Constant("")) for _ in range(3 - len(node.args))]
    for a, n in zip(args, node.args):
        if a.type != T.STR:
            cx.error(f"str.maketrans() takes strs in compiled code, not {a.type}", n)
    return cx.call_script(cx.ctx.info_for(strtext.maketrans), ast.Call(node.func, [], []), leading=args)


def str_translate(cx, s: Value, node: ast.Call) -> Value:
    (table,) = cx.positional(node, "translate", 1)
    t = table.type
    if isinstance(t, T.DictType) and t.key == T.STR and t.value == T.STR:
        fn = strtext.translate_chars
    elif isinstance(t, T.DictType) and isinstance(t.key, T.IntType) and t.value == T.STR:
        fn = strtext.translate_ords
    elif isinstance(t, T.DictType) and isinstance(t.key, T.IntType) and isinstance(t.value, T.IntType):
        fn = strtext.translate_ord_ords
    else:
        cx.error(f"str.translate() takes a str.maketrans table or a dict of ordinals to strs or "
                 f"ordinals in compiled code, not {t}", node)
    return cx.call_script(cx.ctx.info_for(fn), ast.Call(node.func, [], []), leading=(s, table))


def str_method(cx, s: Value, name: str, node: ast.Call) -> Value:
    if name == "encode":
        return bytes_values.str_encode(cx, s, node)
    if name == "maketrans":             # a static method, called through a str (`s.maketrans(x, y)`)
        return str_maketrans(cx, node)
    if node.keywords and name not in ("split", "rsplit", "splitlines", "format", "expandtabs"):
        cx.error(f"str.{name}() takes no keyword arguments", node)
    if name in _LIB_METHODS:
        cx.positional(node, name, 0)
        return strings.str_lib(cx, _LIB_METHODS[name], [s], node)
    if name == "translate":
        return str_translate(cx, s, node)
    if name in _PY_METHODS:
        cx.positional(node, name, 0)
        rt = T.STR if name in ("casefold", "title", "capitalize", "swapcase") else T.BOOL
        return cx.emit("str_py", [s], rt, name, cx.loc(node))
    if name in _SEARCH_METHODS or name in ("startswith", "endswith"):
        return _search(cx, s, name, node)
    if name in ("strip", "lstrip", "rstrip"):
        args = cx.positional(node, name, 0, 1)
        left, right = name != "rstrip", name != "lstrip"
        flags = [Const(left, T.BOOL), Const(right, T.BOOL)]
        if not args or isinstance(args[0].type, T.NoneType):
            return strings.str_lib(cx, strtext.strip_spaces, [s] + flags, node)
        _want_str(cx, args[0], name, node)
        return strings.str_lib(cx, strtext.strip_chars, [s, args[0]] + flags, node)
    if name in ("split", "rsplit", "splitlines"):
        return strings.str_lib(cx, *_parts_call(cx, s, name, node), node)
    if name == "join":
        if len(node.args) == 1 and not node.keywords and cx.walks_generator(node.args[0]):
            parts = cx.generator_list(node.args[0])
        elif len(node.args) == 1 and not node.keywords and default_tables.fromkeys_call(cx, node.args[0]):
            parts = cx.list_of(node.args[0], node)        # "".join(dict.fromkeys(s))
        else:
            (parts,) = cx.positional(node, "join", 1)
        if isinstance(parts.type, T.HashType):                # a dict's keys, a set's elements
            parts = dict_methods.table_list(cx, parts, "keys", node)
        if isinstance(parts.type, T.ListType):
            cx.merge_pending(parts.type.elem, T.STR)      # (a `[]` joined before its first store)
        if not (isinstance(parts.type, T.ListType) and cx.read_type(parts) == T.STR):
            if isinstance(parts.type, (T.ListType, T.TupleType, T.StrType)):    # a str: its characters
                parts = _str_list(cx, parts, node)
            else:
                cx.error(f"str.join() takes a list of strs in compiled code, not {parts.type}", node)
        return strings.str_lib(cx, strlib.join, [s, parts], node)
    if name == "replace":
        args = cx.positional(node, name, 2, 3)
        for a in args[:2]:
            _want_str(cx, a, name, node)
        limit = args[2] if len(args) == 3 else Const(-1, T.I64)
        return strings.str_lib(cx, strtext.replace, [s, args[0], args[1], limit], node)
    if name in _JUSTIFY or name == "zfill":
        return _justify(cx, s, name, node)
    if name == "expandtabs":
        given = list(node.args) + [k.value for k in node.keywords if k.arg == "tabsize"]
        if len(given) > 1 or any(k.arg != "tabsize" for k in node.keywords):
            cx.error("expandtabs() takes at most one argument (tabsize)", node)
        size = cx.coerce(cx.expr(given[0]), T.I64, node) if given else Const(8, T.I64)
        return strings.str_lib(cx, strtext.expandtabs, [s, size], node)
    if name in ("partition", "rpartition", "removeprefix", "removesuffix"):
        (arg,) = cx.positional(node, name, 1)
        _want_str(cx, arg, name, node)
        return strings.str_lib(cx, getattr(strtext, name), [s, arg], node)
    if name == "format":
        return str_format.str_format(cx, s, node)
    cx.error(f"str has no method '{name}' in compiled code", node.func)


def _want_str(cx, v: Value, name: str, node) -> None:
    if not is_str(v):
        cx.error(f"str.{name}() argument must be str, not {v.type}", node)


def _tuple_of_list(cx, arg) -> bool:
    """Whether `arg` is `tuple(x)` of the builtin tuple and one argument."""
    if not (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id == "tuple"
            and len(arg.args) == 1 and not arg.keywords and arg.func.id not in cx.locals):
        return False
    return getattr(cx.lookup(arg.func), "obj", None) is tuple


def _want_int(cx, v: Value, name: str, node) -> Value:
    if isinstance(v.type, T.NoneType):
        return None
    if not isinstance(v.type, (T.IntType, T.BoolType)):
        cx.error(f"slice indices of str.{name}() must be integers or None, not {v.type}", node)
    return v


def _search(cx, s: Value, name: str, node) -> Value:
    if name in ("startswith", "endswith") and node.args and _tuple_of_list(cx, node.args[0]):
        # s.endswith(tuple(exts)): any of the list's strs (the tuple itself is never made)
        parts = cx.list_of(node.args[0].args[0], node)
        if cx.read_type(parts) != T.STR:
            cx.error(f"{name} first arg must be str or a tuple of str", node)
        rest = [cx.expr(a) for a in node.args[1:3]]
        if node.keywords or len(node.args) > 3:
            cx.error(f"{name}() takes at most 3 arguments", node)
        start = (_want_int(cx, rest[0], name, node) if rest else None) or Const(0, T.I64)
        end = (_want_int(cx, rest[1], name, node) if len(rest) > 1 else None) or Const(_NO_END, T.I64)
        fn = strlib.startswith_any if name == "startswith" else strlib.endswith_any
        return strings.str_lib(cx, fn, [s, parts, start, end], node)
    args = cx.positional(node, name, 1, 3)
    start = (_want_int(cx, args[1], name, node) if len(args) > 1 else None) or Const(0, T.I64)
    end = (_want_int(cx, args[2], name, node) if len(args) > 2 else None) or Const(_NO_END, T.I64)
    sub = args[0]
    if name in ("startswith", "endswith"):
        fn = strlib.startswith if name == "startswith" else strlib.endswith
        if isinstance(sub.type, T.TupleType):       # any of the tuple's strs
            if not all(isinstance(e, T.StrType) for e in sub.type.elems):
                cx.error(f"{name} first arg must be str or a tuple of str", node)
            hit: Value = Const(False, T.BOOL)
            for k in range(len(sub.type.elems)):
                part = cx.emit("extract", [sub], T.STR, k, cx.loc(node))
                h = strings.str_lib(cx, fn, [s, part, start, end], node)
                hit = h if isinstance(hit, Const) else cx.emit("or", [hit, h], T.BOOL, None, cx.loc(node))
            return hit
        if not is_str(sub):
            cx.error(f"{name} first arg must be str or a tuple of str, not {sub.type}", node)
        return strings.str_lib(cx, fn, [s, sub, start, end], node)
    if not is_str(sub):
        cx.error(f"must be str, not {sub.type}", node)
    return strings.str_lib(cx, _SEARCH_METHODS[name], [s, sub, start, end], node)


def _parts_call(cx, s: Value, name: str, node) -> tuple:
    """(the strtext function, its arguments) of `s.split(...)`, `s.rsplit(...)` or
    `s.splitlines(...)`; the arguments are evaluated here."""
    if name == "splitlines":
        values = list(node.args) + [k.value for k in node.keywords if k.arg == "keepends"]
        if len(values) > 1 or any(k.arg != "keepends" for k in node.keywords):
            cx.error("splitlines() takes one argument, keepends", node)
        keep = cx.truth(cx.expr(values[0]), node) if values else Const(False, T.BOOL)
        return strtext.splitlines, [s, keep]
    sep, maxsplit = strings.split_args(cx, node, name)
    left = name == "split"
    if isinstance(sep.type, T.NoneType):
        return strtext.split_spaces if left else strtext.rsplit_spaces, [s, maxsplit, Const(False, T.BOOL)]
    _want_str(cx, sep, name, node)
    return strtext.split_sep if left else strtext.rsplit_sep, [s, sep, maxsplit]

# ---- loops over the parts of a str -------------------------------------------------


def is_str_parts(cx, node) -> bool:
    """Whether `node` is `s.split(...)` or `s.splitlines(...)` of a str `s`, which a loop
    (a `for` statement, a comprehension's clause) walks part by part (walk_str_parts)
    instead of making the list of its parts. Asked where the loop evaluates its
    iterable: `s` is evaluated here, and given again by its next `expr` (pre_evaluate)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in _PART_GENERATORS):
        return False
    base = node.func.value
    if isinstance(base, ast.Name) and base.id not in cx.locals and isinstance(cx.callee_ref(base), PyRef):
        return False            # `re.split(...)`: a module's function
    if is_str(cx.pre_evaluate(base)):
        return True
    if isinstance(node.func.value, ast.Name):      # read again where it is used
        cx.pre_evaluated.pop(id(node.func.value), None)
    return False


def walk_str_parts(cx, node: ast.Call, on_item, done) -> None:
    """`on_item(part)` for each part of `node` (`is_str_parts`), made when the loop asks
    for it: the strtext generator beside the list-making function is inlined here
    (generators.py), so each part lives only as long as the loop keeps it."""
    s = cx.expr(node.func.value)
    fn, args = _parts_call(cx, s, node.func.attr, node)
    info = cx.ctx.info_for(_PART_GENERATORS[node.func.attr][fn])
    cx.inline_generator(info, node, on_item, done, dict(zip(info.param_names, args)))


def _justify(cx, s: Value, name: str, node) -> Value:
    if name == "zfill":
        (width,) = cx.positional(node, name, 1)
        return strings.str_lib(cx, strtext.zfill, [s, width], node)
    args = cx.positional(node, name, 1, 2)
    fill: Value = Const(32, T.I64)
    if len(args) == 2:
        _want_str(cx, args[1], name, node)
        fill = char_code(args[1])
        if fill is None:
            n = strings.str_len(cx, args[1], node)
            cx.raise_if(cx.cmp("ne", n, Const(1, T.I64), node), "TypeError",
                        "The fill character must be exactly one character long", node)
            fill = strings.str_code(cx, args[1], Const(0, T.I64), node)
    return strings.str_lib(cx, _JUSTIFY[name], [s, args[0], fill], node)


def _str_list(cx, seq: Value, node) -> Value:
    """A new list[str] of the strs of a tuple (`sep.join(("a", b))`) or of the characters
    of a str (`"-".join(s)`); of strs that may be None, CPython's TypeError at the first
    None (`sequence item 1: expected str instance, NoneType found`)."""
    if isinstance(seq.type, T.ListType) and (isinstance(seq.type.elem, (T.UnionType, T.IntFloatType))
                                             or seq.type.elem == T.OptionalType(T.STR)):
        callee = cx.ctx.callee(cx, cx.ctx.info_for(listlib.str_items), (seq.type,), node)
        return cx.emit("call", [seq], callee.ret_type, callee, cx.loc(node))
    n, item, et = cx.iterable_value(seq, node)
    if et in (T.I64, T.F64, T.BOOL, T.C128, T.BYTES) or isinstance(et, (T.ListType, T.TupleType)) \
            and not isinstance(et, (T.UnionType, T.IntFloatType, T.OptionalType, T.ClassType)):
        # (`", ".join(numbers)`: CPython's TypeError at the first element, when there is one)
        cx.raise_if(cx.cmp("gt", n, Const(0, T.I64), node), "TypeError",
                    f"sequence item 0: expected str instance, {python_name(et)} found", node)
        return cx.new_list(T.STR, Const(0, T.I64), node)
    if et not in (T.STR, T.OptionalType(T.STR)):
        cx.error(f"str.join() takes strs, not elements of type {et}", node)
    lst = cx.new_list(et, n, node)
    cx.fill_from(lst, Const(0, T.I64), (n, item, et), node)
    return lst if et == T.STR else _str_list(cx, lst, node)     # (strs or None: listlib.str_items)


def _str_method(low, s: Value, node: ast.Call) -> Value:
    return str_method(low, s, node.func.attr, node)


METHODS.register(("str", ANY), _str_method)
BINOPS.register(("str", ANY), lambda low, op, a, b, node: strings.str_binop(low, op, a, b, node))
