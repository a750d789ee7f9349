"""The CPython side of a comparison: the program run by CPython with its int arithmetic
watched, so that a result that depends on unbounded ints is discarded rather than reported.

`instrument(source)` rewrites the program's `ast`:

- every arithmetic operation, unary operation and call becomes `_R(...)`, which raises
  `Discard` when an int leaves int64 (compiled code wraps there: a documented difference)
  and `ComplexResult` when a value is complex (a negative float to a fractional power:
  compiled code raises ValueError, also documented);
- `x op= e` on a name becomes `x = _aug("op", x, e)`: `x = _R(x op e)` for a scalar, NumPy's
  in-place operation for an array (which it changes, keeping its dtype); `t[k] op= e` becomes
  `_aug_item("op", t, k, lambda: e)`, the same steps in the same order, with `_R` of a list's
  or dict's new item;
- `t **= e` (any target) becomes `t **= _before_in_place(e)` followed by `_after_in_place()`:
  the argument arrays (`watch_arguments`) are copied once `e` is computed, just before the
  in-place power runs, so that an error part way through it can be judged against the arrays
  as that statement found them (`arrays_before_part_way`, runner.py PART_WAY_ERROR);
- `int ** e` with a non-literal exponent checks that `e` is not negative (compiled code
  raises ValueError there, with its own message; CPython gives a float, NumPy's int scalars
  and 0-d arrays another ValueError);
- comparisons of an int beyond 2**53 (where compiled code, as NumPy for an array's
  element, may round the int to a float first) are discarded too.

The rewritten program computes the same values and raises the same exceptions in the same
order as the original; only these markers are new.
"""

from __future__ import annotations

import ast
import operator

import numpy as np

INT64_MIN, INT64_MAX = -2**63, 2**63 - 1
EXACT = 2**53


_RAISED: list = []


class _Marker(BaseException):
    """Raised where the reference stops being a CPython answer for compiled code. Each one
    is recorded (`raised_marker`): a `finally:` that raises or returns swallows it, and the
    run would then end as if nothing had happened, with the program's later effects."""

    def __init__(self, *args):
        super().__init__(*args)
        _RAISED.append(type(self))


class Discard(_Marker):
    """The result depends on arithmetic beyond int64 (or int/float rounding beyond 2**53).
    Not an Exception: an `except Exception:` of the program must not catch it."""


class ComplexResult(_Marker):
    """CPython made a complex number, where compiled code raises ValueError (not an
    Exception, as Discard)."""


def raised_marker() -> type | None:
    """The first Discard or ComplexResult raised since `watch_arguments`, caught or not."""
    return _RAISED[0] if _RAISED else None


def _R(v):
    t = type(v)
    if t is int:
        if not INT64_MIN <= v <= INT64_MAX:
            raise Discard(f"int {v} beyond int64")
    elif t is complex:
        raise ComplexResult()
    elif t is tuple:
        for x in v:
            _R(x)
    return v


def _int_scalar(v) -> bool:
    """An int as compiled code sees it: Python's, NumPy's scalars, a 0-d int array (what
    `np.where` of scalars gives, a scalar when compiled)."""
    if type(v) in (int, bool) or isinstance(v, (np.integer, np.bool_)):
        return True
    return isinstance(v, np.ndarray) and v.ndim == 0 and v.dtype.kind in "biu"


def _pow(a, b, literal: bool = False):
    if not literal and _int_scalar(a) and _int_scalar(b) and b < 0:
        raise Discard("int ** negative int")
    try:
        return _R(a ** b)
    except OverflowError as e:
        if "complex" in str(e):        # a complex result too big: compiled code raises ValueError
            raise ComplexResult() from None
        raise


def _shl(a, b):
    if type(a) is int and type(b) is int and b >= 64 and a != 0:
        raise Discard("shift beyond int64")       # (and 1 << 2**31 would not fit in memory)
    return _R(a << b)


def _V(v):
    if type(v) is int and abs(v) > EXACT:
        raise Discard("comparison of an int beyond 2**53")
    return v


_BINARY = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv",
           ast.FloorDiv: "floordiv", ast.Mod: "mod", ast.Pow: "pow", ast.LShift: "lshift",
           ast.RShift: "rshift", ast.BitAnd: "and_", ast.BitOr: "or_", ast.BitXor: "xor",
           ast.MatMult: "matmul"}


