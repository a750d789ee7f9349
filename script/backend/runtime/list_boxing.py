"""List arguments: matching a Python list against a list type and copying it into a native
list (runtime.boxing calls these; frontend.typeinfer `list_type_of` is the same rule in
Python, for the dispatcher).

A list matches by its innermost elements, all of them together: all bools, all ints within
int64, all floats, or ints and floats together (a list of ``num``: each keeps its type, as
CPython's does; at a tuple's position too, not with None); a list without
any innermost element matches any list type. Lists nest evenly (every path as deep as the
type says; empty lists anywhere). Innermost tuples (``list[(i64, f64)]``) match position by
position, each position by the same rule over all the tuples.

Flat lists of numbers use the runtime library's ``script.list.kind`` and
``script.list.unbox.<t>``; nested lists of numbers ``script.list.kind.nested`` (compiled once
per process, `build_runtime`). Other list types get helpers defined in the entry point's own
module: ``script.list.unbox.<elem>`` for nested lists, and for lists of tuples
``script.list.scan.<t>`` / ``script.list.match.<t>`` and their unboxing.
"""

from __future__ import annotations

from script.ir import types as T
from script.backend.llvm import lists, memory
from script.backend.llvm.abi import LIKELY, llvm_type
from script.backend.llvm.builder import FALSE, NULL, TRUE, Builder, NativeModule, Value, float_const, int_const, undef
from script.backend.runtime import capi
from script.backend.runtime.capi import LIST_ITEMS, OB_TYPE, TUPLE_ITEMS, VAR_SIZE

# What `script.list.kind` says of a list's elements, and the element type each kind unboxes to.
LIST_EMPTY, LIST_MIXED = 0, -1
LIST_KINDS = {T.BOOL: 1, T.I64: 2, T.F64: 3}
STR_KIND = 4                        # a flat list of strs only (nested or in tuples: the scan helpers)
COMPLEX_KIND = 5                    # a flat list of numbers with a complex one: list[c128]
NUM_KIND = 6                        # ints (within int64) and floats, nested or not: list[num]
FLAT_KINDS = {T.STR: STR_KIND, T.C128: COMPLEX_KIND}
LIST_KIND_SYMBOL = "script.list.kind"
NESTED_KIND_SYMBOL = "script.list.kind.nested"
SCAN_SYMBOL = "script.list.scan"
_COUNTS = 3                         # per scalar position of a scanned leaf: bools, floats, Nones


def build_runtime(m: NativeModule) -> list[str]:
    """Define the runtime library's list functions in `m`; returns their names."""
    names = [_build_list_kind(m), _build_list_scan(m), _build_nested_kind(m)]
    for t in (*LIST_KINDS, *FLAT_KINDS):
        names.append(_build_unbox_list(m, t))
    return names


def emit_match(m: NativeModule, b: Builder, obj: Value, t: T.ListType) -> Value:
    """Whether list `obj` (an exact list: the caller checked its type) matches `t` (i1)."""
    depth, leaf = list_depth(t)
    if leaf == T.STR and depth > 1:
        return b.call(_match_helper(m, t), [obj])
    if leaf in FLAT_KINDS:
        if depth != 1:
            return FALSE
        kind = b.call(m.declare(LIST_KIND_SYMBOL, "i32", ["ptr"], attrs=("nounwind",)), [obj])
        return b.or_(b.icmp("eq", kind, int_const("i32", FLAT_KINDS[leaf])),
                     b.icmp("eq", kind, int_const("i32", LIST_EMPTY)))
    if leaf in LIST_KINDS or isinstance(leaf, T.IntFloatType):
        want = NUM_KIND if isinstance(leaf, T.IntFloatType) else LIST_KINDS[leaf]
        if depth == 1:
            kind = b.call(m.declare(LIST_KIND_SYMBOL, "i32", ["ptr"], attrs=("nounwind",)), [obj])
        else:
            kind = b.call(m.declare(NESTED_KIND_SYMBOL, "i32", ["ptr", "i64"], attrs=("nounwind",)),
                          [obj, int_const("i64", depth)])
        ok = b.or_(b.icmp("eq", kind, int_const("i32", want)),
                   b.icmp("eq", kind, int_const("i32", LIST_EMPTY)))
        if isinstance(leaf, T.IntFloatType):    # ints only, or floats only: each kept as it is
            for only in (T.I64, T.F64):
                ok = b.or_(ok, b.icmp("eq", kind, int_const("i32", LIST_KINDS[only])))
        return ok
    if is_union_leaf(leaf):
        return b.call(_union_match_helper(m, t), [obj])
    if is_tuple_leaf(leaf):
        return b.call(_match_helper(m, t), [obj])
    if isinstance(leaf, T.ClassType) and depth == 1:
        return TRUE     # instances: typed by the dispatcher, each checked as it is copied in
    return FALSE                        # never passed from Python


