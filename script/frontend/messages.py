"""Exception messages built at run time: f-strings, `str.format` and `%` formatting of the
values a `raise` or an `assert` reports.

A message becomes the printf-style text of an `ExcInfo` (script.ir.ops) and the values its
directives take, in order:

    %lld    a signed int (and unsigned ones below 2**63), widened to i64
    %llu    a u64
    %B      a bool: ``True`` / ``False``
    %R      a float as Python prints it (``str(x)``, the shortest repr)
    %.Nf    a float with Python's ``format(x, ".Nf")``; also ``e`` and ``g``
    %U      a str (frontend/strings.py), its text
    %%      a percent sign

The backends turn these into what the runtime needs (llvm.abi `encode_message`). Python
computes ``str(x)`` of each value when the message is built; so does compiled code, from the
same bits: the messages are equal. What has no such directive (width, alignment, ``x``
and other integer presentations, tuples, arrays) is a CompileError at its place.
"""

from __future__ import annotations

import ast
import re

from script.frontend.container_text import has_text
from script.ir import types as T
from script.ir.core import Const, Value
from script.ir.ops import ExcInfo
from script.frontend import (complex_lowering, dicts, lists, mixed_numbers, optional, printf, static_args, str_format,
                             strings)
from script.frontend.optional import is_optional

# A message that is the repr of the exception's arguments (runtime.entry KEYED_MARK).
ARGS_MARK = "\x01"
_FLOAT_SPEC = re.compile(r"(?:\.(\d+))?([feg])")
_PERCENT = re.compile(r"%(?:(%)|(\.\d+)?([dirsfeg]))")


def escape(text: str) -> str:
    return text.replace("%", "%%")


class ComplexText:
    """How complex numbers are written in the message being built (`FunctionLowering.complex_text`):
    `markers`, while a raise's message is built, the numbers whose form (`(a+bj)` or a bare
    `bj`) the raise decides at run time (`raise_with_complex`); `forms`, while `print` is
    built, id(number) -> whether it is written bare."""

    __slots__ = ("markers", "forms")

    def __init__(self):
        self.markers: list | None = None
        self.forms: dict = {}


def exception_message(cx, node) -> tuple[str, list[Value]]:
    fixed = _static_text(cx, node)
    if fixed is not None:
        return escape(fixed), []
    if isinstance(node, ast.JoinedStr):
        return _fstring(cx, node)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format" \
            and isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str):
        return _str_format(cx, node)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) \
            and isinstance(node.left.value, str):
        return _percent(cx, node)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and _is_text(cx, node.left) \
            and _is_text(cx, node.right):
        (t1, v1), (t2, v2) = exception_message(cx, node.left), exception_message(cx, node.right)
        return t1 + t2, v1 + v2
    if _is_str_call(node):
        return _value_text(cx, node.args[0], "", "r" if node.func.id == "repr" else None)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return escape(str(node.value)), []
    v = optional.expr_opt(cx, node, num=True)
    if mixed_numbers.is_num(v) or is_optional(v):    # an int or a float, a value or None:
        v = strings.str_of(cx, v, node)                        # its str, made where it runs
    return _directive(cx, v, "", None, node)


def builtin_print(cx, node: ast.Call, name) -> Value:
    """print(*values, sep=' ', end='\\n') of ints, floats, bools, strings and messages
    built as for exceptions; `sep`/`end` constant strings. Writes to sys.stdout."""
    options = {"sep": " ", "end": "\n"}
    for k in node.keywords:
        if k.arg not in options:
            cx.error(f"print() keyword '{k.arg}' is not supported in compiled code", k.value)
        if not (isinstance(k.value, ast.Constant) and isinstance(k.value.value, (str, type(None)))):
            cx.error(f"print() {k.arg}= must be a constant string here", k.value)
        if k.value.value is not None:
            options[k.arg] = k.value.value
    complex_args = print_complex_args(cx, node)
    if complex_args:
        print_complex(cx, node, options, complex_args)
        return Const(None, T.NONE)
    emit_print(cx, node, options)
    return Const(None, T.NONE)


def emit_print(cx, node: ast.Call, options: dict) -> None:
    if any(isinstance(a, ast.Starred) for a in node.args):
        return print_unpacked(cx, node, options)
    text, values = [], []
    for arg in node.args:
        t, vs = exception_message(cx, arg)
        text.append(t)
        values += vs
    message = escape(options["sep"]).join(text) + escape(options["end"])
    cx.emit("print", values, T.NONE, message, cx.loc(node))


