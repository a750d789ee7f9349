"""Members of the standard library's enums read in compiled code (`Color.RED` of an IntEnum,
a StrEnum, an IntFlag), where CPython uses them as their value.

Compiled code has no enum type: a member it reads is its int (or str) value, which is
CPython's answer only where CPython itself uses the value, in arithmetic, comparisons
(`==`, `<`, `in`, a `match` value pattern), an index or key read (one written may be a dict's
key, which CPython keeps as the member: `counts[Color.RED.value] += 1`), and text where the member's `str` or
`format` is its value's (IntEnum and StrEnum from Python 3.11, checked with the running
interpreter). Anywhere else (returned, stored, passed on, `repr`, `is`) CPython keeps the
member, and compiled code's plain value would be a different answer: a CompileError there.
`Color.RED.value` and `.name` read the member as a Python object. Members passed as
arguments are refused at the call (typeinfer.py). Plain `Enum` members, which are not their
values, are values of their own type (enum_values.py).
"""

from __future__ import annotations

import ast
import enum

from script.frontend import ast_order

# Builtins whose use of an int (or str) member is its value's: numbers, and text where str()
# of the member is its value's (checked per member).
_NUMERIC_CALLS = ("int", "float", "range", "abs", "bool", "round", "divmod", "pow", "chr")   # (not min/max:
# they give back one of their arguments, the member itself)
_TEXT_CALLS = ("str", "print")


def is_valued_member(obj) -> bool:
    return isinstance(obj, enum.Enum) and isinstance(obj, (int, str)) and not isinstance(obj, bool)


def member_value(cx, obj, name: str, node):
    """The plain int or str compiled code holds for member `obj` read at `node`; raises
    a CompileError where CPython would use the member itself. None: `node` is the base of an
    attribute (`Color.RED.value`), read from the member object."""
    plain = int(obj) if isinstance(obj, int) else str.__str__(obj)
    parents = ast_order.parents(cx)
    parent = parents.get(id(node))
    if read_from(cx, node):
        return None
    if isinstance(parent, (ast.Tuple, ast.List, ast.Set)) and _is_searched(parents.get(id(parent)), parent):
        return plain                # `n in (Color.RED, 3)`: compared with ==
    if _as_value(parent, node, obj, plain):
        return plain
    kind = type(obj).__mro__[1].__name__ if len(type(obj).__mro__) > 1 else "enum"
    cx.error(f"'{name}' is a member of {type(obj).__name__} ({kind}): compiled code holds it as its value "
             f"{plain!r}, which is CPython's answer only in arithmetic, comparisons, an index or text; here "
             f"CPython keeps the member itself (use {name}.value, or compare it)", node)


def _as_value(parent, node, obj, plain) -> bool:
    if isinstance(parent, (ast.BinOp, ast.UnaryOp)) and isinstance(obj, enum.Flag):
        return False                # `F.A | F.B`, `~F.A`: CPython's answer is a flag again
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Mod) and parent.right is node:
        return _same_text(obj, plain)       # `"%s" % Color.RED`: its str
    if isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.MatchValue)):
        return True
    if isinstance(parent, ast.Compare):
        return not any(isinstance(op, (ast.Is, ast.IsNot)) for op in parent.ops)
    if isinstance(parent, ast.AugAssign):
        return parent.value is node
    if isinstance(parent, ast.Subscript):       # read at an index or key (a key written CPython keeps)
        return parent.slice is node and isinstance(parent.ctx, ast.Load)
    if isinstance(parent, ast.FormattedValue):
        return parent.value is node and parent.conversion in (-1, ord("s")) and _same_text(obj, plain)
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and node in parent.args:
        if parent.func.id in _NUMERIC_CALLS:
            return isinstance(plain, int)
        if parent.func.id in _TEXT_CALLS:
            return _same_text(obj, plain)
    return False


def _is_searched(compare, display) -> bool:
    """Whether `display` is what `in` / `not in` searches in `compare`."""
    return isinstance(compare, ast.Compare) and any(
        c is display and isinstance(op, (ast.In, ast.NotIn)) for op, c in zip(compare.ops, compare.comparators))


def _same_text(obj, plain) -> bool:
    return str(obj) == str(plain) and format(obj, "") == format(plain, "")


def read_from(cx, node) -> bool:
    """Whether `node` (a member read by name) is the base of an attribute (`Cls.X.value`),
    read from the member object."""
    parent = ast_order.parents(cx).get(id(node))
    return isinstance(parent, ast.Attribute) and parent.value is node


