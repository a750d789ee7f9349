"""Integer constants and constant expressions, computed exactly as Python does.

Compiled `int` is int64, but 64-bit hashing and PRNG code is written with masks such as
`0xFFFFFFFFFFFFFFFF`, `(1 << 64) - 1` and `x % 2**64`, whose values (or whose parts' values)
int64 cannot hold. So:

- A constant expression of ints (literals joined by `+ - * // % ** << >> & | ^` and unary
  `- + ~`) whose value, or a part's, is beyond int64 is computed here with Python's unbounded
  ints before it is lowered, never by the wrapping IR ops: `2**64` is never a silent 0. (One
  that stays within int64 is lowered as it always was: `np.ones((0 - 1,))` still raises
  NumPy's ValueError at run time.)
- A result in int64's range is an `i64` constant (strong, as the IR ops it replaces gave:
  `x * 2**10` of an `i32` x stays `i64`); one in [2**63, 2**64) is a `u64` constant; any
  other value is a CompileError naming the expression and its value.
- `x % 2**64` (`x % (1 << 64)`) of an int `x` is `x` taken as u64: Python's result exactly;
  `x + 2**64` is also `x` as u64 and `x - 2**64` is `x` as i64 (lower_expr.modulo_2_64).

An int meeting a u64 computes in u64 (`takes_u64`, used by lower_expr.binop and divmod), a
variable merging the two is a u64 (`types.unify`), and the two compare by value
(lower_expr.int_value_compare). The int is taken as its two's complement, which is Python's
result for `&` with a non-negative operand and for `+ - * ^ | <<` whenever the result is
masked to 64 bits. docs/integers.md is the user's account, with what does not work.
"""

from __future__ import annotations

import ast
import operator

from script.ir import types as T
from script.ir.core import Const

TWO_64 = 1 << 64
_BIG_EXPONENT = 4096        # beyond this a constant `**` or `<<` is not computed (it cannot fit)

_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
           ast.LShift: operator.lshift, ast.RShift: operator.rshift,
           ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.BitXor: operator.xor}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert}

RANGE_TEXT = "compiled ints are int64, and constants from 2**63 to 2**64 - 1 are u64"


def exact_int(node: ast.expr) -> int | None:
    """The value of `node` if it is an int constant expression that Python computes without
    an exception or a float, else None (the caller lowers it as usual, and a division by zero
    or a negative shift raises at run time as before). Bools are not ints here."""
    return exact_int_beyond(node)[0]


def exact_int_beyond(node: ast.expr) -> tuple[int | None, bool]:
    """`exact_int` and whether it, or a part of it, is beyond int64: only then does the
    expression need computing here (otherwise int64's ops give the same value, and it is
    lowered as it always was, its checks at run time)."""
    if isinstance(node, ast.Constant):
        v = node.value
        if not isinstance(v, int) or isinstance(v, bool):
            return None, False
        return v, not T.I64.min <= v <= T.I64.max
    if isinstance(node, ast.UnaryOp):
        fn = _UNARY.get(type(node.op))
        v, beyond = exact_int_beyond(node.operand) if fn is not None else (None, False)
        return (None, False) if v is None else _result(fn(v), beyond)
    if not isinstance(node, ast.BinOp):
        return None, False
    fn = _BINARY.get(type(node.op))
    if fn is None:
        return None, False
    a, beyond_a = exact_int_beyond(node.left)
    if a is None:
        return None, False
    b, beyond_b = exact_int_beyond(node.right)
    if b is None:
        return None, False
    beyond = beyond_a or beyond_b
    if isinstance(node.op, (ast.FloorDiv, ast.Mod)) and b == 0:
        return None, False
    if isinstance(node.op, (ast.Pow, ast.LShift, ast.RShift)) and b < 0:
        return None, False          # a float (`**`) or a ValueError (shifts), as before
    if isinstance(node.op, ast.Pow) and abs(a) > 1 and b > _BIG_EXPONENT:
        return TWO_64 * abs(a), True        # far beyond 64 bits: reported as too large
    if isinstance(node.op, ast.LShift) and a != 0 and b > _BIG_EXPONENT:
        return TWO_64 * abs(a), True
    return _result(fn(a, b), beyond)