def is_tuple_leaf(t: T.Type) -> bool:
    """Whether innermost elements of type `t` can come from Python through the scan helpers:
    a tuple whose items are bools, ints, floats (int64, float64), strs, such tuples or
    optionals of numbers; or an optional of a number (`[1, None, 3]`: list[opt[i64]])."""
    if isinstance(t, T.OptionalType):
        return t.value in LIST_KINDS
    return isinstance(t, T.TupleType) and not isinstance(t, (T.UnionType, T.IntFloatType)) and bool(t.elems) \
        and all(e in LIST_KINDS or e in (T.STR, T.INT_FLOAT) or is_tuple_leaf(e) for e in t.elems)


TP_NAME, TP_FLAGS = 24, 168            # PyTypeObject.tp_name, .tp_flags
TUPLE_SUBCLASS = 1 << 26                # Py_TPFLAGS_TUPLE_SUBCLASS


def is_named_class(m: NativeModule, b: Builder, obj: Value, t: T.NamedTupleType) -> Value:
    """Whether `obj`'s class is a tuple subclass named as named tuple class `t` is (its
    ``tp_name``; the dispatcher typed the argument from the class itself, so two module-level
    classes of one name and the same field types are the only confusion)."""
    cls = b.load_at("ptr", obj, OB_TYPE)
    flags = b.load_at("i64", cls, TP_FLAGS)
    is_tuple = b.icmp("ne", b.and_(flags, int_const("i64", TUPLE_SUBCLASS)), int_const("i64", 0))
    strcmp = m.declare("strcmp", "i32", ["ptr", "ptr"], attrs=("nounwind",))
    same = b.icmp("eq", b.call(strcmp, [b.load_at("ptr", cls, TP_NAME), m.cstring(t.name.encode())]),
                  int_const("i32", 0))
    return b.and_(is_tuple, same)


# The exact Python type of each alternative a union from Python may have (typeinfer
# `_flat_list_type`).
UNION_CLASSES = {T.BOOL: "PyBool_Type", T.I64: "PyLong_Type", T.F64: "PyFloat_Type",
                                  T.STR: "PyUnicode_Type"}


def placeholder(m: NativeModule, b: Builder, t: T.Type) -> Value:
    """A value of type `t` standing for nothing (an alternative a union does not hold), as
    frontend/optional.py `placeholder` makes them: zero, False, the immortal ""."""
    from script.backend.llvm import strings
    if isinstance(t, T.OptionalType):
        return b.insert_value(b.insert_value(undef(llvm_type(t)), FALSE, 0), placeholder(m, b, t.value), 1)
    return strings.constant(m, "") if t == T.STR else FALSE if t == T.BOOL else \
        float_const("double", 0.0) if t == T.F64 else int_const("i64", 0)


def is_union_leaf(t: T.Type) -> bool:
    """Whether innermost elements of type `t` can come from Python as a union: bools, ints
    (within int64), floats and strs of more than one kind (`[1, "one"]`)."""
    return isinstance(t, T.UnionType) and all(a in UNION_CLASSES for a in t.alternatives)


def _union_match_helper(m: NativeModule, t: T.ListType):
    """``i1 script.list.match.<t>(PyObject *list)``, for lists (nested) of a union: whether
    every item is an exact list matched the same way, or, innermost, an exact object of one
    of the union's alternatives (an int within int64)."""
    name = f"script.list.match.{t}"
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn, b, item, next_, failed = _item_checker(m, name, [])
    overflow = b.entry_alloca("i32")
    cls = b.load_at("ptr", item, OB_TYPE)
    if isinstance(t.elem, T.ListType):
        inner = fn.append_block("inner")
        b.cbranch(b.icmp("eq", cls, capi.address_of(m, "PyList_Type")), inner, failed)
        b.position_at_end(inner)
        b.cbranch(b.call(_union_match_helper(m, t.elem), [item]), next_, failed)
    else:
        known = FALSE
        for alt in t.elem.alternatives:
            if alt != T.I64:
                known = b.or_(known, b.icmp("eq", cls, capi.address_of(m, UNION_CLASSES[alt])))
        is_int = b.icmp("eq", cls, capi.address_of(m, "PyLong_Type")) if T.I64 in t.elem.alternatives else FALSE
        an_int, other = fn.append_block("int"), fn.append_block("other")
        b.cbranch(is_int, an_int, other)
        b.position_at_end(other)
        b.cbranch(known, next_, failed)
        b.position_at_end(an_int)
        b.store(int_const("i32", 0), overflow)
        capi.call(m, b, "PyLong_AsLongLongAndOverflow", item, overflow)
        b.cbranch(b.icmp("eq", b.load("i32", overflow), int_const("i32", 0)), next_, failed)
    return fn


