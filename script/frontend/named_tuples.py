"""Named tuples in compiled code: ``typing.NamedTuple`` classes and ``collections.namedtuple``
defined at module level (docs/records.md).

Functions of the lowering (`cx`, a `FunctionLowering`). A named tuple is a tuple with names
(types.NamedTupleType): construction builds the `tuple` op with the named type, ``p.x`` is
an `extract`, and everything else (indexing, unpacking, ``==``, ``len``, iteration, list
elements) is the tuple machinery's. Element types come from the values, as in CPython
(``Point(1, 2).x`` is an int even when the class annotates float); an annotated parameter
``p: Point`` takes the class's annotations. Boxing makes an instance of the user's class
(runtime.boxing, script.pyhooks.named_instance).
"""

from __future__ import annotations

import ast

from script.frontend.named_tuple_types import named_type_of
from script.pyhooks.named_instance import lookup_class
from script.ir.core import Const, Value
from script.frontend import optional


def make_named_tuple(cx, cls: type, node: ast.Call) -> Value:
    """``Point(a, b)``, ``Point(x=a, y=b)``: the fields bound as CPython binds them,
    defaults from ``_field_defaults``."""
    name = cls.__name__
    fields = cls._fields
    if "<locals>" in cls.__qualname__:
        cx.error(f"named tuple class '{name}' is defined inside a function: compiled code takes "
                 "only classes defined at module level", node)
    if len(node.args) > len(fields):
        cx.error(f"{name}() takes {len(fields)} positional arguments but {len(node.args)} were given",
                 node)
    bound: list = [optional.expr_opt(cx, a) for a in node.args] + [None] * (len(fields) - len(node.args))
    for k in node.keywords:
        if k.arg not in fields:
            cx.error(f"{name}() got an unexpected keyword argument '{k.arg}'", k.value)
        i = fields.index(k.arg)
        if bound[i] is not None:
            cx.error(f"{name}() got multiple values for argument '{k.arg}'", k.value)
        bound[i] = optional.expr_opt(cx, k.value)
    defaults = getattr(cls, "_field_defaults", {})
    for i, v in enumerate(bound):
        if v is None:
            if fields[i] not in defaults:
                cx.error(f"{name}() missing required argument '{fields[i]}'", node)
            bound[i] = cx.python_object(defaults[fields[i]], fields[i], node)
            if not isinstance(bound[i], Value):
                cx.error(f"the default of field '{fields[i]}' of {name} is not a value compiled "
                         "code takes", node)
    return named_tuple_of(cx, cls, bound, node)


def named_tuple_of(cx, cls: type, elems: list, node) -> Value:
    from script.frontend.lower_expr import WeakConst
    elems = [Const(e.value, e.type, e.loc) if isinstance(e, WeakConst) else e for e in elems]
    return cx.emit("tuple", elems, named_type_of(cls, [e.type for e in elems]), None, cx.loc(node))


def named_field(cx, base: Value, node: ast.Attribute) -> Value:
    """``p.x``: the element of field x."""
    t = base.type
    if node.attr not in t.fields:       # CPython's AttributeError, where it raises it
        return cx.raise_always("AttributeError", f"'{t.name}' object has no attribute '{node.attr}'", node)
    k = t.fields.index(node.attr)
    return cx.emit("extract", [base], t.elems[k], k, cx.loc(node))


def named_method(cx, base: Value, name: str, node: ast.Call) -> Value:
    """``p._replace(x=...)`` and the methods a ``typing.NamedTuple`` class defines
    (compiled with ``cx`` bound to `p`, as any called function is)."""
    t = base.type
    cls = lookup_class(t.key)
    if name == "_replace":
        if node.args:
            cx.error("_replace() takes only keyword arguments", node)
        elems = [cx.emit("extract", [base], et, k, cx.loc(node)) for k, et in enumerate(t.elems)]
        for k in node.keywords:
            if k.arg not in t.fields:
                cx.error(f"Got unexpected field names: ['{k.arg}']", k.value)
            elems[t.fields.index(k.arg)] = optional.expr_opt(cx, k.value)
        return named_tuple_of(cx, cls, elems, node)
    method = next((vars(k)[name] for k in cls.__mro__ if name in vars(k)), None)
    if method is None or not callable(method) or isinstance(method, (staticmethod, classmethod)):
        cx.error(f"'{t.name}' object has no method '{name}' in compiled code (its own plain "
                 "methods, _replace, count and index are supported)", node)
    return cx.call_script(cx.ctx.info_for(method), node, first=base)