def print_unpacked(cx, node: ast.Call, options: dict) -> None:
    """print(a, *xs, b): the str of each value (each element of `xs` in turn) joined with
    `sep` when it runs, since the number of values is known only then."""
    from script.lib.python import strlib
    parts = lists.new_list(cx, T.STR, Const(0, T.I64), node)
    for arg in node.args:
        if not isinstance(arg, ast.Starred):
            lists.append_item(cx, parts, strings.str_of(cx, optional.expr_opt(cx, arg, num=True), arg), arg)
            continue
        n, item, _ = cx.iterable(arg.value)
        lists.for_range(cx, arg, n, lambda i: lists.append_item(cx, parts, strings.str_of(cx, item(i), arg), arg))
    text = strings.str_lib(cx, strlib.join, [strings.str_constant(cx, options["sep"], node), parts], node)
    cx.emit("print", [text], T.NONE, "%U" + escape(options["end"]), cx.loc(node))


def raise_message(cx, nodes: list) -> tuple[str | None, list[Value], list[Value]]:
    """`args_message` for a raise: complex numbers in it become markers (the third item
    lists them), which `raise_with_complex` resolves."""
    if not nodes:
        return None, [], []
    cx.complex_text.markers = []
    try:
        text, values = args_message(cx, nodes)
        return text, values, cx.complex_text.markers
    finally:
        cx.complex_text.markers = None


def args_message(cx, nodes: list) -> tuple[str, list[Value]]:
    """The message of an exception made with the arguments `nodes` (``raise C(*nodes)``,
    ``assert test, node``). One argument that is text (a str, a caught exception) is the
    message itself, as CPython's str(e) is. Other arguments keep
    their types, as CPython's ``e.args`` does: the message is ARGS_MARK and the repr of
    the value (``KeyError(3)``), or of the tuple of them after a ``*`` (``ValueError('bad',
    3)``), which the runtime reads back into the arguments (script.pyhooks.keyerror.key_args)."""
    if len(nodes) == 1 and _is_text_arg(cx, nodes[0]):
        return exception_message(cx, nodes[0])
    parts, values = [], []
    for node in nodes:
        text, vs = _arg_repr(cx, node)
        parts.append(text)
        values += vs
    if len(nodes) == 1:
        return ARGS_MARK + parts[0], values
    return ARGS_MARK + "*(" + ", ".join(parts) + ")", values


def _is_text_arg(cx, node) -> bool:
    """Whether exception argument `node` is text; a plain expression is evaluated here,
    once (`pre_evaluated` hands its value on)."""
    if _is_text(cx, node):
        return True
    if isinstance(node, ast.Constant):
        return not isinstance(node.value, (int, float, complex, type(None)))
    v = cx.expr(node)
    cx.pre_evaluated[id(node)] = v
    return isinstance(v.type, T.StrType) or v.type == T.EXC


def _arg_repr(cx, node) -> tuple[str, list[Value]]:
    """The repr of an exception argument, as a message format and its values."""
    fixed = _static_text(cx, node)
    if fixed is not None:
        return escape(repr(fixed)), []
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, complex, type(None))):
        return escape(repr(node.value)), []
    v = cx.expr(node)
    if cx.arg_types is not None:            # a raise of a class CPython builds (built_exceptions.py)
        cx.arg_types[id(node)] = v.type
    if isinstance(v, Const) and v.value is None or isinstance(v.type, T.NoneType):
        return "None", []
    if isinstance(v.type, T.ComplexType):       # complex_repr's text (a raise resolves it)
        return complex_directive(cx, cx.coerce(v, T.C128, node), node)
    if not _is_arg_type(v.type):
        cx.error(f"a value of type {v.type} cannot be an exception's argument in compiled code "
                 "(ints, floats, complex numbers, bools, strs, None, and tuples of ints, floats, "
                 "bools and strs can)", node)
    text, values = dicts.key_message(cx, v, node)        # dicts.py: the repr of a key
    return text.replace(ARGS_MARK, ""), values


def raise_with_complex(cx, exc: str, text: str, values: list, numbers: list, node) -> None:
    """Raise `exc` with message `text` whose markers stand for `numbers`: each written as
    CPython's complex_repr writes it (``1j`` for a +0.0 real part, else ``(re+imj)``),
    one raise per combination in branches (at most three complex numbers)."""
    if len(numbers) > 3:
        cx.error("a message with more than three complex numbers is not supported in compiled code", node)
    loc = cx.loc(node)
    bare = []
    for z in numbers:
        re = complex_lowering.complex_part(cx, z, 0, node)
        re = cx.coerce(re, T.F64, node)
        sign = cx.emit("math", [Const(1.0, T.F64), re], T.F64, "copysign", loc)
        bare.append(cx.emit("and", [cx.cmp("eq", re, Const(0.0, T.F64), node),
                                    cx.cmp("gt", sign, Const(0.0, T.F64), node)], T.BOOL, None, loc))

    def variant(chosen: list):
        if len(chosen) < len(numbers):
            cx.choose(bare[len(chosen)], lambda: variant(chosen + [True]),
                      lambda: variant(chosen + [False]), node)
            return None
        t, vs = _resolve_markers(text, values, chosen, cx, node)
        cx.emit_raise(ExcInfo(exc, t), vs, node)
        return None
    variant([])
    cx.block = None


