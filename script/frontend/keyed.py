"""`key=` and `reverse=`: `sorted(x, key=f, reverse=True)`, `lst.sort(key=f)`,
`min(x, key=f)`, `max(a, b, key=f)`.

The key is a function compiled code can call — a lambda, a nested function, a global or
`@script` function, a builtin — bound when the caller is compiled (static_args.py), and is
called once per element, in order, as CPython calls it. Sorting is stable, also in reverse
(listlib.sort_keyed: reverse, stable sort, reverse, which is CPython's order). min/max
keep the first element whose key is smallest/largest, as CPython does. Keys are numbers or
tuples of them (tuples compare as Python orders them, lower_expr.order_tuples).
"""

from __future__ import annotations

import ast

from script.frontend import listlib
from script.frontend.closures import NestedFunction, NestedFunctionInfo
from script.frontend.pymessages import message
from script.ir import types as T
from script.ir.core import Const, Value


def is_sortable(t: T.Type) -> bool:
    """Whether values of `t` have Python's ordering in compiled code."""
    if isinstance(t, T.TupleType):
        return all(is_sortable(e) for e in t.elems)
    if T.is_instance_type(t):       # by its __lt__ (class_methods.py)
        return True
    if isinstance(t, T.ListType):        # lists order as tuples do (lists.compare_lists)
        return is_sortable(t.elem)
    return (t.is_numeric() and not isinstance(t, T.ComplexType)) or isinstance(t, T.StrType)     # complex: unordered


class KeyedLowering:
    """Mixin for FunctionLowering."""

    def call_function_node(self, fn_node, args: list[Value], node) -> Value:
        """`fn_node(*args)` for the function an expression names (a lambda too), with
        argument values already computed."""
        placeholders = []
        for v in args:
            p = ast.copy_location(ast.Name(id="$arg", ctx=ast.Load()), node)
            self.pre_evaluated[id(p)] = v
            placeholders.append(p)
        call = ast.copy_location(ast.Call(func=fn_node, args=placeholders, keywords=[]), node)
        if isinstance(fn_node, ast.Lambda):
            info = self.ctx.nested_infos.get((self.info, id(fn_node)))
            if info is None:
                info = self.ctx.nested_infos[(self.info, id(fn_node))] = \
                    NestedFunctionInfo(self.info, self.lambda_def("<lambda>", fn_node), self.nested_functions)
            return self.call_nested(NestedFunction(info), call)
        return self.lower_call(call)

    def sort_options(self, keywords, name: str) -> tuple:
        """(key node or None, reverse node or None) of sort()/sorted()'s keywords."""
        opts = {}
        for k in keywords:
            if k.arg not in ("key", "reverse"):
                self.error(f"{name}() got an unexpected keyword argument '{k.arg}'", k.value)
            opts[k.arg] = k.value
        key = opts.get("key")
        if isinstance(key, ast.Constant) and key.value is None:
            key = None
        return self.method_key(key), opts.get("reverse")

    def method_key(self, key):
        """`key=str.lower` (an unbound method of str): the lambda `lambda s: s.lower()`;
        `key=d.get` (a bound method of a local): `lambda s: d.get(s)`; the same node in every
        build round. Any other key as it is."""
        from script.frontend.lower_stmt import PyRef
        if not (isinstance(key, ast.Attribute) and isinstance(key.value, ast.Name)):
            return key
        ref = self.callee_ref(key.value)
        unbound = isinstance(ref, PyRef) and ref.obj is str and callable(getattr(str, key.attr, None))
        if not unbound and key.value.id not in self.info.local_names:
            return key
        made = self.info.__dict__.setdefault("_method_keys", {})
        fn = made.get(id(key))
        if fn is None:
            arg = ast.arguments(posonlyargs=[], args=[ast.arg(arg="$s")], vararg=None, kwonlyargs=[],
                                kw_defaults=[], kwarg=None, defaults=[])
            s = ast.Name(id="$s", ctx=ast.Load())
            call = ast.Call(func=ast.Attribute(value=s, attr=key.attr, ctx=ast.Load()), args=[], keywords=[]) \
                if unbound else ast.Call(func=key, args=[s], keywords=[])
            fn = made[id(key)] = ast.fix_missing_locations(ast.copy_location(ast.Lambda(args=arg, body=call), key))
            for n in ast.walk(fn):
                ast.copy_location(n, key)
            made[("node", id(key))] = key           # (kept alive: the cache is keyed by its id)
        return fn

    def sort_list(self, lst: Value, keywords, name: str, node) -> None:
        """Sort `lst` in place, with sort()'s `key=` and `reverse=`."""
        key, rev = self.sort_options(keywords, name)
        descending = Const(False, T.BOOL) if rev is None else self.truth(self.expr(rev), rev)
        if key is not None:
            p = ast.copy_location(ast.Name(id="$reverse", ctx=ast.Load()), node)
            self.pre_evaluated[id(p)] = descending
            call = ast.copy_location(ast.Call(func=ast.Name(id="sort"), args=[key, p], keywords=[]), node)
            self.call_script(self.ctx.info_for(listlib.sort_keyed), call, first=lst)
            return
        if isinstance(self.read_type(lst), T.ComplexType):
            self.error("'<' not supported between instances of 'complex' and 'complex'", node)
        if not is_sortable(self.read_type(lst)):
            self.error(f"sorting a {lst.type} is not supported in compiled code (numbers, strs and tuples "
                       "or lists of them only)", node)

        def run(fn):
            f = self.ctx.callee(self, self.ctx.info_for(fn), (lst.type,), node)
            self.emit("call", [lst], T.NONE, f, self.loc(node))
        if isinstance(descending, Const):
            run(listlib.sort_reversed if descending.value else listlib.sort)
        else:
            self.choose(descending, lambda: run(listlib.sort_reversed), lambda: run(listlib.sort), node)

    def minmax_key(self, node, name: str) -> Value:
        """min()/max() with `key=` (and `default=` for one iterable)."""
        opts = {k.arg: k.value for k in node.keywords}
        for k in opts:
            if k not in ("key", "default"):
                self.error(f"{name}() got an unexpected keyword argument '{k}'", opts[k])
        key = self.method_key(opts["key"])
        if "default" in opts and len(node.args) != 1:
            self.error(f"Cannot specify a default for {name}() with multiple positional arguments", node)
        loc = self.loc(node)
        self.counter += 1
        best, best_key = f"$best{self.counter}", f"$bestkey{self.counter}"
        seen = self.new_var("seen", Const(False, T.BOOL))
        better = ast.Gt() if name == "max" else ast.Lt()

        def step(x):
            k = x if isinstance(key, ast.Constant) and key.value is None else self.call_function_node(key, [x], node)
            take = self.choose(self.read(seen, loc), lambda: self.compare(better, k, self.read(best_key, loc), node),
                               lambda: Const(True, T.BOOL), node)

            def keep():
                self.write(best, x)
                self.write(best_key, k)
                self.write(seen, Const(True, T.BOOL))
            self.when(take, keep, node)

        if len(node.args) == 1:
            self.each(node.args[0], step)
        elif not node.args:
            self.error(f"{name} expected at least 1 argument, got 0", node)
        else:
            for v in [self.expr(a) for a in node.args]:
                step(v)
        found = self.read(seen, loc)
        if "default" not in opts:
            self.raise_if(self.emit("not", [found], T.BOOL, None, loc), "ValueError",
                          message(f"{name}_empty"), node)
            return self.read(best, loc)
        default = self.expr(opts["default"])
        return self.choose(found, lambda: self.read(best, loc), lambda: default, node)
