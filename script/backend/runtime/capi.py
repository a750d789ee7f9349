"""The CPython C-API as seen from generated LLVM code: declarations, object layout, addresses.

Generated code names C-API functions and objects symbolically (``PyLong_Type``,
``PyExc_ValueError``, ``PyFloat_FromDouble``); `symbol_addresses` gives the JIT their
addresses in the running interpreter (through ctypes), so object code holds no addresses.

Object layout is read directly where the C-API has only macros: ``ob_type``, a float's value,
a tuple's size and items. The offsets are those of the default (GIL, non-debug) 64-bit builds
of CPython 3.10-3.13; `check_layout` confirms them against the running interpreter before
anything is compiled.
"""

from __future__ import annotations

import ctypes
import functools
import sys

from script.ir.ops import EXCEPTIONS
from script.backend.llvm.builder import Builder, NativeModule, Value, int_const

OB_TYPE = 8             # PyObject.ob_type
VAR_SIZE = 16           # PyVarObject.ob_size
FLOAT_VALUE = 16        # PyFloatObject.ob_fval
COMPLEX_VALUE = 16      # PyComplexObject.cval: the real part, then the imaginary part
TUPLE_ITEMS = 24        # PyTupleObject.ob_item[0]
LIST_ITEMS = 24         # PyListObject.ob_item (a pointer to the item array)
LONG_HEADER = 16        # 3.10-3.11: ob_size (sign * ndigits); 3.12+: lv_tag (ndigits << 3 | sign)
LONG_DIGITS = 24        # ob_digit[0], a uint32 holding 30 bits

# How `emit_small_int` reads a one-digit int in this interpreter, or None (use the C-API).
LONG_LAYOUT = (None if sys.int_info.bits_per_digit != 30 or sys.int_info.sizeof_digit != 4
               else "tag" if sys.version_info >= (3, 12) else "size")

# NumPy's PyArrayObject and PyArray_Descr (NumPy 1.x and 2.x, 64-bit); `numpy_symbol_library`
# (runtime.symbols) confirms them against the running NumPy.
NPY_DATA, NPY_ND, NPY_DIMENSIONS, NPY_STRIDES, NPY_DESCR, NPY_FLAGS = 16, 24, 32, 40, 56, 64
DESCR_BYTEORDER, DESCR_TYPE_NUM = 26, 28
NPY_C_CONTIGUOUS, NPY_ALIGNED, NPY_WRITEABLE = 0x1, 0x100, 0x400
# NumPy's type numbers that hold each element type natively (long and long long are both
# 64-bit on the LP64 platforms supported).
NPY_TYPE_NUMS = {"bool": (0,), "i8": (1,), "u8": (2,), "i16": (3,), "u16": (4,), "i32": (5,),
                 "u32": (6,), "i64": (7, 9), "u64": (8, 10), "f32": (11,), "f64": (12,),
                 "c64": (14,), "c128": (15,)}
# NumPy's scalar type objects (``numpy.int32`` …) by type number, named as NumPy's C-API
# names them, in NUMPY_FUNCTIONS's namespace (runtime.symbols `numpy_addresses` binds them).
# A scalar's value follows its object header (``obval``).
NUMPY_SCALAR_TYPES = {num: f"script.np.Py{name}ArrType_Type" for num, name in enumerate((
    "Bool", "Byte", "UByte", "Short", "UShort", "Int", "UInt", "Long", "ULong", "LongLong",
    "ULongLong", "Float", "Double"))}
NPY_SCALAR_VALUE = 16

