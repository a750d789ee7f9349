"""Values that may be None: Python's `Optional[T]` (Numba's optional), typed `opt[T]`.

A variable or a return that is None on some paths and a `T` on others gets `opt[T]` where the
paths merge (`types.unify`: None with `T`, or an optional with either). Its IR value is the
tuple ``(present, value)`` (`types.OptionalType`), built here and taken apart here; no other
part of the frontend sees one:

- `lazy`/`expr` (lower_expr) *unwrap* an optional before giving it to their consumer: a check
  that raises TypeError when it is None, then its value. Operators unwrap their operands with
  CPython's own messages (`unsupported operand type(s) for +: 'NoneType' and 'int'`).
- The places where None is a value keep it whole (`expr_opt`): assignment, `return`, tuple
  items, conditional expressions, `and`/`or` operands, `is`/`==`/`!=` against None or a value,
  and truth tests (`if x:` is `present and bool(value)`).

Narrowing. A test of a local name (`x is None`, `x is not None`, `x == None`, `x != None`,
`x`, `not ...`, `and`/`or` of those) gives *facts* for where it is true and where it is false:
`x` is None there, or is present. `if`, `while`, `assert`, conditional expressions and the
right operands of `and`/`or` write them into the variable at the start of the branch they
hold in: `x` becomes its unwrapped value (no check), or the constant None. SSA then carries
them: after `if x is None: return` (or `raise`, `break`, `continue`) only the branch where `x`
is present reaches the rest of the function, so `x` is a plain `T` there, and where the two
branches merge again `x` is an optional once more.
"""

from __future__ import annotations

import ast

from script.frontend import elementwise, mixed_numbers
from script.frontend.unknown import Unknown
from script.ir import types as T
from script.ir.core import Const, Value
from script.ir.ops import ExcInfo

NONE_NAME = "NoneType"

# Where an optional is unwrapped with no operator of its own to name (a call argument, an
# index): CPython's messages differ with the callee; this one names what was found.
GENERIC_MESSAGE = "'NoneType' object cannot be used here: a value of type {} is required"


def python_name(t: T.Type) -> str:
    """The name CPython gives the class of a value of type `t` in its messages."""
    if isinstance(t, T.NoneType):
        return NONE_NAME
    if isinstance(t, T.OptionalType):
        return python_name(t.value)
    if isinstance(t, (T.TupleType, T.VarTupleType)):
        return "tuple"
    if isinstance(t, T.ListType):
        return "list"
    if isinstance(t, T.HashType):
        return "set" if isinstance(t, T.SetType) else "dict"
    if isinstance(t, T.StrType):
        return "str"
    if isinstance(t, T.BytesType):
        return "bytes"
    if isinstance(t, T.ArrayType):
        return "numpy.ndarray"
    if t in (T.I64, T.F64, T.BOOL):
        return {T.I64: "int", T.F64: "float", T.BOOL: "bool"}[t]
    if not isinstance(t, (T.IntType, T.FloatType)):
        return str(t)           # a type not known yet in this build round (the next one has it)
    from script.frontend.typeinfer import numpy_name
    return "numpy." + numpy_name(t)


def is_optional(v) -> bool:
    return isinstance(getattr(v, "type", None), T.OptionalType)


def _tested_name(node) -> str | None:
    """The local name a test looks at: `x`, or `(x := ...)`."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
        return node.target.id
    return None


def _is_none_literal(node) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def test_facts(test) -> tuple[list, list]:
    """What `test` being true, and being false, says about local names: two lists of
    (name, present) pairs."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(
            test.ops[0], (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)):
        left, right = test.left, test.comparators[0]
        if _is_none_literal(left):
            left, right = right, left
        name = _tested_name(left)
        if name is None or not _is_none_literal(right):
            return [], []
        is_none = isinstance(test.ops[0], (ast.Is, ast.Eq))
        return [(name, not is_none)], [(name, is_none)]
    name = _tested_name(test)
    if name is not None:
        return [(name, True)], []
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        yes, no = test_facts(test.operand)
        return no, yes
    if isinstance(test, ast.BoolOp):
        parts = [test_facts(v) for v in test.values]
        if isinstance(test.op, ast.And):
            return [f for yes, _ in parts for f in yes], []
        return [], [f for _, no in parts for f in no]
    return [], []


