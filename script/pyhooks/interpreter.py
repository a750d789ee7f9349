"""The interpreter's own state that compiled code reads or sets: `sys.setrecursionlimit(n)`
and `sys.getrecursionlimit()` (frontend/interpreter_calls.py), run with the GIL
(`str_py.sys_setrecursionlimit`, `str_py.sys_getrecursionlimit`), with CPython's errors."""

from __future__ import annotations

import sys


def sys_setrecursionlimit(n: int) -> bool:
    sys.setrecursionlimit(n)
    return False


def sys_getrecursionlimit() -> int:
    return sys.getrecursionlimit()
