"""Makes IR that came from outside this process memory-safe: `make_memory_safe(module)`.

The frontend proves what the op table (ops.py) leaves as preconditions: an index in bounds
before a `load`, a nonzero divisor before `floordiv`, a slice normalized before a `view`.
IR parsed from text (a saved module compiled from its IR, a kernel's IR made for another
architecture: whatever `loadpath.parse_ir` reads to compile) carries no such proof: the verifier checks types, not values, so
``load %a, 1000000000000`` verifies and reads far outside the array. This pass restores the
preconditions for every op in `RULES` (the table covers every op of ops.OPS; a new op fails
the import until it is given a rule):

- ``free``: nothing to check. The op touches no memory outside its operands' objects, or
  the backend already checks what it needs (`str_new` tests its length, `convert` of a float
  to an int saturates unless a range check precedes it, reference counting is derived from
  SSA liveness, so no IR can release an object early), or the verifier's type rules suffice.
- a function: inserts `check` instructions before (or right after) the op, raising
  IndexError for an index out of bounds, ZeroDivisionError for a zero divisor, ValueError
  for a shape that does not fit, MemoryError for a list `list_new` could not make and
  AttributeError for a NULL list or str (an absent instance, a list slot never written).
  Frontend IR already holds the same conditions, so its checks are redundant and LLVM
  removes most of them; the answers are unchanged.
- ``refused``: the op cannot be made safe here, and IR holding it is a `LoadError`
  (`lapack` passes sizes and leading dimensions that only the routine's own rules bound;
  `str_set` other than into a string `str_new` made in the same function would write an
  immutable or shared string).

Does: inserts checks; never removes or reorders an instruction. Assumes: verified IR.
Preserves: the verifier's invariants (the result is verified again before it is returned).
"""

from __future__ import annotations

from script.errors import LoadError
from script.ir import types as T
from script.ir.core import Block, Const, Function, Instr, Module, Value
from script.ir.ops import OPS, ExcInfo

__all__ = ["make_memory_safe", "RULES"]

I64_MAX = (1 << 63) - 1
# A str's code points (chr's range), as `str_char` and `str_set` require.
MAX_CODE_POINT = 0x10FFFF


class _At:
    """Inserts instructions into `block` before position `index` (kept pointing at the op
    being guarded, so checks come in the order they are made)."""

    def __init__(self, block: Block, index: int, loc):
        self.block, self.index, self.loc = block, index, loc

    def emit(self, op: str, operands, type_: T.Type = T.NONE, attr=None) -> Instr:
        i = self.block.insert(self.index, Instr(op, operands, type_, attr, self.loc))
        self.index += 1
        return i

    def cmp(self, pred: str, a: Value, b) -> Instr:
        return self.emit("cmp", [a, b if isinstance(b, Value) else Const(b, a.type)], T.BOOL, pred)

    def any_of(self, conds: list) -> Value:
        out = conds[0]
        for c in conds[1:]:
            out = self.emit("or", [out, c], T.BOOL)
        return out

    def check(self, bad: Value, exc: str, message: str) -> None:
        self.emit("check", [bad], T.NONE, ExcInfo(exc, message))

    def out_of(self, i: Value, n: Value) -> Value:
        """Whether index `i` is outside ``0 <= i < n``."""
        return self.emit("or", [self.cmp("lt", i, 0), self.cmp("ge", i, n)], T.BOOL)


def _pointer(t: T.Type) -> bool:
    """Whether a value of type `t` is a pointer that may be NULL: a list (or class instance,
    dict index, ...) or a str."""
    return isinstance(t, (T.ListType, T.TextType))


def _check_not_null(at: _At, v: Value) -> None:
    """AttributeError when `v`, a list or str, or any list or str inside tuple `v`, is NULL:
    a `list_null` (an absent instance), a slot of a list never written, or a `list_new` that
    had no memory. An optional's value is left alone (absent, it may be NULL); what reads it
    tests it then."""
    t = v.type
    if _pointer(t):
        what = t if isinstance(t, T.TextType) else "list"
        at.check(at.emit("is_null", [v], T.BOOL), "AttributeError", f"NULL {what} "
                 "in IR loaded from outside")
    elif isinstance(t, T.HashType):
        for k, e in enumerate(t.elems):
            _check_not_null(at, at.emit("extract", [v], e, k))
    elif isinstance(t, T.TupleType) and not isinstance(t, (T.OptionalType, T.UnionType)):
        for k, e in enumerate(t.elems):
            if _contains_pointer(e):
                _check_not_null(at, at.emit("extract", [v], e, k))


def _contains_pointer(t: T.Type) -> bool:
    if _pointer(t) or isinstance(t, T.HashType):
        return True
    return isinstance(t, T.TupleType) and not isinstance(t, (T.OptionalType, T.UnionType)) \
        and any(_contains_pointer(e) for e in t.elems)


