"""User exception classes with behaviour of their own (an ``__init__``, a ``__str__``,
attributes), raised in compiled code and built by CPython (docs/exceptions.md).

A class whose body is ``pass`` travels as a message and is made only where Python sees it
(user_exceptions.py). One with an ``__init__`` cannot: its ``__init__`` decides ``args``,
the message and the attributes, may raise, and runs once, when the ``raise`` runs. So the
exception is made then, by CPython: ``raise C(a, b)`` makes the record of the arguments
(as for a plain class), and `str_py.exc_raise` (script/pyhooks/caught_text.py) calls
``C(a, b)`` with the GIL and raises what it gives, which becomes a record holding that very
object (runtime/py_errors.py). Everything after that is CPython's: the class, ``args``,
``str(e)``, the attributes, an exception ``__init__`` itself raises, the object the Python
caller receives. ``except C as e`` then reads ``e.attr`` through CPython (`str_py.exc_attr_*`)
with the type the class declares.

Refused (CompileError at the raise or the clause): methods that change what compiled code
may have read already (``global``/``nonlocal``, a store or a method call on a module-level
object), classes whose methods have no source, an exception value made outside a ``raise``
(``err = C(...)``: CPython runs ``__init__`` there), a caught exception as an argument (it
would travel as its text), and ``e.attr`` whose type is not declared (an annotation in the
class body, of the ``__init__`` parameter it is stored from, or the parameter's default).
"""

from __future__ import annotations

import ast
import inspect
import textwrap
import types as types_
import weakref

from script.ir import types as T
from script.ir.core import set_terminator
from script.ir.ops import ExcInfo

_BUILT: set[str] = set()            # keys ("module:qualname") of the classes CPython builds
_CHECKED = weakref.WeakSet()        # the classes accepted (each raise and clause asks again)
_ATTR_TYPES = {int: T.I64, float: T.F64, str: T.STR, bool: T.BOOL,
               "int": T.I64, "float": T.F64, "str": T.STR, "bool": T.BOOL}   # (string annotations)
_GETTERS = {T.I64: "exc_attr_int", T.F64: "exc_attr_float", T.STR: "exc_attr_str", T.BOOL: "exc_attr_bool"}


def is_built(key: str) -> bool:
    return key in _BUILT


def check_buildable(cx, obj: type, node) -> None:
    """Accept class `obj`, whose classes up to its builtin base define methods or attributes, as one CPython
    builds when it is raised (see the module doc); CompileError naming what cannot be kept."""
    if obj in _CHECKED:
        return
    name = obj.__name__
    for c in obj.__mro__:
        for attr, value in vars(c).items() if c.__module__ != "builtins" else ():
            fn = _function_of(value)
            if fn is not None:
                _check_method(cx, name, c, attr, fn, node)
    _BUILT.add(f"{obj.__module__}:{obj.__qualname__}")
    _CHECKED.add(obj)


def _function_of(value):
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    if isinstance(value, property):
        value = value.fget
    return value if isinstance(value, types_.FunctionType) else None


