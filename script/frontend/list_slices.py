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

from script.frontend import slicelib
from script.frontend.unknown import Unknown
from script.ir import types as T
from script.ir.core import Const, Value


class ListSliceLowering:
    def list_slice_store(self, lst: Value, sl: ast.Slice, value: Value, node) -> None:
        n, item, et = self.iterable_value(value, node)
        if isinstance(et, Unknown):
            return                                  # a round to be rebuilt (lists.get_item)
        self.stored_type(lst, et, node)             # `a = []; a[:] = xs`: the type from xs
        items = self.new_list(self.read_type(lst), n, node)
        self.fill_from(items, Const(0, T.I64), (n, item, et), node)
        bounds = self.slice_operands(lst, 0, sl, node, length=self.list_len(lst, node))
        self._call_slicelib(slicelib.set_slice, [lst, *bounds, items], node)

    def list_slice_delete(self, lst: Value, sl: ast.Slice, node) -> None:
        bounds = self.slice_operands(lst, 0, sl, node, length=self.list_len(lst, node))
        self._call_slicelib(slicelib.del_slice, [lst, *bounds], node)

    def _call_slicelib(self, fn, args: list[Value], node) -> None:
        callee = self.ctx.callee(self, self.ctx.info_for(fn), tuple(a.type for a in args), node)
        self.emit("call", args, callee.ret_type, callee, self.loc(node))