# ---- the rules, one per op ------------------------------------------------------------------

def _indices(at: _At, a: Value, indices, what: str) -> None:
    for k, i in enumerate(indices):
        at.check(at.out_of(i, at.emit("dim", [a], T.I64, k)), "IndexError", f"{what} index out of range")


def _load(at: _At, i: Instr) -> None:
    _indices(at, i.operands[0], i.operands[1:], "array")


def _store(at: _At, i: Instr) -> None:
    _indices(at, i.operands[0], i.operands[2:], "array")


def _atomic(at: _At, i: Instr) -> None:
    nvals = 2 if i.attr == "cas" else 1
    _indices(at, i.operands[0], i.operands[1 + nvals:], "array")


def _divide(at: _At, i: Instr) -> None:
    d = i.operands[1]
    if isinstance(d.type, T.IntType) and not (isinstance(d, Const) and d.value != 0):
        at.check(at.cmp("eq", d, 0), "ZeroDivisionError", "integer division or modulo by zero")


def _view(at: _At, i: Instr) -> None:
    """Each ``i`` axis: its index in bounds. Each ``s`` axis (start, length, step): a
    length >= 0, and when it is > 0 a start in bounds and a last element ``start + (length -
    1) * step`` in bounds, tested without overflow as ``length - 1 <= room // |step|``
    (room: the elements from start to the end the step walks toward; a step of 0 names the
    start only; |step| is capped at I64_MAX so that negating it cannot wrap)."""
    a, ops = i.operands[0], iter(i.operands[1:])
    axis = 0
    for c in i.attr:
        if c == "n":
            continue
        n = at.emit("dim", [a], T.I64, axis)
        axis += 1
        if c == "i":
            at.check(at.out_of(next(ops), n), "IndexError", "array index out of range")
            continue
        start, length, step = next(ops), next(ops), next(ops)
        forward = at.cmp("gt", step, 0)
        back = at.emit("neg", [at.emit("max", [step, Const(-I64_MAX, T.I64)], T.I64)], T.I64)
        size = at.emit("select", [forward, step, at.emit("max", [back, Const(1, T.I64)], T.I64)], T.I64)
        room = at.emit("select", [forward, at.emit("sub", [at.emit("sub", [n, start], T.I64), Const(1, T.I64)], T.I64),
                                  start], T.I64)
        last = at.emit("sub", [length, Const(1, T.I64)], T.I64)
        beyond = at.emit("and", [at.cmp("ne", step, 0),
                                 at.cmp("gt", last, at.emit("floordiv", [room, size], T.I64))], T.BOOL)
        wrong = at.emit("and", [at.cmp("gt", length, 0), at.any_of([at.out_of(start, n), beyond])], T.BOOL)
        at.check(at.any_of([at.cmp("lt", length, 0), wrong]), "IndexError", "slice out of range")


def _fits(at: _At, lengths, limit: Value) -> tuple[Value, Value]:
    """(bad, product): bad when a length is negative or the product of `lengths` exceeds
    `limit` (>= 0), tested by division so that nothing wraps (once a length is 0 the product
    is 0 whatever follows); product is exact when not bad."""
    if not lengths:
        return Const(False, T.BOOL), Const(1, T.I64)
    negative, over, product = [], [], Const(1, T.I64)
    for n in lengths:
        negative.append(at.cmp("lt", n, 0))
        over.append(at.cmp("gt", product, at.emit("floordiv", [limit, at.emit("max", [n, Const(1, T.I64)], T.I64)],
                                                   T.I64)))
        product = at.emit("mul", [product, n], T.I64)
    empty = at.any_of([at.cmp("eq", n, 0) for n in lengths])
    overflow = at.emit("and", [at.any_of(over), at.emit("not", [empty], T.BOOL)], T.BOOL)
    return at.emit("or", [at.any_of(negative), overflow], T.BOOL), product


def _itemsize(t: T.Type) -> int:
    if t == T.BOOL:
        return 1
    if isinstance(t, T.ComplexType):
        return 2 * t.part.bits // 8
    return t.bits // 8


