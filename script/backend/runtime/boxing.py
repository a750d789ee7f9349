"""Conversion between Python objects and native values, generated in LLVM IR.

Argument matching is exact, never a coercion: an int parameter accepts exactly `int` (not
`bool`, not a subclass), `bool` exactly `bool`, a float exactly `float`, ``none`` exactly
`None`, a tuple exactly a `tuple` of the same length whose items match. Matching
(`emit_type_checks`) is separate from conversion (`emit_unbox`) so an entry point can reject
a call whose types do not match before any conversion raises (an int out of range raises
OverflowError; a mismatch lets the dispatcher try the next specialization).

Narrow scalars. A parameter of a scalar type no Python value has (`is_narrow`: i8 … u64
but int64, and f32) matches by one of two rules, chosen per parameter by the entry point's
`numpy_scalars` (the positions of the parameters of the second rule):

- converting (an annotated parameter, ``x: script.i32``): exactly `int` (`float` for f32),
  converted, OverflowError when out of range;
- NumPy scalars (an unannotated parameter, whose type came from a NumPy scalar argument):
  exactly NumPy's scalar type of that type (``numpy.int32``; for u64 ``numpy.uint64`` or
  ``numpy.ulonglong``), whose value is read from the object (`capi.NPY_SCALAR_VALUE`). A
  Python int does not match, so it reaches a specialization for int64 as it would had the
  NumPy one never been compiled (script.dispatcher).

The rule covers the scalars inside a tuple parameter too.

Results are new references, or NULL with the Python exception set when an allocation fails
(a partly built tuple is released first).

Lists. A list argument is matched by its elements (list_boxing.py: all bools, all ints
that fit in int64, or floats and such ints with at least one float; lists of such lists;
lists of tuples of them; an empty list matches a list of any of these) and copied into a new
native list, which the entry releases after the call (`release_unboxed`); where the library
writes a list argument back, or may return one, the copy goes through the call's memo and is
written back after the call (runtime.list_reflect). A returned list becomes a new Python list
of boxed elements (lists, arrays and tuples in it boxed the same way), or the caller's own
list where it is an argument's, and the native list is released.

An int of one digit (the common case) unboxes inline; any other int, and one out of a narrow
type's range, goes through ``script.unbox.<t>`` (`build_runtime`), compiled once per process in
the runtime library (runtime.shared), which converts it or raises CPython's OverflowError.
"""

from __future__ import annotations

from script.ir import types as T
from script.backend.llvm import lists, memory
from script.backend.llvm.abi import (
    ARRAY_DATA, ARRAY_OWNER, ARRAY_SHAPE, ARRAY_STRIDES, ENV, LIKELY, NONE_VALUE, RAISE_SYMBOL, WRITTEN_SYMBOL,
    has_arrays, llvm_type)
from script.backend.llvm.builder import (
    FALSE, NULL, TRUE, Builder, Function, NativeModule, Value, int_const, undef)
from script.backend.runtime import capi, list_boxing, list_memo, list_reflect, table_boxing, table_reflect
from script.backend.runtime.capi import FLOAT_VALUE, LIST_ITEMS, OB_TYPE, TUPLE_ITEMS, VAR_SIZE

TP_NAME = 24                            # PyTypeObject.tp_name

READ_ONLY_MESSAGE = "assignment destination is read-only"       # NumPy's

_TYPE_OBJECT = {T.BoolType: "PyBool_Type", T.IntType: "PyLong_Type",
                T.FloatType: "PyFloat_Type", T.ComplexType: "PyComplex_Type", T.TupleType: "PyTuple_Type",
                T.ListType: "PyList_Type", T.StrType: "PyUnicode_Type", T.BytesType: "PyBytes_Type",
                T.IterType: "PyRange_Type",
                **table_boxing.TYPE_OBJECT}


INT_TYPES = (T.I8, T.I16, T.I32, T.I64, T.U8, T.U16, T.U32, T.U64)
UNBOX_RESULT = "{i64, i1}"      # the value (as i64) and whether it converted


def is_narrow(t: T.Type) -> bool:
    """Whether `t` is a scalar type no Python value has: a NumPy scalar passes it."""
    return isinstance(t, T.IntType) and t != T.I64 or t == T.F32


def has_narrow(t: T.Type) -> bool:
    """Whether `t` is, or a tuple `t` holds, a narrow scalar type (`is_narrow`)."""
    if isinstance(t, T.TupleType):
        return any(has_narrow(e) for e in t.elems)
    return is_narrow(t)


def unbox_symbol(t: T.IntType) -> str:
    """The runtime library's slow conversion of an exact int to `t`."""
    return f"script.unbox.{t}"


