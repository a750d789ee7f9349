"""User exception classes: ``class MyError(ValueError): pass`` at module level (docs/exceptions.md).

Compiled code knows only the builtin classes (ops.EXCEPTIONS): an exception is a record with
a builtin class index and a message. A user class travels as its nearest builtin base, with
its name in front of the message: ``\\x02module:qualname\\x02`` and the text (``\\x03`` in
place of the second mark when it was raised without a message). So `except ValueError`
catches a `MyError(ValueError)` with no change anywhere; `except MyError` tests the base
class and then the name (`str_py.exc_is`, script/pyhooks/caught_text.py); the runtime raises the
user's class out of the function (runtime/entry.py `USER_MARK`), and `str(e)` / `repr(e)` are
its own. Where the class of a raise is known when compiling (a `raise MyError(...)` inside
a `try`), the handler is chosen then, with Python's `issubclass`.

Classes with methods or attributes of their own (an ``__init__``, a ``__str__``; private
data a library keeps, as NumPy's ``LinAlgError._module_source``, aside) are made by CPython
when they are raised (built_exceptions.py). Classes with several bases are CompileErrors.
"""

from __future__ import annotations

import builtins as py_builtins

from script.frontend import built_exceptions
from script.ir import types as T
from script.ir.ops import EXCEPTIONS, ExcInfo

MARK, END, EMPTY = "\x02", "\x02", "\x03"
_OWN_KEYS = {"__module__", "__doc__", "__qualname__", "__dict__", "__weakref__", "__firstlineno__",
             "__static_attributes__"}
_CLASSES: dict[str, type] = {}       # "module:qualname" -> the class (for routing when compiling)


def is_builtin_exception(obj) -> bool:
    return isinstance(obj, type) and issubclass(obj, BaseException) and \
        getattr(py_builtins, obj.__name__, None) is obj


def user_class_key(obj) -> str:
    return f"{obj.__module__}:{obj.__qualname__}"


def raised_class(exc: ExcInfo | str) -> type:
    """The Python class of an exception raised with `exc` (or of builtin class name `exc`)."""
    if isinstance(exc, ExcInfo):
        key = raised_key(exc)
        if key is not None:
            return _CLASSES[key]
        exc = exc.name
    return getattr(py_builtins, exc)


def raised_key(exc: ExcInfo) -> str | None:
    """The key ("module:qualname") of the user class an exception raised with `exc` is of."""
    message = exc.message or ""
    return message[1:].split(END, 1)[0].split(EMPTY, 1)[0] if message.startswith(MARK) else None


def catches(raised: type, clause: str | type) -> bool:
    """Whether an ``except`` clause of class `clause` (a builtin's name, or a user class)
    catches an exception of class `raised`."""
    return issubclass(raised, clause if isinstance(clause, type) else getattr(py_builtins, clause))


def user_exception_class(cx, obj, node) -> tuple[str, str] | None:
    """(builtin base name, key) of user exception class `obj`; None when `obj` is no
    user exception class; CompileError for one compiled code cannot take."""
    if not (isinstance(obj, type) and issubclass(obj, BaseException)) or is_builtin_exception(obj):
        return None
    name = obj.__name__
    if "<locals>" in obj.__qualname__:
        cx.error(f"exception class '{name}' is defined inside a function: only classes defined "
                 "at module level can be raised or caught in compiled code", node)
    if len(obj.__bases__) != 1:
        cx.error(f"exception class '{name}' has several bases: compiled code takes one", node)
    base = next((c for c in obj.__mro__ if is_builtin_exception(c) and c.__name__ in EXCEPTIONS), None)
    if base is None:
        cx.error(f"exception class '{name}' derives from no builtin exception class compiled code "
                 f"raises ({', '.join(EXCEPTIONS[:6])}, ...)", node)
    own = obj.__mro__[:obj.__mro__.index(base)]         # the user's classes, `obj` first
    extra = sorted({k for c in own for k in set(vars(c)) - _OWN_KEYS if not _private_data(k, vars(c)[k])})
    if extra:           # an __init__, a __str__, attributes: CPython builds it (built_exceptions.py;
                        # kernels refuse its str_py)
        built_exceptions.check_buildable(cx, obj, node)
    key = user_class_key(obj)
    _CLASSES[key] = obj
    return base.__name__, key


def _private_data(name: str, value) -> bool:
    """An attribute a library's class keeps for itself, not behaviour: a private name holding
    data (NumPy's ``LinAlgError._module_source``, for pickling)."""
    return name.startswith("_") and not name.startswith("__") and isinstance(value, (str, int, float, tuple))


def user_raise_text(cx, key: str, text: str | None) -> str:
    """The message of a raise of user class `key` with message `text` (None: none)."""
    return MARK + key + (END + text if text is not None else EMPTY)


def match_user_class(cx, e, base: str, key: str, loc):
    """Whether caught exception `e` is of user class `key` (or a subclass of it)."""
    m = cx.emit("exc_match", [e], T.BOOL, base, loc)
    name = cx.emit("str_const", [], T.STR, key, loc)
    return cx.emit("and", [m, cx.emit("str_py", [e, name], T.BOOL, "exc_is", loc)], T.BOOL, None, loc)
