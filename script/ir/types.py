"""The types of IR values.

Types are immutable and interned by value (equal types compare and hash equal), so they can
be used as dict keys and compared with `==`. `str(t)` is the spelling the printer writes and
the parser reads: ``bool``, ``i8``…``i64``, ``u8``…``u64``, ``f32``, ``f64``, ``c64``, ``c128``,
``none``, ``exc``, tuples ``(i64, f64)``, named tuples ``named["m:P", "x": i64]``, class instances ``obj["m:C", "x": f64]``
(``rec["m:C"]`` inside one: an instance of that class itself), arrays ``f64[:,::1]``, lists ``list[i64]``, dicts
``dict[i64, f64]``, sets ``set[i64]``, optionals ``opt[i64]``, strings ``str``, members of a
plain enum class ``enum["m:Color"]``, ``num``, a
value that is an int on some paths and a float on others, and ``boolint``, a bool on some
paths and an int on others (the int64 of its value).
"""

from __future__ import annotations



class Type:
    """Base of all IR types."""

    __slots__ = ()

    def is_numeric(self) -> bool:
        return isinstance(self, (IntType, FloatType, BoolType, ComplexType))


class BoolType(Type):
    __slots__ = ()

    def __eq__(self, other):
        return isinstance(other, BoolType)

    def __hash__(self):
        return hash("bool")

    def __str__(self):
        return "bool"

    __repr__ = __str__


class NoneType(Type):
    __slots__ = ()

    def __eq__(self, other):
        return isinstance(other, NoneType)

    def __hash__(self):
        return hash("none")

    def __str__(self):
        return "none"

    __repr__ = __str__


class ExcType(Type):
    """An exception caught in compiled code (script.frontend.exceptions): its class, message
    format and message values, as a raise records them (llvm.abi's `Env`); made by
    `exception` and `catch`, read by `exc_match`, raised again by `reraise`. Never a
    parameter of a compiled function or a value Python sees."""

    __slots__ = ()

    def __eq__(self, other):
        return isinstance(other, ExcType)

    def __hash__(self):
        return hash("exc")

    def __str__(self):
        return "exc"

    __repr__ = __str__


class IntType(Type):
    """A fixed-width integer; arithmetic wraps modulo 2**bits."""

    __slots__ = ("bits", "signed")

    def __init__(self, bits: int, signed: bool = True):
        assert bits in (8, 16, 32, 64), bits
        self.bits = bits
        self.signed = signed

    @property
    def min(self) -> int:
        return -(1 << (self.bits - 1)) if self.signed else 0

    @property
    def max(self) -> int:
        return (1 << (self.bits - 1)) - 1 if self.signed else (1 << self.bits) - 1

    def wrap(self, value: int) -> int:
        """`value` reduced to this type's range, as the hardware does."""
        value &= (1 << self.bits) - 1
        if self.signed and value > self.max:
            value -= 1 << self.bits
        return value

    def __eq__(self, other):
        return type(other) is type(self) and other.bits == self.bits and other.signed == self.signed

    def __hash__(self):
        return hash(("int", self.bits, self.signed))

    def __str__(self):
        return f"{'i' if self.signed else 'u'}{self.bits}"

    __repr__ = __str__


class BoolIntType(IntType):
    """A value that is a bool on some paths and an int on others (``flag = seen[i] and n``,
    ``found = True`` beside ``found = i``), held as the int64 of its value (True is 1).
    CPython keeps True apart from 1 where the value is shown, returned, stored or passed on,
    so the frontend lets one be read only where its value alone decides the answer
    (arithmetic, comparisons, truth, an index), converting it to ``i64`` there, and keeps it
    whole only in a local variable; anywhere else it is a CompileError (frontend/bool_ints.py).
    Printed ``boolint``."""

    __slots__ = ()

    def __init__(self):
        super().__init__(64, True)

    def __hash__(self):
        return hash("boolint")

    def __str__(self):
        return "boolint"

    __repr__ = __str__


class FloatType(Type):
    __slots__ = ("bits",)

    def __init__(self, bits: int):
        assert bits in (32, 64), bits
        self.bits = bits

    def __eq__(self, other):
        return isinstance(other, FloatType) and other.bits == self.bits

    def __hash__(self):
        return hash(("float", self.bits))

    def __str__(self):
        return f"f{self.bits}"

    __repr__ = __str__


class TextType(Type):
    """A str or bytes value: a reference to an immutable heap object of code points
    (script/backend/llvm/strings.py), which the `str_*` ops make and read. The two share
    the object's layout (a bytes object's code points are its bytes, each < 256) and the
    backend treats them alike; the frontend keeps them apart (`StrType`, `BytesType`)."""

    __slots__ = ()

    def is_numeric(self) -> bool:
        return False


class StrType(TextType):
    """A Python str: code points of any value (docs/strings.md). Printed ``str``."""

    __slots__ = ()

    def __eq__(self, other):
        return isinstance(other, StrType)

    def __hash__(self):
        return hash("str")

    def __str__(self):
        return "str"

    __repr__ = __str__


class BytesType(TextType):
    """A Python bytes: the text object holding one code point per byte (docs/strings.md,
    "Bytes"). Printed ``bytes``."""

    __slots__ = ()

    def __eq__(self, other):
        return isinstance(other, BytesType)

    def __hash__(self):
        return hash("bytes")

    def __str__(self):
        return "bytes"

    __repr__ = __str__


