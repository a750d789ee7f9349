"""`np.array(rows)` of a list of lists (any depth) of numbers: a new C-contiguous array with
one dimension per level of nesting.

The shape is NumPy's: the length of the outer list, then at each level the length every list
there has. The levels are checked one after another, all the lists of a level before the
next, as NumPy discovers a shape, so a ragged list raises NumPy's ValueError (``...
inhomogeneous shape after 1 dimensions. The detected shape was (2,) + inhomogeneous part.``,
its text taken from the NumPy that compiles). One difference: a level without any list
(``[]``, ``[[], []]`` for a list of lists of lists) has length 0 here, where NumPy's array has
fewer dimensions.
"""

from __future__ import annotations

import ast
import functools

from script.ir import types as T
from script.ir.core import Const, Value


def nested_list_to_array(lo, lst: Value, dtype: T.Type | None, node) -> Value:
    """`np.array(lst)` for `lst` a list of lists, emitted through the lowering `lo`."""
    depth, leaf = 0, lst.type
    while isinstance(leaf, T.ListType):
        depth, leaf = depth + 1, lo.read_type_of(leaf)
    if not leaf.is_numeric():
        lo.error(f"numpy.array() of a {lst.type} is not supported in compiled code (lists of numbers only)", node)
    loc = lo.loc(node)
    dims = [lo.list_len(lst, node)]
    for k in range(1, depth):
        var = lo.new_var("dim", Const(-1, T.I64))

        def check(row, k=k, var=var):
            n = lo.list_len(row, node)
            d = lo.read(var, loc)
            bad = lo.emit("and", [lo.cmp("ne", d, Const(-1, T.I64), node), lo.cmp("ne", d, n, node)],
                          T.BOOL, None, loc)
            lo.raise_if(bad, "ValueError", _ragged_message(k), node, args=dims[:k])
            lo.write(var, n)

        _each_at_level(lo, lst, k, [], check, node, ("dim", k))
        dims.append(lo.emit("max", [lo.read(var, loc), Const(0, T.I64)], T.I64, None, loc))
    t = dtype or leaf
    out = lo.alloc_array(t, dims, node)

    def store(row, idx):
        lo.for_range(_key(lo, node, ("item",)), lo.list_len(row, node), lambda i: lo.emit(
            "store", [out, lo.item_value(lo.get_item(row, i, node), t, node), *idx, i], T.NONE, None, loc))

    _each_at_level(lo, lst, depth - 1, [], store, node, ("fill", depth - 1), with_index=True)
    return out


def _each_at_level(lo, lst: Value, k: int, idx: list, body, node, tag, with_index: bool = False) -> None:
    """`body(l)` (`body(l, indices)`) for each list `l` nested `k` deep in `lst`, in order."""
    if k == 0:
        body(lst, idx) if with_index else body(lst)
        return
    lo.for_range(_key(lo, node, tag + (k,)), lo.list_len(lst, node), lambda i: _each_at_level(
        lo, lo.get_item(lst, i, node), k - 1, idx + [i], body, node, tag, with_index))


def _key(lo, node, tag) -> ast.AST:
    """A node standing for one loop of this conversion, the same in every build round."""
    keys = lo.info.__dict__.setdefault("_list_array_loops", {})
    key = keys.get((id(node), tag))
    if key is None:
        key = keys[(id(node), tag)] = ast.Pass(lineno=getattr(node, "lineno", 1),
                                               col_offset=getattr(node, "col_offset", 0))
    return key


@functools.lru_cache(maxsize=None)
def _ragged_message(k: int) -> str:
    """NumPy's ValueError for lists whose lengths differ at level `k`, with ``%lld`` for each
    length of the shape found so far."""
    shape = "(" + ", ".join(["%lld"] * k) + ("," if k == 1 else "") + ")"
    import numpy as np
    try:
        np.array([[0], [0, 0]])
    except ValueError as e:
        text = str(e).replace("%", "%%")
        if "after 1 dimensions" in text and "(2,)" in text:
            return text.replace("after 1 dimensions", f"after {k} dimensions").replace("(2,)", shape)
    return (f"setting an array element with a sequence. The requested array has an inhomogeneous "
            f"shape after {k} dimensions. The detected shape was {shape} + inhomogeneous part.")