def _item_checker(m: NativeModule, name: str, params: list, linkage: str | None = None):
    """A new helper ``i1 name(PyObject *list, *params)`` that checks each of `list`'s items:
    (its function, a builder in the loop's body, the item, the block that takes the next
    item (true after the last), the block that returns false). With `linkage`, a function
    of the runtime library (`build_runtime`), not one of `m`'s helpers."""
    if linkage is not None:
        fn = m.new_function(name, "i1", ["ptr", *params], linkage=linkage)
    else:
        fn = m.helpers[name] = m.new_function(name, "i1", ["ptr", *params])
    obj = fn.args[0]
    b = Builder(fn, fn.append_block("entry"))
    head, body, next_, done, failed = (fn.append_block(x) for x in ("head", "body", "next", "done", "failed"))
    Builder(fn, failed).ret(FALSE)
    Builder(fn, done).ret(TRUE)
    n = b.load_at("i64", obj, VAR_SIZE)
    items = b.load_at("ptr", obj, LIST_ITEMS)
    entry = b.block
    b.branch(head)
    b.position_at_end(head)
    i = b.phi("i64")
    i.add_incoming(int_const("i64", 0), entry)
    b.cbranch(b.icmp("slt", i, n), body, done)
    step = Builder(fn, next_)
    i.add_incoming(step.add(i, int_const("i64", 1)), next_)
    step.branch(head)
    b.position_at_end(body)
    return fn, b, b.load("ptr", b.gep("ptr", items, i)), next_, failed


def _unbox_union(m: NativeModule, b: Builder, item: Value, e: T.UnionType, overflow: Value, failed) -> Value:
    """An exact object of an alternative of union `e` (matched: `_union_match_helper`) as
    the native union (`unbox_union`)."""
    return unbox_union(m, b, item, e, lambda a: _unbox_item(m, b, item, a, overflow, failed))


def unbox_union(m: NativeModule, b: Builder, obj: Value, t: T.UnionType, unbox, otherwise=None) -> Value:
    """Python object `obj` as the native union `t`, (tag, a, b, ...): tagged with the first
    alternative whose exact class `obj` has (or None, for an optional alternative), its
    payload `unbox(alternative)`, a placeholder of each other one (zero, the immortal "", as
    frontend/optional.py `placeholder` makes them). With `otherwise` (a block), an object of
    no alternative goes there; without, `obj` was matched and the last one is not tested."""
    fn = b.fn
    alts = t.alternatives
    done = fn.append_block("union_done")
    made = []
    cls = b.load_at("ptr", obj, OB_TYPE)
    for k, alt in enumerate(alts):
        tested = otherwise is not None or k + 1 < len(alts)
        if tested:
            inner = alt.value if isinstance(alt, T.OptionalType) else alt
            this, other = fn.append_block(f"union_{k}"), fn.append_block(f"union_not_{k}")
            cond = b.icmp("eq", cls, capi.address_of(m, UNION_CLASSES[inner]))
            if isinstance(alt, T.OptionalType):
                cond = b.or_(cond, b.icmp("eq", obj, capi.address_of(m, "_Py_NoneStruct")))
            b.cbranch(cond, this, other)
            b.position_at_end(this)
        out = b.insert_value(undef(llvm_type(t)), int_const("i64", k), 0)
        for j, a in enumerate(alts):
            out = b.insert_value(out, unbox(a) if j == k else placeholder(m, b, a), j + 1)
        made.append((out, b.block))
        b.branch(done)
        if tested:
            b.position_at_end(other)
    if otherwise is not None:
        b.branch(otherwise)
    b.position_at_end(done)
    return joined(b, t, made)


def joined(b, t: T.Type, made: list) -> Value:
    """The phi of type `t` of the (value, block) pairs `made`, at the current block."""
    phi = b.phi(llvm_type(t))
    for v, block in made:
        phi.add_incoming(v, block)
    return phi