class ComplexType(Type):
    """A complex number of two floats of `bits // 2` bits each (real, imaginary): ``c128`` is
    Python's complex and NumPy's complex128, ``c64`` NumPy's complex64. Numeric (it may be an
    array's dtype, a list's element, a tuple's), but neither ordered nor integral: the
    frontend and the verifier allow it only the ops docs/complex.md lists."""

    __slots__ = ("bits",)

    def __init__(self, bits: int):
        assert bits in (64, 128), bits
        self.bits = bits

    @property
    def part(self) -> "FloatType":
        """The type of the real and the imaginary part."""
        return F64 if self.bits == 128 else F32

    def __eq__(self, other):
        return isinstance(other, ComplexType) and other.bits == self.bits

    def __hash__(self):
        return hash(("complex", self.bits))

    def __str__(self):
        return f"c{self.bits}"

    __repr__ = __str__


def complex_of(part: Type) -> "ComplexType":
    """The complex type whose parts have float type `part`."""
    return C64 if part == F32 else C128


class TupleType(Type):
    """A fixed-length heterogeneous tuple of other types."""

    __slots__ = ("elems",)

    def __init__(self, elems):
        self.elems = tuple(elems)

    def __eq__(self, other):
        return type(other) is TupleType and other.elems == self.elems

    def __hash__(self):
        return hash(("tuple", self.elems))

    def __str__(self):
        if len(self.elems) == 1:
            return f"({self.elems[0]},)"
        return "(" + ", ".join(map(str, self.elems)) + ")"

    __repr__ = __str__


class OptionalType(TupleType):
    """A value of type `value` or None: Python's `Optional[T]`, Numba's optional. It is the
    tuple ``(present: bool, value)`` (an absent value holds a placeholder of its type, zero),
    so everything that builds, takes apart, stores and lowers tuples (`tuple`, `extract`,
    block parameters, the backends) handles it unchanged; only its spelling, ``opt[i64]``,
    and its boxing (None or the value) differ. The frontend builds these values and takes
    them apart (script/frontend/optional.py); `value` is a scalar or a tuple of them
    (`is_optional_value`). Never equal to the plain tuple of the same elements."""

    __slots__ = ()

    def __init__(self, value: Type):
        super().__init__((BOOL, value))

    @property
    def value(self) -> Type:
        return self.elems[1]

    def __eq__(self, other):
        return isinstance(other, OptionalType) and other.elems == self.elems

    def __hash__(self):
        return hash(("opt", self.elems))

    def __str__(self):
        return f"opt[{self.value}]"

    __repr__ = __str__


class IntFloatType(TupleType):
    """A value that is a Python int on some paths and a float on others (``x = 0`` then
    ``x = 0.5`` in a branch; a function returning ``1`` or ``1 / n``), which CPython keeps
    apart: ``print(x)`` shows ``0`` or ``0.5``. It is the tuple ``(is_float, int, float)``
    (the other payload a zero), so everything that builds, takes apart, stores and lowers
    tuples handles it unchanged, as for `OptionalType`; only its spelling, ``num``, and its
    boxing (an int or a float) differ. The frontend makes one where a merge meets an int and
    a float (`merge`) and takes it apart before any operation (frontend/numbers.py): no
    operation sees one. Variables, returns, tuple items, list elements (a list made of ints
    and floats: frontend/lists.py), dict values and keys and set elements hold one (an
    integral float hashes as its int: backend/llvm/hashing.py); class fields do not
    (docs/differences.md)."""

    __slots__ = ()

    def __init__(self):
        super().__init__((BOOL, I64, F64))

    def __eq__(self, other):
        return isinstance(other, IntFloatType)

    def __hash__(self):
        return hash("num")

    def __str__(self):
        return "num"

    __repr__ = __str__


class UnionType(TupleType):
    """The result of a function that returns values of several types CPython keeps apart (a
    str on one path and a list on another, a bool or a str, a float or a tuple), called from
    Python: the tuple ``(tag, a, b, ...)`` holding the value of alternative `tag` (from 0) and
    a placeholder of each other alternative (zero, NULL or an immortal str, as an absent
    optional's), so that tuples' code builds, stores and lowers it unchanged; its boxing is the
    tagged alternative's. Only a `return` makes one (frontend/union_returns.py) and only the
    entry point takes one apart: a call from compiled code of a function returning one is a
    CompileError, so no operation sees one. Spelled ``union[str, list[str]]``."""

    __slots__ = ()

    def __init__(self, alternatives):
        super().__init__((I64, *alternatives))

    @property
    def alternatives(self) -> tuple:
        return self.elems[1:]

    def __eq__(self, other):
        return isinstance(other, UnionType) and other.elems == self.elems

    def __hash__(self):
        return hash(("union", self.elems))

    def __str__(self):
        return f"union[{', '.join(map(str, self.alternatives))}]"

    __repr__ = __str__


class EnumType(Type):
    """A member of the plain ``enum.Enum`` class `key` (``module:qualname``), held as the
    int64 index of the member among the class's members in definition order (aliases
    excluded, as ``list(Cls)`` excludes them). Not a number: the frontend reads it only
    through frontend/enum_values.py (``==``, ``is``, ``.name``, ``.value``, text), ``convert``
    to and from ``i64`` being the only ops that see one besides moves, tuples and containers;
    boxing gives back the very member object (pyhooks/named_instance.py finds the class by
    its key). Printed ``enum["mod:Color"]``."""

    __slots__ = ("key",)

    def __init__(self, key: str):
        self.key = key

    def is_numeric(self) -> bool:
        return False

    @property
    def name(self) -> str:
        return _class_name(self.key)

    def __eq__(self, other):
        return type(other) is EnumType and other.key == self.key

    def __hash__(self):
        return hash(("enum", self.key))

    def __str__(self):
        return f"enum[{_quoted(self.key)}]"

    __repr__ = __str__


