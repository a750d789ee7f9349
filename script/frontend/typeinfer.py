"""Types from the Python side: annotations, runtime values, and operator result types.

Annotations use Python's spellings (`int`, `float`, `bool`, `None`, `tuple[int, float]`,
`typing.Tuple[...]`), the sized types `script.i32`, `script.f32`, … and NumPy scalar types
(`numpy.float32`). A runtime value's type (`typeof`) is what an unannotated parameter is
specialized on.
"""

from __future__ import annotations

import collections
import enum

from script.frontend import enum_values
from script.pyhooks.named_instance import is_named_tuple_class, lookup_class
from script.ir import types as T


class SizedType:
    """A user-facing handle on a scalar IR type: `script.i32`, `script.f64`, …"""

    __slots__ = ("ir_type",)

    def __init__(self, ir_type: T.Type):
        self.ir_type = ir_type

    def __repr__(self):
        return f"script.{self.ir_type}"

    def __call__(self, value):
        """`script.i32(x)` converts in compiled code; in Python it gives the NumPy scalar."""
        import numpy as np
        return np.dtype(numpy_name(self.ir_type)).type(value)

    def __getitem__(self, dims) -> "ArraySpec":
        """`script.f64[:]`, `script.f64[:, :]` (any layout), `script.f64[:, ::1]` (C order)."""
        dims = dims if isinstance(dims, tuple) else (dims,)
        ok = all(isinstance(d, slice) and d.start is None and d.stop is None for d in dims)
        steps = [d.step for d in dims] if ok else []
        if not ok or any(st not in (None, 1) for st in steps) or any(st == 1 for st in steps[:-1]):
            raise TypeError(f"{self!r}[...] takes ':' per axis, the last optionally '::1'")
        return ArraySpec(T.ArrayType(self.ir_type, len(dims), "C" if steps[-1] == 1 else "A"))


class ArraySpec:
    """An array annotation, `script.f64[:, :]`."""

    __slots__ = ("ir_type",)

    def __init__(self, ir_type: T.ArrayType):
        self.ir_type = ir_type

    def __repr__(self):
        return f"script.{self.ir_type}"


def numpy_name(t: T.Type) -> str:
    if isinstance(t, T.BoolType):
        return "bool"
    if isinstance(t, T.IntType):
        return f"{'int' if t.signed else 'uint'}{t.bits}"
    if isinstance(t, T.FloatType):
        return f"float{t.bits}"
    if isinstance(t, T.ComplexType):
        return f"complex{t.bits}"
    raise TypeError(f"{t} has no NumPy dtype")


def _numpy_scalar_type(obj) -> T.Type | None:
    """The IR type of a NumPy scalar class or dtype (without importing NumPy if unused)."""
    import sys
    np = sys.modules.get("numpy")
    if np is None:
        return None
    try:
        dt = np.dtype(obj)
    except (TypeError, ValueError):     # not a dtype: `NDArray[np.float64]` (an array) too
        return None
    if obj is float or obj is int or obj is bool or obj is complex:
        return None
    return T.parse_scalar({"b": "bool"}.get(dt.kind, "") or _dtype_to_name(dt))


def _dtype_to_name(dt) -> str:
    if dt.kind == "i":
        return f"i{dt.itemsize * 8}"
    if dt.kind == "u":
        return f"u{dt.itemsize * 8}"
    if dt.kind == "f" and dt.itemsize in (4, 8):
        return f"f{dt.itemsize * 8}"
    if dt.kind == "c" and dt.itemsize in (8, 16):
        return f"c{dt.itemsize * 8}"
    return ""


def dtype_to_type(dt) -> T.Type | None:
    """The IR element type of NumPy dtype `dt`, or None when compiled code has none."""
    if dt.kind == "b":
        return T.BOOL
    name = _dtype_to_name(dt) if dt.isnative else ""
    return T.parse_scalar(name) if name else None