def print_complex_args(cx, node: ast.Call) -> dict:
    """print()'s arguments evaluated first, in order, when one is a complex number (a
    plain expression, not text): {id(arg node): value}; else {} and nothing evaluated."""
    plain = [a for a in node.args if not (_is_text(cx, a) or isinstance(a, ast.Constant))]
    if not plain or not any(isinstance(a, (ast.Name, ast.Call, ast.BinOp, ast.Attribute, ast.Subscript,
                                           ast.UnaryOp)) for a in plain):
        return {}
    values = {id(a): optional.expr_opt(cx, a, num=True) for a in plain}
    if not any(isinstance(v.type, T.ComplexType) for v in values.values()):
        for a in plain:
            cx.pre_evaluated[id(a)] = values[id(a)]
        return {}
    return values


def print_complex(cx, node: ast.Call, options: dict, values: dict) -> None:
    """print() of complex numbers as CPython's complex_repr writes them: ``1j`` when the
    real part is +0.0, else ``(1+1j)``; one `print` per combination of those cases, in
    branches (at most three complex arguments)."""
    loc = cx.loc(node)
    numbers = [v for v in values.values() if isinstance(v.type, T.ComplexType)]
    if len(numbers) > 3:
        cx.error("print() of more than three complex numbers is not supported in compiled code", node)
    numbers = [cx.coerce(v, T.C128, node) for v in numbers]
    bare = []           # whether the real part is +0.0, for each
    for z in numbers:
        re = complex_lowering.complex_part(cx, z, 0, node)
        sign = cx.emit("math", [Const(1.0, T.F64), re], T.F64, "copysign", loc)
        bare.append(cx.emit("and", [cx.cmp("eq", re, Const(0.0, T.F64), node),
                                    cx.cmp("gt", sign, Const(0.0, T.F64), node)], T.BOOL, None, loc))
    complex_ids = [k for k, v in values.items() if isinstance(v.type, T.ComplexType)]

    def variant(chosen: list):
        if len(chosen) < len(numbers):
            cx.choose(bare[len(chosen)], lambda: variant(chosen + [True]),
                      lambda: variant(chosen + [False]), node)
            return None
        cx.complex_text.forms = {}
        for k, z, is_bare in zip(complex_ids, numbers, chosen):
            cx.complex_text.forms[id(z)] = is_bare
            values[k] = z
        for k, v in values.items():
            cx.pre_evaluated[k] = v
        emit_print(cx, node, options)
        cx.complex_text.forms = {}
        return None
    variant([])


def complex_directive(cx, z: Value, node) -> tuple[str, list[Value]]:
    markers, forms = cx.complex_text.markers, cx.complex_text.forms
    if markers is not None and id(z) not in forms:
        # a raise's message: a marker the raise resolves into one form per branch
        markers.append(z)
        return f"\x00{len(markers) - 1}\x00", [complex_lowering.complex_part(cx, z, k, node) for k in (0, 1)]
    if id(z) not in forms:
        cx.error("complex numbers can be printed (print(z)) and formatted in a raise's message, "
                 "not here, in compiled code", node)
    im = complex_lowering.complex_part(cx, z, 1, node)
    if forms[id(z)]:
        return "%Qj", [im]
    return "(%Q%+Qj)", [complex_lowering.complex_part(cx, z, 0, node), im]

# ---- the three ways to format ------------------------------------------------------


def _fstring(cx, node: ast.JoinedStr):
    if any(isinstance(part, ast.FormattedValue) and part.format_spec is not None
           and not all(isinstance(p, ast.Constant) for p in part.format_spec.values) for part in node.values):
        # a spec made at run time: the whole f-string as a str (strings.py)
        return _directive(cx, strings.expr_JoinedStr(cx, node), "", None, node)
    text, values = [], []
    for part in node.values:
        if isinstance(part, ast.Constant):
            text.append(escape(part.value))
            continue
        spec = "" if part.format_spec is None else "".join(p.value for p in part.format_spec.values)
        conversion = None if part.conversion == -1 else chr(part.conversion)
        t, vs = _value_text(cx, part.value, spec, conversion)
        text.append(t)
        values += vs
    return "".join(text), values