class FuncType(Type):
    """A function value of the compiled function `owner` (its qualname): a nested function or
    lambda that `owner` made and holds in a variable or container, held as the int64 index of
    that function among the function values `owner` makes (frontend/function_values.py). Only
    moves, tuples, lists and dict values carry one, ``convert`` to and from ``i64`` and
    ``cmp.eq`` read it; it is never boxed (the frontend keeps it in `owner`'s frame). Printed
    ``fn["mod.outer"]``."""

    __slots__ = ("owner",)

    def __init__(self, owner: str):
        self.owner = owner

    def is_numeric(self) -> bool:
        return False

    def __eq__(self, other):
        return type(other) is FuncType and other.owner == self.owner

    def __hash__(self):
        return hash(("fn", self.owner))

    def __str__(self):
        return f"fn[{_quoted(self.owner)}]"

    __repr__ = __str__


def is_union_alternative(t: Type) -> bool:
    """Whether `t` may be an alternative of a `UnionType`: a value the entry point boxes and
    a placeholder of which stands for nothing (zero, NULL, an immortal str, an exception
    without a message); not None (an optional), an array, an iterable or another union."""
    if isinstance(t, UnionType) or "?" in str(t):
        return False
    if isinstance(t, ExcType):
        return True
    if isinstance(t, (NoneType, ArrayType, IterType, ClassRef)):
        return False
    if isinstance(t, (ClassType, EnumType)):
        return True
    if isinstance(t, (TupleType, HashType)):      # (a tuple or list may hold a union: `(v, n)`)
        return all(is_union_alternative(e) or isinstance(e, UnionType) for e in t.elems)
    if isinstance(t, ListType):
        return is_union_alternative(t.elem) or isinstance(t.elem, UnionType)
    return isinstance(t, (BoolType, IntType, FloatType, ComplexType, StrType))


def is_scalar_union(t: Type) -> bool:
    """Whether `t` is a union of bools, ints, floats and strs, one of which may hold None
    too: what a field of instances from Python that hold several is (instance_args)."""
    return isinstance(t, UnionType) and all(
        (a.value if isinstance(a, OptionalType) else a) in (BOOL, I64, F64, STR) for a in t.alternatives)


def _quoted(name: str) -> str:
    """A class's key or a field's name as the IR text spells it: in double quotes (they are
    identifiers, dots and a colon: nothing to escape; not json, which `import script` does
    not import)."""
    return f'"{name}"'


def _record_text(kind: str, key: str, fields, elems) -> str:
    """``kind["mod:Name", "x": t, ...]``: how named tuple and class types print."""
    parts = [_quoted(key)] + [f"{_quoted(f)}: {t}" for f, t in zip(fields, elems)]
    return f"{kind}[{', '.join(parts)}]"


def _class_name(key: str) -> str:
    """The class's own name in its key ``module:qualname``."""
    return key.rsplit(":", 1)[-1].rsplit(".", 1)[-1]


class NamedTupleType(TupleType):
    """A named tuple: an instance of a module-level ``typing.NamedTuple`` class or
    ``collections.namedtuple`` (docs/records.md). A tuple with names, so everything that
    builds, takes apart, stores and lowers tuples handles it unchanged; the frontend reads
    ``p.x`` as the element of field x, and boxing makes an instance of the class `key`
    (``module:qualname``). Printed ``named["mod:Point", "x": i64, "y": f64]``. Never
    equal to the plain tuple of the same elements."""

    __slots__ = ("key", "fields")

    def __init__(self, key: str, fields, elems):
        super().__init__(elems)
        self.key = key
        self.fields = tuple(fields)
        assert len(self.fields) == len(self.elems), (fields, elems)

    @property
    def name(self) -> str:
        return _class_name(self.key)

    def with_elems(self, elems) -> "NamedTupleType":
        return NamedTupleType(self.key, self.fields, elems)

    def __eq__(self, other):
        return (type(other) is NamedTupleType and other.key == self.key and other.fields == self.fields
                and other.elems == self.elems)

    def __hash__(self):
        return hash(("named", self.key, self.fields, self.elems))

    def __str__(self):
        return _record_text("named", self.key, self.fields, self.elems)

    __repr__ = __str__


def is_optional_value(t: Type) -> bool:
    """Whether `opt[t]` exists: `t` a bool, int, float or str, or a tuple of such values (of
    optionals too), a class instance, a list, a dict or a set; a placeholder costs nothing
    (a str's is the immortal "", a reference's NULL, which counting leaves alone)."""
    if isinstance(t, TupleType):
        return all(is_optional_value(e) for e in t.elems)
    return t.is_numeric() or isinstance(t, (TextType, ClassType, ClassRef, ListType, HashType))


class ArrayType(Type):
    """A NumPy array: element type, number of dimensions, and layout ("C": C-contiguous,
    "A": any strides). Printed like ``f64[:,:]`` (any layout) or ``f64[:,::1]`` (C)."""

    __slots__ = ("dtype", "ndim", "layout")

    def __init__(self, dtype: Type, ndim: int, layout: str = "A"):
        assert dtype.is_numeric() and ndim >= 1 and layout in ("C", "A"), (dtype, ndim, layout)
        self.dtype = dtype
        self.ndim = ndim
        self.layout = layout

    def is_numeric(self) -> bool:
        return False

    def with_layout(self, layout: str) -> "ArrayType":
        return ArrayType(self.dtype, self.ndim, layout)

    def __eq__(self, other):
        return (isinstance(other, ArrayType) and other.dtype == self.dtype
                and other.ndim == self.ndim and other.layout == self.layout)

    def __hash__(self):
        return hash(("array", self.dtype, self.ndim, self.layout))

    def __str__(self):
        dims = [":"] * self.ndim
        if self.layout == "C":
            dims[-1] = "::1"
        return f"{self.dtype}[{','.join(dims)}]"

    __repr__ = __str__


