"""`lst[a:b:c] = iterable` and `del lst[a:b:c]` on compiled lists (docs/lists.md).

The slice's bounds are computed as everywhere else (`slice_operands`, Python's
`slice.indices`), the assigned iterable (a list, tuple, str, array, range...) is copied into a
new list of the target's element type, and the moving of elements is the subset code of
`slicelib`, compiled per element type: a plain slice (step 1) takes any number of items and
grows or shrinks the list; an extended one takes exactly as many as it selects, or raises
CPython's ValueError.
"""

from __future__ import annotations

import ast

from script.frontend import arrays
from script.lib.python import slicelib
from script.frontend.unknown import Unknown
from script.ir import types as T
from script.ir.core import Const, Value


def list_slice_store(cx, lst: Value, sl: ast.Slice, value: Value, node) -> None:
    n, item, et = cx.iterable_value(value, node)
    if isinstance(et, Unknown):
        return                                  # a round to be rebuilt (lists.get_item)
    cx.stored_type(lst, et, node)             # `a = []; a[:] = xs`: the type from xs
    items = cx.new_list(cx.read_type(lst), n, node)
    cx.fill_from(items, Const(0, T.I64), (n, item, et), node)
    bounds = arrays.slice_operands(cx, lst, 0, sl, node, length=cx.list_len(lst, node))
    _call_slicelib(cx, slicelib.set_slice, [lst, *bounds, items], node)


def list_slice_delete(cx, lst: Value, sl: ast.Slice, node) -> None:
    bounds = arrays.slice_operands(cx, lst, 0, sl, node, length=cx.list_len(lst, node))
    _call_slicelib(cx, slicelib.del_slice, [lst, *bounds], node)


def _call_slicelib(cx, fn, args: list[Value], node) -> None:
    callee = cx.ctx.callee(cx, cx.ctx.info_for(fn), tuple(a.type for a in args), node)
    cx.emit("call", args, callee.ret_type, callee, cx.loc(node))