def _check_method(cx, name: str, cls: type, attr: str, fn, node) -> None:
    where = f"{cls.__name__}.{attr}"
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        cx.error(f"exception class '{name}': the source of {where} is not available, so compiled "
                 "code cannot tell whether CPython may build it when it is raised", node)
    func = tree.body[0]
    params = {a.arg for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs}
    params |= {a.arg for a in (func.args.vararg, func.args.kwarg) if a is not None}
    local = params | {n.id for n in ast.walk(func) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    g = fn.__globals__

    def refuse(what: str, at) -> None:
        line = fn.__code__.co_firstlineno + getattr(at, "lineno", 1) - 1
        cx.error(f"exception class '{name}': {where} {what} (line {line} of {fn.__code__.co_filename}); "
                 "compiled code builds this exception through CPython when it is raised, and "
                 "takes only methods that compute the message and store attributes of self", node)

    def root(n):
        while isinstance(n, (ast.Attribute, ast.Subscript)):
            n = n.value
        return n

    def is_module_object(n) -> bool:
        """A name of the module's (not a local, a module, a class, a builtin function)."""
        if not isinstance(n, ast.Name) or n.id in local:
            return False
        value = g.get(n.id, g.get("__builtins__", {}).get(n.id) if isinstance(g.get("__builtins__"), dict)
                      else getattr(g.get("__builtins__"), n.id, None))
        return not isinstance(value, (types_.ModuleType, type, types_.BuiltinFunctionType))

    for n in ast.walk(func):
        if isinstance(n, (ast.Global, ast.Nonlocal)):
            refuse(f"declares '{' ,'.join(n.names)}' {type(n).__name__.lower()}: it changes state "
                   "outside the exception", n)
        targets = n.targets if isinstance(n, (ast.Assign, ast.Delete)) else \
            [n.target] if isinstance(n, (ast.AugAssign, ast.AnnAssign)) else []
        for t in targets:
            if isinstance(t, (ast.Attribute, ast.Subscript)) and is_module_object(root(t)):
                refuse(f"stores into '{ast.unparse(t)}', outside the exception", n)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and is_module_object(root(n.func)):
            refuse(f"calls '{ast.unparse(n.func)}', a method of an object of the module", n)


def exception_value_refused(cx, key: str, node) -> None:
    if is_built(key):
        cx.error(f"an exception of class '{key.split(':')[1]}', which has an __init__ or other "
                 "methods, can be made only in a 'raise' statement in compiled code", node)


def check_arguments(cx, key: str, args: list, node) -> None:
    """A caught exception as an argument would reach the class as its text: refused."""
    if not is_built(key):
        return
    for a in args:
        if isinstance(a, ast.Name) and a.id in cx.exc_names:
            cx.error(f"a caught exception as an argument of '{key.split(':')[1]}', which has an "
                     "__init__ or other methods, is not supported in compiled code", a)


def raise_built(cx, exc: ExcInfo, args, node) -> None:
    """``raise C(...)`` of a class CPython builds: the record of the arguments, then CPython's
    ``C(...)`` raised (`str_py.exc_raise`), which ends the block: the `raise` after it is
    never reached."""
    loc = cx.loc(node)
    e = cx.emit_plain("exception", list(args), T.EXC, exc, loc)
    cx.emit("str_py", [e], T.BOOL, "exc_raise", loc)
    if cx.block is not None:
        set_terminator(cx.block, "raise", [], attr=ExcInfo("RuntimeError", "exc_raise returned"), loc=loc)
        cx.block = None


# ---- e.attr of `except C as e` --------------------------------------------------------------

# What the raises compiled so far passed to each __init__: {__init__: {parameter: {python type}}}
_PASSED: dict = {}
_PY_TYPES = {T.BOOL: bool, T.F64: float, T.STR: str}


def note_raise(cx, cls: type, nodes: list, types: dict) -> None:
    """Remember the types of the arguments of ``raise cls(*nodes)`` (`types`: id(node) -> IR
    type, for the ones evaluated) under the parameters of the ``__init__`` they reach: an
    attribute stored from a parameter has them (`attribute_type`)."""
    init = next((vars(c)["__init__"] for c in cls.__mro__ if "__init__" in vars(c)), None)
    if not isinstance(init, types_.FunctionType):
        return
    try:
        bound = inspect.signature(init).bind(None, *nodes)
    except TypeError:                   # CPython raises it when the raise runs
        return
    passed = _PASSED.setdefault(init, {})
    for name, node in list(bound.arguments.items())[1:]:
        if not isinstance(node, ast.AST):
            continue
        t = types.get(id(node))
        py = type(node.value) if isinstance(node, ast.Constant) else str if t is None or isinstance(t, T.StrType) \
            else None if isinstance(t, T.BoolIntType) else int if isinstance(t, T.IntType) else _PY_TYPES.get(t)
        if py is not None:          # (a type not known yet, in a first round of typing; a tuple: the
            passed.setdefault(name, set()).add(py)      # read finds it at run time, a clear error)


def attribute(cx, e, cls: type, node: ast.Attribute):
    """``e.attr`` of a caught exception of user class `cls`: read through CPython, as the
    type the class declares for it."""
    t = attribute_type(cx, cls, node.attr, node)
    return cx.emit("str_py", [e, cx.emit("str_const", [], T.STR, node.attr, cx.loc(node))], t,
                   _GETTERS[t], cx.loc(node))


def attribute_type(cx, cls: type, attr: str, node) -> T.Type:
    """The type of attribute `attr` of exceptions of class `cls`: an annotation in a class body,
    else what ``__init__`` stores: an annotated parameter, a parameter's default, an
    f-string or a constant; CompileError when none or several say."""
    found = set()
    for c in cls.__mro__:
        ann = vars(c).get("__annotations__", {})
        if attr in ann:
            found.add(ann[attr])
            break
    init = next((vars(c)["__init__"] for c in cls.__mro__ if "__init__" in vars(c)), None)
    if not found and isinstance(init, types_.FunctionType):
        found = _stored_types(init, attr)
    if len(found) == 1:
        t = _ATTR_TYPES.get(next(iter(found)))
        if t is not None:
            return t
    cx.error(f"the type of '{ast.unparse(node)}' ({cls.__name__}.{attr}) is not known when compiling: "
             f"declare it in the class ('{attr}: int', float, str or bool) to read it in compiled code", node)


def _stored_types(init, attr: str) -> set:
    try:
        func = ast.parse(textwrap.dedent(inspect.getsource(init))).body[0]
    except (OSError, TypeError, SyntaxError):
        return set()
    args = func.args.posonlyargs + func.args.args
    defaults = dict(zip([a.arg for a in args][len(args) - len(func.args.defaults):], func.args.defaults))
    annotations = {a.arg: a.annotation for a in args if a.annotation is not None}
    self_name = args[0].arg if args else "self"
    found = set()
    for n in ast.walk(func):
        if not isinstance(n, (ast.Assign, ast.AnnAssign)):
            continue
        targets = n.targets if isinstance(n, ast.Assign) else [n.target]
        if not any(isinstance(t, ast.Attribute) and t.attr == attr and isinstance(t.value, ast.Name)
                   and t.value.id == self_name for t in targets):
            continue
        v = n.value
        if isinstance(n, ast.AnnAssign):
            found.add(_annotation(n.annotation))
        elif isinstance(v, ast.JoinedStr):
            found.add(str)
        elif isinstance(v, ast.Constant):
            found.add(type(v.value))
        elif isinstance(v, ast.Name) and v.id in annotations:
            found.add(_annotation(annotations[v.id]))
        elif isinstance(v, ast.Name) and v.id in _PASSED.get(init, {}):      # what raises passed
            found |= _PASSED[init][v.id]
            if isinstance(defaults.get(v.id), ast.Constant):
                found.add(type(defaults[v.id].value))
        elif isinstance(v, ast.Name) and isinstance(defaults.get(v.id), ast.Constant) \
                and defaults[v.id].value is not None:
            found.add(type(defaults[v.id].value))
        else:
            found.add(None)
    return found


def _annotation(node):
    return {"int": int, "float": float, "str": str, "bool": bool}.get(getattr(node, "id", None))