class ListType(Type):
    """A Python list: a reference to one growable heap object (script/backend/llvm/lists.py),
    so two values may name the same list and a change through one is seen through the other.
    Elements are scalars, lists, arrays or tuples of them (`is_list_element`: the frontend
    and the parser check; while a function is built, an element type may still be a
    placeholder). An element that is a list or an array is a reference, as in Python: the
    list counts one reference to it (backend/llvm/lists.py). Printed ``list[i64]``,
    ``list[list[f64]]``."""

    __slots__ = ("elem",)

    def __init__(self, elem: Type):
        self.elem = elem

    def is_numeric(self) -> bool:
        return False

    def __eq__(self, other):
        return type(other) is ListType and other.elem == self.elem

    def __hash__(self):
        return hash(("list", self.elem))

    def __str__(self):
        return f"list[{self.elem}]"

    __repr__ = __str__


class VarTupleType(ListType):
    """A tuple whose length is known only when the code runs, of one element type: a column
    of `zip(*rows)`, `tuple(xs)` of a list. A list in every way (the lists' ops and
    machinery), except that it boxes to a Python `tuple`, is never equal to a list, and
    compiled code never changes it (frontend/lists.py). Printed ``tuple[i64, ...]``. A
    tuple of fixed length is a `TupleType`."""

    __slots__ = ()

    def __eq__(self, other):
        return type(other) is VarTupleType and other.elem == self.elem

    def __hash__(self):
        return hash(("vartuple", self.elem))

    def __str__(self):
        return f"tuple[{self.elem}, ...]"

    __repr__ = __str__


class IterType(ListType):
    """An iterable object of Python's held as a value (`r = range(n)`, `m = map(f, xs)`, an
    argument `range(10)`): the list of what it yields, of the lists' machinery, named by the
    kind of object CPython would hold (`kind`: "range", "map", "zip", ...). The frontend gives
    it the object's behaviour or refuses (frontend/held_iterators.py): compiled code never
    changes it, a range alone is indexed, measured and equal to a range of the same items,
    and it is never boxed. Printed ``iter["map", i64]``."""

    __slots__ = ("kind",)

    def __init__(self, elem: Type, kind: str = "range"):
        self.elem = elem
        self.kind = kind

    def __eq__(self, other):
        return type(other) is IterType and other.elem == self.elem and other.kind == self.kind

    def __hash__(self):
        return hash(("iter", self.kind, self.elem))

    def __str__(self):
        return f'iter["{self.kind}", {self.elem}]'

    __repr__ = __str__


def holds_iter(t: Type) -> bool:
    """Whether a value of type `t` holds an `IterType` anywhere (in lists, tuples, tables)."""
    if isinstance(t, IterType):
        return True
    if isinstance(t, ClassType):
        return False
    if isinstance(t, ListType):
        return holds_iter(t.elem)
    if isinstance(t, (TupleType, HashType)):
        return any(holds_iter(e) for e in t.elems)
    return False


def map_parts(t: Type, fn) -> Type:
    """`t` with each part `x` replaced by `fn(x)` where that is not None, else descended
    into through tuples, optionals, lists, dicts and sets (never into class instances'
    fields: `fn` decides on them); `t` itself when nothing changed."""
    done = fn(t)
    if done is not None:
        return done
    if isinstance(t, OptionalType):
        v = map_parts(t.value, fn)
        return t if v is t.value else OptionalType(v)
    if isinstance(t, IntFloatType):
        return t
    if isinstance(t, TupleType):
        elems = [map_parts(e, fn) for e in t.elems]
        if all(a is b for a, b in zip(elems, t.elems)):
            return t
        return t.with_elems(elems) if isinstance(t, NamedTupleType) else TupleType(elems)
    if type(t) in (ListType, VarTupleType):
        e = map_parts(t.elem, fn)
        return t if e is t.elem else type(t)(e)
    if isinstance(t, DictType):
        k, v = map_parts(t.key, fn), map_parts(t.value, fn)
        return t if k is t.key and v is t.value else DictType(k, v)
    if isinstance(t, SetType):
        k = map_parts(t.key, fn)
        return t if k is t.key else SetType(k)
    return t


def is_list_element(t: Type, tables_and_optionals: bool = True) -> bool:
    """Whether a list may hold values of type `t`: a bool, int, float, int|float (`num`) or str, a list, an
    array, a dict or set, a class instance, an optional (`opt[i64]`: None or a value; `opt` of
    an instance), or a tuple of them (not None). Without `tables_and_optionals`, not dicts,
    sets or optionals other than of instances (`is_field_type`)."""
    if isinstance(t, OptionalType):
        return isinstance(t.value, (ClassType, ClassRef)) or tables_and_optionals and is_optional_value(t.value)
    if isinstance(t, ClassRef):
        return True
    if isinstance(t, TupleType):        # (a num too: a bool, an int and a float)
        return all(is_list_element(e, tables_and_optionals) for e in t.elems)
    if isinstance(t, HashType):
        return tables_and_optionals
    if isinstance(t, (ListType, ArrayType, TextType, EnumType, FuncType)):
        return True
    return t.is_numeric()


def is_field_type(t: Type) -> bool:
    """Whether a field of a class instance (`ClassType`) may be of type `t`: a number, str,
    list, array, instance (or None: a field no construction has given anything else yet) or
    tuple of them, a dict or a set, or an optional of one of them (`self.best = None`, a
    float later)."""
    if isinstance(t, OptionalType) and is_optional_value(t.value):
        return is_field_type(t.value)
    if isinstance(t, UnionType):
        return all(map(is_field_type, t.alternatives))
    return is_list_element(t, False) or isinstance(t, (HashType, NoneType))