def _str_format(cx, node: ast.Call):
    template = node.func.value.value
    if any(k.arg is None for k in node.keywords):
        cx.error("**kwargs in calls is not supported", node)
    parsed = str_format.fields(cx, template, node.func.value)
    if any("{" in (spec or "") for _, _, spec, _ in parsed):
        # a spec made at run time: the whole call as a str (str_format.py)
        return _directive(cx, cx.expr(node), "", None, node)
    numbering = str_format.FieldNumbering(node, " in exception messages")
    text, values = [], []
    for literal, name, spec, conversion in parsed:
        text.append(escape(literal))
        if name is None:
            continue
        t, vs = _value_text(cx, numbering.arg(cx, name), spec or "", conversion)
        text.append(t)
        values += vs
    return "".join(text), values


def _percent(cx, node: ast.BinOp):
    """`template % values` as text with the values' directives. A template with a width or
    flags (`%7i`), or values that are one tuple (`% pair`, `% rows[i]`), is the str that
    printf.py computes, whole."""
    template = node.left.value
    if _PERCENT.sub("", template).count("%"):
        return _directive(cx, cx.expr(node), "", None, node)
    if not isinstance(node.right, ast.Tuple) and \
            isinstance(lists.pre_evaluate(cx, node.right).type, T.TupleType):
        return _directive(cx, printf.percent_format(cx, template, cx.expr(node.right), node), "", None, node)
    args = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
    text, values, pos, k = [], [], 0, 0
    for m in _PERCENT.finditer(template):
        text.append(escape(template[pos:m.start()]))
        pos = m.end()
        if m.group(1):
            text.append("%%")
            continue
        if k >= len(args):
            cx.error("not enough arguments for format string", node)
        precision, kind = m.group(2), m.group(3)
        k += 1
        if kind in "rs" and _is_str(args[k - 1]):
            t, vs = _value_text(cx, args[k - 1], "", kind)
            text.append(t)
            continue
        v = cx.expr(args[k - 1])
        if kind in "dirs":
            if kind in "di" and isinstance(v.type, T.FloatType):
                cx.error("%d of a float is not supported in exception messages", args[k - 1])
            if kind in "di" and isinstance(v.type, T.BoolType):
                v = cx.coerce(v, T.I64, args[k - 1])      # "%d" % True is '1'
            t, vs = _directive(cx, v, "", "r" if kind == "r" else None, args[k - 1])
        else:
            t, vs = _directive(cx, v, f".{(precision or '.6')[1:]}{kind}", None, args[k - 1])
        text.append(t)
        values += vs
    rest = template[pos:]
    if "%" in rest:
        cx.error(f"format directive {rest[rest.index('%'):][:3]!r} is not supported in exception messages",
                 node.left)
    text.append(escape(rest))
    if k != len(args):
        cx.error("not all arguments converted during string formatting", node)
    cx.pre_evaluated.pop(id(node.right), None)      # (a constant the loop did not evaluate)
    return "".join(text), values

# ---- one value ---------------------------------------------------------------------


def _value_text(cx, node, spec: str, conversion) -> tuple[str, list[Value]]:
    """The text of one formatted value: a string constant as it is, else a directive."""
    fixed = _static_text(cx, node)
    if fixed is not None:
        if spec and spec != "s":
            cx.error(f"format spec {spec!r} of a string is not supported in exception messages", node)
        return escape(repr(fixed) if conversion == "r" else fixed), []
    text = strings.type_text(cx, node) if not spec and conversion in (None, "s", "r") else None
    if text is not None:
        return _directive(cx, text, "", None, node)
    return _directive(cx, optional.expr_opt(cx, node) if not spec else cx.expr(node), spec, conversion, node)


def _static_text(cx, node) -> str | None:
    """The string `node` is when compiling: a constant, or a name bound to a string
    (a global, or a string argument bound by static_args.py); else None."""
    if _is_str(node):
        return node.value
    text = static_args.static_str(cx, node) if isinstance(node, ast.Name) else None
    return text if isinstance(text, str) else None