def type_from_annotation(ann) -> T.Type | None:
    """The IR type an evaluated annotation stands for, or None if it names none."""
    if ann is int:
        return T.I64
    if ann is float:
        return T.F64
    if ann is bool:
        return T.BOOL
    if ann is str:
        return T.STR
    if ann is bytes:
        return T.BYTES
    if ann is complex:
        return T.C128
    if ann is None or ann is type(None):
        return T.NONE
    if isinstance(ann, (SizedType, ArraySpec)):
        return ann.ir_type
    import typing
    origin = _container_origin(typing.get_origin(ann))
    if origin is list:
        args = typing.get_args(ann)
        elem = type_from_annotation(args[0]) if len(args) == 1 else None
        return T.ListType(elem) if elem is not None and T.is_list_element(elem) else None
    if origin is _COUNTER:
        args = [type_from_annotation(a) for a in typing.get_args(ann)]
        return T.DictType(args[0], T.I64) if len(args) == 1 and args[0] is not None and T.is_key_type(args[0]) \
            else None
    if origin in (dict, set):
        args = [type_from_annotation(a) for a in typing.get_args(ann)]
        if len(args) != (2 if origin is dict else 1) or args[0] is None or not T.is_key_type(args[0]):
            return None
        if origin is set:
            return T.SetType(args[0])
        return T.DictType(args[0], args[1]) if args[1] is not None and T.is_list_element(args[1]) else None
    if origin is tuple:
        args = typing.get_args(ann)
        elems = [type_from_annotation(a) for a in args]
        if None in elems or Ellipsis in args:
            return None
        return T.TupleType(elems)
    if origin is typing.Union or type(ann).__name__ == "UnionType":     # Optional[T], T | None
        args = [a for a in typing.get_args(ann) if a is not type(None)]
        value = type_from_annotation(args[0]) if len(args) == 1 else None
        return T.OptionalType(value) if value is not None and T.is_optional_value(value) else None
    if is_named_tuple_class(ann):
        from script.frontend.named_tuple_types import annotated_type
        return annotated_type(ann, type_from_annotation)
    if isinstance(ann, type) or hasattr(ann, "dtype"):
        return _numpy_scalar_type(ann)
    return None


_COUNTER = "Counter"


def _container_origin(origin):
    """`list`, `dict`, `set`, `tuple` or `_COUNTER` for the class a generic annotation is of
    (`typing.DefaultDict[K, V]` is a dict, `Deque[T]` a list, `FrozenSet[T]` a set), else
    `origin` itself."""
    if origin is collections.deque:
        return list
    if origin is collections.Counter:
        return _COUNTER
    if origin in (collections.defaultdict, collections.OrderedDict):
        return dict
    if origin is frozenset:
        return set
    return origin


def is_open_annotation(ann) -> bool:
    """Whether `ann` names a container whose types are left to the values: a bare `list`,
    `dict`, `set`, `tuple` (typing's `List`, `Deque`, `DefaultDict`, ... too), one with such
    parts (`Dict[int, set]`), `tuple[int, ...]`, an abstract collection
    (`collections.abc.Sequence[int]`, `Iterable[float]`, `Mapping[str, int]`), or one of these
    or None (`list[int] | None`). A parameter so annotated is specialized on each call's
    argument, as an unannotated one; a local so annotated takes its type from its stores.
    False where a part names no type at all (`dict[int, object]`)."""
    import collections.abc
    import typing
    if ann is Ellipsis or ann is None or ann is type(None):
        return False
    bare = (list, dict, set, frozenset, tuple, collections.deque, collections.defaultdict,
            collections.Counter, collections.OrderedDict)
    if any(ann is c for c in bare) or getattr(ann, "__module__", None) == "collections.abc":
        return True
    origin = typing.get_origin(ann)
    args = typing.get_args(ann)
    if origin is typing.Union or type(ann).__name__ == "UnionType":
        rest = [a for a in args if a is not type(None)]
        return len(rest) == 1 and len(args) == 2 and (type_from_annotation(rest[0]) is not None
                                                      or is_open_annotation(rest[0]))
    if any(origin is c for c in bare) or getattr(origin, "__module__", None) == "collections.abc":
        return all(a is Ellipsis or type_from_annotation(a) is not None or is_open_annotation(a) for a in args)
    return False