class HashType(Type):
    """A Python dict or set (script/frontend/dicts.py): a hash table of keys of one type
    (`is_key_type`), made of lists, so it is a reference as a list is. The value is the tuple
    `elems` of two lists, which `tuple` builds and `extract` takes apart (as an optional is a
    tuple): ``index``, a ``list[i64]`` whose element 0 is the number of live entries and the
    rest the slots of an open-addressing table (-1 empty, -2 deleted, else an entry's position),
    and ``entries``, the entries in insertion order: ``(hash, key)`` for a set, ``(hash, key,
    value)`` for a dict, with hash -1 for a deleted one. Never equal to the tuple of its parts."""

    __slots__ = ()

    def is_numeric(self) -> bool:
        return False

    @property
    def entry(self) -> "TupleType":
        raise NotImplementedError

    @property
    def elems(self) -> tuple:
        return (ListType(I64), ListType(self.entry))


class DictType(HashType):
    """``dict[K, V]``: keys K (`is_key_type`), values V (`is_list_element`)."""

    __slots__ = ("key", "value")

    def __init__(self, key: Type, value: Type):
        self.key = key
        self.value = value

    @property
    def entry(self) -> "TupleType":
        return TupleType((I64, self.key, self.value))

    def __eq__(self, other):
        return isinstance(other, DictType) and other.key == self.key and other.value == self.value

    def __hash__(self):
        return hash(("dict", self.key, self.value))

    def __str__(self):
        return f"dict[{self.key}, {self.value}]"

    __repr__ = __str__


class SetType(HashType):
    """``set[K]``: a dict without values."""

    __slots__ = ("key",)

    def __init__(self, key: Type):
        self.key = key

    @property
    def entry(self) -> "TupleType":
        return TupleType((I64, self.key))

    def __eq__(self, other):
        return isinstance(other, SetType) and other.key == self.key

    def __hash__(self):
        return hash(("set", self.key))

    def __str__(self):
        return f"set[{self.key}]"

    __repr__ = __str__


def holds_references(t: Type) -> bool:
    """Whether a value of type `t` holds references the backend counts: an array, a list, a
    dict or set (its lists), a str, or a tuple holding one (backend/llvm/memory.py)."""
    if isinstance(t, (ArrayType, ListType, HashType, TextType)):
        return True
    return isinstance(t, TupleType) and any(holds_references(e) for e in t.elems)


def is_key_type(t: Type) -> bool:
    """Whether dict keys and set elements may be of type `t`: a bool, int, float, num or str, or a
    tuple of them, of a fixed length or of one element type (values the `hash` op hashes and
    `==` compares; a table's entries count the strs and tuples they hold as a list's elements
    do)."""
    if isinstance(t, TupleType):
        if isinstance(t, IntFloatType):
            return True             # (an int or a float: 1 and 1.0 are one key, backend hashing.py)
        if isinstance(t, UnionType):    # (its alternative's hash: 1 and 1.0 are one key, as for num;
            # at most one tuple alternative: (1, 2) and (1.0, 2) would hash apart)
            return all(is_key_type(e) for e in t.alternatives) and \
                sum(isinstance(e, TupleType) for e in t.alternatives) <= 1
        return not isinstance(t, OptionalType) and bool(t.elems) and all(is_key_type(e) for e in t.elems)
    if isinstance(t, (TextType, ClassType, EnumType)):    # (an instance: by identity, frontend/dicts.py;
        return True                                      # a member by its index)
    if isinstance(t, VarTupleType):     # `tuple(sorted(word))`: hashed element by element
        return is_key_type(t.elem) and not isinstance(t.elem, IntFloatType)
    return t.is_numeric() and not isinstance(t, ComplexType)


BOOL = BoolType()
NONE = NoneType()
EXC = ExcType()
I8, I16, I32, I64 = (IntType(b) for b in (8, 16, 32, 64))
U8, U16, U32, U64 = (IntType(b, False) for b in (8, 16, 32, 64))
F32, F64 = FloatType(32), FloatType(64)
STR = StrType()
BYTES = BytesType()
C64, C128 = ComplexType(64), ComplexType(128)
INT_FLOAT = IntFloatType()
BOOL_INT = BoolIntType()

SCALARS = {str(t): t for t in (BOOL, NONE, EXC, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64, STR, BYTES,
                               C64, C128, INT_FLOAT, BOOL_INT)}


def parse_scalar(name: str) -> Type | None:
    """The scalar type spelled `name`, or None."""
    return SCALARS.get(name)


def promote(a: Type, b: Type) -> Type | None:
    """The type two numeric values are brought to before arithmetic, or None if none exists.

    NumPy's promotion rules for scalars of known width: bool < ints < floats < complex; a signed and an
    unsigned int of the same width go to the next wider signed int (u64 with a signed int goes
    to f64); an int with f32 goes to f32 only if the int has at most 16 bits, else f64.
    """
    if a == b:
        return a
    if not (a.is_numeric() and b.is_numeric()):
        return None
    if isinstance(a, ComplexType) or isinstance(b, ComplexType):
        # complex with x: the complex type whose parts are the float x and the parts meet at
        # (c64 with i32 or f64 is c128, with i16 or f32 c64), as NumPy does
        pa = a.part if isinstance(a, ComplexType) else a
        pb = b.part if isinstance(b, ComplexType) else b
        p = promote(pa, pb)
        return complex_of(p if isinstance(p, FloatType) else F64)
    if isinstance(a, BoolType):
        return b
    if isinstance(b, BoolType):
        return a
    if isinstance(a, FloatType) and isinstance(b, FloatType):
        return a if a.bits >= b.bits else b
    if isinstance(a, FloatType) or isinstance(b, FloatType):
        f, i = (a, b) if isinstance(a, FloatType) else (b, a)
        if f.bits == 32 and i.bits > 16:
            return F64
        return f
    if a.signed == b.signed:
        return a if a.bits >= b.bits else b
    s, u = (a, b) if a.signed else (b, a)
    if s.bits > u.bits:
        return s
    if u.bits == 64:
        return F64
    return IntType(u.bits * 2)