class Converter:
    """Emits conversions into `fn` through the builder `b`; `error` is a block that returns
    the caller's error value with a Python exception set."""

    def __init__(self, m: NativeModule, fn: Function, b: Builder, error):
        self.m = m
        self.fn = fn
        self.b = b
        self.error = error
        self.unboxed: list[tuple] = []      # (value, type) of lists and strs, released after the call
        self.unboxed_tables: list = []       # (index, entries, type) of dicts and sets, likewise
        # The call's memo of lists (runtime.list_reflect), None where the signature has no
        # list parameter and its result no list twice; and the i64 0 or 1 saying the
        # parameter being unboxed is written.
        self.memo: Value | None = None
        self.reflecting: Value = FALSE              # whether argument lists go through the memo
        self.written: Value = int_const("i64", 0)
        # (native, object, type) of the dict and set arguments a result may be, once they
        # are written back (runtime.table_reflect).
        self.table_args: list[tuple] = []

    def _continue_if(self, cond: Value, otherwise) -> None:
        """Go on in a fresh block when `cond` holds, else jump to `otherwise`."""
        cont = self.fn.append_block()
        self.b.cbranch(cond, cont, otherwise, LIKELY)
        self.b.position_at_end(cont)

    # --- Python -> native ------------------------------------------------------------------

    def emit_type_checks(self, objs: list[Value], types, mismatch, numpy=None) -> None:
        """Continue only if each of `objs` exactly matches its type in `types`; jump to
        `mismatch` otherwise. `numpy[k]` says that object k's narrow scalars match as NumPy
        scalars (the module docstring; none do when `numpy` is None). One branch tests every
        object's type; a tuple then adds one for its size and one for its items'."""
        if not objs:
            return
        numpy = numpy or [False] * len(objs)
        b = self.b
        ok = None
        for obj, t, as_numpy in zip(objs, types, numpy):
            if as_numpy and is_narrow(t):
                cls = b.load_at("ptr", obj, OB_TYPE)
                cond = None
                for name in capi.numpy_scalar_types(str(t)):
                    c = b.icmp("eq", cls, self.m.declare_data(name))
                    cond = c if cond is None else b.or_(cond, c)
            elif isinstance(t, T.NoneType):
                cond = b.icmp("eq", obj, capi.address_of(self.m, "_Py_NoneStruct"))
            elif isinstance(t, T.NamedTupleType):
                cond = list_boxing.is_named_class(self.m, b, obj, t)
            elif isinstance(t, T.ClassType):       # the fields: record_unbox_helper
                cond = self._is_class_named(obj, t.name)
            elif isinstance(t, T.EnumType):        # a member of that very class
                cond = b.icmp("sge", self._enum_index(obj, t), int_const("i64", 0))
            elif isinstance(t, T.IntFloatType):     # an int or a float, each kept as it is
                cls = b.load_at("ptr", obj, OB_TYPE)
                cond = b.or_(b.icmp("eq", cls, capi.address_of(self.m, "PyLong_Type")),
                             b.icmp("eq", cls, capi.address_of(self.m, "PyFloat_Type")))
            elif isinstance(t, T.ArrayType):     # exactly numpy.ndarray (runtime.symbols)
                cond = b.icmp("eq", b.load_at("ptr", obj, OB_TYPE),
                              self.m.declare_data("PyArray_Type"))
            else:
                cond = b.icmp("eq", b.load_at("ptr", obj, OB_TYPE),
                              capi.address_of(self.m, _TYPE_OBJECT[type(t)]))
            ok = cond if ok is None else b.and_(ok, cond)
        self._continue_if(ok, mismatch)
        for obj, t, as_numpy in zip(objs, types, numpy):
            if isinstance(t, T.TupleType) and not isinstance(t, T.IntFloatType):
                size = b.load_at("i64", obj, VAR_SIZE)
                self._continue_if(b.icmp("eq", size, int_const("i64", len(t.elems))), mismatch)
                items = [b.load_at("ptr", obj, TUPLE_ITEMS + 8 * k) for k in range(len(t.elems))]
                self.emit_type_checks(items, t.elems, mismatch, [as_numpy] * len(items))
            elif isinstance(t, T.ArrayType):
                self._check_array(obj, t, mismatch)
            elif isinstance(t, T.HashType):
                table_boxing.check_table(self, obj, t, mismatch)
            elif isinstance(t, T.IterType):             # a range: its items, as a list's
                items = self._range_items(obj)
                fits = list_boxing.emit_match(self.m, b, items, T.ListType(t.elem))
                capi.call(self.m, b, "Py_DecRef", items)
                self._continue_if(fits, mismatch)
            elif isinstance(t, T.ListType) and not isinstance(t, T.ClassType):
                self._continue_if(list_boxing.emit_match(self.m, b, obj, t), mismatch)

    @staticmethod
    def record_unbox_callee(m: NativeModule, t: T.ClassType):
        """`record_unbox_helper` (list_reflect takes Converter, not this module)."""
        return record_unbox_helper(m, t)

    def _enum_index(self, obj: Value, t: T.EnumType) -> Value:
        """``named_instance.enum_index(key, obj)``: the member's index, or -1 when `obj` is
        no member of `t`'s class (any failure: a mismatch, its exception cleared)."""
        b, m = self.b, self.m
        # (a NULL result: CPython's calls below return -1 for it and decref nothing, not crash)
        r = self._call_enum_hook("enum_index", b"sO", t, obj)
        index = capi.call(m, b, "PyLong_AsLongLong", r)
        capi.call(m, b, "Py_DecRef", r)
        capi.call(m, b, "PyErr_Clear")
        return index

    def _call_enum_hook(self, method: str, fmt: bytes, t: T.EnumType, arg: Value) -> Value:
        """``script.pyhooks.named_instance.<method>(t's class key, arg)``: a new reference, or
        NULL with an exception set (also when the hooks do not import: CPython's calls take a
        NULL and set SystemError)."""
        b, m = self.b, self.m
        hooks = capi.call(m, b, "PyImport_ImportModule", m.cstring(b"script.pyhooks.named_instance"))
        out = capi.call(m, b, "PyObject_CallMethod", hooks, m.cstring(method.encode()), m.cstring(fmt),
                        m.cstring(t.key.encode()), arg)
        capi.call(m, b, "Py_DecRef", hooks)
        return out

    def _is_class_named(self, obj: Value, name: str) -> Value:
        """Whether `obj`'s class has the name `name` (its ``tp_name``: the dispatcher typed
        the argument from the object itself)."""
        b = self.b
        strcmp = self.m.declare("strcmp", "i32", ["ptr", "ptr"], attrs=("nounwind",))
        tp_name = b.load_at("ptr", b.load_at("ptr", obj, OB_TYPE), TP_NAME)
        return b.icmp("eq", b.call(strcmp, [tp_name, self.m.cstring(name.encode())]), int_const("i32", 0))

    def _check_array(self, obj: Value, t: T.ArrayType, mismatch) -> None:
        """An ndarray (matched by type) of `t`'s rank, element type in native byte order,
        aligned, and C-contiguous for layout "C"; else `mismatch`. One branch."""
        b = self.b
        ok = b.icmp("eq", b.load_at("i32", obj, capi.NPY_ND), int_const("i32", t.ndim))
        descr = b.load_at("ptr", obj, capi.NPY_DESCR)
        type_num = b.load_at("i32", descr, capi.DESCR_TYPE_NUM)
        kind = None
        for num in capi.NPY_TYPE_NUMS[str(t.dtype)]:
            c = b.icmp("eq", type_num, int_const("i32", num))
            kind = c if kind is None else b.or_(kind, c)
        ok = b.and_(ok, kind)
        order = b.load_at("i8", descr, capi.DESCR_BYTEORDER)
        ok = b.and_(ok, b.icmp("ne", order, int_const("i8", ord(">"))))
        need = capi.NPY_ALIGNED | (capi.NPY_C_CONTIGUOUS if t.layout == "C" else 0)
        flags = b.and_(b.load_at("i32", obj, capi.NPY_FLAGS), int_const("i32", need))
        ok = b.and_(ok, b.icmp("eq", flags, int_const("i32", need)))
        self._continue_if(ok, mismatch)

    def emit_writeable_checks(self, objs: list[Value], types) -> None:
        """Raise NumPy's ValueError for a read-only array passed where the library's entry
        function writes (the bit mask ``script.written``, llvm.abi); after the type checks."""
        b = self.b
        positions = [k for k, t in enumerate(types) if has_arrays([t])]
        if not positions:
            return
        mask = b.load("i64", self.m.declare_data(WRITTEN_SYMBOL, "i64"))
        bad = None
        for k in positions:
            written = b.icmp("ne", b.and_(mask, int_const("i64", 1 << k)), int_const("i64", 0))
            for arr in self._arrays_in(objs[k], types[k]):     # a tuple's: any may be written
                flags = b.load_at("i32", arr, capi.NPY_FLAGS)
                read_only = b.icmp("eq", b.and_(flags, int_const("i32", capi.NPY_WRITEABLE)),
                                   int_const("i32", 0))
                c = b.and_(read_only, written)
                bad = c if bad is None else b.or_(bad, c)
        raise_block = self.fn.append_block("read_only")
        rb = Builder(self.fn, raise_block)
        capi.call(self.m, rb, "PyErr_SetString", capi.exception_class(self.m, rb, "ValueError"),
                  self.m.cstring(READ_ONLY_MESSAGE.encode()))
        rb.branch(self.error)
        self._continue_if(b.not_(bad), raise_block)

    def _arrays_in(self, obj: Value, t: T.Type) -> list[Value]:
        """The ndarray objects in `obj` (matched against `t`): itself, or a tuple's items."""
        if isinstance(t, T.ArrayType):
            return [obj]
        out = []
        for k, e in enumerate(t.elems):
            if has_arrays([e]):
                out += self._arrays_in(self.b.load_at("ptr", obj, TUPLE_ITEMS + 8 * k), e)
        return out

    def emit_unbox(self, obj: Value, t: T.Type, numpy: bool = False) -> Value:
        """The native value of `obj`, which `emit_type_checks` has matched against `t` (with
        the same `numpy`)."""
        b = self.b
        if numpy and is_narrow(t):          # a NumPy scalar: its value, in range by its type
            return b.load_at(llvm_type(t), obj, capi.NPY_SCALAR_VALUE)
        if isinstance(t, T.NoneType):
            return NONE_VALUE
        if isinstance(t, T.BoolType):
            return b.icmp("eq", obj, capi.address_of(self.m, "_Py_TrueStruct"))
        if isinstance(t, T.FloatType):
            v = b.load_at("double", obj, FLOAT_VALUE)
            return b.fptrunc(v, "float") if t.bits == 32 else v
        if isinstance(t, T.ComplexType):            # c64: each part rounded to float
            parts = [b.load_at("double", obj, capi.COMPLEX_VALUE + 8 * k) for k in (0, 1)]
            if t.bits == 64:
                parts = [b.fptrunc(p, "float") for p in parts]
            out = b.insert_value(undef(llvm_type(t)), parts[0], 0)
            return b.insert_value(out, parts[1], 1)
        if isinstance(t, T.IntType):
            return self._unbox_int(obj, t)
        if isinstance(t, T.IntFloatType):
            return self._unbox_int_or_float(obj, t)
        if isinstance(t, T.EnumType):
            return self._enum_index(obj, t)
        if isinstance(t, T.ArrayType):
            return self._unbox_array(obj, t)
        if isinstance(t, T.ClassType):
            assert self.memo is not None, t
            v = self.b.call(record_unbox_helper(self.m, t), [obj, self.memo, self.written])
            return self._made(v, t, raised=True)
        if isinstance(t, T.IterType):
            return self._unbox_range(obj, t)
        if isinstance(t, T.ListType):
            return self._unbox_list(obj, t)
        if isinstance(t, T.HashType):
            return table_boxing.unbox_table(self, obj, t)
        if isinstance(t, T.TextType):
            return self._unbox_str(obj, t)
        out = undef(llvm_type(t))
        for k, elem in enumerate(t.elems):
            item = b.load_at("ptr", obj, TUPLE_ITEMS + 8 * k)
            out = b.insert_value(out, self.emit_unbox(item, elem, numpy), k)
        return out

    def _unbox_int_or_float(self, obj: Value, t: T.IntFloatType) -> Value:
        """The num of an exact int or float `obj` (is-float flag, int, float: llvm.abi), which
        keeps which of the two it was; an int beyond int64 raises OverflowError."""
        b, m = self.b, self.m
        is_float = b.icmp("eq", b.load_at("ptr", obj, OB_TYPE), capi.address_of(m, "PyFloat_Type"))
        zero = b.insert_value(b.insert_value(b.insert_value(undef(llvm_type(t)), FALSE, 0),
                                             int_const("i64", 0), 1), Value("double", "0.0"), 2)
        as_float, as_int, done = (self.fn.append_block(x) for x in ("num_float", "num_int", "num_done"))
        b.cbranch(is_float, as_float, as_int)
        made = []
        for block, k, part in ((as_float, 2, T.F64), (as_int, 1, T.I64)):
            b.position_at_end(block)
            v = self.emit_unbox(obj, part)
            made.append((b.insert_value(b.insert_value(zero, TRUE if k == 2 else FALSE, 0), v, k), b.block))
            b.branch(done)
        b.position_at_end(done)
        return list_boxing.joined(b, t, made)

    def _unbox_array(self, obj: Value, t: T.ArrayType) -> Value:
        """The array struct (llvm.abi) of ndarray `obj`, borrowing its reference: the owner
        is the object's address plus 1, which marks an argument (llvm.memory)."""
        b = self.b
        out = b.insert_value(undef(llvm_type(t)), b.gep("i8", obj, int_const("i64", 1)), ARRAY_OWNER)
        out = b.insert_value(out, b.load_at("ptr", obj, capi.NPY_DATA), 1)
        dims = b.load_at("ptr", obj, capi.NPY_DIMENSIONS)
        strides = b.load_at("ptr", obj, capi.NPY_STRIDES)
        for k in range(t.ndim):
            out = b._emit(out.type, f"insertvalue {out.type} {out.ref}, "
                                    f"i64 {b.load_at('i64', dims, 8 * k).ref}, 2, {k}")
            out = b._emit(out.type, f"insertvalue {out.type} {out.ref}, "
                                    f"i64 {b.load_at('i64', strides, 8 * k).ref}, 3, {k}")
        return out

    def _range_items(self, obj: Value) -> Value:
        """A new Python list of the items of range `obj` (MemoryError to `error`)."""
        items = capi.call(self.m, self.b, "PySequence_List", obj)
        self._continue_if(self.b.icmp("ne", items, NULL), self.error)
        return items

    def _unbox_range(self, obj: Value, t: T.IterType) -> Value:
        """A new native list of the items of range `obj` (held_iterators.py: a range is the
        list of its items in compiled code)."""
        items = self._range_items(obj)
        lst = self.b.call(list_boxing.unbox_callee(self.m, T.ListType(t.elem)), [items])
        capi.call(self.m, self.b, "Py_DecRef", items)
        return self._made(lst, t)

    def _unbox_list(self, obj: Value, t: T.ListType) -> Value:
        """A new native list holding the elements of list `obj` (through the memo, when the
        signature has one); MemoryError without memory."""
        if self.memo is not None:
            return self._made(list_reflect.emit_unbox(self, obj, t, self.written), t, raised=True)
        lst = self.b.call(list_boxing.unbox_callee(self.m, t), [obj])
        return self._made(lst, t)

    def _unbox_str(self, obj: Value, t: T.TextType) -> Value:
        """A new native str (bytes) of the code points (bytes) of str (bytes) `obj`;
        MemoryError without memory."""
        from script.backend.runtime import strings
        made = strings.from_py(self.m, self.b, obj) if t == T.STR else strings.bytes_from_py(self.m, self.b, obj)
        return self._made(made, t)

    def _made(self, v: Value, t: T.Type, raised: bool = False) -> Value:
        """`v`, a new list or str (NULL: no memory, or the exception `raised` already), to be
        released after the call."""
        b = self.b
        no_memory = self.fn.append_block("no_memory")
        nb = Builder(self.fn, no_memory)
        if not raised:
            capi.call(self.m, nb, "PyErr_NoMemory")
        self._release_unboxed(nb)
        if self.memo is not None:
            list_reflect.emit_release(self.m, nb, self.memo)
        nb.branch(self.error)
        self._continue_if(b.icmp("ne", v, NULL), no_memory)
        self.unboxed.append((v, t))
        return v

    def _release_unboxed(self, b: Builder) -> None:
        for v, t in self.unboxed:
            memory.emit_rc(self.m, b, "decref", v, t)
        table_boxing.release_tables(self, b)

    def release_unboxed(self) -> None:
        """Release the lists and strs `emit_unbox` made (call right after the native call;
        the memo, which holds its own references, stays)."""
        self._release_unboxed(self.b)

    def _unbox_int(self, obj: Value, t: T.IntType) -> Value:
        """`obj` (an exact int) as `t`: inline for a one-digit value in range, through
        ``script.unbox.<t>`` otherwise."""
        b = self.b
        fast = capi.emit_small_int(b, obj)
        if fast is None:
            v = self._unbox_int_slow(obj, t)
        else:
            ok, small = fast
            if t == T.U64:          # negative values take the slow path, which raises
                ok = b.and_(ok, b.icmp("sge", small, int_const("i64", 0)))
            elif t.bits < 64:       # so do values out of range
                in_range = b.icmp("ule", b.sub(small, int_const("i64", t.min)),
                                  int_const("i64", t.max - t.min))
                ok = b.and_(ok, in_range)
            fast_end = b.block
            slow, merge = self.fn.append_block("unbox_slow"), self.fn.append_block()
            b.cbranch(ok, merge, slow, LIKELY)
            b.position_at_end(slow)
            big = self._unbox_int_slow(obj, t)
            slow_end = b.block
            b.branch(merge)
            b.position_at_end(merge)
            v = b.phi("i64")
            v.add_incoming(small, fast_end)
            v.add_incoming(big, slow_end)
        return v if t.bits == 64 else b.trunc(v, llvm_type(t))

    def _unbox_int_slow(self, obj: Value, t: T.IntType) -> Value:
        callee = self.m.declare(unbox_symbol(t), UNBOX_RESULT, ["ptr"],
                                attrs=("nounwind", "cold"))
        result = self.b.call(callee, [obj])
        self._continue_if(self.b.extract_value(result, 1, "i1"), self.error)
        return self.b.extract_value(result, 0, "i64")

    # --- native -> Python ------------------------------------------------------------------

    def emit_box(self, v: Value, t: T.Type, error) -> Value:
        """A new reference to the Python object for native `v` of type `t`, or NULL with an
        exception set when a scalar cannot be allocated (the caller's error value, ready to
        return); a tuple that cannot be completed is released and jumps to `error`."""
        b = self.b
        m = self.m
        if isinstance(t, T.NoneType):
            return capi.call(m, b, "Py_NewRef", capi.address_of(m, "_Py_NoneStruct"))
        if isinstance(t, T.BoolType):
            obj = b.select(v, capi.address_of(m, "_Py_TrueStruct"),
                           capi.address_of(m, "_Py_FalseStruct"))
            return capi.call(m, b, "Py_NewRef", obj)
        if isinstance(t, T.OptionalType):
            return self._box_optional(v, t, error)
        if isinstance(t, T.IntFloatType):
            return self._box_int_or_float(v)
        if isinstance(t, T.UnionType):
            return self._box_union(v, t, error)
        if isinstance(t, T.ExcType):
            return self._box_exception(v)
        if isinstance(t, T.NamedTupleType):
            return self._box_named(v, t, error)
        if isinstance(t, T.ClassType):
            return self._box_record(v, t, error)
        if isinstance(t, T.EnumType):
            return self._box_enum(v, t)
        if isinstance(t, T.TupleType):
            return self._box_tuple(v, t, error)
        if isinstance(t, T.ArrayType):
            return self._box_array(v, t, error)
        if isinstance(t, (T.ListType, T.TextType, T.HashType)):
            self._check_not_null(v, t, error)
        if isinstance(t, T.ListType):
            return self._box_list(v, t, error)
        if isinstance(t, T.HashType):
            if any(at == t for _, _, at in self.table_args):
                return table_reflect.box_or_argument(self, v, t, error)
            return table_reflect.box_memo(self, v, t, error)
        if isinstance(t, T.TextType):       # a new str (bytes); the native one released
            from script.backend.runtime import strings
            obj = strings.to_py(m, b, v) if t == T.STR else strings.bytes_to_py(m, b, v)
            memory.emit_rc(m, b, "decref", v, t)
            return obj
        if isinstance(t, T.FloatType):
            d = b.fpext(v, "double") if t.bits == 32 else v
            return capi.call(m, b, "PyFloat_FromDouble", d)
        if isinstance(t, T.ComplexType):
            pt = llvm_type(t.part)
            re, im = (b.extract_value(v, k, pt) for k in (0, 1))
            if t.bits == 64:
                re, im = b.fpext(re, "double"), b.fpext(im, "double")
            return capi.call(m, b, "PyComplex_FromDoubles", re, im)
        if t.signed:
            return capi.call(m, b, "PyLong_FromLongLong", b.sext(v, "i64") if t.bits < 64 else v)
        return capi.call(m, b, "PyLong_FromUnsignedLongLong",
                         b.zext(v, "i64") if t.bits < 64 else v)

    def _check_not_null(self, v: Value, t: T.Type, error) -> None:
        """ValueError, not a crash, for a NULL list or str (a dict's NULL lists): a list slot
        never written, which only IR from outside writes (script.ir.safety)."""
        b = self.b
        ptrs = [b.extract_value(v, k, "ptr") for k in (0, 1)] if isinstance(t, T.HashType) else [v]
        null = b.icmp("eq", ptrs[0], NULL)
        if len(ptrs) == 2:
            null = b.or_(null, b.icmp("eq", ptrs[1], NULL))
        raise_block = Builder(self.fn, self.fn.append_block("box_null"))
        capi.call(self.m, raise_block, "PyErr_SetString", capi.exception_class(self.m, raise_block, "ValueError"),
                  self.m.cstring(b"a list slot that was never written"))
        raise_block.branch(error)
        self._continue_if(b.not_(null), raise_block.block)

    def _box_array(self, v: Value, t: T.ArrayType, error) -> Value:
        """The ndarray of array value `v`, taking over its reference (llvm.memory): an
        argument array itself when `v` is all of it; a view of an argument, with the
        argument as its base (read-only if the argument is); or an array over a buffer made
        in compiled code, whose base is a capsule that releases the buffer; or a copy of an
        array nobody owns (a frozen global, `const_array`)."""
        b, m = self.b, self.m
        owner = b.extract_value(v, ARRAY_OWNER, "ptr")
        is_arg = b.icmp("ne", b.and_(b.ptrtoint(owner, "i64"), int_const("i64", 1)), int_const("i64", 0))
        from_arg, from_buffer, done = (self.fn.append_block(n) for n in ("from_arg", "from_buffer", "boxed"))
        owned, unowned = self.fn.append_block("owned"), self.fn.append_block("unowned")
        b.cbranch(b.icmp("eq", owner, NULL), unowned, owned)
        b.position_at_end(owned)
        b.cbranch(is_arg, from_arg, from_buffer)
        results = []

        b.position_at_end(unowned)
        results.append((self._copy_unowned(v, t, error), b.block))
        b.branch(done)

        b.position_at_end(from_arg)
        obj = b.gep("i8", owner, int_const("i64", -1))
        whole, view = self.fn.append_block("whole"), self.fn.append_block("view")
        b.cbranch(self._is_whole(v, t, obj), whole, view)
        b.position_at_end(whole)
        results.append((capi.call(m, b, "Py_NewRef", obj), b.block))
        b.branch(done)
        b.position_at_end(view)
        base = capi.call(m, b, "Py_NewRef", obj)
        flags = b.and_(b.load_at("i32", obj, capi.NPY_FLAGS), int_const("i32", capi.NPY_WRITEABLE))
        results.append((self._new_ndarray(v, t, base, flags, error), b.block))
        b.branch(done)

        b.position_at_end(from_buffer)
        capsule = capi.call(m, b, "PyCapsule_New", owner, NULL, release_buffer(m).pointer)
        no_capsule = self.fn.append_block("no_capsule")
        nb = Builder(self.fn, no_capsule)
        memory.emit_rc(m, nb, "decref", v, t)
        nb.branch(error)
        self._continue_if(b.icmp("ne", capsule, NULL), no_capsule)
        results.append((self._new_ndarray(v, t, capsule, int_const("i32", capi.NPY_WRITEABLE), error),
                        b.block))
        b.branch(done)

        b.position_at_end(done)
        out = b.phi("ptr")
        for r, block in results:
            out.add_incoming(r, block)
        return out

    def _copy_unowned(self, v: Value, t: T.ArrayType, error) -> Value:
        """A new ndarray holding a copy of the elements of `v`, whose memory nobody owns (it
        may be read-only constant data: the copy is what Python gets)."""
        b, m = self.b, self.m
        view = self._ndarray_over(v, t, int_const("i32", 0))
        self._continue_if(b.icmp("ne", view, NULL), error)
        copy = capi.call_numpy(m, b, "script.np.NewCopy", view, int_const("i32", 0))    # NPY_CORDER
        capi.call(m, b, "Py_DecRef", view)
        self._continue_if(b.icmp("ne", copy, NULL), error)
        return copy

    def _is_whole(self, v: Value, t: T.ArrayType, obj: Value) -> Value:
        """Whether array value `v` is all of ndarray `obj`: same data, rank, shape, strides,
        and element type (`a.real` of a complex array starts where the array does)."""
        b = self.b
        same = b.icmp("eq", b.extract_value(v, ARRAY_DATA, "ptr"), b.load_at("ptr", obj, capi.NPY_DATA))
        if isinstance(t.dtype, (T.FloatType, T.ComplexType)):
            type_num = b.load_at("i32", b.load_at("ptr", obj, capi.NPY_DESCR), capi.DESCR_TYPE_NUM)
            same = b.and_(same, b.icmp("eq", type_num, int_const("i32", capi.NPY_TYPE_NUMS[str(t.dtype)][0])))
        same = b.and_(same, b.icmp("eq", b.load_at("i32", obj, capi.NPY_ND), int_const("i32", t.ndim)))
        dims = b.load_at("ptr", obj, capi.NPY_DIMENSIONS)
        strides = b.load_at("ptr", obj, capi.NPY_STRIDES)
        for k in range(t.ndim):
            d = b._emit("i64", f"extractvalue {v.type} {v.ref}, {ARRAY_SHAPE}, {k}")
            st = b._emit("i64", f"extractvalue {v.type} {v.ref}, {ARRAY_STRIDES}, {k}")
            same = b.and_(same, b.icmp("eq", d, b.load_at("i64", dims, 8 * k)))
            same = b.and_(same, b.icmp("eq", st, b.load_at("i64", strides, 8 * k)))
        return same

    def _ndarray_over(self, v: Value, t: T.ArrayType, flags: Value) -> Value:
        """A new ndarray (no base) over the elements of `v`, or NULL with an exception set."""
        b, m = self.b, self.m
        shape, strides = b.alloca(f"[{max(t.ndim, 1)} x i64]"), b.alloca(f"[{max(t.ndim, 1)} x i64]")
        for k in range(t.ndim):
            b.store_at(b._emit("i64", f"extractvalue {v.type} {v.ref}, {ARRAY_SHAPE}, {k}"), shape, 8 * k)
            b.store_at(b._emit("i64", f"extractvalue {v.type} {v.ref}, {ARRAY_STRIDES}, {k}"), strides, 8 * k)
        descr = capi.call_numpy(m, b, "script.np.DescrFromType",
                                int_const("i32", capi.NPY_TYPE_NUMS[str(t.dtype)][0]))
        return capi.call_numpy(m, b, "script.np.NewFromDescr", m.declare_data("PyArray_Type"), descr,
                               int_const("i32", t.ndim), shape, strides,
                               b.extract_value(v, ARRAY_DATA, "ptr"), flags, NULL)

    def _new_ndarray(self, v: Value, t: T.ArrayType, base: Value, flags: Value, error) -> Value:
        """A new ndarray over `v`'s elements whose base object is `base` (a reference this
        takes over, released when the array cannot be made)."""
        b, m = self.b, self.m
        arr = self._ndarray_over(v, t, flags)
        failed = self.fn.append_block("no_array")
        fb = Builder(self.fn, failed)
        capi.call(m, fb, "Py_DecRef", base)
        fb.branch(error)
        self._continue_if(b.icmp("ne", arr, NULL), failed)
        no_base = self.fn.append_block("no_base")        # SetBaseObject released `base`
        nb = Builder(self.fn, no_base)
        capi.call(m, nb, "Py_DecRef", arr)
        nb.branch(error)
        ok = capi.call_numpy(m, b, "script.np.SetBaseObject", arr, base)
        self._continue_if(b.icmp("eq", ok, int_const("i32", 0)), no_base)
        return arr

    def _box_list(self, v: Value, t: T.ListType, error) -> Value:
        """A new Python list (a tuple for a `VarTupleType`) of the boxed elements of native
        list `v`, whose reference this takes over (released whether boxing succeeds or not).
        With a memo, an argument's native list is the caller's list object itself, at any
        depth (runtime.list_reflect)."""
        b, m = self.b, self.m
        failed = self.fn.append_block("list_failed")
        fb = Builder(self.fn, failed)
        memory.emit_rc(m, fb, "decref", v, t)
        fb.branch(error)
        if self.memo is not None:
            out = b.call(list_reflect.box_mapped(m, t, Converter), [v, self.memo])
            self._continue_if(b.icmp("ne", out, NULL), failed)
        else:
            out = self.box_list_items(v, t, failed)
        memory.emit_rc(m, b, "decref", v, t)
        return out

    def box_list_items(self, v: Value, t: T.ListType, failed) -> Value:
        """A new Python list (tuple) of the boxed elements of native list `v` (borrowed);
        jumps to `failed` with an exception set when memory runs out."""
        b, m = self.b, self.m
        n = lists.length(b, v)
        is_tuple = isinstance(t, T.VarTupleType)        # (a zip(*rows) column, tuple(xs))
        out = capi.call(m, b, "PyTuple_New" if is_tuple else "PyList_New", n)
        self._continue_if(b.icmp("ne", out, NULL), failed)
        release = self.fn.append_block("release_list")
        rb = Builder(self.fn, release)
        capi.call(m, rb, "Py_DecRef", out)
        rb.branch(failed)
        items = b.offset(out, TUPLE_ITEMS) if is_tuple else b.load_at("ptr", out, LIST_ITEMS)
        head, body, done = (self.fn.append_block(x) for x in ("box_head", "box_item", "boxed_list"))
        entry = b.block
        b.branch(head)
        b.position_at_end(head)
        i = b.phi("i64")
        i.add_incoming(int_const("i64", 0), entry)
        b.cbranch(b.icmp("slt", i, n), body, done)
        b.position_at_end(body)
        item = lists.get(b, t, v, i)
        if memory.managed(t.elem):          # boxing takes over a reference; the list keeps its own
            memory.emit_rc(m, b, "incref", item, t.elem)
        item = self.emit_box(item, t.elem, release)
        self._continue_if(b.icmp("ne", item, NULL), release)
        b.store(item, b.gep("ptr", items, i))
        nxt = b.add(i, int_const("i64", 1))
        i.add_incoming(nxt, b.block)
        b.branch(head)
        b.position_at_end(done)
        return out

    def _box_optional(self, v: Value, t: T.OptionalType, error) -> Value:
        """None, or the object of the value, for optional `v` (the tuple (present, value))."""
        b = self.b
        some, none, done = (self.fn.append_block(h) for h in ("opt_some", "opt_none", "opt_done"))
        b.cbranch(b.extract_value(v, 0, llvm_type(T.BOOL)), some, none)
        b.position_at_end(none)
        if memory.managed(t.value):         # boxing takes over the placeholder's reference too
            memory.emit_rc(self.m, b, "decref", b.extract_value(v, 1, llvm_type(t.value)), t.value)
        none_obj = capi.call(self.m, b, "Py_NewRef", capi.address_of(self.m, "_Py_NoneStruct"))
        none = b.block
        b.branch(done)
        b.position_at_end(some)
        obj = self.emit_box(b.extract_value(v, 1, llvm_type(t.value)), t.value, error)
        end = b.block
        b.branch(done)
        b.position_at_end(done)
        phi = b.phi("ptr")
        phi.add_incoming(obj, end)
        phi.add_incoming(none_obj, none)
        return phi

    def _box_union(self, v: Value, t: T.UnionType, error) -> Value:
        """The object of the alternative union `v` (the tuple (tag, a, b, ...)) holds; the
        other alternatives' placeholders released (frontend/union_returns.py)."""
        b = self.b
        tag = b.extract_value(v, 0, llvm_type(T.I64))
        done = self.fn.append_block("union_done")
        made = []
        for k, alt in enumerate(t.alternatives):
            block = self.fn.append_block(f"union_{k}")
            if k + 1 < len(t.alternatives):
                other = self.fn.append_block(f"union_not_{k}")
                b.cbranch(b.icmp("eq", tag, int_const("i64", k)), block, other)
            else:
                b.branch(block)
            b.position_at_end(block)
            for j, placeholder in enumerate(t.alternatives):
                if j != k and memory.managed(placeholder) and not isinstance(placeholder, T.ExcType):
                    memory.emit_rc(self.m, b, "decref", b.extract_value(v, j + 1, llvm_type(placeholder)), placeholder)
            obj = self.emit_box(b.extract_value(v, k + 1, llvm_type(alt)), alt, error)
            made.append((obj, b.block))
            b.branch(done)
            if k + 1 < len(t.alternatives):
                b.position_at_end(other)
        b.position_at_end(done)
        phi = b.phi("ptr")
        for obj, block in made:
            phi.add_incoming(obj, block)
        return phi

    def _box_exception(self, v: Value) -> Value:
        """The Python exception object of exception value `v` (`return ValueError("...")`):
        raised as a compiled raise is (the runtime's ``script.raise``, which takes over the
        references the record holds), then taken back from CPython's error indicator,
        normalized, so its arguments are the raise's (``ValueError('...')``)."""
        b, m = self.b, self.m
        env = b.entry_alloca(ENV)
        b.store(Value(ENV, "zeroinitializer"), env)
        b.store(v, env)                 # (an exc is the Env's first four fields: llvm.caught)
        b.call(m.declare(RAISE_SYMBOL, "ptr", ["ptr"], attrs=("nounwind", "cold")), [env])
        parts = [b.entry_alloca("ptr") for _ in range(3)]
        capi.call(m, b, "PyErr_Fetch", *parts)
        capi.call(m, b, "PyErr_NormalizeException", *parts)
        cls, obj, tb = (b.load("ptr", p) for p in parts)
        capi.call(m, b, "Py_DecRef", cls)
        capi.call(m, b, "Py_DecRef", tb)        # (NULL: none; Py_DecRef takes NULL)
        return obj

    def _box_int_or_float(self, v: Value) -> Value:
        """An int or a float, as int|float `v` (the tuple (is_float, int, float)) holds."""
        b = self.b
        is_float = b.extract_value(v, 0, llvm_type(T.BOOL))
        as_float, as_int, done = (self.fn.append_block(h) for h in ("num_float", "num_int", "num_done"))
        b.cbranch(is_float, as_float, as_int)
        made = []
        for block, k, t in ((as_float, 2, T.F64), (as_int, 1, T.I64)):
            b.position_at_end(block)
            made.append((self.emit_box(b.extract_value(v, k, llvm_type(t)), t, None), b.block))
            b.branch(done)
        b.position_at_end(done)
        phi = b.phi("ptr")
        for obj, block in made:
            phi.add_incoming(obj, block)
        return phi

    def _box_named(self, v: Value, t: T.NamedTupleType, error) -> Value:
        """The instance of the user's class: the tuple, then ``script.pyhooks.named_instance.instance``."""
        b, m = self.b, self.m
        tup = self._box_tuple(v, t, error)
        module = capi.call(m, b, "PyImport_ImportModule", m.cstring(b"script.pyhooks.named_instance"))
        release = self.fn.append_block("release_named")
        rb = Builder(self.fn, release)
        capi.call(m, rb, "Py_DecRef", tup)
        rb.branch(error)
        self._continue_if(b.icmp("ne", module, NULL), release)
        obj = capi.call(m, b, "PyObject_CallMethod", module, m.cstring(b"instance"), m.cstring(b"sO"),
                        m.cstring(t.key.encode()), tup)
        capi.call(m, b, "Py_DecRef", module)
        capi.call(m, b, "Py_DecRef", tup)
        return obj

    def _box_enum(self, v: Value, t: T.EnumType) -> Value:
        """The member itself: ``named_instance.enum_member(key, index)`` (NULL with the
        exception set when the class no longer imports)."""
        return self._call_enum_hook("enum_member", b"sL", t, v)

    def _box_record(self, v: Value, t: T.ClassType, error) -> Value:
        """The instance of the user's class for record `v`, whose reference this takes over:
        one Python object per record however often the result holds it (through the call's
        memo, which every result holding records has: list_reflect.shares_lists)."""
        b, m = self.b, self.m
        assert self.memo is not None, t
        out = b.call(record_box_helper(m, t), [v, self.memo])
        failed = self.fn.append_block("record_failed")
        fb = Builder(self.fn, failed)
        memory.emit_rc(m, fb, "decref", v, t)
        fb.branch(error)
        self._continue_if(b.icmp("ne", out, NULL), failed)
        memory.emit_rc(m, b, "decref", v, t)
        return out

    def _box_tuple(self, v: Value, t: T.TupleType, error) -> Value:
        b = self.b
        tup = capi.call(self.m, b, "PyTuple_New", int_const("i64", len(t.elems)))
        self._continue_if(b.icmp("ne", tup, NULL), error)
        release = self.fn.append_block("release")
        rb = Builder(self.fn, release)
        capi.call(self.m, rb, "Py_DecRef", tup)
        rb.branch(error)
        for k, elem in enumerate(t.elems):
            item = self.emit_box(b.extract_value(v, k, llvm_type(elem)), elem, release)
            self._continue_if(b.icmp("ne", item, NULL), release)
            capi.call(self.m, b, "PyTuple_SetItem", tup, int_const("i64", k), item)
        return tup