def typeof(value) -> T.Type | None:
    """The type an argument value specializes on, or None when it is not supported."""
    if value is True or value is False:
        return T.BOOL
    cls = type(value)
    if cls is int:
        return T.I64
    if cls is float:
        return T.F64
    if cls is str:
        return T.STR
    if cls is bytes:
        return T.BYTES
    if cls is complex:
        return T.C128
    if value is None:
        return T.NONE
    if cls is tuple:
        elems = [typeof(v) for v in value]
        return None if None in elems else T.TupleType(elems)
    if cls is list:
        return list_type_of(value)
    if cls is dict or cls is set:
        return table_type_of(value)
    if cls is range:                    # the list of its items (held_iterators.py)
        fits = all(-2**63 <= v < 2**63 for v in (value.start, value.stop, value.step))
        return T.IterType(T.I64, "range") if fits else None
    if is_named_tuple_class(cls):
        from script.frontend.named_tuple_types import named_type_of
        elems = [typeof(v) for v in value]
        return None if None in elems else named_type_of(cls, elems)
    if isinstance(value, enum.Enum):        # a plain Enum's member (enum_values.py); None for others
        return enum_values.enum_type_of(cls)
    mod = getattr(cls, "__module__", "")
    if isinstance(value, (int, float, str, complex)) and not (mod == "numpy" or mod.startswith("numpy.")):
        return None         # a subclass (an IntEnum's member, a user's `class Name(str)`): compiled code
        # would compute with its value and give back a plain int or str, not CPython's object
    if isinstance(value, float):        # numpy.float64
        return T.F64
    if isinstance(value, complex):      # numpy.complex128
        return T.C128
    if mod == "numpy" or mod.startswith("numpy."):
        if cls.__name__ == "ndarray":
            return array_type_of(value)
        return _numpy_scalar_type(cls)
    return None


def list_type_of(value: list) -> T.ListType | None:
    """The type of a list argument, from its elements (the entry point checks the same rule,
    runtime.list_boxing): lists nested as deep as the deepest path (`[[1], []]` is a list of
    lists), whose innermost elements are all bools, all ints (within int64) or all floats
    (ints and floats together: `num`s, each keeping its type); or tuples of the same shape
    whose items follow that rule
    position by position (strs too: `[("a", 1)]` is a list[(str, i64)]); or strs only, at
    any depth; ints when there are no innermost elements (`[]`, `[[]]`). None for other
    values."""
    kinds = collections.Counter(map(type, value))      # (C loops: a list of millions is
    if value and len(kinds) == 1 and str in kinds:      # typed at each call)
        return T.ListType(T.STR)
    if complex in kinds and kinds.keys() <= {int, float, complex}:
        # only complex numbers: with ints or floats, no one type keeps each as CPython has it
        return T.ListType(T.C128) if len(kinds) == 1 else None
    if list not in kinds and kinds.keys() <= _SCALARS:
        return _flat_list_type(value, kinds)
    depth = _list_depth(value)
    if depth is None:
        return None
    leaf = _first_leaf(value, depth)
    if leaf is _NO_LEAF:
        if not _leafless(value):
            return None
        t = T.I64               # `[]`, `[[], []]`: ints, as an empty `[]` in compiled code holds,
        for _ in range(depth):  # which also gives CPython's `sum([]) == 0`
            t = T.ListType(t)
        return t
    shape = _tuple_shape(leaf)
    counts: list = []           # per scalar position: [bools, floats, strs, Nones]
    n = _scan_list(value, depth, shape, counts)
    if not n:
        return None
    kinds = []
    for bools, floats, strs, nones in counts:
        mixed = 0 < floats < n - nones      # ints and floats: nums, each keeping its type
        if mixed and not (bools or strs or nones):      # (a tuple's position too: `[(0, 1, 4), (1, 2, 0.5)]`)
            kinds.append(T.INT_FLOAT)
            continue
        if shape is None and 0 < strs < n and not nones and not (bools and bools < n - strs):
            kinds.append(_union_of(bools, n - strs - bools - floats, floats, strs))    # (`[[1], ["a"]]`)
            continue
        if 0 < bools < n - nones or 0 < strs < n or strs and nones or mixed:
            return None         # (in a tuple or with None: the runtime's match has no such kind)
        kind = T.STR if strs else T.BOOL if bools else T.F64 if floats else T.I64
        kinds.append(T.OptionalType(kind) if nones else kind)     # (`[1, None]`: list[opt[i64]])
    t = _build_leaf(shape, iter(kinds))
    if t is None:               # (a named tuple class compiled code does not take)
        return None
    for _ in range(depth):
        t = T.ListType(t)
    return t


_NO_LEAF = object()
_SCALARS = frozenset((bool, int, float, str, type(None)))