def expr_opt(cx, node: ast.expr, num: bool = False, union: bool = False) -> Value:
    """`expr`, except that an optional stays one; with `num`, so does a value that is an
    int or a float (mixed_numbers.py: where the caller takes it apart or keeps it whole), and
    with `union` a union of other types (union_values.py)."""
    from script.frontend.elementwise import ArrayExpr
    v = cx.lazy_any(node) if union else cx.lazy_opt(node)
    if not num and mixed_numbers.is_num(v):
        raise mixed_numbers.NumRead(node, cx.loc(node))
    return elementwise.materialize(cx, v, node) if isinstance(v, ArrayExpr) else v


def present(cx, v: Value, node=None) -> Value:
    """Whether optional `v` holds a value (a bool value)."""
    parts = _parts(v)
    if parts is not None:
        return parts[0]
    return cx.emit("extract", [v], T.BOOL, 0, cx.loc(node) if node is not None else v.loc)


def absent(cx, v: Value, node=None) -> Value:
    p = present(cx, v, node)
    if isinstance(p, Const):
        return Const(not p.value, T.BOOL)
    return cx.emit("not", [p], T.BOOL, None, cx.loc(node) if node is not None else v.loc)


def value_of(cx, v: Value, node=None) -> Value:
    """The value optional `v` holds, unchecked (its placeholder, zero, when it is None)."""
    parts = _parts(v)
    if parts is not None:
        return parts[1]
    return cx.emit("extract", [v], v.type.value, 1, cx.loc(node) if node is not None else v.loc)


def unwrap(cx, v: Value, node, text: str | None = None, error: str = "TypeError") -> Value:
    """The value of optional `v`, raising `error`(`text`) where it is None."""
    if text is None:
        text = GENERIC_MESSAGE.format(python_name(v.type.value))
    cx.raise_if(absent(cx, v, node), error, text, node)
    return value_of(cx, v, node)


def unwrap_operands(cx, a: Value, b: Value, describe, node) -> tuple[Value, Value]:
    """`a` and `b` unwrapped where either is optional; `describe(name_a, name_b)` is the
    message when one is None, with the class names CPython's message has."""
    oa, ob = is_optional(a), is_optional(b)
    if not (oa or ob):
        return a, b
    loc = cx.loc(node)
    if oa and ob:
        both = cx.emit("and", [absent(cx, a, node), absent(cx, b, node)], T.BOOL, None, loc)
        cx.raise_if(both, "TypeError", describe(NONE_NAME, NONE_NAME), node)
    if oa:
        for when, nb in _names(cx, b, node):
            cx.raise_if(cx.emit("and", [absent(cx, a, node), when], T.BOOL, None, loc), "TypeError",
                        describe(NONE_NAME, nb), node)
    if ob:
        for when, na in _names(cx, a, node):
            cx.raise_if(cx.emit("and", [absent(cx, b, node), when], T.BOOL, None, loc), "TypeError",
                        describe(na, NONE_NAME), node)
    return (value_of(cx, a, node) if oa else a), (value_of(cx, b, node) if ob else b)


def _names(cx, v: Value, node) -> list:
    """[(when, class name)] of what `v` holds where it is not None: one name, or of an
    int|float (an opt[num] too) 'int' or 'float' as it holds."""
    t = v.type.value if is_optional(v) else v.type
    if not isinstance(t, T.IntFloatType):
        return [(Const(True, T.BOOL), python_name(v.type))]
    is_float = cx.emit("extract", [value_of(cx, v, node) if is_optional(v) else v], T.BOOL, 0, cx.loc(node))
    return [(is_float, "float"), (_not(cx, is_float, cx.loc(node)), "int")]


