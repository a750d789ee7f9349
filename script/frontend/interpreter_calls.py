"""`sys.setrecursionlimit(n)`, `sys.getrecursionlimit()` and `sys.stdout.write(s)` in
compiled code.

They set and read the interpreter's limit (pyhooks/interpreter.py), with CPython's errors
(`ValueError: recursion limit must be greater or equal than 1`, the RecursionError of a
limit below the current depth), so Python code the program runs afterwards sees it as
CPython's would. Compiled recursion itself is bounded by its native stack, not by this limit
(docs/differences.md): a deep recursion the raised limit lets CPython run runs compiled too.

`sys.stdout.write(s)` (also `stdout.write(s)` after `from sys import stdout`) is a `print`
op of `s` alone, without an end: it writes where print writes (the `sys.stdout` of the
moment it runs, with the GIL), so the two interleave as in CPython, and gives `len(s)`, what
a text stream's write returns.
"""

from __future__ import annotations

import ast
import sys

from script.frontend import strings
from script.frontend.registry import CALLS, lowers
from script.ir import types as T
from script.ir.core import Const


@lowers(sys.setrecursionlimit)
def lower_setrecursionlimit(cx, node: ast.Call, name: str):
    if len(node.args) != 1 or node.keywords:
        cx.error("setrecursionlimit() takes exactly one argument", node)
    n = cx.expr(node.args[0])
    if not isinstance(n.type, (T.IntType, T.BoolType)):
        cx.error(f"'{n.type}' object cannot be interpreted as an integer", node.args[0])
    cx.emit("str_py", [cx.coerce(n, T.I64, node)], T.BOOL, "sys_setrecursionlimit", cx.loc(node))
    return Const(None, T.NONE)


@lowers(sys.getrecursionlimit)
def lower_getrecursionlimit(cx, node: ast.Call, name: str):
    if node.args or node.keywords:
        cx.error("getrecursionlimit() takes no arguments", node)
    return cx.emit("str_py", [], T.I64, "sys_getrecursionlimit", cx.loc(node))


def _stdout_write(cx, node: ast.Call, name: str):
    if len(node.args) != 1 or node.keywords:
        cx.error("write() takes exactly one argument", node)
    s = cx.expr(node.args[0])
    if not strings.is_str(s):
        cx.error(f"write() argument must be str, not {s.type}", node.args[0])
    cx.emit("print", [s], T.NONE, "%U", cx.loc(node))
    return strings.str_len(cx, s, node)


@CALLS.family
def stdout_method(obj):
    """`write` of the stream that is `sys.stdout` when the call is compiled."""
    if getattr(obj, "__name__", None) == "write" and sys.stdout is not None \
            and getattr(obj, "__self__", None) is sys.stdout:
        return _stdout_write, "stdout.write"
    return None