def _aug_item(op: str, obj, key, value):
    """`obj[key] op= value()` as CPython runs it (the item read, then the operand computed,
    the in-place operator, the store), with an int result beyond int64 in a list or dict
    discarded as `_R` does (compiled code raises OverflowError there)."""
    item = obj[key]
    result = getattr(operator, "i" + op.rstrip("_"))(item, value())
    if isinstance(obj, (list, dict)):
        _R(result)
    obj[key] = result


def _aug(op: str, a, b):
    if isinstance(a, np.ndarray):
        return getattr(operator, "i" + op.rstrip("_"))(a, b)
    if op == "pow":
        return _pow(a, b)
    if op == "lshift":
        return _shl(a, b)
    return _R(getattr(operator, op)(a, b))


_PART_WAY = {"args": (), "before": None}


def watch_arguments(args) -> None:
    """Watch the argument arrays `args` of the next reference call (see _before_in_place),
    and forget the markers raised before it."""
    _PART_WAY["args"], _PART_WAY["before"] = args, None
    _RAISED.clear()


def arrays_before_part_way() -> list | None:
    """The argument arrays just before the in-place power that raised, if one did."""
    return _PART_WAY["before"]


def _before_in_place(v):
    _PART_WAY["before"] = [a.copy() for a in _PART_WAY["args"] if isinstance(a, np.ndarray)]
    return v


def _after_in_place() -> None:
    _PART_WAY["before"] = None


HELPERS = {"_aug": _aug, "_aug_item": _aug_item, "_R": _R, "_pow": _pow, "_shl": _shl, "_V": _V,
           "_before_in_place": _before_in_place, "_after_in_place": _after_in_place}


def _is_literal(node) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant)


def _helper(name: str, *args) -> ast.Call:
    return ast.Call(ast.Name(name, ast.Load()), list(args), [])


def _watched(node: ast.BinOp) -> ast.Call:
    if isinstance(node.op, ast.Pow):
        return _helper("_pow", node.left, node.right, ast.Constant(_is_literal(node.right)))
    if isinstance(node.op, ast.LShift):
        return _helper("_shl", node.left, node.right)
    return _helper("_R", node)


def _key(node):
    """A subscript's index as an expression (`a[1:, 2]`: `(slice(1, None, None), 2)`)."""
    if isinstance(node, ast.Slice):
        parts = [p if p is not None else ast.Constant(None) for p in (node.lower, node.upper, node.step)]
        return ast.Call(ast.Name("slice", ast.Load()), parts, [])
    if isinstance(node, ast.Tuple):
        return ast.Tuple([_key(e) for e in node.elts], ast.Load())
    return node


class _Watch(ast.NodeTransformer):
    def visit_BinOp(self, node):
        self.generic_visit(node)
        return _watched(node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not) or _is_literal(node):
            return node
        return _helper("_R", node)

    def visit_Call(self, node):
        self.generic_visit(node)
        return _helper("_R", node)

    def visit_Compare(self, node):
        self.generic_visit(node)
        node.left = _helper("_V", node.left)
        node.comparators = [c if isinstance(c, ast.Tuple) else _helper("_V", c) for c in node.comparators]
        return node

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Pow):
            node.value = _helper("_before_in_place", node.value)
            return [self._in_place(node), ast.Expr(_helper("_after_in_place"))]
        return self._in_place(node)

    @staticmethod
    def _in_place(node):
        if isinstance(node.target, ast.Subscript) and not isinstance(node.op, ast.Pow):
            thunk = ast.Lambda(ast.arguments([], [], None, [], [], None, []), node.value)
            return ast.Expr(_helper("_aug_item", ast.Constant(_BINARY[type(node.op)]), node.target.value,
                                    _key(node.target.slice), thunk))
        if not isinstance(node.target, ast.Name):
            return node
        load = ast.Name(node.target.id, ast.Load())
        value = _helper("_aug", ast.Constant(_BINARY[type(node.op)]), load, node.value)
        return ast.Assign([node.target], value)

    def visit_FunctionDef(self, node):
        if node.name == "inputs":
            return node
        self.generic_visit(node)
        return node


def instrument(source: str, filename: str = "<reference>") -> dict:
    """The namespace of the instrumented program (its functions and `inputs`)."""
    tree = _Watch().visit(ast.parse(source))
    ast.fix_missing_locations(tree)
    namespace = dict(HELPERS)
    namespace["__name__"] = "fuzz_reference"
    exec(compile(tree, filename, "exec"), namespace)
    return namespace
