"""Checks the IR invariants every pass and backend relies on.

Invariants checked, for each function:

1. The function has at least one block; the entry block has no predecessors and its
   parameters match the function's parameter types.
2. Each block ends in exactly one terminator, and no terminator appears before the end.
3. Predecessors and successors agree: `b in s.preds` exactly as often as `s` is a successor
   of `b`; every successor belongs to the function.
4. Branch arguments match the target's block parameters in number and type; `succ_nargs`
   adds up to the terminator's operand count.
5. Each instruction's `block` is the block holding it; each block's `func` is the function.
6. Operand counts and types follow the op table (`ops.py`): binary ops take one type, `cmp`
   gives bool, `cbr`/`select`/`check` take a bool condition, `convert` goes between numeric
   types (or from an array to the same array of any layout), `extract` indexes a tuple in
   range, `dim`/`stride` name an axis of the array, `overlap` takes two arrays, `view`'s
   axes match its operands and result, `transpose` keeps the element type and rank,
   `part` views a complex array's real or imaginary parts,
   `load`/`store` take one i64 index per axis and `store` a value of the element type,
   `math` takes floats of one type with the function's arity, `call` passes the callee's
   parameter types and gives its return type, `ret` returns the function's return type.
   The list ops take a list and i64 indices and lengths (`list_set` a value of the element
   type). The string ops take strs, i64 indices and code points (`_check_str_op`). The CUDA ops: `sreg` gives i64, `shared` has constant lengths and gives a C array,
   `atomic` takes an int or float array, its element type and i64 indices. `rng_state`
   names a generator and gives a u32[::1] or f64[::1]. `poll` takes nothing or a bool.
   `ovf.K` takes i64 operands, two and the result for a binary K, one and the result for
   `neg` and `abs`.
   Exceptions: `exception` takes its message's values and gives an exc, `raised` comes
   right after a `call` or a `str_py` in its block, `catch` gives an exc, `exc_match` names a class of
   `MATCH_CLASSES` and takes an exc, `reraise` takes an exc.
   `lapack` names a routine of `LAPACK_ROUTINES` and takes one operand per letter of its
   argument list (i64 for ``c``/``i``, f64 for ``f``, f32 for ``r``, a C f64 array for ``d``,
   a C f32 array for ``s``, a C i64 array for ``n``), giving i64.
7. Each definition dominates its uses (in the same block: it comes earlier); every operand is
   a constant, a parameter of a block of this function, or an instruction of this function.
8. Use lists are exact: `v.uses` holds each user once per operand slot.

A failure is a compiler bug: `VerifyError` names the pass that ran last and prints the
function with the offending line marked.
"""

from __future__ import annotations

from collections import Counter

from script.errors import VerifyError
from script.ir import types as T
from script.ir.core import BlockParam, Const, Function, Instr, Module
from script.ir.dom import DomTree
from script.ir.ops import (ATOMIC_FUNCS, CMP_PREDS, COMPLEX_MATH, EXCEPTIONS, LAPACK_ROUTINES, MATCH_CLASSES, MATH_FUNCS,
                           RNG_STATES, SREGS, STR_PY, ArrayData,
                           message_operands, result_type)
from script.ir.printer import Namer, format_function, format_instr


class _Failure(Exception):
    def __init__(self, message, instr=None):
        super().__init__(message)
        self.instr = instr


def verify_module(module: Module, after: str = "frontend") -> None:
    for f in module.functions.values():
        verify_function(f, after)


def verify_function(func: Function, after: str = "frontend") -> None:
    try:
        _verify(func)
    except _Failure as e:
        text = format_function(func)
        if e.instr is not None and e.instr.block is not None:
            bad = format_instr(e.instr, Namer(func))
            text = text.replace(bad + "\n", bad + "      <<< here\n", 1)
        raise VerifyError(f"IR verification failed after {after} in @{func.name}: {e}\n{text}") from None


def _fail(message, instr=None):
    raise _Failure(message, instr)