def unbox_callee(m: NativeModule, t: T.ListType):
    """``ptr (PyObject *list)`` making a new native list of `t` from a Python list that
    `emit_match` matched (NULL without memory): the runtime library's for a flat list of
    numbers, one defined in `m` otherwise (each inner list unboxed the same way)."""
    if t.elem in LIST_KINDS or t.elem in FLAT_KINDS:
        return m.declare(_unbox_list_symbol(t.elem), "ptr", ["ptr"], attrs=("nounwind",))
    name = _unbox_list_symbol(t.elem)
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn = m.helpers[name] = m.new_function(name, "ptr", ["ptr"])
    obj, = fn.args
    b = Builder(fn, fn.append_block("entry"))
    head, body, stored, done, failed = (fn.append_block(x) for x in ("head", "body", "stored", "done", "failed"))
    n = b.load_at("i64", obj, VAR_SIZE)
    items = b.load_at("ptr", obj, LIST_ITEMS)
    lst = lists.new(m, b)
    overflow = b.alloca("i32")          # (never set: `emit_match` checked the range)
    fb = Builder(fn, failed)
    memory.emit_rc(m, fb, "decref", lst, t)          # with the inner lists made so far
    fb.ret(NULL)
    entry = b.block
    b.cbranch(memory.resize_list(m, b, t, lst, n), head, failed)       # (inner lists: slots zeroed)
    b.position_at_end(head)
    i = b.phi("i64")
    i.add_incoming(int_const("i64", 0), entry)
    b.cbranch(b.icmp("slt", i, n), body, done)
    b.position_at_end(body)
    item = b.load("ptr", b.gep("ptr", items, i))
    if isinstance(t.elem, T.ListType):
        value = b.call(unbox_callee(m, t.elem), [item])
        b.cbranch(b.icmp("ne", value, NULL), stored, failed, LIKELY)
    else:
        value = _unbox_item(m, b, item, t.elem, overflow, failed)
        b.branch(stored)
    b.position_at_end(stored)
    lists.set_item(b, t, lst, value, i)
    i.add_incoming(b.add(i, int_const("i64", 1)), stored)
    b.branch(head)
    b.position_at_end(done)
    b.ret(lst)
    return fn


def _unbox_tuple(m: NativeModule, b: Builder, obj: Value, t: T.TupleType, overflow: Value, failed) -> Value:
    """Tuple `obj`, matched by `_scan_helper`, as a native `t`: a bool, an int within int64,
    a float or an int for f64, or a new str at each position. Without memory for a str,
    a jump to `failed` (the strs of this tuple made before it are not released: a leak only
    when memory has run out)."""
    out = undef(llvm_type(t))
    for k, e in enumerate(t.elems):
        out = b.insert_value(out, _unbox_item(m, b, b.load_at("ptr", obj, TUPLE_ITEMS + 8 * k), e, overflow,
                                              failed), k)
    return out


def _unbox_item(m: NativeModule, b: Builder, item: Value, e: T.Type, overflow: Value, failed) -> Value:
    """One innermost element or tuple item `item` as a native `e` (`_unbox_tuple`); an
    optional is (False, 0) for None."""
    if isinstance(e, T.OptionalType):
        fn = b.fn
        absent, present, done = (fn.append_block(x) for x in ("opt_none", "opt_value", "opt_done"))
        b.cbranch(b.icmp("eq", item, capi.address_of(m, "_Py_NoneStruct")), absent, present)
        b.position_at_end(present)
        value = _unbox_item(m, b, item, e.value, overflow, failed)
        some = b.insert_value(b.insert_value(undef(llvm_type(e)), TRUE, 0), value, 1)
        from_value = b.block
        b.branch(done)
        b.position_at_end(absent)
        zero = float_const("double", 0.0) if e.value == T.F64 else FALSE if e.value == T.BOOL else int_const("i64", 0)
        none = b.insert_value(b.insert_value(undef(llvm_type(e)), FALSE, 0), zero, 1)
        b.branch(done)
        b.position_at_end(done)
        out = b.phi(llvm_type(e))
        out.add_incoming(some, from_value)
        out.add_incoming(none, absent)
        return out
    if isinstance(e, T.IntFloatType):         # (is_float, int, float): the other part zero
        return _unbox_number(m, b, item, e, overflow)
    if isinstance(e, T.UnionType):
        return _unbox_union(m, b, item, e, overflow, failed)
    if isinstance(e, T.TupleType):
        return _unbox_tuple(m, b, item, e, overflow, failed)
    if e == T.STR:
        from script.backend.runtime import strings
        v = strings.from_py(m, b, item)
        made = b.fn.append_block("made")
        b.cbranch(b.icmp("ne", v, NULL), made, failed, LIKELY)
        b.position_at_end(made)
        return v
    if e == T.BOOL:
        return b.icmp("eq", item, capi.address_of(m, "_Py_TrueStruct"))
    if e == T.F64:
        return capi.call(m, b, "PyFloat_AsDouble", item)
    return capi.call(m, b, "PyLong_AsLongLongAndOverflow", item, overflow)


def _unbox_number(m: NativeModule, b: Builder, item: Value, e: T.Type, overflow: Value) -> Value:
    """An exact int (within int64: matched) or float `item` as a native ``num``."""
    fn = b.fn
    as_float, as_int, done = (fn.append_block(x) for x in ("num_float", "num_int", "num_done"))
    is_float = b.icmp("eq", b.load_at("ptr", item, OB_TYPE), capi.address_of(m, "PyFloat_Type"))
    b.cbranch(is_float, as_float, as_int)
    parts = []
    for block, flag, i, f in ((as_float, TRUE, None, "f"), (as_int, FALSE, "i", None)):
        b.position_at_end(block)
        iv = capi.call(m, b, "PyLong_AsLongLongAndOverflow", item, overflow) if i else int_const("i64", 0)
        fv = b.load_at("double", item, capi.FLOAT_VALUE) if f else float_const("double", 0.0)
        v = b.insert_value(b.insert_value(b.insert_value(undef(llvm_type(e)), flag, 0), iv, 1), fv, 2)
        parts.append((v, b.block))
        b.branch(done)
    b.position_at_end(done)
    out = b.phi(llvm_type(e))
    for v, block in parts:
        out.add_incoming(v, block)
    return out