class _FieldConverter(Converter):
    """A Converter inside a record's helper: what it unboxes belongs to the record (not
    released after the call), and a failure returns NULL from the helper."""

    def _made(self, v: Value, t: T.Type, raised: bool = False) -> Value:
        if not raised:
            no_memory = self.fn.append_block("no_memory")
            nb = Builder(self.fn, no_memory)
            capi.call(self.m, nb, "PyErr_NoMemory")
            nb.branch(self.error)
            self._continue_if(self.b.icmp("ne", v, NULL), no_memory)
        else:
            self._continue_if(self.b.icmp("ne", v, NULL), self.error)
        return v

    def unbox_field(self, obj: Value, t: T.Type, name: str, cls: str) -> Value:
        """The native value of field `name` of a `cls` instance, `obj` (borrowed), checked
        against `t` (TypeError: the object changed since the dispatcher typed it)."""
        b, m = self.b, self.m
        if isinstance(t, T.OptionalType):
            none = b.icmp("eq", obj, capi.address_of(m, "_Py_NoneStruct"))
            some, absent, done = (self.fn.append_block(x) for x in ("field_some", "field_none", "field_done"))
            b.cbranch(none, absent, some)
            b.position_at_end(some)
            value = self.unbox_field(obj, t.value, name, cls)
            out = b.insert_value(b.insert_value(undef(llvm_type(t)), TRUE, 0), value, 1)
            some_end = b.block
            b.branch(done)
            b.position_at_end(absent)
            empty = b.insert_value(b.insert_value(undef(llvm_type(t)), FALSE, 0), _zero(t.value), 1)
            b.branch(done)
            b.position_at_end(done)
            phi = b.phi(llvm_type(t))
            phi.add_incoming(out, some_end)
            phi.add_incoming(empty, absent)
            return phi
        mismatch = self._field_mismatch(t, name, cls)
        if T.is_scalar_union(t):        # (bools, ints, floats, strs, None: instance_args `_meet`)
            return list_boxing.unbox_union(m, b, obj, t, lambda a: self.unbox_field(obj, a, name, cls), mismatch)
        self.emit_type_checks([obj], [t], mismatch)
        if isinstance(t, T.HashType):       # the caller's dict or set, one table however often met
            return table_reflect.unbox_field(self, obj, t, self.written)
        if isinstance(t, T.ArrayType):      # the memo holds the caller's array for the call
            self._hold(obj)
        return self.emit_unbox(obj, t)

    def _hold(self, obj: Value) -> None:
        """Hold a reference to `obj` (an ndarray a record borrows) until the call's memo is
        released: written back, the instance may drop its array, which the result may still
        hold (`old = g.arr; g.arr = new; return old`)."""
        b, m = self.b, self.m
        lt = T.ListType(T.I64)
        empty = self._made(lists.new(m, b), lt)        # (a record's native side: nothing to write back)
        ok = b.call(list_memo.add(m), [self.memo, obj, empty, NULL, list_reflect.release_helper(m, lt).pointer,
                                       int_const("i64", 0)])
        memory.emit_rc(m, b, "decref", empty, lt)       # (the memo's now)
        self._continue_if(ok, self.error)

    def _field_mismatch(self, t: T.Type, name: str, cls: str):
        """A block raising the TypeError of field `name` of a `cls` instance that is not of
        type `t` (the object changed since the dispatcher typed it)."""
        mismatch = self.fn.append_block("field_mismatch")
        mb = Builder(self.fn, mismatch)
        capi.call(self.m, mb, "PyErr_SetString", capi.exception_class(self.m, mb, "TypeError"), self.m.cstring(
            f"field '{name}' of a {cls} instance is not of type {t} (it changed since the call "
            f"was typed)".encode()))
        mb.branch(self.error)
        return mismatch