def _verify(func: Function) -> None:
    if not func.blocks:
        _fail("function has no blocks")
    entry = func.entry
    if entry.preds:
        _fail("entry block has predecessors")
    blocks = set(func.blocks)
    defined = set()
    for b in func.blocks:
        if b.func is not func:
            _fail("block does not belong to this function")
        for p in b.params:
            defined.add(p)
        for i in b.instrs:
            defined.add(i)
    edge_count = Counter()
    for b in func.blocks:
        if not b.instrs or not b.instrs[-1].is_terminator:
            _fail(f"block bb{func.blocks.index(b)} does not end in a terminator",
                  b.instrs[-1] if b.instrs else None)
        for i in b.instrs[:-1]:
            if i.is_terminator:
                _fail("terminator before the end of a block", i)
        for i in b.instrs:
            if i.block is not b:
                _fail("instruction's block field is wrong", i)
            _check_instr(func, i, blocks)
        for s in b.terminator.succs:
            edge_count[(b, s)] += 1
    for s in func.blocks:
        for p, n in Counter(s.preds).items():
            if edge_count[(p, s)] != n:
                _fail(f"predecessor list of bb{func.blocks.index(s)} disagrees with the branches into it")
    for (b, s), n in edge_count.items():
        if Counter(s.preds)[b] != n:
            _fail(f"bb{func.blocks.index(s)} is missing predecessor bb{func.blocks.index(b)}")
    _check_uses(func, defined)
    _check_dominance(func)


def _check_uses(func: Function, defined: set) -> None:
    expected = Counter()
    for i in func.instructions():
        for v in i.operands:
            if isinstance(v, Const):
                continue
            if v not in defined:
                _fail("operand is not defined in this function", i)
            expected[(id(v), id(i))] += 1
    actual = Counter()
    for v in defined:
        for user in v.uses:
            if user.block is None or user.block.func is not func:
                _fail("use list holds an instruction outside the function", user)
            actual[(id(v), id(user))] += 1
    if actual != expected:
        _fail("use lists are out of date")


def _check_dominance(func: Function) -> None:
    dom = DomTree(func)
    position = {}
    for b in func.blocks:
        for k, i in enumerate(b.instrs):
            position[i] = k
    for b in dom.order:
        for k, i in enumerate(b.instrs):
            for v in i.operands:
                if isinstance(v, Const):
                    continue
                if isinstance(v, BlockParam):
                    if not dom.dominates(v.block, b):
                        _fail("use of a block parameter not dominated by its block", i)
                elif v.block is b:
                    if position[v] >= k:
                        _fail("use before definition in the same block", i)
                elif not dom.dominates(v.block, b):
                    _fail("definition does not dominate its use", i)


