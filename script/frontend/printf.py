"""printf-style formatting of strs, `"%d items, %.2f" % (n, x)` (docs/strings.md).

Each directive becomes the `format()` spec that gives CPython's `%` result, and is formatted
by the same code an f-string's `{x:spec}` uses (`format_value`: int and float formatting in
the runtime, exact as CPython's), then the pieces are joined. The template is a string
literal (or a name bound to one), so the directives are known when compiling; the types of the
values are too, so a directive of the wrong type (`%d` of a str) and a wrong number of values
are CompileErrors where CPython raises TypeError when it runs. Exception messages keep their
own `%` path (messages.py), which builds the text only when raising.

Supported: `%d %i %u %x %X %o %e %E %f %F %g %G %s %r %%`, the flags `- + space # 0`, a
width and a precision, for ints, floats, bools and strs; a `*` width or precision (`%*d`,
`%.*f`) takes an int from the values, and its spec is made when the line runs (a negative
width is the `-` flag, a negative precision 0, as CPython's). Not supported (CompileErrors):
`%(name)s` (a mapping), `%c`, `%a`, a precision on an integer directive.
"""

from __future__ import annotations

import re

from script.lib.python import strlib
from script.frontend.unknown import Unknown
from script.frontend.container_text import has_text
from script.ir import types as T
from script.ir.core import Const, Instr, Value

_DIRECTIVE = re.compile(r"%(?P<key>\([^)]*\))?(?P<flags>[-+ #0]*)(?P<width>\*|\d+)?"
                        r"(?:\.(?P<prec>\*|\d*))?[hlL]?(?P<kind>.?)", re.S)
_INTEGER = "diuxXo"
_WIDTH, _PRECISION = "\x00", "\x01"          # where a `*` value's digits go in a spec (_spec)
_FLOAT = "eEfFgG"


def percent_format(cx, template: str, values: Value, node) -> Value:
    """`template % values`: a str value."""
    if isinstance(values.type, Unknown):
        return values
    args = ([cx.emit("extract", [values], t, k, cx.loc(node)) for k, t in enumerate(values.type.elems)]
            if isinstance(values.type, T.TupleType) else [values])
    parts, pos, k = [], 0, 0
    for m in _DIRECTIVE.finditer(template):
        if m.start() > pos:
            parts.append(cx.str_constant(template[pos:m.start()], node))
        pos = m.end()
        kind = m.group("kind")
        if kind == "%" and m.group(0) == "%%":
            parts.append(cx.str_constant("%", node))
            continue
        _check_directive(cx, m, node)
        stars = []
        for group in ("width", "prec"):          # `*` values come first, in this order
            if m.group(group) != "*":
                stars.append(None)
                continue
            if k >= len(args):
                cx.error("not enough arguments for format string", node)
            if not isinstance(args[k].type, (T.IntType, T.BoolType)):
                cx.error("* wants int", node)
            stars.append(cx.coerce(args[k], T.I64, node))
            k += 1
        if k >= len(args):
            cx.error("not enough arguments for format string", node)
        parts.append(_directive_text(cx, m, args[k], stars, node))
        k += 1
    if k != len(args):
        cx.error("not all arguments converted during string formatting", node)
    if pos < len(template):
        parts.append(cx.str_constant(template[pos:], node))
    return cx.str_join_parts(parts, node)


def _check_directive(cx, m: re.Match, node) -> None:
    text = m.group(0)
    if m.group("key") is not None:
        cx.error(f"printf-style formatting with a mapping ({text!r}) is not supported in compiled "
                 "code; use an f-string", node)
    kind = m.group("kind")
    if not kind:
        cx.error("incomplete format", node)
    if kind not in _INTEGER + _FLOAT + "sr":
        what = {"c": "%c", "a": "%a"}.get(kind)
        if what is None:
            cx.error(f"unsupported format character {kind!r} (0x{ord(kind):x}) at index {m.start('kind')}",
                     node)
        cx.error(f"{what} in printf-style formatting is not supported in compiled code", node)
    if kind in _INTEGER and m.group("prec") is not None:
        cx.error(f"a precision on an integer directive ({text!r}) is not supported in compiled code", node)


def _directive_text(cx, m: re.Match, v: Value, stars: list, node) -> Value:
    """The text of one directive `m` applied to `v`; `stars` the i64 values of a `*` width
    and precision (None where the directive has none)."""
    kind, flags, prec = m.group("kind"), m.group("flags"), m.group("prec")
    t = v.type
    if kind in "sr":
        if not isinstance(t, (T.StrType, T.IntType, T.BoolType, T.FloatType, T.EnumType)) and not has_text(t) \
                and not T.is_instance_type(t):          # (an instance: its __str__ / __repr__)
            cx.error(f"%{kind} of a value of type {t} is not supported in compiled code", node)
        text = cx.str_of(v, node, kind)
        spec = _spec(cx, kind, m, stars, node)
        is_plain = isinstance(spec, Instr) and spec.opname == "str_const" and spec.attr == ">"
        return text if is_plain else cx.format_value(text, spec, node)
    if not isinstance(t, (T.IntType, T.BoolType, T.FloatType)):
        cx.error(f"%{kind} format: a real number is required, not {t}" if kind in _FLOAT + "di" else
                 f"%{kind} format: an integer is required, not {t}", node)
    if kind in _INTEGER:
        if isinstance(t, T.FloatType):
            if kind not in "diu":
                cx.error(f"%{kind} format: an integer is required, not float", node)
            v = cx.convert_checked(v, T.I64, node)      # '%d' % 2.7 is '2', as int(2.7)
        v = v if t == T.U64 else cx.coerce(v, T.I64, node)
        kind = "d" if kind in "diu" else kind
    else:
        v = cx.coerce(Const(v.value, v.type) if isinstance(v, Const) else v, T.F64, node)
    return cx.format_value(v, _spec(cx, kind, m, stars, node), node)


def _spec_text(kind: str, flags: str, width: str, prec: str | None) -> str:
    """The format() spec of directive `kind` (`d` for `i` and `u`) with these flags, width
    and precision texts."""
    if kind in "sr":
        return ("<" if "-" in flags else ">") + width + (f".{prec or 0}" if prec is not None else "")
    spec = ("<" if "-" in flags else "") + ("+" if "+" in flags else " " if " " in flags else "")
    spec += ("#" if "#" in flags else "") + ("0" if "0" in flags and "-" not in flags else "") + width
    if kind in _FLOAT:
        spec += f".{6 if prec is None else prec or 0}"
    return spec + kind


def _spec(cx, kind: str, m: re.Match, stars: list, node) -> Value:
    """The spec of directive `m` as a str value: a constant, or made when the line runs from
    its `*` values (`_WIDTH` and `_PRECISION` mark where their digits go)."""
    flags, (width, prec) = m.group("flags"), stars
    text = _spec_text(kind, flags, _WIDTH if width is not None else m.group("width") or "",
                      _PRECISION if prec is not None else m.group("prec"))
    if width is None and prec is None:
        return cx.str_constant(text, node)
    parts = []
    if width is not None:
        head, text = text.split(_WIDTH)
        negative = _spec_text(kind, flags + "-", _WIDTH, _PRECISION).split(_WIDTH)[0]
        parts.append(cx.str_lib(strlib.star_width, [cx.str_constant(negative, node), cx.str_constant(head, node),
                                                    width], node))
    if prec is not None:
        head, text = text.split(_PRECISION)
        parts += [cx.str_constant(head, node), cx.str_lib(strlib.star_precision, [prec], node)]
    parts.append(cx.str_constant(text, node))
    return cx.str_join_parts(parts, node)
