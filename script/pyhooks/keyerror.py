"""The arguments of an exception raised by compiled code: the key of a KeyError for a missing
dict key, the values of ``raise ValueError(x)``.

Native code carries an exception out as a message (runtime.entry); for a dict key the
message is the key's text (frontend.dicts `key_message`: ints, bools, floats as Python's repr
writes them, strs and bytes by their repr, and tuples of those), which `key_args` reads back
into the key, so the KeyError is CPython's: ``KeyError(3)``, whose text is ``3``. Only those
spellings are read; anything else stays the text it is."""

from __future__ import annotations

import ast
import math

_NAMES = {"inf": math.inf, "nan": math.nan, "True": True, "False": False,
          "infj": complex(0.0, math.inf), "nanj": complex(0.0, math.nan)}


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
    if isinstance(node, ast.Constant) and type(node.value) in (int, float, bool, str, bytes, type(None), complex):
        return node.value
    if isinstance(node, ast.Name) and node.id in _NAMES:
        return _NAMES[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = _value(node.operand)
        if type(v) in (int, float):
            return -v
        if type(v) is complex and v.real == 0 and math.copysign(1.0, v.real) > 0:
            return complex(0.0, -v.imag)        # "-2j": complex_repr's +0.0 real part, kept
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        im = _value(node.right)                 # "(1-2j)", "(-0+infj)": complex_repr's form
        if type(im) is complex and im.real == 0:
            return complex(_real(node.left), im.imag if isinstance(node.op, ast.Add) else -im.imag)
    if isinstance(node, ast.Tuple):
        return tuple(_value(e) for e in node.elts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__enum__" \
            and len(node.args) == 2 and not node.keywords:      # a plain Enum's member (frontend/enum_values.py)
        from script.pyhooks.named_instance import enum_member
        key, index = (_value(a) for a in node.args)
        try:
            return enum_member(key, index)
        except Exception:           # (a class that no longer imports: the text stays)
            raise ValueError("not a member") from None
    raise ValueError("not a key")


def _real(node) -> float:
    """The real part of a complex repr, its sign kept ("-0")."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_real(node.operand)
    v = _value(node)
    if type(v) not in (int, float):
        raise ValueError("not a real part")
    return float(v)