def merge(a: Type, b: Type, bool_int: bool = False) -> Type | None:
    """The type a variable (a return, a conditional expression, a list's elements) holding
    either `a` or `b` gets where the paths meet, or None: `unify`, except that an int and a
    float make an int|float (`INT_FLOAT`), in tuples too, as CPython keeps them apart, and
    that a bool and a number do not meet (`bool_and_number`) but where `bool_int` says so:
    a bool and an int as a local variable's or a conditional expression's value meet at
    `BOOL_INT` (never inside a tuple or a container)."""
    if bool_int and a != b and {a, b} <= {BOOL, I64, BOOL_INT}:
        return BOOL_INT
    return unify(a, b, mixed=True)


def real_and_complex(a: Type, b: Type) -> bool:
    """Whether one of `a`, `b` is a Python complex and the other a Python int, float, bool or
    int|float: CPython keeps them apart (`x.real if not x.imag else x` is a float or a complex),
    and no union holds them, so a merge refuses rather than making the real one complex."""
    reals = (I64, F64, BOOL, INT_FLOAT)
    return a == C128 and b in reals or b == C128 and a in reals


def num_leaves(t: Type) -> Type | None:
    """`t`, an int, a float or an int|float, or a list (of lists) of them, with int|float for
    its numbers (the list a list argument of numbers widens to where it is given the other
    kind: the dispatcher for Python's lists, frontend lists.widen_arguments for a compiled
    caller's); None for any other type."""
    if type(t) is ListType:
        inner = num_leaves(t.elem)
        return None if inner is None else ListType(inner)
    return INT_FLOAT if t in (I64, F64, INT_FLOAT) else None


def bool_and_number(a: Type, b: Type) -> bool:
    """Whether one of `a`, `b` is a bool and the other a number (a Python int, float or
    int|float, a NumPy scalar): CPython keeps `True` apart from `1` (`print`, `repr`,
    `type`, a list's items), and no compiled value is either, so a merge refuses rather
    than turning the bool into a number."""
    return isinstance(a, BoolType) and isinstance(b, (IntType, FloatType, IntFloatType)) or \
        isinstance(b, BoolType) and isinstance(a, (IntType, FloatType, IntFloatType))


def _mixes(a: Type, b: Type) -> bool:
    """Whether a merge of `a` and `b` is an int|float: an int and a float, or either already
    one with a bool, an int or a float."""
    if isinstance(a, IntFloatType) or isinstance(b, IntFloatType):
        return all(isinstance(t, (IntFloatType, BoolType)) or t == F64
                   or isinstance(t, IntType) and t.signed for t in (a, b))
    return {a, b} == {I64, F64}


def unify(a: Type, b: Type, mixed: bool = False) -> Type | None:
    """The type a variable holding either `a` or `b` gets at a control-flow merge, or None.
    An int and a float unify to float (list elements, dict values) unless `mixed` (`merge`)."""
    if a == b:
        return a
    if isinstance(a, BoolIntType) or isinstance(b, BoolIntType):
        return None                     # (only `merge` with `bool_int` makes or widens one)
    if isinstance(a, UnionType) or isinstance(b, UnionType):
        return None                     # (not element by element: frontend union_values.meet)
    if mixed and (real_and_complex(a, b) or bool_and_number(a, b)):
        return None
    if isinstance(a, IntFloatType) or isinstance(b, IntFloatType) or mixed and _mixes(a, b):
        return INT_FLOAT if _mixes(a, b) else None
    if is_instance_type(a) and is_instance_type(b) and not (isinstance(a, ClassType) and isinstance(b, ClassType)
                                                            and a.key == b.key):
        return instance_union(a, b)
    if any(isinstance(t, (OptionalType, NoneType)) for t in (a, b)):
        return _unify_optional(a, b, mixed)
    if isinstance(a, ArrayType) and isinstance(b, ArrayType):
        if a.dtype == b.dtype and a.ndim == b.ndim:
            return a.with_layout("A")        # a C array is also an any-layout array
        return None
    if isinstance(a, TupleType) and isinstance(b, TupleType) and len(a.elems) == len(b.elems):
        if isinstance(a, NamedTupleType) != isinstance(b, NamedTupleType) or \
                isinstance(a, NamedTupleType) and (a.key, a.fields) != (b.key, b.fields):
            return None                 # a Point and a plain tuple (or another class) do not meet
        elems = [unify(x, y, mixed) for x, y in zip(a.elems, b.elems)]
        if None in elems:
            return None
        return a.with_elems(elems) if isinstance(a, NamedTupleType) else TupleType(elems)
    if {a, b} == {I64, U64}:
        # A variable that holds a Python int or a u64 (a hash masked with 0xFFFFFFFFFFFFFFFF
        # on one path): u64, not NumPy's float64 (docs: frontend/int_consts.py)
        return U64
    return promote(a, b)


UNION_KEY = "poly:"


def returns_meet(a: Type, b: Type) -> Type | None:
    """The type of a result returned as `a` on one path and `b` on another, where they meet
    only as results (each return converts its value, in its own block): a tuple of known
    length and one of run-time length (`return (0, 0, 0)` beside `return tuple(sorted(t))`:
    both Python tuples) at the latter; an iterator and a list of the same items (`return
    map(...)` beside `return list(...)`) at the iterator, whose uses (read once, no items) a
    list allows too (held_iterators.py; a range is not: it compares as a range). None for
    other types."""
    if {type(a), type(b)} == {TupleType, VarTupleType}:
        fixed, var = (a, b) if type(a) is TupleType else (b, a)
        return var if all(unify(e, var.elem) == var.elem for e in fixed.elems) else None
    if {type(a), type(b)} == {ListType, IterType} and a.elem == b.elem and "range" not in (
            getattr(a, "kind", None), getattr(b, "kind", None)):
        return a if isinstance(a, IterType) else b
    return None