def _zero(t: T.Type) -> Value:
    """A placeholder value of type `t` (an absent optional's)."""
    lt = llvm_type(t)
    if lt == "ptr":
        return NULL
    if lt in ("double", "float"):
        return Value(lt, "0.0")
    return Value(lt, "0" if lt.startswith("i") and lt[1:].isdigit() else "zeroinitializer")


def _stack_guard(m: NativeModule, fn, b: Builder, memo: Value, doing: str) -> None:
    """Go on when this frame is above the memo's stack limit, else return NULL from `fn`
    with a RecursionError: records are converted by recursion over their fields, and a
    chain of a million nodes would overflow the native stack."""
    deep, go = fn.append_block("too_deep"), fn.append_block("deep_enough")
    here = b.ptrtoint(b.call(m.intrinsic("llvm.stacksave.p0", "ptr", []), []), "i64")
    b.cbranch(b.icmp("ult", here, b.load_at("i64", memo, list_memo.MEMO_STACK)), deep, go)
    db = Builder(fn, deep)
    capi.call(m, db, "PyErr_SetString", capi.exception_class(m, db, "RecursionError"), m.cstring(
        f"maximum recursion depth exceeded while {doing} (a chain of them too long to convert)".encode()))
    db.ret(NULL)
    b.position_at_end(go)


