"""`str(e)` and `repr(e)` of an exception caught in compiled code (`except C as e`).

Compiled code carries an exception as a record (backend/llvm/abi.py: status, class word,
message format, message slots); the `str_py.exc_str` / `exc_repr` ops hand the runtime the
record's address, and the runtime calls these functions with the GIL. They make the Python
exception `script.raise` would raise from the same record (the class of the word's index,
the message as `PyErr_Format` would write it, a KeyError's key read back by script.pyhooks.keyerror;
or the Python exception object a record holds: runtime.py_errors) and give CPython's
`str()` or `repr()` of it. The record is only read: the strs its slots
refer to stay its own (a later `raise e` still raises them).
"""

from __future__ import annotations

import builtins
import ctypes
import re
import struct

_DIRECTIVE = re.compile(rb"%%|%lld|%llu|%s|%U")
_FMT, _SLOTS = 8, 16                  # offsets in the record (abi EXC_TYPE)
_KINDS_SHIFT = 16                     # abi KINDS_SHIFT
_SLOT_FLOAT, _SLOT_BOOL, _SLOT_STR = 1, 2, 3
_DTSF_ADD_DOT_0, _DTSF_SIGN = 2, 1
_KEYED_MARK = 1                       # runtime.entry KEYED_MARK
_USER_MARK = 2                        # runtime.entry USER_MARK
_PYOBJ_MARK = 4                       # runtime.py_errors PYOBJ_MARK
_STR_LEN, _STR_DATA = 8, 16           # llvm.strings LEN, DATA


def exc_str(address: int) -> str:
    return str(_exception(address))


def exc_repr(address: int) -> str:
    return repr(_exception(address))


def exc_is(address: int, key: str) -> bool:
    """Whether the exception is of user class `key` ("module:qualname") or a subclass."""
    return isinstance(_exception(address), user_class(key))


def exc_raise(address: int) -> bool:
    """Raise the user exception the record stands for, made now by CPython (its class's
    ``__init__`` run once, here: frontend/built_exceptions.py)."""
    raise _exception(address)


class AttributeTypeError(BaseException):
    """`e.attr` read by compiled code found a value of another type than the class declares.
    Not an Exception: no clause of the compiled code catches it, it stops the call."""


def _attr(address: int, name: str, kind: type):
    exc = _exception(address)
    value = getattr(exc, name)
    if type(value) is not kind or kind is int and not -2**63 <= value < 2**63:
        raise AttributeTypeError(f"{type(exc).__name__}.{name} is {value!r}, but compiled code read it as "
                                 f"{kind.__name__} (the type its class declares{', in 64 bits' if kind is int else ''})")
    return value


def exc_attr_int(address: int, name: str) -> int:
    return _attr(address, name, int)


def exc_attr_float(address: int, name: str) -> float:
    return _attr(address, name, float)


def exc_attr_str(address: int, name: str) -> str:
    return _attr(address, name, str)


def exc_attr_bool(address: int, name: str) -> bool:
    return _attr(address, name, bool)


def user_exception(text: str) -> BaseException:
    """The user exception a message ``module:qualname`` + (``\x02`` + text, or ``\x03``)
    stands for (frontend/user_exceptions.py; the runtime's raise, after its first mark)."""
    for k, c in enumerate(text):
        if c in "\x02\x03":
            cls = user_class(text[:k])
            if c == "\x03":
                return cls()
            rest = text[k + 1:]
            if rest.startswith("\x01"):        # its arguments' repr (frontend.messages ARGS_MARK)
                from script.pyhooks.keyerror import key_args
                return cls(*key_args(rest[1:]))
            return cls(rest)
    return SystemError(f"malformed exception of a user class: {text!r}")


def class_index(exc: BaseException) -> int:
    """The index in EXCEPTIONS of the nearest class of `exc` there, -1 for none (runtime.py_errors:
    what a record of a Python exception says its class is)."""
    from script.ir.ops import EXCEPTIONS
    for cls in type(exc).__mro__:
        if getattr(builtins, cls.__name__, None) is cls and cls.__name__ in EXCEPTIONS:
            return EXCEPTIONS.index(cls.__name__)
    return -1


def user_class(key: str) -> type:
    import importlib
    module, _, qualname = key.partition(":")
    obj = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def _exception(address: int) -> BaseException:
    from script.ir.ops import EXCEPTIONS
    word = ctypes.c_uint32.from_address(address + 4).value
    index = word & ((1 << _KINDS_SHIFT) - 1)
    cls = getattr(builtins, EXCEPTIONS[index] if index < len(EXCEPTIONS) else "SystemError")
    fmt_at = ctypes.c_void_p.from_address(address + _FMT).value
    if not fmt_at:
        return cls()
    fmt = ctypes.string_at(fmt_at)
    if fmt[:1] == bytes([_PYOBJ_MARK]):       # CPython's own exception object
        return ctypes.cast(ctypes.c_void_p.from_address(address + _SLOTS).value, ctypes.py_object).value
    kinds_at = word >> _KINDS_SHIFT
    n = len([m for m in _DIRECTIVE.finditer(fmt) if m.group() != b"%%"])
    kinds = ctypes.string_at(fmt_at + kinds_at, 4 * n) if kinds_at else bytes(4 * n)
    slots = [ctypes.c_int64.from_address(address + _SLOTS + 8 * k).value for k in range(n)]
    if fmt[:1] == bytes([_KEYED_MARK]):
        from script.pyhooks.keyerror import key_args
        return cls(*key_args(_text(fmt[1:], kinds, slots)))
    if fmt[:1] == bytes([_USER_MARK]):
        return user_exception(_text(fmt[1:], kinds, slots))
    return cls(_text(fmt, kinds, slots))


def _text(fmt: bytes, kinds: bytes, slots: list) -> str:
    out, pos, k = [], 0, 0
    for m in _DIRECTIVE.finditer(fmt):
        out.append(fmt[pos:m.start()].decode("ascii", "replace"))
        pos = m.end()
        if m.group() == b"%%":
            out.append("%")
            continue
        out.append(_slot(m.group(), kinds[4 * k:4 * k + 4], slots[k]))
        k += 1
    out.append(fmt[pos:].decode("ascii", "replace"))
    return "".join(out)


def _slot(directive: bytes, kind: bytes, word: int) -> str:
    if kind[0] == _SLOT_FLOAT:
        x = struct.unpack("<d", struct.pack("<q", word))[0]
        if kind[1] != ord("r"):
            return format(x, f".{kind[2]}{chr(kind[1])}")
        text = repr(x)
        if not kind[3] & _DTSF_ADD_DOT_0 and text.endswith(".0"):
            text = text[:-2]
        if kind[3] & _DTSF_SIGN and not text.startswith("-"):
            text = "+" + text
        return text
    if kind[0] == _SLOT_BOOL:
        return "True" if word else "False"
    if kind[0] == _SLOT_STR:               # a native str: its code points
        n = ctypes.c_int64.from_address(word + _STR_LEN).value
        codes = (ctypes.c_uint32 * n).from_address(word + _STR_DATA)
        return "".join(map(chr, codes))
    if directive == b"%s":                 # a run of non-ASCII text, as UTF-8
        return ctypes.string_at(word).decode("utf-8", "replace")
    if directive == b"%llu":
        return str(word & ((1 << 64) - 1))
    return str(word)
