"""Values holding an instance of one of several classes (docs/records.md, "Several classes").

Functions over the lowering `cx`. Where instances of two classes meet —
``s = Rect(2, 3) if c else Circle(1)``, ``[Rect(2, 3), Circle(1)]``, a function returning
either — the value is a *union* (`types.instance_union`): a named tuple of the index of the
class it holds and one record per class, the others' slots holding empty records, so the
instance itself is shared, never copied (a ``Rect`` put in the list is the very ``Rect``).

Everything done with a union is done for each class it may hold (`per_class`): a branch
on the index, the operation built for that class's record, the results merged as at any
merge of values (two classes' instances merging into a union again). A field, method or
property one of the classes lacks raises CPython's AttributeError in that branch when it
runs. ``isinstance`` tests the index; ``is`` compares the record held.

Not supported with a union (CompileErrors): iterating over one (``for x in u`` where the
classes define ``__iter__``), storing a field one of the classes does not have.
"""

from __future__ import annotations

import ast
import functools

from script.frontend.class_lookup import find_member
from script.frontend.unknown import UNKNOWN, Undef
from script.ir import types as T
from script.ir.core import Const, Value
from script.ir.ops import ExcInfo
from script.pyhooks.named_instance import lookup_class


def is_union(v) -> bool:
    return T.is_instance_union(getattr(v, "type", None))


def per_instance(*positions, missing=None):
    """Decorate an operation on instances whose arguments at `positions` may be unions: for
    a union, the operation is built for each class it holds (`per_class`). The last
    argument is the AST node. `missing(self, x, *args)`: the AttributeError message for a
    class x cannot take it, else None."""
    def wrap(method):
        @functools.wraps(method)
        def run(self, *args):
            for p in positions:
                if is_union(args[p]):
                    def each(x, p=p):
                        text = missing(self, x, *args[:p], *args[p + 1:]) if missing is not None else None
                        if text is not None:
                            return raise_missing(self, text, args[-1])
                        return run(self, *args[:p], x, *args[p + 1:])
                    return per_class(self, args[p], each, args[-1])
            return method(self, *args)
        return run
    return wrap


def build_union(v: Value, t: T.Type, emit) -> Value:
    """`v` (an instance, or a union of fewer classes) as a value of union `t`, its
    instructions made by ``emit(opname, operands, type, attr)``."""
    keys = t.fields[1:]
    if T.is_instance_union(v.type):
        old = list(v.type.fields[1:])
        tag = emit("extract", [v], T.I64, 0)
        new_tag: Value = Const(keys.index(old[-1]), T.I64)
        for k in range(len(old) - 1):
            hit = emit("cmp", [tag, Const(k, T.I64)], T.BOOL, "eq")
            new_tag = emit("select", [hit, Const(keys.index(old[k]), T.I64), new_tag], T.I64, None)
        held = {key: emit("extract", [v], v.type.elems[k + 1], k + 1) for k, key in enumerate(old)}
    else:
        new_tag = Const(keys.index(v.type.key), T.I64)
        held = {v.type.key: v}
    slots = [held[key] if key in held else emit("list_new", [], m, None) for key, m in zip(keys, t.elems[1:])]
    return emit("tuple", [new_tag, *slots], t, None)


def lacks_attribute(self, x: Value, name: str) -> str | None:
    """CPython's AttributeError message when instance `x` has no attribute `name`, else None."""
    t = x.type
    if name in t.fields or find_member(lookup_class(t.key), name) is not None:
        return None
    return f"'{t.name}' object has no attribute '{name}'"


def to_union(cx, v: Value, t: T.Type, node) -> Value:
    """`v` (an instance, or a union of fewer classes) as a value of union `t`."""
    loc = cx.loc(node)
    return build_union(v, t, lambda op, args, rt, attr: cx.emit(op, args, rt, attr, loc))


def per_class(cx, v: Value, each, node):
    """`each(x)` for the record x of the class union `v` holds, merged (None when `each`
    builds statements only)."""
    loc = cx.loc(node)
    members = v.type.elems[1:]
    tag = cx.emit("extract", [v], T.I64, 0, loc)

    def branch(k):
        return each(cx.emit("extract", [v], members[k], k + 1, loc))

    def chain(k):
        if k == len(members) - 1:
            return branch(k)
        return cx.choose(cx.cmp("eq", tag, Const(k, T.I64), node), lambda: branch(k),
                         lambda: chain(k + 1), node)
    return chain(0)


def widen_instance_list(cx, lst: Value, elem: T.Type, t: T.Type) -> None:
    """A value of instance type `t` stored in list `lst` of instances of type `elem`:
    when `lst` is a display made here (``[Rect(1, 2)]``: lists.list_origins) or was typed
    by its stores (an empty ``[]``; every list of those here typed `elem`), the next round
    types it as the union."""
    union = T.unify(elem, t) if T.is_instance_type(elem) and T.is_instance_type(t) else None
    if union is None:
        return
    origin = cx.list_origins.get(id(lst))
    keys = [("list", origin)] if origin is not None else \
        [k for k, v in cx.hints.items() if isinstance(k, tuple) and k[0] == "list" and v == elem]
    cx.retype_lists(dict.fromkeys(keys, union))


def raise_missing(cx, text: str, node) -> Value:
    """The branch of a class that lacks what is asked: CPython's AttributeError."""
    cx.emit_raise(ExcInfo("AttributeError", text), [], node)
    return Undef(UNKNOWN, cx.loc(node))


def union_isinstance(cx, v: Value, spec, node) -> Value:
    """``isinstance(v, spec)`` of a union: whether the class it holds is one of those."""
    loc = cx.loc(node)
    tag = cx.emit("extract", [v], T.I64, 0, loc)
    hit: Value = Const(False, T.BOOL)
    for k, m in enumerate(v.type.elems[1:]):
        if issubclass(lookup_class(m.key), spec):
            eq = cx.cmp("eq", tag, Const(k, T.I64), node)
            hit = eq if isinstance(hit, Const) else cx.emit("or", [hit, eq], T.BOOL, None, loc)
    return hit


def evaluated_call(cx, node: ast.Call) -> ast.Call:
    """`node` with its arguments evaluated now, once, as placeholders each branch of a
    union's method call reads (`pre_evaluated` hands a value out once: `with_arguments`)."""
    made = cx.info.__dict__.setdefault("_union_calls", {})
    call = made.get(id(node))
    if call is None:
        args = [ast.copy_location(ast.Name(id="$arg", ctx=ast.Load()), a) for a in node.args]
        kws = [ast.keyword(arg=k.arg, value=ast.copy_location(ast.Name(id="$arg", ctx=ast.Load()), k.value))
               for k in node.keywords]
        call = made[id(node)] = ast.copy_location(ast.Call(func=node.func, args=args, keywords=kws), node)
        made[("node", id(node))] = node
    values = [cx.expr(a) for a in node.args] + [cx.expr(k.value) for k in node.keywords]
    call.values = values
    return call


def with_arguments(cx, call: ast.Call) -> ast.Call:
    for p, v in zip(call.args + [k.value for k in call.keywords], call.values):
        cx.pre_evaluated[id(p)] = v
    return call