def record_unbox_helper(m: NativeModule, t: T.ClassType):
    """``List *script.record.unbox.<t>(PyObject *py, Memo *memo, i64 written)``: the native
    record of instance `py` (a new reference): the memo's, where the call met `py` already
    (its `written` or-ed in), else a new one, recorded before its fields are read, so that
    instances that reach each other are copied once (frontend/instance_args.py); its fields
    are read with ``getattr`` and checked. NULL with an exception set."""
    name = f"script.record.unbox.{t}"
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn = m.helpers[name] = m.new_function(name, "ptr", ["ptr", "ptr", "i64"], linkage="internal",
                                          attrs=list_memo.HELPER_ATTRS)
    py, memo, written = fn.args
    b = Builder(fn, fn.append_block("entry"))
    failed, found, fresh = (fn.append_block(x) for x in ("failed", "found", "fresh"))
    Builder(fn, failed).ret(NULL)
    _stack_guard(m, fn, b, memo, f"copying instances of '{t.name}' from Python")
    rec = b.call(list_memo.find(m), [memo, py])
    b.cbranch(b.icmp("ne", rec, NULL), found, fresh)
    b.position_at_end(found)
    b.store_at(b.or_(b.load_at("i64", rec, list_memo.REC_WRITTEN), written), rec, list_memo.REC_WRITTEN)
    native = b.load_at("ptr", rec, list_memo.REC_NATIVE)
    memory.emit_rc(m, b, "incref", native, t)
    b.ret(native)
    b.position_at_end(fresh)
    native = lists.new(m, b)
    no_memory = fn.append_block("no_memory")
    nb = Builder(fn, no_memory)
    capi.call(m, nb, "PyErr_NoMemory")
    nb.ret(NULL)
    release = fn.append_block("release")
    rb = Builder(fn, release)
    memory.emit_rc(m, rb, "decref", native, t)
    rb.ret(NULL)
    conv = _FieldConverter(m, fn, b, release)
    conv.memo, conv.reflecting, conv.written = memo, TRUE, written
    conv._continue_if(b.icmp("ne", native, NULL), no_memory)
    ok = b.call(list_memo.add(m), [memo, py, native, record_reflect_helper(m, t).pointer,
                                   list_reflect.release_helper(m, t).pointer, written])
    conv._continue_if(ok, release)
    values = []
    for name_, ft in zip(t.fields, t.elem.elems):
        attr = capi.call(m, b, "PyObject_GetAttrString", py, m.cstring(name_.encode()))
        conv._continue_if(b.icmp("ne", attr, NULL), release)
        drop = fn.append_block("drop_attr")
        db = Builder(fn, drop)
        capi.call(m, db, "Py_DecRef", attr)
        db.branch(release)
        conv.error = drop
        values.append(conv.unbox_field(attr, ft, name_, t.name))
        capi.call(m, b, "Py_DecRef", attr)      # (the instance holds it for the call)
        conv.error = release
    fields = undef(llvm_type(t.elem))
    for k, v in enumerate(values):
        fields = b.insert_value(fields, v, k)
    conv._continue_if(memory.resize_list(m, b, t, native, int_const("i64", 1)), no_memory)
    lists.set_item(b, t, native, fields, int_const("i64", 0))
    b.ret(native)
    return fn