def make_optional(cx, v: Value, t: T.OptionalType, node=None) -> Value:
    """`v` (None, a value convertible to `t.value`, or another optional) as an `opt` of
    type `t`, built in the current block."""
    loc = cx.loc(node) if node is not None else v.loc
    if isinstance(v.type, T.NoneType):
        there, value = Const(False, T.BOOL), placeholder(cx, t.value, loc)
    elif isinstance(v.type, T.OptionalType):
        there, value = present(cx, v, node), cx.coerce(value_of(cx, v, node), t.value, node)
    else:
        there, value = Const(True, T.BOOL), cx.coerce(v, t.value, node)
    if isinstance(value, Const) and type(value) is not Const:
        value = Const(value.value, value.type, value.loc)        # a weak literal: fixed now
    return cx.emit("tuple", [there, value], t, None, loc)


def placeholder(cx, t: T.Type, loc) -> Value:
    """A value of type `t` (zero) that stands for nothing, in the current block."""
    if isinstance(t, (T.TupleType, T.HashType)):      # (a dict or set: two NULL lists)
        return cx.emit("tuple", [placeholder(cx, e, loc) for e in t.elems], t, None, loc)
    if isinstance(t, T.StrType):
        return cx.emit("str_const", [], t, "", loc)      # immortal: nothing to count
    if isinstance(t, T.BytesType):                       # b"": the same immortal object
        return cx.emit("convert", [cx.emit("str_const", [], T.STR, "", loc)], t, None, loc)
    if isinstance(t, (T.ClassType, T.ListType)):
        return cx.emit("list_null", [], t, None, loc)    # NULL: nothing to count
    if isinstance(t, T.ExcType):                         # no message: nothing to count
        return cx.emit("exception", [], t, ExcInfo("Exception", None), loc)
    if isinstance(t, (T.EnumType, T.FuncType)):          # the first member, the first function
        return cx.emit("convert", [Const(0, T.I64, loc)], t, None, loc)
    return Const(0, t, loc)

# ---- truth and comparisons ------------------------------------------------------------


def optional_truth(cx, v: Value, node=None) -> Value:
    """`bool(v)` of an optional: present, and the value true."""
    p = present(cx, v, node)
    if isinstance(v.type.value, (T.ListType, T.HashType, T.ClassType)):
        return if_present(cx, p, lambda: cx.truth(value_of(cx, v, node), node), v, node)
    inner = cx.truth(value_of(cx, v, node), node)
    if isinstance(inner, Const):
        return p if inner.value else Const(False, T.BOOL)
    if isinstance(p, Const):
        return inner if p.value else Const(False, T.BOOL)
    return cx.emit("and", [p, inner], T.BOOL, None, cx.loc(node) if node is not None else v.loc)


def optional_compare(cx, op: ast.cmpop, a: Value, b: Value, node) -> Value | None:
    """`a op b` where `a` or `b` is optional, or None when neither is. `is`/`==` (and
    their negations) never raise: None equals only None; the others unwrap both sides
    with CPython's message."""
    if not (is_optional(a) or is_optional(b)):
        return None
    loc = cx.loc(node)
    negate = isinstance(op, (ast.IsNot, ast.NotEq, ast.NotIn))
    if isinstance(op, (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)):
        if isinstance(op, (ast.Is, ast.IsNot)) and not any(isinstance(v.type, T.NoneType) for v in (a, b)):
            if not all(isinstance(v.type.value if is_optional(v) else v.type, T.ClassType) for v in (a, b)):
                cx.error("'is' is only supported with None", node)
            # instances, or None: the same reference (an absent one is NULL: `placeholder`)
            same = cx.emit("list_same", [value_of(cx, v, node) if is_optional(v) else v for v in (a, b)],
                           T.BOOL, None, loc)
            return _not(cx, same, loc) if negate else same
        eq = _optional_eq(cx, a, b, node)
        return _not(cx, eq, loc) if negate else eq
    if isinstance(op, (ast.In, ast.NotIn)):
        if is_optional(b):
            b = unwrap(cx, b, node, f"argument of type '{NONE_NAME}' is not iterable")
            return cx.compare(op, a, b, node)
        # None is in a container that holds None (`v in [1, None]`)
        hit = cx.choose(present(cx, a, node), lambda: cx.compare(ast.In(), value_of(cx, a, node), b, node),
                        lambda: cx.compare(ast.In(), Const(None, T.NONE, loc), b, node), node)
        return _not(cx, hit, loc) if negate else hit
    symbol = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}[type(op)]
    a, b = unwrap_operands(cx, 
        a, b, lambda x, y: f"'{symbol}' not supported between instances of '{x}' and '{y}'", node)
    return cx.compare(op, a, b, node)


