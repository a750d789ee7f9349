"""`--sig` values: argument-type signatures written on the command line.

A signature is a comma-separated list of types, one per parameter: ``"f64, i64"``,
``"float, int"``, ``"(i64, f64), bool"`` (a tuple argument, also ``tuple[i64, f64]``).
Type names are script's (``bool``, ``i8`` … ``i64``, ``u8`` … ``u64``, ``f32``, ``f64``,
optionally prefixed ``script.``; arrays ``f64[:]``, ``f32[:, :]``, C-contiguous ``f64[::1]``), Python's (``int``, ``float``, ``bool``, ``None``) and
NumPy's (``float32``, ``int16``, …, optionally prefixed ``np.`` or ``numpy.``). The empty
string is the signature of a function without parameters.

``NAME=SIG`` applies to the function `NAME` only; a bare ``SIG`` to every selected function
that is not fully annotated. A signature written in parentheses, as ``f.signatures``
prints it (``"(float, int)"``), is read as the whole signature when the function takes
that many parameters (a one-parameter function gets a tuple argument).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from script.cli.errors import UsageError
from script.ir import types as T

_PYTHON_NAMES = {"int": T.I64, "float": T.F64, "bool": T.BOOL, "None": T.NONE,
                 "boolean": T.BOOL, "complex": T.C128}
_NUMPY_NAMES = {"bool_": T.BOOL, "float32": T.F32, "float64": T.F64, "double": T.F64,
                "complex64": T.C64, "complex128": T.C128,
                **{f"int{b}": T.parse_scalar(f"i{b}") for b in (8, 16, 32, 64)},
                **{f"uint{b}": T.parse_scalar(f"u{b}") for b in (8, 16, 32, 64)}}
_TOKEN = re.compile(r"\s*(?:([A-Za-z_][A-Za-z0-9_.]*)|(\S))")
_NAMED = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$", re.S)
KNOWN = ("int, float, complex, bool, None, i8..i64, u8..u64, f32, f64, c64, c128, a tuple such as (i64, f64), or an "
         "array such as f64[:], f32[:, :] or f64[::1]")


@dataclass(frozen=True)
class SigOption:
    """One `--sig` option: the function it names (None for all) and its parsed types."""

    func: str | None
    types: tuple
    text: str


def parse_option(text: str) -> SigOption:
    """Parse one `--sig` value (``"f64, i64"`` or ``"poly=f64, i64"``); UsageError if bad."""
    m = _NAMED.match(text)
    func, body = (m.group(1), m.group(2)) if m else (None, text)
    return SigOption(func, parse_types(body), text)


def parse_types(text: str) -> tuple:
    tokens = _tokenize(text)
    parser = _Parser(tokens, text)
    types = parser.items(end=None)
    return tuple(types)


def fit_to_arity(types: tuple, nparams: int) -> tuple:
    """`(float, int)` written in parentheses for a two-parameter function means two types."""
    if len(types) == 1 and nparams != 1 and isinstance(types[0], T.TupleType) \
            and len(types[0].elems) == nparams:
        return tuple(types[0].elems)
    return types


def _tokenize(text: str) -> list[str]:
    tokens = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:          # only trailing blanks are left
            break
        tokens.append(m.group(1) or m.group(2))
        pos = m.end()
    return tokens


class _Parser:
    def __init__(self, tokens: list[str], text: str):
        self.tokens = tokens
        self.pos = 0
        self.text = text

    def fail(self, why: str):
        raise UsageError(f"bad signature {self.text!r}: {why} (types are {KNOWN})")

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str | None:
        tok = self.peek()
        self.pos += 1
        return tok

    def items(self, end: str | None) -> list:
        """Types separated by commas up to `end` (None: the end of the text)."""
        out = []
        while self.peek() != end:
            out.append(self.one())
            if self.peek() == ",":
                self.take()
            elif self.peek() != end:
                self.fail(f"expected ',' before {self.peek()!r}" if self.peek() else
                          f"missing {end!r}")
        self.take()
        return out

    def one(self):
        tok = self.take()
        if tok is None:
            self.fail("a type is missing")
        if tok == "(":
            return T.TupleType(self.items(")"))
        if tok in ("tuple", "Tuple", "typing.Tuple") and self.peek() == "[":
            self.take()
            return T.TupleType(self.items("]"))
        if not tok[0].isalpha() and tok[0] != "_":
            self.fail(f"unexpected {tok!r}")
        t = _scalar(tok)
        if t is None:
            self.fail(f"unknown type {tok!r}")
        if self.peek() == "[":
            return self.array(t, tok)
        return t

    def array(self, dtype, name: str):
        """``f64[:]``, ``f64[:, :]`` (any layout) or ``f64[::1]``, ``f64[:, ::1]`` (C order)."""
        self.take()
        ndim, layout = 0, "A"
        while True:
            if layout == "C" or self.take() != ":":
                self.fail(f"an array type is written {name}[:], {name}[:, :] or {name}[:, ::1]")
            ndim += 1
            if self.peek() == ":":
                self.take()
                if self.take() != "1":
                    self.fail("'::1' marks the contiguous last axis of an array type")
                layout = "C"
            tok = self.take()
            if tok == "]":
                break
            if tok != ",":
                self.fail(f"an array type is written {name}[:], {name}[:, :] or {name}[:, ::1]")
        if not dtype.is_numeric():
            self.fail(f"{name} is not an array element type")
        return T.ArrayType(dtype, ndim, layout)


def _scalar(name: str):
    for prefix in ("script.", "numpy.", "np."):
        if name.startswith(prefix):
            name = name[len(prefix):]
            break
    if name == "none":
        return T.NONE
    return _PYTHON_NAMES.get(name) or T.parse_scalar(name) or _NUMPY_NAMES.get(name)