def record_reflect_helper(m: NativeModule, t: T.ClassType):
    """``i1 script.record.reflect.<t>(PyObject *py, List *native, Memo *memo)``: instance
    `py` takes the fields of its record, boxed through the memo (instances and lists that
    came from Python are those objects), with ``named_instance.reflect_record``, which
    keeps a field's object where it already holds the value; false with an exception set."""
    name = f"script.record.reflect.{t}"
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn = m.helpers[name] = m.new_function(name, "i1", ["ptr", "ptr", "ptr"], linkage="internal",
                                          attrs=list_memo.HELPER_ATTRS)
    py, native, memo = fn.args
    b = Builder(fn, fn.append_block("entry"))
    failed, filled = fn.append_block("failed"), fn.append_block("filled")
    Builder(fn, failed).ret(FALSE)
    ok = Builder(fn, fn.append_block("unfilled"))
    ok.ret(TRUE)                # (a record whose copy-in failed holds no fields yet)
    b.cbranch(b.icmp("ne", lists.length(b, native), int_const("i64", 0)), filled, ok.block)
    b.position_at_end(filled)
    conv = Converter(m, fn, b, failed)
    conv.memo = memo
    hooks, drop_hooks = _import_hooks(conv)
    _call_with_fields(conv, hooks, "reflect_record", py, t, native, drop_hooks)
    capi.call(m, b, "Py_DecRef", hooks)
    b.ret(TRUE)
    return fn


