"""`*args` parameters and `f(*t)` calls (docs/calls.md).

A `*rest` parameter is one more parameter of the compiled function: a tuple whose type is
the number and types of the extra positional arguments of the call, so each arity (and each
set of element types) is its own specialization, as every other argument type is. A compiled
caller packs the extras into a `tuple` here; a call from Python is packed by Python's own
binding in the dispatcher's fallback (script.dispatcher), which then calls the
specializations on a second object, so that `f(1, (2, 3))` from Python never reaches a
specialization taking `(int, tuple[int, int])` as `rest = (2, 3)`.

`f(*t)` with `t` a tuple spreads its statically known elements into the call; a list (whose
length is known only at run time), `**mapping` and other iterables are CompileErrors.
"""

from __future__ import annotations

import ast

from script.frontend.static_args import Static
from script.ir import types as T


class VarargLowering:
    def pack_varargs(self, info, bound: list, values: list, node: ast.Call) -> None:
        """Put the positional arguments beyond `info`'s named ones into its `*args` tuple,
        at that parameter's place in `bound` (one slot per parameter)."""
        n = info.n_positional
        bound[n] = self.make_tuple([self.packed_value(v, "*" + info.vararg, node) for v in values[n:]], node)

    def packed_value(self, v, where: str, node):
        """Argument `v` as a value to put in a `*args` tuple or `**kwargs` dict: a string
        constant (bound statically, static_args.py) as a str."""
        if not isinstance(v, Static):
            return v
        if not isinstance(v.obj, str):
            self.error(f"a {type(v.obj).__name__} cannot be passed through {where} in compiled code (only "
                       "values: numbers, strs, lists, arrays, tuples)", node)
        return self.str_constant(v.obj, node)

    def pack_kwargs(self, info, bound: list, kw: dict, node: ast.Call) -> dict:
        """Put the keyword arguments that name no parameter of `info` into its `**kwargs`
        dict (str keys, values of one type, in the call's order) at that parameter's place in
        `bound`; return the others."""
        names = info.param_names
        extra = {k: v for k, v in kw.items() if k not in names or k == info.kwarg}
        d = self.new_table(self.table_type(node, False, (T.STR, None)), node)
        for key, (v, vnode) in extra.items():
            self.table_store(d, self.str_constant(key, vnode), self.packed_value(v, "**" + info.kwarg, vnode), vnode)
        bound[names.index(info.kwarg)] = d
        return {k: v for k, v in kw.items() if k not in extra}

    def spread_starred(self, node: ast.Call) -> ast.Call:
        """`node` with each `*t` argument (a tuple) replaced by one argument per element.
        The arguments before a `*t` are evaluated first, in order; each element's value is
        handed to whoever lowers the call through `pre_evaluated`."""
        if not any(isinstance(a, ast.Starred) for a in node.args):
            return node
        args = []
        for a in node.args:
            if not isinstance(a, ast.Starred):
                if not isinstance(a, (ast.Constant, ast.Name, ast.Lambda, ast.Attribute)):
                    self.pre_evaluated[id(a)] = self.expr(a)      # keeps Python's order
                args.append(a)
                continue
            t = self.expr(a.value)
            if not isinstance(t.type, T.TupleType):
                what = "a list" if isinstance(t.type, T.ListType) else f"a value of type {t.type}"
                self.error(f"*{ast.unparse(a.value)} in a call must be a tuple in compiled code (its "
                           f"length fixes the call's arity), not {what}; index it or pass it whole", a)
            for k, et in enumerate(t.type.elems):
                item = self._element_node(a, k)
                self.pre_evaluated[id(item)] = self.emit("extract", [t], et, k, self.loc(a))
                args.append(item)
        call = ast.Call(func=node.func, args=args, keywords=node.keywords)
        return ast.copy_location(call, node)

    def _element_node(self, starred: ast.Starred, k: int) -> ast.expr:
        """The stand-in node of element `k` of `*t`: the same object in every build round
        (hints and `pre_evaluated` are keyed by node identity)."""
        nodes = self.info.__dict__.setdefault("_starred_items", {})
        item = nodes.get((id(starred), k))
        if item is None:
            item = nodes[(id(starred), k)] = ast.copy_location(
                ast.Subscript(value=starred.value, slice=ast.Constant(k), ctx=ast.Load()), starred)
        return item

