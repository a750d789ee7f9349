"""Python strs in compiled code: constants, f-strings, indexing, slicing, iteration,
operators and the builtins that make or take them (methods: strmethods.py).

A str is a `T.STR` value, a reference to an immutable heap object of code points
(backend/llvm/strings.py; docs/strings.md). Everything lowers to nine IR ops: `str_const`,
`str_new`, `str_char`, `str_len`, `str_get`, `str_set`, `str_eq`, `str_concat`, and `str_py` for what only CPython's
Unicode tables and number syntax decide; loops are written in the compiled subset
(strlib.py, strtext.py), whose intrinsics `lower_str_intrinsic` lowers.

Characters. `s[i]` and the elements of `for c in s` are `str_char` of a code point: for a
code point below 256 no memory is touched. A comparison of two such characters (or of one
with a one-character constant), `ord` of one, and `c in "aeiou"` with a short constant
compare code points directly, so `a[i - 1] == b[j - 1]` costs two loads and a compare, and
the `str_char` itself is deleted as unused.
"""

from __future__ import annotations

import ast
import operator

from script.frontend import mixed_numbers, printf, strlib, strtext
from script.frontend.container_text import container_text, has_text
from script.frontend.optional import is_optional, python_name
from script.frontend.lower_expr import kind_sample, sample_type_error
from script.frontend.unknown import Undef
from script.ir import types as T
from script.ir.core import Const, Instr, Value

_INDEX_ERROR = "string index out of range"
_CHR_ERROR = "chr() arg not in range(0x110000)"
_MAX_INLINE_MEMBERS = 16            # `c in "..."` with a constant this long: compares inline


def _base_error() -> str:
    try:
        int("1", 1)
    except ValueError as e:
        return str(e)
    raise AssertionError("int('1', 1) did not raise")


_BASE_ERROR = _base_error()          # int()'s own text, from the running CPython


def is_str(v) -> bool:
    return isinstance(getattr(v, "type", None), T.StrType)


def char_code(v: Value) -> Value | None:
    """The code point of `v` when it is known to be one character: a `str_char` or a
    one-character constant; else None."""
    if isinstance(v, Instr) and v.opname == "str_char":
        return v.operands[0]
    if isinstance(v, Instr) and v.opname == "str_const" and len(v.attr) == 1:
        return Const(ord(v.attr), T.I64)
    return None


