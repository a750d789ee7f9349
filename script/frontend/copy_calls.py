"""`copy.copy(x)` and `copy.deepcopy(x)`.

`copy.copy` of a list, dict or set is a new one of the same items (`list(x)`, `dict(x)`,
`set(x)`); of a value compiled code cannot change (a number, str, tuple, None) it is the value
itself, as in CPython. `copy.deepcopy` is the same where nothing inside can change (a list of
numbers, strs or tuples of them; a dict of such values; a set): a deep copy of those is a
shallow one. A deep copy of a list or dict of such lists, dicts or sets (`list[list[int]]`,
`dict[str, list[str]]`) is deepcopylib's, which keeps CPython's memo: two places that held
one object hold one new object (`[[0] * 3] * 3`). Deeper nesting, tuples holding lists and
class instances are a CompileError.
"""

from __future__ import annotations

import ast
import copy

from script.frontend.registry import CALLS
from script.ir import types as T
from script.ir.core import Value
from script.frontend import dicts, lists
from script.lib.python import deepcopylib
from script.frontend.unknown import UNKNOWN, PendingElement, PendingPart, Undef, Unknown


def _mutable_inside(t: T.Type) -> bool:
    """Whether a value of type `t` holds, below its top, something compiled code can change."""
    if isinstance(t, T.ClassType) or T.is_instance_type(t):
        return True
    if isinstance(t, T.ListType):
        return _mutable(t.elem)
    if isinstance(t, T.DictType):
        return _mutable(t.value)
    if isinstance(t, T.TupleType):
        return any(_mutable(e) for e in t.elems)
    return False


def _mutable(t: T.Type) -> bool:
    if isinstance(t, T.OptionalType):
        return _mutable(t.value)
    if isinstance(t, (T.ListType, T.HashType, T.ArrayType)) and not isinstance(t, (T.VarTupleType, T.IterType)):
        return True
    return _mutable_inside(t)


def _is_known(t: T.Type) -> bool:
    """Whether every part of container type `t` is known in this round of typing."""
    if isinstance(t, (Unknown, PendingElement, PendingPart)):
        return False
    parts = (t.key, t.value) if isinstance(t, T.DictType) else (t.key,) if isinstance(t, T.SetType) \
        else (t.elem,) if isinstance(t, T.ListType) else t.elems if isinstance(t, T.TupleType) else ()
    return all(_is_known(p) for p in parts)


def _is_two_levels(t: T.Type) -> bool:
    """A list or dict (not a set) of lists, dicts or sets whose items nothing can change:
    what deepcopylib copies."""
    if isinstance(t, T.ListType) and not isinstance(t, (T.VarTupleType, T.IterType)):
        inner = t.elem
    elif isinstance(t, T.DictType):
        inner = t.value
    else:
        return False
    return isinstance(inner, (T.ListType, T.HashType)) and not isinstance(inner, (T.VarTupleType, T.IterType)) \
        and not _mutable_inside(inner)


def _lower(fn, low, node: ast.Call, name: str) -> Value:
    if node.keywords or len(node.args) != 1 or isinstance(node.args[0], ast.Starred):
        low.error(f"copy.{fn.__name__}() takes one argument in compiled code", node)
    v = low.expr(node.args[0])
    t = v.type
    if fn is copy.deepcopy and _mutable_inside(t) and _is_two_levels(t):
        if not _is_known(t):        # (`[{}, {}]`: a later round knows the parts' types)
            return Undef(UNKNOWN, low.loc(node))
        lib = deepcopylib.deep_list if isinstance(t, T.ListType) else deepcopylib.deep_dict
        callee = low.ctx.callee(low, low.ctx.info_for(lib), (t,), node)
        return low.emit("call", [v], callee.ret_type, callee, low.loc(node))
    if fn is copy.deepcopy and _mutable_inside(t):
        low.error(f"copy.deepcopy() of a {t} is not supported in compiled code: CPython's copy keeps "
                  f"two places that held one object holding one new object, which compiled code "
                  f"does not track (copy each level with a comprehension)", node)
    if isinstance(t, (T.ClassType, T.ArrayType, T.IterType)) or T.is_instance_type(t):
        low.error(f"copy.{fn.__name__}() of a {t} is not supported in compiled code", node)
    if isinstance(t, T.VarTupleType) or not isinstance(t, (T.ListType, T.HashType)):
        return v                # a value compiled code never changes: the same value
    made = low.info.__dict__.setdefault("_copy_calls", {})
    call = made.get(id(node))
    if call is None:                # (one node per call, so hints keyed by it stay)
        held = ast.copy_location(ast.Name(id="$copied", ctx=ast.Load()), node)
        call = made[id(node)] = ast.copy_location(ast.Call(func=node.func, args=[held], keywords=[]), node)
        made[("node", id(node))] = node         # (kept alive: the cache is keyed by its id)
    low.pre_evaluated[id(call.args[0])] = v
    if isinstance(t, T.ListType):
        return lists.builtin_list(low, call, "list")
    return dicts.builtin_set(low, call, "set") if isinstance(t, T.SetType) else dicts.builtin_dict(low, call, "dict")


for _fn in (copy.copy, copy.deepcopy):
    CALLS.register(_fn, lambda low, node, name, fn=_fn: _lower(fn, low, node, name), owner=__name__)