def _flat_list_type(value: list, kinds: collections.Counter) -> T.ListType | None:
    """`list_type_of` for a list of bools, ints, floats, strs and Nones, from the count of
    each type (`_scan_leaf`'s rule, without a Python loop over the items)."""
    n, nones = len(value), kinds[type(None)]
    if not value:
        return T.ListType(T.I64)
    bools, floats, strs = kinds[bool], kinds[float], kinds[str]
    if 0 < floats < n - nones and not (bools or strs or nones):
        return T.ListType(T.INT_FLOAT)
    if 0 < strs < n and not nones and not (bools and bools < n - strs):
        # strs among numbers (`[1, "one"]`, a list a function validates): a list of their
        # union (frontend/union_values.py), each element keeping its type
        return T.ListType(_union_of(bools, n - strs - bools - floats, floats, strs))
    if 0 < bools < n - nones or 0 < strs < n or strs and nones or 0 < floats < n - nones:
        return None
    kind = T.STR if strs else T.BOOL if bools else T.F64 if floats else T.I64
    return T.ListType(T.OptionalType(kind) if nones else kind)


def _union_of(bools: int, ints: int, floats: int, strs: int) -> T.UnionType:
    """The union of the kinds a list argument's innermost elements have (these counts of
    each), in one order, so that a list of the same kinds is one specialization."""
    return T.UnionType([t for t, count in ((T.BOOL, bools), (T.I64, ints), (T.F64, floats), (T.STR, strs)) if count])


def empty_argument_types(value, t: T.Type) -> list:
    """Other types than `t` (`typeof`'s: ints) an empty container argument `value` may take
    (`[]`, `[[], []]`, `{}`, `set()`, a dict of empty lists: the entry point matches it with
    any of its kind), in the order the dispatcher tries them; [] for other values. `[]` may
    also hold lists or pairs of ints, or lists of strs."""
    if type(value) is list and (not value or type(value[0]) is list) and _list_depth(value) is not None \
            and _leafless(value):
        out = [_with_leaf(t, leaf) for leaf in (T.F64, T.STR)]
        if not value:       # (a list of results: boards, paths; of grid cells)
            out += [T.ListType(T.ListType(T.I64)), T.ListType(_CELL), T.ListType(T.ListType(T.STR))]
        return out
    if type(value) in (set, frozenset) and not value:
        return [T.SetType(T.F64), T.SetType(T.STR), T.SetType(_CELL)]       # (grid cells seen)
    if type(value) is dict and value and isinstance(t, T.DictType) and all(
            type(v) is list and _list_depth(v) is not None and _leafless(v) for v in value.values()):
        return [T.DictType(t.key, _with_leaf(t.value, leaf)) for leaf in (T.F64, T.STR)]    # {'a': []}
    if type(value) is dict and not value:
        return [T.DictType(k, v) for k, v in ((T.I64, T.F64), (T.STR, T.I64), (T.STR, T.STR),
                                              (T.I64, T.ListType(T.I64)),
                                              (T.STR, T.ListType(T.STR)),
                                              (T.I64, T.SetType(T.I64)),        # adjacency sets
                                              (T.STR, T.SetType(T.STR)),
                                              (T.STR, T.DictType(T.STR, T.I64)),
                                              (_CELL, T.I64))]          # (a grid's distances)
    return []


_CELL = T.TupleType((T.I64, T.I64))


def _with_leaf(t: T.Type, leaf: T.Type) -> T.Type:
    return T.ListType(_with_leaf(t.elem, leaf)) if isinstance(t, T.ListType) else leaf


def _leafless(value: list) -> bool:
    return all(type(x) is list and _leafless(x) for x in value)


def _list_depth(value, limit: int = 32):
    """1 + the largest depth of the list items of `value` (None past `limit`: a list that
    holds itself)."""
    if limit == 0:
        return None
    depth = 1
    for x in value:
        if type(x) is list:
            d = _list_depth(x, limit - 1)
            if d is None:
                return None
            depth = max(depth, d + 1)
    return depth


def _first_leaf(value, depth: int):
    """The first innermost element that is not None (None when all are)."""
    nones = False
    for x in value:
        if depth == 1:
            if x is None:
                nones = True
                continue
            return x
        if type(x) is list:
            leaf = _first_leaf(x, depth - 1)
            if leaf is not _NO_LEAF and leaf is not None:
                return leaf
            nones = nones or leaf is None
    return None if nones else _NO_LEAF


class _NamedShape(tuple):
    """The shape of an instance of a named tuple class (`cls`): its items' shapes."""
    cls: type