def _optional_eq(cx, a: Value, b: Value, node) -> Value:
    loc = cx.loc(node)
    if not is_optional(a):
        a, b = b, a
    if isinstance(b.type, T.NoneType):
        return absent(cx, a, node)
    if not is_optional(b):
        return if_present(cx, present(cx, a, node), lambda: cx.compare(
            ast.Eq(), value_of(cx, a, node), b, node), a, node)
    pa, pb = present(cx, a, node), present(cx, b, node)
    same = if_present(cx, _and(cx, pa, pb, loc), lambda: cx.compare(
        ast.Eq(), value_of(cx, a, node), value_of(cx, b, node), node), a, node)
    both_none = _and(cx, _not(cx, pa, loc), _not(cx, pb, loc), loc)
    return _or(cx, both_none, same, loc)


def if_present(cx, present: Value, test, v: Value, node) -> Value:
    """`present and test()` for optional `v`: where its value is a reference (a list, a
    dict, an instance: NULL when absent), `test` runs only where `present` holds."""
    if isinstance(present, Const):
        return test() if present.value else Const(False, T.BOOL)
    if isinstance(v.type.value, (T.ListType, T.HashType, T.ClassType)):
        return cx.choose(present, test, lambda: Const(False, T.BOOL), node)
    return _and(cx, present, test(), cx.loc(node))


def _not(cx, v: Value, loc) -> Value:
    return Const(not v.value, T.BOOL) if isinstance(v, Const) else cx.emit("not", [v], T.BOOL, None, loc)


def _and(cx, x: Value, y: Value, loc) -> Value:
    if isinstance(x, Const):
        return y if x.value else x
    if isinstance(y, Const):
        return x if y.value else y
    return cx.emit("and", [x, y], T.BOOL, None, loc)


def _or(cx, x: Value, y: Value, loc) -> Value:
    if isinstance(x, Const):
        return x if x.value else y
    if isinstance(y, Const):
        return y if y.value else x
    return cx.emit("or", [x, y], T.BOOL, None, loc)

# ---- narrowing ------------------------------------------------------------------------


def optional_facts(cx, test) -> tuple[list, list]:
    """`test_facts(test)`, keeping only names read as optionals in this function (the
    others need no narrowing, and a branch built for none would change the IR)."""
    seen = cx.optional_names
    yes, no = test_facts(test)
    return [f for f in yes if f[0] in seen], [f for f in no if f[0] in seen]


def narrow(cx, facts) -> None:
    """Write `facts` ((name, present) pairs, `test_facts`) into the current block: each
    optional local named becomes its value, or None."""
    if cx.block is None or cx.is_dead():
        return
    for name, present in facts:
        var = cx.comprehension_var(name)      # (`[s.upper() for s in xs if s is not None]`)
        if var is None and name not in cx.optional_names:
            continue
        v = cx.read(var or name)
        if not is_optional(v) or isinstance(v.type, Unknown):
            continue
        cx.write(var or name, value_of(cx, v) if present else Const(None, T.NONE))


def _parts(v: Value):
    """The (present, value) operands of an optional built in this function, else None."""
    if getattr(v, "opname", None) == "tuple" and isinstance(v.type, T.OptionalType):
        return v.operands
    return None
