"""The arguments of an exception raised by compiled code: the key of a KeyError for a missing
dict key, the values of ``raise ValueError(x)``.

Native code carries an exception out as a message (runtime.entry); for a dict key the
message is the key's text (frontend.dicts `key_message`: ints, bools, floats as Python's repr
writes them, and tuples of those), which `key_args` reads back into the key, so the KeyError
is CPython's: ``KeyError(3)``, whose text is ``3``. Only those spellings are read; anything
else stays the text it is."""

from __future__ import annotations

import ast
import math

_NAMES = {"inf": math.inf, "nan": math.nan, "True": True, "False": False}


def key_args(text: str) -> tuple:
    """(key,) for the text of a key, the arguments for ``*`` and the text of a tuple of them
    (frontend.messages `args_message`), or (text,) when it is neither."""
    try:
        if text.startswith("*"):
            args = _value(ast.parse(text[1:], mode="eval").body)
            if isinstance(args, tuple):
                return args
            raise ValueError("not arguments")
        return (_value(ast.parse(text, mode="eval").body),)
    except (SyntaxError, ValueError):
        return (text,)


def _value(node):
    if isinstance(node, ast.Constant) and type(node.value) in (int, float, bool, str, type(None)):
        return node.value
    if isinstance(node, ast.Name) and node.id in _NAMES:
        return _NAMES[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = _value(node.operand)
        if type(v) in (int, float):
            return -v
    if isinstance(node, ast.Tuple):
        return tuple(_value(e) for e in node.elts)
    raise ValueError("not a key")