class StrLowering:
    """Mixin for `FunctionLowering`: strings."""

    # ---- making strings -----------------------------------------------------------------

    def str_constant(self, text: str, node) -> Value:
        return self.emit("str_const", [], T.STR, text, self.loc(node))

    def str_lib(self, fn, args: list[Value], node) -> Value:
        """A call of strlib function `fn` with these values (ints as i64)."""
        args = [self.coerce(Const(a.value, a.type) if isinstance(a, Const) else a,
                            T.I64 if isinstance(a.type, (T.IntType, T.BoolType)) else a.type, node)
                for a in args]
        callee = self.ctx.callee(self, self.ctx.info_for(fn), tuple(a.type for a in args), node)
        return self.emit("call", args, callee.ret_type, callee, self.loc(node))

    def str_of(self, v: Value, node, conversion: str = "s") -> Value:
        """str(v) (`conversion` "r": repr(v)) of a str, int, bool, float or None."""
        t = v.type
        loc = self.loc(node)
        if isinstance(t, T.StrType):
            return self.emit("str_py", [v], T.STR, "repr", loc) if conversion == "r" else v
        if isinstance(t, T.IntFloatType):
            return mixed_numbers.split(self, [v], lambda w: self.str_of(w, node, conversion), node)
        if isinstance(t, T.BoolType):
            if isinstance(v, Const):
                return self.str_constant(str(bool(v.value)), node)
            return self.choose(v, lambda: self.str_constant("True", node),
                               lambda: self.str_constant("False", node), node)
        if isinstance(t, T.IntType):
            if isinstance(v, Const):
                return self.str_constant(str(v.value), node)
            if t == T.U64:
                return self.format_value(v, self.str_constant("", node), node)
            return self.str_lib(strlib.str_of_int, [self.coerce(v, T.I64, node)], node)
        if isinstance(t, T.FloatType):
            return self.emit("str_py", [self.coerce(v, T.F64, node)], T.STR, "repr_float", loc)
        if isinstance(t, T.NoneType):
            return self.str_constant("None", node)
        if T.is_instance_type(t):
            return self.instance_str(v, conversion, node)         # class_methods.py
        if t == T.EXC:                  # `except C as e`: CPython's str(e) / repr(e) (caught_text.py)
            return self.emit("str_py", [v], T.STR, "exc_repr" if conversion == "r" else "exc_str", loc)
        if has_text(t):
            return container_text(self, v, node, conversion)
        self.error(f"str() of a value of type {t} is not supported in compiled code", node)

    def format_value(self, v: Value, spec: Value, node) -> Value:
        """format(v, spec) with `spec` a str value: CPython's format mini-language."""
        t = v.type
        loc = self.loc(node)
        if T.is_instance_type(t):
            return self.instance_format(v, spec, node)            # class_methods.py
        if isinstance(t, T.StrType):
            return self.emit("str_py", [v, spec], T.STR, "format_str", loc)
        if isinstance(t, T.BoolType):
            v = self.str_of(v, node)
            return self.emit("str_py", [v, spec], T.STR, "format_str", loc)
        if t == T.U64:
            return self.emit("str_py", [v, spec], T.STR, "format_uint", loc)
        if isinstance(t, T.IntType):
            return self.emit("str_py", [self.coerce(v, T.I64, node), spec], T.STR, "format_int", loc)
        if isinstance(t, T.FloatType):
            return self.emit("str_py", [self.coerce(v, T.F64, node), spec], T.STR, "format_float", loc)
        if has_text(t):                 # object.__format__: str(v), with an empty spec only
            return self.container_format(v, spec, node)
        self.error(f"formatting a value of type {t} is not supported in compiled code", node)

    def container_format(self, v: Value, spec: Value, node) -> Value:
        """format(v, spec) of a list, tuple, dict or set: object.__format__, which takes only an
        empty spec (the spec must be a constant here)."""
        if not (isinstance(spec, Instr) and spec.opname == "str_const"):
            self.error(f"a format spec computed at run time for a value of type {v.type} is not "
                       "supported in compiled code", node)
        if not spec.attr:
            return self.str_of(v, node)
        name = v.type.name if isinstance(v.type, T.NamedTupleType) else python_name(v.type)
        self.raise_if(Const(True, T.BOOL), "TypeError", f"unsupported format string passed to {name}.__format__",
                      node)
        return self.str_constant("", node)

    def expr_JoinedStr(self, node: ast.JoinedStr) -> Value:
        parts = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                parts.append(self.str_constant(part.value, part))
                continue
            conversion = chr(part.conversion) if part.conversion != -1 else "s"
            text = self.type_text(part.value) if part.format_spec is None and conversion in "sr" else None
            if text is not None:                # (a class's repr is its str)
                parts.append(text)
                continue
            v = self.expr_opt(part.value, num=True) if part.format_spec is None else self.expr(part.value)
            if conversion == "a":
                self.error("ascii() conversions (!a) are not supported in compiled code", part)
            if part.format_spec is not None:
                if conversion == "r":
                    v = self.str_of(v, part, "r")
                spec = self.expr_JoinedStr(part.format_spec)
                parts.append(self.format_value(v, spec, part))
            else:
                parts.append(self.str_of(v, part, conversion))
        return self.str_join_parts(parts, node)

    def str_join_parts(self, parts: list[Value], node) -> Value:
        """The concatenation of the str values `parts` ("" for none)."""
        if not parts:
            return self.str_constant("", node)
        out = parts[0]
        for p in parts[1:]:
            out = self.str_concat(out, p, node)
        return out

    # ---- reading them -------------------------------------------------------------------

    def str_concat(self, a: Value, b: Value, node) -> Value:
        """a + b (in place when `a` is the only reference to its string: `s += t` in a loop)."""
        return self.emit("str_concat", [a, b], T.STR, None, self.loc(node))

    def str_len(self, s: Value, node) -> Value:
        if isinstance(s, Instr) and s.opname == "str_const":
            return Const(len(s.attr), T.I64)
        return self.emit("str_len", [s], T.I64, None, self.loc(node))

    def str_code(self, s: Value, i: Value, node) -> Value:
        """Code point `i` (0 <= i < len) of `s`."""
        return self.emit("str_get", [s, i], T.I64, None, self.loc(node))

    def str_char(self, code: Value, node) -> Value:
        return self.emit("str_char", [code], T.STR, None, self.loc(node))

    def str_subscript(self, s: Value, index_node, node) -> Value:
        if isinstance(index_node, ast.Slice):
            start, count, step = self.slice_operands(s, 0, index_node, node, length=self.str_len(s, node))
            return self.str_lib(strlib.slice_of, [s, start, count, step], node)
        index = self.expr(index_node)
        if not isinstance(index.type, (T.IntType, T.BoolType)):
            self.error(f"string indices must be integers, not {index.type}", index_node)
        loc = self.loc(node)
        i = self.coerce(index, T.I64, index_node)
        n = self.str_len(s, node)
        neg = self.cmp("lt", i, Const(0, T.I64), node)
        i = self.pick(neg, self.emit("add", [i, n], T.I64, None, loc), i, node)
        bad = self.emit("or", [self.cmp("lt", i, Const(0, T.I64), node), self.cmp("ge", i, n, node)],
                        T.BOOL, None, loc)
        self.raise_if(bad, "IndexError", _INDEX_ERROR, node)
        return self.str_char(self.str_code(s, i, node), node)

    def str_iterable(self, s: Value, node):
        """(length, item, type) of `for c in s` (a str cannot change while iterated)."""
        return self.str_len(s, node), lambda i: self.str_char(self.str_code(s, i, node), node), T.STR

    def str_truth(self, s: Value, node) -> Value:
        return self.cmp("ne", self.str_len(s, node), Const(0, T.I64), node)

    # ---- operators ----------------------------------------------------------------------

    def str_binop(self, op: type, a: Value, b: Value, node) -> Value:
        if op is ast.Add and is_str(a) and is_str(b):
            return self.str_concat(a, b, node)
        if op is ast.Mult:
            s, n = (a, b) if is_str(a) else (b, a)
            if isinstance(n.type, (T.IntType, T.BoolType)):
                return self.str_lib(strlib.repeat, [s, n], node)
        if op is ast.Mod and is_str(a):
            if getattr(a, "opname", None) != "str_const":
                self.error("printf-style formatting (str % values) needs a string literal on the left "
                           "in compiled code; use an f-string", node)
            return printf.percent_format(self, a.attr, b, node)
        self.error(f"unsupported operand types for this operator: {a.type} and {b.type}", node)

    def str_compare(self, op: ast.cmpop, a: Value, b: Value, node) -> Value:
        """a op b where one of them is a str."""
        loc = self.loc(node)
        if isinstance(op, (ast.In, ast.NotIn)):
            hit = self.str_contains(b, a, node)
            return hit if isinstance(op, ast.In) else self.emit("not", [hit], T.BOOL, None, loc)
        pred = {ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt",
                ast.GtE: "ge"}.get(type(op))
        if pred is None:
            self.error(f"'{type(op).__name__}' is not supported on strings in compiled code", node)
        if not (is_str(a) and is_str(b)):
            if pred in ("eq", "ne"):        # a str is never equal to a number (as in Python)
                return Const(pred == "ne", T.BOOL)
            self.error(f"'{ast.unparse(op) if hasattr(ast, 'unparse') else pred}' is not supported "
                       f"between {a.type} and {b.type}", node)
        ca, cb = char_code(a), char_code(b)
        if ca is not None and cb is not None:
            return self.cmp(pred, ca, cb, node)
        if pred in ("eq", "ne"):
            same = self.emit("str_eq", [a, b], T.BOOL, None, loc)
            return same if pred == "eq" else self.emit("not", [same], T.BOOL, None, loc)
        order = self.str_lib(strlib.compare, [a, b], node)
        return self.cmp(pred, order, Const(0, T.I64), node)

    def str_contains(self, s: Value, x: Value, node) -> Value:
        """`x in s` for str `s`: a substring test (a str `x` only, as CPython requires)."""
        refused = sample_type_error(operator.contains, "s", kind_sample(x.type)) if not is_str(x) else None
        if refused is not None:         # `3 in s`: CPython's TypeError, where it raises it
            self.raise_always("TypeError", refused, node)
            return Undef(T.BOOL, self.loc(node))
        if not is_str(x):
            self.error(f"'in <string>' requires string as left operand, not {x.type}", node)
        c = char_code(x)
        if c is not None and isinstance(s, Instr) and s.opname == "str_const" \
                and len(s.attr) <= _MAX_INLINE_MEMBERS:
            hit: Value = Const(False, T.BOOL)
            for ch in dict.fromkeys(s.attr):
                eq = self.cmp("eq", c, Const(ord(ch), T.I64), node)
                hit = eq if isinstance(hit, Const) else self.emit("or", [hit, eq], T.BOOL, None, self.loc(node))
            return hit
        if c is not None:
            return self.str_lib(strlib.contains_char, [s, c], node)
        return self.str_lib(strlib.contains, [s, x], node)

    # ---- builtins -------------------------------------------------------------------------

    def builtin_str(self, node, name) -> Value:
        if node.keywords or len(node.args) > 1:
            self.error("str() takes at most 1 argument here (encodings are not supported)", node)
        if not node.args:
            return self.str_constant("", node)
        text = self.type_text(node.args[0])
        if text is not None:
            return text
        return self.str_of(self.expr_opt(node.args[0], num=True), node, "r" if name == "repr" else "s")

    def type_text(self, node) -> Value | None:
        """``str(type(x))`` where `node` is the call ``type(x)`` (in an f-string, `str`, an
        exception's message): CPython's ``<class 'int'>``, of the class the value holds; None
        for any other node. ``type(x)`` as a value is not supported."""
        if not (isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords
                and isinstance(node.func, ast.Name) and node.func.id not in self.locals
                and getattr(self.lookup(node.func), "obj", None) is type):
            return None
        from script.frontend.instance_test import python_class
        v = self.expr_opt(node.args[0], num=True)

        def text(w):
            cls = python_class(w.type)
            if cls is None:
                self.error(f"type() of a value of type {w.type} is not supported in compiled code", node)
            return self.str_constant(str(cls), node)
        if is_optional(v):
            return self.choose(self.present(v, node), lambda: text(self.value_of(v, node)),
                               lambda: self.str_constant(str(type(None)), node), node)
        return mixed_numbers.split(self, [v], text, node)

    def builtin_radix(self, node, name) -> Value:
        """bin(i), oct(i), hex(i): CPython's ``format(i, "#b")`` and so on."""
        (v,) = self.positional(node, name, 1)
        refused = sample_type_error(bin, kind_sample(v.type))
        if refused is not None:                 # `bin(1.5)`: CPython's TypeError, where it raises it
            self.raise_always("TypeError", refused, node)
            return Undef(T.STR, self.loc(node))         # (a str, in the dead block after the raise)
        if not isinstance(v.type, (T.IntType, T.BoolType)):
            self.error(f"'{v.type}' object cannot be interpreted as an integer", node)
        spec = self.str_constant({"bin": "#b", "oct": "#o", "hex": "#x"}[name], node)
        return self.format_value(v if v.type == T.U64 else self.coerce(v, T.I64, node), spec, node)

    def builtin_format(self, node, name) -> Value:
        """format(value, spec=""): the f-string's ``f"{value:{spec}}"``."""
        args = self.positional(node, "format", 1, 2)
        if len(args) == 1:
            return self.str_of(args[0], node)
        if not is_str(args[1]):
            self.error(f"format() argument 2 must be str, not {args[1].type}", node)
        return self.format_value(args[0], args[1], node)

    def builtin_ord(self, node, name) -> Value:
        (v,) = self.positional(node, "ord", 1)
        if not is_str(v):
            self.error(f"ord() expected string of length 1, but {v.type} found", node)
        c = char_code(v)
        if c is not None:
            return c
        n = self.str_len(v, node)
        self.raise_if(self.cmp("ne", n, Const(1, T.I64), node), "TypeError",
                      "ord() expected a character, but string of length %lld found", node, [n])
        return self.str_code(v, Const(0, T.I64), node)

    def builtin_chr(self, node, name) -> Value:
        (v,) = self.positional(node, "chr", 1)
        if not isinstance(v.type, (T.IntType, T.BoolType)):
            self.error(f"chr() argument must be an int, not {v.type}", node)
        c = self.coerce(v, T.I64, node)
        bad = self.emit("or", [self.cmp("lt", c, Const(0, T.I64), node),
                               self.cmp("gt", c, Const(0x10FFFF, T.I64), node)], T.BOOL, None, self.loc(node))
        self.raise_if(bad, "ValueError", _CHR_ERROR, node)
        return self.str_char(c, node)

    def str_minmax(self, name: str, best: Value, x: Value, node) -> Value:
        """min/max's step: `x` replaces `best` only when strictly smaller/greater."""
        better = self.str_compare(ast.Gt() if name == "max" else ast.Lt(), x, best, node)
        return self.emit("select", [better, x, best], T.STR, None, self.loc(node))

    def builtin_hash(self, node, name) -> Value:
        """hash(x) of a bool, int, float, str or tuple of them: CPython's own (the `pyhash` op,
        a str's keyed by this process's hash secret)."""
        (v,) = self.positional(node, "hash", 1)
        if isinstance(v, Const):
            v = Const(v.value, v.type)      # (a weak constant too)
        if not T.is_key_type(v.type):
            self.error(f"hash() of a value of type {v.type} is not supported in compiled code", node)
        return self.emit("pyhash", [v], T.I64, None, self.loc(node))

    def str_to_int_base(self, node: ast.Call) -> Value:
        """int(s, base): CPython's parsing (prefixes, base 0, underscores) and errors."""
        args = list(node.args) + [k.value for k in node.keywords]
        if len(args) != 2:
            self.error("int() takes a string and a base here", node)
        s, base = self.expr(args[0]), self.expr(args[1])
        if not is_str(s):
            self.error("int() can't convert non-string with explicit base", node)
        if not isinstance(base.type, (T.IntType, T.BoolType)):
            self.error(f"int() base must be an int, not {base.type}", node)
        base = self.coerce(base, T.I64, node)
        bad = self.emit("and", [self.cmp("ne", base, Const(0, T.I64), node), self.emit("or", [
            self.cmp("lt", base, Const(2, T.I64), node), self.cmp("gt", base, Const(36, T.I64), node)],
            T.BOOL, None, self.loc(node))], T.BOOL, None, self.loc(node))
        self.raise_if(bad, "ValueError", _BASE_ERROR, node)
        return self.emit("str_py", [s, base], T.I64, "int_base", self.loc(node))

    def str_to_number(self, s: Value, t: T.Type, node) -> Value:
        """int(s) (`t` i64) or float(s) (f64): CPython's syntax and errors."""
        if t == T.I64:
            return self.str_lib(strtext.parse_int, [s], node)
        if self.in_try():
            return self.str_lib(strtext.parse_float, [s], node)
        return self.emit("str_py", [s], T.F64, "float", self.loc(node))

    # ---- strlib's intrinsics --------------------------------------------------------------

    def lower_str_intrinsic(self, fn, node: ast.Call) -> Value:
        loc = self.loc(node)
        if fn is strlib._py:
            name = node.args[0].value
            args = [self.expr(a) for a in node.args[1:]]
            params, result = _str_py_types(name)
            return self.emit("str_py", args, result, name, loc)
        args = [self.expr(a) for a in node.args]
        if fn is strlib._new:
            return self.emit("str_new", [self.coerce(args[0], T.I64, node)], T.STR, None, loc)
        if fn is strlib._code:
            return self.str_code(args[0], self.coerce(args[1], T.I64, node), node)
        if fn is strlib._put:
            self.emit("str_set", [args[0], self.coerce(args[2], T.I64, node), self.coerce(args[1], T.I64, node)],
                      T.NONE, None, loc)
            return Const(None, T.NONE, loc)
        if fn is strlib._char:
            return self.str_char(self.coerce(args[0], T.I64, node), node)
        raise AssertionError(fn)


STR_INTRINSICS = (strlib._new, strlib._code, strlib._put, strlib._char, strlib._py)


def _str_py_types(name: str):
    from script.ir.ops import STR_PY
    params, result = STR_PY[name]
    return [T.parse_scalar(p) for p in params], T.parse_scalar(result)