def _import_hooks(conv: Converter) -> tuple[Value, object]:
    """``script.pyhooks.named_instance`` (a new reference; `conv.error` when it fails to
    import), and a block that releases it and goes to `conv.error`."""
    b, m, fn = conv.b, conv.m, conv.fn
    hooks = capi.call(m, b, "PyImport_ImportModule", m.cstring(b"script.pyhooks.named_instance"))
    conv._continue_if(b.icmp("ne", hooks, NULL), conv.error)
    drop_hooks = fn.append_block("drop_hooks")
    hb = Builder(fn, drop_hooks)
    capi.call(m, hb, "Py_DecRef", hooks)
    hb.branch(conv.error)
    return hooks, drop_hooks


def _call_with_fields(conv: Converter, hooks: Value, method: str, obj: Value, t: T.ClassType, native: Value,
                      fail) -> None:
    """``hooks.<method>(obj, "f1,f2,...", (the boxed fields of record native))``; to `fail`
    with an exception set when it raises."""
    b, m = conv.b, conv.m
    fields = lists.get(b, t, native, int_const("i64", 0))
    if memory.managed(t.elem):          # boxing takes over a reference; the record keeps its own
        memory.emit_rc(m, b, "incref", fields, t.elem)
    values = conv.emit_box(fields, T.TupleType(t.elem.elems), fail)
    conv._continue_if(b.icmp("ne", values, NULL), fail)
    done = capi.call(m, b, "PyObject_CallMethod", hooks, m.cstring(method.encode()), m.cstring(b"OsO"),
                     obj, m.cstring(",".join(t.fields).encode()), values)
    capi.call(m, b, "Py_DecRef", values)
    conv._continue_if(b.icmp("ne", done, NULL), fail)
    capi.call(m, b, "Py_DecRef", done)