def _directive(cx, v: Value, spec: str, conversion, node) -> tuple[str, list[Value]]:
    """The directive that prints `v` as ``format(v, spec)`` after `conversion`."""
    t = v.type
    if conversion not in (None, "s", "r"):
        cx.error(f"the !{conversion} conversion is not supported in exception messages", node)
    if conversion is not None and spec:
        cx.error("a conversion with a format spec is not supported in exception messages", node)
    if T.is_instance_type(t) or isinstance(t, T.EnumType):         # its __str__ (class_methods.py, enum_values.py)
        v = strings.format_value(cx, v, strings.str_constant(cx, spec, node), node) if spec else \
            strings.str_of(cx, v, node, "r" if conversion == "r" else "s")
        return "%U", [v]
    if isinstance(t, T.BoolType) and not spec:
        return "%B", [v]
    if isinstance(t, T.NoneType) and not spec:
        return "None", []
    if isinstance(t, T.IntType) and spec in ("", "d"):
        if t == T.U64:
            return "%llu", [v]
        return "%lld", [v]
    if isinstance(t, (T.IntType, T.FloatType, T.BoolType)) and spec:
        m = _FLOAT_SPEC.fullmatch(spec)
        if m is None:
            cx.error(f"format spec {spec!r} is not supported in exception messages "
                     "(only .Nf, .Ne, .Ng and d)", node)
        return f"%.{m.group(1) or 6}{m.group(2)}", [cx.coerce(v, T.F64, node)]
    if isinstance(t, T.FloatType):
        return "%R", [cx.coerce(v, T.F64, node)]
    if t == T.EXC and not spec:             # a caught exception (`except C as e`)
        return "%U", [strings.str_of(cx, v, node, "r" if conversion == "r" else "s")]
    if isinstance(t, T.TextType):           # strings.py makes the text (of bytes: b'...')
        if spec:
            return "%U", [strings.format_value(cx, v, strings.str_constant(cx, spec, node), node)]
        return "%U", [strings.str_of(cx, v, node, "r" if conversion == "r" else "s")]
    if isinstance(t, T.ComplexType) and not spec and conversion != "r":
        return complex_directive(cx, v, node)
    if isinstance(t, T.ArrayType) and not spec:     # NumPy's text (strings.str_of)
        return "%U", [strings.str_of(cx, v, node, "r" if conversion == "r" else "s")]
    if has_text(t):                         # container_text.py
        if spec:
            return "%U", [strings.container_format(cx, v, strings.str_constant(cx, spec, node), node)]
        return "%U", [strings.str_of(cx, v, node, "r" if conversion == "r" else "s")]
    cx.error(f"a value of type {t} cannot be formatted in an exception message here", node)


def _is_arg_type(t: T.Type) -> bool:
    """Whether `key_message` writes the repr of a value of type `t` (dicts.py)."""
    if isinstance(t, T.TupleType):
        return not isinstance(t, T.OptionalType) and all(_is_arg_type(e) for e in t.elems)
    return isinstance(t, (T.IntType, T.FloatType, T.BoolType, T.StrType))


_TOKEN = re.compile(r"%%|%lld|%llu|%B|%R|%\+?Q|%\.\d+[feg]|\x00(\d+)\x00")


def _resolve_markers(text: str, values: list, bare: list, host, node) -> tuple[str, list]:
    """`text` and `values` with each complex marker replaced by its form: ``%Qj`` (the
    imaginary part) where `bare` says so, else ``(%Q%+Qj)`` (both parts, as f64)."""
    out, vals, pos, k = [], [], 0, 0
    for m in _TOKEN.finditer(text):
        out.append(text[pos:m.start()])
        pos = m.end()
        if m.group() == "%%":
            out.append("%%")
            continue
        if m.group(1) is None:
            out.append(m.group())
            vals.append(values[k])
            k += 1
            continue
        re_part, im_part = (host.coerce(v, T.F64, node) for v in values[k:k + 2])
        k += 2
        if bare[int(m.group(1))]:
            out.append("%Qj")
            vals.append(im_part)
        else:
            out.append("(%Q%+Qj)")
            vals += [re_part, im_part]
    out.append(text[pos:])
    return "".join(out), vals


def _is_str(node) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _is_str_call(node) -> bool:
    """`str(x)` or `repr(x)` (the builtins: a local of that name would shadow them, which the
    frontend's own lookup of other calls reports)."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("str", "repr")
            and len(node.args) == 1 and not node.keywords)


def _is_text(cx, node) -> bool:
    """Whether `node` is a string-valued message part: a constant (or a name `_static_text`
    finds a string for), an f-string, str(x), a formatting, or a sum of those."""
    if _is_str(node) or isinstance(node, ast.JoinedStr) or _is_str_call(node):
        return True
    if isinstance(node, ast.Name):
        return _static_text(cx, node) is not None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _is_text(cx, node.left) and _is_text(cx, node.right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return _is_str(node.left)
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"
            and _is_str(node.func.value))
