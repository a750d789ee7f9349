"""Objects whose reference count is their first i64 (lists, strs, class instances), and which
native values hold counted references at all.

The leaf under the modules of each kind (lists.py, strings.py, records.py) and the one
recursion over element types that counts any value (memory.emit_rc), so that none of them
imports the others to share the count's code.
"""

from __future__ import annotations

from script.ir import types as T
from script.backend.llvm.builder import NULL, Builder, NativeModule, int_const

REFCOUNT = 0            # the count's offset in every counted object


def managed(t: T.Type) -> bool:
    """Whether a value of type `t` holds references the lowering counts: T.holds_references,
    and a caught exception (`exc`: its message's strs, or CPython's exception object; counted
    by llvm.caught `emit_rc`)."""
    return T.holds_references(t) or t == T.EXC


def refcount_helper(m: NativeModule, name: str, increments: bool, free, weights=None):
    """``void <name>(ptr obj)`` for an object whose count is its first i64 (a list, a str):
    one more, or (not `increments`) one less and ``free()``'s function called on the object at
    zero; NULL is left alone (`weights`: the NULL test's branch weights)."""
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn = m.helpers[name] = m.new_function(name, "void", ["ptr"], attrs=("nounwind", "alwaysinline"))
    obj, = fn.args
    b = Builder(fn, fn.append_block("entry"))
    count, done = fn.append_block("count"), fn.append_block("done")
    b.cbranch(b.icmp("ne", obj, NULL), count, done, weights)
    b.position_at_end(count)
    old = b.load_at("i64", obj, REFCOUNT)
    if increments:
        b.store_at(b.index_arith("add", old, int_const("i64", 1), "nuw nsw"), obj, REFCOUNT)
        b.branch(done)
    else:
        new_count = b.index_arith("sub", old, int_const("i64", 1), "nuw nsw")
        b.store_at(new_count, obj, REFCOUNT)
        release = fn.append_block("release")
        b.cbranch(b.icmp("eq", new_count, int_const("i64", 0)), release, done)
        b.position_at_end(release)
        b.call(free(), [obj])
        b.branch(done)
    b.position_at_end(done)
    b.ret_void()
    return fn