def _positions(t: T.Type) -> list[T.Type]:
    """The scalar types of a tuple leaf, depth first (not strs: `_scan_helper` requires
    exact strs where the type has them, so their kind needs no count)."""
    if isinstance(t, T.OptionalType):
        return _positions(t.value)
    if isinstance(t, T.TupleType) and not isinstance(t, T.IntFloatType):
        return [p for e in t.elems for p in _positions(e)]
    return [] if t == T.STR else [t]


def _match_helper(m: NativeModule, t: T.ListType):
    """``i1 script.list.match.<t>(PyObject *list)``, for lists (nested) of tuples: the
    structure checks of `_scan_helper`, then each position's kind (the module docstring)."""
    name = f"script.list.match.{t}"
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn = m.helpers[name] = m.new_function(name, "i1", ["ptr"])
    obj, = fn.args
    _, leaf = list_depth(t)
    kinds = _positions(leaf)
    b = Builder(fn, fn.append_block("entry"))
    scanned, failed = fn.append_block("scanned"), fn.append_block("failed")
    Builder(fn, failed).ret(FALSE)
    counts = b.alloca(f"[{1 + _COUNTS * len(kinds)} x i64]")
    for k in range(1 + _COUNTS * len(kinds)):
        b.store_at(int_const("i64", 0), counts, 8 * k)
    b.cbranch(b.call(_scan_helper(m, t), [obj, counts]), scanned, failed)
    b.position_at_end(scanned)
    zero = int_const("i64", 0)
    n = b.load_at("i64", counts, 0)
    ok = TRUE
    for p, kind in enumerate(kinds):
        bools, floats, nones = (b.load_at("i64", counts, 8 * (1 + _COUNTS * p + k)) for k in range(_COUNTS))
        if kind == T.BOOL:
            good = b.icmp("eq", b.add(bools, nones), n)
        elif isinstance(kind, T.IntFloatType):         # ints and floats, each kept as it is
            good = b.icmp("eq", bools, zero)
        else:
            no_bools = b.icmp("eq", bools, zero)       # (and all ints, or all floats: an int stays an int)
            good = b.and_(no_bools, b.icmp("eq", floats, zero) if kind == T.I64 else
                          b.icmp("eq", b.add(floats, nones), n))
        ok = good if ok is TRUE else b.and_(ok, good)
    b.ret(b.or_(ok, b.icmp("eq", n, zero)))
    return fn


def _scan_helper(m: NativeModule, t: T.ListType):
    """``i1 script.list.scan.<t>(PyObject *list, i64 *counts)``: whether `list`'s items are
    exact lists scanned the same way (`t` a list of lists) or exact tuples of `t`'s element
    shape whose items are bools, ints within int64 or floats (or None where `t` has an
    optional); counts the tuples in counts[0] and, per position p, the bools, floats and
    Nones in counts[1 + 3p], counts[2 + 3p], counts[3 + 3p]."""
    name = f"script.list.scan.{t}"
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn, b, item, next_, mixed = _item_checker(m, name, ["ptr"])
    counts = fn.args[1]
    overflow = b.entry_alloca("i32")

    def require(cond):
        cont = fn.append_block("ok")
        b.cbranch(cond, cont, mixed, LIKELY)
        b.position_at_end(cont)

    def is_exact(obj, type_name):
        return b.icmp("eq", b.load_at("ptr", obj, OB_TYPE), capi.address_of(m, type_name))

    if isinstance(t.elem, T.ListType):
        require(is_exact(item, "PyList_Type"))
        require(b.call(_scan_helper(m, t.elem), [item, counts]))
    else:
        position = [0]

        def check(obj, et):
            if isinstance(et, T.OptionalType):
                p = position[0]
                absent, present, joined = (fn.append_block(x) for x in ("none", "value", "checked"))
                b.cbranch(b.icmp("eq", obj, capi.address_of(m, "_Py_NoneStruct")), absent, present)
                b.position_at_end(absent)
                offset = 8 * (1 + _COUNTS * p + 2)
                b.store_at(b.add(b.load_at("i64", counts, offset), int_const("i64", 1)), counts, offset)
                b.branch(joined)
                b.position_at_end(present)
                check(obj, et.value)
                b.branch(joined)
                b.position_at_end(joined)
                return
            if isinstance(et, T.TupleType) and not isinstance(et, T.IntFloatType):
                require(is_named_class(m, b, obj, et) if isinstance(et, T.NamedTupleType) else
                        is_exact(obj, "PyTuple_Type"))
                require(b.icmp("eq", b.load_at("i64", obj, VAR_SIZE), int_const("i64", len(et.elems))))
                for k, e in enumerate(et.elems):
                    check(b.load_at("ptr", obj, TUPLE_ITEMS + 8 * k), e)
                return
            if et == T.STR:
                require(is_exact(obj, "PyUnicode_Type"))
                return
            p = position[0]
            position[0] += 1
            is_bool, is_float, is_int = (is_exact(obj, c) for c in ("PyBool_Type", "PyFloat_Type", "PyLong_Type"))
            require(b.or_(b.or_(is_bool, is_float), is_int))
            for offset, add in ((1 + _COUNTS * p, is_bool), (2 + _COUNTS * p, is_float)):
                b.store_at(b.add(b.load_at("i64", counts, 8 * offset), b.zext(add, "i64")), counts, 8 * offset)
            # An int must fit in int64 (a float or bool passes: overflow stays 0).
            b.store(int_const("i32", 0), overflow)
            checked, fits = fn.append_block("int"), fn.append_block("fits")
            b.cbranch(is_int, checked, fits)
            b.position_at_end(checked)
            capi.call(m, b, "PyLong_AsLongLongAndOverflow", obj, overflow)
            b.branch(fits)
            b.position_at_end(fits)
            require(b.icmp("eq", b.load("i32", overflow), int_const("i32", 0)))

        check(item, t.elem)
        b.store_at(b.add(b.load_at("i64", counts, 0), int_const("i64", 1)), counts, 0)
    b.branch(next_)
    return fn