def is_instance_union(t: Type) -> bool:
    """Whether `t` is a value holding an instance of one of several classes: a named tuple
    keyed ``poly:...`` of the class's index (field ``$class``) and one record per class
    (frontend class_unions.py), the slots of the other classes holding empty records."""
    return isinstance(t, NamedTupleType) and t.key.startswith(UNION_KEY)


def is_instance_type(t: Type) -> bool:
    return isinstance(t, ClassType) or is_instance_union(t)


def union_members(t: Type) -> list:
    """The class types an instance type (a class or a union) may hold."""
    return list(t.elems[1:]) if is_instance_union(t) else [t]


def instance_union(a: Type, b: Type) -> Type | None:
    """The union of the instance types `a` and `b` (classes ordered by key), or None when
    one class appears with two sets of field types."""
    found: dict = {}
    for m in union_members(a) + union_members(b):
        if found.setdefault(m.key, m) != m:
            return None
    keys = sorted(found)
    return NamedTupleType(UNION_KEY + "|".join(keys), ("$class",) + tuple(keys), [I64] + [found[k] for k in keys])


def _unify_optional(a: Type, b: Type, mixed: bool = False) -> Type | None:
    """None with `t`, or an optional with `t`, None or another optional: `opt[...]` of the
    unified values (None when they do not unify or have no optional)."""
    va = a.value if isinstance(a, OptionalType) else None if isinstance(a, NoneType) else a
    vb = b.value if isinstance(b, OptionalType) else None if isinstance(b, NoneType) else b
    v = va if vb is None else vb if va is None else unify(va, vb, mixed)
    if v is None or not is_optional_value(v):
        return None
    return OptionalType(v)


def is_text_view(src: Type, dst: Type) -> bool:
    """Whether `convert` of `src` to `dst` sees the same objects as other types: a str as
    bytes or back, a list of them as a list of the other, a tuple part by part (ops.py)."""
    if isinstance(src, TextType) and isinstance(dst, TextType):
        return True
    if type(src) is ListType and type(dst) is ListType:
        return isinstance(src.elem, TextType) and isinstance(dst.elem, TextType)
    if type(src) is TupleType and type(dst) is TupleType and len(src.elems) == len(dst.elems) \
            and src != dst:
        return all(s == d or is_text_view(s, d) for s, d in zip(src.elems, dst.elems))
    return False


def is_convertible(src: Type, dst: Type) -> bool:
    """Whether `convert` (or element-wise convert for tuples) can take `src` to `dst`."""
    if src == dst:
        return True
    if is_text_view(src, dst):
        return True
    if is_instance_union(dst) and is_instance_type(src):
        return instance_union(src, dst) == dst
    if isinstance(src, ArrayType) or isinstance(dst, ArrayType):
        return (isinstance(src, ArrayType) and isinstance(dst, ArrayType) and dst.layout == "A"
                and src.dtype == dst.dtype and src.ndim == dst.ndim)
    if isinstance(src, OptionalType) != isinstance(dst, OptionalType):
        return False
    if isinstance(src, TupleType) and isinstance(dst, TupleType):
        return len(src.elems) == len(dst.elems) and all(
            is_convertible(s, d) for s, d in zip(src.elems, dst.elems))
    if isinstance(src, ComplexType) and not isinstance(dst, ComplexType):
        return False            # a complex number has no real value (float(1j) raises)
    return src.is_numeric() and dst.is_numeric()


# Class instances (docs/records.md): `ClassType`, and `ClassRef` for the instances of a
# recursive class inside its own fields. They live here because the functions above test
# for them (`is_optional_value`, `unify`): a module of their own would import this one and
# be imported by it, a cycle.