# name -> (return type, parameter types, varargs), in LLVM types
FUNCTIONS = {
    "_Py_HashDouble": ("i64", ["ptr", "double"], False),      # (pure: llvm/hashing.py calls it)
    "PyLong_AsLongLongAndOverflow": ("i64", ["ptr", "ptr"], False),
    "PyLong_AsUnsignedLongLong": ("i64", ["ptr"], False),
    "PyLong_FromLongLong": ("ptr", ["i64"], False),
    "PyLong_FromUnsignedLongLong": ("ptr", ["i64"], False),
    "PyBool_FromLong": ("ptr", ["i64"], False),
    "PyFloat_FromDouble": ("ptr", ["double"], False),
    "PyComplex_FromDoubles": ("ptr", ["double", "double"], False),
    "Py_NewRef": ("ptr", ["ptr"], False),
    "Py_DecRef": ("void", ["ptr"], False),
    "Py_IncRef": ("void", ["ptr"], False),
    "PyTuple_New": ("ptr", ["i64"], False),
    "PyTuple_SetItem": ("i32", ["ptr", "i64", "ptr"], False),
    "PyList_New": ("ptr", ["i64"], False),
    "PyDict_New": ("ptr", [], False),
    "PyDict_SetItem": ("i32", ["ptr", "ptr", "ptr"], False),
    "PyDict_Next": ("i32", ["ptr", "ptr", "ptr", "ptr"], False),
    "PyDict_Size": ("i64", ["ptr"], False),
    "PyDict_Clear": ("void", ["ptr"], False),
    "PyDict_Update": ("i32", ["ptr", "ptr"], False),
    "PySet_New": ("ptr", ["ptr"], False),
    "PyMem_Calloc": ("ptr", ["i64", "i64"], False),
    "PySet_Add": ("i32", ["ptr", "ptr"], False),
    "PySequence_Tuple": ("ptr", ["ptr"], False),
    "PySequence_List": ("ptr", ["ptr"], False),
    "PyUnicode_FromFormat": ("ptr", ["ptr"], True),
    "PyImport_ImportModule": ("ptr", ["ptr"], False),
    "PyObject_CallMethod": ("ptr", ["ptr", "ptr", "ptr"], True),
    "PyErr_SetObject": ("void", ["ptr", "ptr"], False),
    "PyObject_Type": ("ptr", ["ptr"], False),
    "PyObject_RichCompareBool": ("i32", ["ptr", "ptr", "i32"], False),
    "PyFloat_AsDouble": ("double", ["ptr"], False),
    "PyErr_NoMemory": ("ptr", [], False),
    "PyErr_Format": ("ptr", ["ptr", "ptr"], True),
    "PyErr_SetNone": ("void", ["ptr"], False),
    "PyErr_SetString": ("void", ["ptr", "ptr"], False),
    "PyErr_Occurred": ("ptr", [], False),
    "PyErr_Fetch": ("void", ["ptr", "ptr", "ptr"], False),
    "PyErr_NormalizeException": ("void", ["ptr", "ptr", "ptr"], False),
    "PyErr_Restore": ("void", ["ptr", "ptr", "ptr"], False),
    "PyErr_Clear": ("void", [], False),
    "PyErr_ExceptionMatches": ("i32", ["ptr"], False),
    "PyObject_Vectorcall": ("ptr", ["ptr", "ptr", "i64", "ptr"], False),
    "PyObject_GC_UnTrack": ("void", ["ptr"], False),
    "PyObject_GC_Del": ("void", ["ptr"], False),
    "PyObject_ClearWeakRefs": ("void", ["ptr"], False),
    "PyEval_SaveThread": ("ptr", [], False),
    "PyEval_RestoreThread": ("void", ["ptr"], False),
    "PyGILState_GetThisThreadState": ("ptr", [], False),
    "PyErr_CheckSignals": ("i32", [], False),
    "PyCapsule_New": ("ptr", ["ptr", "ptr", "ptr"], False),
    "PyCapsule_GetPointer": ("ptr", ["ptr", "ptr"], False),
    "PyOS_double_to_string": ("ptr", ["double", "i8", "i32", "i32", "ptr"], False),
    "PyMem_Free": ("void", ["ptr"], False),
    "PySys_FormatStdout": ("void", ["ptr"], True),
    "PyUnicode_FromKindAndData": ("ptr", ["i32", "ptr", "i64"], False),
    "PyUnicode_AsUCS4": ("ptr", ["ptr", "ptr", "i64", "i32"], False),
    "PyUnicode_GetLength": ("i64", ["ptr"], False),
    "PyUnicode_DecodeLatin1": ("ptr", ["ptr", "i64", "ptr"], False),
    "PyUnicode_AsLatin1String": ("ptr", ["ptr"], False),
    "PyBytes_AsString": ("ptr", ["ptr"], False),
    "PyBytes_Size": ("i64", ["ptr"], False),
    "PyLong_FromUnicodeObject": ("ptr", ["ptr", "i32"], False),
    "PyLong_AsLongLong": ("i64", ["ptr"], False),
    "PyFloat_FromString": ("ptr", ["ptr"], False),
    "PyObject_Str": ("ptr", ["ptr"], False),
    "PyObject_Repr": ("ptr", ["ptr"], False),
    "PyObject_Format": ("ptr", ["ptr", "ptr"], False),
    "PyObject_GetAttrString": ("ptr", ["ptr", "ptr"], False),
    "PyObject_CallObject": ("ptr", ["ptr", "ptr"], False),
    "PyObject_IsTrue": ("i32", ["ptr"], False),
    "PyLong_FromVoidPtr": ("ptr", ["ptr"], False),
    "PyDict_GetItem": ("ptr", ["ptr", "ptr"], False),
    "PyMem_Realloc": ("ptr", ["ptr", "i64"], False),
    "PyList_SetSlice": ("i32", ["ptr", "i64", "i64", "ptr"], False),
}