# --- the runtime library's functions --------------------------------------------------------

def _unbox_list_symbol(elem: T.Type) -> str:
    return f"script.list.unbox.{elem}"


def list_depth(t: T.ListType) -> tuple[int, T.Type]:
    """How many lists `t` nests (list[list[i64]]: 2) and the innermost element type."""
    depth = 0
    while isinstance(t, T.ListType) and not isinstance(t, T.ClassType):
        depth, t = depth + 1, t.elem
    return depth, t


def _build_list_kind(m: NativeModule) -> str:
    """``i32 script.list.kind(PyObject *list)``: LIST_EMPTY, LIST_MIXED (other elements, an
    int beyond int64, bools with numbers, strs with anything else), STR_KIND, or the
    LIST_KINDS value of an exact list's elements."""
    fn = m.new_function(LIST_KIND_SYMBOL, "i32", ["ptr"], linkage="external")
    obj, = fn.args
    b = Builder(fn, fn.append_block("entry"))
    head, body, number, check_int, check_str, next_, done, mixed = (fn.append_block(x) for x in (
        "head", "body", "number", "check_int", "check_str", "next", "done", "mixed"))
    Builder(fn, mixed).ret(int_const("i32", LIST_MIXED))
    n = b.load_at("i64", obj, VAR_SIZE)
    items = b.load_at("ptr", obj, LIST_ITEMS)
    overflow = b.alloca("i32")
    entry = b.block
    b.branch(head)
    b.position_at_end(head)
    i, bools, floats, strs, complexes = b.phi("i64"), b.phi("i64"), b.phi("i64"), b.phi("i64"), b.phi("i64")
    for phi in (i, bools, floats, strs, complexes):
        phi.add_incoming(int_const("i64", 0), entry)
    b.cbranch(b.icmp("slt", i, n), body, done)
    b.position_at_end(body)
    item = b.load("ptr", b.gep("ptr", items, i))
    cls = b.load_at("ptr", item, OB_TYPE)
    is_bool = b.icmp("eq", cls, capi.address_of(m, "PyBool_Type"))
    is_float = b.icmp("eq", cls, capi.address_of(m, "PyFloat_Type"))
    is_int = b.icmp("eq", cls, capi.address_of(m, "PyLong_Type"))
    is_str = b.icmp("eq", cls, capi.address_of(m, "PyUnicode_Type"))
    is_complex = b.icmp("eq", cls, capi.address_of(m, "PyComplex_Type"))
    b.cbranch(b.or_(b.or_(b.or_(is_bool, is_float), is_int), is_complex), number, check_str)
    b.position_at_end(check_str)
    b.cbranch(is_str, next_, mixed)
    b.position_at_end(number)
    b.cbranch(is_int, check_int, next_)
    b.position_at_end(check_int)
    capi.call(m, b, "PyLong_AsLongLongAndOverflow", item, overflow)
    b.cbranch(b.icmp("eq", b.load("i32", overflow), int_const("i32", 0)), next_, mixed)
    b.position_at_end(next_)
    i.add_incoming(b.add(i, int_const("i64", 1)), next_)
    bools.add_incoming(b.add(bools, b.zext(is_bool, "i64")), next_)
    floats.add_incoming(b.add(floats, b.zext(is_float, "i64")), next_)
    strs.add_incoming(b.add(strs, b.zext(is_str, "i64")), next_)
    complexes.add_incoming(b.add(complexes, b.zext(is_complex, "i64")), next_)
    b.branch(head)
    b.position_at_end(done)
    kind = b.select(b.icmp("ne", floats, int_const("i64", 0)), int_const("i32", LIST_KINDS[T.F64]),
                    int_const("i32", LIST_KINDS[T.I64]))
    kind = b.select(b.icmp("eq", bools, n), int_const("i32", LIST_KINDS[T.BOOL]), kind)
    some_bools = b.and_(b.icmp("ne", bools, int_const("i64", 0)), b.icmp("ne", bools, n))
    kind = b.select(b.icmp("ne", complexes, int_const("i64", 0)), int_const("i32", COMPLEX_KIND), kind)
    kind = b.select(some_bools, int_const("i32", LIST_MIXED), kind)
    # ints with floats: a list of num; with complex numbers: no one type keeps each as CPython has it
    numbers = b.sub(n, b.add(bools, strs))
    some_floats = b.and_(b.icmp("ne", floats, int_const("i64", 0)), b.icmp("ne", floats, numbers))
    some_complex = b.and_(b.icmp("ne", complexes, int_const("i64", 0)), b.icmp("ne", complexes, numbers))
    kind = b.select(b.and_(some_floats, b.icmp("eq", bools, int_const("i64", 0))), int_const("i32", NUM_KIND), kind)
    kind = b.select(some_complex, int_const("i32", LIST_MIXED), kind)
    kind = b.select(b.icmp("eq", strs, n), int_const("i32", STR_KIND), kind)
    some_strs = b.and_(b.icmp("ne", strs, int_const("i64", 0)), b.icmp("ne", strs, n))
    kind = b.select(some_strs, int_const("i32", LIST_MIXED), kind)
    b.ret(b.select(b.icmp("eq", n, int_const("i64", 0)), int_const("i32", LIST_EMPTY), kind))
    return fn.name