def _result(v: int, beyond: bool) -> tuple[int, bool]:
    return v, beyond or not T.I64.min <= v <= T.I64.max


_CHECKED_LIBRARY: set = set()


def checks_int64(*functions) -> None:
    """Marks functions of the compiled library whose int arithmetic is the user's
    (`math.comb`, `math.lcm`, ...): checked as user code is (`is_checked`)."""
    _CHECKED_LIBRARY.update(f.__code__ for f in functions)


def is_checked(py_func) -> bool:
    """Whether the int arithmetic of `py_func` raises OverflowError rather than wrapping:
    user code always; the compiled library (the modules of script.frontend written in the
    subset) only where `checks_int64` says. The library is written against int64 on purpose
    (two 32-bit words joined into an int64's bits, FNV hashes of strings, NumPy's uint64
    spans kept as int64 bits, probing arithmetic of its hash tables), and its tests compare
    it with CPython."""
    return not is_library(py_func) or py_func.__code__ in _CHECKED_LIBRARY


def is_library(py_func) -> bool:
    """Whether `py_func` is of the compiled library (a module of script.lib, or one of
    script.frontend written in the subset), whose code is written against compiled ints, not
    user code."""
    return (getattr(py_func, "__module__", None) or "").startswith(("script.lib.", "script.frontend."))


def overflow_text(node: ast.AST, line: int | None) -> str:
    """The message of the OverflowError an int64 operation raises where Python's int would
    not fit (the `ovf` checks: docs/integers.md). Run-time errors carry no traceback line of
    the user's code, so the message names the expression and its line."""
    text = ast.unparse(node)
    text = text if len(text) <= 60 else text[:57] + "..."
    where = f" (line {line})" if line is not None else ""
    return (f"integer overflow in '{text}'{where}: the result does not fit in 64 bits "
            "(compiled ints are int64; CPython would give a larger int)")


def fits_64(value: int) -> bool:
    """Whether a compiled constant can hold `value` (as i64, or as u64 from 2**63 on)."""
    return T.I64.min <= value < TWO_64


def int_constant(value: int, loc) -> Const:
    """`value` as a strong constant: i64 where it fits, else u64 (requires `fits_64`)."""
    return Const(value, T.I64 if value <= T.I64.max else T.U64, loc)


def is_int_u64_mix(a: T.Type, b: T.Type) -> bool:
    """Whether one of `a`, `b` is `int` (i64) and the other u64: Python ints meeting a
    64-bit unsigned value, which script computes in u64 where NumPy would go to float64."""
    return {a, b} == {T.I64, T.U64}


def takes_u64(a, b) -> bool:
    """Whether an operator (not `/`) on values `a` and `b` computes in u64: an int meeting a
    u64, or any signed int meeting a u64 literal beyond int64 (`x & 0xFFFFFFFFFFFFFFFF` of
    an i32 x; NumPy has no answer for that but an OverflowError)."""
    if is_int_u64_mix(a.type, b.type):
        return True
    for u, s in ((a, b), (b, a)):
        if isinstance(u, Const) and u.type == T.U64 and u.value > T.I64.max \
                and isinstance(s.type, T.IntType) and s.type.signed:
            return True
    return False


U64_MERGE_TEXT = ("a value that is an int on one path and a 64-bit unsigned int (a mask such as "
                  "0xFFFFFFFFFFFFFFFF) on another is held as unsigned, and this int is %lld: CPython "
                  "keeps the negative int (convert the unsigned one with int(...) where it is below 2**63)")


def check_int_as_u64(cx, v, node) -> None:
    """Where an int `v` becomes a u64 because a result meets one (`return x` beside
    `return h & MASK64`, a union's u64 alternative): OverflowError when it is negative,
    as where a variable merges them (ssa_builder `convert_in`)."""
    if v.type == T.I64:
        cx.raise_if(cx.cmp("lt", v, Const(0, T.I64), node), "OverflowError", U64_MERGE_TEXT, node, args=(v,))