# NumPy's C-API functions generated code calls, by our symbol name: (slot in NumPy's
# ``_ARRAY_API`` table, a stable ABI, return type, parameter types). `numpy_symbol_library`
# (runtime.symbols) binds them to the table's entries.
NUMPY_FUNCTIONS = {
    "script.np.DescrFromType": (45, "ptr", ["i32"]),
    "script.np.NewFromDescr": (94, "ptr", ["ptr", "ptr", "i32", "ptr", "ptr", "ptr", "i32", "ptr"]),
    "script.np.SetBaseObject": (282, "i32", ["ptr", "ptr"]),
    "script.np.NewCopy": (85, "ptr", ["ptr", "i32"]),
}

# Objects whose address generated code uses (types compared against ob_type, singletons).
OBJECTS = ("PyLong_Type", "PyFloat_Type", "PyComplex_Type", "PyBool_Type", "PyTuple_Type", "PyList_Type", "PyDict_Type",
           "PySet_Type", "PyUnicode_Type", "PyBytes_Type", "PyRange_Type",
           "_Py_TrueStruct", "_Py_FalseStruct", "_Py_NoneStruct",
           "_Py_HashSecret", "_PySet_Dummy")      # (str hashes: llvm/hashing.py; sets: table_boxing.py)

# Exception classes generated code raises: those of compiled code, and one for the runtime.
EXCEPTION_CLASSES = EXCEPTIONS + ("SystemError",)

# Globals that hold a pointer (the exception classes): generated code loads them.
POINTERS = tuple(f"PyExc_{name}" for name in EXCEPTION_CLASSES)


def call(m: NativeModule, b: Builder, name: str, *args) -> Value | None:
    """Call the C-API function `name`, declaring it in `m` on first use."""
    ret, params, var_arg = FUNCTIONS[name]
    return b.call(m.declare(name, ret, params, var_arg=var_arg, attrs=("nounwind",)), args)


def call_numpy(m: NativeModule, b: Builder, name: str, *args) -> Value:
    """Call NumPy's C-API function `name` (a key of NUMPY_FUNCTIONS)."""
    _, ret, params = NUMPY_FUNCTIONS[name]
    return b.call(m.declare(name, ret, params, attrs=("nounwind",)), args)


def address_of(m: NativeModule, name: str) -> Value:
    """The address of the C-API object `name` (e.g. ``PyFloat_Type``), as a ``ptr``."""
    assert name in OBJECTS, name
    return m.declare_data(name)


def numpy_scalar_types(element: str) -> list[str]:
    """The names of NumPy's scalar types that hold element type `element` ("i32", …)."""
    return [NUMPY_SCALAR_TYPES[num] for num in NPY_TYPE_NUMS[element]]


def exception_class(m: NativeModule, b: Builder, name: str) -> Value:
    """The value of ``PyExc_<name>``."""
    assert name in EXCEPTION_CLASSES, name
    return b.load("ptr", m.declare_data(f"PyExc_{name}", "ptr"))