def _tuple_shape(x, limit: int = 8):
    """None for a scalar, else a tuple of the shapes of a tuple's items (a `_NamedShape`
    for a named tuple's: a list of `Point(x, y)`s)."""
    if not limit or type(x) is not tuple and not is_named_tuple_class(type(x)) or not x:
        return None         # (the type first: the truth of an array is an error)
    items = tuple(_tuple_shape(e, limit - 1) for e in x)
    if type(x) is tuple:
        return items
    shape = _NamedShape(items)
    shape.cls = type(x)
    return shape


def _build_leaf(shape, kinds) -> T.Type | None:
    if shape is None:
        return next(kinds)
    elems = [_build_leaf(s, kinds) for s in shape]
    if None in elems:
        return None
    if isinstance(shape, _NamedShape):
        from script.frontend.named_tuple_types import named_type_of
        return named_type_of(shape.cls, elems)
    return T.TupleType(elems)


def _scan_list(value: list, depth: int, shape, counts: list) -> int | None:
    """The number of innermost elements of `value` (None when one does not fit: a value of
    another kind, depth or tuple shape), counting bools and floats per scalar position in
    `counts`."""
    total = 0
    for x in value:
        if depth > 1:
            k = _scan_list(x, depth - 1, shape, counts) if type(x) is list else None
            if k is None:
                return None
            total += k
        elif _scan_leaf(x, shape, counts, [0]):
            total += 1
        else:
            return None
    return total


def _scan_leaf(x, shape, counts: list, position: list) -> bool:
    if shape is not None:
        return type(x) is getattr(shape, "cls", tuple) and len(x) == len(shape) and all(
            _scan_leaf(e, s, counts, position) for e, s in zip(x, shape))
    cls = type(x)
    if cls not in (bool, int, float, str) and x is not None:
        return False
    p = position[0]
    position[0] += 1
    while len(counts) <= p:
        counts.append([0, 0, 0, 0])
    counts[p][0] += cls is bool
    counts[p][1] += cls is float
    counts[p][2] += cls is str
    counts[p][3] += x is None
    return True


def table_type_of(value) -> T.HashType | None:
    """The type of a dict or set argument: its keys' (and values') one exact type, which
    the entry point matches item by item (runtime.table_boxing); ints when empty (as `{}` and
    `set()` hold in compiled code); None when the types differ, or when they are not keys
    (values) compiled code holds."""
    if not value:
        return T.SetType(T.I64) if isinstance(value, (set, frozenset)) else T.DictType(T.I64, T.I64)
    keys = {typeof(k) for k in value}
    key = keys.pop() if len(keys) == 1 else _met(list(value), keys)
    if key is None or not T.is_key_type(key):
        return None
    if isinstance(value, set):
        return T.SetType(key)
    values = {typeof(v) for v in value.values() if not (type(v) in (list, dict, set) and not v)} \
        or {typeof(next(iter(value.values())))}     # (every value an empty container: of ints)
    t = values.pop() if len(values) == 1 else _met(list(value.values()), values)
    if t is None or not is_table_argument_value(t):
        return None
    return T.DictType(key, t)


def _met(items: list, types: set) -> T.Type | None:
    """The one type that holds `items` (a table argument's keys or values, of these several
    `types`) each as it is, where the entry point matches and unboxes it: ints and floats (a
    `num`, `{0.5: "a", 1: "b"}`), or lists whose elements meet as a list argument's do
    (`list_type_of`: `{"a": [1, 2], "b": [0.5]}` holds lists of num); None otherwise."""
    if None in types:
        return None
    if types <= {T.I64, T.F64}:
        return T.INT_FLOAT
    if not all(isinstance(t, T.ListType) for t in types):
        return None
    t = list_type_of(items)
    return t.elem if t is not None else None


def is_table_argument_value(t: T.Type) -> bool:
    """Whether a dict argument's values may be of type `t`: what a key may be (numbers, strs,
    tuples of them), or a list of those (an adjacency list: `graph[u]`). An argument dict is
    a read-only copy, its lists too: a write to one (`d[k].append(x)`) is a CompileError
    (list_args), since it would change only the copy. Not arrays, dicts or lists of lists."""
    if isinstance(t, T.ListType):       # (lists of lists too: `list_type_of`'s rule, any depth)
        return is_table_argument_value(t.elem) and not isinstance(t.elem, T.HashType)
    if isinstance(t, T.HashType):       # a dict of dicts or of sets (`g[u]` an adjacency set)
        return T.is_key_type(t.key) and (isinstance(t, T.SetType) or is_table_argument_value(t.value))
    return T.is_list_element(t) and not _holds_containers(t)