def _check_instr(func: Function, i: Instr, blocks: set) -> None:
    op = i.op
    name = op.name
    types = [v.type for v in i.operands]
    if op.nargs is not None and len(types) != op.nargs:
        _fail(f"{name} takes {op.nargs} operands, has {len(types)}", i)
    if name in ("br", "cbr"):
        _check_branch(i, types, blocks)
        return
    if name == "poll" and types not in ([], [T.BOOL]):
        _fail(f"poll of {', '.join(map(str, types))}: takes nothing or a bool", i)
    if name == "ret":
        want = [] if isinstance(func.ret_type, T.NoneType) else [func.ret_type]
        if types != want and not (types == [T.NONE] and not want):
            _fail(f"ret of {types} in a function returning {func.ret_type}", i)
        return
    if op.attr == "exc":
        _check_exc(i, types, name)
        if name == "exception" and i.type != T.EXC:
            _fail(f"exception gives exc, instruction says {i.type}", i)
        return
    if name in ("raised", "catch", "exc_match", "reraise"):
        _check_caught(i, name, types)
        return
    if name == "print":
        if not isinstance(i.attr, str):
            _fail("print needs its text", i)
        _check_message_operands(i, i.attr, types)
        return
    if any(isinstance(t, T.ComplexType) for t in types) and name not in _COMPLEX_OPS:
        _fail(f"{name} of a complex number", i)
    if name == "cmp":
        if i.attr not in CMP_PREDS:
            _fail(f"unknown comparison {i.attr}", i)
        if types[0] != types[1] or not types[0].is_numeric():
            _fail(f"cmp of {types[0]} and {types[1]}", i)
        if isinstance(types[0], T.ComplexType) and i.attr not in ("eq", "ne"):
            _fail(f"cmp.{i.attr} of complex numbers", i)
    elif name == "convert":
        if isinstance(types[0], T.ArrayType):
            if not T.is_convertible(types[0], i.type):
                _fail(f"convert from {types[0]} to {i.type}", i)
            return
        if not (types[0].is_numeric() and i.type.is_numeric()) \
                or isinstance(types[0], T.ComplexType) and not isinstance(i.type, T.ComplexType):
            _fail(f"convert from {types[0]} to {i.type}", i)
        return
    elif name == "select":
        if types[0] != T.BOOL or types[1] != types[2]:
            _fail(f"select({types[0]}, {types[1]}, {types[2]})", i)
    elif name == "math":
        arity = MATH_FUNCS.get(i.attr, (None,))[0]
        if arity is None:
            _fail(f"unknown math function {i.attr}", i)
        complex_ok = len(types) == 1 and isinstance(types[0], T.ComplexType) and i.attr in COMPLEX_MATH
        if not complex_ok and (len(types) != arity or not all(isinstance(t, T.FloatType) and t == types[0]
                                                              for t in types)):
            _fail(f"math.{i.attr} of {types}", i)
    elif name == "call":
        callee = i.attr
        if not isinstance(callee, Function):
            _fail("call without a callee", i)
        if types != callee.param_types:
            _fail(f"call of @{callee.name} with {types}, expects {callee.param_types}", i)
    elif name in ("tuple", "extract"):
        pass
    elif name in ("hash", "pyhash"):
        if not T.is_key_type(types[0]):
            _fail(f"hash of {types[0]}: takes a bool, int, float or a tuple of them", i)
    elif name == "view":
        _check_view(i, types)
        return
    elif name == "overlap":
        if not all(isinstance(t, T.ArrayType) for t in types):
            _fail(f"overlap of {', '.join(map(str, types))}, not arrays", i)
        return
    elif name == "part":
        a = types[0]
        if not isinstance(a, T.ArrayType) or not isinstance(a.dtype, T.ComplexType) or i.attr not in (0, 1) \
                or i.type != T.ArrayType(a.dtype.part, a.ndim, "A"):
            _fail(f"part.{i.attr} of {a} gives {i.type}", i)
        return
    elif name == "transpose":
        a = types[0]
        if not isinstance(a, T.ArrayType) or i.type != a.with_layout("A"):
            _fail(f"transpose of {a} gives {i.type}", i)
        return
    elif name == "reshape":
        a, t = types[0] if types else None, i.type
        if not isinstance(a, T.ArrayType) or not isinstance(t, T.ArrayType) or t.layout != "C" \
                or t.dtype != a.dtype or len(types) != 1 + t.ndim or any(x != T.I64 for x in types[1:]):
            _fail(f"reshape of {a} to {t} takes one i64 length per axis of a C array of the same dtype", i)
        return
    elif name == "alloc":
        t = i.type
        if not isinstance(t, T.ArrayType) or t.layout != "C" or len(types) != t.ndim \
                or any(x != T.I64 for x in types):
            _fail(f"alloc of {t} takes one i64 length per axis and gives a C array", i)
        return
    elif name == "gemm":
        c, a, b = types
        if not all(isinstance(x, T.ArrayType) and x.dtype == c.dtype for x in (c, a, b)) \
                or c.layout != "C" or (b.ndim == 1 and b.layout != "C") \
                or c.dtype not in (T.F32, T.F64) or a.ndim != 2 or b.ndim != c.ndim or c.ndim not in (1, 2):
            _fail(f"gemm of {a} and {b} into {c} takes arrays of one float dtype, a 2-d, C a C array "
                  "(and B when it is 1-d)", i)
        return
    elif name == "lapack":
        _check_lapack(i, types)
        return
    elif name == "const_array":
        t, data = i.type, i.attr
        if not isinstance(t, T.ArrayType) or t.layout != "C" or not isinstance(data, ArrayData) \
                or len(data.shape) != t.ndim:
            _fail(f"const_array gives a C array of as many axes as its data has: {t}", i)
        size = 1
        for n in data.shape:
            size *= n
        if len(data.data) != size * (1 if t.dtype == T.BOOL else t.dtype.bits // 8):
            _fail(f"const_array of {t} with shape {data.shape} holds {len(data.data)} bytes", i)
        return
    elif name == "is_null":
        if not isinstance(types[0], (T.ListType, T.StrType)):
            _fail(f"is_null of a {types[0]}, not a list or str", i)
    elif name.startswith("list_"):
        _check_list_op(i, name, types)
        return
    elif name.startswith("str_"):
        _check_str_op(i, name, types)
        return
    elif name in ("sreg", "barrier", "shared", "atomic"):
        _check_kernel_op(i, name, types)
        return
    elif name == "rng_state":
        if i.attr not in RNG_STATES or i.type not in _RNG_VIEWS:
            _fail(f"rng_state.{i.attr} : {i.type}", i)
        return
    elif name in ("dim", "stride", "load", "store"):
        _check_array_op(i, name, types)
        if name == "store":
            return
    elif name == "ovf":
        arity = 2 if i.attr in ("neg", "abs") else 3
        if len(types) != arity or any(t != T.I64 for t in types):
            _fail(f"ovf.{i.attr} takes {arity} i64 operands (the last its op's result)", i)
    elif op.nargs in (1, 2) and op.result == "same":
        if len(set(types)) != 1 or not types[0].is_numeric():
            _fail(f"{name} of {', '.join(map(str, types))}", i)
        if name == "div" and not isinstance(types[0], (T.FloatType, T.ComplexType)):
            _fail("div takes floats", i)
        if name in ("and", "or", "xor") and isinstance(types[0], T.FloatType):
            _fail(f"{name} of floats", i)
        if name in ("shl", "shr", "invert") and not isinstance(types[0], T.IntType):
            _fail(f"{name} takes ints", i)
        if name == "not" and types[0] != T.BOOL:
            _fail("not takes a bool", i)
    want = result_type(op, types, i.attr, i.type)
    if want is None or want != i.type:
        _fail(f"{name} gives {want}, instruction says {i.type}", i)


# The ops defined on complex operands (ops.py); the others are not (the frontend lowers
# `abs`, `**` and cmath through these and float ops). Array ops take complex arrays.
_COMPLEX_OPS = frozenset(("add", "sub", "mul", "div", "neg", "cmp", "select", "convert", "math",
                          "extract", "tuple", "call", "ret", "br", "cbr", "load", "store",
                          "list_get", "list_set", "alloc"))

# What `rng_state` gives: a generator's words, or its cached Gaussian.
_RNG_VIEWS = (T.ArrayType(T.U32, 1, "C"), T.ArrayType(T.F64, 1, "C"))


def _check_view(i: Instr, types: list) -> None:
    a = types[0] if types else None
    axes = i.attr
    if not isinstance(a, T.ArrayType) or not isinstance(axes, str) or len(axes) - axes.count("n") != a.ndim \
            or set(axes) - {"i", "s", "n"}:
        _fail(f"view.{axes} of a {a}", i)
    if len(types) != 1 + sum({"i": 1, "s": 3, "n": 0}[c] for c in axes) or any(t != T.I64 for t in types[1:]):
        _fail(f"view.{axes} takes one i64 per index axis and three per slice axis", i)
    kept = axes.count("s") + axes.count("n")
    if kept == 0 or i.type != T.ArrayType(a.dtype, kept, "A"):
        _fail(f"view.{axes} of {a} gives {T.ArrayType(a.dtype, max(kept, 1), 'A')}, not {i.type}", i)


def _check_list_op(i: Instr, name: str, types: list) -> None:
    """The list ops (ops.py): `list_new` gives a list; the others take a list first, then
    an i64 index or length (`list_set`: the element type's value before the index)."""
    if name in ("list_new", "list_null"):
        if types or not isinstance(i.type, T.ListType):
            _fail(f"{name} takes nothing and gives a list, not {i.type}", i)
        return
    lst = types[0] if types else None
    if not isinstance(lst, T.ListType):
        _fail(f"{name} of a {lst}, not a list", i)
    want = {"list_len": [lst], "list_get": [lst, T.I64], "list_set": [lst, lst.elem, T.I64],
            "list_resize": [lst, T.I64], "list_same": [lst, lst]}[name]
    if types != want:
        _fail(f"{name} takes {', '.join(map(str, want))}, not {', '.join(map(str, types))}", i)
    result = {"list_len": T.I64, "list_get": lst.elem, "list_set": T.NONE, "list_resize": T.BOOL,
              "list_same": T.BOOL}[name]
    if i.type != result:
        _fail(f"{name} gives {result}, instruction says {i.type}", i)


def _check_str_op(i: Instr, name: str, types: list) -> None:
    """The string ops (ops.py): `str_const` gives a str of its text; `str_new` takes an i64
    length; `str_len`, `str_get`, `str_set` take a str, then i64 code points and indices;
    `str_char` takes an i64 code point; `str_py.F` takes and gives what `STR_PY[F]` says."""
    if name == "str_py":
        spec = STR_PY.get(i.attr)
        if spec is None:
            _fail(f"unknown str_py function {i.attr}", i)
        want, result = [T.parse_scalar(t) for t in spec[0]], T.parse_scalar(spec[1])
    else:
        want = {"str_const": [], "str_new": [T.I64], "str_char": [T.I64], "str_concat": [T.STR, T.STR],
                "str_len": [T.STR], "str_eq": [T.STR, T.STR], "str_get": [T.STR, T.I64],
                "str_set": [T.STR, T.I64, T.I64]}[name]
        result = {"str_len": T.I64, "str_get": T.I64, "str_set": T.NONE, "str_eq": T.BOOL}.get(name, T.STR)
    if types != want:
        _fail(f"{name} takes {', '.join(map(str, want))}, not {', '.join(map(str, types))}", i)
    if i.type != result:
        _fail(f"{name} gives {result}, instruction says {i.type}", i)
    if name == "str_const" and not isinstance(i.attr, str):
        _fail("str_const needs its text", i)


_LAPACK_ARGS = {"c": T.I64, "i": T.I64, "f": T.F64, "r": T.F32, "d": T.ArrayType(T.F64, 1, "C"),
                "s": T.ArrayType(T.F32, 1, "C"), "n": T.ArrayType(T.I64, 1, "C")}


def _check_lapack(i: Instr, types) -> None:
    """`lapack.R`: R is known, and each operand has its argument's type (arrays of any rank)."""
    sig = LAPACK_ROUTINES.get(i.attr)
    if sig is None:
        _fail(f"unknown LAPACK routine {i.attr!r}", i)
    if i.type != T.I64 or len(types) != len(sig):
        _fail(f"lapack.{i.attr} takes {len(sig)} operands ({sig}) and gives i64", i)
    for k, (letter, t) in enumerate(zip(sig, types)):
        want = _LAPACK_ARGS[letter]
        ok = t == want if not isinstance(want, T.ArrayType) else \
            isinstance(t, T.ArrayType) and t.dtype == want.dtype and t.layout == "C"
        if not ok:
            _fail(f"operand {k} of lapack.{i.attr} ({letter}) is {t}", i)


def _check_kernel_op(i: Instr, name: str, types: list) -> None:
    """The CUDA ops (ops.py): `sreg` names a register and gives i64; `shared` takes one
    constant i64 length per axis and gives a C array; `atomic` takes an int or float array,
    one value of its element type (two for `cas`) and one i64 index per axis."""
    if name == "sreg":
        if i.attr not in SREGS or i.type != T.I64:
            _fail(f"sreg.{i.attr} : {i.type}", i)
    elif name == "shared":
        t = i.type
        if not isinstance(t, T.ArrayType) or t.layout != "C" or len(types) != t.ndim \
                or any(not (isinstance(v, Const) and v.type == T.I64 and v.value >= 0) for v in i.operands):
            _fail(f"shared of {t} takes one constant i64 length per axis and gives a C array", i)
    elif name == "atomic":
        a = types[0] if types else None
        nvals = 2 if i.attr == "cas" else 1
        if i.attr not in ATOMIC_FUNCS or not isinstance(a, T.ArrayType) \
                or not isinstance(a.dtype, (T.IntType, T.FloatType)):
            _fail(f"atomic.{i.attr} of a {a}", i)
        if len(types) != 1 + nvals + a.ndim or any(t != a.dtype for t in types[1:1 + nvals]) \
                or any(t != T.I64 for t in types[1 + nvals:]) or i.type != a.dtype:
            _fail(f"atomic.{i.attr} of a {a} takes {nvals} {a.dtype} and {a.ndim} i64 indices", i)


def _check_array_op(i: Instr, name: str, types: list) -> None:
    a = types[0] if types else None
    if not isinstance(a, T.ArrayType):
        _fail(f"{name} of a {a}, not an array", i)
    if name in ("dim", "stride"):
        if not isinstance(i.attr, int) or not 0 <= i.attr < a.ndim:
            _fail(f"{name}.{i.attr} of a {a.ndim}-d array", i)
        return
    lead = 2 if name == "store" else 1
    if len(types) != lead + a.ndim:
        _fail(f"{name} of a {a.ndim}-d array takes {a.ndim} indices", i)
    if name == "store" and types[1] != a.dtype:
        _fail(f"store of a {types[1]} into a {a}", i)
    if any(t != T.I64 for t in types[lead:]):
        _fail(f"{name} indices must be i64", i)


def _check_branch(i: Instr, types: list, blocks: set) -> None:
    name = i.op.name
    nsucc = 1 if name == "br" else 2
    if len(i.succs) != nsucc or len(i.succ_nargs) != nsucc:
        _fail(f"{name} needs {nsucc} successors", i)
    lead = 1 if name == "cbr" else 0
    if lead and types[0] != T.BOOL:
        _fail(f"cbr on {types[0]}", i)
    if lead + sum(i.succ_nargs) != len(types):
        _fail("branch argument counts do not add up", i)
    for k, s in enumerate(i.succs):
        if s not in blocks:
            _fail("branch to a block outside the function", i)
        args = i.succ_args(k)
        if len(args) != len(s.params):
            _fail(f"branch passes {len(args)} arguments to a block with {len(s.params)} parameters", i)
        for a, p in zip(args, s.params):
            if a.type != p.type:
                _fail(f"branch passes {a.type} to a parameter of type {p.type}", i)


def _check_caught(i: Instr, name: str, types: list) -> None:
    if name == "raised":
        instrs = i.block.instrs
        k = instrs.index(i)
        if k == 0 or instrs[k - 1].opname not in ("call", "str_py"):
            _fail("raised must come right after a call or a str_py", i)
    if name == "exc_match" and i.attr not in MATCH_CLASSES:
        _fail(f"exc_match of unknown class {i.attr}", i)
    if name in ("exc_match", "reraise") and types != [T.EXC]:
        _fail(f"{name} of {', '.join(map(str, types))}: takes an exc", i)
    want = {"raised": T.BOOL, "catch": T.EXC, "exc_match": T.BOOL, "reraise": T.NONE}[name]
    if i.type != want:
        _fail(f"{name} gives {want}, instruction says {i.type}", i)


def _check_exc(i: Instr, types: list, name: str) -> None:
    exc = i.attr
    if exc is None or exc.name not in EXCEPTIONS:
        _fail("unknown exception", i)
    extra = types
    if name == "check":
        if not types or types[0] != T.BOOL:
            _fail("check needs a bool condition", i)
        extra = types[1:]
    if exc.message is None:
        if extra:
            _fail("an exception without a message takes no values", i)
        return
    _check_message_operands(i, exc.message, extra)


def _check_message_operands(i: Instr, message: str, types: list) -> None:
    want = message_operands(message)
    if len(want) != len(types):
        _fail(f"message takes {len(want)} values, the instruction gives {len(types)}", i)
    for kind, t in zip(want, types):
        if not (isinstance(t, T.IntType) if kind == "int" else t == T.BOOL if kind == "bool"
                else t == T.STR if kind == "str" else t == T.F64):
            _fail(f"message argument of type {t} for a directive that takes a {kind}", i)