def emit_small_int(b: Builder, obj: Value):
    """``(is_small, value)`` for an exact int `obj`: whether it has at most one digit, and then
    its value as i64, read from the object. None when this interpreter's layout is unknown.

    The generated code is specific to the CPython minor version it was compiled under (as
    the C-API itself is): saved object code must be reused only on the same version."""
    check_layout()
    if LONG_LAYOUT is None:
        return None
    header = b.load_at("i64", obj, LONG_HEADER)
    digit = b.zext(b.load_at("i32", obj, LONG_DIGITS), "i64")
    if LONG_LAYOUT == "size":       # ob_size in {-1, 0, 1}; 0 has a zero digit
        small = b.icmp("ule", b.add(header, int_const("i64", 1)), int_const("i64", 2))
        return small, b.mul(header, digit)
    small = b.icmp("ult", header, int_const("i64", 2 << 3))    # compact: ndigits <= 1
    sign = b.sub(int_const("i64", 1), b.and_(header, int_const("i64", 3)))
    return small, b.mul(sign, digit)


@functools.cache
def symbol_addresses() -> dict[str, int]:
    """Addresses of every C-API symbol generated code may reference, by name."""
    check_layout()
    api = ctypes.pythonapi
    table = {name: ctypes.cast(getattr(api, name), ctypes.c_void_p).value for name in FUNCTIONS}
    for name in OBJECTS + POINTERS:
        table[name] = ctypes.addressof(ctypes.c_char.in_dll(api, name))
    return table


@functools.cache
def check_layout() -> None:
    """Fail loudly if this interpreter's object layout differs from the offsets above."""
    def word(obj, offset, kind=ctypes.c_void_p):
        return kind.from_address(id(obj) + offset).value

    ok = (ctypes.sizeof(ctypes.c_void_p) == 8
          and object.__basicsize__ == OB_TYPE + 8
          and word(1.5, OB_TYPE) == id(float)
          and word(1.5, FLOAT_VALUE, ctypes.c_double) == 1.5
          and word(2.5-3j, COMPLEX_VALUE + 8, ctypes.c_double) == -3.0
          and word((7, 8, 9), VAR_SIZE, ctypes.c_ssize_t) == 3
          and tuple.__basicsize__ == TUPLE_ITEMS
          and word((7, 8, 9), TUPLE_ITEMS + 8) == id(8)
          and ctypes.c_void_p.from_address(word([7, 8], LIST_ITEMS) + 8).value == id(8)
          and (LONG_LAYOUT is None or _check_long_layout(word)))
    if not ok:
        raise RuntimeError("script's native entry points need a default 64-bit CPython build "
                           "(object layout differs in this interpreter)")


def _check_long_layout(word) -> bool:
    big = 12345 * 10**3         # one digit, not a cached small int
    neg = -big
    if word(big, LONG_DIGITS, ctypes.c_uint32) != big:
        return False
    if LONG_LAYOUT == "size":
        return word(big, LONG_HEADER, ctypes.c_ssize_t) == 1 and \
            word(neg, LONG_HEADER, ctypes.c_ssize_t) == -1
    return word(big, LONG_HEADER, ctypes.c_ssize_t) == 8 and \
        word(neg, LONG_HEADER, ctypes.c_ssize_t) == 10


def holding_gil(m: NativeModule, b: Builder, env: Value, body):
    """Run `body()` (which emits code at `b`) with the GIL: taken back with ``env->tstate``
    when the call released it (runtime.entry), and released again after, with the new
    thread state stored back. Returns what `body` returns."""
    from script.backend.llvm.abi import ENV_TSTATE
    from script.backend.llvm.builder import NULL
    fn = b.fn
    tstate = b.load_at("ptr", env, ENV_TSTATE)
    released = b.icmp("ne", tstate, NULL)
    take, held = fn.append_block("take_gil"), fn.append_block("with_gil")
    b.cbranch(released, take, held)
    b.position_at_end(take)
    call(m, b, "PyEval_RestoreThread", tstate)
    b.branch(held)
    b.position_at_end(held)
    result = body()
    give, done = fn.append_block("release_gil"), fn.append_block("gil_done")
    b.cbranch(released, give, done)
    b.position_at_end(give)
    b.store_at(call(m, b, "PyEval_SaveThread"), env, ENV_TSTATE)
    b.branch(done)
    b.position_at_end(done)
    return result