def _build_list_scan(m: NativeModule) -> str:
    """``i1 script.list.scan(PyObject *list, i64 depth, i64 *counts)``: whether `list` is
    lists nested `depth` deep (empty ones anywhere) whose innermost elements are bools, ints
    within int64 or floats; adds to counts[0..2] the number of those elements, bools and
    floats. Recursive (a list holding itself has no finite depth: the scan stops at `depth`)."""
    fn, b, item, next_, mixed = _item_checker(m, SCAN_SYMBOL, ["i64", "ptr"], linkage="external")
    depth, counts = fn.args[1:]
    inner, leaf, number, check_int = (fn.append_block(x) for x in ("inner", "leaf", "number", "check_int"))
    overflow = b.entry_alloca("i32")
    cls = b.load_at("ptr", item, OB_TYPE)
    b.cbranch(b.icmp("sgt", depth, int_const("i64", 1)), inner, leaf)
    b.position_at_end(inner)
    is_list = b.icmp("eq", cls, capi.address_of(m, "PyList_Type"))
    lower = fn.append_block("lower")
    b.cbranch(is_list, lower, mixed)
    b.position_at_end(lower)
    ok = b.call(fn, [item, b.sub(depth, int_const("i64", 1)), counts])
    b.cbranch(ok, next_, mixed)
    b.position_at_end(leaf)
    is_bool = b.icmp("eq", cls, capi.address_of(m, "PyBool_Type"))
    is_float = b.icmp("eq", cls, capi.address_of(m, "PyFloat_Type"))
    is_int = b.icmp("eq", cls, capi.address_of(m, "PyLong_Type"))
    b.cbranch(b.or_(b.or_(is_bool, is_float), is_int), number, mixed)
    b.position_at_end(number)
    for k, add in enumerate((TRUE, is_bool, is_float)):
        b.store_at(b.add(b.load_at("i64", counts, 8 * k), b.zext(add, "i64")), counts, 8 * k)
    b.cbranch(is_int, check_int, next_)
    b.position_at_end(check_int)
    capi.call(m, b, "PyLong_AsLongLongAndOverflow", item, overflow)
    b.cbranch(b.icmp("eq", b.load("i32", overflow), int_const("i32", 0)), next_, mixed)
    return fn.name


