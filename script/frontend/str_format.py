"""`"template".format(...)` of a constant template in compiled code: its fields as an
f-string's, and format specs with fields of their own (`"{:{}}".format(x, width)`,
`"{0:0{1}b}".format(n, w)`, `"{:>{w}.{p}f}"`), whose spec is a str made at run time and
applied by CPython's format() (strings.format_value), so every presentation, fill and error
is CPython's.

Fields are numbered as CPython numbers them (`FieldNumbering`): automatic `{}` fields count
up through the template and the fields of its specs, in the order written; a template that
mixes `{}` and `{0}` is CPython's ValueError, refused here. Messages of a raise or a print
(messages.py) resolve their fields with the same numbering.
"""

from __future__ import annotations

import ast
import string

from script.frontend import strings
from script.ir.core import Instr, Value

_MIXED = ("cannot switch from manual field specification to automatic field numbering",
          "cannot switch from automatic field numbering to manual field specification")


def fields(cx, template: str, node) -> list[tuple[str, str | None, str | None, str | None]]:
    """string.Formatter().parse(template), a bad template a CompileError at `node`."""
    try:
        return list(string.Formatter().parse(template))
    except ValueError as e:
        cx.error(f"bad format string: {e}", node)


class FieldNumbering:
    """Which argument node each field of one `.format(...)` call names: `{}` the next
    positional one, `{0}` a positional one, `{name}` a keyword. `where` ends the
    CompileError for a field that names none of them."""

    def __init__(self, node: ast.Call, where: str = ""):
        self.node = node
        self.where = where
        self.keywords = {k.arg: k.value for k in node.keywords}
        self.auto = 0
        self.manual: bool | None = None         # None until the first numbered field

    def arg(self, cx, name: str) -> ast.expr:
        node = self.node
        if name == "" or name.isdigit():
            manual = name != ""
            if self.manual is not None and self.manual != manual:
                cx.error(_MIXED[0] if self.manual else _MIXED[1], node)
            self.manual = manual
            if not manual:
                name, self.auto = str(self.auto), self.auto + 1
            if int(name) >= len(node.args):
                cx.error(f"format string needs argument {name}, only {len(node.args)} given", node)
            return node.args[int(name)]
        if name in self.keywords:
            return self.keywords[name]
        cx.error(f"format field {name!r} is not supported{self.where} (positional or keyword "
                 "arguments by name only)", node)


def str_format(cx, s: Value, node: ast.Call) -> Value:
    """`"template".format(...)` of a constant template (`s` its `str_const`)."""
    if not (isinstance(s, Instr) and s.opname == "str_const"):
        cx.error("str.format() needs a constant template in compiled code", node)
    if any(k.arg is None for k in node.keywords):
        cx.error("**kwargs in calls is not supported", node)
    # every argument evaluated once, in the order written, used or not (as CPython does)
    values = {id(a): cx.expr(a) for a in list(node.args) + [k.value for k in node.keywords]}
    numbering = FieldNumbering(node)
    parts = _template_parts(cx, s.attr, values, numbering, 2, node)
    return strings.str_join_parts(cx, parts, node)


def _template_parts(cx, template: str, values: dict, numbering: FieldNumbering, depth: int, node) -> list[Value]:
    """The str values whose concatenation is `template` formatted; `depth` how many levels
    of fields may still nest (CPython's recursion limit of 2: a spec's field has none)."""
    if depth <= 0:
        cx.error("Max string recursion exceeded (a field in a format spec's field)", node)
    parts = []
    for literal, name, spec, conversion in fields(cx, template, node):
        if literal:
            parts.append(strings.str_constant(cx, literal, node))
        if name is None:
            continue
        if conversion not in (None, "s", "r"):
            cx.error(f"the !{conversion} conversion is not supported in compiled code", node)
        v = values[id(numbering.arg(cx, name))]
        if not spec:
            parts.append(strings.str_of(cx, v, node, conversion or "s"))
            continue
        v = strings.str_of(cx, v, node, conversion) if conversion else v
        spec_value = strings.str_join_parts(cx, _template_parts(cx, spec, values, numbering, depth - 1, node),
                                            node) if "{" in spec else strings.str_constant(cx, spec, node)
        parts.append(strings.format_value(cx, v, spec_value, node))
    return parts
