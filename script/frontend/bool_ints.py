"""Values that are a bool on some paths and an int on others: read only where that is the same.

``block = grid[i][j] and not seen`` is ``0`` or ``False``; ``found = True`` on one path and
``found = i`` on another is either. CPython keeps ``True`` apart from ``1`` wherever the value
is shown, returned, stored or passed on (``print``, ``repr``, ``type``, a list's items), and
no compiled value is either, so making the bool a number gave ``1`` for ``True`` without an
error. Where only the value counts (``x + 1``, ``x == 0``, ``if x:``, ``xs[x]``) the two give
the same answer, and code like the above compiles.

So a local variable, or an ``and``/``or``/conditional expression, that meets a bool and an
int is typed ``boolint`` (`types.BOOL_INT`, the int64 of its value: True is 1; `types.merge`
with ``bool_int``), and every read of one goes through `read` (lower_expr `lazy_opt`): a
consumer whose answer depends on the value alone says so first (`permit`), and the read
gives it an ``i64``; an assignment to a plain name keeps it whole (``KEEP``); any other read
is a CompileError naming the place. Allowed: arithmetic and shifts (not ``& | ^``, whose
result is a bool for two bools), comparisons (not ``is``), truth, unary ``-``/``+``/``~``,
an index, ``int()``/``float()``/``bool()``/``abs()``. A bool and an int never meet inside a
tuple, a list, a dict, a set or a field (types.merge refuses: docs/differences.md).
"""

from __future__ import annotations

import ast

from script.ir import types as T
from script.ir.core import Value

KEEP = "keep"               # stays a boolint (a local variable, a merge's operand)
AS_INT = "int"              # read as its int value

_BITWISE = (ast.BitAnd, ast.BitOr, ast.BitXor)

TEXT = ("this value is a bool on some paths and an int on others: CPython keeps True apart from 1 "
        "where it is shown, returned, stored or passed on, and compiled code has no value that is "
        "either (arithmetic, comparisons and tests of it compile; write int(...) or bool(...) here)")


def permit(cx, use: str, *nodes) -> None:
    """Let a boolint value of each of `nodes` be read as `use` (KEEP or AS_INT)."""
    for n in nodes:
        if n is not None:
            cx.bool_int_uses[id(n)] = use


def permit_operands(cx, op: ast.operator, *nodes) -> None:
    """The operands of a binary operator: read as ints, but for ``& | ^``."""
    if not isinstance(op, _BITWISE):
        permit(cx, AS_INT, *nodes)


def read(cx, v: Value, node) -> Value:
    """`v`, a boolint, as read by the consumer of `node`: whole, as an int, or an error."""
    use = cx.bool_int_uses.get(id(node))
    if use == KEEP:
        return v
    if use == AS_INT:
        return cx.coerce(v, T.I64, node)
    cx.error(TEXT, node)


def is_bool_int(v) -> bool:
    return isinstance(getattr(v, "type", None), T.BoolIntType)