def _alloc(at: _At, i: Instr) -> None:
    limit = Const(I64_MAX // _itemsize(i.type.dtype), T.I64)
    bad, _ = _fits(at, list(i.operands), limit)
    at.check(bad, "ValueError", "array dimensions out of range")


def _reshape(at: _At, i: Instr) -> None:
    """The source C-contiguous at run time (NumPy's rule: every axis of length > 1 has the
    stride the axes after it give, or some length is 0) and the new lengths, each >= 0,
    multiplying to its size. With strides (`_restride`): the bytes the view spans inside
    those the source spans."""
    if len(i.operands) != 1 + i.type.ndim:
        _restride(at, i)
        return
    a, lengths = i.operands[0], list(i.operands[1:])
    src = a.type
    expected: Value = Const(_itemsize(src.dtype), T.I64)
    ragged, size, empty = [], Const(1, T.I64), []
    for k in reversed(range(src.ndim)):
        n = at.emit("dim", [a], T.I64, k)
        s = at.emit("stride", [a], T.I64, k)
        ragged.append(at.emit("and", [at.cmp("ne", n, 1), at.cmp("ne", s, expected)], T.BOOL))
        empty.append(at.cmp("eq", n, 0))
        expected = at.emit("mul", [expected, n], T.I64)
        size = at.emit("mul", [size, n], T.I64)
    if ragged:
        at.check(at.emit("and", [at.any_of(ragged), at.emit("not", [at.any_of(empty)], T.BOOL)], T.BOOL),
                 "ValueError", "reshape of an array that is not C-contiguous")
    bad, product = _fits(at, lengths, size)
    at.check(at.any_of([bad, at.cmp("ne", product, size)]), "ValueError", "reshape to a different size")


def _reach(at: _At, lengths, strides) -> tuple[Value, Value, Value]:
    """(forward, back, empty): the bytes from the first element to the farthest element
    after it and before it of the array of those lengths and strides (each term ``(n - 1) *
    |stride|`` summed as it is), and whether some length is 0. Only for lengths and strides
    of an array that exists: the sums cannot wrap."""
    forward, back = Const(0, T.I64), Const(0, T.I64)
    empty = []
    for n, s in zip(lengths, strides):
        empty.append(at.cmp("eq", n, 0))
        term = at.emit("mul", [at.emit("max", [at.emit("sub", [n, Const(1, T.I64)], T.I64), Const(0, T.I64)], T.I64),
                               s], T.I64)
        up = at.cmp("gt", s, 0)
        forward = at.emit("add", [forward, at.emit("select", [up, term, Const(0, T.I64)], T.I64)], T.I64)
        back = at.emit("sub", [back, at.emit("select", [up, Const(0, T.I64), term], T.I64)], T.I64)
    return forward, back, at.any_of(empty) if empty else Const(False, T.BOOL)


def _restride(at: _At, i: Instr) -> None:
    """A view of %a's memory from its first element: lengths >= 0, and unless the view is
    empty, the source not empty and the view's bytes (its farthest element each way, with
    each ``(n - 1) * |stride|`` tested by division before it is added, so nothing wraps)
    within the source's."""
    a = i.operands[0]
    n = i.type.ndim
    lengths, strides = i.operands[1:1 + n], i.operands[1 + n:]
    src = [at.emit("dim", [a], T.I64, k) for k in range(a.type.ndim)]
    forward, back, src_empty = _reach(at, src, [at.emit("stride", [a], T.I64, k) for k in range(a.type.ndim)])
    bad = [at.cmp("lt", d, 0) for d in lengths]
    empty = at.any_of([at.cmp("eq", d, 0) for d in lengths]) if lengths else Const(False, T.BOOL)
    wide = []
    room_up, room_down = forward, back
    for d, s in zip(lengths, strides):
        size = at.emit("max", [at.emit("neg", [at.emit("max", [s, Const(-I64_MAX, T.I64)], T.I64)], T.I64), s],
                       T.I64)
        up = at.cmp("gt", s, 0)
        room = at.emit("select", [up, room_up, room_down], T.I64)
        last = at.emit("sub", [d, Const(1, T.I64)], T.I64)
        over = at.emit("and", [at.cmp("ne", s, 0), at.cmp("gt", last, at.emit(
            "floordiv", [room, at.emit("max", [size, Const(1, T.I64)], T.I64)], T.I64))], T.BOOL)
        wide.append(over)
        span = at.emit("mul", [at.emit("max", [last, Const(0, T.I64)], T.I64), size], T.I64)
        span = at.emit("select", [over, Const(0, T.I64), span], T.I64)
        room_up = at.emit("select", [up, at.emit("sub", [room_up, span], T.I64), room_up], T.I64)
        room_down = at.emit("select", [up, room_down, at.emit("sub", [room_down, span], T.I64)], T.I64)
    outside = at.emit("or", [at.any_of(wide) if wide else Const(False, T.BOOL), src_empty], T.BOOL)
    bad.append(at.emit("and", [at.emit("not", [empty], T.BOOL), outside], T.BOOL))
    at.check(at.any_of(bad) if bad else Const(False, T.BOOL), "ValueError",
             "reshape to strides outside the array")


def _gemm(at: _At, i: Instr) -> None:
    c, a, b = i.operands
    pairs = [(a, 0, c, 0), (a, 1, b, 0)] + ([(b, 1, c, 1)] if c.type.ndim == 2 else [])
    bad = [at.cmp("ne", at.emit("dim", [x], T.I64, j), at.emit("dim", [y], T.I64, k)) for x, j, y, k in pairs]
    at.check(at.any_of(bad), "ValueError", "matmul of arrays whose shapes do not match")


def _list_len(at: _At, i: Instr) -> None:
    _check_not_null(at, i.operands[0])


def _list_item(at: _At, i: Instr) -> None:
    lst, index = i.operands[0], i.operands[-1]
    _check_not_null(at, lst)
    at.check(at.out_of(index, at.emit("list_len", [lst], T.I64)), "IndexError", "list index out of range")


def _list_new(at: _At, i: Instr) -> None:
    at.index += 1           # after it: NULL when there was no memory (lists.py)
    at.check(at.emit("is_null", [i], T.BOOL), "MemoryError", None)


def _list_resize(at: _At, i: Instr) -> None:
    at.check(at.cmp("lt", i.operands[1], 0), "ValueError", "negative list length")


def _strs_not_null(at: _At, i: Instr) -> None:
    for v in i.operands:
        if _contains_pointer(v.type):
            _check_not_null(at, v)


def _code_point(at: _At, c: Value) -> None:
    at.check(at.emit("or", [at.cmp("lt", c, 0), at.cmp("gt", c, MAX_CODE_POINT)], T.BOOL),
             "ValueError", "chr() arg not in range(0x110000)")


def _str_char(at: _At, i: Instr) -> None:
    _code_point(at, i.operands[0])


def _str_get(at: _At, i: Instr) -> None:
    s, index = i.operands
    _check_not_null(at, s)
    at.check(at.out_of(index, at.emit("str_len", [s], T.I64)), "IndexError", "string index out of range")


def _str_set(at: _At, i: Instr) -> None:
    s, code, index = i.operands
    if not (isinstance(s, Instr) and s.opname == "str_new" and s.block.func is i.block.func):
        raise LoadError(f"str_set of a string not made by str_new in @{i.block.func.name}: "
                        "IR from outside may write only strings it is making")
    _code_point(at, code)
    at.check(at.out_of(index, at.emit("str_len", [s], T.I64)), "IndexError", "string index out of range")


def _refused(reason: str):
    def rule(at: _At, i: Instr) -> None:
        raise LoadError(f"{i.opname} in @{i.block.func.name}: {reason}; IR from outside may not hold it")
    return rule


RULES = {
    **dict.fromkeys(("add", "acc", "sub", "mul", "div", "pow", "and", "or", "xor", "shl", "shr", "min", "max",
                     "neg", "invert", "not", "abs", "cmp", "convert", "select", "tuple", "extract",
                     "complex", "math", "call", "poll", "ovf", "dim", "stride", "transpose", "part", "overlap",
                     "const_array", "list_null", "list_same", "list_id", "is_null", "str_const", "str_new", "sreg",
                     "barrier", "shared", "rng_state", "br", "cbr", "ret", "raise", "raised", "catch", "exc_match",
                     "reraise"), "free"),
    "floordiv": _divide, "mod": _divide,
    "load": _load, "store": _store, "atomic": _atomic, "view": _view, "reshape": _reshape,
    "alloc": _alloc, "gemm": _gemm,
    "lapack": _refused("LAPACK's sizes and leading dimensions are bounded only by its own rules"),
    "list_new": _list_new, "list_len": _list_len, "list_get": _list_item, "list_set": _list_item,
    "list_resize": _list_resize,
    "str_len": _strs_not_null, "str_eq": _strs_not_null, "str_concat": _strs_not_null,
    "str_py": _strs_not_null, "hash": _strs_not_null, "pyhash": _strs_not_null, "check": _strs_not_null,
    "exception": _strs_not_null, "print": _strs_not_null,
    "str_char": _str_char, "str_get": _str_get, "str_set": _str_set,
}
assert set(RULES) == set(OPS), f"ops without a safety rule: {set(OPS) ^ set(RULES)}"


def make_memory_safe(module: Module) -> Module:
    """Guard every op of `module` (IR from outside this process) by `RULES`, in place, and
    verify the result; returns `module`. `LoadError` for an op IR from outside may not hold."""
    from script.ir.verifier import verify_module
    for f in module.functions.values():
        _guard_function(f)
    verify_module(module, after="make_memory_safe")
    return module


def _guard_function(f: Function) -> None:
    for block in list(f.blocks):
        for i in list(block.instrs):
            rule = RULES[i.opname]
            if rule != "free":
                rule(_At(block, block.instrs.index(i), i.loc), i)