def record_box_helper(m: NativeModule, t: T.ClassType):
    """``PyObject *script.record.box.<t>(List *native, Memo *memo)``: the Python instance of
    record `native` (borrowed): the memo's, where this call boxed it already, else a new one
    (``script.pyhooks.named_instance.new_record``: the class's ``__new__``, no ``__init__``,
    which compiled code ran), recorded before its fields are boxed, so that a record that
    reaches itself (a doubly linked list, a parent link) is one object, then given its
    fields with ``object.__setattr__`` (`fill_record`), as ``__init__`` left them. NULL with
    an exception set."""
    name = f"script.record.box.{t}"
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn = m.helpers[name] = m.new_function(name, "ptr", ["ptr", "ptr"], linkage="internal",
                                          attrs=list_memo.HELPER_ATTRS)
    native, memo = fn.args
    b = Builder(fn, fn.append_block("entry"))
    failed, found, fresh = (fn.append_block(x) for x in ("failed", "found", "fresh"))
    Builder(fn, failed).ret(NULL)
    _stack_guard(m, fn, b, memo, f"returning instances of '{t.name}' to Python")
    rec = b.call(list_memo.find(m), [memo, b.gep("i8", native, int_const("i64", 1))])
    b.cbranch(b.icmp("ne", rec, NULL), found, fresh)
    b.position_at_end(found)
    b.ret(capi.call(m, b, "Py_NewRef", b.load_at("ptr", rec, list_memo.REC_PY)))
    b.position_at_end(fresh)
    conv = Converter(m, fn, b, failed)
    conv.memo = memo
    hooks, drop_hooks = _import_hooks(conv)
    obj = capi.call(m, b, "PyObject_CallMethod", hooks, m.cstring(b"new_record"), m.cstring(b"s"),
                    m.cstring(t.key.encode()))
    conv._continue_if(b.icmp("ne", obj, NULL), drop_hooks)
    drop = fn.append_block("drop_instance")
    db = Builder(fn, drop)
    capi.call(m, db, "Py_DecRef", obj)
    db.branch(drop_hooks)
    ok = b.call(list_memo.add(m), [memo, obj, native, NULL, list_reflect.release_helper(m, t).pointer,
                                   int_const("i64", 0)])
    conv._continue_if(ok, drop)
    _call_with_fields(conv, hooks, "fill_record", obj, t, native, drop)
    capi.call(m, b, "Py_DecRef", hooks)
    b.ret(obj)
    return fn


RELEASE_BUFFER = "script.release_buffer"


def release_buffer(m: NativeModule):
    """``void script.release_buffer(PyObject *capsule)``, the runtime library's destructor
    of the capsule that is the base of an ndarray over a buffer made in compiled code (it
    holds one reference). It lives in the runtime library, which lives as long as the
    process: an array may outlive the library of the function that returned it."""
    return m.declare(RELEASE_BUFFER, "void", ["ptr"], attrs=("nounwind",))


def _build_release_buffer(m: NativeModule) -> str:
    fn = m.new_function(RELEASE_BUFFER, "void", ["ptr"], linkage="external")
    b = Builder(fn, fn.append_block("entry"))
    owner = capi.call(m, b, "PyCapsule_GetPointer", fn.args[0], NULL)
    b.call(memory.helper(m, memory.DECREF), [owner])
    b.ret_void()
    return fn.name


# --- the runtime library's conversions -----------------------------------------------------

def build_runtime(m: NativeModule) -> list[str]:
    """Define ``script.release_buffer`` and ``script.unbox.<t>`` for every int type `t` in `m`
    (the runtime library); returns their names.

        {i64, i1} script.unbox.<t>(PyObject *obj)    // obj: an exact int

    The value as i64 (zero-extended for u64) and true, or false with CPython's
    OverflowError set."""
    names = [_build_release_buffer(m)] + list_boxing.build_runtime(m) + list_reflect.build_runtime(m, Converter)
    for t in INT_TYPES:
        fn = m.new_function(unbox_symbol(t), UNBOX_RESULT, ["ptr"], linkage="external")
        _build_unbox(m, fn, t)
        names.append(fn.name)
    return names


def _build_unbox(m: NativeModule, fn: Function, t: T.IntType) -> None:
    obj, = fn.args
    b = Builder(fn, fn.append_block("entry"))
    fail = fn.append_block("fail")
    Builder(fn, fail).ret(undef(UNBOX_RESULT))
    conv = Converter(m, fn, b, fail)
    if t == T.U64:
        v = capi.call(m, b, "PyLong_AsUnsignedLongLong", obj)
        maybe_error, done = fn.append_block("maybe_error"), fn.append_block("done")
        b.cbranch(b.icmp("eq", v, int_const("i64", -1)), maybe_error, done)
        b.position_at_end(maybe_error)
        conv._continue_if(b.icmp("eq", capi.call(m, b, "PyErr_Occurred"), NULL), fail)
        b.branch(done)
        b.position_at_end(done)
    else:
        overflow = b.alloca("i32")
        v = capi.call(m, b, "PyLong_AsLongLongAndOverflow", obj, overflow)
        fits = b.icmp("eq", b.load("i32", overflow), int_const("i32", 0))
        message = ("Python int too large to convert to C long" if t == T.I64
                   else f"Python int too large to convert to {t}")
        conv._continue_if(fits, _raise_overflow(m, fn, fail, message))
        if t.bits < 64:
            too_big = b.icmp("sgt", v, int_const("i64", t.max))
            conv._continue_if(b.not_(too_big), _raise_overflow(m, fn, fail, message))
            low = (f"Python int too small to convert to {t}" if t.signed
                   else f"can't convert negative int to {t}")
            too_small = b.icmp("slt", v, int_const("i64", t.min))
            conv._continue_if(b.not_(too_small), _raise_overflow(m, fn, fail, low))
    b.ret(b.insert_value(b.insert_value(undef(UNBOX_RESULT), v, 0), TRUE, 1))


def _raise_overflow(m: NativeModule, fn: Function, fail, message: str):
    """A block that sets ``OverflowError(message)`` and goes to `fail`."""
    b = Builder(fn, fn.append_block("overflow"))
    capi.call(m, b, "PyErr_SetString", capi.exception_class(m, b, "OverflowError"),
              m.cstring(message.encode()))
    b.branch(fail)
    return b.block