def _build_nested_kind(m: NativeModule) -> str:
    """``i32 script.list.kind.nested(PyObject *list, i64 depth)``: `script.list.kind` for
    lists nested `depth` deep, over all their innermost elements (LIST_EMPTY when there are
    none)."""
    fn = m.new_function(NESTED_KIND_SYMBOL, "i32", ["ptr", "i64"], linkage="external")
    obj, depth = fn.args
    b = Builder(fn, fn.append_block("entry"))
    scanned, mixed = fn.append_block("scanned"), fn.append_block("mixed")
    Builder(fn, mixed).ret(int_const("i32", LIST_MIXED))
    counts = b.alloca("[3 x i64]")
    for k in range(3):
        b.store_at(int_const("i64", 0), counts, 8 * k)
    ok = b.call(m.declare(SCAN_SYMBOL, "i1", ["ptr", "i64", "ptr"], attrs=("nounwind",)), [obj, depth, counts])
    b.cbranch(ok, scanned, mixed)
    b.position_at_end(scanned)
    n, bools, floats = (b.load_at("i64", counts, 8 * k) for k in range(3))
    kind = b.select(b.icmp("ne", floats, int_const("i64", 0)), int_const("i32", LIST_KINDS[T.F64]),
                    int_const("i32", LIST_KINDS[T.I64]))
    kind = b.select(b.icmp("eq", bools, n), int_const("i32", LIST_KINDS[T.BOOL]), kind)
    some_bools = b.and_(b.icmp("ne", bools, int_const("i64", 0)), b.icmp("ne", bools, n))
    kind = b.select(some_bools, int_const("i32", LIST_MIXED), kind)
    some_floats = b.and_(b.icmp("ne", floats, int_const("i64", 0)), b.icmp("ne", floats, b.sub(n, bools)))
    kind = b.select(b.and_(some_floats, b.icmp("eq", bools, int_const("i64", 0))),
                    int_const("i32", NUM_KIND), kind)      # (ints and floats: a list of num)
    b.ret(b.select(b.icmp("eq", n, int_const("i64", 0)), int_const("i32", LIST_EMPTY), kind))
    return fn.name


def _build_unbox_list(m: NativeModule, elem: T.Type) -> str:
    """``ptr script.list.unbox.<elem>(PyObject *list)``: a new native list (llvm.lists) of
    the elements of a list `script.list.kind` matched with `elem`; NULL without memory."""
    fn = m.new_function(_unbox_list_symbol(elem), "ptr", ["ptr"], linkage="external")
    obj, = fn.args
    t = T.ListType(elem)
    b = Builder(fn, fn.append_block("entry"))
    head, body, done, failed = (fn.append_block(x) for x in ("head", "body", "done", "failed"))
    n = b.load_at("i64", obj, VAR_SIZE)
    items = b.load_at("ptr", obj, LIST_ITEMS)
    lst = lists.new(m, b)
    overflow = b.alloca("i32")          # (never set: `script.list.kind` checked the range)
    fb = Builder(fn, failed)
    memory.emit_rc(m, fb, "decref", lst, t)
    fb.ret(NULL)
    b.cbranch(memory.resize_list(m, b, t, lst, n), head, failed)
    b.position_at_end(head)
    i = b.phi("i64")
    i.add_incoming(int_const("i64", 0), fn.blocks[0])
    b.cbranch(b.icmp("slt", i, n), body, done)
    b.position_at_end(body)
    item = b.load("ptr", b.gep("ptr", items, i))
    if elem == T.STR:
        from script.backend.runtime import strings
        v = strings.from_py(m, b, item)
        made = fn.append_block("made")
        b.cbranch(b.icmp("ne", v, NULL), made, failed)
        b.position_at_end(made)
    elif elem == T.C128:                # a complex's parts; an int or float as the real part
        is_complex = b.icmp("eq", b.load_at("ptr", item, OB_TYPE), capi.address_of(m, "PyComplex_Type"))
        parts = []
        for k in (0, 1):
            cplx, other, joined = (fn.append_block(x) for x in (f"complex{k}", f"real{k}", f"part{k}"))
            b.cbranch(is_complex, cplx, other)
            b.position_at_end(cplx)
            p1 = b.load_at("double", item, capi.COMPLEX_VALUE + 8 * k)
            b.branch(joined)
            b.position_at_end(other)
            p2 = capi.call(m, b, "PyFloat_AsDouble", item) if k == 0 else float_const("double", 0.0)
            b.branch(joined)
            b.position_at_end(joined)
            part = b.phi("double")
            part.add_incoming(p1, cplx)
            part.add_incoming(p2, other)
            parts.append(part)
        v = b.insert_value(b.insert_value(undef(llvm_type(elem)), parts[0], 0), parts[1], 1)
    elif elem == T.BOOL:
        v = b.icmp("eq", item, capi.address_of(m, "_Py_TrueStruct"))
    elif elem == T.F64:
        v = capi.call(m, b, "PyFloat_AsDouble", item)     # exact floats and ints in range
    else:
        v = capi.call(m, b, "PyLong_AsLongLongAndOverflow", item, overflow)
    lists.set_item(b, t, lst, v, i)
    i.add_incoming(b.add(i, int_const("i64", 1)), b.block)
    b.branch(head)
    b.position_at_end(done)
    b.ret(lst)
    return fn.name