class ClassType(ListType):
    """An instance of a module-level class (docs/records.md, frontend/records.py): a
    reference to one heap record, so two names for one instance see each other's changes.
    The record is a list of one element, the tuple of the fields (`elem`), so the lists'
    machinery allocates it, counts its references and frees it; the frontend reads
    ``obj.x`` as element x of that tuple and writes it by storing a new tuple. `key` is the
    class's ``module:qualname``, `fields` the field names in the order ``__init__`` first
    assigns them. Printed ``obj["mod:Particle", "x": f64, "v": list[f64]]``. Never equal to
    the list of the same tuples, and never boxed (compiled code keeps its instances).

    Recursive classes (docs/records.md): a field may hold instances of the class itself, or
    of classes that hold it (``opt[...]``, in a list, a dict's values...). The type keeps its
    fields *folded* (`folded`): such an instance is a `ClassRef` to its class (printed
    ``rec["mod:Node"]``), and the other classes of the cycle are kept by key in `group`
    (their fields and folded types), so the type is finite and one type has one
    representation; `elem` is the fields *unfolded*, where the references are this very
    type again, or its group's classes (computed once, on first use). A walker over types
    that could meet one descends into `contents`, which keeps the references.

    Made from fields that hold instances, the type folds those of the type being made (so
    ``Node(Node(None, None), None)`` with ``left: opt[rec]`` is one type), takes in those
    whose own references reach it (a `B` whose fields refer to this `A`: into `group`),
    and keeps the others nested, another specialization of the class too (``Box(Box(1))``).
    A type whose references name a class neither it nor its group is (`free`) is only ever
    part of a type being made (the parser's, `frontend/class_types.py`'s)."""

    __slots__ = ("key", "fields", "folded", "group", "_unfolded")

    def __init__(self, key: str, fields, elem: TupleType, group=()):
        assert isinstance(elem, TupleType) and len(elem.elems) == len(tuple(fields)), (fields, elem)
        defs = {k: (tuple(f), e) for k, f, e in group}
        found: list = []

        def leaf(x):
            if isinstance(x, ClassRef):
                return x
            if x.key == key:
                found.append(x)
                return ClassRef(key)
            if x.free or key in x.group_keys:
                defs.update({k: (f, e) for k, f, e in x.group if k != key})
                defs[x.key] = (x.fields, x.folded)
                if not x.free:
                    found.append(x)
                return ClassRef(x.key)
            return x

        folded = map_fields(elem, leaf)
        self._set(key, fields, folded, defs)
        if any(f != self.member(f.key) for f in found):       # not of the type being made
            self._set(key, fields, elem, {k: (tuple(f), e) for k, f, e in group})

    def _set(self, key, fields, folded, defs: dict) -> None:
        self.key = key
        self.fields = tuple(fields)
        self.folded = folded
        self._unfolded = None
        reach, todo = set(), [folded]
        while todo:                         # the group: the classes its references reach
            for x in instances(todo.pop()):
                if isinstance(x, ClassRef) and x.key != key and x.key in defs and x.key not in reach:
                    reach.add(x.key)
                    todo.append(defs[x.key][1])
        self.group = tuple(sorted((k, defs[k][0], defs[k][1]) for k in reach))

    @classmethod
    def _made(cls, key: str, defs: dict) -> "ClassType":
        t = cls.__new__(cls)
        t._set(key, defs[key][0], defs[key][1], defs)
        return t

    def member(self, key: str) -> "ClassType":
        """This type, or the class `key` of its group (with this one in its group)."""
        if key == self.key:
            return self
        defs = {k: (f, e) for k, f, e in self.group}
        defs[self.key] = (self.fields, self.folded)
        return ClassType._made(key, defs)

    @property
    def group_keys(self) -> tuple:
        return tuple(g[0] for g in self.group)

    @property
    def free(self) -> frozenset:
        """The classes its references name that neither it nor its group is."""
        bound = {self.key, *self.group_keys}
        return frozenset(x.key for e in (self.folded, *(g[2] for g in self.group)) for x in instances(e)
                         if isinstance(x, ClassRef) and x.key not in bound)

    @property
    def elem(self) -> TupleType:
        if self._unfolded is None:
            bound = {self.key, *self.group_keys}
            self._unfolded = map_fields(self.folded, lambda x: self.member(x.key) if isinstance(
                x, ClassRef) and x.key in bound else x)
        return self._unfolded

    @property
    def contents(self) -> TupleType:
        return self.folded

    @property
    def is_recursive(self) -> bool:
        return any(isinstance(x, ClassRef) for x in instances(self.folded))

    @property
    def name(self) -> str:
        return _class_name(self.key)

    def __eq__(self, other):
        return (type(other) is ClassType and other.key == self.key and other.fields == self.fields
                and other.folded == self.folded and other.group == self.group)

    def __hash__(self):
        return hash(("obj", self.key, self.fields, self.folded, self.group))

    def __str__(self):
        return _class_text(self, (self.key,))

    __repr__ = __str__


def _class_text(t: "ClassType", path: tuple) -> str:
    """``obj["m:A", "b": opt[obj["m:B", "a": opt[rec["m:A"]]]]]``: a group's classes printed
    where first met on each path, a class already on the path as ``rec[...]``."""
    defs = {k: (f, e) for k, f, e in t.group}

    def text(x, path):
        if isinstance(x, ClassRef):
            if x.key in path or x.key not in defs:
                return str(x)
            f, e = defs[x.key]
            return _record_text("obj", x.key, f, [text(y, path + (x.key,)) for y in e.elems])
        if isinstance(x, OptionalType):
            return f"opt[{text(x.value, path)}]"
        if isinstance(x, NamedTupleType):
            return _record_text("named", x.key, x.fields, [text(y, path) for y in x.elems])
        if isinstance(x, TupleType):
            inner = [text(y, path) for y in x.elems]
            return f"({inner[0]},)" if len(inner) == 1 else "(" + ", ".join(inner) + ")"
        if type(x) is ListType:
            return f"list[{text(x.elem, path)}]"
        if isinstance(x, DictType):
            return f"dict[{text(x.key, path)}, {text(x.value, path)}]"
        if isinstance(x, SetType):
            return f"set[{text(x.key, path)}]"
        return str(x)
    return _record_text("obj", t.key, t.fields, [text(y, path) for y in t.folded.elems])


def instances(t: Type) -> list:
    """The class instances and `ClassRef`s in `t` (not inside other classes' fields)."""
    found: list = []
    map_fields(t, lambda x: found.append(x) or x)
    return found


class ClassRef(Type):
    """Inside a recursive `ClassType`'s folded fields: an instance of that class itself.
    Never the type of a value (the fields are unfolded before they are read). Printed
    ``rec["mod:Node"]``."""

    __slots__ = ("key",)

    def __init__(self, key: str):
        self.key = key

    def is_numeric(self) -> bool:
        return False

    def __eq__(self, other):
        return type(other) is ClassRef and other.key == self.key

    def __hash__(self):
        return hash(("rec", self.key))

    def __str__(self):
        return f"rec[{_quoted(self.key)}]"

    __repr__ = __str__


def map_fields(t: Type, leaf) -> Type:
    """`t` with `leaf(x)` for each class instance or `ClassRef` `x` in it (`map_parts`)."""
    return map_parts(t, lambda x: leaf(x) if isinstance(x, (ClassType, ClassRef)) else None)


def contents(t: "ListType") -> Type:
    """What a walker over the types inside list `t` descends into: its elements' type, or a
    class instance's folded fields (`ClassType.contents`: finite for a recursive class)."""
    return t.contents if isinstance(t, ClassType) else t.elem