def _holds_containers(t: T.Type) -> bool:
    if isinstance(t, T.TupleType):
        return any(_holds_containers(e) for e in t.elems)
    return isinstance(t, (T.ListType, T.ArrayType, T.HashType))


def beyond_int64(v) -> bool:
    """Whether `v` is an int outside int64 or holds one (in lists, tuples, dicts, sets): an
    argument compiled code cannot take (runtime.boxing raises OverflowError, or matches no
    specialization)."""
    cls = type(v)
    if cls is int:
        return not T.I64.min <= v <= T.I64.max
    if cls in (list, tuple, set, frozenset):
        return any(beyond_int64(x) for x in v)
    if cls is dict:
        return any(beyond_int64(k) or beyond_int64(x) for k, x in v.items())
    return False


def array_type_of(a) -> T.ArrayType | None:
    """The type of an ndarray argument: its element type, rank and layout (None if its
    element type, byte order or alignment is not supported)."""
    dt = a.dtype
    if dt.kind not in "biufc" or not dt.isnative or not a.flags.aligned or a.ndim == 0:
        return None
    t = T.parse_scalar("bool" if dt.kind == "b" else _dtype_to_name(dt))
    if t is None:
        return None
    return T.ArrayType(t, a.ndim, "C" if a.flags.c_contiguous else "A")


def python_type_name(t: T.Type) -> str:
    """How a type is named to users in signatures: `int`, `float`, `bool`, `i32`, …"""
    if isinstance(t, (T.NamedTupleType, T.ClassType)):
        elems = t.elems if isinstance(t, T.NamedTupleType) else t.elem.elems
        return f"{t.name}(" + ", ".join(f"{f}: {python_type_name(e)}" for f, e in zip(t.fields, elems)) + ")"
    if isinstance(t, T.VarTupleType):
        return f"tuple[{python_type_name(t.elem)}, ...]"
    if isinstance(t, T.EnumType):
        return t.name
    if isinstance(t, T.IterType):
        return t.kind
    if isinstance(t, T.IntFloatType):
        return "int | float"
    if isinstance(t, T.UnionType):
        return " | ".join(python_type_name(a) for a in t.alternatives)
    if isinstance(t, T.OptionalType):
        return f"{python_type_name(t.value)} | None"
    if isinstance(t, T.ListType):
        return f"list[{python_type_name(t.elem)}]"
    if isinstance(t, T.DictType):
        return f"dict[{python_type_name(t.key)}, {python_type_name(t.value)}]"
    if isinstance(t, T.SetType):
        return f"set[{python_type_name(t.key)}]"
    names = {T.I64: "int", T.F64: "float", T.C128: "complex", T.BOOL: "bool", T.NONE: "None", T.STR: "str",
             T.BYTES: "bytes"}
    return names.get(t) or (
        "tuple[" + ", ".join(python_type_name(e) for e in t.elems) + "]"
        if isinstance(t, T.TupleType) else str(t))


def format_signature(types) -> str:
    return "(" + ", ".join(python_type_name(t) for t in types) + ")"


def _is_narrow(t: T.Type) -> bool:
    return isinstance(t, T.IntType) and t != T.I64 or t == T.F32


def _held_as(own: T.Type | None, t: T.Type) -> bool:
    """Whether a value of its own type `own` is held as it is by type `t`: the same type, or
    one whose ints or floats (strs, ...) `t` holds as a num or a union (a list of floats
    among a dict argument's lists of num: `table_type_of`)."""
    if own == t:
        return True
    if isinstance(own, T.ListType) and isinstance(t, T.ListType):
        return _held_as(own.elem, t.elem)
    if isinstance(t, T.IntFloatType):
        return own in (T.I64, T.F64)
    return isinstance(t, T.UnionType) and not isinstance(t, T.IntFloatType) and own in t.alternatives


def _no_leaves(value: list) -> bool:
    """Whether a list holds nothing but (nested) empty lists: it matches any list type."""
    return all(type(x) is list and _no_leaves(x) for x in value)


def to_python_value(t: T.Type, value, numpy_scalars: bool = False):
    """Coerce a Python argument to what a parameter of type `t` takes, or raise TypeError.
    With `numpy_scalars` (an unannotated parameter, whose type is `typeof(value)`), a narrow
    scalar (i32, f32, …: a type no Python value has) stays the NumPy scalar it is, which is
    what the entry point of that parameter matches (script.dispatcher); otherwise it becomes
    a Python int or float."""
    if numpy_scalars and _is_narrow(t):
        if _numpy_scalar_type(type(value)) != t:
            raise TypeError
        return value
    if isinstance(t, T.BoolType):
        if isinstance(value, bool) or type(value).__module__ == "numpy" and type(value).__name__ in ("bool_", "bool"):
            return bool(value)
        raise TypeError
    if isinstance(t, T.IntType):
        if isinstance(value, float) or type(value).__module__ == "numpy" and "float" in type(value).__name__:
            raise TypeError
        import operator
        return operator.index(value)
    if isinstance(t, T.FloatType):
        if isinstance(value, (int, float)) or hasattr(value, "__float__") and not isinstance(value, (str, bytes)):
            if isinstance(value, complex):
                raise TypeError
            return float(value)
        raise TypeError
    if isinstance(t, T.ComplexType):
        if isinstance(value, (int, float, complex)) and not isinstance(value, bool) \
                or type(value).__module__ == "numpy" and "complex" in type(value).__name__:
            return complex(value)
        raise TypeError
    if isinstance(t, T.NoneType):
        if value is None:
            return None
        raise TypeError
    if isinstance(t, T.StrType):
        if isinstance(value, str):
            return str(value)           # a subclass as a plain str, which the entry matches
        raise TypeError
    if isinstance(t, T.BytesType):
        if isinstance(value, bytes):
            return bytes(value)
        raise TypeError
    if isinstance(t, T.OptionalType):
        return None if value is None else to_python_value(t.value, value, numpy_scalars)
    if isinstance(t, T.EnumType):
        if isinstance(value, enum.Enum) and enum_values.enum_type_of(type(value)) == t:
            return value
        raise TypeError
    if isinstance(t, T.IntFloatType):         # an int or a float, each kept as it is
        if type(value) in (int, float):
            return value
        raise TypeError
    if isinstance(t, T.NamedTupleType):
        cls = lookup_class(t.key)
        if type(value) is not cls:
            raise TypeError
        return cls._make(to_python_value(e, v, numpy_scalars) for e, v in zip(t.elems, value))
    if isinstance(t, T.TupleType):
        if not isinstance(value, tuple) or len(value) != len(t.elems):
            raise TypeError
        items = tuple(to_python_value(e, v, numpy_scalars) for e, v in zip(t.elems, value))
        if type(value) is tuple and all(a is b for a, b in zip(items, value)):
            return value        # itself: a set of tuples stays the caller's set (below)
        return items
    if isinstance(t, T.IterType):
        if type(value) is not range:
            raise TypeError
        return value
    if isinstance(t, T.ListType):
        if not isinstance(value, list):
            raise TypeError
        if type(value) is list and (_no_leaves(value) or _held_as(list_type_of(value), t)):
            return value        # the caller's list itself: the entry point writes it back
        return [to_python_value(t.elem, v) for v in value]
    if isinstance(t, T.DictType):
        if not isinstance(value, dict):
            raise TypeError
        items = [(to_python_value(t.key, k), to_python_value(t.value, v)) for k, v in value.items()]
        if type(value) is dict and all(a is k and b is v for (a, b), (k, v) in zip(items, value.items())):
            return value        # the caller's dict itself: the entry point writes it back
        return dict(items)
    if isinstance(t, T.SetType):
        if not isinstance(value, (set, frozenset)):
            raise TypeError
        items = [to_python_value(t.key, k) for k in value]
        if type(value) is set and all(a is b for a, b in zip(items, value)):
            return value        # the caller's set itself: its table's order is CPython's (setlib.py)
        return set(items)
    if isinstance(t, T.ArrayType):
        import numpy as np
        if not isinstance(value, np.ndarray):
            raise TypeError
        value = np.asarray(value)         # a subclass (memmap, …) as a plain ndarray view
        got = array_type_of(value)
        if got is None or not T.is_convertible(got, t) and got != t:
            raise TypeError
        return value
    raise TypeError
